"""One JSON vocabulary (issue 17 item 15): every command's JSON, and every example of docs/output.md,
uses only the names of the table in docs/output.md, with the types it gives them, as strict JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from scorpion_cli import run as scorpion

from scorpion_solver import batch
from scorpion_solver.batch.backends import solve_chunk
from scorpion_solver.batch.folder import new_metadata
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import legal_moves, move_text
from scorpion_solver.solver.result import Limits

DOC = Path(__file__).resolve().parents[1] / "docs" / "output.md"
TYPES = {
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "null": type(None),
    "array": list,
    "object": dict,
}
MAPS = {"modes", "budgets", "rates"}  # objects keyed by names (presets, budgets, first/second): values follow the table
STATUSES = {"won", "lost", "unknown"}


def vocabulary() -> dict[str, tuple[str, ...]]:
    table = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\| `([a-z_0-9]+)` \| ([a-z, ]+) \|", line)
        if match:
            table[match.group(1)] = tuple(t.strip() for t in match.group(2).split(","))
    return table


def examples() -> dict[str, object]:
    """The example of each section, by its command line (``scorpion hint 5 --nodes 3000 --json``)."""
    found = {}
    text = DOC.read_text(encoding="utf-8")
    for match in re.finditer(r"### `(scorpion [^`]*)`.*?```json\n(.*?)```", text, flags=re.S):
        found[match.group(1)] = json.loads(match.group(2))
    return found


def example(command: str) -> object:
    """The example of the one section whose command line starts ``scorpion COMMAND``."""
    (data,) = [v for k, v in examples().items() if k.startswith(f"scorpion {command} ")]
    return data


def check(value, path: str = "", table: dict | None = None) -> None:
    """Every key in the table, with one of its types; verdicts in the three words; recursively."""
    table = table or vocabulary()
    if isinstance(value, list):
        for i, item in enumerate(value):
            check(item, f"{path}[{i}]", table)
        return
    if not isinstance(value, dict):
        return
    for key, item in value.items():
        where = f"{path}.{key}" if path else key
        assert key in table, f"{where}: '{key}' is not in the vocabulary of docs/output.md"
        allowed = tuple(TYPES[t] for t in table[key])
        is_bool = isinstance(item, bool)
        ok = isinstance(item, allowed) and (not is_bool or bool in allowed)
        assert ok, f"{where}: {type(item).__name__} where docs/output.md says {', '.join(table[key])}"
        if key in ("status", "final_status"):
            assert item in STATUSES, f"{where}: '{item}' is not won, lost or unknown"
        if key in MAPS and isinstance(item, dict):
            for name, sub in item.items():
                check(sub, f"{where}.{name}", table)
        else:
            check(item, where, table)


def strict_json(text: str):
    def refuse(name):
        raise AssertionError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


def run(*args):
    result = scorpion(*args)
    assert result.exit_code == 0, (result.output, result.stderr)
    return result.stdout


def test_the_table_is_read():
    table = vocabulary()
    assert table["status"] == ("string",) and table["deal"] == ("integer", "null") and len(table) > 60


def test_every_documented_example_passes():
    found = examples()
    commands = {"deal", "solve", "hint", "analyze", "stats", "play", "deals", "bound", "losses", "nopeek"}
    assert {c.split()[1] for c in found} == commands
    assert len(found) == 16
    for command, data in found.items():
        check(data, command)


def test_a_name_outside_the_vocabulary_fails():
    with pytest.raises(AssertionError, match="'rules' is not in the vocabulary"):
        check({"rules": "clear"})
    with pytest.raises(AssertionError, match="'winnable' is not won, lost or unknown"):
        check({"status": "winnable"})
    with pytest.raises(AssertionError, match="str where"):
        check({"nodes": "12"})


def test_deal_json(tmp_path):
    data = strict_json(run("deal", 5, "--json"))
    check(data)
    assert (data["deal"], data["mode"]) == (5, "clear")
    # item 16: it reads back as a SOURCE, the same position
    path = tmp_path / "deal5.json"
    path.write_text(json.dumps(data))
    assert run("deal", 5) == run("replay", path).rsplit("#", 1)[0]


def test_solve_json_matches_the_example_fields():
    lines = run("solve", "4-5", "--mode", "both", "--json").splitlines()
    assert len(lines) == 4  # no summary line in JSON
    rows = [strict_json(line) for line in lines]
    for row in rows:
        check(row)
        assert set(row) == set(example("solve 5"))
    assert [(r["deal"], r["mode"], r["status"]) for r in rows] == [
        (4, "clear", "lost"),
        (4, "classic", "lost"),
        (5, "clear", "won"),
        (5, "classic", "won"),
    ]


def test_hint_json():
    data = strict_json(run("hint", 5, "--nodes", 3000, "--json"))
    check(data)
    assert set(data) == set(example("hint 5 --nodes"))
    assert {m["move"] for m in data["moves"]} == {move_text(m) for m in legal_moves(deal(5))}


def test_analyze_json():
    data = strict_json(run("analyze", 1, "--moves", "7D:5>1", "--json"))
    check(data)
    assert set(data) == set(example("analyze"))
    assert data["finding"] == "lost_at_start" and data["final_status"] == "lost"


def test_stats_json(tmp_path):
    out = tmp_path / "deals-1-4"
    out.mkdir()
    settings = batch.BatchSettings(batch.parse_range("1-4"), ("clear", "classic"), Limits(nodes=2000))
    batch.write_metadata(out, new_metadata(settings, 2))
    for first in (1, 3):
        rows = solve_chunk((first, first + 1), settings.modes, settings.limits)
        batch.write_chunk(out, batch.chunk_name(first, first + 1), rows)
    data = strict_json(run("stats", out, "--json", "--top", 1))
    check(data)
    assert set(data) == set(example("stats results/deals-1-20"))
    assert data["modes"]["clear"]["won"] == 0 and data["modes"]["clear"]["lost"] == 4
