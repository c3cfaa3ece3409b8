"""The pages ``scorpion show`` makes: a start, an optional line of moves, then a solution or a hint.

* :func:`solution_page`: the moves given, then the solver's win from there
  (replayed by the reference engine), or the verdict when there is none;
* :func:`hint_page`: the moves given, then every legal move of the position
  reached with its verdict (``analysis.hints.hint``).

Each returns the page data of :mod:`page.data` (whose :func:`page_data` makes
the page of a plain line of moves, nothing solved); :func:`page.html.write_page`
writes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis.hints import hint
from ..game.engine import Move, parse_moves, replay
from ..game.position import Position
from ..game.rules import Rules
from ..solver.result import LOST, WON, Limits
from .data import choices_from_hint, choices_view, page_data


def _after(count: int) -> str:
    return f"after the {count} move{'s' if count != 1 else ''} given, " if count else ""


def solution_page(
    start: Position,
    rules: Rules,
    moves: Sequence[Move] = (),
    limits: Limits = Limits(),
    *,
    deal: int | None = None,
    source: str = "",
    command: str = "",
) -> dict:
    """The moves given, then a win found by the solver from the position they reach."""
    from ..solver.search import solve  # numba loads on first use

    reached = replay(start, moves, rules)
    result = solve(reached, rules, limits)
    after = _after(len(moves))
    if result.status == WON:
        solution = parse_moves(result.solution)
        line = list(moves) + solution
        verdict = {
            "status": WON,
            "text": f"{after}won: a win in {len(solution)} moves, found by the solver and replayed by the "
            f"reference engine ({result.nodes:,} nodes)",
        }
        label = "moves given, then the solution" if moves else "solution"
    else:
        line = list(moves)
        if result.status == LOST:
            text = f"{after}lost: the search proved that no sequence of moves wins ({result.nodes:,} nodes)"
        else:
            text = f"{after}unknown: the search was stopped by the {result.stopped_by} limit ({result.nodes:,} nodes)"
        verdict = {"status": result.status, "text": text}
        label = "moves given"
    return page_data(start, rules, line, label=label, deal=deal, source=source, command=command, verdict=verdict)


def hint_page(
    start: Position,
    rules: Rules,
    moves: Sequence[Move] = (),
    limits: Limits = Limits(),
    *,
    deal: int | None = None,
    source: str = "",
    command: str = "",
) -> dict:
    """The moves given, then every legal move of the position reached, judged by the exact solver."""
    reached = replay(start, moves, rules)
    report = hint(reached, rules, limits)
    verdict = {"status": report.status, "text": _after(len(moves)) + report.reason}
    data = page_data(
        start, rules, moves, label="moves given", deal=deal, source=source, command=command, verdict=verdict
    )
    if report.moves:
        title = "Hint: every legal move" + (f" after move {len(moves)}" if moves else " of the start")
        data["choices"] = choices_view(
            reached,
            rules,
            choices_from_hint(report),
            len(moves),
            title=title,
            status=report.status,
            reason=report.reason,
        )
    return data
