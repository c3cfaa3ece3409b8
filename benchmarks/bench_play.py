#!/usr/bin/env python3
"""Play benchmark: decisions per second and games per hour for each policy, and the cost per solve.

Plays the first winnable deals of each mode (the exact results say which:
``results/deals-1-1000000``, or the docs/rules.md known deals 5, 33, 37 when that
folder is absent) with ``random``, ``greedy`` and ``hop`` (K samples, N nodes
per solve), as ``scorpion play`` does (the harness's proof solves included),
after a warm-up game (compile time excluded). ``commit`` (``play.commit``:
hindsight optimisation over commitments) and ``commit2`` (``play.commit2``:
commitments judged two levels deep) play beside hop with the same K and
node budget. Times are CPU seconds of this
process (``time.process_time``), so a loaded machine slows the wall clock, not
the figures; each player's CPU seconds a game are given as their mean, 95th
percentile and maximum (``cpu_mean``, ``cpu_p95``, ``cpu_max``: the
issue-38 budget is 10 s on average and 30 s at most). For ``hop`` it also reports solves per second and the mean nodes
per solve: sampled layouts are mostly decided in a few nodes, so the fixed
cost of a solve (state conversion, table allocation, the replay that checks
every win) matters more than nodes per second.

    python benchmarks/bench_play.py                   # 20 winnable deals a mode, hop K=10
    python benchmarks/bench_play.py --deals 5 --samples 3 --quick
    python benchmarks/bench_play.py --exact-endgame 5 --only-exact   # hop, commit, commit2, with and without it

With ``--exact-endgame N`` it adds hop, commit and commit2 playing the exact endgame
(``play.exact``) once 2 to N cards are unseen, on the same deals and seeds,
and the exact V's cost by number of unseen cards (``bench_exact``'s views:
the first view with 1..N unseen cards on each deal's winning line).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench_exact import late_views, measure  # noqa: E402
from bench_exact import table as exact_table  # noqa: E402
from common import machine_record, winnable_deals  # noqa: E402

from scorpion_solver.batch.protocol import cpu_summary  # noqa: E402
from scorpion_solver.game.deal import deal  # noqa: E402
from scorpion_solver.game.rules import get_rules  # noqa: E402
from scorpion_solver.play import make_policy, play_game  # noqa: E402
from scorpion_solver.play.players import LOOKAHEAD  # noqa: E402


def bench(policy_name: str, mode: str, deals: list[int], samples: int, nodes: int, exact_endgame: int = 0) -> dict:
    rules = get_rules(mode)
    options = {"samples": samples, "nodes": nodes, "exact_endgame": exact_endgame} if policy_name in LOOKAHEAD else {}
    play_game(deal(5, rules), rules, make_policy(policy_name, rules, **options))  # warm-up
    decisions = solves = solve_nodes = won = moves = 0
    per_game = []
    for number in deals:
        policy = make_policy(policy_name, rules, seed=number, **options)
        start = time.process_time()
        record = play_game(deal(number, rules), rules, policy)
        per_game.append(time.process_time() - start)
        decisions += record.decisions
        solves += record.solves
        solve_nodes += record.nodes
        won += record.outcome == "won"
        moves += len(record.moves)
    cpu = sum(per_game)
    return {
        "policy": policy_name + (f"-x{exact_endgame}" if exact_endgame else ""),
        "mode": mode,
        "games": len(deals),
        "won": won,
        "moves": moves,
        "decisions": decisions,
        "cpu_seconds": cpu,
        "decisions_per_second": decisions / cpu if cpu else None,
        "games_per_hour": 3600 * len(deals) / cpu if cpu else None,
        "cpu_per_game": cpu / len(deals) if deals else None,
        **cpu_summary(np.array(per_game)),
        "solves": solves,
        "solves_per_second": solves / cpu if cpu and solves else None,
        "nodes_per_solve": solve_nodes / solves if solves else None,
    }


def cpu_text(row: dict) -> str:
    """A row's CPU seconds a game: mean, p95, max."""
    return ", ".join("-" if row[k] is None else f"{row[k]:.2f}" for k in ("cpu_mean", "cpu_p95", "cpu_max"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="winnable deals per mode (the first of 1-1000)")
    parser.add_argument("--samples", type=int, default=10, help="hop, commit, commit2: layouts per decision")
    parser.add_argument("--nodes", type=int, default=1000, help="hop, commit, commit2: node budget per solve")
    parser.add_argument("--quick", action="store_true", help="no report file")
    parser.add_argument(
        "--exact-endgame", type=int, default=0, metavar="N", help="also hop with the exact endgame from N unseen cards"
    )
    parser.add_argument(
        "--only-exact", action="store_true", help="only hop, commit and commit2 with and without the exact endgame"
    )
    args = parser.parse_args()
    rows = []
    players = [(name, 0) for name in ([] if args.only_exact else ["random", "greedy"]) + list(LOOKAHEAD)]
    if args.exact_endgame:
        players += [(name, args.exact_endgame) for name in LOOKAHEAD]
    for mode in ("clear", "classic"):
        deals = winnable_deals(mode, args.deals)
        for name, exact in players:
            row = bench(name, mode, deals, args.samples, args.nodes, exact)
            name = row["policy"]
            rows.append(row)
            sps = f"{row['solves_per_second']:.0f}" if row["solves_per_second"] else "-"
            nps = f"{row['nodes_per_solve']:.0f}" if row["nodes_per_solve"] else "-"
            print(
                f"{mode:8} {name:9} {row['games']} games, {row['won']} won: {row['decisions_per_second']:.1f} "
                f"decisions/s, CPU s a game {cpu_text(row)}, {sps} solves/s, {nps} nodes/solve "
                f"({row['cpu_seconds']:.1f} CPU s)",
                flush=True,
            )
    exact_rows = {}
    if args.exact_endgame:
        for mode in ("clear", "classic"):
            rules = get_rules(mode)
            exact_rows[mode] = [
                {"deal": number, **measure(view, rules, 50_000_000)}
                for number in winnable_deals(mode, min(args.deals, 8))
                for _, view in sorted(late_views(number, rules, args.exact_endgame).items())
            ]
            print(f"exact V's cost by unseen cards ({mode}):")
            print("\n".join(exact_table(exact_rows[mode], args.exact_endgame)), flush=True)
    if not args.quick:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        out = HERE / "results" / f"play-{stamp}.json"
        report = {
            "samples": args.samples,
            "nodes": args.nodes,
            "machine": machine_record(),
            "rows": rows,
            "exact_rows": exact_rows,
        }
        out.write_text(json.dumps(report, indent=2) + "\n")
        lines = [
            f"# Play benchmark {stamp}",
            "",
            f"hop, commit, commit2 K={args.samples}, {args.nodes} nodes per solve; CPU seconds of one process; "
            f"load average {report['machine']['load_average']}",
            "",
            "| mode | policy | games | won | decisions/s | CPU s a game: mean, p95, max | games/h | solves/s | "
            "nodes/solve |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r in rows:
            sps = f"{r['solves_per_second']:.0f}" if r["solves_per_second"] else "-"
            nps = f"{r['nodes_per_solve']:.0f}" if r["nodes_per_solve"] else "-"
            lines.append(
                f"| {r['mode']} | {r['policy']} | {r['games']} | {r['won']} | {r['decisions_per_second']:.1f} | "
                f"{cpu_text(r)} | {r['games_per_hour']:.0f} | {sps} | {nps} |"
            )
        for mode, mode_rows in exact_rows.items():
            lines += ["", f"exact V's cost by unseen cards ({mode}):", "", *exact_table(mode_rows, args.exact_endgame)]
        out.with_suffix(".md").write_text("\n".join(lines) + "\n")
        print(f"report: {out}")


if __name__ == "__main__":
    main()
