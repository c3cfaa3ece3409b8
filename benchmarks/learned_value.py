#!/usr/bin/env python3
"""Can a learned value of a view stand in for sampled solves? (issue 38 item 3, the second try)

Usage::

    python benchmarks/learned_value.py                # both modes, every committed losses folder of deals 1-2000
    python benchmarks/learned_value.py --quick        # a few games a mode: a smoke run, no report written
    python benchmarks/learned_value.py --write-model  # fit on every decision of deals 1-2000: the model commit plays

The labelled set is free: ``scorpion losses`` measured every decision of the
committed games (``results/losses-play-1-2000-*``, but the ``-tail`` ones,
which measured some of the same decisions again), and each row holds the
share of 50 layouts, sampled from the player's view, whose position is
winnable (``before`` of ``samples``). The view itself is rebuilt by replaying
the game's moves (from its play folder) up to the decision; only the view is
read to make the features, as a player would (``view_features``).

The model is a logistic regression of that share on cheap features of the
view (binomial likelihood, 50 trials a row, fitted by Newton's method with a
small ridge), one model a mode, trained on the games of deals 1-1000 and
measured on the games of deals 1001-2000, so that no deal is on both sides.

What would make it useful. commit2's inner level estimates a share from 8
layouts: its sampling error is sqrt(p(1 - p) / 8). A model could stand in for
those solves only where its own error is smaller. The label is itself a
50-layout estimate, so the model's error against the true share is the
measured mean squared error minus the label's own variance p(1 - p)/50
(unbiased, since the label's noise is independent of the view's features).
The report gives, on the test games, that noise-corrected RMSE beside the
8-layout and 50-layout sampling errors, for the model, for a model of the
number of unseen cards alone and for the mean share (no model), and Spearman's
rank correlation between predictions and labels.

The report goes to ``benchmarks/results/learned-value-<date>.{json,md}``.
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from common import machine_record, write_report  # noqa: E402

from scorpion_solver.batch.folder import read_metadata  # noqa: E402
from scorpion_solver.batch.play_runs import read_play_folder  # noqa: E402
from scorpion_solver.batch.studies import LOSS_SCHEMA, read_study_folder  # noqa: E402
from scorpion_solver.game.deal import deal  # noqa: E402
from scorpion_solver.game.engine import apply_move, parse_moves  # noqa: E402
from scorpion_solver.game.rules import Rules, get_rules  # noqa: E402
from scorpion_solver.game.view import Observation, sample_positions  # noqa: E402
from scorpion_solver.play.commit import learned_values  # noqa: E402
from scorpion_solver.play.view_value import FEATURES, MODEL_FILE, LogisticModel, fit_logistic, view_features  # noqa: E402

RESULTS = ROOT / "results"
TRAIN_LAST = 1000  # games of deals up to this one train; the others test
CHOICE_UNSEEN = 6  # decisions where commit judges commitments (below, the exact endgame decides)
CHOICE_DECISIONS = 150  # test decisions a mode where the choice of a commitment is measured
CHOICE_LAYOUTS = 58  # 8 choose, 50 score


def losses_folders() -> list[str]:
    """The committed losses folders of the development range, each decision once (``--kind tail`` ones repeat some)."""
    return [f for f in sorted(glob.glob(str(RESULTS / "losses-play-1-2000-*"))) if not f.endswith("-tail")]


def labelled_views(mode: str, quick: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list]:
    """Features, successes, trials, deal and view of every decision of the committed losses folders of ``mode``."""
    rules = get_rules(mode)
    xs, wins, trials, deals, views = [], [], [], [], []
    for folder in losses_folders():
        meta = read_metadata(Path(folder))
        games_played = read_play_folder(RESULTS / meta["source"], ["deal", "mode", "played", "moves"]).to_pylist()
        moves = {g["deal"]: parse_moves(g["moves"]) for g in games_played if g["mode"] == mode and g["played"]}
        frame = read_study_folder(Path(folder), LOSS_SCHEMA).to_pandas()
        frame = frame[(frame["mode"] == mode) & (frame["unseen"] >= 2)]
        for games, (number, decisions) in enumerate(frame.groupby("deal")):
            if quick and games >= 4:
                break
            wanted = {int(s): r for s, r in zip(decisions["step"], decisions.itertuples(), strict=True)}
            position = deal(int(number), rules)
            for step, move in enumerate(moves[int(number)]):
                if step in wanted:
                    r = wanted[step]
                    views.append(Observation.of(position))
                    xs.append(view_features(views[-1], rules))
                    wins.append(r.before)
                    trials.append(r.samples)
                    deals.append(int(number))
                position = apply_move(position, move, rules)
    return np.array(xs, dtype=float), np.array(wins, dtype=float), np.array(trials, dtype=float), np.array(deals), views


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    ra, rb = _ranks(a), _ranks(b)
    return float(np.corrcoef(ra, rb)[0, 1])


def _ranks(a: np.ndarray) -> np.ndarray:
    order = np.argsort(a, kind="stable")
    ranks = np.empty(len(a))
    ranks[order] = np.arange(len(a))
    for value in np.unique(a):  # ties share their mean rank
        tied = a == value
        ranks[tied] = ranks[tied].mean()
    return ranks


def errors(predicted: np.ndarray, wins: np.ndarray, trials: np.ndarray, ranked: bool = True) -> dict:
    """RMSE against the labels, and against the true share (the labels' binomial variance taken out)."""
    share = wins / trials
    mse = float(np.mean((predicted - share) ** 2))
    label_variance = float(np.mean(share * (1 - share) / (trials - 1)))  # unbiased for p(1-p)/n
    return {
        "rmse_vs_label": round(mse**0.5, 4),
        "rmse_vs_true_share": round(max(mse - label_variance, 0.0) ** 0.5, 4),
        "spearman": round(spearman(predicted, share), 3) if ranked else None,
    }


def study(mode: str, quick: bool) -> dict:
    start = time.perf_counter()
    x, wins, trials, deals, views = labelled_views(mode, quick)
    train = deals <= TRAIN_LAST if not quick else np.arange(len(deals)) % 2 == 0
    test = ~train
    share = wins[test] / trials[test]
    p_true = np.clip(share, 0, 1)
    variance = p_true * (1 - p_true)
    model = fit_logistic(x[train], wins[train], trials[train])
    unseen_only = fit_logistic(x[train][:, :1], wins[train], trials[train])
    constant = np.full(test.sum(), wins[train].sum() / trials[train].sum())
    out = {
        "mode": mode,
        "views": {"train": int(train.sum()), "test": int(test.sum())},
        "games": {"train": len(set(deals[train])), "test": len(set(deals[test]))},
        "test_share_mean": round(float(share.mean()), 4),
        "sampling_rmse": {
            "8_layouts": round(float(np.mean(variance / 8)) ** 0.5, 4),
            "50_layouts": round(float(np.mean(variance / 50)) ** 0.5, 4),
        },
        "model": errors(model.predict(x[test]), wins[test], trials[test]),
        "unseen_only": errors(unseen_only.predict(x[test][:, :1]), wins[test], trials[test]),
        "no_model": errors(constant, wins[test], trials[test], ranked=False),
        "weights": dict(zip(("intercept",) + FEATURES, (round(float(v), 4) for v in model.weights), strict=True)),
    }
    # The model against 8 sampled layouts where the share is in play (neither near 0 nor near 1).
    middle = (share > 0.1) & (share < 0.9)
    if middle.any():
        out["middle"] = {
            "views": int(middle.sum()),
            "model": errors(model.predict(x[test][middle]), wins[test][middle], trials[test][middle]),
            "8_layouts_rmse": round(float(np.mean(variance[middle] / 8)) ** 0.5, 4),
        }
    chosen = [i for i in np.flatnonzero(test) if CHOICE_UNSEEN <= x[i, 0]]
    every = max(1, len(chosen) // (4 if quick else CHOICE_DECISIONS))
    out["choice"] = choosing_commitments(model, [views[i] for i in chosen[::every]], get_rules(mode), quick)
    out["seconds"] = round(time.perf_counter() - start, 1)
    return out


def choosing_commitments(model: LogisticModel, views: list[Observation], rules: Rules, quick: bool) -> dict:
    """The model against 8 sampled layouts for choosing a commitment: each pick's share on other layouts.

    At each view, every commitment of its closure (commit's candidates) is
    judged on CHOICE_LAYOUTS layouts. The first 8 choose (the most won, ties
    to the nearest reveal, as commit); the model chooses by its value of the
    views after the commitment in those same 8 layouts (their revealed cards
    differ), which costs no solve. Both picks are scored on the other
    layouts, and so is the best commitment there (an oracle's regret 0) and
    the nearest one (no judgement at all).
    """
    from scorpion_solver.play.commit import distinct_commitments, judge_commitments
    from scorpion_solver.play.exact import reveal_closure
    from scorpion_solver.solver.reductions import get_reductions
    from scorpion_solver.solver.result import Limits
    from scorpion_solver.solver.search import solve

    limits, reductions = Limits(nodes=1000, memory_mb=64), get_reductions("deadlock")

    def run(position):
        return solve(position, rules, limits, reductions=reductions, shorten=False)

    picks = {"8_layouts": [], "8_layouts_model_ties": [], "model": [], "nearest": [], "best": []}
    for number, view in enumerate(views):
        _, pairs = reveal_closure(view, rules)
        pairs = distinct_commitments(pairs, rules)
        if len(pairs) < 2:
            continue
        layouts = sample_positions(view, 12 if quick else CHOICE_LAYOUTS, 1_000 + number)
        won = judge_commitments(view, pairs, layouts, rules, run).won
        choose, score = won[:8], won[8:].mean(axis=0)
        if not score.any():
            continue  # nothing is winnable on the scoring layouts: every pick is as good
        values = learned_values(model, view, pairs, range(len(pairs)), layouts[:8], rules)
        value = np.array([values[i] for i in range(len(pairs))])
        wins8 = choose.sum(axis=0)
        picks["8_layouts"].append(score[min(range(len(pairs)), key=lambda i: (-wins8[i], i))])
        picks["8_layouts_model_ties"].append(score[min(range(len(pairs)), key=lambda i: (-wins8[i], -value[i], i))])
        picks["model"].append(score[int(np.argmax(value))])
        picks["nearest"].append(score[0])
        picks["best"].append(score.max())
    best = np.array(picks["best"])
    return {
        "decisions": len(best),
        "layouts": {"choose": 8, "score": (12 if quick else CHOICE_LAYOUTS) - 8},
        "best_share": round(float(best.mean()), 4) if len(best) else None,
        "regret": {
            k: round(float(np.mean(best - np.array(v))), 4) if len(best) else None
            for k, v in picks.items()
            if k != "best"
        },
        # paired over the decisions: what breaking 8 layouts' ties by the model gains, and its standard error
        "ties_gain": _paired_gain(picks["8_layouts_model_ties"], picks["8_layouts"]),
        "model_gain": _paired_gain(picks["model"], picks["8_layouts"]),
        "picks_the_best": {
            k: round(float(np.mean(np.array(v) == best)), 3) if len(best) else None
            for k, v in picks.items()
            if k != "best"
        },
    }


def _paired_gain(better: list, base: list) -> dict | None:
    """The mean of better - base over the decisions (a share of the scoring layouts) and its standard error."""
    if len(base) < 2:
        return None
    d = np.array(better) - np.array(base)
    return {"mean": round(float(d.mean()), 4), "se": round(float(d.std(ddof=1) / len(d) ** 0.5), 4)}


def markdown(report: dict) -> str:
    lines = [
        "# A learned value of a view against sampled solves (issue 38 item 3)",
        "",
        "Trained on the games of deals 1-1000 of every committed losses folder, measured on those of deals "
        "1001-2000. RMSE against the true share: the label's own binomial variance (50 layouts) taken out.",
        "",
        "| mode | test views | model RMSE | unseen-only RMSE | no model RMSE | 8 layouts | 50 layouts "
        "| model Spearman | middle views: model / 8 layouts |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in report["modes"]:
        mid = r.get("middle", {})
        lines.append(
            f"| {r['mode']} | {r['views']['test']:,} | {r['model']['rmse_vs_true_share']} "
            f"| {r['unseen_only']['rmse_vs_true_share']} | {r['no_model']['rmse_vs_true_share']} "
            f"| {r['sampling_rmse']['8_layouts']} | {r['sampling_rmse']['50_layouts']} | {r['model']['spearman']} "
            f"| {mid.get('model', {}).get('rmse_vs_true_share')} / {mid.get('8_layouts_rmse')} ({mid.get('views', 0):,}) |"
        )
    lines += [
        "",
        "Choosing a commitment (test decisions with at least 6 unseen cards and two commitments): the pick of 8 "
        "sampled layouts (as commit, without its other 92) and the model's pick (its value of the views after "
        "each commitment in the same 8 layouts, no solve), each scored on 50 other layouts; regret is the best "
        "commitment's share there minus the pick's.",
        "",
        "| mode | decisions | best share | regret: 8 layouts | 8 layouts, ties to the model | model | nearest reveal "
        "| picks the best: 8 layouts | ties to the model | model | nearest |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in report["modes"]:
        c = r["choice"]
        g, b = c["regret"], c["picks_the_best"]
        lines.append(
            f"| {r['mode']} | {c['decisions']} | {c['best_share']} | {g['8_layouts']} | {g['8_layouts_model_ties']} "
            f"| {g['model']} | {g['nearest']} | {b['8_layouts']} | {b['8_layouts_model_ties']} | {b['model']} "
            f"| {b['nearest']} |"
        )
    lines += [
        "",
        "Paired over the decisions, the share gained on the scoring layouts against 8 layouts' pick (mean ± "
        "standard error):",
        "",
        "| mode | 8 layouts, ties to the model | model alone |",
        "|---|---|---|",
    ]
    for r in report["modes"]:
        c = r["choice"]
        lines.append(f"| {r['mode']} | {_gain_text(c['ties_gain'])} | {_gain_text(c['model_gain'])} |")
    return "\n".join(lines) + "\n"


def write_model(modes: list[str]) -> None:
    """Fit one model a mode on every decision of the development range and write MODEL_FILE."""
    models, rows = {}, {}
    for mode in modes:
        x, wins, trials, deals, _ = labelled_views(mode, quick=False)
        models[mode] = fit_logistic(x, wins, trials).as_dict()
        rows[mode] = {"views": len(x), "games": len(set(deals)), "deals": f"{deals.min()}-{deals.max()}"}
    folders = [Path(f).name for f in losses_folders()]
    record = {
        "what": "scorpion_solver.play.view_value: P(winnable) of a view from its features (logistic)",
        "made_by": "python benchmarks/learned_value.py --write-model",
        "created": time.strftime("%Y-%m-%d"),
        "trained_on": {"folders": folders, "label": "before / samples of each decision", "rows": rows},
        "features": list(FEATURES),
        "models": models,
    }
    MODEL_FILE.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {MODEL_FILE.relative_to(ROOT)}: " + ", ".join(f"{m} {r['views']:,} views" for m, r in rows.items()))


def _gain_text(gain: dict | None) -> str:
    return "-" if gain is None else f"{gain['mean']:+.4f} ± {gain['se']:.4f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--modes", default="clear,classic")
    parser.add_argument("--quick", action="store_true", help="a few games a mode, no report written")
    parser.add_argument("--write-model", action="store_true", help=f"fit on deals 1-2000 and write {MODEL_FILE.name}")
    args = parser.parse_args()
    if args.write_model:
        write_model(args.modes.split(","))
        return
    report = {"machine": machine_record(), "modes": [study(m, args.quick) for m in args.modes.split(",")]}
    if args.quick:
        print(markdown(report))
    else:
        write_report(HERE / "results", "learned-value", report, markdown(report))


if __name__ == "__main__":
    main()
