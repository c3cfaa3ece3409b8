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
# # The relatives: Wasp, Scorpion II, Goodsol rules, Three Blind Mice and Double Scorpion
#
# Win rates of the three relatives of docs/rules.md ("Relatives"), each solved exactly by the same
# engine with other rule flags (`scorpion_solver.game.rules`), and the paired comparisons the
# rules imply: every deal won in Clear runs is won in Wasp (any card may enter a space) and in
# Scorpion II (column 4 dealt face up); every deal won in classic is won in Goodsol (runs stay
# and may move, tail at any time), and so in all three. `stats.rules_imply` decides which pairs
# are ordered; a deal won in the weaker rules and lost in the stronger is a rules bug and is
# shown loudly below.

# %% [markdown]
# The data: the clear / classic folder named by `SCORPION_RESULTS` (default
# `results/deals-1-1000000`) and the relatives' folders named by `SCORPION_RELATIVES`
# (folders separated by `os.pathsep`; default `results/deals-1-100000-wasp`,
# `results/deals-1-100000-scorpion2`, `results/deals-1-100000-goodsol`, written by
# `scorpion batch 1-100000 --mode M --out results/deals-1-100000-M`). The comparisons use the
# deals both folders hold. Rerun it with
# `python notebooks/run.py relatives` (see [README](README.md)).

# %%
# %matplotlib inline
import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display
from matplotlib.ticker import PercentFormatter

from scorpion_solver.batch import stats
from scorpion_solver.batch import CHUNK_GLOB, read_metadata
from common import ROOT, STATUS_COLORS, describe, mode_colors, pct, read_results, shown_path, style

COLUMNS = ['deal', 'mode', 'status', 'nodes', 'seconds', 'solution_length']
RESULTS, META, df, MODES = read_results(COLUMNS)  # META: _batch.json, the folder's settings and history
MODE_COLORS = mode_colors(MODES)
style()
shown = shown_path(RESULTS)
describe(RESULTS, META, df, MODES)

# %%
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
ALL_MODES = [m for m in stats.PRESETS if m in set(every["mode"])]
RELATIVE_MODES = [m for m in ALL_MODES if m not in ("clear", "classic")]
# the deals every relative holds: the common ground of the comparisons below
common = set(every["deal"])
for m in RELATIVE_MODES:
    common &= set(every.loc[every["mode"] == m, "deal"])
COMMON = np.array(sorted(common))
print(f"{len(COMMON):,} deals held in every mode ({', '.join(ALL_MODES)})"
      + (f": {COMMON.min()}-{COMMON.max()}" if len(COMMON) else ""))


# %% [markdown]
# ## Win rates
#
# Each mode on the deals every relative holds (so the rows compare like with like), with the
# 95% Wilson interval of `stats.win_rate` (unknown deals counted both ways).

# %%
on_common = every[every["deal"].isin(COMMON)]
rates = {}
rows = []
for m in ALL_MODES:
    counts = on_common.loc[on_common["mode"] == m, "status"].value_counts()
    r = stats.win_rate(int(counts.get("won", 0)), int(counts.get("lost", 0)), int(counts.get("unknown", 0)))
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

# %% [markdown]
# ## The paired tables and the implication checks
#
# For each pair of modes, the deals both hold: won in both / in the first only / in the second
# only / in neither, the win rates on those deals, and McNemar's test (`stats.compare_modes`, as
# `scorpion stats DIR --against DIR2 --pair A:B` prints it). The pairs the rules order come
# first (`stats.implied_pairs`); then two pairs the rules do not order: Clear runs against
# Goodsol (swept runs against runs left on the table) and Scorpion II against Wasp.

# %%
verdicts = stats.mode_verdicts({c: every[c].to_numpy() for c in ("deal", "mode", "status")})
pairs = stats.implied_pairs(ALL_MODES, involving=set(RELATIVE_MODES))
pairs += [p for p in (("clear", "goodsol"), ("scorpion2", "wasp")) if set(p) <= set(ALL_MODES)]
comparisons = [stats.compare_modes(a, b, verdicts[a], verdicts[b]) for a, b in pairs]
for c in comparisons:
    print(stats.format_comparison(c, SOURCES))
