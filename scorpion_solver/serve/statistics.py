"""The statistics page's numbers (``GET /api/stats``), from the database's rows (``Store.finished_games``,
``Store.help_counts``): a plain function, no database and no HTTP."""

from __future__ import annotations

from ..play.intervals import wilson_interval

NOTE = (
    "a game counts by its first finish (won or lost); games in play are not counted; "
    "imported games are counted apart (imported), never in the games, the results or the help; "
    "so are the games of a deal whose hidden cards a peeking hint or an analysis had shown (seen)"
)


def statistics(finished: list[dict], helped: dict[str, dict[str, int]]) -> dict:
    """Per mode: games, results, win rate with its 95% Wilson interval, best streak, help; ``seen`` apart."""
    out = {}
    for mode in sorted(set(helped) | {g["mode"] for g in finished}):
        rows = [g for g in finished if g["mode"] == mode]
        won = sum(g["outcome"] == "won" for g in rows)
        low, high = wilson_interval(won, len(rows))
        best = run = 0
        for g in rows:
            run = run + 1 if g["outcome"] == "won" else 0
            best = max(best, run)
        counts = helped.get(mode, {})
        out[mode] = {
            "games": counts.get("games", len(rows)),
            "finished": len(rows),
            "won": won,
            "lost": len(rows) - won,
            "win_rate": won / len(rows) if rows else None,
            "low": low if rows else None,
            "high": high if rows else None,
            "best_streak": best,
            "fair_hints": counts.get("fair", 0),
            "peeks": counts.get("peeks", 0),
            "peeked_games": counts.get("peeked_games", 0),
            "imported": counts.get("imported", 0),
        }
    seen = {mode: counts.get("seen", 0) for mode, counts in sorted(helped.items())}
    return {"modes": out, "seen": seen, "note": NOTE}
