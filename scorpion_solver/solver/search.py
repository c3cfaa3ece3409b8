"""The solver's public front: ``solve``, ``solve_deal``, ``screen_deals`` and ``solve_shortest``.

Each converts its input to the kernel's compact state (``compact``), has
``driver`` run the jitted search in slices inside the limits, and turns a
win into a line of moves (``lines``: decoded, cut of its detours, polished,
and replayed in plain Python before it is returned). The compiled kernel is
loaded (or compiled, on a first run) by :func:`load_solver` before the first
solve's clock starts, so a solve's ``seconds`` are its search alone.

The names the rest of the package and the tests import from here are
re-exported below (the kernel's parts on a Position, the line functions);
``driver`` holds the kernel reference the C baseline comparisons swap.
"""

from __future__ import annotations

import time

import numpy as np

from ..game.deal import deal
from ..game.engine import apply_move, is_won, legal_moves
from ..game.position import Position
from ..game.rules import CLASSIC, CLEAR, MICE, Rules
from . import compiling, driver, kernel
from .compact import (  # noqa: F401 - re-exported: callers import them from here
    compact_keys,
    decode_move,
    from_compact,
    is_wide,
    move_codes,
    position_key,
    rule_bits,
    rule_flags,
    state_problems,
    to_compact,
)
from .driver import (  # noqa: F401 - re-exported: callers import them from here
    ENTRY_BYTES,
    FIRST_TABLE,
    jit_bounded_search,
    jit_deadlocked,
    jit_legal_moves,
    jit_perft,
    jit_play,
    max_table_entries,
)
from .lines import (  # noqa: F401 - re-exported: callers import them from here
    VerificationError,
    debug_check,
    debug_line,
    decode_line,
    polish_path,
    shorten_path,
    verify_solution,
    winning_path,
)
from .probes import later_tries, probe_limits, probe_starts, scout_limits
from .reductions import FULL, Reductions
from .reductions import PRESETS as REDUCTION_PRESETS
from .result import LOST, UNKNOWN, WON, Limits, SolveResult
from .search_twin import reference_solve
from .shortest import cost_to_go, fixed_length

NO_REDUCTIONS = REDUCTION_PRESETS["none"]

ALL_JOBS = (
    "search",
    "rehash",
    "lines",
    "shortest",
    "deals",
    "screen",
)  # every job of the solver (load_solver's default)


def solver_is_cached(jobs=ALL_JOBS) -> bool:
    """Whether numba's cache holds every kernel of ``jobs`` (else a first run compiles)."""
    return not compiling.missing(compiling.kernels_of(jobs))


def load_solver(notify=None, progress=None, jobs=ALL_JOBS) -> float:
    """Load the compiled kernels of ``jobs`` into this process (compile those numba's cache lacks).

    ``notify(message)`` is called once, before compiling, when the cache
    lacks some; ``progress(total)`` makes a bar advanced kernel by kernel as
    they compile (``compiling.compiling``); both also announce a job loaded
    later, when first needed. Returns the seconds spent (0 when already
    loaded). A command loads its own jobs (``compiling.COMMAND_JOBS``);
    :func:`solve` loads the search before starting its clock.
    """
    compiling.announce_with(notify, progress)
    return compiling.load(jobs, notify, progress)


def _warm_search() -> None:
    solve(deal(1), CLEAR, Limits(nodes=1000, memory_mb=16), shorten=False)


def _warm_lines(rules: Rules = CLASSIC, number: int = 6560) -> None:
    # the detour cut and the decoding of a line on a legal line of its own (no search: it can
    # compile beside the search, in another process, and it leaves the shared search stack alone)
    position, path = deal(number, rules), []
    for _ in range(4):
        path.append(legal_moves(position, rules)[0])
        position = apply_move(position, path[-1], rules)
    start = deal(number, rules)
    shorten_path(start, path, rules)
    decode_line(start, move_codes(path), rules)


def _warm_wide() -> None:
    # the search and the line kernels on a wide state (Three Blind Mice: every ten-column game is one
    # layout, so one compile serves them all)
    solve(deal(3, MICE), MICE, Limits(nodes=1000, memory_mb=16), shorten=False)
    _warm_lines(MICE, 3)


