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
# # Minimum-length solutions
#
# `scorpion batch RANGE --shortest` stores for every won deal a win of minimum length, proved
# minimal (`shortest == "proved"`; `"shortened"` when a limit stopped the proof). Every win of a
# position has length *fixed + extra cost*, where the fixed part is set by the deal and the extra
# cost counts the King moves and the leads of the three tail cards (the argument is in
# `scorpion_solver/solver/shortest.py`); the search deepens on the extra cost.
#
# The data: the folder named by `SCORPION_RESULTS`, default `results/shortest-1-100000`
# (`scorpion batch 1-100000 --shortest --chunk 500 --out results/shortest-1-100000`). A folder made
# without `--shortest` has no proved minimum: its solution lengths are shown as found.
# Rerun with `python notebooks/run.py shortest_solutions`.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display
from matplotlib.ticker import PercentFormatter

from common import ROOT, STATUS_COLORS, describe, mode_colors, pct, read_results, shown_path, style

COLUMNS = ['deal', 'mode', 'status', 'nodes', 'seconds', 'solution', 'solution_length', 'shortest']
RESULTS, META, df, MODES = read_results(COLUMNS, "shortest-1-100000")  # META: _batch.json, the folder's settings and history
MODE_COLORS = mode_colors(MODES)
style()
shown = shown_path(RESULTS)
describe(RESULTS, META, df, MODES)

# %%
won = df[df["status"] == "won"].copy()
won["king_moves"] = won["solution"].str.count(r"\bK[CSHD]:")
proved = won[won["shortest"] == "proved"]
if len(proved):
    print(f"{len(proved):,} of {len(won):,} won solves with a proved minimum length "
          f"({(won['shortest'] == 'shortened').sum():,} shortened only)")
else:
    print("no proved minimum in this folder (made without --shortest): the lengths below are as found")
    proved = won

# %% [markdown]
# ## The distribution of minimum lengths

# %%
table = proved.groupby("mode")["solution_length"].describe(percentiles=[0.1, 0.5, 0.9, 0.99])
table["with King moves"] = proved.groupby("mode")["king_moves"].apply(lambda k: (k > 0).mean())
display(table)
fig, ax = plt.subplots(figsize=(8, 3.5))
bins = np.arange(proved["solution_length"].min() - 0.5, proved["solution_length"].max() + 1.5)
for m in MODES:
    part = proved[proved["mode"] == m]["solution_length"]
    if len(part):
        ax.hist(part, bins=bins, histtype="step", lw=2, color=MODE_COLORS[m], label=f"{m} ({len(part):,})")
ax.set_xlabel("minimum solution length (moves)")
ax.set_ylabel("won deals")
ax.legend()
plt.show()

# %% [markdown]
# ## King moves in the minimum solutions

# %%
counts = proved.groupby(["mode", "king_moves"]).size().unstack(0, fill_value=0)
display(counts)
fig, ax = plt.subplots(figsize=(8, 3))
counts.plot.bar(ax=ax, color=[MODE_COLORS[m] for m in counts.columns])
ax.set_xlabel("King moves")
ax.set_ylabel("won deals")
plt.show()

# %% [markdown]
# ## The deals needing the most King moves

# %%
top = proved.sort_values(["king_moves", "solution_length"], ascending=False).head(10)
display(top[["deal", "mode", "solution_length", "king_moves", "nodes", "seconds", "solution"]])

# %% [markdown]
# ## What a proof costs

# %%
cost = proved.groupby("mode").agg(deals=("deal", "size"), median_nodes=("nodes", "median"),
                                  max_nodes=("nodes", "max"), mean_seconds=("seconds", "mean"),
                                  total_seconds=("seconds", "sum"))
display(cost)
