#!/usr/bin/env python3
"""Build the analysis notebooks of notebooks/ from the cell sources below, and run them.

The notebooks are generated so that they can be reviewed as code: edit the
cells here, never the .ipynb files. Every notebook reads the results folder
named by the environment variable SCORPION_RESULTS (default: the repository's
results/deals-1-1000000), uses the package's own statistics
(scorpion_solver.batch.stats) and never runs the solver, except
playing_without_peeking.ipynb, which reads the play folders (SCORPION_PLAY,
default results/) and runs `analyze` on a handful of lost games.

    python notebooks/build_notebooks.py --execute      # rebuild and run them all, keep the outputs
    python notebooks/build_notebooks.py --execute win_rates.ipynb
    SCORPION_RESULTS=results/quickstart python notebooks/build_notebooks.py --execute
    python notebooks/build_notebooks.py                # rebuild without running (drops the outputs)
    python notebooks/build_notebooks.py --check        # exit 1 if a notebook's cells differ from this file

tests/test_notebooks.py runs every notebook against a small results folder
it makes itself, and checks that the committed notebooks match this file.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
CELL_TIMEOUT = 600  # seconds per cell on the full million-deal folder

# ---------------------------------------------------------------------------
# the cell shared by every notebook: find and read the results folder

SETUP = '''\
%matplotlib inline
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
RESULTS = Path(os.environ.get("SCORPION_RESULTS") or ROOT / "results" / "deals-1-1000000").resolve()
if not RESULTS.is_dir():
    raise FileNotFoundError(f"no results folder {RESULTS}: run `scorpion batch`, or set SCORPION_RESULTS")
META = read_metadata(RESULTS) or {}  # _batch.json: the settings and the history of the folder
COLUMNS = @COLUMNS@
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
'''


def setup(columns: list[str]) -> str:
    listed = textwrap.fill(", ".join(map(repr, columns)), 100, subsequent_indent=" " * len("COLUMNS = ["))
    return SETUP.replace("@COLUMNS@", f"[{listed}]")


def md(text: str) -> tuple[str, str]:
    return "markdown", textwrap.dedent(text).strip("\n")


def code(text: str) -> tuple[str, str]:
    return "code", textwrap.dedent(text).strip("\n")


def when_paired(cells: list[tuple[str, str]], after: int) -> list[tuple[str, str]]:
    """The code cells from index ``after`` on run only when the folder holds both modes (PAIRED)."""
    return [
        (kind, "if PAIRED:\n" + textwrap.indent(text, "    ")) if kind == "code" and i >= after else (kind, text)
        for i, (kind, text) in enumerate(cells)
    ]


SOURCE_NOTE = md("""
    The data: the results folder named by the environment variable `SCORPION_RESULTS`
    (default `results/deals-1-1000000`, written by `scorpion batch 1-1000000 --out results/deals-1-1000000`;
    its format is in [docs/batch.md](../docs/batch.md)). Regenerate this notebook with
    `python notebooks/build_notebooks.py --execute` (see [README](README.md)); do not edit the `.ipynb`.
