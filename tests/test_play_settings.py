"""Every setting of a player in its play folder (issue 38, item 2).

A play folder records every option its policy uses, set or not; a folder
made before a setting was recorded reads as the default of the code that
played it, is accepted and resumed with those settings, and is refused, with
the setting named, under any other.
"""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa
import pytest
from click.testing import CliRunner

from scorpion_solver.batch import Execution, plan
from scorpion_solver.batch.backends import LocalBackend
from scorpion_solver.batch.folder import read_metadata, write_metadata, write_table
from scorpion_solver.batch.play_runs import (
    PLAY_SCHEMA,
    PlaySettings,
    default_play_out,
    new_play_metadata,
    recorded_play,
    run_play,
)
from scorpion_solver.cli import main
from scorpion_solver.game.rules import CLEAR
from scorpion_solver.play import PolicySpec

ROOT = Path(__file__).resolve().parents[1]

HOP = {
    "policy": "hop",
    "seed": 0,
    "reductions": "deadlock",
    "samples": 10,
    "nodes": 1000,
    "bandit": False,
    "exact_endgame": 0,
    "memory_mb": 64,
    "exact_nodes": 5_000_000,
    "exact_views": 20_000,
}
COMMIT = {
    "policy": "commit",
    "seed": 0,
    "reductions": "deadlock",
    "samples": 10,
    "nodes": 1000,
    "exact_endgame": 0,
    "memory_mb": 64,
    "exact_nodes": 5_000_000,
    "exact_views": 20_000,
    "max_views": 2000,
    "rejudge_tail": False,
    "value_ties": False,
    "screen": 8,
    "keep": 6,
}
COMMIT2 = {**COMMIT, "policy": "commit2", "top": 3, "outer": 20, "inner": 8}
HARNESS = {"move_cap": 400, "proof_nodes": 20000, "skip_lost": True}
# what today's code wrote before every setting was recorded (the committed folders and the lead's runs)
LEGACY_COMMIT2 = {
    "policy": "commit2",
    "seed": 1,
    "reductions": "deadlock",
    "samples": 100,
    "nodes": 1000,
    "exact_endgame": 5,
    **HARNESS,
}


def test_every_option_of_each_policy_is_recorded_set_or_not():
    assert PolicySpec("random").record() == {"policy": "random", "seed": 0, "reductions": "deadlock"}
    assert PolicySpec("greedy", seed=4, reductions="full").record() == {
        "policy": "greedy",
        "seed": 4,
        "reductions": "full",
    }
    assert list(PolicySpec("hop").record().items()) == list(HOP.items())
    assert list(PolicySpec("commit").record().items()) == list(COMMIT.items())
    assert list(PolicySpec("commit2").record().items()) == list(COMMIT2.items())
    spec = PolicySpec("commit2", 100, 500, seed=2, rejudge_tail=True, exact_endgame=5, options={"inner": 16})
    assert spec.record() == {
        **COMMIT2,
        "seed": 2,
        "samples": 100,
        "nodes": 500,
        "exact_endgame": 5,
        "rejudge_tail": True,
        "inner": 16,
    }
    built = spec.build(CLEAR, 9).options
    assert (built.inner, built.outer, built.top, built.screen, built.keep) == (16, 20, 3, 8, 6)
    # value_ties comes from `--option value_ties=1` as an integer: recorded as the switch it is
    assert PolicySpec("commit", options={"value_ties": 1}).record()["value_ties"] is True
    with pytest.raises(ValueError, match="value_ties is on or off"):
        PolicySpec("commit2", options={"value_ties": 2}).record()
    with pytest.raises(ValueError, match="'top' is an option of commit2, not of hop"):
        PolicySpec("hop", options={"top": 2}).record()
    with pytest.raises(ValueError, match="commit needs at least one view, screening layout and commitment kept"):
        PolicySpec("commit", options={"keep": 0}).record()


def test_a_new_folder_records_every_setting_and_names_the_ones_changed(tmp_path):
    spec = PolicySpec("commit2", 100, exact_endgame=5, options={"inner": 16, "max_views": 500})
    settings = PlaySettings(plan.parse_range("1-20"), ("clear",), spec)
    meta = new_play_metadata(settings, 10, {})
    assert meta["play"] == {**COMMIT2, "samples": 100, "exact_endgame": 5, "inner": 16, "max_views": 500, **HARNESS}
    assert default_play_out(settings).name == "play-1-20-clear-commit2-k100-n1000-x5-maxviews500-inner16-s0"
    same = PlaySettings(plan.parse_range("1-20"), ("clear",), PolicySpec("commit2", 100, exact_endgame=5))
    assert default_play_out(same).name == "play-1-20-clear-commit2-k100-n1000-x5-s0"


