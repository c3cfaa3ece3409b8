"""`scorpion stats --against / --pair`: any two presets over the same deals, and the implications of the rules.

Numbers worked by hand on small synthetic folders (the row helper and the
clear/classic folder of tests/test_stats.py).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_stats import CLEAR, row, synthetic, wilson_by_hand

from scorpion_solver import batch
from scorpion_solver.batch import stats
from scorpion_solver.cli import main

# deals 1-10 in wasp and goodsol, beside CLEAR and CLASSIC:
#   deal   1 2 3 4 5 6 7 8 9 10
#   clear  W W W U U L L L W L
#   wasp   W W W W L W U L W W
#   classic W L L W L L L U W L
#   goodsol W W L W L W L W U L
WASP = {1: "won", 2: "won", 3: "won", 4: "won", 5: "lost", 6: "won", 7: "unknown", 8: "lost", 9: "won", 10: "won"}
GOODSOL = {1: "won", 2: "won", 3: "lost", 4: "won", 5: "lost", 6: "won", 7: "lost", 8: "won", 9: "unknown", 10: "lost"}


def relatives(folder, modes=(("wasp", WASP), ("goodsol", GOODSOL)), deals=range(1, 11)):
    folder.mkdir()
    rows = [row(d, m, verdicts[d]) for m, verdicts in modes for d in deals]
    rows.sort(key=lambda r: (r["deal"], r["mode"]))
    batch.write_chunk(folder, "chunk-00000001-00000010.parquet", rows)
    return folder


def test_rules_imply_follows_the_rule_choices():
    implied = {(a, b) for a in stats.PRESETS for b in stats.PRESETS if a != b and stats.rules_imply(a, b)}
    assert implied == {
        ("classic", "clear"),
        ("classic", "wasp"),
        ("classic", "scorpion2"),
        ("classic", "goodsol"),
        ("clear", "wasp"),
        ("clear", "scorpion2"),
        ("double-dealt", "double"),  # the tail dealt at the start is one of double's choices
    }
    assert all(stats.rules_imply(m, m) for m in stats.PRESETS)
    assert stats.implied_pairs(["wasp", "clear", "classic", "goodsol"], involving={"wasp", "goodsol"}) == [
        ("clear", "wasp"),
        ("classic", "wasp"),
        ("classic", "goodsol"),
    ]


def test_compare_modes_numbers_by_hand():
    v = stats.mode_verdicts(
        {
            "deal": list(CLEAR) + list(WASP),
            "mode": ["clear"] * 10 + ["wasp"] * 10,
            "status": list(CLEAR.values()) + list(WASP.values()),
        }
    )
    c = stats.compare_modes("clear", "wasp", v["clear"], v["wasp"])
    # decided in both: 1 2 3 6 8 9 10 (4, 5 unknown in clear; 7 unknown in wasp)
    # won both 1 2 3 9; clear only none; wasp only 6 10; neither 8
    assert (c["deals"], c["decided"], c["undecided"], c["deal_span"]) == (10, 7, 3, (1, 10))
    assert (c["both"], c["first_only"], c["second_only"], c["neither"]) == (4, 0, 2, 1)
    assert c["rates"]["first"]["won"] == 4 and c["rates"]["second"]["won"] == 6
    assert c["rates"]["second"]["win_rate"] == pytest.approx(6 / 7)
    assert (c["rates"]["second"]["wilson_low"], c["rates"]["second"]["wilson_high"]) == pytest.approx(
        wilson_by_hand(6, 7)
    )
    # exact McNemar, b = 0, c = 2: p = 2 * C(2, 0) / 2^2 = 0.5
    assert c["mcnemar"] == {"b": 0, "c": 2, "method": "exact", "statistic": None, "p_value": 0.5}
    assert c["implication"] == ["clear", "wasp"] and c["violations"] == [] and c["unchecked"] == 0
    # the same pair the other way round: the table transposes, the implication stays clear => wasp
    r = stats.compare_modes("wasp", "clear", v["wasp"], v["clear"])
    assert (r["first_only"], r["second_only"], r["implication"], r["violations"]) == (2, 0, ["clear", "wasp"], [])


def test_stats_against_another_folder(tmp_path):
    scorpion = synthetic(tmp_path / "scorpion")
    rel = relatives(tmp_path / "rel")
    result = CliRunner().invoke(main, ["stats", str(rel), "--against", str(scorpion), "--json"])
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)
    assert s["modes"]["wasp"]["won"] == 7 and s["modes"]["goodsol"]["won"] == 5
    pairs = {(c["first"], c["second"]): c for c in s["comparisons"]}
    # the pairs the rules order with a mode of the first folder
    assert list(pairs) == [("clear", "wasp"), ("classic", "wasp"), ("classic", "goodsol")]
    assert pairs["clear", "wasp"]["sources"] == [str(scorpion), str(rel)]
    # classic vs goodsol: decided in both 1 2 3 4 5 6 7 10 (8 unknown in classic, 9 in goodsol)
    # won both 1 4; classic only none; goodsol only 2 6; neither 3 5 7 10
    g = pairs["classic", "goodsol"]
    assert (g["both"], g["first_only"], g["second_only"], g["neither"], g["decided"]) == (2, 0, 2, 4, 8)
    # deal 9: won in classic, unknown in goodsol: the implication cannot be checked there
    assert g["violations"] == [] and g["unchecked"] == 1
    # classic vs wasp: decided 1 2 3 4 5 6 9 10; won both 1 4 9; wasp only 2 3 6 10; neither 5
    w = pairs["classic", "wasp"]
    assert (w["both"], w["first_only"], w["second_only"], w["neither"]) == (3, 0, 4, 1)


def test_stats_pair_text_and_unordered_pair(tmp_path):
    scorpion = synthetic(tmp_path / "scorpion")
    rel = relatives(tmp_path / "rel")
    args = ["stats", str(rel), "--against", str(scorpion), "--pair", "clear:goodsol", "--pair", "clear:wasp"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    out = result.stdout
    # clear vs goodsol: decided 1 2 3 6 7 8 10; won both 1 2; clear only 3; goodsol only 6 8; neither 7 10
    assert f"clear ({scorpion}) vs goodsol ({rel}): 10 deals in both (1-10), 7 decided in both" in out
    assert "McNemar (exact binomial): p = 1 (clear only 1, goodsol only 2)" in out
    assert "the rules imply no containment between clear and goodsol" in out
    assert "rules imply every deal won in clear is won in wasp; won in clear but lost in wasp: none" in out
    assert "wasp on these deals: 6 won, 85.71%" in out
    assert "RULES BUG" not in result.stderr


def test_pair_within_one_folder(tmp_path):
    folder = relatives(tmp_path / "both", modes=(("clear", CLEAR), ("wasp", WASP)))
    result = CliRunner().invoke(main, ["stats", str(folder), "--pair", "clear:wasp", "--json"])
    assert result.exit_code == 0, result.output
    (c,) = json.loads(result.stdout)["comparisons"]
    assert (c["both"], c["first_only"], c["second_only"], c["neither"]) == (4, 0, 2, 1)


def test_only_common_deals_are_paired(tmp_path):
    scorpion = synthetic(tmp_path / "scorpion")
    rel = relatives(tmp_path / "rel", modes=(("wasp", WASP),), deals=range(6, 11))
    result = CliRunner().invoke(main, ["stats", str(rel), "--against", str(scorpion), "--pair", "clear:wasp", "--json"])
    (c,) = json.loads(result.stdout)["comparisons"]
    # deals 6-10: clear L L L W L, wasp W U L W W: decided 6 8 9 10; both 9; wasp only 6 10; neither 8
    assert (c["deals"], c["deal_span"], c["decided"]) == (5, [6, 10], 4)
    assert (c["both"], c["first_only"], c["second_only"], c["neither"]) == (1, 0, 2, 1)


def test_won_in_weaker_lost_in_stronger_is_a_loud_rules_bug(tmp_path):
    scorpion = synthetic(tmp_path / "scorpion")
    # deal 2: won in clear, lost in wasp; deal 9: won in classic (and clear), lost in goodsol
    rel = relatives(tmp_path / "rel", modes=(("wasp", {**WASP, 2: "lost"}), ("goodsol", {**GOODSOL, 9: "lost"})))
    for extra in ([], ["--json"]):
        result = CliRunner().invoke(main, ["stats", str(rel), "--against", str(scorpion), *extra])
        assert result.exit_code == 1
        assert "RULES BUG: 1 deal(s) won in clear but lost in wasp: 2" in result.stderr
        assert "RULES BUG: 1 deal(s) won in classic but lost in goodsol: 9" in result.stderr
    pairs = {(c["first"], c["second"]): c for c in json.loads(result.stdout)["comparisons"]}
    assert pairs["clear", "wasp"]["violations"] == [2]
    assert pairs["classic", "wasp"]["violations"] == []
    assert pairs["classic", "goodsol"]["violations"] == [9]
    text = CliRunner().invoke(main, ["stats", str(rel), "--against", str(scorpion)]).stdout
    assert "won in clear but lost in wasp: 1: 2 (RULES BUG)" in text


@pytest.mark.parametrize(
    ("pair", "message"),
    [
        ("clear", "give two presets as A:B"),
        ("clear:spider", "unknown preset 'spider'"),
        ("clear:clear", "the two presets must differ"),
        ("scorpion2:wasp", "no folder given holds scorpion2"),
    ],
)
def test_bad_pair_is_one_error_line(tmp_path, pair, message):
    scorpion = synthetic(tmp_path / "scorpion")
    rel = relatives(tmp_path / "rel")
    result = CliRunner().invoke(main, ["stats", str(rel), "--against", str(scorpion), "--pair", pair])
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.startswith("error:")
    assert "Traceback" not in result.output


def test_bad_against_folder(tmp_path):
    rel = relatives(tmp_path / "rel")
    result = CliRunner().invoke(main, ["stats", str(rel), "--against", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "not a folder" in result.stderr
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(main, ["stats", str(rel), "--against", str(tmp_path / "empty")])
    assert result.exit_code == 2 and "no finished chunk files" in result.stderr
    alone = relatives(tmp_path / "alone", modes=(("goodsol", GOODSOL),))
    result = CliRunner().invoke(main, ["stats", str(alone), "--against", str(alone)])
    assert result.exit_code == 2 and "give --pair A:B" in result.stderr


def test_clear_classic_table_unchanged_by_the_new_options(tmp_path):
    scorpion = synthetic(tmp_path / "scorpion")
    plain = CliRunner().invoke(main, ["stats", str(scorpion), "--json"])
    paired = CliRunner().invoke(main, ["stats", str(scorpion), "--pair", "classic:clear", "--json"])
    a, b = json.loads(plain.stdout), json.loads(paired.stdout)
    assert a["paired"] == b["paired"] and "comparisons" not in a
    (c,) = b["comparisons"]
    # the clear/classic table of test_stats, transposed: classic only 0 -> first_only, clear only 2 -> second_only
    assert (c["both"], c["first_only"], c["second_only"], c["neither"]) == (2, 0, 2, 3)
    assert c["mcnemar"]["p_value"] == a["paired"]["mcnemar"]["p_value"]
