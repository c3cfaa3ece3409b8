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
# # Search effort and solution lengths
#
# How much search the deals need: search nodes (counted inside the kernel, reproducible) and
# wall-clock seconds per solve, split by verdict, on logarithmic scales; what a smaller node
# budget would have left undecided; and how long the solutions are.

# %% [markdown]
# The data: the results folder named by the environment variable `SCORPION_RESULTS`
# (default `results/deals-1-1000000`, written by `scorpion batch 1-1000000 --out results/deals-1-1000000`;
# its format is in [docs/batch.md](../docs/batch.md)). Its code is
# [search_effort.py](search_effort.py) (jupytext); rerun it with `python notebooks/run.py search_effort` (see [README](README.md)).

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display
from matplotlib.ticker import PercentFormatter

from scorpion_solver.batch import stats
from common import ROOT, STATUS_COLORS, describe, mode_colors, pct, read_results, shown_path, style

COLUMNS = ['deal', 'mode', 'status', 'nodes', 'seconds', 'solution_length', 'dead_at_root', 'budget_nodes']
RESULTS, META, df, MODES = read_results(COLUMNS)  # META: _batch.json, the folder's settings and history
MODE_COLORS = mode_colors(MODES)
style()
shown = shown_path(RESULTS)
describe(RESULTS, META, df, MODES)

# %% [markdown]
# ## Percentiles
#
# `stats.percentiles` (median, p90, p99, max) per mode and verdict, with the total, and the
# share of the mode's compute time each verdict took.

# %%
def percentile_table(column: str) -> pd.DataFrame:
    rows = []
    for m in MODES:
        of_mode = df.loc[df["mode"] == m, column].sum()
        for status in stats.STATUSES:
            values = df.loc[(df["mode"] == m) & (df["status"] == status), column]
            p = stats.percentiles(values)
            if p is not None:
                rows.append({"mode": m, "status": status, "deals": len(values), **p, "total": values.sum(),
                             "share of total": f"{values.sum() / of_mode:.1%}" if of_mode else "-"})
    return pd.DataFrame(rows).set_index(["mode", "status"])


print("search nodes")
display(percentile_table("nodes"))
print("seconds per solve")
display(percentile_table("seconds"))


# %% [markdown]
# ## Distributions
#
# Histograms on logarithmic bins (both axes logarithmic), won / lost / unknown. The spike at
# one node is the deals the deadlock test proves lost at the root (see the dead-deals
# section of `hardest_and_dead_deals.ipynb`).

# %%
def log_histograms(column: str, label: str) -> None:
    positive = df.loc[df[column] > 0, column]
    bins = np.geomspace(positive.min(), positive.max() * 1.001 + 1e-12, 60)
    fig, axes = plt.subplots(1, len(MODES), figsize=(6.5 * len(MODES), 4), sharex=True, sharey=True,
                             squeeze=False)
    for ax, m in zip(axes[0], MODES):
        for status in stats.STATUSES:
            values = df.loc[(df["mode"] == m) & (df["status"] == status), column]
            if len(values):
                ax.hist(values.clip(lower=bins[0]), bins=bins, histtype="step", lw=1.5,
                        color=STATUS_COLORS[status], label=f"{status} ({len(values):,})")
        ax.set(xscale="log", yscale="log", xlabel=label, title=m)
        ax.legend()
    axes[0][0].set_ylabel("deals")
    fig.tight_layout()
    plt.show()


log_histograms("nodes", "search nodes")
log_histograms("seconds", "seconds per solve")

# %% [markdown]
# ## What a smaller budget would have decided
#
# The share of won and of lost deals that needed more than *x* nodes. The search is
# deterministic and its nodes are counted in the kernel, so a deal decided within *x* nodes
# gets the same verdict under a budget of *x*; the others would be unknown. The table turns
# that into the win rate interval (`stats.win_rate`) each budget would have given.

# %%
fig, axes = plt.subplots(1, len(MODES), figsize=(6.5 * len(MODES), 4), sharex=True, sharey=True,
                         squeeze=False)
