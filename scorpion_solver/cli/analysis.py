"""The ``scorpion hint`` and ``scorpion analyze`` commands (registered by ``cli``).

A thin layer over :mod:`analysis`: read the position (a deal number or a
position file) and the moves, run the analysis, print text or JSON. User
mistakes (bad deal number, malformed position, illegal or unreadable move,
bad option) end as one ``error:`` line on stderr with exit status 2, through
``common.user_errors``.
"""

from __future__ import annotations

import click

from ..analysis.game_record import (
    FOUND_FATAL,
    FOUND_LOST_AT_START,
    FOUND_WINNABLE,
    FOUND_WON,
    GameAnalysis,
    analyze,
)
from ..analysis.hints import ALREADY_WON, WINNABLE, HintReport, hint
from ..game.engine import move_text, moves_text, replay
from ..game.rules import Rules
from ..solver.result import LOST, UNKNOWN, Limits
from .common import (
    UserError,
    budget_options,
    counted,
    echo_json,
    load_solver_announced,
    load_start,
    load_view,
    moves_options,
    refuse_given,
    rules_options,
    shown_option,
    user_errors,
)

# Budget per solve. Lower than `solve`'s: a hint makes one solve per legal move.
ANALYSIS_NODES = 5_000_000


def _common_options(func):
    """The options hint and analyze share: the rules, a budget per solve, --json."""
    func = click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON object instead of text (docs/output.md)."
    )(func)
    func = budget_options(nodes=ANALYSIS_NODES)(func)
    return rules_options(default_text="clear for deals, a position file's own mode line")(func)


def _label(source: str, number: int | None, rules_name: str) -> str:
    what = f"deal {number}" if number is not None else "standard input" if source == "-" else source
    return f"{what}, {rules_name}"


def _cost(solves: int, nodes: int, seconds: float) -> str:
    return f"[{counted(solves, 'solve')}, {counted(nodes, 'node')}, {seconds:.3f} s]"


# --------------------------------------------------------------------------
# hint


@click.command("hint")
@click.argument("source")
@_common_options
@click.option(
    "--fair",
    is_flag=True,
    help="Judge the moves knowing only what a player sees: SOURCE may hold ?? for unknown cards; "
    "each move's share of sampled layouts of the hidden cards in which it keeps the game winnable.",
)
@shown_option("--samples", click.IntRange(1), 100, "--fair: layouts sampled.")
@shown_option("--seed", click.IntRange(0), 0, "--fair: the sampling seed.")
@moves_options(
    moves_help="Judge the position after these moves from SOURCE, e.g. --moves '6C:5>2 KS:3>4' (quoted). With "
    "--fair and a deal number, the view knows only the cards the moves turned up.",
    file_help="Read those moves from FILE (- for standard input).",
)
@click.option(
    "--exact",
    is_flag=True,
    help="--fair: instead of sampling, every move's exact win probability for a player who cannot peek "
    "(expectimax over the unseen cards, play/exact.py), beside the position's thoughtful share.",
)
@shown_option(
    "--max-unseen",
    click.IntRange(0, 10),
    6,
    "--exact: refuse views with more unseen cards (the cost grows about as n!).",
)
@user_errors
def hint_command(
    source: str,
    rules: Rules | None,
    nodes: int,
    memory_mb: int,
    seconds: float | None,
    as_json: bool,
    fair: bool,
    samples: int,
    seed: int,
    moves: list,
    exact: bool,
    max_unseen: int,
) -> None:
    """Judge every legal move of SOURCE (a deal number, a position file, or - for standard input).

    Each move is shown with its verdict: it keeps the game winnable (with the
    length of the known win), it loses, or unknown within the budget. The best
    move (winnable, shortest known win) comes first, and the first line says
    whether the position itself can still be won. With --fair, SOURCE is what a
    player sees (a deal number shows its deal's view; a file may write ?? for
    each unknown face-down or tail card) and each move gets its share of
    sampled layouts with a 95% interval; with --fair --exact, its exact win
    probability for a player who cannot peek.
    """

    limits = Limits(nodes=nodes, memory_mb=memory_mb, seconds=seconds)
    if exact and not fair:
        raise UserError("--exact judges what a player sees: give it with --fair")
    if not fair:
        refuse_given(["samples", "seed"], "--fair (which samples layouts of the hidden cards)")
    if not exact:
        refuse_given(["max_unseen"], "--fair --exact")
    if exact:
        refuse_given(["samples", "seed"], "--fair without --exact (--exact weighs every arrangement, it samples none)")
        _exact_hint(source, rules, moves, limits, max_unseen, as_json)
        return
    if fair:
        _fair_hint(source, rules, moves, limits, samples, seed, as_json)
        return
    position, rules, number = load_start(source, rules)
    position = replay(position, moves, rules)
    load_solver_announced("hint")
    report = hint(position, rules, limits)
    if as_json:
        _echo_json(report.as_dict(), source, number)
        return
    click.echo(format_hint(report, _label(source, number, rules.name)))