""")

# ---------------------------------------------------------------------------
# win_rates.ipynb

WIN_RATES = [
    md("""
        # Win rates by mode

        The share of deals that can be won, in each rules mode, with honest 95% intervals:
        the win rate is won / (won + lost) among the decided deals, and the interval is the
        Wilson score interval of `scorpion_solver.batch.stats.win_rate`, in which the unknown deals
        (cut short by the node budget) count both ways: the lower bound counts them lost, the
        upper bound won, so the interval holds however they turn out.
    """),
    SOURCE_NOTE,
    code(setup(["deal", "mode", "status", "nodes", "seconds", "stopped_by", "budget_nodes"])),
    md("""
        ## The rates

        `stats.summarize`, the numbers `scorpion stats` prints.
    """),
    code("""
        summary = S.summarize({c: df[c].to_numpy() for c in ("deal", "mode", "status", "nodes", "seconds",
                                                              "budget_nodes")}, META)


        def pct(x, digits=2):
            return "-" if x is None or pd.isna(x) else f"{100 * x:.{digits}f}%"


        pd.DataFrame([
            {"mode": m, "deals": s["deals"], "won": s["won"], "lost": s["lost"], "unknown": s["unknown"],
             "win rate": pct(s["win_rate"]), "95% interval": f"{pct(s['wilson_low'])} - {pct(s['wilson_high'])}"}
            for m, s in summary["modes"].items()
        ]).set_index("mode")
    """),
    md("""
        ## As the sample grows

        The win rate after the first *n* deals (in deal-number order) with its 95% Wilson band,
        for *n* from 1 to all the deals. The counts are cumulative sums; each point's interval is
        `stats.win_rate`. On the right, the width of the interval: it shrinks like 1/√*n*, so each
        extra decimal of precision costs a hundred times more deals.
    """),
    code("""
        def growing(statuses: np.ndarray, points: int = 400) -> pd.DataFrame:
            \"\"\"Win rate and 95% Wilson band after the first n deals, on a logarithmic grid of n.\"\"\"
            won = np.cumsum(statuses == "won")
            unknown = np.cumsum(statuses == "unknown")
            total = len(statuses)
            decades = 10 ** np.arange(int(np.log10(total)) + 1)
            grid = np.unique(np.concatenate([np.geomspace(1, total, points).round().astype(int), decades, [total]]))
            rows = []
            for n in grid:
                w, u = int(won[n - 1]), int(unknown[n - 1])
                r = S.win_rate(w, int(n) - w - u, u)
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
    """),
    md("The estimate at each power of ten (and at the end):"),
    code("""
        milestones = []
        for m, c in curves.items():
            at = c[np.isin(c["n"], 10 ** np.arange(8)) | (c["n"] == c["n"].max())]
            for r in at.itertuples():
                milestones.append({"mode": m, "deals": r.n, "win rate": pct(r.rate),
                                   "95% interval": f"{pct(r.low)} - {pct(r.high)}",
                                   "width (points)": f"{100 * (r.high - r.low):.3f}"})
        pd.DataFrame(milestones).set_index(["mode", "deals"])
    """),
    md("""
        ## Block by block

        The win rate of each block of consecutive deal numbers with its 95% interval, against the
        overall rate (dashed). The deals are pseudo-random, so the blocks should scatter around the
        overall rate with about one interval in twenty missing it, and show no trend.
    """),
    code("""
        largest = int(df.groupby("mode").size().max())
        BLOCK = 10 ** max(1, int(np.log10(max(largest / 20, 1))))  # 20-100 blocks
        blocks = (df.assign(block=(df["deal"] - 1) // BLOCK * BLOCK + 1)
                    .groupby(["mode", "block"])["status"].value_counts().unstack(fill_value=0)
                    .reindex(columns=list(S.STATUSES), fill_value=0).reset_index())
        rates = [S.win_rate(int(r.won), int(r.lost), int(r.unknown)) for r in blocks.itertuples()]
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
    """),
    md("""
        ## Unknown deals

        Deals a limit cut short, by the limit that stopped them, and (after `scorpion batch
        --retry-unknown`) which node budget decided how many deals.
    """),
    code("""
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
    """),
]

# ---------------------------------------------------------------------------
# search_effort.ipynb

SEARCH_EFFORT = [
    md("""
        # Search effort and solution lengths

        How much search the deals need: search nodes (counted inside the kernel, reproducible) and
        wall-clock seconds per solve, split by verdict, on logarithmic scales; what a smaller node
        budget would have left undecided; and how long the solutions are.
    """),
    SOURCE_NOTE,
    code(setup(["deal", "mode", "status", "nodes", "seconds", "solution_length", "dead_at_root", "budget_nodes"])),
    md("""
        ## Percentiles

        `stats.percentiles` (median, p90, p99, max) per mode and verdict, with the total, and the
        share of the mode's compute time each verdict took.
    """),
    code("""
        def percentile_table(column: str) -> pd.DataFrame:
            rows = []
            for m in MODES:
                of_mode = df.loc[df["mode"] == m, column].sum()
                for status in S.STATUSES:
                    values = df.loc[(df["mode"] == m) & (df["status"] == status), column]
                    p = S.percentiles(values)
                    if p is not None:
                        rows.append({"mode": m, "status": status, "deals": len(values), **p, "total": values.sum(),
                                     "share of total": f"{values.sum() / of_mode:.1%}" if of_mode else "-"})
            return pd.DataFrame(rows).set_index(["mode", "status"])


        print("search nodes")
        display(percentile_table("nodes"))
        print("seconds per solve")
        display(percentile_table("seconds"))
    """),
    md("""
        ## Distributions

        Histograms on logarithmic bins (both axes logarithmic), won / lost / unknown. The spike at
        one node is the deals the deadlock test proves lost at the root (see the dead-deals
        section of `hardest_and_dead_deals.ipynb`).
    """),
    code("""
        def log_histograms(column: str, label: str) -> None:
            positive = df.loc[df[column] > 0, column]
            bins = np.geomspace(positive.min(), positive.max() * 1.001 + 1e-12, 60)
            fig, axes = plt.subplots(1, len(MODES), figsize=(6.5 * len(MODES), 4), sharex=True, sharey=True,
                                     squeeze=False)
            for ax, m in zip(axes[0], MODES):
                for status in S.STATUSES:
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
    """),
    md("""
        ## What a smaller budget would have decided

        The share of won and of lost deals that needed more than *x* nodes. The search is
        deterministic and its nodes are counted in the kernel, so a deal decided within *x* nodes
        gets the same verdict under a budget of *x*; the others would be unknown. The table turns
        that into the win rate interval (`stats.win_rate`) each budget would have given.
    """),
    code("""
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
                r = S.win_rate(won, lost, len(sub) - won - lost)
                rows.append({"mode": m, "node budget": f"{b:,}", "decided": f"{(won + lost) / len(sub):.3%}",
                             "unknown": len(sub) - won - lost,
                             "95% interval": f"{100 * r.low:.2f}% - {100 * r.high:.2f}%"})
        pd.DataFrame(rows).set_index(["mode", "node budget"])
    """),
    md("""
        ## Nodes against seconds

        Every solve (hexagonal bins, logarithmic colour). Below a few thousand nodes the time is
        fixed overhead (table set-up, replaying the solution with the reference engine); above it
        the slope is the search speed.
    """),
    code("""
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
    """),
    md("""
        ## Solution lengths

        The number of moves of the solution found for each won deal (docs/rules.md notation, one
        move = one step of the walkthrough). The search is depth-first: this is the first
        solution it found, not necessarily the shortest.
    """),
    code("""
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
                                   **(S.percentiles(won.loc[won["mode"] == m, "solution_length"]) or {})}
                                  for m in MODES]).set_index("mode"))
            print("longest solutions:")
            for m in MODES:
                top = won[won["mode"] == m].nlargest(5, ["solution_length", "deal"])
                print(f"  {m}: " + ", ".join(f"deal {r.deal} ({r.solution_length} moves)" for r in top.itertuples()))
    """),
]

# ---------------------------------------------------------------------------
# mode_comparison.ipynb

MODE_COMPARISON = [
    md("""
        # Clear runs against classic, deal by deal

        Every deal is played in both modes, so the modes are compared on the same deals: the paired
        2×2 table and McNemar's test on its discordant cells (`stats.paired`, as `scorpion stats`
        prints them). docs/rules.md says every deal winnable in classic is winnable in clear: a deal won
        in classic but lost in clear is a rules bug and is shown loudly below.
    """),
    SOURCE_NOTE,
    code(setup(["deal", "mode", "status", "nodes", "seconds", "solution_length"])),
    code("""
        PAIRED = {"clear", "classic"} <= set(MODES)
        if not PAIRED:
            display(Markdown(f"**This folder holds {', '.join(MODES)} only**: there is nothing to compare, so the "
                             "cells below do nothing. A folder with both modes: "
                             "`scorpion batch 1-1000 --mode clear,classic`."))
    """),
    md("## The paired table"),
    code("""
        one = df.drop_duplicates(["deal", "mode"])
        clear, classic = one[one["mode"] == "clear"], one[one["mode"] == "classic"]
        paired, rules_bugs = S.paired(clear["deal"].to_numpy(), clear["status"].to_numpy(dtype=object),
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
            display(Markdown(f"## ⚠ RULES BUG: {len(rules_bugs)} deal(s) won in classic but lost in clear\\n\\n"
                             + ", ".join(map(str, rules_bugs[:50]))
                             + "\\n\\nStart from the classic solution: `scorpion replay DEAL --mode clear MOVES`."))
        else:
            print("rules check: no deal is won in classic but lost in clear, as docs/rules.md requires")
    """),
    md("""
        ## How much the clear rule adds

        The deals won in clear but lost in classic, as a share of the deals decided in both, and
        as a share of the deals won in clear, with 95% Wilson intervals (`stats.wilson_interval`).
    """),
    code("""
        def share(k: int, n: int) -> str:
            low, high = S.wilson_interval(k, n)
            return f"{k:,} of {n:,} = {k / n if n else float('nan'):.3%} (95%: {low:.3%} - {high:.3%})"


        b, c, n = paired["clear_only"], paired["classic_only"], paired["decided"]
        won_clear, won_classic = paired["both"] + b, paired["both"] + c
        print(f"win rate on the {n:,} deals decided in both: clear {won_clear / n:.3%}, classic {won_classic / n:.3%}, "
              f"difference {(b - c) / n:+.3%}")
        print("won in clear only, of the deals decided in both:", share(b, n))
        print("won in clear only, of the deals won in clear:   ", share(b, won_clear))
    """),
    md("""
        ## Effort, deal by deal

        Search nodes of each deal in the two modes (logarithmic), coloured by the paired outcome.
        Points above the diagonal needed more search in clear.
    """),
    code("""
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
    """),
    md("""
        ## Solution lengths in both modes

        For the deals won in both modes: the length of the clear solution minus the length of the
        classic one (the first solutions found, not the shortest).
    """),
    code("""
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
    """),
    md("""
        ## Deals only the clear rule wins

        The first of them, with the command that shows the clear solution move by move and the
        classic verdict:
    """),
    code("""
        only = wide[wide["outcome"] == "clear only"].head(10)
        display(Markdown("\\n".join(
            ["| deal | clear: nodes, moves | classic: nodes | reproduce |", "|---:|---|---:|---|"]
            + [f"| {deal} | {r.nodes_clear:,}, {r.solution_length_clear} | {r.nodes_classic:,} | "
               f"`scorpion solve {deal} --mode both --walkthrough` |" for deal, r in zip(only.index, only.itertuples())]
        ) if len(only) else "no deal is won in clear only"))
    """),
]

# ---------------------------------------------------------------------------
# hardest_and_dead_deals.ipynb

HARDEST_AND_DEAD = [
    md("""
        # The hardest deals, and the deals dead from the start

        The deals that needed the most search, each with the command that solves it again and shows
        the solution move by move; and how many deals are lost before any real search: the deadlock
        test proves them lost at the root, or the search ends within a handful of nodes.
    """),
    SOURCE_NOTE,
    code(
        setup(
            [
                "deal",
                "mode",
                "status",
                "nodes",
                "seconds",
                "solution_length",
                "max_depth",
                "dead_at_root",
                "stopped_by",
                "budget_nodes",
                "budget_memory_mb",
                "budget_seconds",
            ]
        )
    ),
    code("""
        from scorpion_solver.solver.result import DEFAULT_MEMORY_MB, DEFAULT_NODES

        PRUNE = (META.get("limits") or {}).get("prune", True)


        def budget_flags(row) -> list[str]:
            \"\"\"The flags that give this row's budget (none when it is the default).\"\"\"
            parts = []
            if row.budget_nodes != DEFAULT_NODES:
                parts += ["--nodes", str(row.budget_nodes)]
            if row.budget_memory_mb != DEFAULT_MEMORY_MB:
                parts += ["--memory", str(row.budget_memory_mb)]
            if not pd.isna(row.budget_seconds):
                parts += ["--time", f"{row.budget_seconds:g}"]
            return parts


        def reproduce(row) -> str:
            \"\"\"`scorpion solve` for this row's deal, mode and budget, with the walkthrough.\"\"\"
            parts = ["scorpion", "solve", str(row.deal), "--mode", row.mode] + budget_flags(row)
            if not PRUNE:
                parts.append("--no-prune")
            return " ".join(parts + ["--walkthrough"])


        PAGE_LINKS = {}  # (deal, mode) -> the link to its page, once written (see below)


        def deal_table(rows: pd.DataFrame) -> str:
            lines = ["| | deal | verdict | nodes | seconds | solution moves | deepest line | page | reproduce |",
                     "|---:|---:|---|---:|---:|---:|---:|---|---|"]
            for i, r in enumerate(rows.itertuples(), 1):
                moves = r.solution_length if r.status == "won" else "-"
                link = PAGE_LINKS.get((r.deal, r.mode))
                page = f"[page]({link})" if link else "-"
                lines.append(f"| {i} | {r.deal} | {r.status} | {r.nodes:,} | {r.seconds:.3g} | {moves} | "
                             f"{r.max_depth} | {page} | `{reproduce(r)}` |")
            return "\\n".join(lines)
    """),
    md("""
        ## Pages of the hardest deals

        Each deal named below has a page to open in a browser (one self-contained HTML file, see
        [docs/page.md](../docs/page.md)): its deal drawn as cards, and for a won deal the solution stored in
        the results folder, to step through with the arrow keys. The pages are written here, without the
        solver: the stored solution is replayed by the reference engine. They go to `notebooks/pages/` for the
        repository's own results folder, to `<folder>-pages/` beside any other results folder, or to the
        folder named by `SCORPION_PAGES`. `scorpion show N --mode M --solution --html deal.html` makes the same
        page from scratch (solving again).
    """),
    code("""
        from scorpion_solver import deal as start_of
        from scorpion_solver import get_rules, parse_moves
        from scorpion_solver.page import page_data, write_page

        TOP = 15
        summary = S.summarize({c: df[c].to_numpy() for c in ("deal", "mode", "status", "nodes", "seconds",
                                                              "budget_nodes")}, META, top=TOP)
        HARDEST, HARDEST_WON = {}, {}
        for m in MODES:
            hardest = pd.DataFrame(summary["modes"][m]["hardest"])[["deal"]]
            HARDEST[m] = hardest.merge(df[df["mode"] == m], on="deal", how="left")
            HARDEST_WON[m] = df[(df["mode"] == m) & (df["status"] == "won")].nlargest(TOP, ["nodes", "deal"])
        named = pd.concat([*HARDEST.values(), *HARDEST_WON.values()]).drop_duplicates(["deal", "mode"])

        DEFAULT_RESULTS = (ROOT / "results" / "deals-1-1000000").resolve()
        if os.environ.get("SCORPION_PAGES"):
            PAGES = Path(os.environ["SCORPION_PAGES"]).resolve()
        elif RESULTS == DEFAULT_RESULTS:
            PAGES = ROOT / "notebooks" / "pages"
        else:
            PAGES = RESULTS.parent / f"{RESULTS.name}-pages"
        solutions = pd.read_parquet(RESULTS, columns=["deal", "mode", "solution"],
                                    filters=[("deal", "in", sorted(set(named["deal"].tolist())))])
        solution_of = {(r.deal, r.mode): r.solution for r in solutions.itertuples()}

        VERDICTS = {
            "won": "won: a win in {n} moves, the solution stored in {folder}, replayed by the reference engine",
            "lost": "lost: the search proved that no sequence of moves wins ({nodes:,} nodes)",
            "unknown": "unknown: the search was stopped by the {why} limit ({nodes:,} nodes)",
        }
        for r in named.itertuples():
            rules = get_rules(r.mode)
            moves = parse_moves(solution_of.get((r.deal, r.mode), "")) if r.status == "won" else []
            name = f"deal-{r.deal}-{r.mode}.html"
            show = " ".join(["scorpion", "show", str(r.deal), "--mode", r.mode, "--solution", *budget_flags(r),
                             "--html", name])
            text = VERDICTS[r.status].format(n=len(moves), folder=shown, nodes=r.nodes, why=r.stopped_by)
            data = page_data(start_of(r.deal, rules), rules, moves, label="solution", deal=r.deal,
                             command=f"{show} (this copy: notebooks/hardest_and_dead_deals.ipynb, from {shown})",
                             verdict={"status": r.status, "text": text})
            path = write_page(data, PAGES / name)
            PAGE_LINKS[(r.deal, r.mode)] = Path(os.path.relpath(path, Path.cwd())).as_posix()
        shown_pages = PAGES.relative_to(ROOT) if PAGES.is_relative_to(ROOT) else PAGES
        print(f"{len(named)} pages written to {shown_pages}/ "
              f"({sum(named['status'] == 'won')} won deals with their solution, the others their start)")
    """),
    md("""
        ## Hardest by search nodes

        `stats.summarize`'s hardest deals (most nodes; nodes are reproducible, seconds depend on the
        machine). Most are lost deals: proving a loss means exhausting the search, and the
        walkthrough of a lost deal is just its verdict. The reproduce command uses the budget that
        decided the row.
    """),
    code("""
        for m in MODES:
            rows = HARDEST[m]
            display(Markdown(f"### {m}: the {len(rows)} deals with the most search nodes\\n\\n" + deal_table(rows)))
    """),
    md("""
        ## Hardest won deals

        The won deals that needed the most search: their walkthroughs are the long, non-obvious wins.
    """),
    code("""
        for m in MODES:
            rows = HARDEST_WON[m]
            display(Markdown(f"### {m}: the {len(rows)} hardest won deals\\n\\n" + deal_table(rows)
                             if len(rows) else f"### {m}: no won deal"))
    """),
    md("## Unknown deals"),
    code("""
        unknown = df[df["status"] == "unknown"]
        if unknown.empty:
            print("no unknown deal")
        else:
            display(Markdown(deal_table(unknown.sort_values(["mode", "deal"]).head(30))))
            spec = (META.get("deals") or {}).get("spec", "RANGE")
            bigger = 10 * int(unknown["budget_nodes"].max())
            print(f"{len(unknown):,} unknown; once the batch is finished, retry them with a bigger budget:\\n"
                  f"  scorpion batch {spec} --retry-unknown --nodes {bigger} --out {shown}")
    """),
    md("""
        ## Dead from the start

        A deal is *dead at the root* when the deadlock test proves it lost before a single move
        (one search node, the `dead_at_root` column). Others die after a few moves. The table gives
        the dead-at-root deals as a share of all deals (95% Wilson interval) and of the lost deals,
        and the share of the lost deals decided within 10, 100 and 1,000 nodes.
    """),
    code("""
        rows = []
        for m in MODES:
            sub = df[df["mode"] == m]
            lost = sub[sub["status"] == "lost"]
            dead = int(sub["dead_at_root"].sum())
            low, high = S.wilson_interval(dead, len(sub))
            row = {"mode": m, "deals": len(sub), "lost": len(lost), "dead at root": dead,
                   "of all deals": f"{dead / len(sub):.2%}", "95% interval": f"{low:.2%} - {high:.2%}",
                   "of the lost deals": f"{dead / len(lost):.2%}" if len(lost) else "-"}
            for t in (10, 100, 1000):
                row[f"lost within {t:,} nodes"] = f"{(lost['nodes'] <= t).mean():.2%}" if len(lost) else "-"
            rows.append(row)
            odd = sub[sub["dead_at_root"] & (sub["status"] != "lost")]
            if len(odd):
                print(f"WARNING {m}: {len(odd)} deals dead at the root but not lost, e.g. {odd['deal'].iloc[0]}")
        pd.DataFrame(rows).set_index("mode").T
    """),
    md("""
        How fast the lost deals are decided: the share of them decided within *x* nodes. The jump at
        one node is the deadlock test at the root.
    """),
    code("""
        fig, ax = plt.subplots(figsize=(9, 4))
        for m in MODES:
            values = np.sort(df.loc[(df["mode"] == m) & (df["status"] == "lost"), "nodes"].to_numpy())
            if len(values):
                x, first = np.unique(values, return_index=True)
                ax.step(x, np.r_[first[1:], len(values)] / len(values), where="post", color=MODE_COLORS[m],
                        label=f"{m} ({len(values):,} lost deals)")
        ax.set(xscale="log", xlabel="search nodes x", ylabel="share of the lost deals decided within x nodes",
               title="lost deals: how much search the proof took")
        ax.set_xlim(left=0.8)
        ax.yaxis.set_major_formatter(PercentFormatter(1))
        ax.legend()
        fig.tight_layout()
        plt.show()
    """),
    md("""
        The win rate among the deals that survive the root test, and which deals are dead at the
        root in one mode and not in the other:
    """),
    code("""
        for m in MODES:
            alive = df[(df["mode"] == m) & ~df["dead_at_root"]]
            counts = alive["status"].value_counts()
            r = S.win_rate(int(counts.get("won", 0)), int(counts.get("lost", 0)), int(counts.get("unknown", 0)))
            rate = "-" if r.rate is None else f"{r.rate:.2%}"
            print(f"{m}: {len(alive):,} deals not dead at the root, win rate {rate} "
                  f"(95%: {r.low:.2%} - {r.high:.2%})")
        if {"clear", "classic"} <= set(MODES):
            dead = df.pivot_table(index="deal", columns="mode", values="dead_at_root", aggfunc="first").dropna()
            display(pd.crosstab(dead["clear"].astype(bool).map({True: "clear: dead", False: "clear: alive"}),
                                dead["classic"].astype(bool).map({True: "classic: dead", False: "classic: alive"})))
    """),
]

# ---------------------------------------------------------------------------
# relatives.ipynb

RELATIVES = [
    md("""
        # The relatives: Wasp, Scorpion II and Goodsol rules

        Win rates of the three relatives of docs/rules.md ("Relatives"), each solved exactly by the same
        engine with other rule flags (`scorpion_solver.game.rules`), and the paired comparisons the
        rules imply: every deal won in Clear runs is won in Wasp (any card may enter a space) and in
        Scorpion II (column 4 dealt face up); every deal won in classic is won in Goodsol (runs stay
        and may move, tail at any time), and so in all three. `stats.rules_imply` decides which pairs
        are ordered; a deal won in the weaker rules and lost in the stronger is a rules bug and is
        shown loudly below.
    """),
    md("""
        The data: the clear / classic folder named by `SCORPION_RESULTS` (default
        `results/deals-1-1000000`) and the relatives' folders named by `SCORPION_RELATIVES`
        (folders separated by `os.pathsep`; default `results/deals-1-100000-wasp`,
        `results/deals-1-100000-scorpion2`, `results/deals-1-100000-goodsol`, written by
        `scorpion batch 1-100000 --mode M --out results/deals-1-100000-M`). The comparisons use the
        deals both folders hold. Regenerate this notebook with
        `python notebooks/build_notebooks.py --execute relatives.ipynb` (see [README](README.md)).
    """),
    code(setup(["deal", "mode", "status", "nodes", "seconds", "solution_length"])),
    code("""
        default_relatives = [ROOT / "results" / f"deals-1-100000-{m}" for m in ("wasp", "scorpion2", "goodsol")]
        listed = os.environ.get("SCORPION_RELATIVES")
        REL_FOLDERS = [Path(p).resolve() for p in listed.split(os.pathsep) if p] if listed else default_relatives
        frames, SOURCES = [df.assign(folder=str(shown))], {m: str(shown) for m in MODES}
        for folder in REL_FOLDERS:
            if not any(folder.glob(CHUNK_GLOB)):
                print(f"{folder}: no chunk files yet, skipped")
                continue
            meta = read_metadata(folder) or {}
            part = pd.read_parquet(folder, columns=COLUMNS)
            name = folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder
            wanted = (meta.get("deals") or {}).get("count")
            for m in sorted(set(part["mode"]) - set(SOURCES)):
                done = part.loc[part["mode"] == m, "deal"]
                SOURCES[m] = str(name)
                print(f"{name}: {m}, {done.nunique():,} deals ({done.min()}-{done.max()})"
                      + (f" of {wanted:,}" + (": PARTIAL RESULTS" if done.nunique() < wanted else "") if wanted else ""))
            frames.append(part[part["mode"].isin([m for m, f in SOURCES.items() if f == str(name)])]
                          .assign(folder=str(name)))
        every = pd.concat(frames, ignore_index=True).drop_duplicates(["deal", "mode"])
        ALL_MODES = [m for m in S.PRESETS if m in set(every["mode"])]
        RELATIVE_MODES = [m for m in ALL_MODES if m not in ("clear", "classic")]
        # the deals every relative holds: the common ground of the comparisons below
        common = set(every["deal"])
        for m in RELATIVE_MODES:
            common &= set(every.loc[every["mode"] == m, "deal"])
        COMMON = np.array(sorted(common))
        print(f"{len(COMMON):,} deals held in every mode ({', '.join(ALL_MODES)})"
              + (f": {COMMON.min()}-{COMMON.max()}" if len(COMMON) else ""))
    """),
    md("""
        ## Win rates

        Each mode on the deals every relative holds (so the rows compare like with like), with the
        95% Wilson interval of `stats.win_rate` (unknown deals counted both ways).
    """),
    code("""
        def pct(x, digits=2):
            return "-" if x is None or pd.isna(x) else f"{100 * x:.{digits}f}%"


        on_common = every[every["deal"].isin(COMMON)]
        rates = {}
        rows = []
        for m in ALL_MODES:
            counts = on_common.loc[on_common["mode"] == m, "status"].value_counts()
            r = S.win_rate(int(counts.get("won", 0)), int(counts.get("lost", 0)), int(counts.get("unknown", 0)))
            rates[m] = r
            rows.append({"mode": m, "folder": SOURCES[m], "deals": r.won + r.lost + r.unknown, "won": r.won,
                         "lost": r.lost, "unknown": r.unknown, "win rate": pct(r.rate),
                         "95% interval": f"{pct(r.low)} - {pct(r.high)}"})
        display(pd.DataFrame(rows).set_index("mode"))

        fig, ax = plt.subplots(figsize=(8, 3.8))
        names = list(rates)
        values = [rates[m].rate or 0 for m in names]
        ax.bar(names, values, color=[f"C{i}" for i in range(len(names))],
               yerr=[[v - rates[m].low for v, m in zip(values, names)],
                     [rates[m].high - v for v, m in zip(values, names)]], capsize=4)
        for i, v in enumerate(values):
            ax.text(i, v + 0.02, pct(v, 1), ha="center")
        if "wasp" in rates:
            ax.axhline(0.779, color="k", ls=":", lw=1)
            ax.text(len(names) - 0.5, 0.79, "published Wasp floor 77.9%", ha="right", fontsize=9)
        ax.set(ylim=(0, 1), ylabel="win rate", title=f"win rate on the {len(COMMON):,} common deals (95% Wilson)")
        ax.yaxis.set_major_formatter(PercentFormatter(1))
        fig.tight_layout()
        plt.show()
    """),
    md("""
        ## The paired tables and the implication checks

        For each pair of modes, the deals both hold: won in both / in the first only / in the second
        only / in neither, the win rates on those deals, and McNemar's test (`stats.compare_modes`, as
        `scorpion stats DIR --against DIR2 --pair A:B` prints it). The pairs the rules order come
        first (`stats.implied_pairs`); then two pairs the rules do not order: Clear runs against
        Goodsol (swept runs against runs left on the table) and Scorpion II against Wasp.
    """),
    code("""
        verdicts = S.mode_verdicts({c: every[c].to_numpy() for c in ("deal", "mode", "status")})
        pairs = S.implied_pairs(ALL_MODES, involving=set(RELATIVE_MODES))
        pairs += [p for p in (("clear", "goodsol"), ("scorpion2", "wasp")) if set(p) <= set(ALL_MODES)]
        comparisons = [S.compare_modes(a, b, verdicts[a], verdicts[b]) for a, b in pairs]
        for c in comparisons:
            print(S.format_comparison(c, SOURCES))
        rows = []
        for c in comparisons:
            rows.append({"pair": f"{c['first']} : {c['second']}", "deals": c["deals"], "both won": c["both"],
                         "first only": c["first_only"], "second only": c["second_only"], "neither": c["neither"],
                         "implied": "-" if c["implication"] is None else " => ".join(c["implication"]),
                         "violations": "-" if c["violations"] is None else len(c["violations"])})
        display(pd.DataFrame(rows).set_index("pair"))
        bugs = [c for c in comparisons if c["violations"]]
        if bugs:
            display(Markdown("## ⚠ RULES BUG\\n\\n" + "\\n".join(
                f"* {len(c['violations'])} deal(s) won in {c['implication'][0]} but lost in "
                f"{c['implication'][1]}: " + ", ".join(map(str, c["violations"][:50])) for c in bugs)))
        else:
            print("implication checks: no deal is won in the weaker rules and lost in the stronger")
    """),
    md("""
        ## The published Wasp floor

        A published figure (playsolitaire.io, "Wasp Solitaire") says a bounded search solver proved
        wins on 77.9% of 1,000 random Wasp deals, giving up on some: a floor for its game. Its game
        deals four columns with three face-down cards, deals the tail at any time and wins with four
        King-to-Ace runs built where they lie, so it is our `wasp` preset except that completed runs
        stay on the table instead of being swept. How often would 1,000 of our deals show 77.9% or
        less? The win rate per block of 1,000 deal numbers:
    """),
    code("""
        if "wasp" in verdicts:
            deals, status = verdicts["wasp"]
            block = (deals - 1) // 1000
            won = pd.Series(status == "won").groupby(block).mean()
            size = pd.Series(status).groupby(block).size()
            won = won[size == 1000]
            print(f"{len(won)} full blocks of 1,000 Wasp deals: win rate min {won.min():.1%}, "
                  f"median {won.median():.1%}, max {won.max():.1%}; blocks at or below 77.9%: "
                  f"{int((won <= 0.779).sum())}")
            fig, ax = plt.subplots(figsize=(8, 3.5))
            ax.hist(won, bins=30, color="C2")
            ax.axvline(0.779, color="k", ls=":", label="published floor 77.9%")
            ax.set(xlabel="win rate of a block of 1,000 deals", ylabel="blocks", title="Wasp, per 1,000 deals")
            ax.xaxis.set_major_formatter(PercentFormatter(1))
            ax.legend()
            fig.tight_layout()
            plt.show()
        else:
            print("no wasp results")
    """),
    md("""
        ## Cost

        Search nodes and seconds per solve in each mode (percentiles over the common deals), and
        the distribution of nodes: a space open to any card multiplies the moves, so Wasp searches
        far more per deal; Scorpion II's extra face-up column makes fewer deals dead at the root.
    """),
    code("""
        cost = []
        for m in ALL_MODES:
            part = on_common[on_common["mode"] == m]
            n, sec = S.percentiles(part["nodes"]), S.percentiles(part["seconds"])
            cost.append({"mode": m, "median nodes": n["median"], "p99 nodes": n["p99"], "max nodes": n["max"],
                         "mean seconds": part["seconds"].mean(), "max seconds": sec["max"],
                         "total seconds": part["seconds"].sum()})
        display(pd.DataFrame(cost).set_index("mode"))
        fig, ax = plt.subplots(figsize=(9, 4))
        top = max(float(on_common["nodes"].max()), 10.0)
        bins = np.geomspace(1, top * 1.1, 60)
        for i, m in enumerate(ALL_MODES):
            ax.hist(on_common.loc[on_common["mode"] == m, "nodes"], bins=bins, histtype="step", lw=1.4,
                    color=f"C{i}", label=m)
        ax.set(xscale="log", yscale="log", xlabel="search nodes", ylabel="deals", title="nodes per solve")
        ax.legend()
        fig.tight_layout()
        plt.show()
    """),
    md("""
        ## Deals only a relative wins

        The first deals won in each relative but lost in the mode it extends, with the command that
        shows the win.
    """),
    code("""
        for c in comparisons:
            if c["implication"] is None:
                continue
            weak, strong = c["implication"]
            if weak == "classic" and strong != "goodsol":
                continue
            w, s = verdicts[weak], verdicts[strong]
            both, iw, i_s = np.intersect1d(w[0], s[0], return_indices=True)
            only = both[(w[1][iw] == "lost") & (s[1][i_s] == "won")]
            print(f"won in {strong}, lost in {weak}: {len(only):,} deals, first {', '.join(map(str, only[:8]))}"
                  + (f"; e.g. scorpion solve {only[0]} --mode {strong} --solution" if len(only) else ""))
    """),
]

# ---------------------------------------------------------------------------
# playing_without_peeking.ipynb

PLAY_SETUP = """\
%matplotlib inline
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