def _warm_shortest() -> None:
    driver.jit_bounded_search(deal(1, CLASSIC), CLASSIC, 0)


def _warm_deals() -> None:
    states = np.zeros((2, kernel.STATE_SIZE), dtype=np.int8)
    driver.buffers().deals.deal_into(1, CLEAR.face_down, states[0])
    driver.buffers().deals.deal_many(np.array([1, 2], dtype=np.int64), CLEAR.face_down, states)


def _warm_screen() -> None:
    # dealt by the plain dealer: the jitted one is the deals job's, which a process compiling this job
    # beside another must not compile a second time
    driver.screen_states(np.stack([to_compact(deal(n)) for n in (1, 2)]), CLEAR)


def _warm_rehash() -> None:
    driver.compile_rehash()


def _warm_perft() -> None:
    driver.jit_perft(deal(1), 1)


def _warm_wide_perft() -> None:
    driver.jit_perft(deal(3, MICE), 1, MICE)


compiling.WARM_UPS.update(
    search=_warm_search,
    rehash=_warm_rehash,
    lines=_warm_lines,
    shortest=_warm_shortest,
    deals=_warm_deals,
    screen=_warm_screen,
    perft=_warm_perft,
    wide=_warm_wide,
    **{"wide perft": _warm_wide_perft},
)


def solve(
    position: Position,
    rules: Rules = CLEAR,
    limits: Limits = Limits(),
    engine: str = "jit",
    debug: bool = False,
    polish: bool = True,
    shorten: bool = True,
    reductions: Reductions = FULL,
    checks: WinChecks | SampledWinChecks | None = None,
) -> SolveResult:
    """Decide whether the position can be won (under ``limits``, making the sound cuts of ``reductions``).

    ``won`` comes with a solution replayed to a win in plain Python
    (``game.verify.check_solution``, equal to the reference engine's
    replay); ``lost`` means the search was exhaustive (sound pruning aside);
    ``unknown`` says which limit stopped it (``stopped_by``). With ``debug``
    the compact state is checked from scratch (``state_problems``) at the root
    and after every kernel move of a winning line, and every kernel position
    on it is compared with the reference engine's; a disagreement raises.
    The winning line is cut of its detours (``shorten_path``) and, with
    ``polish``, one with many King moves is replaced by a minimum one when a
    small shortest search finds it (``polish_path``); neither changes the
    verdict or the counters. ``shorten=False`` keeps the line as the search
    found it (no cut, no polish: for callers that use only the verdict and
    the first move, such as hop's sampled layouts, where the two were most
    of the cost of a solve). ``checks`` takes the replay of a win's line off
    this call: ``WinChecks`` (a batch's, run at the chunk's end) or
    ``SampledWinChecks`` (a no-peek player's sampled layouts, one win in N).
    """
    if engine == "reference":
        return reference_solve(position, rules, limits, reductions)
    if engine != "jit":
        raise ValueError(f"unknown engine '{engine}' (jit or reference)")
    state = to_compact(position)
    compiling.load(("wide",) if is_wide(state) else ("search",))  # a ten-column game's kernels are its own job
    start = time.perf_counter()
    stack = driver.search_stack(wide=is_wide(state))
    stack.states[0] = state
    return _solve_from_root(stack, position, 0, rules, limits, start, debug, polish, shorten, reductions, checks=checks)


class WinChecks:
    """Wins whose check is put off to the end of a batch chunk, then run in one pass.

    ``solve_deal(..., checks=queue)`` hands its win's line here instead of
    replaying it at once; :meth:`run` replays every line in the reference
    engine (``verify_solution``) and adds each check's time to its result's
    ``seconds``, so a row costs what it did. In one pass the plain engine's
    code and data can stay in the processor's caches, which a search between
    two checks pushes out (the likely reason): the checks of classic deals
    1-20000 cost a tenth less (0.28 s against 0.31 s and 0.22 s against 0.25 s, chunks
    alternating in one process; issue 32). The caller returns no result of
    the chunk before :meth:`run` has passed, so no ``won`` leaves unchecked.
    """

    def __init__(self) -> None:
        self._pending: list[tuple[int, Position, list, Rules, SolveResult]] = []

    def add(self, number: int, position: Position, path: list, rules: Rules, result: SolveResult) -> None:
        self._pending.append((number, position, path, rules, result))

    def run(self) -> None:
        """Check every pending win; RuntimeError naming the deal and mode of the first that fails (as a batch
        worker names a deal whose solve failed), caused by its VerificationError."""
        pending, self._pending = self._pending, []
        for number, position, path, rules, result in pending:
            start = time.perf_counter()
            try:
                verify_solution(position, path, rules)
            except VerificationError as exc:
                raise RuntimeError(f"deal {number} ({rules.name}): VerificationError: {exc}") from exc
            result.seconds += time.perf_counter() - start