def _complete_folder(out: Path, play: dict, deals: str = "1-4", chunk: int = 2) -> PlaySettings:
    """A finished play folder whose metadata records ``play`` (rows made up: resuming reads no game)."""
    spec = PolicySpec("greedy")
    settings = PlaySettings(plan.parse_range(deals), ("clear",), spec, exact=None, chunk=chunk)
    meta = new_play_metadata(settings, chunk, {"results": None, "deals_covered": 0, "known_lost_not_played": 0})
    meta["play"] = play
    out.mkdir()
    write_metadata(out, meta)
    for c in plan.plan_chunks(settings.deals, chunk):
        rows = [
            {
                **dict.fromkeys(("decisions", "solves", "nodes", "proof_solves", "n_moves", "game_seed"), 0),
                "deal": int(d),
                "mode": "clear",
                "policy": play["policy"],
                "thoughtful": "won",
                "played": True,
                "outcome": "lost",
                "reason": "no-move",
                "moves": "",
                "seconds": 0.0,
                "cpu_seconds": 0.0,
            }
            for d in c.deals
        ]
        write_table(out, c.name, pa.Table.from_pylist(rows, schema=PLAY_SCHEMA))
    return settings


def _resume(out: Path, spec: PolicySpec, deals: str = "1-4"):
    settings = PlaySettings(plan.parse_range(deals), ("clear",), spec, exact=None)
    return run_play(settings, out, Execution(lambda: LocalBackend(1), progress=False))


def test_a_legacy_folder_reads_as_the_defaults_of_its_time_and_resumes(tmp_path):
    out = tmp_path / "legacy"
    _complete_folder(out, LEGACY_COMMIT2)
    meta = read_metadata(out)
    assert recorded_play(meta) == {**COMMIT2, "seed": 1, "samples": 100, "exact_endgame": 5, **HARNESS}
    report = _resume(out, PolicySpec("commit2", 100, seed=1, exact_endgame=5))
    assert report.complete and (report.written, report.already) == (0, 2)
    # spelled out, the same settings are the same
    explicit = {"top": 3, "outer": 20, "inner": 8, "max_views": 2000, "screen": 8, "keep": 6, "memory_mb": 64}
    assert _resume(out, PolicySpec("commit2", 100, seed=1, exact_endgame=5, options=explicit)).already == 2


@pytest.mark.parametrize(
    "spec, named",
    [
        (PolicySpec("commit2", 100, seed=1, exact_endgame=5, options={"inner": 16}), "inner 8 (folder) vs 16"),
        (PolicySpec("commit2", 100, seed=1, exact_endgame=5, options={"top": 4}), "top 3 (folder) vs 4"),
        (PolicySpec("commit2", 100, seed=1, exact_endgame=5, options={"outer": 10}), "outer 20 (folder) vs 10"),
        (PolicySpec("commit2", 100, seed=1, exact_endgame=5, options={"max_views": 9}), "max_views 2000 (folder)"),
        (PolicySpec("commit2", 100, seed=1, exact_endgame=5, options={"screen": 4}), "screen 8 (folder) vs 4"),
        (PolicySpec("commit2", 100, seed=1, exact_endgame=5, options={"keep": 3}), "keep 6 (folder) vs 3"),
        (PolicySpec("commit2", 100, seed=1, exact_endgame=5, options={"memory_mb": 32}), "memory_mb 64 (folder)"),
        (PolicySpec("commit2", 100, seed=1, exact_endgame=5, options={"exact_nodes": 9}), "exact_nodes 5000000"),
        (PolicySpec("commit2", 100, seed=1, exact_endgame=5, options={"exact_views": 9}), "exact_views 20000"),
        (PolicySpec("commit2", 100, seed=1, exact_endgame=5, rejudge_tail=True), "rejudge_tail False (folder) vs True"),
        (
            PolicySpec("commit2", 100, seed=1, exact_endgame=5, reductions="full"),
            "reductions deadlock (folder) vs full",
        ),
        (PolicySpec("commit2", 100, seed=1, exact_endgame=4), "exact_endgame 5 (folder) vs 4"),
        (PolicySpec("commit2", 30, seed=1, exact_endgame=5), "samples 100 (folder) vs 30"),
        (PolicySpec("commit2", 100, 500, seed=1, exact_endgame=5), "nodes 1000 (folder) vs 500"),
        (PolicySpec("commit2", 100, seed=2, exact_endgame=5), "seed 1 (folder) vs 2"),
        (PolicySpec("commit", 100, seed=1, exact_endgame=5), "policy commit2 (folder) vs commit"),
    ],
)
def test_a_folder_resumed_with_another_setting_is_refused_naming_it(tmp_path, spec, named):
    out = tmp_path / "legacy"
    _complete_folder(out, LEGACY_COMMIT2)
    before = (out / "_batch.json").read_text()
    with pytest.raises(plan.BatchError, match="refusing to mix games of different settings") as refused:
        _resume(out, spec)
    # one setting named, or, for another policy, its name and the three options commit2 has and commit not
    assert named in str(refused.value) and str(refused.value).count("(folder)") == (4 if spec.name == "commit" else 1)
    assert (out / "_batch.json").read_text() == before  # a refusal changes nothing