def find_root() -> Path:
    for folder in (Path.cwd(), *Path.cwd().parents):
        if (folder / "pyproject.toml").is_file() and (folder / "scorpion_solver").is_dir():
            return folder
    return Path(scorpion_solver.__file__).resolve().parents[1]


ROOT = find_root()
RESULTS = Path(os.environ.get("SCORPION_RESULTS") or ROOT / "results" / "deals-1-1000000").resolve()
PLAY_ROOT = Path(os.environ.get("SCORPION_PLAY") or ROOT / "results").resolve()
print(f"exact results: {RESULTS.relative_to(ROOT) if RESULTS.is_relative_to(ROOT) else RESULTS}")
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
pd.set_option("display.float_format", "{:.4g}".format)
plt.rcParams.update({"figure.dpi": 80, "figure.facecolor": "white", "axes.grid": True, "grid.alpha": 0.3})


def pct(x):
    return "-" if x is None or pd.isna(x) else f"{100 * x:.2f}%"
"""

PLAYING = [
    md("""
        # Playing without peeking

        Every verdict of the exact solver is *thoughtful*: it sees the twelve face-down cards and
        the tail. A player sees neither. Here policies that see only the player's view
        (`scorpion_solver.play`: `random`, `greedy`, and `hop`, hindsight optimisation over K sampled
        layouts of the hidden cards) play the deals of the committed play folders (`results/play-*`,
        written by `scorpion play`). Deals the exact results show lost are counted lost without
        playing (no player can win them); each game a policy won replays to a win in the reference
        engine. The *ratio* is the share of the thoughtfully winnable deals the policy wins.
    """),
    md("""
        The data: the play folders under `SCORPION_PLAY` (default `results/`) and the exact results
        `SCORPION_RESULTS` (default `results/deals-1-1000000`). Regenerate with
        `python notebooks/build_notebooks.py --execute playing_without_peeking.ipynb`. One cell (the
        fatal moves) runs the solver, on a handful of games, with a small budget.
    """),
    code(PLAY_SETUP),
    md("""
        ## Realistic against thoughtful

        Per folder and mode, over the deals it has finished: `batch.play_stats.summarize_play`, the
        numbers `scorpion stats DIR` prints. Intervals are 95% Wilson intervals.
    """),
    code("""
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
    """),
    md("""
        ## The value of peeking, on the same deals

        To compare policies fairly, only the deals every folder has finished (the common prefix of
        deal numbers): the win rate of each policy beside the thoughtful rate of those deals.
    """),
    code("""
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
    """),
    md("""
        ## How `hop` improves with K

        The ratio (games won / thoughtfully winnable deals) against the number of sampled layouts per
        decision, on the deals every hop folder and the greedy folder finished, with 95% Wilson
        intervals; and the CPU cost per game played. `greedy` is the K = 0 baseline (hop falls back
        to the greedy order where no layout separates the moves).
    """),
    code("""
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
    """),
    md("""
        ## Paired: greedy against hop on the same winnable deals

        Each winnable deal played by both: which of the two won it. The off-diagonal cells are the
        deals where look-ahead over the hidden cards helps (hop only) or costs (greedy only).
    """),
    code("""
        winnable = same[same["thoughtful"] == "won"]
        greedy = winnable[winnable["label"] == "greedy"].set_index(["deal", "mode"])["outcome"] == "won"
        for label in sorted(l for l in winnable["label"].unique() if l.startswith("hop")):
            hop = winnable[winnable["label"] == label].set_index(["deal", "mode"])["outcome"] == "won"
            both = pd.concat({"greedy won": greedy, f"{label} won": hop}, axis=1).dropna()
            display(pd.crosstab(both["greedy won"], both[f"{label} won"]))
    """),
    md("""
        ## Where the policies lose

        A lost game ends when the harness proves the true position lost (the policy never learns
        it) or when no move is left. The move after which the game could no longer be won is the
        *fatal move*; `scorpion analyze` finds it by bisection. First the distribution of the game
        length at the end of lost games on winnable deals, then the fatal move of a few of
        greedy's lost games, with the command that shows it. Since the harness checks the true
        position after every move (20,000 nodes), the fatal move is mostly the last one played.
    """),
    code("""
        lost = games[(games["thoughtful"] == "won") & (games["outcome"] != "won") & games["played"]]
        display(lost.groupby(["label", "mode", "reason"]).size().unstack(fill_value=0))
        fig, ax = plt.subplots(figsize=(8, 3.5))
        for label, t in lost.groupby("label"):
            ax.hist(t["n_moves"], bins=np.arange(0, 120, 4), histtype="step", lw=1.5, label=label)
        ax.set(xlabel="moves played when the game was found lost", ylabel="games",
               title="lost games on winnable deals: how long they lasted")
        ax.legend()
        plt.show()
    """),
    code("""
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
    """),
    md("""
        ## Deals to play, graded

        `scorpion deals --winnable --grade easy|medium|hard` draws from these grades
        (`scorpion_solver.batch.deal_grades`): easy = greedy wins it; medium = only hop wins it;
        hard = winnable, but neither greedy nor any hop run that played it won it. Deals not played
        by greedy and by some hop run are ungraded.
    """),
    code("""
        from scorpion_solver.batch import deal_grades as G

        if (RESULTS / "_batch.json").exists():
            counts = {mode: G.grade_counts(G.grade_deals(mode, PLAY_ROOT, RESULTS)) for mode in ["clear", "classic"]}
            display(pd.DataFrame(counts).T)
    """),
]

# ---------------------------------------------------------------------------
# shortest_solutions.ipynb

SHORTEST = [
    md("""
        # Minimum-length solutions

        `scorpion batch RANGE --shortest` stores for every won deal a win of minimum length, proved
        minimal (`shortest == "proved"`; `"shortened"` when a limit stopped the proof). Every win of a
        position has length *fixed + extra cost*, where the fixed part is set by the deal and the extra
        cost counts the King moves and the leads of the three tail cards (the argument is in
        `scorpion_solver/solver/shortest.py`); the search deepens on the extra cost.

        The data: the folder named by `SCORPION_RESULTS`, default `results/shortest-1-100000`
        (`scorpion batch 1-100000 --shortest --chunk 500 --out results/shortest-1-100000`). A folder made
        without `--shortest` has no proved minimum: its solution lengths are shown as found.
        Regenerate with `python notebooks/build_notebooks.py --execute shortest_solutions.ipynb`.
    """),
    code(
        setup(["deal", "mode", "status", "nodes", "seconds", "solution", "solution_length", "shortest"]).replace(
            '"deals-1-1000000"', '"shortest-1-100000"'
        )
    ),
    code("""
        won = df[df["status"] == "won"].copy()
        won["king_moves"] = won["solution"].str.count(r"\\bK[CSHD]:")
        proved = won[won["shortest"] == "proved"]
        if len(proved):
            print(f"{len(proved):,} of {len(won):,} won solves with a proved minimum length "
                  f"({(won['shortest'] == 'shortened').sum():,} shortened only)")
        else:
            print("no proved minimum in this folder (made without --shortest): the lengths below are as found")
            proved = won
    """),
    md("## The distribution of minimum lengths"),
    code("""
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
    """),
    md("## King moves in the minimum solutions"),
    code("""
        counts = proved.groupby(["mode", "king_moves"]).size().unstack(0, fill_value=0)
        display(counts)
        fig, ax = plt.subplots(figsize=(8, 3))
        counts.plot.bar(ax=ax, color=[MODE_COLORS[m] for m in counts.columns])
        ax.set_xlabel("King moves")
        ax.set_ylabel("won deals")
        plt.show()
    """),
    md("## The deals needing the most King moves"),
    code("""
        top = proved.sort_values(["king_moves", "solution_length"], ascending=False).head(10)
        display(top[["deal", "mode", "solution_length", "king_moves", "nodes", "seconds", "solution"]])
    """),
    md("## What a proof costs"),
    code("""
        cost = proved.groupby("mode").agg(deals=("deal", "size"), median_nodes=("nodes", "median"),
                                          max_nodes=("nodes", "max"), mean_seconds=("seconds", "mean"),
                                          total_seconds=("seconds", "sum"))
        display(cost)
    """),
]


NOTEBOOKS: dict[str, list[tuple[str, str]]] = {
    "playing_without_peeking.ipynb": PLAYING,
    "win_rates.ipynb": WIN_RATES,
    "search_effort.ipynb": SEARCH_EFFORT,
    "mode_comparison.ipynb": when_paired(MODE_COMPARISON, after=4),
    "hardest_and_dead_deals.ipynb": HARDEST_AND_DEAD,
    "relatives.ipynb": RELATIVES,
    "shortest_solutions.ipynb": SHORTEST,
}

# ---------------------------------------------------------------------------
# building and running


def build(name: str):
    """The notebook ``name`` (a key of NOTEBOOKS) without outputs; cell ids are stable."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata = {
        "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
        "language_info": {"name": "python"},
    }
    stem = name.removesuffix(".ipynb")
    for i, (kind, source) in enumerate(NOTEBOOKS[name]):
        new = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
        nb.cells.append(new(source, id=f"{stem}-{i:02d}"[-64:]))
    nbformat.validate(nb)
    return nb


