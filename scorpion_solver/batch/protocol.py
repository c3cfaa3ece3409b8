"""The evaluation protocol of the no-peek players: named ranges, several seeds a deal, paired tests by deal.

A player's share of the winnable deals moves with its seed about as much as
with the player (issue 38: a second seed flipped 23 of 113 Clear runs
outcomes of commit2), and a player tuned on a range is flattered by it. So a
player is measured:

* on the **development** range (``DEVELOPMENT``, deals 1-2000), which tuning
  may look at, and on the **held-out** range (``HELD_OUT``, deals
  100001-103000), which no tuning looks at; a try (a new setting, a new
  player) is kept or dropped on the **validation** range (``VALIDATION``,
  deals 200001-203000), apart from both, and the held-out range is read once
  for each change kept: ``RANGES`` names the three, here and nowhere else;
* with **several seeds** (at least ``MIN_SEEDS``): one play folder a seed, the
  folders of one player and range differing in nothing but the seed
  (:func:`seed_group` refuses any other mix, naming the settings);
* by its **seed-averaged outcome** per deal, wins / seeds, on the winnable
  deals (exact verdict ``won``) that every seed finished; its **share** is
  the mean of those over the deals;
* with an **interval** that knows the seeds of a deal are correlated: the
  Wilson interval of the share with the number of deals replaced by the
  effective number ``n p (1 - p) / s2`` (``s2`` the variance of the deal
  means, ``p`` their mean): n when the seeds of every deal agree (the deal
  is one observation), up to the number of games when they vary as
  independent games would; with one seed it is the Wilson interval of the
  games won among the winnable deals, as ``scorpion stats`` gives for one
  folder (:func:`share_interval`);
* **paired by deal** against another player by the **paired sign-flip
  permutation test** on the per-deal differences of the seed-averaged
  outcomes, exact: the distribution of the sum of the differences over all
  2^n sign assignments of the n deals with a difference, computed by
  convolution, so no random permutations and no seed (:func:`sign_flip_test`).
  With one seed each the outcomes are 0 or 1 and the test is exactly the
  exact binomial McNemar test of the discordant deals; an exact McNemar test
  needs binary outcomes, which seed-averaged ones are not.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..play.intervals import Z95, wilson_interval
from .folder import read_metadata
from .plan import BatchError, parse_range
from .play_runs import is_play_folder, read_play_folder, recorded_play, setting_differences

DEVELOPMENT = "1-2000"  # the range a player may be tuned on
HELD_OUT = "100001-103000"  # the range no tuning looks at
VALIDATION = "200001-203000"  # the range a try is kept or dropped on (the held-out range: once per change kept)
RANGES = {"development": DEVELOPMENT, "held-out": HELD_OUT, "validation": VALIDATION}
MIN_SEEDS = 3  # seeds a deal the protocol asks for
TEST_NAME = "paired sign-flip permutation test, exact"
COLUMNS = ["deal", "mode", "thoughtful", "played", "outcome", "cpu_seconds"]


def range_name(meta: dict) -> str | None:
    """``development``, ``held-out`` or ``validation`` if a play folder's deals are exactly that range, else None."""
    digest = (meta.get("deals") or {}).get("sha256")
    return next((name for name, text in RANGES.items() if parse_range(text).digest() == digest), None)


@dataclass
class SeedGroup:
    """The play folders of one player on one range, one a seed: their settings but the seed, and their rows."""

    folders: list[Path]
    seeds: list[int]
    settings: dict  # the recorded settings (``recorded_play``) without the seed
    meta: dict  # the first folder's metadata
    rows: list[dict]  # per folder: its columns (numpy arrays by name)

    @property
    def label(self) -> str:
        first = self.folders[0].name
        return first if len(self.folders) == 1 else f"{first} (seeds {', '.join(map(str, self.seeds))})"


def seed_group(folders: list[Path], what: str = "DIR") -> SeedGroup:
    """The folders as the seeds of one player; refused unless they are play folders differing only in the seed."""
    metas = []
    for folder in folders:
        meta = read_metadata(folder) if folder.is_dir() else None
        if not is_play_folder(meta):
            raise BatchError(f"{what} {folder}: not a play folder (a play folder pairs only with another)")
        metas.append(meta)
    first, settings = metas[0], recorded_play(metas[0])
    seeds = [recorded_play(m)["seed"] for m in metas]
    for folder, meta in zip(folders[1:], metas[1:]):
        names = (folders[0].name, folder.name)
        differing = setting_differences(settings, recorded_play(meta), ("seed",), names)
        if meta["deals"]["sha256"] != first["deals"]["sha256"]:
            differing.append(f"deals {first['deals']['spec']} vs {meta['deals']['spec']}")
        if meta["modes"] != first["modes"]:
            differing.append(f"modes {','.join(first['modes'])} vs {','.join(meta['modes'])}")
        if differing:
            raise BatchError(
                f"{folder} is not another seed of {folders[0]}: they differ in more than the seed "
                f"({'; '.join(differing)})"
            )
    repeated = sorted({s for s in seeds if seeds.count(s) > 1})
    if repeated:
        raise BatchError(f"{what}: seed {repeated[0]} is given twice (the same games): give each seed once")
    rows = []
    for folder in folders:
        table = read_play_folder(folder, COLUMNS)
        if table.num_rows == 0:
            raise BatchError(f"{folder} holds no finished chunk files (chunk-*.parquet)")
        rows.append({n: table.column(n).to_numpy(zero_copy_only=False) for n in table.column_names})
    return SeedGroup(list(folders), seeds, {k: v for k, v in settings.items() if k != "seed"}, first, rows)