rows = []
for c in comparisons:
    rows.append({"pair": f"{c['first']} : {c['second']}", "deals": c["deals"], "both won": c["both"],
                 "first only": c["first_only"], "second only": c["second_only"], "neither": c["neither"],
                 "implied": "-" if c["implication"] is None else " => ".join(c["implication"]),
                 "violations": "-" if c["violations"] is None else len(c["violations"])})
display(pd.DataFrame(rows).set_index("pair"))
bugs = [c for c in comparisons if c["violations"]]
if bugs:
    display(Markdown("## ⚠ RULES BUG\n\n" + "\n".join(
        f"* {len(c['violations'])} deal(s) won in {c['implication'][0]} but lost in "
        f"{c['implication'][1]}: " + ", ".join(map(str, c["violations"][:50])) for c in bugs)))
else:
    print("implication checks: no deal is won in the weaker rules and lost in the stronger")

# %% [markdown]
# ## The published Wasp floor
#
# A published figure (playsolitaire.io, "Wasp Solitaire") says a bounded search solver proved
# wins on 77.9% of 1,000 random Wasp deals, giving up on some: a floor for its game. Its game
# deals four columns with three face-down cards, deals the tail at any time and wins with four
# King-to-Ace runs built where they lie, so it is our `wasp` preset except that completed runs
# stay on the table instead of being swept. How often would 1,000 of our deals show 77.9% or
# less? The win rate per block of 1,000 deal numbers:

# %%
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

# %% [markdown]
# ## Cost
#
# Search nodes and seconds per solve in each mode (percentiles over the common deals), and
# the distribution of nodes: a space open to any card multiplies the moves, so Wasp searches
# far more per deal; Scorpion II's extra face-up column makes fewer deals dead at the root.

# %%
cost = []
for m in ALL_MODES:
    part = on_common[on_common["mode"] == m]
    n, sec = stats.percentiles(part["nodes"]), stats.percentiles(part["seconds"])
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

# %% [markdown]
# ## Deals only a relative wins
#
# The first deals won in each relative but lost in the mode it extends, with the command that
# shows the win.

# %%
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

# %% [markdown]
# ## The two new games: Three Blind Mice and Double Scorpion
#
# Three Blind Mice (PySolFC's game 305: ten columns of five, nine cards face down, two reserve
# cards, no tail) and Double Scorpion (game 511: two decks, ten columns of ten, a tail of four;
# `double-dealt` deals the tail at the start) number their deals their own way, so deal N is
# another shuffle than Scorpion's deal N and they stay off the common ground above: each is shown
# on the deals its own folder holds. The folders are named by `SCORPION_NEW_GAMES` (separated by
# `os.pathsep`; default `results/deals-1-100000-{mice,double,double-dealt}`, those that exist). The
# rate is given as the range from unknown counted lost to unknown counted won, with the 95%
# Wilson interval over both ends (`stats.win_rate`): a Double Scorpion folder leaves deals unknown
# at its budget, and they are neither dropped nor guessed.