def _fair_hint(source: str, rules, moves, limits: Limits, samples: int, seed: int, as_json: bool) -> None:
    from ..play.fair import fair_hint

    view, rules, number = load_view(source, rules, moves)
    load_solver_announced("hint --fair")
    report = fair_hint(view.blind(), rules, samples, seed, limits)  # a player never saw a face-down card
    if as_json:
        _echo_json(report.as_dict(), source, number)
        return
    click.echo(format_fair_hint(report, _label(source, number, rules.name)))


def _exact_hint(source: str, rules, moves, limits: Limits, max_unseen: int, as_json: bool) -> None:
    """``hint --fair --exact``: the view read as ``_fair_hint`` reads it, then the exact value of every move.

    ``--nodes`` and ``--memory`` are each solve's budgets, ``--time`` the whole answer's.
    """
    from ..play.exact import ExactEndgame

    view, rules, number = load_view(source, rules, moves)
    view = view.blind()  # a player never saw a face-down card
    engine = ExactEndgame(
        rules,
        max_unseen=max_unseen,
        solve_nodes=limits.nodes,
        solve_memory_mb=limits.memory_mb,
        seconds=limits.seconds,
    )
    engine.check(view)  # too many unseen cards: one error line, exit 2
    load_solver_announced("hint --exact")
    report = engine.report(view)
    if as_json:
        _echo_json(report.as_dict(), source, number)
        return
    label = _label(source, number, rules.name)
    lines = [f"{label}: exact values for a player who cannot peek, over the {report.unseen} unseen cards"]
    if report.value is None:
        lines.append(f"exact value: unknown (stopped by the {report.stopped_by} limit)")
    else:
        share = "unknown" if report.share is None else f"{float(report.share):.1%} ({report.share})"
        lines.append(f"exact value: {float(report.value):.1%} ({report.value}); thoughtful share: {share}")
    if not report.moves:
        lines.append("no legal move")
    else:
        best = report.best
        lines.append(f"best move: {best.text}" if best else "best move: none wins in any arrangement")
        width = max(len(m.text) for m in report.moves)
        for m in report.moves:
            value = "unknown" if m.value is None else f"{float(m.value):6.1%}  ({m.value})"
            lines.append(f"  {m.text:<{width}}  {value}" + ("  reveals a card" if m.reveals else ""))
    lines.append(_cost(report.solves, report.nodes, report.seconds))
    click.echo("\n".join(lines))


FAIR_SHARE_MEANING = (
    "a share counts the layouts in which the move keeps a win possible for a player who could see every "
    "card afterwards: an upper bound on your own chance"
)


def format_fair_hint(report, label: str) -> str:
    sampled = report.unseen > 0  # with nothing unseen there is one layout, the position itself: no interval

    def share(wins: int, value: float, interval: tuple[float, float]) -> str:
        if not sampled:
            return "winnable" if wins else "lost"
        return f"{value:6.1%}  ({interval[0]:.1%} - {interval[1]:.1%})"

    if sampled:
        low, high = report.interval
        lines = [
            f"{label}: {report.samples} sampled layouts of the {report.unseen} unseen cards (seed {report.seed})",
            f"winnable in {report.wins} of {report.samples} layouts: {report.share:.1%} "
            f"(95% interval {low:.1%} - {high:.1%})" + (f"; {report.unknown} undecided" if report.unknown else ""),
            FAIR_SHARE_MEANING,
        ]
    else:
        verdict = (
            ("won" if not report.moves else "winnable")
            if report.wins
            else "undecided within the budget"
            if report.unknown
            else "lost"
        )
        lines = [f"{label}: no card is unseen, so nothing is sampled: the position itself is {verdict}"]
    if not report.moves:
        lines.append("no legal move")
        return "\n".join(lines)
    best = report.best
    lines.append(f"best move: {best.text}" if best.wins else "best move: none keeps a sampled layout winnable")
    width = max(len(m.text) for m in report.moves)
    for m in report.moves:
        extra = f", {m.unknown} undecided" if m.unknown else ""
        win = f", win in {m.mean_win_moves:.0f} moves{' on average' if sampled else ''}" if m.wins else ""
        lines.append(f"  {m.text:<{width}}  {share(m.wins, m.share, m.interval)}{win}{extra}")
    lines.append(_cost(report.solves, report.nodes, report.seconds))
    return "\n".join(lines)