budget = int(df["budget_nodes"].max())
for ax, m in zip(axes[0], MODES):
    for status in ("won", "lost"):
        values = np.sort(df.loc[(df["mode"] == m) & (df["status"] == status), "nodes"].to_numpy())
        if len(values) == 0:
            continue
        x, first = np.unique(values, return_index=True)
        above = 1 - np.r_[first[1:], len(values)] / len(values)  # share needing more than x nodes
        if x[0] > 1:
            x, above = np.r_[1, x], np.r_[1.0, above]  # every deal needs more than x below its minimum
        ax.step(x, above, where="post", color=STATUS_COLORS[status], label=f"{status} ({len(values):,})")
    ax.axvline(budget, color="k", ls=":", lw=1, label=f"budget {budget:,}")
    ax.set(xscale="log", yscale="log", xlabel="node budget x", title=m)
    ax.legend()
axes[0][0].set_ylabel("share needing more than x nodes")
fig.tight_layout()
plt.show()

rows = []
for m in MODES:
    sub = df[df["mode"] == m]
    for b in [10 ** k for k in range(2, 10) if 10 ** k < budget] + [budget]:
        within = sub["nodes"] <= b
        won = int(((sub["status"] == "won") & within).sum())
        lost = int(((sub["status"] == "lost") & within).sum())
        r = stats.win_rate(won, lost, len(sub) - won - lost)
        rows.append({"mode": m, "node budget": f"{b:,}", "decided": f"{(won + lost) / len(sub):.3%}",
                     "unknown": len(sub) - won - lost,
                     "95% interval": f"{100 * r.low:.2f}% - {100 * r.high:.2f}%"})
pd.DataFrame(rows).set_index(["mode", "node budget"])

# %% [markdown]
# ## Nodes against seconds
#
# Every solve (hexagonal bins, logarithmic colour). Below a few thousand nodes the time is
# fixed overhead (table set-up, replaying the solution with the reference engine); above it
# the slope is the search speed.

# %%
fig, axes = plt.subplots(1, len(MODES), figsize=(6.5 * len(MODES), 4.5), sharex=True, sharey=True,
                         squeeze=False)
for ax, m in zip(axes[0], MODES):
    sub = df[(df["mode"] == m) & (df["seconds"] > 0)]
    ax.hexbin(sub["nodes"], sub["seconds"], xscale="log", yscale="log", bins="log", gridsize=50, mincnt=1,
              cmap="viridis")
    big = sub[sub["nodes"] >= 10_000]
    speed = (f"median {(big['nodes'] / big['seconds']).median():,.0f} nodes/s above 10,000 nodes"
             if len(big) else "")
    ax.set(xlabel="search nodes", title=f"{m}: {speed}")
axes[0][0].set_ylabel("seconds")
fig.tight_layout()
plt.show()

# %% [markdown]
# ## Solution lengths
#
# The number of moves of the solution found for each won deal (docs/rules.md notation, one
# move = one step of the walkthrough). The search is depth-first: this is the first
# solution it found, not necessarily the shortest.

# %%
won = df[df["status"] == "won"]
if won.empty:
    print("no won deal in this folder")
else:
    lengths = won["solution_length"]
    bins = np.arange(lengths.min(), lengths.max() + 2) - 0.5
    fig, ax = plt.subplots(figsize=(11, 4))
    for m in MODES:
        values = won.loc[won["mode"] == m, "solution_length"]
        if len(values):
            ax.hist(values, bins=bins, histtype="step", lw=1.5, color=MODE_COLORS[m],
                    label=f"{m} ({len(values):,} won deals)")
    ax.set(xlabel="solution length (moves)", ylabel="won deals", title="solution lengths")
    ax.legend()
    fig.tight_layout()
    plt.show()
    display(pd.DataFrame([{"mode": m, "won deals": int((won["mode"] == m).sum()),
                           "mean": won.loc[won["mode"] == m, "solution_length"].mean(),
                           "min": won.loc[won["mode"] == m, "solution_length"].min(),
                           **(stats.percentiles(won.loc[won["mode"] == m, "solution_length"]) or {})}
                          for m in MODES]).set_index("mode"))
    print("longest solutions:")
    for m in MODES:
        top = won[won["mode"] == m].nlargest(5, ["solution_length", "deal"])
        print(f"  {m}: " + ", ".join(f"deal {r.deal} ({r.solution_length} moves)" for r in top.itertuples()))
