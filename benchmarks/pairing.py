"""The paired timing loop the kernel comparisons share.

Two kernels (the working tree's and a baseline, or numba and C) solve the
same deals in one process under the same ``search.solve``, alternating which
goes first deal by deal (ABBA...), so both see the same machine load; a
kernel's time on a deal is the fastest of the rounds (the machine's other
load only ever slows a run down). :func:`differences` lists what two results
of the same deal disagree on (a kernel change that should not change the
search must leave every field equal).
"""

from __future__ import annotations

import time

from scorpion_solver.game.deal import deal
from scorpion_solver.game.rules import CLASSIC, CLEAR
from scorpion_solver.solver import driver, search
from scorpion_solver.solver.result import Limits, SolveResult

RULES = {"clear": CLEAR, "classic": CLASSIC}
NATIVE_NAMES = ("numba", "C")  # the kernels of compare_c.py and run_all.py's native section

COMPARED = (
    "status",
    "nodes",
    "moves_made",
    "deadlock_checks",
    "deadlock_prunes",
    "peak_entries",
    "max_depth",
    "dead_at_root",
    "stopped_by",
    "solution",
)


def solve_timed(kernel, stack, mode: str, number: int, limits: Limits = Limits()) -> tuple[float, SolveResult]:
    """One solve with this kernel and its own stack; CPU seconds of the solve alone."""
    driver.kernel, driver._reused = kernel, stack
    rules = RULES[mode]
    position = deal(number, rules)
    start = time.process_time()
    result = search.solve(position, rules, limits)
    return time.process_time() - start, result


def warm_up(kernels: dict, stacks: dict) -> None:
    """A first solve per kernel and mode, untimed: compile or load from the cache, grow a fresh stack."""
    for name, kernel in kernels.items():
        for mode in RULES:
            solve_timed(kernel, stacks[name], mode, 5)


def run_paired(sets: dict[str, list[int]], rounds: int, kernels: dict, stacks: dict, limits: Limits = Limits()):
    """Solve every deal with every kernel, alternating which goes first deal by deal (ABBA...).

    Returns per (kernel name, mode, deal) the fastest CPU time of the rounds, and the result of the last round.
    """
    best: dict[tuple[str, str, int], float] = {}
    results: dict[tuple[str, str, int], SolveResult] = {}
    names = list(kernels)
    flip = 0
    for _ in range(rounds):
        for mode, deals in sets.items():
            for number in deals:
                flip ^= 1
                for name in names[:: 1 if flip else -1]:
                    seconds, result = solve_timed(kernels[name], stacks[name], mode, number, limits)
                    key = (name, mode, number)
                    best[key] = min(best.get(key, float("inf")), seconds)
                    results[key] = result
    return best, results


def differences(results: dict, mode: str, number: int, first: str = "numba", second: str = "C") -> list[str]:
    a, b = results[first, mode, number], results[second, mode, number]
    return [
        f"{field} {getattr(a, field)!r} vs {getattr(b, field)!r}"
        for field in COMPARED
        if getattr(a, field) != getattr(b, field)
    ]