class SampledWinChecks:
    """Replays one win in ``every`` (the first, then every ``every``-th), for wins used only inside a decision.

    A no-peek player solves hundreds of sampled layouts a move and uses a
    win only as that layout's verdict and first moves; replaying every such
    line in the plain engine was a quarter to a third of a commit2 game's
    CPU (docs/play.md). A check never changes a decision (it passes or it
    raises), so the games are the same whichever wins are checked; the
    kernel's wins are checked in full by the tests and by every batch, and
    each game a player plays is replayed by the harness. Nothing a player
    reports as won rests on an unchecked line.
    """

    def __init__(self, every: int) -> None:
        if every < 1:
            raise ValueError("every must be at least 1")
        self.every, self.wins, self.checked = every, 0, 0

    def add(self, number: int, position: Position, path: list, rules: Rules, result: SolveResult) -> None:
        due = self.wins % self.every == 0
        self.wins += 1
        if due:
            self.checked += 1
            verify_solution(position, path, rules)


def solve_deal(
    number: int,
    rules: Rules = CLEAR,
    limits: Limits = Limits(),
    reductions: Reductions = FULL,
    checks: WinChecks | None = None,
) -> SolveResult:
    """``solve(deal(number, rules), rules, limits, reductions=...)``, the batch's fast path: the same search and result.

    The jitted generator (``deal_kernel``) writes the deal straight into the
    root frame, so no ``Position`` is built for a deal that is not won; a
    ``won`` is replayed on the plain generator's deal (``game.deal``), so the
    check stays independent of both the kernel and the jitted generator.
    With ``checks``, that replay is put off to ``checks.run()`` (the batch
    checks a chunk's wins in one pass). Numbers from 2^64 on take the plain
    path.
    """
    if rules.num_columns != 7:  # the jitted dealer deals seven columns: the ten-column games take the plain one
        return solve(deal(number, rules), rules, limits, reductions=reductions, checks=checks)
    compiling.load(("search", "deals"))
    start = time.perf_counter()
    stack = driver.search_stack()
    if not driver.buffers().deals.deal_into(number, rules.face_down, stack.states[0]):
        return solve(deal(number, rules), rules, limits, reductions=reductions)
    return _solve_from_root(stack, None, number, rules, limits, start, False, reductions=reductions, checks=checks)