# %%
default_new = [ROOT / "results" / f"deals-1-100000-{m}" for m in ("mice", "double", "double-dealt")]
listed = os.environ.get("SCORPION_NEW_GAMES")
NEW_FOLDERS = [Path(p).resolve() for p in listed.split(os.pathsep) if p] if listed else default_new
NEW, NEW_SOURCES, new_rows = {}, {}, []
for folder in NEW_FOLDERS:
    name = folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder
    if not any(folder.glob(CHUNK_GLOB)):
        print(f"{name}: no chunk files yet, skipped")
        continue
    meta = read_metadata(folder) or {}
    part = pd.read_parquet(folder, columns=COLUMNS + ["dead_at_root"])
    wanted = (meta.get("deals") or {}).get("count")
    for m in sorted(set(part["mode"])):
        rows_m = part[part["mode"] == m].drop_duplicates("deal")
        NEW[m], NEW_SOURCES[m] = rows_m, str(name)
        counts = rows_m["status"].value_counts()
        r = stats.win_rate(int(counts.get("won", 0)), int(counts.get("lost", 0)), int(counts.get("unknown", 0)))
        n = len(rows_m)
        print(f"{name}: {m}, {n:,} deals ({rows_m['deal'].min()}-{rows_m['deal'].max()})"
              + (f" of {wanted:,}" + (": PARTIAL RESULTS" if n < wanted else "") if wanted else ""))
        new_rows.append({"mode": m, "folder": str(name), "deals": n, "won": r.won, "lost": r.lost,
                         "unknown": r.unknown, "win rate": f"{pct(r.won / n)} - {pct((r.won + r.unknown) / n)}",
                         "95% interval": f"{pct(r.low)} - {pct(r.high)}",
                         "median solution": rows_m.loc[rows_m["status"] == "won", "solution_length"].median(),
                         "dead at the root": int(rows_m["dead_at_root"].sum()),
                         "median nodes": rows_m["nodes"].median(), "mean seconds": rows_m["seconds"].mean()})
if new_rows:
    display(pd.DataFrame(new_rows).set_index("mode"))
    fig, ax = plt.subplots(figsize=(8, 3.8))
    for i, row in enumerate(new_rows):
        rows_m = NEW[row["mode"]]
        n = len(rows_m)
        low, high = row["won"] / n, (row["won"] + row["unknown"]) / n
        r = stats.win_rate(row["won"], row["lost"], row["unknown"])
        ax.bar(i, high - low, bottom=low, color=f"C{i}", alpha=0.35, width=0.6)  # the unknown deals' span
        ax.errorbar(i, (low + high) / 2, yerr=[[(low + high) / 2 - r.low], [r.high - (low + high) / 2]],
                    color="k", capsize=5, lw=1)
        ax.plot([i - 0.3, i + 0.3], [low, low], color=f"C{i}", lw=2.5)
        ax.text(i, r.high + 0.03, f"{pct(low, 1)}" + (f" - {pct(high, 1)}" if high > low else "")
                + f"\n{n:,} deals", ha="center", fontsize=9)
    ax.set_xticks(range(len(new_rows)), [row["mode"] for row in new_rows])
    ax.set(ylim=(0, 1.15), ylabel="win rate",
           title="the new games: rate (unknown counted lost to won), 95% Wilson interval")
    ax.yaxis.set_major_formatter(PercentFormatter(1))
    fig.tight_layout()
    plt.show()

# %% [markdown]
# Paired by deal number: Double Scorpion against Scorpion's Clear runs (the same numbers, other
# shuffles: a measure of how much easier two decks make the game, not a rule implication) and its
# two layouts against each other (the rules order these: dealing the tail at once is one of the
# ways `double` may play, so every deal won in `double-dealt` is won in `double`, and a deal won
# there and lost here is a rules bug).

# %%
pool = [every[["deal", "mode", "status"]]] + [NEW[m][["deal", "mode", "status"]] for m in NEW]
new_verdicts = stats.mode_verdicts({c: pd.concat(pool)[c].to_numpy() for c in ("deal", "mode", "status")})
new_pairs = [p for p in (("clear", "double"), ("classic", "double"), ("double-dealt", "double"))
             if set(p) <= set(new_verdicts)]
new_sources = {**SOURCES, **NEW_SOURCES}
for a, b in new_pairs:
    c = stats.compare_modes(a, b, new_verdicts[a], new_verdicts[b])
    print(stats.format_comparison(c, new_sources))
    if c["violations"]:
        display(Markdown(f"## ⚠ RULES BUG\n\n{len(c['violations'])} deal(s) won in {a} but lost in {b}: "
                         + ", ".join(map(str, c["violations"][:50]))))
