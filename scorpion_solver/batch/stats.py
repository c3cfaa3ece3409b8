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
  won in classic but lost in clear contradicts docs/rules.md ("every deal winnable
  in classic is winnable in clear"): it is reported as a rules bug.
* For any two presets over the deals both hold, from one folder or several
  (``compare_modes``): the same table and test, both win rates, and the
  check of what the rules imply (``rules_imply``: a deal won in the weaker
  preset and lost in the stronger is a rules bug).

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
        if unique.size != d.size:  # read_folder refuses these; rows given by hand are checked here
            raise ValueError(f"{d.size - unique.size} {m} rows repeat a deal: duplicates are never counted")
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
        "expected_deals": ((meta or {}).get("deals") or {}).get("count"),
    }
    if "clear" in verdicts and "classic" in verdicts:
        result["paired"], result["rules_bugs"] = paired(*verdicts["clear"], *verdicts["classic"])
    return result


def _paired_cells(first: tuple, second: tuple, only: tuple[str, str]) -> tuple:
    """The deals two (sorted distinct deals, statuses) pairs both hold, and their 2x2 table of decided deals.

    Returns the common deals, the two statuses on them, which are decided in
    both, which each won, and the cells ``both``, ``only[0]`` (won in the
    first only), ``only[1]`` (in the second only) and ``neither``.
    """
    common, ia, ib = np.intersect1d(first[0], second[0], assume_unique=True, return_indices=True)
    a, b = first[1][ia], second[1][ib]
    decided = (a != UNKNOWN) & (b != UNKNOWN)
    a_won, b_won = decided & (a == WON), decided & (b == WON)
    cells = {
        "both": int(np.count_nonzero(a_won & b_won)),
        only[0]: int(np.count_nonzero(a_won & ~b_won)),
        only[1]: int(np.count_nonzero(~a_won & b_won)),
        "neither": int(np.count_nonzero(decided & ~a_won & ~b_won)),
    }
    return common, a, b, decided, a_won, b_won, cells


def paired(
    clear_deals: np.ndarray, clear_status: np.ndarray, classic_deals: np.ndarray, classic_status: np.ndarray
) -> tuple[dict, list[int]]:
    """The 2x2 table of deals decided in both modes, McNemar's test, and the rules bugs.

    Takes each mode's distinct deal numbers (sorted) and their statuses.
    """
    common, _, _, decided, a_won, b_won, cells = _paired_cells(
        (clear_deals, clear_status), (classic_deals, classic_status), ("clear_only", "classic_only")
    )
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
    return f"{int(round(x)):,}" if integer else _decimal(x)


def _decimal(x: float, digits: int = 3) -> str:
    """``digits`` significant digits, never in exponent form (0.000065, 0.00123, 20.3), separators from 1,000."""
    if x >= 10 ** (digits - 1):
        return f"{x:,.0f}"
    return np.format_float_positional(x, precision=digits, unique=False, fractional=False, trim="-")


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def format_summary(summary: dict, title: str = "") -> str:
    lines = [title] if title else []
    expected = summary.get("expected_deals")
    for m, s in summary["modes"].items():
        lines.append("")
        missing = f" (of {expected:,}: the run is not finished)" if expected and s["deals"] < expected else ""
        lines.append(
            f"{m}: {_count(s['deals'], 'deal')}{missing}, {s['won']:,} won, {s['lost']:,} lost, "
            f"{s['unknown']:,} unknown"
        )
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
                    f"{h['deal']} ({h['status']}, {_count(h['nodes'], 'node')}, {_decimal(h['seconds'])} s)"
                    for h in s["hardest"]
                )
            )
        if len(s["budgets"]) > 1:
            lines.append(
                "  decided by budget (nodes): "
                + "; ".join(
                    f"{int(b):,}: {c[WON]:,} won, {c[LOST]:,} lost, {c[UNKNOWN]:,} unknown"
                    for b, c in sorted(s["budgets"].items(), key=lambda kv: _budget_key(kv[0]))
                )
            )
    p = summary.get("paired")
    if p is not None:
        t = p["mcnemar"]
        lines += [
            "",
            f"paired: {_count(p['decided'], 'deal')} decided in both clear and classic"
            + (f" ({p['undecided']:,} more unknown in one of them)" if p["undecided"] else ""),
            f"  {'':<12}{'classic won':>13}{'classic lost':>14}",
            f"  {'clear won':<12}{p['both']:>13,}{p['clear_only']:>14,}",
            f"  {'clear lost':<12}{p['classic_only']:>13,}{p['neither']:>14,}",
            f"  McNemar ({'exact binomial' if t['method'] == 'exact' else 'chi-square, continuity corrected'}): "
            + (f"chi2 = {_decimal(t['statistic'], 4)}, " if t["statistic"] is not None else "")
            + f"{_p_text(t['p_value'])} (clear only {t['b']:,}, classic only {t['c']:,})",
        ]
    return "\n".join(lines).lstrip("\n") + "\n"