def _solve_from_root(
    stack: driver.Stack,
    position: Position | None,
    number: int,
    rules: Rules,
    limits: Limits,
    start: float,
    debug: bool,
    polish: bool = True,
    shorten: bool = True,
    reductions: Reductions = FULL,
    checks: WinChecks | SampledWinChecks | None = None,
) -> SolveResult:
    """Search from the state in ``stack.states[0]`` (the position, or deal ``number`` when it is None);
    a win's line is checked here, or by ``checks`` when given."""
    loading = compiling.seconds_loading  # jobs first used in this solve are loaded in it, off its seconds
    reductions = reductions.proven_for(rules)
    root_checked = False
    if stack.wide and reductions.prune:  # the wide kernel's root step has no test: its twin's, on the root
        root_checked = True
        sweeps, _, space_any, _ = rule_flags(rules)
        if kernel.wide_root_dead(stack.states[0], bool(sweeps), bool(space_any), reductions.successor_above):
            return _dead_root(rules, start)
    if stack.wide and not reductions.in_search(rules):
        reductions = NO_REDUCTIONS  # Three Blind Mice: the test on the root only, for now
    driver.root_keys(stack)
    if debug:
        debug_check(position, stack.states[0], stack.keys[0], "the root")
    scout = scout_limits(limits) if stack.wide else None
    root = stack.states[0].copy() if stack.wide else None
    status, counted, stopped_by, stack = driver.run_search(stack, rules, scout or limits, start, reductions)
    result = _counted_result(status, counted, rules, stopped_by)
    probe_moves: list | None = None  # a probe's random moves, when a probe won
    if stack.wide and stopped_by == "nodes":  # the tries after the first (probes.py): probes and each order
        for kind, *which in later_tries(limits, scout is not None):
            if result.stopped_by != "nodes":
                break
            if kind == "probes":
                status, counted, result, stack, probe_moves = _probe(
                    stack, position, rules, limits, start, reductions, result, *which
                )
                continue
            stack.states[0] = root.copy()
            driver.root_keys(stack)
            tried = result
            status, counted, stopped_by, stack = driver.run_search(stack, rules, limits, start, reductions, *which)
            result = _counted_result(status, counted, rules, stopped_by).after(tried)
    result.deadlock_checks += root_checked
    if status == kernel.S_WON:
        path = winning_path(stack, counted[kernel.C_SP])
        if position is None:
            position = deal(number, rules)
        root = (stack.states[0], stack.keys[0])
        if probe_moves is not None:  # the probe's search began after its random moves: the root is ours
            path, root = probe_moves + path, None
        if shorten:
            compiling.load(("wide",) if stack.wide else ("lines",))
            path = shorten_path(position, path, rules, root)
            if polish and not stack.wide:  # the polish's shortest search is one-deck only
                path = polish_path(position, path, rules, reductions.prune)
        if checks is None:
            verify_solution(position, path, rules)
        else:
            checks.add(number, position, path, rules, result)
        if debug:
            debug_line(position, path, rules)
        result.line = tuple(path)
    result.seconds = time.perf_counter() - start - (compiling.seconds_loading - loading)
    return result


def _probe(
    stack: driver.Stack,
    position: Position,
    rules: Rules,
    limits: Limits,
    start: float,
    reductions: Reductions,
    tried: SolveResult,
    first: int,
    stop: int,
) -> tuple[int, list[int], SolveResult, driver.Stack, list | None]:
    """Probes ``first`` to ``stop`` of a wide search the tries before left unknown (``probes``; twin:
    ``search_twin._probed``): (status, the last probe's counters, the result with every probe's work
    counted in, the stack, the winning probe's random moves or None)."""
    counted: list[int] = []
    for moves, here in probe_starts(position, rules, stop, first):
        stack.states[0] = to_compact(here)
        if is_won(here, rules):  # its random moves alone won: an empty line from there
            tried.status, tried.stopped_by = WON, ""
            return kernel.S_WON, [0] * kernel.COUNTERS_SIZE, tried, stack, moves
        driver.root_keys(stack)
        status, counted, stopped_by, stack = driver.run_search(stack, rules, probe_limits(limits), start, reductions)
        tried = _counted_result(status, counted, rules, stopped_by).after(tried)
        if status == kernel.S_WON:
            return status, counted, tried, stack, moves
        tried.status, tried.stopped_by = UNKNOWN, "time" if stopped_by == "time" else "nodes"
        if stopped_by == "time":
            break
    return kernel.S_NODES, counted, tried, stack, None


def _dead_root(rules: Rules, start: float) -> SolveResult:
    """The result of a root the deadlock test proves lost (the twin's counters: one node, one check, no move)."""
    return SolveResult(
        status=LOST,
        rules=rules.name,
        nodes=1,
        peak_entries=1,
        deadlock_checks=1,
        deadlock_prunes=1,
        dead_at_root=True,
        seconds=time.perf_counter() - start,
    )


def _counted_result(status: int, counted: list[int], rules: Rules, stopped_by: str) -> SolveResult:
    """A SolveResult from the kernel's status and counters (the line and the seconds are the caller's)."""
    return SolveResult(
        status=WON if status == kernel.S_WON else LOST if status == kernel.S_LOST else UNKNOWN,
        rules=rules.name,
        nodes=counted[kernel.C_NODES],
        moves_made=counted[kernel.C_MAKES],
        peak_entries=counted[kernel.C_ENTRIES],
        max_depth=counted[kernel.C_MAXDEPTH],
        deadlock_checks=counted[kernel.C_CHECKS],
        deadlock_prunes=counted[kernel.C_PRUNES],
        dead_at_root=bool(counted[kernel.C_DEAD_ROOT]),
        stopped_by=stopped_by,
    )


