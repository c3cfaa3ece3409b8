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
# # Win rates by mode
#
# The share of deals that can be won, in each rules mode, with honest 95% intervals:
# the win rate is won / (won + lost) among the decided deals, and the interval is the
# Wilson score interval of `scorpion_solver.batch.stats.win_rate`, in which the unknown deals
# (cut short by the node budget) count both ways: the lower bound counts them lost, the
# upper bound won, so the interval holds however they turn out.

# %% [markdown]
# The data: the results folder named by the environment variable `SCORPION_RESULTS`
# (default `results/deals-1-1000000`, written by `scorpion batch 1-1000000 --out results/deals-1-1000000`;
# its format is in [docs/batch.md](../docs/batch.md)). Its code is
# [win_rates.py](win_rates.py) (jupytext); rerun it with `python notebooks/run.py win_rates` (see [README](README.md)).

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display
from matplotlib.ticker import PercentFormatter

from scorpion_solver.batch import stats
from scorpion_solver.batch import limits_text
from common import ROOT, STATUS_COLORS, describe, mode_colors, pct, read_results, shown_path, style

COLUMNS = ['deal', 'mode', 'status', 'nodes', 'seconds', 'stopped_by', 'budget_nodes']
RESULTS, META, df, MODES = read_results(COLUMNS)  # META: _batch.json, the folder's settings and history
MODE_COLORS = mode_colors(MODES)
style()
shown = shown_path(RESULTS)
describe(RESULTS, META, df, MODES)

# %% [markdown]
# ## The rates
#
# `stats.summarize`, the numbers `scorpion stats` prints.

# %%
summary = stats.summarize({c: df[c].to_numpy() for c in ("deal", "mode", "status", "nodes", "seconds",
                                                      "budget_nodes")}, META)


pd.DataFrame([
    {"mode": m, "deals": s["deals"], "won": s["won"], "lost": s["lost"], "unknown": s["unknown"],
     "win rate": pct(s["win_rate"]), "95% interval": f"{pct(s['wilson_low'])} - {pct(s['wilson_high'])}"}
    for m, s in summary["modes"].items()
]).set_index("mode")


# %% [markdown]
# ## As the sample grows
#
# The win rate after the first *n* deals (in deal-number order) with its 95% Wilson band,
# for *n* from 1 to all the deals. The counts are cumulative sums; each point's interval is
# `stats.win_rate`. On the right, the width of the interval: it shrinks like 1/√*n*, so each
# extra decimal of precision costs a hundred times more deals.

# %%
def growing(statuses: np.ndarray, points: int = 400) -> pd.DataFrame:
    """Win rate and 95% Wilson band after the first n deals, on a logarithmic grid of n."""
    won = np.cumsum(statuses == "won")
    unknown = np.cumsum(statuses == "unknown")
    total = len(statuses)
    decades = 10 ** np.arange(int(np.log10(total)) + 1)
    grid = np.unique(np.concatenate([np.geomspace(1, total, points).round().astype(int), decades, [total]]))
    rows = []
    for n in grid:
        w, u = int(won[n - 1]), int(unknown[n - 1])
        r = stats.win_rate(w, int(n) - w - u, u)
        rows.append({"n": int(n), "won": w, "unknown": u, "rate": np.nan if r.rate is None else r.rate,
                     "low": r.low, "high": r.high})
    return pd.DataFrame(rows)


curves = {m: growing(df.loc[df["mode"] == m, "status"].to_numpy()) for m in MODES}

fig, (ax, ax_width) = plt.subplots(1, 2, figsize=(13, 4.5), gridspec_kw={"width_ratios": [3, 2]})
for m, c in curves.items():
    color = MODE_COLORS[m]
    ax.fill_between(c["n"], c["low"], c["high"], color=color, alpha=0.25, lw=0)
    ax.plot(c["n"], c["rate"], color=color, lw=1.2,
            label=f"{m}: {pct(c['rate'].iloc[-1])} after {c['n'].iloc[-1]:,} deals")
    ax_width.plot(c["n"], c["high"] - c["low"], color=color, label=m)
settled = pd.concat([c[c["n"] >= min(100, c["n"].max())] for c in curves.values()])
ax.set_ylim(0, min(1.0, 1.25 * settled["high"].max()))
ax.set(xscale="log", xlabel="deals (1, 2, 3, ... in deal-number order)", ylabel="win rate",
       title="win rate as the sample grows, with its 95% Wilson band")
