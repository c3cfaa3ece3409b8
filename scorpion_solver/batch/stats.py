"""Statistics of a results folder: win rates with honest intervals, costs, paired modes.

* Win rate per mode with a 95% Wilson score interval in which the unknown
  deals are counted both ways: the lower bound counts them lost, the upper
  bound counts them won (as Solvitaire reports it), so the interval holds
  whatever the unknown deals turn out to be.
* Median / p90 / p99 / max of seconds and nodes (linear interpolation between
  order statistics, numpy's default), and the hardest deals by nodes.
* For deals decided in both Clear runs and classic: the paired 2x2 table and
  McNemar's test on its discordant cells (exact two-sided binomial p below 25
  discordant deals, chi-square with continuity correction otherwise). A deal
  won in classic but lost in clear contradicts RULES.md ("every deal winnable
  in classic is winnable in clear"): it is reported as a rules bug.

No scipy: the normal quantile is a constant and the chi-square tail with one
degree of freedom is ``erfc(sqrt(x / 2))``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from ..game.rules import PRESETS
from ..play.intervals import Z95, wilson_interval
from ..solver.result import LOST, UNKNOWN, WON

EXACT_BELOW = 25  # McNemar: exact binomial test below this many discordant deals
PERCENTILES = (("median", 50), ("p90", 90), ("p99", 99), ("max", 100))
STATUSES = (WON, LOST, UNKNOWN)


@dataclass(frozen=True)
class WinRate:
    won: int
    lost: int
    unknown: int
    rate: float | None  # won / (won + lost): the rate among decided deals
    low: float  # Wilson lower bound with the unknown deals counted lost
    high: float  # Wilson upper bound with the unknown deals counted won


def win_rate(won: int, lost: int, unknown: int, z: float = Z95) -> WinRate:
    n = won + lost + unknown
    decided = won + lost
    return WinRate(
        won,
        lost,
        unknown,
        won / decided if decided else None,
        wilson_interval(won, n, z)[0],
        wilson_interval(won + unknown, n, z)[1],
    )


@dataclass(frozen=True)
class McNemar:
    b: int  # discordant: won in the first mode only
    c: int  # discordant: won in the second mode only
    method: str  # "exact" (binomial) or "chi2" (continuity corrected)
    statistic: float | None  # the chi-square statistic (None for the exact test)
    p_value: float


def mcnemar(b: int, c: int, exact_below: int = EXACT_BELOW) -> McNemar:
    """McNemar's test of the discordant counts ``b`` and ``c`` (two-sided)."""
    if b < 0 or c < 0:
        raise ValueError("discordant counts cannot be negative")
    n = b + c
    if n < exact_below:
        if n == 0:
            return McNemar(b, c, "exact", None, 1.0)
        tail = sum(math.comb(n, i) for i in range(min(b, c) + 1))
        return McNemar(b, c, "exact", None, min(1.0, 2 * tail / 2**n))
    statistic = (abs(b - c) - 1) ** 2 / n
    return McNemar(b, c, "chi2", statistic, math.erfc(math.sqrt(statistic / 2)))


def percentiles(values) -> dict | None:
    """median / p90 / p99 / max of a sequence (None when empty)."""
    array = np.asarray(values, dtype=np.float64)
    if array.size == 0:
        return None
    return {name: float(np.percentile(array, q)) for name, q in PERCENTILES}


# ---------------------------------------------------------------------------
# a folder's summary


def summarize(columns: dict, meta: dict | None = None, top: int = 5) -> dict:
    """The statistics of result rows given as columns: deal, mode, status, nodes, seconds, budget_nodes.

    Columns may be lists or numpy arrays. Returns a JSON-ready dict: per mode
    counts, win rate and interval, percentiles, hardest deals, budgets; the
    clear/classic paired table with McNemar's test; ``rules_bugs`` (deals won
    in classic but lost in clear).
    """
    deal = np.asarray(columns["deal"], dtype=np.int64)
    mode = np.asarray(columns["mode"], dtype=object)
    status = np.asarray(columns["status"], dtype=object)
    nodes = np.asarray(columns["nodes"], dtype=np.int64)
    seconds = np.asarray(columns["seconds"], dtype=np.float64)
    budget = np.asarray(columns["budget_nodes"], dtype=np.int64) if "budget_nodes" in columns else None
    present = set(mode.tolist())
    order = [m for m in (meta or {}).get("modes", []) if m in present]
    order += [m for m in PRESETS if m in present - set(order)] + sorted(present - set(order) - set(PRESETS))
    verdicts = {}
    duplicates = 0
    summary_modes = {}
    for m in order:
        sel = np.flatnonzero(mode == m)
        d, st = deal[sel], status[sel]
        counts = {s: int(np.count_nonzero(st == s)) for s in STATUSES}
        budgets = {}
        if budget is not None:
            b = budget[sel]
            for value in np.unique(b):
                in_budget = st[b == value]
                budgets[str(int(value))] = {s: int(np.count_nonzero(in_budget == s)) for s in STATUSES}
        unique, first = np.unique(d, return_index=True)
        duplicates += int(d.size - unique.size)
        verdicts[m] = (unique, st[first])
        rate = win_rate(counts[WON], counts[LOST], counts[UNKNOWN])
        hardest = sel[np.lexsort((d, -seconds[sel], -nodes[sel]))[:top]]  # most nodes first
        summary_modes[m] = {
            "deals": int(sel.size),
            "won": counts[WON],
            "lost": counts[LOST],
            "unknown": counts[UNKNOWN],
            "win_rate": rate.rate,
            "wilson_low": rate.low,
            "wilson_high": rate.high,
            "seconds": percentiles(seconds[sel]),
            "nodes": percentiles(nodes[sel]),
            "hardest": [
                {"deal": int(deal[i]), "status": str(status[i]), "nodes": int(nodes[i]), "seconds": float(seconds[i])}
                for i in hardest
            ],
            "budgets": budgets,
        }
    result = {
        "modes": summary_modes,
        "paired": None,
        "rules_bugs": [],
        "duplicates": duplicates,
        "expected_deals": ((meta or {}).get("deals") or {}).get("count"),
    }
    if "clear" in verdicts and "classic" in verdicts:
        result["paired"], result["rules_bugs"] = paired(*verdicts["clear"], *verdicts["classic"])
    return result