def format_hint(report: HintReport, label: str) -> str:
    lines = [f"{label}: {report.reason}"]
    if report.status == ALREADY_WON or not report.moves:
        return "\n".join(lines)
    best = report.best
    if best is not None:
        lines.append(f"best move: {best.text} (a win in {best.moves_to_win} moves)")
    elif report.status == LOST:
        lines.append("best move: none, every move loses")
    else:
        lines.append("best move: none known within the budget")
    width = max(len(v.text) for v in report.moves)
    for v in report.moves:
        if v.verdict == WINNABLE:
            detail = "keeps it winnable", ("wins at once" if v.moves_to_win == 1 else f"win in {v.moves_to_win} moves")
        elif v.verdict == LOST:
            detail = "loses", ""
        else:
            detail = "unknown", f"stopped by the {v.stopped_by} limit" if v.stopped_by else ""
        line = f"  {v.text:<{width}}  {detail[0]:<17}  {detail[1]}".rstrip()
        lines.append(line)
    lines.append(_cost(report.solves, report.nodes, report.seconds))
    return "\n".join(lines)


# --------------------------------------------------------------------------
# analyze


@click.command("analyze")
@click.argument("source")
@moves_options(
    required=True,
    moves_help="The moves played, space separated, e.g. --moves '6C:5>2 KS:3>4 tail' (quoted: a shell reads > "
    "as a redirection). Not together with --moves-file.",
    file_help="Read the moves played from FILE (- for standard input): space or line separated, '#' comments allowed.",
)
@_common_options
@user_errors
def analyze_command(
    source: str,
    moves: list,
    rules: Rules | None,
    nodes: int,
    memory_mb: int,
    seconds: float | None,
    as_json: bool,
) -> None:
    """Find where a game record lost the game: SOURCE (deal number or position file) plus the moves played.

    Reports the fatal move (the first after which no win existed), the
    winning alternative at that point and whether the final position can
    still be won. When budgets leave some positions unknown, it says between
    which moves the fatal one lies.
    """

    position, rules, number = load_start(source, rules)
    load_solver_announced("analyze")
    result = analyze(position, moves, rules, Limits(nodes=nodes, memory_mb=memory_mb, seconds=seconds))
    if as_json:
        _echo_json(result.as_dict(), source, number)
        return
    click.echo(format_analysis(result, _label(source, number, rules.name)))


def _echo_json(data: dict, source: str, number: int | None) -> None:
    """One JSON object, saying first what was analysed (the argument and the deal number, if any)."""
    echo_json({"source": source, "deal": number, **data})


def _move_ref(result: GameAnalysis, number: int) -> str:
    return f"move {number} ({move_text(result.moves[number - 1])})"


def format_analysis(result: GameAnalysis, label: str) -> str:
    n = len(result.moves)
    lines = [f"{label}: {n} move{'s' if n != 1 else ''} played"]
    if result.finding == FOUND_WON:
        lines.append("no fatal move: the game is won")
    elif result.finding == FOUND_WINNABLE:
        lines.append("no fatal move: the final position can still be won")
    elif result.finding == FOUND_LOST_AT_START:
        lines.append("no fatal move: the start position was already lost (no sequence of moves wins it)")
    elif result.finding == FOUND_FATAL:
        fatal = result.fatal_index
        lines.append(f"fatal move: {_move_ref(result, fatal)}; the game could be won before it, not after it")
        alt = result.alternative_solution
        lines.append(
            f"winning alternative at move {fatal}: {move_text(alt[0])} "
            f"(instead of {move_text(result.fatal_move)}), a win in {len(alt)} moves from there:"
        )
        lines.append("  " + moves_text(alt))
    else:
        first, last = result.suspects()
        lines.append(
            f"the fatal move could not be located exactly: unknown verdicts within the budget "
            f"leave moves {first} to {last}"
        )
        if result.last_winnable is None:
            lines.append("  the start position is not known to be winnable; it may have been lost before any move")
        else:
            lines.append(
                f"  the game was still winnable after move {result.last_winnable}"
                if result.last_winnable
                else "  the start position was winnable"
            )
        if result.first_lost is None:
            lines.append("  the final position is not known to be lost; the game may still be winnable")
        else:
            lines.append(f"  it was lost after {_move_ref(result, result.first_lost)}")
    final = result.final_status
    if final == UNKNOWN:
        final_probe = next(p for p in result.probes if p.index == n)
        why = f" (stopped by the {final_probe.stopped_by} limit)" if final_probe.stopped_by else ""
        lines.append(f"final position: unknown{why}")
    else:
        lines.append(f"final position: {final}")
    lines.append(_cost(len(result.probes), result.nodes, result.seconds))
    return "\n".join(lines)
