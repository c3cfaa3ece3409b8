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
# # The hardest deals, and the deals dead from the start
#
# The deals that needed the most search, each with the command that solves it again and shows
# the solution move by move; and how many deals are lost before any real search: the deadlock
# test proves them lost at the root, or the search ends within a handful of nodes.

# %% [markdown]
# The data: the results folder named by the environment variable `SCORPION_RESULTS`
# (default `results/deals-1-1000000`, written by `scorpion batch 1-1000000 --out results/deals-1-1000000`;
# its format is in [docs/batch.md](../docs/batch.md)). Its code is
# [hardest_and_dead_deals.py](hardest_and_dead_deals.py) (jupytext); rerun it with `python notebooks/run.py hardest_and_dead_deals` (see [README](README.md)).

# %%
# %matplotlib inline
import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display
from matplotlib.ticker import PercentFormatter

import scorpion_solver
from scorpion_solver.batch import stats
from common import ROOT, STATUS_COLORS, describe, mode_colors, pct, read_results, shown_path, style

COLUMNS = ['deal', 'mode', 'status', 'nodes', 'seconds', 'solution_length', 'max_depth', 'dead_at_root',
           'stopped_by', 'budget_nodes', 'budget_memory_mb', 'budget_seconds']
RESULTS, META, df, MODES = read_results(COLUMNS)  # META: _batch.json, the folder's settings and history
MODE_COLORS = mode_colors(MODES)
style()
shown = shown_path(RESULTS)
describe(RESULTS, META, df, MODES)

# %%
from scorpion_solver.solver.result import DEFAULT_MEMORY_MB, DEFAULT_NODES

PRUNE = (META.get("limits") or {}).get("prune", True)


def budget_flags(row) -> list[str]:
    """The flags that give this row's budget (none when it is the default)."""
    parts = []
    if row.budget_nodes != DEFAULT_NODES:
        parts += ["--nodes", str(row.budget_nodes)]
    if row.budget_memory_mb != DEFAULT_MEMORY_MB:
        parts += ["--memory", str(row.budget_memory_mb)]
    if not pd.isna(row.budget_seconds):
        parts += ["--time", f"{row.budget_seconds:g}"]
    return parts


def reproduce(row) -> str:
    """`scorpion solve` for this row's deal, mode and budget, with the walkthrough."""
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
    return "\n".join(lines)


# %% [markdown]
# ## Pages of the hardest deals
#
# Each deal named below has a page to open in a browser (one self-contained HTML file, see
# [docs/page.md](../docs/page.md)): its deal drawn as cards, and for a won deal the solution stored in
# the results folder, to step through with the arrow keys. The pages are written here, without the
# solver: the stored solution is replayed by the reference engine. They go to `notebooks/pages/` for the
# repository's own results folder, to `<folder>-pages/` beside any other results folder, or to the
# folder named by `SCORPION_PAGES`. `scorpion show N --mode M --solution --html deal.html` makes the same
# page from scratch (solving again).

# %%
from scorpion_solver import deal as start_of
from scorpion_solver import get_rules, parse_moves
from scorpion_solver.page import page_data, write_page

TOP = 15
summary = stats.summarize({c: df[c].to_numpy() for c in ("deal", "mode", "status", "nodes", "seconds",
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
PAGES.mkdir(parents=True, exist_ok=True)
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

# %% [markdown]
# ## Hardest by search nodes
#
# `stats.summarize`'s hardest deals (most nodes; nodes are reproducible, seconds depend on the
# machine). Most are lost deals: proving a loss means exhausting the search, and the
# walkthrough of a lost deal is just its verdict. The reproduce command uses the budget that
# decided the row.

# %%
for m in MODES:
    rows = HARDEST[m]
    display(Markdown(f"### {m}: the {len(rows)} deals with the most search nodes\n\n" + deal_table(rows)))

# %% [markdown]
# ## Hardest won deals
#
# The won deals that needed the most search: their walkthroughs are the long, non-obvious wins.

# %%
for m in MODES:
    rows = HARDEST_WON[m]
    display(Markdown(f"### {m}: the {len(rows)} hardest won deals\n\n" + deal_table(rows)
                     if len(rows) else f"### {m}: no won deal"))

# %% [markdown]
# ## Unknown deals

# %%
unknown = df[df["status"] == "unknown"]
if unknown.empty:
    print("no unknown deal")
else:
    display(Markdown(deal_table(unknown.sort_values(["mode", "deal"]).head(30))))
    spec = (META.get("deals") or {}).get("spec", "RANGE")
    bigger = 10 * int(unknown["budget_nodes"].max())
    print(f"{len(unknown):,} unknown; once the batch is finished, retry them with a bigger budget:\n"
          f"  scorpion batch {spec} --retry-unknown --nodes {bigger} --out {shown}")

# %% [markdown]
# ## Dead from the start
#
# A deal is *dead at the root* when the deadlock test proves it lost before a single move
# (one search node, the `dead_at_root` column). Others die after a few moves. The table gives
# the dead-at-root deals as a share of all deals (95% Wilson interval) and of the lost deals,
# and the share of the lost deals decided within 10, 100 and 1,000 nodes.

# %%
rows = []
for m in MODES:
    sub = df[df["mode"] == m]
    lost = sub[sub["status"] == "lost"]
    dead = int(sub["dead_at_root"].sum())
    low, high = stats.wilson_interval(dead, len(sub))
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

# %% [markdown]
# How fast the lost deals are decided: the share of them decided within *x* nodes. The jump at
# one node is the deadlock test at the root.

# %%
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

# %% [markdown]
# The win rate among the deals that survive the root test, and which deals are dead at the
# root in one mode and not in the other:

# %%
for m in MODES:
    alive = df[(df["mode"] == m) & ~df["dead_at_root"]]
    counts = alive["status"].value_counts()
    r = stats.win_rate(int(counts.get("won", 0)), int(counts.get("lost", 0)), int(counts.get("unknown", 0)))
    rate = "-" if r.rate is None else f"{r.rate:.2%}"
    print(f"{m}: {len(alive):,} deals not dead at the root, win rate {rate} "
          f"(95%: {r.low:.2%} - {r.high:.2%})")
if {"clear", "classic"} <= set(MODES):
    dead = df.pivot_table(index="deal", columns="mode", values="dead_at_root", aggfunc="first").dropna()
    display(pd.crosstab(dead["clear"].astype(bool).map({True: "clear: dead", False: "clear: alive"}),
                        dead["classic"].astype(bool).map({True: "classic: dead", False: "classic: alive"})))
