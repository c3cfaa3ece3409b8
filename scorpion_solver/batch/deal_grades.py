"""Winnable deals graded by how a player who cannot peek fares on them (``scorpion deals``).

The grading rule, per mode, for a deal the exact results show winnable:

* **easy**: the ``greedy`` policy won it (a player following the simple rules
  of thumb of ``play.greedy`` wins it);
* **medium**: ``greedy`` lost it, but some look-ahead player (a ``hop`` run
  with any number of samples, or a ``commit`` run) won it: it takes
  look-ahead over the hidden cards;
* **hard**: winnable with peeking, but neither ``greedy`` nor any look-ahead
  run that played it won it.

Only deals played by ``greedy`` and by at least one look-ahead run in the
committed play folders (``results/play-*``) get a grade; any other winnable
deal is ``ungraded``. Lost deals get no grade. The play folders are found by
their metadata (format ``scorpion-play/1``), so a new committed run extends
the grades without code changes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..play.players import LOOKAHEAD  # the players whose wins make a deal medium
from ..solver.result import WON
from .folder import read_folder, read_metadata
from .play_runs import EXACT_NAME, is_play_folder, read_play_folder

GRADES = ("easy", "medium", "hard")
UNGRADED = "ungraded"


def play_folders(root: Path) -> list[tuple[Path, dict]]:
    """The play folders under ``root`` with their metadata."""
    found = []
    if not root.is_dir():
        return found
    for path in sorted(root.iterdir()):
        if path.is_dir():
            try:
                meta = read_metadata(path)
            except ValueError:
                continue
            if is_play_folder(meta):
                found.append((path, meta))
    return found


def grade_deals(mode: str, root: Path, exact: Path | None = None, graded_only: bool = False) -> dict[int, str]:
    """deal -> easy | medium | hard | ungraded, for every deal ``exact`` shows winnable in ``mode``.

    ``root`` is the results folder holding the play folders; ``exact`` the
    exact verdicts (``root / EXACT_NAME`` by default). ``graded_only``: the
    graded deals alone (no ``ungraded``), reading only the exact chunks that
    hold the deals the play folders played (``scorpion serve``'s random pick
    and ``scorpion deals``: a fraction of a second where the whole folder
    takes seconds).
    """
    return grade_modes((mode,), root, exact, graded_only)[mode]


def grade_modes(
    modes: tuple[str, ...], root: Path, exact: Path | None = None, graded_only: bool = False
) -> dict[str, dict[int, str]]:
    """:func:`grade_deals` of several modes, each file read once for all of them (a play folder holds both)."""
    greedy, lookahead = _player_wins(modes, root)
    graded_by_mode = {mode: greedy[mode].keys() & lookahead[mode].keys() for mode in modes}
    graded = [d for deals in graded_by_mode.values() for d in deals]
    if graded_only and not graded:
        return {mode: {} for mode in modes}
    won = _won_deals(root / EXACT_NAME if exact is None else exact, modes, graded if graded_only else None)
    return {
        mode: _grades(won[mode], greedy[mode], lookahead[mode], graded_by_mode[mode], graded_only) for mode in modes
    }


def _player_wins(modes: tuple[str, ...], root: Path) -> tuple[dict, dict]:
    """(greedy's wins, the look-ahead runs' wins): mode -> deal -> won, over the play folders under ``root``.

    A look-ahead run grades only deals greedy played too: one whose deals greedy never met is not read.
    """
    folders = [(path, meta) for path, meta in play_folders(root) if set(modes) & set(meta.get("modes", []))]
    greedy = _wins((path for path, meta in folders if _policy(meta) == "greedy"), modes)
    first, last = _played_span(greedy)
    meeting = [p for p, meta in folders if _policy(meta) in LOOKAHEAD and _meets(meta.get("deals") or {}, first, last)]
    return greedy, _wins(meeting, modes)


def _played_span(wins: dict[str, dict[int, bool]]) -> tuple[int, int]:
    """The first and last deal played in any mode (an empty span, 0 to -1, when none was)."""
    played = [d for of_mode in wins.values() for d in of_mode]
    return (min(played), max(played)) if played else (0, -1)


def _won_deals(exact: Path, modes: tuple[str, ...], among: list[int] | None) -> dict[str, list[int]]:
    """mode -> the deals the exact verdicts show won; only the chunks holding ``among``'s span when given."""
    span = (min(among), max(among)) if among is not None else None
    table = read_folder(exact, columns=["deal", "mode", "status"], deals=span)
    table_modes = table.column("mode").to_numpy(zero_copy_only=False)
    won = table.column("status").to_numpy(zero_copy_only=False) == WON
    deals = table.column("deal").to_numpy()
    return {mode: deals[(table_modes == mode) & won].tolist() for mode in modes}