# the shortest search and its cost bound are one-deck arguments (shortest.py), not yet redone for two decks or reserves
SHORTEST_SHAPE = "the shortest search plays the seven-column games only, not {name}"

SCREEN_LIMIT = (1 << 63) - 1  # deal numbers up to this go through screen_deals' int64 arrays


def screen_deals(
    numbers: list[int], rules: Rules = CLEAR, limits: Limits = Limits(), reductions: Reductions = FULL
) -> dict[int, SolveResult]:
    """The results of the deals of ``numbers`` that are lost at the root, found in two jitted calls.

    A batch's fast path for the deals the deadlock test decides before any
    move (about 85-86% of them): ``deal_kernel.deal_states`` deals the chunk,
    ``kernel.screen_roots`` runs ``search``'s own root step on each; a deal it
    decides gets the result ``solve_deal`` would give (the same counters:
    tests/test_screen.py compares them), with ``seconds`` the chunk's time
    shared equally among them. The other deals are left out of the result,
    to be solved one by one. Nothing is decided without the deadlock test
    (``reductions.prune`` off) or for numbers past ``SCREEN_LIMIT``.
    """
    if not (reductions.proven_for(rules).prune and rules.is_scorpion_shape):  # the jitted dealer deals 7 columns
        return {}
    compiling.load(("deals", "screen"))
    start = time.perf_counter()
    numbers = [n for n in numbers if n <= SCREEN_LIMIT]
    decided, statuses, counters = driver.screen(numbers, rules, reductions)
    out: dict[int, SolveResult] = {}
    if not decided:
        return out
    share = (time.perf_counter() - start) / decided
    for number, status, counted in zip(numbers, statuses, counters):
        if status == kernel.S_LOST:
            result = out[number] = _counted_result(status, counted, rules, "")
            result.seconds = share
    return out


def solve_shortest(
    position: Position, rules: Rules = CLEAR, limits: Limits = Limits(), reductions: Reductions = FULL
) -> SolveResult:
    """Decide the position and, when won, return a win of minimum length, proved minimal.

    First ``solve`` (its shortened line gives an upper bound U on the extra
    cost), then ``kernel.shortest_search`` for bound = h, h + 1, ..., U - 1
    (h: ``shortest.cost_to_go`` at the root) until a win appears; when none does,
    the line of ``solve`` is minimal. Why a least extra cost is a least length
    in every preset: ``shortest``. The node and time limits cover the whole;
    when one stops the proof the shortest line found is returned with
    ``shortest = "shortened"``. ``nodes`` adds the iterations' nodes to the
    solve's; the winning line is replayed by the reference engine. The first
    ``solve`` makes every cut of ``reductions``; the bounded searches honour
    its deadlock test alone (``prune``, as the ``deadlock`` preset).
    """
    if not rules.is_scorpion_shape:
        raise ValueError(SHORTEST_SHAPE.format(name=rules.name))
    compiling.load(("search", "lines", "shortest"))
    start = time.perf_counter()
    result = solve(position, rules, limits, polish=False, reductions=reductions)
    if result.status != WON:
        return result
    line = list(result.line)
    fixed = fixed_length(position)
    upper = len(line) - fixed  # the line's extra cost
    proved = "proved"
    nodes = result.nodes
    for bound in range(cost_to_go(position, rules, frozenset(position.tail)), upper):
        status, found, used = driver.run_bounded(
            position, rules, bound, fixed, limits, limits.nodes - nodes, start, reductions.prune
        )
        nodes += used
        if status == kernel.S_WON:
            line = found
            break
        if status != kernel.S_LOST:
            proved = "shortened"
            break
    verify_solution(position, line, rules)
    result.line = tuple(line)
    result.nodes = nodes
    result.shortest = proved
    result.seconds = time.perf_counter() - start
    return result
