# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     notebook_metadata_filter: -jupytext.text_representation.jupytext_version
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Playing without peeking
#
# Every verdict of the exact solver is *thoughtful*: it sees the twelve face-down cards and
# the tail. A player sees neither. Here policies that see only the player's view
# (`scorpion_solver.play`: `random`, `greedy`, and `hop`, hindsight optimisation over K sampled
# layouts of the hidden cards) play the deals of the committed play folders (`results/play-*`,
# written by `scorpion play`). Deals the exact results show lost are counted lost without
# playing (no player can win them); each game a policy won replays to a win in the reference
# engine. The *ratio* is the share of the thoughtfully winnable deals the policy wins.

# %% [markdown]
# The data: the play folders under `SCORPION_PLAY` (default `results/`) and the exact results
# `SCORPION_RESULTS` (default `results/deals-1-1000000`). Rerun with
# `python notebooks/run.py playing_without_peeking`. One cell (the
# fatal moves) runs the solver, on a handful of games, with a small budget.

# %%
# %matplotlib inline
import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

import scorpion_solver
from scorpion_solver.batch import play_stats as PS
from scorpion_solver.batch import read_metadata
from scorpion_solver.batch.play_runs import is_play_folder, read_play_folder
from scorpion_solver.play.intervals import wilson_interval
from common import ROOT, pct, results_folder, shown_path, style

RESULTS = results_folder()
PLAY_ROOT = Path(os.environ.get("SCORPION_PLAY") or ROOT / "results").resolve()
print(f"exact results: {shown_path(RESULTS)}")
folders = []
for path in sorted(PLAY_ROOT.glob("play-*")):
    meta = read_metadata(path)
    if is_play_folder(meta):
        folders.append((path, meta))
frames = []
for path, meta in folders:
    t = read_play_folder(path).to_pandas()
    play = meta["play"]
    t["folder"] = path.name
    t["K"] = play.get("samples") if play["policy"] == "hop" else None
    t["label"] = play["policy"] + (f" K={play['samples']}" if play["policy"] == "hop" else "")
    frames.append(t)
    done = t.groupby("mode")["deal"].nunique().to_dict()
    print(f"{path.name}: deals {meta['deals']['spec']}, finished {done}"
          + ("" if all(v == meta["deals"]["count"] for v in done.values()) else "  (PARTIAL: still running or stopped)"))
games = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
if games.empty:
    raise FileNotFoundError(f"no play folders under {PLAY_ROOT}: run `scorpion play`, or set SCORPION_PLAY")
style()


# %% [markdown]
# ## Realistic against thoughtful
#
# Per folder and mode, over the deals it has finished: `batch.play_stats.summarize_play`, the
# numbers `scorpion stats DIR` prints. Intervals are 95% Wilson intervals.

# %%
rows = []
for (folder, label), t in games.groupby(["folder", "label"], sort=False):
    summary = PS.summarize_play({c: t[c].to_numpy() for c in t.columns})
    for mode, e in summary["modes"].items():
        rows.append({"policy": label, "mode": mode, "deals": e["deals"], "played": e["played"],
                     "won": e["won"], "realistic": pct(e["realistic_rate"]),
                     "realistic 95%": f"{pct(e['realistic_interval'][0])} - {pct(e['realistic_interval'][1])}",
                     "thoughtful": pct(e["thoughtful_rate"]), "ratio": pct(e["ratio"]),
                     "ratio 95%": "-" if e["ratio_interval"] is None else
                     f"{pct(e['ratio_interval'][0])} - {pct(e['ratio_interval'][1])}",
                     "CPU s / game": e["seconds_per_game"], "folder": folder})
overview = pd.DataFrame(rows)
overview

# %% [markdown]
# ## The value of peeking, on the same deals
#
# To compare policies fairly, only the deals every folder has finished (the common prefix of
# deal numbers): the win rate of each policy beside the thoughtful rate of those deals.

# %%
common = set.intersection(*[set(zip(t["deal"], t["mode"])) for _, t in games.groupby("folder")])
key = list(zip(games["deal"], games["mode"]))
same = games[[k in common for k in key]]
print(f"{len(common):,} (deal, mode) pairs finished in every folder "
      f"(deals up to {max(d for d, _ in common) if common else 0:,})")
fig, axes = plt.subplots(1, 2, figsize=(12, 4), sharey=True)
for ax, mode in zip(axes, ["clear", "classic"]):
    t = same[same["mode"] == mode]
    if t.empty:
        continue
    labels = sorted(t["label"].unique(), key=lambda s: (s.split()[0] != "random", s.split()[0] != "greedy",
                                                         int(s.split("=")[1]) if "=" in s else 0))
    per = t.groupby("label")
    n = per["deal"].nunique()
    won = per.apply(lambda g: int((g["outcome"] == "won").sum()))
    thoughtful = int((t.drop_duplicates("deal")["thoughtful"] == "won").sum())
    deals = t["deal"].nunique()
    values = [won[lbl] / n[lbl] for lbl in labels] + [thoughtful / deals]
    names = labels + ["thoughtful"]
    errors = np.array([[v - wilson_interval(int(round(v * deals)), deals)[0],
                        wilson_interval(int(round(v * deals)), deals)[1] - v] for v in values]).T
    ax.bar(names, values, yerr=errors, color=["C0"] * len(labels) + ["C3"], capsize=3)
    ax.set(title=f"{mode}: {deals:,} deals", ylabel="win rate")
    ax.tick_params(axis="x", rotation=30)
    ax.yaxis.set_major_formatter(plt.matplotlib.ticker.PercentFormatter(1))
fig.tight_layout()
plt.show()