def _budget_key(text: str):
    return (0, int(text)) if text.isdigit() else (1, text)


def rules_bug_text(deals: list[int]) -> str:
    shown = ", ".join(str(d) for d in deals[:20]) + (" ..." if len(deals) > 20 else "")
    bar = "!" * 78
    return (
        f"{bar}\nRULES BUG: {len(deals)} deal(s) won in classic but lost in clear: {shown}\n"
        "Every deal winnable in classic must be winnable in clear (docs/rules.md), and 'lost' is an\n"
        "exhaustive verdict: the rules engine or the solver is wrong. Start from the classic\n"
        f"solution in the folder's 'solution' column (scorpion replay DEAL --mode clear MOVES).\n{bar}"
    )


def _p_text(p: float) -> str:
    """A p-value as text; one too small for a float is a bound, not a zero."""
    if p < 1e-300:
        return "p < 1e-300"
    return f"p = {p:.3g}" if p < 1e-4 else f"p = {_decimal(p, 4)}"


# ---------------------------------------------------------------------------
# any two presets over the same deals, from one folder or several

# How permissive each rule choice is: a later entry allows every move of an
# earlier one. Frozen runs are below both swept and left runs (docs/rules.md: every
# deal won in classic is won in clear; Goodsol's runs move, classic's never
# do); swept and left runs are not ordered (different win conditions).
_TAIL_ORDER = {"when_stuck": 0, "anytime": 1}
_SPACE_ORDER = {"kings": 0, "any": 1}


def rules_imply(weaker: str, stronger: str) -> bool:
    """Whether the rules guarantee that every deal won under preset ``weaker`` is won under ``stronger``.

    True when ``stronger`` allows every move ``weaker`` allows, choice by
    choice: the tail at least as freely (any time includes when stuck), the
    spaces at least as freely (any card includes Kings), no more face-down
    cards in any column (a face-up card can do all a face-down one can), and
    the same runs rule or frozen runs against swept or left ones. So classic
    implies clear, wasp, scorpion2 and goodsol; clear implies wasp and
    scorpion2; wasp, scorpion2 and goodsol imply nothing but themselves.
    """
    a, b = PRESETS[weaker], PRESETS[stronger]
    runs_ok = a.runs == b.runs or a.freezes
    return (
        _same_cards_in_play(a, b)
        and runs_ok
        and _TAIL_ORDER[a.tail] <= _TAIL_ORDER[b.tail]
        and _SPACE_ORDER[a.space] <= _SPACE_ORDER[b.space]
        and all(fb <= fa for fa, fb in zip(a.face_down, b.face_down))
    )


def _same_cards_in_play(a, b) -> bool:
    """Whether two presets deal the same cards to the same places, so one's rules can be weighed against the
    other's: the same decks, columns and reserves, and the same tail, or (``double-dealt`` against
    ``double``) the weaker's tail dealt at the start where the stronger may deal it at any time."""
    if (a.decks, a.num_columns, a.reserves) != (b.decks, b.num_columns, b.reserves):
        return False
    if (a.tail_size, a.dealt_at_start) == (b.tail_size, b.dealt_at_start):
        return True
    return a.tail_size == 0 and a.dealt_at_start == b.tail_size > 0 and b.dealt_at_start == 0


def implied_pairs(modes, involving=None) -> list[tuple[str, str]]:
    """Every (weaker, stronger) pair of distinct ``modes`` that :func:`rules_imply`, in preset order.

    With ``involving``, only the pairs with at least one mode in it.
    """
    ordered = [m for m in PRESETS if m in set(modes)]
    return [
        (a, b)
        for a in ordered
        for b in ordered
        if a != b and rules_imply(a, b) and (involving is None or a in involving or b in involving)
    ]


