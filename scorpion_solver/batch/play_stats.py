"""Statistics of a play folder: the realistic win rate beside the thoughtful rate of the same deals.

Per mode, over the deals of the folder:

* the **realistic** win rate (games the policy won / deals) with its 95%
  Wilson interval; a deal counted lost without playing (the exact results
  show it lost) is a loss, as it would be for any player;
* the **thoughtful** win rate of the same deals (the exact verdicts stored
  in the rows), with its interval (deals without a verdict counted lost for
  its low end and won for its high end); with no verdict at all it is
  unknown (None), never 0;
* their **ratio**, realistic / thoughtful: the share of the winnable deals
  that the policy wins. The winnable deals are a fixed set, so the ratio is
  a proportion of them and its interval is the Wilson interval of the games
  won among the thoughtful-won deals (None while some deal has no verdict);
* the cost: games played, CPU seconds per game (``cpu_seconds``, the
  worker's process time: wall clock on a shared machine says little), decisions and solves per game.

A game won on a deal the exact results show lost would contradict the solver
(``play_runs`` refuses to write it); it is counted in ``contradictions``.
"""

from __future__ import annotations

import numpy as np

from ..play.intervals import wilson_interval
from .play_runs import recorded_play


def summarize_play(columns: dict, meta: dict | None = None) -> dict:
    """The summary of a play folder from its columns (numpy arrays by name)."""
    modes = list((meta or {}).get("modes") or sorted(set(columns["mode"].tolist())))
    out = {"play": recorded_play(meta or {}), "thoughtful_source": (meta or {}).get("thoughtful"), "modes": {}}
    for mode in modes:
        sel = columns["mode"] == mode
        if not sel.any():
            continue
        outcome = columns["outcome"][sel]
        thoughtful = columns["thoughtful"][sel]
        played = columns["played"][sel].astype(bool)
        deals = int(sel.sum())
        won = int((outcome == "won").sum())
        t_won = int((thoughtful == "won").sum())
        t_unknown = int(np.isin(thoughtful, ["unknown", ""]).sum())
        won_on_winnable = int(((outcome == "won") & (thoughtful == "won")).sum())
        games = int(played.sum())
        seconds = columns["cpu_seconds"][sel][played]
        # With no exact verdict for a deal the thoughtful rate is not known: it is never shown as 0.
        decided = deals - t_unknown
        entry = {
            "deals": deals,
            "played": games,
            "not_played": deals - games,
            "won": won,
            "capped": int((outcome == "capped").sum()),
            "realistic_rate": won / deals,
            "realistic_interval": wilson_interval(won, deals),
            "thoughtful_won": t_won,
            "thoughtful_unknown": t_unknown,
            "thoughtful_rate": t_won / deals if decided else None,
            "thoughtful_interval": _both_ways(t_won, t_unknown, deals) if decided else None,
            "ratio": won_on_winnable / t_won if t_won and not t_unknown else None,
            "ratio_interval": wilson_interval(won_on_winnable, t_won) if t_won and not t_unknown else None,
            "contradictions": int(((outcome == "won") & (thoughtful == "lost")).sum()),
            "cpu_seconds": float(seconds.sum()),
            "seconds_per_game": float(seconds.mean()) if games else None,
            "decisions_per_game": float(columns["decisions"][sel][played].mean()) if games else None,
            "solves_per_game": float(columns["solves"][sel][played].mean()) if games else None,
            "moves_per_won_game": float(columns["n_moves"][sel][outcome == "won"].mean()) if won else None,
        }
        out["modes"][mode] = entry
    return out


def _both_ways(won: int, unknown: int, deals: int) -> tuple[float, float]:
    """The 95% interval of a rate with ``unknown`` deals counted lost for its low end and won for its high end."""
    return wilson_interval(won, deals)[0], wilson_interval(won + unknown, deals)[1]


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.2f}%"


def format_play_summary(summary: dict, title: str = "") -> str:
    lines = [title] if title else []
    play = summary.get("play") or {}
    if play:
        lines.append(  # {"policy": "greedy", "seed": 0, ...} reads "policy: greedy, seed 0, ..."
            "policy: " + ", ".join(str(v) if k == "policy" else f"{k} {v}" for k, v in play.items())
        )
    source = summary.get("thoughtful_source") or {}
    if source.get("results"):
        lines.append(
            f"thoughtful verdicts from {source['results']}; deals it shows lost are counted lost"
            + (" without playing" if play.get("skip_lost", True) else "")
        )
    lines.append("")
    lines.append(
        "| mode | deals | played | won | realistic rate (95% CI) | thoughtful rate (95% CI) | ratio (95% CI) |"
    )
    lines.append("|---|---|---|---|---|---|---|")
    for mode, e in summary["modes"].items():
        r_lo, r_hi = e["realistic_interval"]
        t_lo, t_hi = e["thoughtful_interval"] or (None, None)
        thoughtful = (
            f"{_pct(e['thoughtful_rate'])} ({_pct(t_lo)} - {_pct(t_hi)})"
            if e["thoughtful_rate"] is not None
            else "unknown (no exact verdicts)"
        )
        ratio = (
            f"{_pct(e['ratio'])} ({_pct(e['ratio_interval'][0])} - {_pct(e['ratio_interval'][1])})"
            if e["ratio"] is not None
            else "-"
        )
        lines.append(
            f"| {mode} | {e['deals']:,} | {e['played']:,} | {e['won']:,} | {_pct(e['realistic_rate'])} "
            f"({_pct(r_lo)} - {_pct(r_hi)}) | {thoughtful} | {ratio} |"
        )
    lines.append("")
    for mode, e in summary["modes"].items():
        spg = "-" if e["seconds_per_game"] is None else f"{e['seconds_per_game']:.3f}"
        dpg = "-" if e["decisions_per_game"] is None else f"{e['decisions_per_game']:.1f}"
        sv = "-" if e["solves_per_game"] is None else f"{e['solves_per_game']:.0f}"
        lines.append(
            f"{mode}: {e['played']:,} games, {e['cpu_seconds']:.1f} CPU s ({spg} s a game, {dpg} decisions, "
            f"{sv} policy solves); {e['capped']} capped"
            + (
                f"; {e['thoughtful_unknown']} deals without an exact verdict (the thoughtful interval counts them "
                "both ways; no ratio)"
                if e["thoughtful_unknown"]
                else ""
            )
        )
        if e["contradictions"]:
            lines.append(f"BUG: {e['contradictions']} games won on deals the exact results show lost")
    return "\n".join(lines) + "\n"
