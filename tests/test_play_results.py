"""The committed play folders (results/play-*): honest records, reproducible from their settings.

* every won game replays to a win in the reference engine, on a deal the exact results show winnable;
* every deal of a finished chunk has its row, and the known-lost deals are marked not played;
* ``scorpion play`` with the folder's settings reproduces its first chunk game for game (the folders
  of the players that solve sampled layouts, hop, commit and commit2, behind the ``slow`` marker).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scorpion_solver.batch import Execution, plan
from scorpion_solver.batch.backends import LocalBackend
from scorpion_solver.batch.folder import read_metadata
from scorpion_solver.batch.play_runs import PlaySettings, is_play_folder, read_play_folder, recorded_play, run_play
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import is_won, parse_moves, replay
from scorpion_solver.game.rules import get_rules
from scorpion_solver.play import PolicySpec
from scorpion_solver.play.players import LOOKAHEAD, PLAYERS, SPEC_FIELDS

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
FOLDERS = sorted(p for p in RESULTS.glob("play-*") if is_play_folder(read_metadata(p)))


def _ids(path: Path) -> str:
    return path.name


@pytest.mark.parametrize("folder", FOLDERS, ids=_ids)
def test_committed_wins_replay_and_lie_on_winnable_deals(folder):
    rows = read_play_folder(folder).to_pylist()
    assert rows, f"{folder} has no finished chunk"
    for r in rows:
        if r["outcome"] == "won":
            assert r["thoughtful"] == "won" and r["played"]
            rules = get_rules(r["mode"])
            assert is_won(replay(deal(r["deal"], rules), parse_moves(r["moves"]), rules), rules), r["deal"]
        if not r["played"]:
            assert (r["thoughtful"], r["outcome"], r["reason"]) == ("lost", "lost", "not-played")


def _reproduce(folder: Path, tmp_path: Path) -> None:
    meta = read_metadata(folder)
    play = recorded_play(meta)  # every setting, the ones an older folder does not record at their defaults
    # commit2's outer and inner, value_ties, ...: the options without a field of their own in PolicySpec
    options = {k: play[k] for k in PLAYERS[play["policy"]].OPTIONS if k in play and k not in SPEC_FIELDS}
    first = read_play_folder(folder).to_pylist()
    first_chunk = sorted(folder.glob("chunk-*.parquet"))[0].name
    lo, hi = (int(x) for x in first_chunk.removesuffix(".parquet").split("-")[1:3])
    spec = PolicySpec(
        play["policy"],
        play.get("samples", 10),
        play.get("nodes", 1000),
        play.get("bandit", False),
        play["seed"],
        rejudge_tail=play.get("rejudge_tail", False),
        exact_endgame=play.get("exact_endgame", 0),
        reductions=play["reductions"],
        options=options,
    )
    settings = PlaySettings(
        plan.parse_range(f"{lo}-{hi}"),
        tuple(meta["modes"]),
        spec,
        play["move_cap"],
        play["proof_nodes"],
        play["skip_lost"],
        exact=RESULTS / "deals-1-1000000",
    )
    run_play(settings, tmp_path / "again", Execution(lambda: LocalBackend(1), progress=False))

    def games(rows):
        return [{k: v for k, v in r.items() if k not in ("seconds", "cpu_seconds")} for r in rows]

    again = read_play_folder(tmp_path / "again").to_pylist()
    assert games(again) == games([r for r in first if lo <= r["deal"] <= hi])


def _samples_layouts(folder: Path) -> bool:
    return read_metadata(folder)["play"]["policy"] in LOOKAHEAD


@pytest.mark.parametrize("folder", [f for f in FOLDERS if not _samples_layouts(f)], ids=_ids)
def test_scorpion_play_reproduces_the_first_chunk(folder, tmp_path):
    _reproduce(folder, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("folder", [f for f in FOLDERS if _samples_layouts(f)], ids=_ids)
def test_scorpion_play_reproduces_the_first_chunk_of_hop(folder, tmp_path):
    _reproduce(folder, tmp_path)