ax.yaxis.set_major_formatter(PercentFormatter(1))
ax.legend(loc="upper right")
longest = max(curves.values(), key=lambda c: c["n"].iloc[-1])
ref = longest[longest["n"] >= min(100, longest["n"].max())]
width_end = ref["high"].iloc[-1] - ref["low"].iloc[-1]
ax_width.plot(ref["n"], width_end * np.sqrt(ref["n"].iloc[-1] / ref["n"]), "k:", lw=1, label="∝ 1/√n")
ax_width.set(xscale="log", yscale="log", xlabel="deals", ylabel="width of the 95% interval",
             title="precision")
ax_width.legend()
fig.tight_layout()
plt.show()

# %% [markdown]
# The estimate at each power of ten (and at the end):

# %%
milestones = []
for m, c in curves.items():
    at = c[np.isin(c["n"], 10 ** np.arange(8)) | (c["n"] == c["n"].max())]
    for r in at.itertuples():
        milestones.append({"mode": m, "deals": r.n, "win rate": pct(r.rate),
                           "95% interval": f"{pct(r.low)} - {pct(r.high)}",
                           "width (points)": f"{100 * (r.high - r.low):.3f}"})
pd.DataFrame(milestones).set_index(["mode", "deals"])

# %% [markdown]
# ## Block by block
#
# The win rate of each block of consecutive deal numbers with its 95% interval, against the
# overall rate (dashed). The deals are pseudo-random, so the blocks should scatter around the
# overall rate with about one interval in twenty missing it, and show no trend.

# %%
largest = int(df.groupby("mode").size().max())
BLOCK = 10 ** max(1, int(np.log10(max(largest / 20, 1))))  # 20-100 blocks
blocks = (df.assign(block=(df["deal"] - 1) // BLOCK * BLOCK + 1)
            .groupby(["mode", "block"])["status"].value_counts().unstack(fill_value=0)
            .reindex(columns=list(stats.STATUSES), fill_value=0).reset_index())
rates = [stats.win_rate(int(r.won), int(r.lost), int(r.unknown)) for r in blocks.itertuples()]
blocks["rate"] = [np.nan if r.rate is None else r.rate for r in rates]
blocks["low"] = [r.low for r in rates]
blocks["high"] = [r.high for r in rates]

fig, ax = plt.subplots(figsize=(13, 4))
for i, m in enumerate(MODES):
    b = blocks[blocks["mode"] == m]
    overall = summary["modes"][m]["win_rate"]
    x = b["block"] + BLOCK / 2 + (i - (len(MODES) - 1) / 2) * BLOCK * 0.2
    ax.errorbar(x, b["rate"], yerr=[b["rate"] - b["low"], b["high"] - b["rate"]], fmt="o", ms=3, lw=1,
                color=MODE_COLORS[m], label=m)
    ax.axhline(overall, color=MODE_COLORS[m], ls="--", lw=1)
    misses = int(((b["low"] > overall) | (b["high"] < overall)).sum())
    print(f"{m}: {misses} of {len(b)} blocks of {BLOCK:,} deals have a 95% interval missing the "
          f"overall rate {pct(overall)} ({misses / len(b):.0%}; about 5% by chance)")
ax.set(xlabel="deal number", ylabel="win rate", title=f"win rate per block of {BLOCK:,} deals")
ax.yaxis.set_major_formatter(PercentFormatter(1))
ax.legend()
fig.tight_layout()
plt.show()

# %% [markdown]
# ## Unknown deals
#
# Deals a limit cut short, by the limit that stopped them, and (after `scorpion batch
# --retry-unknown`) which node budget decided how many deals.

# %%
unknown = df[df["status"] == "unknown"]
if unknown.empty:
    print("no unknown deal: every deal was decided"
          + (f" ({limits_text(META['limits'])})" if "limits" in META else ""))
else:
    display(unknown.groupby(["mode", "stopped_by"]).size().rename("unknown deals").to_frame())
for m, s in summary["modes"].items():
    for budget, counts in s["budgets"].items():
        print(f"{m}: node budget {int(budget):,}: {counts['won']:,} won, {counts['lost']:,} lost, "
              f"{counts['unknown']:,} unknown")
