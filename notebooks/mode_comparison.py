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
# # Clear runs against classic, deal by deal
#
# Every deal is played in both modes, so the modes are compared on the same deals: the paired
# 2×2 table and McNemar's test on its discordant cells (`stats.paired`, as `scorpion stats`
# prints them). docs/rules.md says every deal winnable in classic is winnable in clear: a deal won
# in classic but lost in clear is a rules bug and is shown loudly below.

# %% [markdown]
# The data: the results folder named by the environment variable `SCORPION_RESULTS`
# (default `results/deals-1-1000000`, written by `scorpion batch 1-1000000 --out results/deals-1-1000000`;
# its format is in [docs/batch.md](../docs/batch.md)). Its code is
# [mode_comparison.py](mode_comparison.py) (jupytext); rerun it with `python notebooks/run.py mode_comparison` (see [README](README.md)).

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display
from matplotlib.ticker import PercentFormatter

from scorpion_solver.batch import stats
from common import ROOT, STATUS_COLORS, describe, mode_colors, pct, read_results, shown_path, style

COLUMNS = ['deal', 'mode', 'status', 'nodes', 'seconds', 'solution_length']
RESULTS, META, df, MODES = read_results(COLUMNS)  # META: _batch.json, the folder's settings and history
MODE_COLORS = mode_colors(MODES)
style()
shown = shown_path(RESULTS)
describe(RESULTS, META, df, MODES)

# %%
PAIRED = {"clear", "classic"} <= set(MODES)
if not PAIRED:
    display(Markdown(f"**This folder holds {', '.join(MODES)} only**: there is nothing to compare, so the "
                     "cells below do nothing. A folder with both modes: "
                     "`scorpion batch 1-1000 --mode clear,classic`."))

# %% [markdown]
# ## The paired table

# %%
if PAIRED:
    one = df.drop_duplicates(["deal", "mode"])
    clear, classic = one[one["mode"] == "clear"], one[one["mode"] == "classic"]
    paired, rules_bugs = stats.paired(clear["deal"].to_numpy(), clear["status"].to_numpy(dtype=object),
                                  classic["deal"].to_numpy(), classic["status"].to_numpy(dtype=object))
    test = paired["mcnemar"]
    print(f"{paired['decided']:,} deals decided in both modes"
          + (f" ({paired['undecided']:,} more unknown in one of them)" if paired["undecided"] else ""))
    display(pd.DataFrame({"classic won": [paired["both"], paired["classic_only"]],
                          "classic lost": [paired["clear_only"], paired["neither"]]},
                         index=["clear won", "clear lost"]))
    method = "exact binomial" if test["method"] == "exact" else "chi-square with continuity correction"
    print(f"McNemar ({method}): " + (f"chi2 = {test['statistic']:.4g}, " if test["statistic"] is not None else "")
          + (f"p = {test['p_value']:.3g}" if test["p_value"] > 0 else "p < 1e-300")
          + f" (won in clear only {test['b']:,}, in classic only {test['c']:,})")
    if rules_bugs:
        display(Markdown(f"## ⚠ RULES BUG: {len(rules_bugs)} deal(s) won in classic but lost in clear\n\n"
                         + ", ".join(map(str, rules_bugs[:50]))
                         + "\n\nStart from the classic solution: `scorpion replay DEAL --mode clear MOVES`."))
    else:
        print("rules check: no deal is won in classic but lost in clear, as docs/rules.md requires")

# %% [markdown]
# ## How much the clear rule adds
#
# The deals won in clear but lost in classic, as a share of the deals decided in both, and
# as a share of the deals won in clear, with 95% Wilson intervals (`stats.wilson_interval`).

# %%
if PAIRED:
    def share(k: int, n: int) -> str:
        low, high = stats.wilson_interval(k, n)
        return f"{k:,} of {n:,} = {k / n if n else float('nan'):.3%} (95%: {low:.3%} - {high:.3%})"


    b, c, n = paired["clear_only"], paired["classic_only"], paired["decided"]
    won_clear, won_classic = paired["both"] + b, paired["both"] + c
    print(f"win rate on the {n:,} deals decided in both: clear {won_clear / n:.3%}, classic {won_classic / n:.3%}, "
          f"difference {(b - c) / n:+.3%}")
    print("won in clear only, of the deals decided in both:", share(b, n))
    print("won in clear only, of the deals won in clear:   ", share(b, won_clear))