def paired(
    clear_deals: np.ndarray, clear_status: np.ndarray, classic_deals: np.ndarray, classic_status: np.ndarray
) -> tuple[dict, list[int]]:
    """The 2x2 table of deals decided in both modes, McNemar's test, and the rules bugs.

    Takes each mode's distinct deal numbers (sorted) and their statuses.
    """
    common, ia, ib = np.intersect1d(clear_deals, classic_deals, assume_unique=True, return_indices=True)
    a, b = clear_status[ia], classic_status[ib]
    decided = (a != UNKNOWN) & (b != UNKNOWN)
    a_won, b_won = decided & (a == WON), decided & (b == WON)
    cells = {
        "both": int(np.count_nonzero(a_won & b_won)),
        "clear_only": int(np.count_nonzero(a_won & ~b_won)),
        "classic_only": int(np.count_nonzero(~a_won & b_won)),
        "neither": int(np.count_nonzero(decided & ~a_won & ~b_won)),
    }
    test = mcnemar(cells["clear_only"], cells["classic_only"])
    table = dict(
        cells,
        decided=int(np.count_nonzero(decided)),
        undecided=int(common.size - np.count_nonzero(decided)),
        mcnemar=asdict(test),
    )
    return table, [int(x) for x in common[~a_won & b_won]]


# ---------------------------------------------------------------------------
# text


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.2f}%"


def _num(x: float, integer: bool) -> str:
    return f"{int(round(x))}" if integer else f"{x:.3g}"


def format_summary(summary: dict, title: str = "") -> str:
    lines = [title] if title else []
    expected = summary.get("expected_deals")
    for m, s in summary["modes"].items():
        lines.append("")
        missing = f" (of {expected}: the run is not finished)" if expected and s["deals"] < expected else ""
        lines.append(f"{m}: {s['deals']} deals{missing}, {s['won']} won, {s['lost']} lost, {s['unknown']} unknown")
        lines.append(
            f"  win rate {_pct(s['win_rate'])}, 95% Wilson interval {_pct(s['wilson_low'])} - "
            f"{_pct(s['wilson_high'])} (unknown deals counted lost / won)"
        )
        for name, integer in (("seconds", False), ("nodes", True)):
            p = s[name]
            if p is not None:
                lines.append(f"  {name:<8} " + "  ".join(f"{k} {_num(v, integer)}" for k, v in p.items()))
        if s["hardest"]:
            lines.append(
                "  hardest  "
                + ", ".join(
                    f"{h['deal']} ({h['status']}, {h['nodes']} nodes, {h['seconds']:.3g} s)" for h in s["hardest"]
                )
            )
        if len(s["budgets"]) > 1:
            lines.append(
                "  decided by budget (nodes): "
                + "; ".join(
                    f"{b}: {c[WON]} won, {c[LOST]} lost, {c[UNKNOWN]} unknown"
                    for b, c in sorted(s["budgets"].items(), key=lambda kv: _budget_key(kv[0]))
                )
            )
    p = summary.get("paired")
    if p is not None:
        t = p["mcnemar"]
        lines += [
            "",
            f"paired: {p['decided']} deals decided in both clear and classic"
            + (f" ({p['undecided']} more unknown in one of them)" if p["undecided"] else ""),
            f"  {'':<12}{'classic won':>13}{'classic lost':>14}",
            f"  {'clear won':<12}{p['both']:>13}{p['clear_only']:>14}",
            f"  {'clear lost':<12}{p['classic_only']:>13}{p['neither']:>14}",
            f"  McNemar ({'exact binomial' if t['method'] == 'exact' else 'chi-square, continuity corrected'}): "
            + (f"chi2 = {t['statistic']:.4g}, " if t["statistic"] is not None else "")
            + f"{_p_text(t['p_value'])} (clear only {t['b']}, classic only {t['c']})",
        ]
    if summary.get("duplicates"):
        lines += ["", f"warning: {summary['duplicates']} (deal, mode) rows appear more than once"]
    return "\n".join(lines).lstrip("\n") + "\n"


def _budget_key(text: str):
    return (0, int(text)) if text.isdigit() else (1, text)


def rules_bug_text(deals: list[int]) -> str:
    shown = ", ".join(str(d) for d in deals[:20]) + (" ..." if len(deals) > 20 else "")
    bar = "!" * 78
    return (
        f"{bar}\nRULES BUG: {len(deals)} deal(s) won in classic but lost in clear: {shown}\n"
        "Every deal winnable in classic must be winnable in clear (RULES.md), and 'lost' is an\n"
        "exhaustive verdict: the rules engine or the solver is wrong. Start from the classic\n"
        f"solution in the folder's 'solution' column (scorpion replay DEAL --mode clear MOVES).\n{bar}"
    )


def _p_text(p: float) -> str:
    """A p-value as text; one too small for a float is a bound, not a zero."""
    return "p < 1e-300" if p < 1e-300 else f"p = {p:.4g}"