def mode_verdicts(columns: dict) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per mode: its distinct deal numbers (sorted) and the status of each (the first row of a repeat)."""
    deal = np.asarray(columns["deal"], dtype=np.int64)
    mode = np.asarray(columns["mode"], dtype=object)
    status = np.asarray(columns["status"], dtype=object)
    verdicts = {}
    for m in sorted(set(mode.tolist())):
        sel = np.flatnonzero(mode == m)
        unique, first = np.unique(deal[sel], return_index=True)
        verdicts[m] = (unique, status[sel][first])
    return verdicts


def compare_modes(first: str, second: str, first_verdicts: tuple, second_verdicts: tuple) -> dict:
    """The paired comparison of two presets over the deals both hold: a JSON-ready dict.

    ``first_verdicts`` and ``second_verdicts`` are (sorted distinct deals,
    statuses), as :func:`mode_verdicts` gives them. The table counts the deals
    decided in both (``both``, ``first_only``, ``second_only``, ``neither``
    won); each mode's win rate on those deals with its Wilson interval;
    McNemar's test on the discordant cells. When the rules imply one mode's
    wins are the other's (:func:`rules_imply`), ``violations`` lists the deals
    won in the weaker and lost in the stronger (each a rules bug), and
    ``unchecked`` counts the deals that an unknown verdict leaves unchecked.
    """
    common, a, b, decided, a_won, b_won, cells = _paired_cells(
        first_verdicts, second_verdicts, ("first_only", "second_only")
    )
    n = int(np.count_nonzero(decided))
    rates = {}
    for name, won in (("first", a_won), ("second", b_won)):
        k = int(np.count_nonzero(won))
        low, high = wilson_interval(k, n)
        rates[name] = {"won": k, "win_rate": k / n if n else None, "wilson_low": low, "wilson_high": high}
    if rules_imply(first, second):
        implication = [first, second]
        violated, unchecked = a_won & ~b_won, (a == WON) & (b == UNKNOWN)
    elif rules_imply(second, first):
        implication = [second, first]
        violated, unchecked = ~a_won & b_won, (b == WON) & (a == UNKNOWN)
    else:
        implication, violated, unchecked = None, None, None
    return {
        "first": first,
        "second": second,
        "deals": int(common.size),
        "deal_span": (int(common[0]), int(common[-1])) if common.size else None,
        "decided": n,
        "undecided": int(common.size - n),
        **cells,
        "rates": rates,
        "mcnemar": asdict(mcnemar(cells["first_only"], cells["second_only"])),
        "implication": implication,
        "violations": None if violated is None else [int(x) for x in common[violated]],
        "unchecked": None if unchecked is None else int(np.count_nonzero(unchecked)),
    }


def format_comparison(c: dict, sources: dict | None = None) -> str:
    """One comparison of :func:`compare_modes` as text; ``sources`` names the folder of each mode."""
    first, second = c["first"], c["second"]

    def named(m):
        return f"{m} ({sources[m]})" if sources and m in sources else m

    span = f" ({c['deal_span'][0]}-{c['deal_span'][1]})" if c["deal_span"] else ""
    width = max(len(first), len(second)) + 6
    t = c["mcnemar"]
    lines = [
        f"{named(first)} vs {named(second)}: {c['deals']} deals in both{span}, {c['decided']} decided in both",
        f"  {'':<{width}}{second + ' won':>{width}}{second + ' lost':>{width}}",
        f"  {first + ' won':<{width}}{c['both']:>{width}}{c['first_only']:>{width}}",
        f"  {first + ' lost':<{width}}{c['second_only']:>{width}}{c['neither']:>{width}}",
    ]
    for m, r in ((first, c["rates"]["first"]), (second, c["rates"]["second"])):
        lines.append(
            f"  {m} on these deals: {r['won']} won, {_pct(r['win_rate'])}, "
            f"95% Wilson interval {_pct(r['wilson_low'])} - {_pct(r['wilson_high'])}"
        )
    lines.append(
        f"  McNemar ({'exact binomial' if t['method'] == 'exact' else 'chi-square, continuity corrected'}): "
        + (f"chi2 = {t['statistic']:.4g}, " if t["statistic"] is not None else "")
        + f"{_p_text(t['p_value'])} ({first} only {t['b']}, {second} only {t['c']})"
    )
    if c["implication"] is None:
        lines.append(f"  the rules imply no containment between {first} and {second}")
    else:
        weak, strong = c["implication"]
        found = c["violations"]
        shown = ", ".join(str(d) for d in found[:20]) + (" ..." if len(found) > 20 else "")
        verdict = "none" if not found else f"{len(found)}: {shown} (RULES BUG)"
        lines.append(
            f"  rules imply every deal won in {weak} is won in {strong}; won in {weak} but lost in {strong}: {verdict}"
        )
        if c["unchecked"]:
            lines.append(f"  ({c['unchecked']} deals won in {weak} are unknown in {strong}: not checked)")
    return "\n".join(lines) + "\n"


def implication_bug_text(comparisons: list[dict]) -> str:
    """The stderr banner for comparisons whose implication is violated ("" when none is)."""
    bad = [c for c in comparisons if c["violations"]]
    if not bad:
        return ""
    bar = "!" * 78
    lines = [bar]
    for c in bad:
        weak, strong = c["implication"]
        shown = ", ".join(str(d) for d in c["violations"][:20]) + (" ..." if len(c["violations"]) > 20 else "")
        lines.append(f"RULES BUG: {len(c['violations'])} deal(s) won in {weak} but lost in {strong}: {shown}")
    lines += [
        "The rules allow in the stronger preset every move of the weaker one, and 'lost' is an",
        "exhaustive verdict: the rules engine or the solver is wrong. Start from the weaker preset's",
        "solution in its folder's 'solution' column (scorpion replay DEAL --mode STRONGER MOVES).",
        bar,
    ]
    return "\n".join(lines)
