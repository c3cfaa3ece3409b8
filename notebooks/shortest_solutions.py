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
import os
from datetime import datetime, timezone
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display
from matplotlib.ticker import PercentFormatter

import scorpion_solver
from scorpion_solver.batch import stats as S
from scorpion_solver.batch import CHUNK_GLOB, limits_text, read_metadata


def find_root() -> Path:
    """The repository: the nearest folder up from here with pyproject.toml and scorpion_solver/."""
    for folder in (Path.cwd(), *Path.cwd().parents):
        if (folder / "pyproject.toml").is_file() and (folder / "scorpion_solver").is_dir():
            return folder
    return Path(scorpion_solver.__file__).resolve().parents[1]


ROOT = find_root()
RESULTS = Path(os.environ.get("SCORPION_RESULTS") or ROOT / "results" / "shortest-1-100000").resolve()
if not RESULTS.is_dir():
    raise FileNotFoundError(f"no results folder {RESULTS}: run `scorpion batch`, or set SCORPION_RESULTS")
META = read_metadata(RESULTS) or {}  # _batch.json: the settings and the history of the folder
COLUMNS = ['deal', 'mode', 'status', 'nodes', 'seconds', 'solution', 'solution_length', 'shortest']
df = pd.read_parquet(RESULTS, columns=COLUMNS).sort_values(["deal", "mode"], ignore_index=True)
MODES = [m for m in META.get("modes", []) if m in set(df["mode"])]
MODES += sorted(set(df["mode"]) - set(MODES))

MODE_COLORS = {m: f"C{i}" for i, m in enumerate(MODES)}
STATUS_COLORS = {"won": "tab:green", "lost": "tab:red", "unknown": "tab:gray"}
pd.set_option("display.float_format", "{:.4g}".format)
plt.rcParams.update({"figure.dpi": 80, "figure.facecolor": "white", "axes.grid": True, "grid.alpha": 0.3})

shown = RESULTS.relative_to(ROOT) if RESULTS.is_relative_to(ROOT) else RESULTS
expected = (META.get("deals") or {}).get("count")
present = df.groupby("mode")["deal"].nunique()
newest = max(p.stat().st_mtime for p in RESULTS.glob(CHUNK_GLOB))
print(f"{shown}: deals {(META.get('deals') or {}).get('spec', '?')}, modes {', '.join(MODES)}; "
      + (f"{limits_text(META['limits'])}; " if "limits" in META else "")
      + f"written by scorpion-solver {META.get('package_version', '?')}")
print(f"newest chunk file {datetime.fromtimestamp(newest, timezone.utc):%Y-%m-%d %H:%M} UTC")
for m in MODES:
    print(f"  {m}: {present[m]:,} deals" + (f" of {expected:,}" if expected else ""))
if expected and present.min() < expected:
    print("PARTIAL RESULTS: the batch is not finished; this is what it had written when the notebook ran")

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
