"""The evaluation protocol of the no-peek players (issue 38, item 1): seeds averaged, paired by deal.

Synthetic play folders (metadata and rows written with the package's own
functions, outcomes chosen here) give answers computed by hand: the
seed-averaged share, its interval, the deals the seeds split on, and the
exact sign-flip p-value (for one seed each, the exact McNemar test).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from scorpion_solver.batch import plan
from scorpion_solver.batch.folder import write_metadata, write_table
from scorpion_solver.batch.play_runs import PLAY_SCHEMA, PlaySettings, new_play_metadata
from scorpion_solver.batch.protocol import (
    DEVELOPMENT,
    HELD_OUT,
    RANGES,
    TEST_NAME,
    range_name,
    share_interval,
    sign_flip_test,
)
from scorpion_solver.batch.stats import mcnemar
from scorpion_solver.cli import main
from scorpion_solver.play import PolicySpec
from scorpion_solver.play.intervals import wilson_interval

ROOT = Path(__file__).resolve().parents[1]


def folder(out: Path, spec: PolicySpec, won: dict, deals: str = "1-6", lost: tuple = (6,), cpu=None) -> Path:
    """A finished clear play folder of ``deals``: ``won[d]`` True/False for each winnable deal; ``lost`` known lost."""
    settings = PlaySettings(plan.parse_range(deals), ("clear",), spec)
    meta = new_play_metadata(settings, 100, {"results": None, "deals_covered": 0, "known_lost_not_played": len(lost)})
    out.mkdir()
    write_metadata(out, meta)
    rows = []
    for d in settings.deals.numbers.tolist():
        known_lost = d in lost
        rows.append(
            {
                **dict.fromkeys(("decisions", "solves", "nodes", "proof_solves", "n_moves", "game_seed"), 0),
                "deal": d,
                "mode": "clear",
                "policy": spec.name,
                "thoughtful": "lost" if known_lost else "won",
                "played": not known_lost,
                "outcome": "won" if won.get(d) else "lost",
                "reason": "not-played" if known_lost else ("" if won.get(d) else "no-move"),
                "moves": "",
                "seconds": 0.0,
                "cpu_seconds": 0.0 if known_lost else (cpu or {}).get(d, 1.0),
            }
        )
    (chunk,) = plan.plan_chunks(settings.deals, 100)
    write_table(out, chunk.name, pa.Table.from_pylist(rows, schema=PLAY_SCHEMA))
    return out


def wins(*deals) -> dict:
    return dict.fromkeys(deals, True)


@pytest.fixture
def seeds(tmp_path):
    """Player A (hop K=3) with seeds 0, 1, 2 and player B (greedy) with seeds 0, 1, 2 on deals 1-6 (6 known lost).

    Wins by deal (A's seeds | B's seeds): deal 1: 3 | 0, deal 2: 3 | 3, deal 3: 2 | 0, deal 4: 0 | 1, deal 5: 1 | 1.
    """
    a = [wins(1, 2, 3), wins(1, 2, 3, 5), wins(1, 2)]
    b = [wins(2, 4), wins(2, 5), wins(2)]
    made = {}
    for name, spec, outcomes in (("a", PolicySpec("hop", 3), a), ("b", PolicySpec("greedy"), b)):
        for s, won in enumerate(outcomes):
            spec_s = PolicySpec(spec.name, spec.samples, seed=s)
            made[name, s] = folder(tmp_path / f"{name}-s{s}", spec_s, won, cpu={1: 2.0, 2: 4.0})
    return made


def test_the_ranges_are_named_once():
    assert RANGES == {"development": "1-2000", "held-out": "100001-103000", "validation": "200001-203000"}
    assert range_name({"deals": plan.parse_range("200001-203000").describe()}) == "validation"
    assert (DEVELOPMENT, HELD_OUT) == ("1-2000", "100001-103000")
    assert range_name({"deals": plan.parse_range("1-2000").describe()}) == "development"
    assert range_name({"deals": plan.parse_range("100001-103000").describe()}) == "held-out"
    assert range_name({"deals": plan.parse_range("1-2001").describe()}) is None


def test_the_sign_flip_test_by_hand():
    # differences 9, 0, 3: the sums over the 4 sign assignments of (9, 3) are 12, 6, -6, -12; |sum| >= 12 in 2
    assert sign_flip_test([9, 0, 3]).p_value == 0.5 and sign_flip_test([9, 0, 3]).deals == 2
    # 1, 1, 1, 2: the 16 sums; |sum| >= 5 in 2 (all +, all -)
    assert sign_flip_test([1, 1, 1, 2]).p_value == 2 / 16
    # 2, -1, -1: sums of +-2 +-1 +-1 are 4, 2, 2, 0, 0, -2, -2, -4; |sum| >= 0: all
    assert sign_flip_test([2, -1, -1]).p_value == 1.0
    assert sign_flip_test([]).p_value == 1.0 and sign_flip_test([0, 0]).deals == 0


@pytest.mark.parametrize("b, c", [(0, 0), (1, 0), (5, 1), (3, 3), (10, 2), (30, 12), (40, 31), (90, 60)])
def test_with_one_seed_each_the_test_is_the_exact_mcnemar_test(b, c):
    expected = mcnemar(b, c, exact_below=10**9).p_value  # the exact binomial test at any size
    assert sign_flip_test([1] * b + [-1] * c + [0] * 7).p_value == pytest.approx(expected, rel=1e-9)


def test_the_interval_of_the_share():
    # one seed: the Wilson interval of won among the winnable deals
    assert share_interval(np.array([1.0, 0, 1, 1, 0]), 1) == pytest.approx(wilson_interval(3, 5), rel=1e-12)
    # deal means 1, 2/3, 1/3, 0, 1 (3 seeds): p = 0.6, s2 = (0.16 + 0.0044.. + 0.0711.. + 0.36 + 0.16) / 5
    means = np.array([1, 2 / 3, 1 / 3, 0, 1])
    p, s2 = 0.6, float(np.mean((means - 0.6) ** 2))
    n_eff = 5 * p * (1 - p) / s2
    assert share_interval(means, 3) == pytest.approx(wilson_interval(p * n_eff, n_eff), rel=1e-12)
    assert 5 < n_eff < 15
    # seeds that always agree: the deal is one observation; none won: (0, Wilson high of 0 of n)
    assert share_interval(np.array([1.0, 1.0]), 3) == pytest.approx(wilson_interval(2, 2))
    assert share_interval(np.array([0.0, 0.0, 0.0]), 3) == pytest.approx(wilson_interval(0, 3))
    # no variance between deals but not 0 or 1: as independent games, n * seeds of them
    assert share_interval(np.array([0.5, 0.5]), 2) == pytest.approx(wilson_interval(2, 4))


def test_stats_of_seed_folders_against_another_player(seeds):
    a = [str(seeds["a", s]) for s in range(3)]
    b = [str(seeds["b", s]) for s in range(3)]
    args = ["stats", *a, "--against", b[0], "--against", b[1], "--against", b[2], "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"protocol", "paired"}
    clear = data["protocol"]["modes"]["clear"]
    # A's deal means: 1, 1, 2/3, 0, 1/3 -> share 3/5; seeds won 3, 4, 2 of the 5 winnable deals
    assert clear["averaged_share"] == pytest.approx(0.6) and clear["seed_won"] == [3, 4, 2] and clear["deals"] == 5
    assert clear["seeds_split"] == 2 and clear["incomplete"] == 0  # deals 3 and 5
    means = np.array([1, 1, 2 / 3, 0, 1 / 3])
    assert clear["averaged_interval"] == pytest.approx(list(share_interval(means, 3)))
    # CPU a game over the 15 games: deal 1 2 s, deal 2 4 s, the others 1 s
    assert clear["games"] == 15 and clear["cpu_mean"] == pytest.approx(9 / 5) and clear["cpu_max"] == 4.0
    assert clear["cpu_p95"] == pytest.approx(float(np.percentile([2, 4, 1, 1, 1] * 3, 95)))
    assert data["protocol"]["seeds"] == [0, 1, 2] and data["protocol"]["range"] is None
    assert data["protocol"]["play"]["samples"] == 3 and "seed" not in data["protocol"]["play"]
    (paired,) = data["paired"]
    assert paired["against"] == b
    # differences (3 seeds each, times 3): deal 1: 9, 2: 0, 3: 6, 4: -3, 5: 0 -> nonzero 9, 6, -3, sum 12;
    # the 8 sums of +-9 +-6 +-3: 18, 12, 6, 0, 0, -6, -12, -18: |sum| >= 12 in 4 -> p = 0.5
    assert paired["modes"]["clear"] == {
        "deals": 5,
        "first_share": pytest.approx(0.6),
        "second_share": pytest.approx(5 / 15),
        "first_better": 2,
        "second_better": 1,
        "p_value": 0.5,
        "test": TEST_NAME,
    }
    text = CliRunner().invoke(main, args[:-1]).output
    assert "| clear | 5 | 60.00% (" in text and "| 3, 4, 2 | 2 | 1.80, 4.00, 4.00 |" in text
    assert "| clear | 5 | 60.00% | 33.33% | 2 | 1 | 0.5 |" in text
    assert "paired sign-flip permutation test, exact" in text and "not a protocol range" in text


def test_one_seed_each_is_mcnemar_and_the_single_summary_stays(seeds):
    result = CliRunner().invoke(main, ["stats", str(seeds["a", 0]), "--against", str(seeds["b", 0]), "--json"])
    data = json.loads(result.output)
    assert data["folder"] == str(seeds["a", 0]) and data["modes"]["clear"]["won"] == 3
    # A seed 0 won 1, 2, 3; B seed 0 won 2, 4: A only 1, 3; B only 4 -> exact McNemar p = 2 * 4/8 = 1
    pair = data["paired"][0]["modes"]["clear"]
    assert (pair["first_better"], pair["second_better"], pair["p_value"]) == (2, 1, 1.0)
    assert pair["p_value"] == mcnemar(2, 1).p_value
    own = data["protocol"]
    assert own["seeds"] == [0] and own["modes"]["clear"]["averaged_interval"] == pytest.approx(wilson_interval(3, 5))
    text = CliRunner().invoke(main, ["stats", str(seeds["a", 0])]).output
    assert "protocol" not in text and "| clear | 6 | 5 | 3 |" in text


def test_folders_that_differ_in_more_than_the_seed_are_refused(seeds, tmp_path):
    other = folder(tmp_path / "a-k4", PolicySpec("hop", 4, seed=5), wins(1))
    result = CliRunner().invoke(main, ["stats", str(seeds["a", 0]), str(other)])
    assert result.exit_code == 2
    line = result.output.strip()
    assert line.startswith("error: ") and len(line.splitlines()) == 1
    assert f"{other} is not another seed of {seeds['a', 0]}" in line and "samples 3 (a-s0) vs 4 (a-k4)" in line
    twice = CliRunner().invoke(main, ["stats", str(seeds["a", 1]), str(seeds["a", 1])])
    assert twice.exit_code == 2 and "seed 1 is given twice" in twice.output
    longer = folder(tmp_path / "a-long", PolicySpec("hop", 3, seed=7), wins(1), deals="1-7")
    ranged = CliRunner().invoke(main, ["stats", str(seeds["a", 0]), str(longer)])
    assert ranged.exit_code == 2 and "deals 1-6 vs 1-7" in ranged.output
    results = CliRunner().invoke(main, ["stats", str(ROOT / "results" / "deals-1-1000000"), str(seeds["a", 0])])
    assert results.exit_code == 2 and "is a results folder: give one" in results.output


def test_against_folders_of_two_players_make_two_comparisons(seeds):
    args = ["stats", str(seeds["a", 0]), "--against", str(seeds["b", 0]), "--against", str(seeds["a", 1]), "--json"]
    data = json.loads(CliRunner().invoke(main, args).output)
    assert [p["against"] for p in data["paired"]] == [[str(seeds["b", 0])], [str(seeds["a", 1])]]
    # A seed 0 against A seed 1: seed 1 also won deal 5 -> one discordant deal, p = 1
    assert data["paired"][1]["modes"]["clear"]["second_better"] == 1
    assert math.isclose(data["paired"][1]["modes"]["clear"]["p_value"], 1.0)


def test_a_seed_that_has_not_finished_a_deal_leaves_it_out(tmp_path):
    a0 = folder(tmp_path / "a0", PolicySpec("greedy", seed=0), wins(1, 2))
    a1 = folder(tmp_path / "a1", PolicySpec("greedy", seed=1), wins(1))
    chunk = next(a1.glob("chunk-*.parquet"))
    table = pq.read_table(chunk)
    write_table(a1, chunk.name, table.filter(pc.not_equal(table["deal"], 2)))  # seed 1 lacks deal 2
    data = json.loads(CliRunner().invoke(main, ["stats", str(a0), str(a1), "--json"]).output)
    clear = data["protocol"]["modes"]["clear"]
    assert (clear["deals"], clear["incomplete"], clear["averaged_share"]) == (4, 1, 0.25)


def test_play_takes_the_protocols_ranges_by_name(tmp_path, monkeypatch):
    """``scorpion play development|held-out`` plays the range of that name (a short stand-in here)."""
    from scorpion_solver.batch import protocol

    monkeypatch.setitem(protocol.RANGES, "development", "36-37")
    out = tmp_path / "dev"
    args = ["play", "development", "--policy", "greedy", "--mode", "clear", "--out", str(out), "--no-progress"]
    result = CliRunner().invoke(main, [*args, "--workers", "1", "--results", str(ROOT / "results")])
    assert result.exit_code == 0, result.output
    meta = json.loads((out / "_batch.json").read_text())
    assert meta["deals"]["spec"] == "36-37" and meta["deals"]["count"] == 2