def sources(nb) -> list[tuple[str, str]]:
    """What the builder decides about a notebook: its cells' kinds and sources."""
    return [(cell.cell_type, cell.source) for cell in nb.cells]


def kernel_manager():
    """A kernel manager for ipykernel in this very interpreter (sys.executable).

    Only ipykernel's own kernel spec is looked at, so another kernel called
    ``python3`` elsewhere on the machine cannot take its place.
    """
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    specs = KernelSpecManager(kernel_dirs=[], ensure_native_kernel=True)
    return KernelManager(kernel_name="python3", kernel_spec_manager=specs)


def execute(nb, timeout: int = CELL_TIMEOUT, cwd: Path = HERE):
    """Run every cell of ``nb`` in place (working folder ``cwd``); raises CellExecutionError on an error.

    The results folder is the kernel's SCORPION_RESULTS (inherited from this
    process's environment).
    """
    from nbclient import NotebookClient

    client = NotebookClient(
        nb,
        km=kernel_manager(),
        timeout=timeout,
        startup_timeout=120,
        record_timing=False,
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute()
    return nb


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("names", nargs="*", metavar="NOTEBOOK", help="only these (default: all)")
    parser.add_argument("--execute", action="store_true", help="run the notebooks and keep their outputs")
    parser.add_argument("--results", metavar="DIR", help="the results folder (sets SCORPION_RESULTS)")
    parser.add_argument("--timeout", type=int, default=CELL_TIMEOUT, help="seconds per cell (default %(default)s)")
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a notebook's cells differ from this file"
    )
    args = parser.parse_args(argv)
    names = args.names or list(NOTEBOOKS)
    unknown = [n for n in names if n not in NOTEBOOKS]
    if unknown:
        parser.error(f"unknown notebook(s) {', '.join(unknown)}; known: {', '.join(NOTEBOOKS)}")
    import nbformat

    if args.check:
        stale = [
            n
            for n in names
            if not (HERE / n).is_file() or sources(nbformat.read(HERE / n, as_version=4)) != sources(build(n))
        ]
        for n in stale:
            print(f"{n} differs from {Path(__file__).name}: rerun it with --execute", file=sys.stderr)
        return 1 if stale else 0
    if args.results:
        os.environ["SCORPION_RESULTS"] = str(Path(args.results).resolve())
    for n in names:
        nb = build(n)
        if args.execute:
            print(f"running {n} ...", file=sys.stderr, flush=True)
            execute(nb, timeout=args.timeout)
        nbformat.write(nb, HERE / n)
        print(f"wrote {HERE / n}" + ("" if args.execute else " (no outputs)"), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