# %% [markdown]
# ## Effort, deal by deal
#
# Search nodes of each deal in the two modes (logarithmic), coloured by the paired outcome.
# Points above the diagonal needed more search in clear.

# %%
if PAIRED:
    wide = one.pivot(index="deal", columns="mode", values=["status", "nodes", "seconds", "solution_length"])
    wide.columns = [f"{value}_{mode}" for value, mode in wide.columns]
    wide = wide.dropna(subset=["status_clear", "status_classic"])
    for column in ("nodes_clear", "nodes_classic", "solution_length_clear", "solution_length_classic"):
        wide[column] = wide[column].astype("int64")
    for column in ("seconds_clear", "seconds_classic"):
        wide[column] = wide[column].astype("float64")
    a, k = wide["status_clear"], wide["status_classic"]
    OUTCOMES = {"won in both": "tab:green", "clear only": "tab:blue", "classic only": "tab:orange",
                "lost in both": "tab:red", "unknown in one": "tab:gray"}
    wide["outcome"] = np.select(
        [(a == "won") & (k == "won"), (a == "won") & (k == "lost"), (a == "lost") & (k == "won"),
         (a == "lost") & (k == "lost")], list(OUTCOMES)[:4], default="unknown in one")

    fig, ax = plt.subplots(figsize=(7, 6.5))
    for outcome in ("lost in both", "unknown in one", "won in both", "classic only", "clear only"):  # rare on top
        color = OUTCOMES[outcome]
        sel = wide[wide["outcome"] == outcome]
        if len(sel):
            ax.scatter(sel["nodes_classic"], sel["nodes_clear"], s=3, alpha=0.4, color=color, rasterized=True,
                       label=f"{outcome} ({len(sel):,})")
    top = max(wide["nodes_clear"].max(), wide["nodes_classic"].max()) * 1.5
    ax.plot([1, top], [1, top], "k:", lw=1)
    ax.set(xscale="log", yscale="log", xlabel="search nodes in classic", ylabel="search nodes in clear",
           title="the same deal in both modes")
    ax.legend(markerscale=4, loc="lower right")  # a fixed place: "best" is slow to find on many points
    fig.tight_layout()
    plt.show()

    wide.groupby("outcome").agg(
        deals=("nodes_clear", "size"),
        median_nodes_clear=("nodes_clear", "median"), median_nodes_classic=("nodes_classic", "median"),
        total_seconds_clear=("seconds_clear", "sum"), total_seconds_classic=("seconds_classic", "sum"),
    ).reindex([o for o in OUTCOMES if o in set(wide["outcome"])])

# %% [markdown]
# ## Solution lengths in both modes
#
# For the deals won in both modes: the length of the clear solution minus the length of the
# classic one (the first solutions found, not the shortest).

# %%
if PAIRED:
    both = wide[wide["outcome"] == "won in both"]
    if both.empty:
        print("no deal won in both modes")
    else:
        diff = both["solution_length_clear"] - both["solution_length_classic"]
        fig, ax = plt.subplots(figsize=(11, 3.8))
        ax.hist(diff, bins=np.arange(diff.min(), diff.max() + 2) - 0.5, color="tab:purple")
        ax.set(xlabel="clear length - classic length (moves)", ylabel="deals won in both",
               title=f"{len(both):,} deals won in both modes")
        fig.tight_layout()
        plt.show()
        print(f"clear shorter in {(diff < 0).mean():.1%}, equal in {(diff == 0).mean():.1%}, "
              f"longer in {(diff > 0).mean():.1%}; median difference {diff.median():+g} moves")

# %% [markdown]
# ## Deals only the clear rule wins
#
# The first of them, with the command that shows the clear solution move by move and the
# classic verdict:

# %%
if PAIRED:
    only = wide[wide["outcome"] == "clear only"].head(10)
    display(Markdown("\n".join(
        ["| deal | clear: nodes, moves | classic: nodes | reproduce |", "|---:|---|---:|---|"]
        + [f"| {deal} | {r.nodes_clear:,}, {r.solution_length_clear} | {r.nodes_classic:,} | "
           f"`scorpion solve {deal} --mode both --walkthrough` |" for deal, r in zip(only.index, only.itertuples())]
    ) if len(only) else "no deal is won in clear only"))
