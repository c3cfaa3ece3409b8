"""`scorpion stats`: Wilson bounds, McNemar, percentiles and the rules-bug alarm, on numbers worked by hand."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pyarrow as pa
import pytest
from click.testing import CliRunner
from scorpion_cli import run, small_folder

from scorpion_solver import batch
from scorpion_solver.batch import stats
from scorpion_solver.cli import main

ROOT = Path(__file__).resolve().parents[1]

Z = 1.959963984540054


def wilson_by_hand(k: int, n: int) -> tuple[float, float]:
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


def test_wilson_interval_known_values():
    # published values for 3/10 and 5/10: (0.1078, 0.6032) and (0.2366, 0.7634)
    assert stats.wilson_interval(3, 10) == pytest.approx((0.1078, 0.6032), abs=5e-5)
    assert stats.wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=5e-5)
    assert stats.wilson_interval(3, 10) == pytest.approx(wilson_by_hand(3, 10), rel=1e-12)
    assert stats.wilson_interval(0, 10)[0] == 0.0 and stats.wilson_interval(10, 10)[1] == 1.0
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        stats.wilson_interval(4, 3)


def test_win_rate_counts_unknown_both_ways():
    # 3 won, 5 lost, 2 unknown: lower bound from 3/10 (unknown lost), upper from 5/10 (unknown won)
    rate = stats.win_rate(3, 5, 2)
    assert rate.rate == pytest.approx(3 / 8)
    assert rate.low == pytest.approx(0.10779126740630, rel=1e-10)
    assert rate.high == pytest.approx(0.76340690948744, rel=1e-10)
    assert stats.win_rate(0, 0, 0).rate is None


def test_mcnemar_exact_and_chi_square():
    # exact: b=2, c=8, n=10: p = 2 * (C(10,0) + C(10,1) + C(10,2)) / 2^10 = 2 * 56 / 1024
    t = stats.mcnemar(2, 8)
    assert (t.method, t.statistic, t.p_value) == ("exact", None, 0.109375)
    assert stats.mcnemar(8, 2).p_value == 0.109375
    assert stats.mcnemar(0, 0).p_value == 1.0 and stats.mcnemar(6, 6).p_value == 1.0
    assert stats.mcnemar(0, 5).p_value == pytest.approx(2 / 32)
    # chi-square with continuity correction: (|30 - 10| - 1)^2 / 40 = 9.025, p = P(chi2_1 > 9.025) = 0.00266
    t = stats.mcnemar(30, 10)
    assert t.method == "chi2" and t.statistic == pytest.approx(9.025)
    assert t.p_value == pytest.approx(0.0026631, rel=1e-4)
    assert stats.mcnemar(13, 12).method == "chi2" and stats.mcnemar(12, 12).method == "exact"


def test_percentiles():
    p = stats.percentiles(range(1, 101))
    assert p == pytest.approx({"median": 50.5, "p90": 90.1, "p99": 99.01, "max": 100.0})
    assert stats.percentiles([]) is None


# ---------------------------------------------------------------------------
# a synthetic folder


def row(deal: int, mode: str, status: str, nodes: int = 10, seconds: float = 0.001, budget: int = 1000) -> dict:
    defaults = {
        f.name: (
            0
            if f.type in (pa.int64(), pa.int32())
            else 0.0
            if f.type == pa.float64()
            else False
            if f.type == pa.bool_()
            else ""
        )
        for f in batch.SCHEMA
    }
    defaults.update(
        deal=deal,
        mode=mode,
        status=status,
        nodes=nodes,
        seconds=seconds,
        budget_nodes=budget,
        budget_memory_mb=1024,
        budget_seconds=None,
        stopped_by="nodes" if status == "unknown" else "",
    )
    return defaults


CLEAR = {
    1: "won",
    2: "won",
    3: "won",
    4: "unknown",
    5: "unknown",
    6: "lost",
    7: "lost",
    8: "lost",
    9: "won",
    10: "lost",
}
CLASSIC = {
    1: "won",
    2: "lost",
    3: "lost",
    4: "won",
    5: "lost",
    6: "lost",
    7: "lost",
    8: "unknown",
    9: "won",
    10: "lost",
}


def synthetic(folder, clear=CLEAR, classic=CLASSIC):
    folder.mkdir()
    rows = [row(d, "clear", s, nodes=100 * d, seconds=d / 100) for d, s in clear.items()]
    rows += [row(d, "classic", s, nodes=d, seconds=d / 1000) for d, s in classic.items()]
    batch.write_chunk(folder, "chunk-00000001-00000005.parquet", [r for r in rows if r["deal"] <= 5])
    batch.write_chunk(folder, "chunk-00000006-00000010.parquet", [r for r in rows if r["deal"] > 5])
    return folder


def test_stats_json_numbers_by_hand(tmp_path):
    folder = synthetic(tmp_path / "syn")
    result = run("stats", str(folder), "--json", "--top", "2")
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)
    clear = s["modes"]["clear"]
    assert (clear["deals"], clear["won"], clear["lost"], clear["unknown"]) == (10, 4, 4, 2)
    assert clear["win_rate"] == 0.5
    assert clear["wilson_low"] == pytest.approx(wilson_by_hand(4, 10)[0])
    assert clear["wilson_high"] == pytest.approx(wilson_by_hand(6, 10)[1])
    assert clear["nodes"] == {"median": 550.0, "p90": 910.0, "p99": 991.0, "max": 1000.0}
    assert [h["deal"] for h in clear["hardest"]] == [10, 9]
    classic = s["modes"]["classic"]
    assert (classic["won"], classic["lost"], classic["unknown"]) == (3, 6, 1)
    assert classic["wilson_low"] == pytest.approx(wilson_by_hand(3, 10)[0])
    assert classic["wilson_high"] == pytest.approx(wilson_by_hand(4, 10)[1])
    # decided in both: 1 2 3 6 7 9 10 (4, 5 unknown in clear, 8 unknown in classic)
    # won both: 1, 9; clear only: 2, 3; classic only: none; neither: 6, 7, 10
    p = s["paired"]
    assert {k: p[k] for k in ("both", "clear_only", "classic_only", "neither", "decided", "undecided")} == {
        "both": 2,
        "clear_only": 2,
        "classic_only": 0,
        "neither": 3,
        "decided": 7,
        "undecided": 3,
    }
    assert p["mcnemar"] == {"b": 2, "c": 0, "method": "exact", "statistic": None, "p_value": 0.5}
    assert s["rules_bugs"] == [] and s["settings"] is None


def test_stats_text(tmp_path):
    folder = synthetic(tmp_path / "syn")
    result = run("stats", str(folder))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "clear: 10 deals, 4 won, 4 lost, 2 unknown" in out
    assert "win rate 50.00%, 95% Wilson interval 16.82% - 83.18%" in out
    assert "McNemar (exact binomial): p = 0.5 (clear only 2, classic only 0)" in out
    assert "RULES BUG" not in result.stderr


def test_classic_win_clear_loss_is_a_loud_rules_bug(tmp_path):
    folder = synthetic(tmp_path / "bug", classic={**CLASSIC, 7: "won"})
    for args in (["stats", str(folder)], ["stats", str(folder), "--json"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1
        assert "RULES BUG: 1 deal(s) won in classic but lost in clear: 7" in result.stderr
    assert json.loads(result.stdout)["rules_bugs"] == [7]


def test_stats_text_formats_numbers_one_way(tmp_path):
    out = small_folder(tmp_path / "fmt", deals="1-12", chunk=6)
    text = run("stats", out).stdout
    assert not re.search(r"\d\.?\d*e[-+]\d", text.split("McNemar")[0]), text  # no exponent form
    assert " 1 nodes" not in text and "1 node," in text
    from scorpion_solver.batch.stats import _decimal, _num

    assert (_decimal(6.5e-05), _decimal(0.000266), _decimal(20.34), _decimal(1234.5)) == (
        "0.000065",
        "0.000266",
        "20.3",
        "1,234",
    )
    assert _num(17041238, True) == "17,041,238"


@pytest.mark.slow
def test_the_committed_results_give_the_committed_numbers():
    folder = ROOT / "results" / "deals-1-1000000"
    if not folder.is_dir():
        pytest.skip("the committed results folder is not here")
    result = run("stats", folder, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    committed = json.loads((ROOT / "results" / "deals-1-1000000.stats.json").read_text())
    committed.pop("duplicates", None)  # refused now rather than counted (older stats files had it)
    data["folder"] = committed["folder"]
    assert data == committed