def _grades(won: list[int], easy: dict, medium: dict, graded: set, graded_only: bool) -> dict[int, str]:
    """The grading rule of the module's docstring over one mode's won deals (``ungraded`` kept unless
    ``graded_only``): ``easy`` and ``medium`` are greedy's and the look-ahead runs' wins."""
    grades = {}
    for deal in won:
        if deal in graded:
            grades[deal] = "easy" if easy[deal] else "medium" if medium[deal] else "hard"
        elif not graded_only:
            grades[deal] = UNGRADED
    return grades


def _policy(meta: dict) -> str | None:
    return (meta.get("play") or {}).get("policy")


def _meets(deals: dict, first: int, last: int) -> bool:
    """Whether a folder's deals (its metadata's ``first``/``last``; unknown counts as meeting) meet first-last."""
    return deals.get("first", first) <= last and deals.get("last", last) >= first


def _wins(paths, modes: tuple[str, ...]) -> dict[str, dict[int, bool]]:
    """mode -> deal -> whether any of the play folders at ``paths`` won it in that mode (the deals they played)."""
    wins: dict[str, dict[int, bool]] = {mode: {} for mode in modes}
    for path in paths:
        rows = read_play_folder(path, ["deal", "mode", "played", "outcome"])
        column = {name: rows.column(name).to_numpy(zero_copy_only=False) for name in rows.column_names}
        played = column["played"].astype(bool)
        for mode in modes:
            kept = (column["mode"] == mode) & played
            of_mode = wins[mode]
            for deal, won in zip(column["deal"][kept].tolist(), (column["outcome"][kept] == WON).tolist()):
                of_mode[deal] = of_mode.get(deal, False) or won
    return wins


def pick(grades: dict[int, str], grade: str | None, n: int, seed: int) -> list[tuple[int, str]]:
    """``n`` deals of the grade (any grade when None), drawn uniformly with ``seed``, sorted."""
    pool = np.array(sorted(d for d, g in grades.items() if grade is None or g == grade), dtype=np.int64)
    if pool.size > n:
        pool = np.sort(np.random.default_rng(seed).choice(pool, size=n, replace=False))
    return [(int(d), grades[int(d)]) for d in pool]


def grade_counts(grades: dict[int, str]) -> dict[str, int]:
    return {g: sum(v == g for v in grades.values()) for g in (*GRADES, UNGRADED)}


# -- grading one layout: the private graded pool of `scorpion serve` ------------------------------------------

# The look-ahead player the server grades its own deals with: hop over 10 sampled layouts (the committed
# grades let any look-ahead run make a deal medium; one run of the cheapest is what a server can afford).
LAYOUT_LOOKAHEAD = "hop"
LAYOUT_SAMPLES = 10


@dataclass(frozen=True)
class LayoutGrade:
    """The grade of one layout (None when the exact search does not show it winnable: not in any grade),
    the exact verdict, and the CPU seconds the grading took in all."""

    grade: str | None
    verdict: str
    cpu_seconds: float


def grade_layout(position, rules, seed: int = 0, limits=None) -> LayoutGrade:
    """Grade one layout by the rule above: the exact search, then ``greedy``, then the look-ahead player.

    A layout the search does not decide as won (lost, or unknown within ``limits``) gets no grade: a graded
    deal is a deal known winnable. ``seed`` seeds the look-ahead player's samples.
    """
    from ..play.game import play_game
    from ..play.players import make_policy
    from ..solver.result import Limits
    from ..solver.search import solve

    start = time.process_time()
    verdict = solve(position, rules, limits or Limits()).status
    if verdict != WON:
        return LayoutGrade(None, verdict, time.process_time() - start)
    if play_game(position, rules, make_policy("greedy", rules)).outcome == WON:
        return LayoutGrade("easy", verdict, time.process_time() - start)
    lookahead = make_policy(LAYOUT_LOOKAHEAD, rules, seed, samples=LAYOUT_SAMPLES)
    grade = "medium" if play_game(position, rules, lookahead).outcome == WON else "hard"
    return LayoutGrade(grade, verdict, time.process_time() - start)
