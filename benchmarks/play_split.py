#!/usr/bin/env python3
"""Where one game's CPU goes: a player's game with CPU counters around the solver's and the player's parts.

Usage::

    python benchmarks/play_split.py commit clear 58          # K=100, 1000 nodes, exact endgame from 5
    python benchmarks/play_split.py commit2 classic 100 --samples 20

Plays deal DEAL of MODE with ``make_policy(POLICY, rules, seed=DEAL,
samples=K, nodes=N, exact_endgame=X)`` after a warm-up game (compile time
excluded), with ``time.process_time`` counters wrapped around the parts
named below. Each part's time includes what it calls, so parts nest (a
solve's replay is inside the solve); the shares are of the whole game. The
counters cost about a microsecond a call, unlike a profiler's cost on every
Python call, which inflates the plain-Python parts (the closure walks, the
replay) against the kernel: so the shares here are the game's own.
"""

from __future__ import annotations

import argparse
import collections
import time

from scorpion_solver.game.deal import deal
from scorpion_solver.game.rules import get_rules
from scorpion_solver.play import commit, commit2, exact, make_policy, play_game
from scorpion_solver.solver import driver, kernel, search

# (module or class, attribute, what it is): looked up where its callers look it up
PARTS = (
    (search, "solve", "solves (all of them)"),
    (search, "to_compact", "  conversion to the kernel's state"),
    (driver, "run_search", "  search (driver and kernel)"),
    (kernel, "search", "    the kernel's calls"),
    (search, "winning_path", "  a won line read off the stack"),
    (search, "verify_solution", "  replay of the won line (reference engine)"),
    (commit, "judge_commitments", "commit's judgement of commitments (its solves included)"),
    (commit2.TwoLevelCommitPolicy, "_pick", "commit2's second level (its solves included)"),
    (commit, "reveal_closure", "commit's closure walks"),
    (exact.ExactEndgame, "best_line", "the exact endgame (its solves included)"),
    (exact, "reveal_closure", "  its closure walks"),
)


def wrap(owner, name: str, label: str, spent: collections.Counter, calls: collections.Counter) -> None:
    original = getattr(owner, name)

    def timed(*args, **kwargs):
        start = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[label] += time.process_time() - start
            calls[label] += 1

    setattr(owner, name, timed)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("policy", choices=("hop", "commit", "commit2"))
    parser.add_argument("mode", choices=("clear", "classic"))
    parser.add_argument("deal", type=int)
    parser.add_argument("--samples", type=int, default=100, help="K, layouts a decision")
    parser.add_argument("--nodes", type=int, default=1000, help="node budget a solve")
    parser.add_argument(
        "--exact-endgame", type=int, default=5, metavar="N", help="exact endgame from N unseen (0: off)"
    )
    args = parser.parse_args()
    rules = get_rules(args.mode)
    options = {"samples": args.samples, "nodes": args.nodes, "exact_endgame": args.exact_endgame}
    play_game(deal(5, rules), rules, make_policy(args.policy, rules, **options))  # warm-up: compile or load
    spent: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()
    for owner, name, label in PARTS:
        wrap(owner, name, label, spent, calls)
    policy = make_policy(args.policy, rules, seed=args.deal, **options)
    start = time.process_time()
    record = play_game(deal(args.deal, rules), rules, policy)
    total = time.process_time() - start
    print(
        f"{args.policy} {args.mode} deal {args.deal}: {record.outcome} in {len(record.moves)} moves, "
        f"{record.decisions} decisions, {record.solves} solves; {total:.2f} CPU s"
    )
    for _, _, label in PARTS:
        if calls[label]:
            print(f"  {label:58} {spent[label]:7.2f} s {100 * spent[label] / total:5.1f}%  {calls[label]} calls")


if __name__ == "__main__":
    main()
