#!/usr/bin/env python3
"""The same games before and after a change: every game record equal, and each side's CPU a game, paired.

Usage::

    git worktree add --detach /tmp/before REV   # (or git archive REV | tar -x -C /tmp/before) a checkout, then
    python benchmarks/same_games.py --baseline /tmp/before                  # commit, commit2: 10 winnable deals a mode
    python benchmarks/same_games.py --baseline /tmp/before --deals 3 --samples 20 --quick

For a change that must not change a decision (a faster engine, cheaper
solves): each code base plays the same games in a worker process of its own
(``PYTHONPATH`` set to its checkout, as ``bench_batch.py``'s sides), game by
game, alternating which side plays first (ABBA...), so that the machine's
drift hits both alike. A game is ``play_game`` of ``make_policy(POLICY,
rules, seed=DEAL, samples=K, nodes=N, exact_endgame=X)`` on a winnable deal
(the first ``--deals`` of each mode in deals 1-1000, after ``--skip``, as
``bench_play.py`` takes them), the harness's proof solves included. Its CPU
seconds are ``time.process_time`` around the game in its worker; compile and
load time are excluded (a warm-up game per mode first).

Every record must be equal on both sides: the outcome, reason, moves,
decisions, solves, nodes and proof solves, and the policy's own counters
(commitments, second-level decisions); a difference is printed and makes the
exit status 1. The report gives, per player and mode, each side's CPU
seconds a game (mean, p95, max) and the saving as paired ratios (baseline
over this checkout): of the total, and the geometric mean, smallest and
largest of the game-by-game ratios. JSON and markdown reports go to
``benchmarks/results/`` (``same-games-<date>``) unless ``--quick``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import Worker, machine_record, winnable_deals, write_report  # noqa: E402

COMPARED = ("outcome", "reason", "moves", "decisions", "solves", "nodes", "proof_solves", "commitments", "deep")


def serve() -> None:
    """A side's worker: one game per JSON request on stdin, its record and CPU seconds as one JSON line on stdout."""
    import scorpion_solver
    from scorpion_solver.game.deal import deal
    from scorpion_solver.game.rules import get_rules
    from scorpion_solver.play import make_policy, play_game

    reply = sys.stdout
    sys.stdout = sys.stderr  # nothing else may write to the answer stream
    for mode in ("clear", "classic"):  # compile or load the kernels, outside any timing
        rules = get_rules(mode)
        play_game(deal(5, rules), rules, make_policy("commit", rules, samples=5, exact_endgame=5))
    package = Path(scorpion_solver.__file__).resolve().parent
    print(json.dumps({"code": _commit(package.parent)}), file=reply, flush=True)  # no machine path
    for line in sys.stdin:
        game = json.loads(line)
        rules = get_rules(game["mode"])
        options = {"samples": game["samples"], "nodes": game["nodes"], "exact_endgame": game["exact_endgame"]}
        policy = make_policy(game["policy"], rules, seed=game["deal"], **options)
        start = time.process_time()
        record = play_game(deal(game["deal"], rules), rules, policy)
        cpu = time.process_time() - start
        answer = {k: v for k, v in record.as_dict().items() if k not in ("seconds", "cpu_seconds")}
        answer.update(commitments=policy.commitments, deep=getattr(policy, "deep_decisions", None))
        print(json.dumps({"record": answer, "cpu": cpu}), file=reply, flush=True)


def _commit(folder: Path) -> str:
    run = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=folder, capture_output=True, text=True)
    return run.stdout.strip() or "an unknown commit"


class Side(Worker):
    """One code base playing in its own process (``PYTHONPATH`` points at its checkout)."""

    def __init__(self, label: str, root: Path) -> None:
        self.label = label
        super().__init__(str(Path(__file__).resolve()), root, [])
        self.code = self.hello["code"]


def summary(rows: list[dict]) -> dict:
    """Each side's CPU seconds a game (mean, p95, max) and the paired ratios baseline / this."""
    this = np.array([r["this_cpu"] for r in rows])
    base = np.array([r["baseline_cpu"] for r in rows])
    ratios = base / this
    out = {"games": len(rows), "won": sum(r["record"]["outcome"] == "won" for r in rows)}
    for name, cpu in (("baseline", base), ("this", this)):
        out.update({f"{name}_mean": cpu.mean(), f"{name}_p95": np.percentile(cpu, 95), f"{name}_max": cpu.max()})
    out.update(
        total_ratio=base.sum() / this.sum(),
        geomean_ratio=float(np.exp(np.log(ratios).mean())),
        min_ratio=ratios.min(),
        max_ratio=ratios.max(),
    )
    return {k: float(v) if isinstance(v, np.floating) else v for k, v in out.items()}