# %% [markdown]
# ## How `hop` improves with K
#
# The ratio (games won / thoughtfully winnable deals) against the number of sampled layouts per
# decision, on the deals every hop folder and the greedy folder finished, with 95% Wilson
# intervals; and the CPU cost per game played. `greedy` is the K = 0 baseline (hop falls back
# to the greedy order where no layout separates the moves).

# %%
curve = []
for label, t in same.groupby("label"):
    policy = label.split()[0]
    if policy not in ("hop", "greedy"):
        continue
    for mode, tm in t.groupby("mode"):
        winnable = tm[tm["thoughtful"] == "won"]
        w = int((winnable["outcome"] == "won").sum())
        lo, hi = wilson_interval(w, len(winnable)) if len(winnable) else (np.nan, np.nan)
        curve.append({"mode": mode, "K": 0 if policy == "greedy" else int(label.split("=")[1]),
                      "winnable deals": len(winnable), "won": w,
                      "ratio": w / len(winnable) if len(winnable) else np.nan, "low": lo, "high": hi,
                      "CPU s / game": tm.loc[tm["played"], "cpu_seconds"].mean()})
curve = pd.DataFrame(curve).sort_values(["mode", "K"])
display(curve)
fig, (ax, ax_cost) = plt.subplots(1, 2, figsize=(12, 4))
for i, (mode, c) in enumerate(curve.groupby("mode")):
    x = c["K"].replace(0, 1)
    ax.errorbar(x, c["ratio"], yerr=[c["ratio"] - c["low"], c["high"] - c["ratio"]], marker="o",
                capsize=3, label=mode, color=f"C{i}")
    ax_cost.plot(x, c["CPU s / game"], marker="o", label=mode, color=f"C{i}")
ax.set(xscale="log", xlabel="K (samples per decision; greedy plotted at 1)",
       ylabel="share of winnable deals won", title="hop: ratio to the thoughtful rate")
ax.yaxis.set_major_formatter(plt.matplotlib.ticker.PercentFormatter(1))
ax_cost.set(xscale="log", yscale="log", xlabel="K", ylabel="CPU seconds per game", title="cost")
ax.legend()
ax_cost.legend()
fig.tight_layout()
plt.show()

# %% [markdown]
# ## Paired: greedy against hop on the same winnable deals
#
# Each winnable deal played by both: which of the two won it. The off-diagonal cells are the
# deals where look-ahead over the hidden cards helps (hop only) or costs (greedy only).

# %%
winnable = same[same["thoughtful"] == "won"]
greedy = winnable[winnable["label"] == "greedy"].set_index(["deal", "mode"])["outcome"] == "won"
for label in sorted(l for l in winnable["label"].unique() if l.startswith("hop")):
    hop = winnable[winnable["label"] == label].set_index(["deal", "mode"])["outcome"] == "won"
    both = pd.concat({"greedy won": greedy, f"{label} won": hop}, axis=1).dropna()
    display(pd.crosstab(both["greedy won"], both[f"{label} won"]))

# %% [markdown]
# ## Where the policies lose
#
# A lost game ends when the harness proves the true position lost (the policy never learns
# it) or when no move is left. The move after which the game could no longer be won is the
# *fatal move*; `scorpion analyze` finds it by bisection. First the distribution of the game
# length at the end of lost games on winnable deals, then the fatal move of a few of
# greedy's lost games, with the command that shows it. Since the harness checks the true
# position after every move (20,000 nodes), the fatal move is mostly the last one played.

# %%
lost = games[(games["thoughtful"] == "won") & (games["outcome"] != "won") & games["played"]]
display(lost.groupby(["label", "mode", "reason"]).size().unstack(fill_value=0))
fig, ax = plt.subplots(figsize=(8, 3.5))
for label, t in lost.groupby("label"):
    ax.hist(t["n_moves"], bins=np.arange(0, 120, 4), histtype="step", lw=1.5, label=label)
ax.set(xlabel="moves played when the game was found lost", ylabel="games",
       title="lost games on winnable deals: how long they lasted")
ax.legend()
plt.show()

# %%
from scorpion_solver import Limits, analyze, deal, get_rules, parse_moves

shown = []
sample = lost[lost["label"] == "greedy"].head(4)
for r in sample.itertuples():
    rules = get_rules(r.mode)
    moves = parse_moves(r.moves)
    result = analyze(deal(int(r.deal), rules), moves, rules, Limits(nodes=100_000))
    fatal = result.fatal_index
    shown.append({"deal": r.deal, "mode": r.mode, "moves played": len(moves),
                  "fatal move": f"{fatal} ({moves[fatal - 1]})" if fatal else result.finding,
                  "winning alternative": str(result.alternative_solution[0])
                  if fatal and result.alternative_solution else "-"})
display(pd.DataFrame(shown))
if len(sample):
    r = sample.iloc[0]
    print("to see one:", f"scorpion analyze {r['deal']} --mode {r['mode']} --moves '{r['moves']}'")

# %% [markdown]
# ## Deals to play, graded
#
# `scorpion deals --winnable --grade easy|medium|hard` draws from these grades
# (`scorpion_solver.batch.deal_grades`): easy = greedy wins it; medium = only hop wins it;
# hard = winnable, but neither greedy nor any hop run that played it won it. Deals not played
# by greedy and by some hop run are ungraded.

# %%
from scorpion_solver.batch import deal_grades as G

if (RESULTS / "_batch.json").exists():
    counts = {mode: G.grade_counts(G.grade_deals(mode, PLAY_ROOT, RESULTS)) for mode in ["clear", "classic"]}
    display(pd.DataFrame(counts).T)