def test_the_harness_settings_are_checked_too(tmp_path):
    out = tmp_path / "legacy"
    settings = _complete_folder(out, {"policy": "greedy", "seed": 0, **HARNESS})
    for changed, named in (({"move_cap": 50}, "move_cap 400 (folder) vs 50"), ({"skip_lost": False}, "skip_lost")):
        other = PlaySettings(settings.deals, ("clear",), PolicySpec("greedy"), exact=None, **changed)
        with pytest.raises(plan.BatchError, match=re.escape(named)):
            run_play(other, out, Execution(lambda: LocalBackend(1), progress=False))


def test_the_play_command_refuses_a_bad_option_in_one_line(tmp_path):
    runner = CliRunner()
    cases = [
        (["--policy", "hop", "--option", "inner=4"], "--option: 'inner' is an option of commit2, not of hop"),
        (["--policy", "commit2", "--option", "inner"], "--option 'inner': give NAME=VALUE, e.g. inner=16"),
        (["--policy", "commit2", "--option", "inner=x"], "--option 'inner=x': the value must be an integer"),
        (
            ["--policy", "commit2", "--option", "samples=4"],
            "--option 'samples=4': samples has a flag of its own, --samples",
        ),
        (["--policy", "commit2", "--option", "top=1", "--option", "top=2"], "--option top is given twice"),
        (
            ["--policy", "commit2", "--option", "top=0"],
            "--option: commit2 needs at least one commitment, outcome and inner layout",
        ),
    ]
    for args, message in cases:
        result = runner.invoke(main, ["play", "1-4", *args, "--out", str(tmp_path / "x")])
        assert result.exit_code == 2, result.output
        assert result.output.strip().splitlines() == [f"error: {message}"]
    assert not (tmp_path / "x").exists()


def test_a_losses_folder_resumes_after_its_play_folder_records_every_setting(tmp_path):
    """A losses study records its play folder's settings; upgrading those (resuming the play folder) keeps it valid."""
    from scorpion_solver.batch import studies

    play = tmp_path / "play"
    _complete_folder(play, {"policy": "greedy", "seed": 0, **HARNESS})
    legacy = studies.loss_study(play, samples=2, nodes=100, exact_unseen=0)
    out = tmp_path / "losses"
    out.mkdir()
    write_metadata(out, {"format": legacy.format, **legacy.record, "version": "0", "created": "", "runs": []})
    assert _resume(play, PolicySpec("greedy")).already == 2  # nothing to play: the metadata is not rewritten
    meta = read_metadata(play)
    meta["play"] = recorded_play(meta)  # as a resumed run writes it
    write_metadata(play, meta)
    upgraded = studies.loss_study(play, samples=2, nodes=100, exact_unseen=0)
    assert upgraded.record["play"] != legacy.record["play"]
    assert studies._folder_metadata(out, upgraded)["play"] == legacy.record["play"]
    other = dict(meta, play={**meta["play"], "move_cap": 50})
    write_metadata(play, other)
    with pytest.raises(plan.BatchError, match="holds a run with other play"):
        studies._folder_metadata(out, studies.loss_study(play, samples=2, nodes=100, exact_unseen=0))
