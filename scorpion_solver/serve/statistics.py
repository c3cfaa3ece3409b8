"""The statistics page's numbers (``GET /api/stats``), from the database's rows (``Store.finished_games``,
``Store.help_counts``): a plain function, no database and no HTTP.

Two headings (docs/serve.md, "Statistics"): the headline, ``modes``, counts the secret deals (the server's
random and graded deals, which no one can look up) played without peeking, the only wins no solver run
beforehand could have given; ``chosen`` counts the deals the player opened by number, which anyone may
solve before playing them (and the random games of a database from before secret deals).
"""

from __future__ import annotations

from ..play.intervals import wilson_interval

NOTE = (
    "a game counts by its first finish (won or lost); games in play are not counted; the headline counts only "
    "secret deals (random and graded: dealt from a secret shuffle, which no one can look up) played without "
    "peeking; deals opened by number are counted apart (chosen: anyone can solve them before playing); "
    "imported games are counted apart (imported), never in the games, the results or the help; "
    "so are the games of a deal whose hidden cards a peeking hint, an analysis or an ended game had shown (seen)"
)
KINDS = ("secret", "chosen")


def statistics(finished: list[dict], helped: dict[str, dict[str, dict[str, int]]]) -> dict:
    """Per mode and kind: games, results, win rate with its 95% Wilson interval, best streak, help; ``seen``
    apart. ``finished``: the first finishes (``secret``, ``peek``, ``mode``, ``outcome``), oldest first;
    ``helped``: kind -> mode -> the counts of ``Store.help_counts``."""
    out: dict[str, dict] = {kind: {} for kind in KINDS}
    for kind in KINDS:
        counted = helped.get(kind, {})
        of_kind = [g for g in finished if bool(g.get("secret")) == (kind == "secret")]
        for mode in sorted(set(counted) | {g["mode"] for g in of_kind}):
            out[kind][mode] = _summary([g for g in of_kind if g["mode"] == mode], counted.get(mode, {}))
    seen: dict[str, int] = {}
    for kind in KINDS:
        for mode, counts in helped.get(kind, {}).items():
            seen[mode] = seen.get(mode, 0) + counts.get("seen", 0)
    return {"modes": out["secret"], "chosen": out["chosen"], "seen": dict(sorted(seen.items())), "note": NOTE}


def _summary(rows: list[dict], counts: dict[str, int]) -> dict:
    """One mode of one kind: the rate over the games finished without peeking, the peeked ones counted apart."""
    fair = [g for g in rows if not g.get("peek")]
    won = sum(g["outcome"] == "won" for g in fair)
    low, high = wilson_interval(won, len(fair))
    best = run = 0
    for g in fair:
        run = run + 1 if g["outcome"] == "won" else 0
        best = max(best, run)
    return {
        "games": counts.get("games", len(rows)),
        "finished": len(fair),
        "won": won,
        "lost": len(fair) - won,
        "win_rate": won / len(fair) if fair else None,
        "low": low if fair else None,
        "high": high if fair else None,
        "best_streak": best,
        "fair_hints": counts.get("fair", 0),
        "peeks": counts.get("peeks", 0),
        "peeked_games": counts.get("peeked_games", 0),
        "peeked_finished": len(rows) - len(fair),
        "imported": counts.get("imported", 0),
    }