def markdown(report: dict) -> str:
    s = report["settings"]
    lines = [
        f"# The same games, {report['baseline']} (baseline) and {report['this']} (this)",
        "",
        f"K={s['samples']}, {s['nodes']} nodes a solve, exact endgame from {s['exact_endgame']} unseen; "
        f"{report['games']} games, {report['differ']} records differ; CPU seconds a game, paired "
        f"(ABBA in two processes); load average {report['machine']['load_average']}",
        "",
        "| player | mode | games (won) | baseline: mean, p95, max | this: mean, p95, max | total ratio | "
        "game ratios: geomean (min-max) |",
        "|---|---|---|---|---|---|---|",
    ]
    for g in report["groups"]:
        b = ", ".join(f"{g[f'baseline_{k}']:.2f}" for k in ("mean", "p95", "max"))
        t = ", ".join(f"{g[f'this_{k}']:.2f}" for k in ("mean", "p95", "max"))
        lines.append(
            f"| {g['policy']} | {g['mode']} | {g['games']} ({g['won']}) | {b} | {t} | {g['total_ratio']:.2f} | "
            f"{g['geomean_ratio']:.2f} ({g['min_ratio']:.2f}-{g['max_ratio']:.2f}) |"
        )
    for line in report["differences"]:
        lines.append(f"* DIFFERS: {line}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", help="a checkout of the code before the change (required)")
    parser.add_argument(
        "--policies", default="commit,commit2", help="players, comma separated (default commit,commit2)"
    )
    parser.add_argument("--modes", default="clear,classic", help="modes, comma separated")
    parser.add_argument("--deals", type=int, default=10, help="winnable deals a mode (the first of 1-1000)")
    parser.add_argument("--skip", type=int, default=0, help="leave out the first SKIP winnable deals of each mode")
    parser.add_argument("--samples", type=int, default=100, help="K, layouts a decision")
    parser.add_argument("--nodes", type=int, default=1000, help="node budget a solve")
    parser.add_argument(
        "--exact-endgame", type=int, default=5, metavar="N", help="exact endgame from N unseen (0: off)"
    )
    parser.add_argument("--quick", action="store_true", help="no report file")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    if not args.baseline:
        parser.error("--baseline is required: a checkout of the code before the change")
    baseline = Path(args.baseline).resolve()
    if not (baseline / "scorpion_solver").is_dir():
        parser.error(f"--baseline {args.baseline} is not a checkout of this project (no scorpion_solver folder)")
    wall = time.perf_counter()
    sides = [Side("this", HERE.parent), Side("baseline", baseline)]
    settings = {"samples": args.samples, "nodes": args.nodes, "exact_endgame": args.exact_endgame}
    rows, differences = [], []
    for mode in args.modes.split(","):
        deals = winnable_deals(mode, args.skip + args.deals)[args.skip :]
        for policy in args.policies.split(","):
            for number in deals:
                game = {"policy": policy, "mode": mode, "deal": number, **settings}
                order = sides if len(rows) % 2 == 0 else sides[::-1]
                answers = {side.label: side.ask(game) for side in order}
                this, base = answers["this"], answers["baseline"]
                differ = [k for k in COMPARED if this["record"].get(k) != base["record"].get(k)]
                if differ:
                    differences.append(f"{policy} {mode} deal {number}: {', '.join(differ)}")
                rows.append({**game, "record": this["record"], "this_cpu": this["cpu"], "baseline_cpu": base["cpu"]})
                print(
                    f"{policy:8} {mode:8} {number:5} {this['record']['outcome']:5} this {this['cpu']:6.2f} s, "
                    f"baseline {base['cpu']:6.2f} s{'  DIFFERS: ' + ', '.join(differ) if differ else ''}",
                    file=sys.stderr,
                    flush=True,
                )
    for side in sides:
        side.close()
    groups = [
        {"policy": p, "mode": m, **summary([r for r in rows if r["policy"] == p and r["mode"] == m])}
        for m in args.modes.split(",")
        for p in args.policies.split(",")
    ]
    report = {
        "this": sides[0].code,
        "baseline": sides[1].code,
        "settings": settings,
        "games": len(rows),
        "differ": len(differences),
        "differences": differences,
        "groups": groups,
        "rows": rows,
        "machine": machine_record(),
        "wall_seconds": time.perf_counter() - wall,
    }
    if args.quick:
        print(markdown(report))
    else:
        write_report(HERE / "results", "same-games", report, markdown(report))
    if differences:
        print("GAME RECORDS DIFFER (see above)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