def player_key(meta: dict) -> tuple:
    """What a play folder's seeds share: its recorded settings but the seed, its deals and its modes."""
    settings = {k: v for k, v in recorded_play(meta).items() if k != "seed"}
    return (repr(sorted(settings.items())), meta["deals"]["sha256"], tuple(meta["modes"]))


def group_against(folders: list[Path]) -> list[SeedGroup]:
    """``--against`` folders grouped into players: folders whose settings differ only in the seed are one player."""
    groups: list[list[Path]] = []
    keys: list[tuple] = []
    for folder in folders:
        meta = read_metadata(folder) if folder.is_dir() else None
        if not is_play_folder(meta):
            raise BatchError(f"--against {folder}: not a play folder (a play folder pairs only with another)")
        key = player_key(meta)
        if key in keys:
            groups[keys.index(key)].append(folder)
        else:
            keys.append(key)
            groups.append([folder])
    return [seed_group(g, "--against") for g in groups]


def deal_wins(rows: list[dict], mode: str) -> tuple[dict[int, int], int]:
    """Per winnable deal that every seed (``rows``: one dict of columns a seed) finished in ``mode``: the games won.

    Also the number of winnable deals some seed has not finished (left out).
    """
    per_seed = []
    for columns in rows:
        keep = (columns["mode"] == mode) & (columns["thoughtful"] == "won")
        per_seed.append(dict(zip(columns["deal"][keep].tolist(), (columns["outcome"][keep] == "won").tolist())))
    common = set.intersection(*(set(s) for s in per_seed))
    every = set.union(*(set(s) for s in per_seed))
    return {d: sum(s[d] for s in per_seed) for d in sorted(common)}, len(every - common)


def share_interval(means: np.ndarray, seeds: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson interval of the mean of the deal means, with the effective number of deals (module docstring).

    ``n_eff = n p (1 - p) / s2`` (``s2`` the variance of the deal means, with
    divisor n), at most the number of games ``n * seeds``; n when p is 0 or
    1. With one seed, ``s2 = p (1 - p)`` and this is ``wilson_interval(won, n)``.
    """
    n = len(means)
    if n == 0:
        return 0.0, 1.0
    p = float(np.mean(means))
    variance = float(np.mean((means - p) ** 2))
    if p in (0.0, 1.0):
        n_eff = float(n)
    elif variance == 0.0:
        n_eff = float(n * seeds)
    else:
        n_eff = min(n * p * (1 - p) / variance, float(n * seeds))
    return wilson_interval(min(p * n_eff, n_eff), n_eff, z)


@dataclass(frozen=True)
class SignFlip:
    deals: int  # deals with a nonzero difference (n: 2^n sign assignments)
    statistic: float  # the sum of the per-deal differences of the seed-averaged outcomes
    p_value: float  # two-sided: P(|sum| >= |statistic|) over every sign assignment


def sign_flip_test(differences: list[int]) -> SignFlip:
    """The exact paired sign-flip permutation test of integer per-deal differences (two-sided).

    The differences are integers (the seed-averaged outcomes' differences
    times the product of the seed counts), so the distribution of their
    signed sum over all 2^n sign assignments is a convolution over integers:
    exact but for the rounding of probabilities, in O(n * sum |d|).
    """
    sizes = [abs(int(d)) for d in differences if d]
    total = sum(sizes)
    observed = abs(sum(int(d) for d in differences))
    dist = np.zeros(2 * total + 1)
    dist[total] = 1.0
    for a in sizes:
        shifted = np.zeros_like(dist)
        shifted[a:] += dist[:-a]
        shifted[:-a] += dist[a:]
        dist = shifted / 2
    sums = np.arange(-total, total + 1)
    p = float(dist[np.abs(sums) >= observed].sum()) if sizes else 1.0
    return SignFlip(len(sizes), float(sum(differences)), min(1.0, p))


def cpu_summary(seconds: np.ndarray) -> dict:
    """CPU seconds a game: mean, p95 (linear interpolation) and max; None each without a game."""
    if seconds.size == 0:
        return {"cpu_mean": None, "cpu_p95": None, "cpu_max": None}
    return {
        "cpu_mean": float(seconds.mean()),
        "cpu_p95": float(np.percentile(seconds, 95)),
        "cpu_max": float(seconds.max()),
    }


def summarize_group(group: SeedGroup) -> dict:
    """One player on one range over its seeds, per mode: the seed-averaged share of the winnable deals."""
    modes = {}
    for mode in group.meta["modes"]:
        wins, incomplete = deal_wins(group.rows, mode)
        s = len(group.folders)
        means = np.array([w / s for w in wins.values()], dtype=float)
        low, high = share_interval(means, s)
        played = np.concatenate([c["cpu_seconds"][(c["mode"] == mode) & c["played"].astype(bool)] for c in group.rows])
        per_seed = []
        for columns in group.rows:
            keep = (columns["mode"] == mode) & np.isin(columns["deal"], list(wins))
            per_seed.append(int((columns["outcome"][keep] == "won").sum()))
        modes[mode] = {
            "deals": len(wins),
            "incomplete": incomplete,
            "averaged_share": float(means.mean()) if wins else None,
            "averaged_interval": [low, high] if wins else None,
            "seed_won": per_seed,
            "seeds_split": int(sum(0 < w < s for w in wins.values())),
            "games": int(played.size),
            **cpu_summary(played),
        }
    return {
        "folders": [str(f) for f in group.folders],
        "seeds": group.seeds,
        "range": range_name(group.meta),
        "deal_spec": group.meta["deals"]["spec"],
        "play": group.settings,
        "modes": modes,
    }


def compare_groups(first: SeedGroup, second: SeedGroup) -> dict:
    """Two players paired by deal on the winnable deals every seed of both finished, per mode: the sign-flip test."""
    modes = [m for m in first.meta["modes"] if m in second.meta["modes"]]
    return compare_rows(first.rows, second.rows, modes)


def compare_rows(first: list[dict], second: list[dict], modes: list[str]) -> dict:
    """:func:`compare_groups` from the columns of each seed's rows (a list of dicts of arrays a player)."""
    sa, sb = len(first), len(second)
    out = {}
    for mode in modes:
        a, _ = deal_wins(first, mode)
        b, _ = deal_wins(second, mode)
        both = sorted(a.keys() & b.keys())
        differences = [a[d] * sb - b[d] * sa for d in both]
        test = sign_flip_test(differences)
        n = len(both)
        out[mode] = {
            "deals": n,
            "first_share": sum(a[d] for d in both) / (sa * n) if n else None,
            "second_share": sum(b[d] for d in both) / (sb * n) if n else None,
            "first_better": sum(x > 0 for x in differences),
            "second_better": sum(x < 0 for x in differences),
            "p_value": test.p_value,
            "test": TEST_NAME,
        }
    return out


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.2f}%"


