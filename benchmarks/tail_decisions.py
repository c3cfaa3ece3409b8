#!/usr/bin/env python3
"""The tail deal judged again: at each view where commit dealt the tail in Clear runs, what commit2 plays, and its loss.

The losses study (``scorpion losses``) charged commit 0.025 of a win a Clear
runs game at the tail deal, hop 0.011. Here, paired decision by decision:
at every view of the committed commit folder's Clear runs games where the
tail was dealt, a fresh commit and a fresh commit2 (the game's seed, K =
100, exact endgame from 5 unseen cards) decide from that view; where one
plays another move than the tail, its sampled loss is measured on the same
50 layouts as the study's row (``decision_losses`` with the study's seed),
so the three losses of a view are paired. commit's fresh choice can differ
from the game's tail when the game dealt it as the end of a commitment
chosen earlier.

    python benchmarks/tail_decisions.py                 # every tail decision of the Clear runs games
    python benchmarks/tail_decisions.py --limit 40      # the first 40
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from common import machine_record  # noqa: E402

from scorpion_solver.game.deal import deal  # noqa: E402
from scorpion_solver.game.engine import apply_move, move_text, parse_moves  # noqa: E402
from scorpion_solver.game.rules import get_rules  # noqa: E402
from scorpion_solver.game.view import Observation  # noqa: E402
from scorpion_solver.play import History, make_policy  # noqa: E402
from scorpion_solver.play.losses import decision_losses  # noqa: E402

RESULTS = HERE.parent / "results"
PLAY = RESULTS / "play-1-2000-clear+classic-commit-k100-n1000-x5-s0"
LOSSES = RESULTS / "losses-play-1-2000-clear+classic-commit-k100-n1000-x5-s0-k50"


def tail_rows(limit: int | None) -> list[dict]:
    import pandas as pd

    games = pd.read_parquet(PLAY).set_index(["deal", "mode"])
    losses = pd.read_parquet(LOSSES)
    tails = losses[(losses["mode"] == "clear") & (losses["kind"] == "tail")].sort_values("deal")
    rows = []
    for r in tails.head(limit).itertuples():
        game = games.loc[(r.deal, r.mode)]
        rows.append(
            {
                "deal": int(r.deal),
                "step": int(r.step),
                "moves": game["moves"],
                "game_seed": int(game["game_seed"]),
                "before": int(r.before),
                "after": int(r.after),
                "samples": int(r.samples),
            }
        )
    return rows


def judge(row: dict) -> dict:
    rules = get_rules("clear")
    moves = parse_moves(row["moves"])[: row["step"]]
    position, views = deal(row["deal"], rules), []
    for move in moves:
        views.append(Observation.of(position))
        position = apply_move(position, move, rules)
    view, history = Observation.of(position), History(tuple(views), tuple(moves))
    seed = row["deal"] * 1_000 + zlib.crc32(b"clear") + row["step"]  # the study's layouts (play.losses)
    out = {"deal": row["deal"], "step": row["step"], "game": (row["before"] - row["after"]) / row["samples"]}
    for name in ("commit", "commit2"):
        start = time.process_time()
        policy = make_policy(name, rules, seed=row["game_seed"], samples=100, exact_endgame=5)
        move = policy.choose(view, history)
        seconds = time.process_time() - start
        if move.is_tail:
            loss = out["game"]
        else:
            (measured,) = decision_losses(position, [move], rules, samples=50, seed=seed, exact_unseen=0)
            assert measured["before"] == row["before"], "the study's layouts were not reproduced"
            loss = (measured["before"] - measured["after"]) / measured["samples"]
        out[name] = {"move": move_text(move), "loss": loss, "cpu_seconds": round(seconds, 3)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N tail decisions (by deal)")
    args = parser.parse_args()
    judged = []
    for row in tail_rows(args.limit):
        judged.append(judge(row))
        j = judged[-1]
        print(
            f"deal {j['deal']} step {j['step']}: game tail loss {j['game']:.3f}; commit {j['commit']['move']} "
            f"{j['commit']['loss']:.3f}; commit2 {j['commit2']['move']} {j['commit2']['loss']:.3f}",
            flush=True,
        )
    n = len(judged)
    summary = {
        name: {
            "tail_played": sum((j[name]["move"] == "tail") if name != "game" else True for j in judged),
            "loss_sum": sum(j[name]["loss"] if name != "game" else j["game"] for j in judged),
        }
        for name in ("game", "commit", "commit2")
    }
    print(f"{n} tail decisions of commit's Clear runs games:")
    for name, s in summary.items():
        print(f"  {name}: tail dealt at {s['tail_played']}, sampled loss summed {s['loss_sum']:.3f}")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = HERE / "results" / f"tail-decisions-{stamp}.json"
    out.write_text(json.dumps({"machine": machine_record(), "summary": summary, "rows": judged}, indent=2) + "\n")
    print(f"report: {out}")


if __name__ == "__main__":
    main()