if not new_pairs:
    print("no Double Scorpion folder beside Scorpion's: nothing to pair")

# %% [markdown]
# ## Three Blind Mice without peeking: the exact value V beside the thoughtful share S
#
# Three Blind Mice deals only nine cards face down, so the exact no-peek value V of a whole deal (the
# best chance of a player who never sees a hidden card) can be computed from its opening view: `scorpion
# nopeek` (docs/play.md, "A whole deal"), folder named by `SCORPION_NOPEEK` (default
# `results/nopeek-1-1000-mice`). Each deal is drawn as the interval its budget left for V (a point where
# exact) beside S, the share of the 9! arrangements of its face-down cards that can be won (the
# clairvoyant's value: V is never above it). Below, each player of the Three Blind Mice play folders
# (`results/play-1-1000-mice-*`, seeds of one player grouped) beside the optimum, on the deals whose V is
# exact (`scorpion stats NOPEEKDIR --against PLAYDIR`, `batch.studies.optimum_shares`).

# %%
from fractions import Fraction

from scorpion_solver.batch import studies
from scorpion_solver.batch.protocol import group_against

NOPEEK = Path(os.environ.get("SCORPION_NOPEEK", ROOT / "results" / "nopeek-1-1000-mice")).resolve()
if any(NOPEEK.glob(CHUNK_GLOB)):
    nopeek = studies.read_study_folder(NOPEEK, studies.NOPEEK_SCHEMA).to_pandas().sort_values("deal")
    print(f"{shown_path(NOPEEK)}: {len(nopeek):,} deals ({nopeek['deal'].min()}-{nopeek['deal'].max()}), "
          f"{(nopeek['status'] == 'exact').sum():,} exact: "
          + ", ".join(f"{n} {by}" for by, n in nopeek.loc[nopeek['status'] == 'exact', 'by'].value_counts().items()))
    fig, ax = plt.subplots(figsize=(10, 3.8))
    x = np.arange(len(nopeek))
    exact = (nopeek["status"] == "exact").to_numpy()
    ax.vlines(x[~exact], nopeek["lower_float"][~exact], nopeek["upper_float"][~exact], color="C1", lw=4,
              alpha=0.6, label="V, bounds (unknown)")
    ax.plot(x[exact], nopeek["lower_float"][exact], "o", color="C0", label="V, exact")
    share = nopeek["share"].map(lambda s: float(Fraction(s)) if isinstance(s, str) else np.nan)
    ax.plot(x, share, "_", color="k", ms=14, mew=2, label="S, thoughtful share")
    ax.set_xticks(x, nopeek["deal"], fontsize=8)
    ax.set(xlabel="deal", ylabel="win probability", ylim=(-0.03, 1.03),
           title="Three Blind Mice: the exact no-peek value of each deal, and S")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    plt.show()
    low, high = nopeek["lower"].map(Fraction).sum() / len(nopeek), nopeek["upper"].map(Fraction).sum() / len(nopeek)
    print(f"realistic win rate over these deals: {float(low):.4f} - {float(high):.4f} (each deal's V or bounds)")
    mice_players = sorted(p for p in (ROOT / "results").glob("play-*-mice-*") if any(p.glob(CHUNK_GLOB)))
    if mice_players:
        shares = studies.optimum_shares(NOPEEK, group_against(mice_players))
        display(pd.DataFrame([
            {"player": p["player"], "deals (V exact)": m["deals"], "mean V": m["value_mean"],
             "mean S": m["share_mean"], "games won": m["won_mean"], "gap": m["gap_mean"],
             "share of the optimum": pct(m["share_of_optimum"]),
             "95% interval": "-" if m["share_interval"] is None else
             f"{pct(m['share_interval'][0])} - {pct(m['share_interval'][1])}",
             "regret a deal": m["regret"]}
            for p in shares for m in p["modes"].values()]).set_index("player"))
else:
    print(f"{NOPEEK}: no chunk files yet, skipped")