def _sec(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def format_group(summary: dict, title: str) -> str:
    seeds = summary["seeds"]
    where = f"the {summary['range']} range" if summary["range"] else "not a protocol range"
    lines = [
        title,
        f"deals {summary['deal_spec']} ({where}); {len(seeds)} seed{'s' if len(seeds) != 1 else ''} "
        f"({', '.join(map(str, seeds))})"
        + (f": the protocol asks for at least {MIN_SEEDS}" if len(seeds) < MIN_SEEDS else ""),
        "",
        "| mode | winnable deals | seed-averaged share (95% CI) | won by each seed | deals the seeds split on "
        "| CPU s a game: mean, p95, max |",
        "|---|---|---|---|---|---|",
    ]
    for mode, e in summary["modes"].items():
        interval = e["averaged_interval"] or (None, None)
        lines.append(
            f"| {mode} | {e['deals']} | {_pct(e['averaged_share'])} ({_pct(interval[0])} - {_pct(interval[1])}) | "
            f"{', '.join(map(str, e['seed_won']))} | {e['seeds_split']} | "
            f"{_sec(e['cpu_mean'])}, {_sec(e['cpu_p95'])}, {_sec(e['cpu_max'])} |"
        )
    for mode, e in summary["modes"].items():
        if e["incomplete"]:
            lines.append(f"{mode}: {e['incomplete']} winnable deals left out: not every seed has finished them")
    lines.append(
        "share: the mean over the winnable deals of wins / seeds; interval: Wilson with the effective number "
        "of deals n p(1-p)/s2 (s2: the variance of the deal means), as the seeds of a deal are correlated"
    )
    return "\n".join(lines) + "\n"


def format_comparison(modes: dict, first: str, second: str) -> str:
    lines = [
        f"paired by deal on the winnable deals every seed of both played: {first} (A) against {second} (B)",
        "| mode | deals | A share | B share | deals A better | deals B better | p |",
        "|---|---|---|---|---|---|---|",
    ]
    for mode, p in modes.items():
        lines.append(
            f"| {mode} | {p['deals']} | {_pct(p['first_share'])} | {_pct(p['second_share'])} | "
            f"{p['first_better']} | {p['second_better']} | {p['p_value']:.3g} |"
        )
    if not modes:
        lines.append("(no mode in both)")
    lines.append(
        f"p: {TEST_NAME} (two-sided, over every sign assignment of the per-deal differences of the "
        "seed-averaged outcomes; with one seed each, the exact binomial McNemar test)"
    )
    return "\n".join(lines) + "\n"
