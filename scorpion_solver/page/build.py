"""The pages ``scorpion show`` makes: a start, an optional line of moves, then a solution or a hint.

* :func:`solution_page`: the moves given, then the solver's win from there
  (replayed by the reference engine), or the verdict when there is none;
* :func:`hint_page`: the moves given, then every legal move of the position
  reached with its verdict (``analysis.hints.hint``);
* :func:`fair_page`: the same for what a player sees (``play.fair.fair_hint``):
  unseen cards as ``??``, each move with its share of sampled layouts in
  which it keeps the game winnable.

Each returns the page data of :mod:`page.data` (whose :func:`page_data` makes
the page of a plain line of moves, nothing solved); :func:`page.html.write_page`
writes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis.hints import hint
from ..game.engine import Move, replay
from ..game.position import Position
from ..game.rules import Rules
from ..game.view import UNKNOWN, Observation, decks_of, swept_runs
from ..play.fair import DEFAULT_FAIR_SAMPLES, fair_hint
from ..solver.result import LOST, WON, Limits
from .data import Mask, choices_from_fair, choices_from_hint, choices_view, face_down_cards, page_data


def _after(count: int) -> str:
    return f"after the {count} move{'s' if count != 1 else ''} given, " if count else ""


def solution_page(
    start: Position, rules: Rules, moves: Sequence[Move] = (), limits: Limits = Limits(), **where
) -> dict:
    """The moves given, then a win found by the solver from the position they reach.

    ``where`` is what :func:`page.data.page_data` says of the page's origin: ``deal``, ``source``, ``command``.
    """
    from ..solver.search import solve  # numba loads on first use

    reached = replay(start, moves, rules)
    result = solve(reached, rules, limits)
    after = _after(len(moves))
    if result.status == WON:
        solution = list(result.line)
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
    return page_data(start, rules, line, label=label, verdict=verdict, **where)


def hint_page(start: Position, rules: Rules, moves: Sequence[Move] = (), limits: Limits = Limits(), **where) -> dict:
    """The moves given, then every legal move of the position reached, judged by the exact solver.

    ``where``: as :func:`solution_page`'s.
    """
    reached = replay(start, moves, rules)
    report = hint(reached, rules, limits)
    verdict = {"status": report.status, "text": _after(len(moves)) + report.reason}
    data = page_data(start, rules, moves, label="moves given", verdict=verdict, **where)
    if report.moves:
        choices = choices_from_hint(report)
        data["choices"] = _choices("Hint", reached, rules, choices, moves, report.status, report.reason)
    return data


def fair_page(
    start: Position,
    rules: Rules,
    moves: Sequence[Move] = (),
    limits: Limits = Limits(nodes=100_000),
    samples: int = DEFAULT_FAIR_SAMPLES,
    seed: int = 0,
    *,
    mask: Mask = face_down_cards,
    **where,
) -> dict:
    """The moves given, then every legal move of the view reached, with its share of winnable layouts.

    ``start`` holds the player's view: ``mask`` gives, at each position, the
    cards the player does not know (for a deal, :func:`page.data.face_down_cards`:
    the moves given turn up real cards as they would at the table; for a view
    read from text, its stand-in with the unseen cards masked, and moves that
    would turn up an unseen card must be refused before). The view of the
    position reached is judged by :func:`play.fair.fair_hint`. Each option is
    shown on the stand-in of that view (a position consistent with it) with
    every unseen card written ``??``, also a card the move turns face up: the
    page never holds the identity of a card the player has not seen. ``where``: as :func:`solution_page`'s.
    """
    reached = replay(start, moves, rules)
    unknown = frozenset(mask(reached)) if mask else frozenset()
    view = observation(reached, unknown)
    report = fair_hint(view, rules, samples, seed, limits)
    low, high = report.interval
    if report.unseen:
        layouts = f"{report.samples} sampled layouts of the {report.unseen} unseen cards (seed {report.seed})"
    else:
        layouts = "no card is hidden: one layout, the position itself"
    reason = f"winnable in {report.wins} of {layouts}: {report.share:.1%} (95% interval {low:.1%} - {high:.1%})" + (
        f"; {report.unknown} undecided within the budget" if report.unknown else ""
    )
    status = "winnable" if report.wins else "unknown" if report.unknown or report.samples == 0 else "lost"
    verdict = {"status": status, "text": _after(len(moves)) + reason}
    data = page_data(start, rules, moves, label="moves given", verdict=verdict, mask=mask, **where)
    if report.moves:
        unseen = frozenset(view.unseen)
        data["choices"] = _choices(
            "Fair hint",
            view.stand_in(),
            rules,
            choices_from_fair(report),
            moves,
            status,
            reason + "; a card a move turns up is shown as ? (the view cannot tell which)",
            mask=lambda _position: unseen,
        )
    return data


def _choices(
    what: str,
    position: Position,
    rules: Rules,
    choices,
    moves: Sequence[Move],
    status: str,
    reason: str,
    mask: Mask = None,
) -> dict:
    """The choices block of a hint page, titled ``what`` and where in the line it stands."""
    title = f"{what}: every legal move" + (f" after move {len(moves)}" if moves else " of the start")
    return choices_view(position, rules, choices, len(moves), title=title, status=status, reason=reason, mask=mask)


def observation(position: Position, unknown: frozenset[int]) -> Observation:
    """The view of ``position`` in which the cards of ``unknown`` (face-down or tail cards) are not known."""
    columns = tuple(tuple(UNKNOWN if c in unknown else c for c in col) for col in position.columns)
    tail = tuple(UNKNOWN if c in unknown else c for c in position.tail)
    decks = decks_of(position)
    swept = swept_runs(position, decks)
    return Observation(columns, position.hidden, tail, swept, position.frozen, position.reserves, decks)
