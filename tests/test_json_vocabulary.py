"""Every command's JSON prints exactly the fields docs/output.md lists for it (issue 25 item 6).

docs/output.md has a section per JSON output (a command, or a form of one:
``hint --fair``, ``stats --against``, ``stats`` of a play folder, ``play``
of a FILE or a RANGE) whose ``Fields:`` line names every key the output
holds, at any depth (nested objects and the items of lists; the keys of the
objects keyed by names, such as the presets of ``modes``, are names, not
fields). Each output is made here on a small input and its keys compared with
that line both ways, so a field added without docs, or a doc line without its
field, fails; its example must hold the same keys, and every key must be in
the vocabulary table with one of its types (``test_output.check``). Every
command with a ``--json`` option must have a section.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from scorpion_cli import run as scorpion
from test_output import DOC, MAPS, check, strict_json

from scorpion_solver import batch
from scorpion_solver.batch.backends import solve_chunk
from scorpion_solver.batch.folder import new_metadata
from scorpion_solver.cli import main
from scorpion_solver.game.deal import deal
from scorpion_solver.game.position_text import format_position
from scorpion_solver.game.rules import get_rules
from scorpion_solver.solver.result import Limits

ROOT = Path(__file__).resolve().parents[1]
PROTOCOL = "scorpion stats random-5-6-s0 random-5-6-s1 --against play-5-6 --json"


def sections() -> dict[str, dict]:
    """Per ``### `scorpion ...``` heading of the Commands part: its ``fields`` (a set) and its ``example``."""
    text = DOC.read_text(encoding="utf-8").split("\n## Commands\n", 1)[1]
    found = {}
    for part in re.split(r"\n(?=### )", text)[1:]:
        heading = re.match(r"### `(scorpion [^`]+)`", part)
        assert heading, part[:80]
        fields = re.search(r"^Fields: (.*)$", part, flags=re.M)
        example = re.search(r"```json\n(.*?)```", part, flags=re.S)
        assert fields and example, f"{heading.group(1)}: a Fields: line and a json example"
        found[heading.group(1)] = {
            "fields": set(re.findall(r"`([a-z_0-9]+)`", fields.group(1))),
            "example": json.loads(example.group(1)),
        }
    return found


def keys(value, inside_map: bool = False) -> set[str]:
    """Every key of VALUE at any depth, except the names keying a map (MAPS)."""
    out: set[str] = set()
    if isinstance(value, list):
        for item in value:
            out |= keys(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            if inside_map:
                out |= keys(item)
                continue
            out.add(key)
            out |= keys(item, inside_map=key in MAPS and isinstance(item, dict))
    return out


def run(*args) -> str:
    result = scorpion(*args)
    assert result.exit_code == 0, (args, result.output, result.stderr)
    return result.stdout


def one(text: str):
    return strict_json(text)


def lines(text: str) -> list:
    return [strict_json(line) for line in text.splitlines()]


def results_folder(out: Path, modes: tuple[str, ...]) -> Path:
    """A finished results folder of deals 1-4 (two chunks) in MODES, made with the batch's own functions."""
    out.mkdir()
    settings = batch.BatchSettings(batch.parse_range("1-4"), modes, Limits(nodes=2000))
    batch.write_metadata(out, new_metadata(settings, 2))
    for first in (1, 3):
        batch.write_chunk(
            out, batch.chunk_name(first, first + 1), solve_chunk((first, first + 1), modes, settings.limits)
        )
    return out


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, list]:
    return make_outputs(tmp_path_factory.mktemp("json"))


def make_outputs(tmp: Path) -> dict[str, list]:
    """Each documented output, made on a small input: heading -> the JSON objects printed."""
    deal5 = tmp / "deal5.txt"
    deal5.write_text(format_position(deal(5, get_rules("clear")), get_rules("clear")))
    exact = results_folder(tmp / "deals-1-4", ("clear", "classic"))
    wasp = results_folder(tmp / "deals-1-4-wasp", ("wasp",))
    play = tmp / "play-5-6"
    hop = ["--policy", "hop", "--samples", 2, "--nodes", 300]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)  # play RANGE and deals read the committed exact results
        return _made(deal5, exact, wasp, play, hop)


def _made(deal5, exact, wasp, play, hop) -> dict[str, list]:
    made = {
        "scorpion deal 5 --json": [one(run("deal", 5, "--json"))],
        "scorpion solve 5 --json": lines(run("solve", "4-5", "--mode", "both", "--json")),
        "scorpion hint 5 --nodes 3000 --json": [one(run("hint", 5, "--nodes", 3000, "--json"))],
        "scorpion hint 5 --fair --samples 4 --nodes 1000 --json": [
            one(run("hint", 5, "--fair", "--samples", 4, "--nodes", 1000, "--json"))
        ],
        "scorpion analyze 1 --moves '7D:5>1' --json": [one(run("analyze", 1, "--moves", "7D:5>1", "--json"))],
        "scorpion stats results/deals-1-20 --json --top 1": [one(run("stats", exact, "--json", "--top", 1))],
        "scorpion stats results/deals-1-100000-wasp --against results/deals-1-1000000 --pair clear:wasp --json --top 1": [
            one(run("stats", wasp, "--against", exact, "--pair", "clear:wasp", "--json", "--top", 1))
        ],
        "scorpion play deal5.txt --policy hop --samples 2 --nodes 300 --json": [
            one(run("play", deal5, *hop, "--json"))
        ],
        "scorpion play 5-6 --policy hop --samples 2 --nodes 300 --out play-5-6 --json": [
            one(run("play", "5-6", *hop, "--out", play, "--workers", 1, "--no-progress", "--json"))
        ],
        "scorpion stats play-5-6 --json": [one(run("stats", play, "--json"))],
        PROTOCOL: [one(run("stats", *_random_seeds(play.parent), "--against", play, "--json"))],
        "scorpion deals --winnable -n 2 --json": [one(run("deals", "--winnable", "-n", 2, "--json"))],
        "scorpion bound 5-6 --samples 4 --out bound-5-6 --json": [
            one(run("bound", "5-6", "--samples", 4, "--out", play.parent / "bound-5-6", "--workers", 1, "--json"))
        ],
        "scorpion losses play-5-6 --samples 2 --out losses-5-6 --json": [
            one(run("losses", play, "--samples", 2, "--out", play.parent / "losses-5-6", "--workers", 1, "--json"))
        ],
        "scorpion nopeek 7-8 --nodes 5000 --out nopeek-7-8 --json": [
            one(run("nopeek", "7-8", "--nodes", 5000, "--out", play.parent / "nopeek-7-8", "--workers", 1, "--json"))
        ],
    }
    greedy = play.parent / "greedy-7-8"
    run("play", "7-8", "--mode", "mice", "--policy", "greedy", "--out", greedy, "--workers", 1, "--no-progress")
    made["scorpion stats nopeek-7-8 --against greedy-7-8 --json"] = [
        one(run("stats", play.parent / "nopeek-7-8", "--against", greedy, "--json"))
    ]
    return made


def _random_seeds(tmp: Path) -> list[Path]:
    """random on deals 5-6 with seeds 0 and 1: one player's seeds, for the protocol's output (greedy takes no
    seed: it plays the same games with any)."""
    folders = [tmp / f"random-5-6-s{seed}" for seed in (0, 1)]
    for seed, out in enumerate(folders):
        run("play", "5-6", "--policy", "random", "--seed", seed, "--out", out, "--workers", 1, "--no-progress")
    return folders


@pytest.fixture(scope="module")
def documented() -> dict[str, dict]:
    return sections()


def test_every_command_with_json_has_a_section(documented):
    with_json = {name for name, command in main.commands.items() if any(p.name == "as_json" for p in command.params)}
    assert with_json >= {"deal", "solve", "hint", "analyze", "stats", "play", "deals", "bound", "losses", "nopeek"}
    headed = {heading.split()[1] for heading in documented}
    assert headed == with_json


def test_each_output_prints_exactly_the_documented_fields(outputs, documented):
    assert set(outputs) == set(documented)
    for heading, objects in outputs.items():
        printed = set().union(*(keys(o) for o in objects))
        fields = documented[heading]["fields"]
        assert printed - fields == set(), f"{heading}: printed but not documented"
        assert fields - printed == set(), f"{heading}: documented but not printed"
        for o in objects:
            check(o, heading)


def test_each_example_holds_exactly_the_documented_fields(documented):
    for heading, section in documented.items():
        assert keys(section["example"]) == section["fields"], heading
        check(section["example"], heading)
        shlex.split(heading)  # a command one can paste


def _as_shown(value, key: str = ""):
    """An output as docs/output.md shows it: numbers to 7 significant digits, folders by name, CPU seconds
    (which differ every run) left out."""
    if isinstance(value, dict):
        return {k: _as_shown(v, k) for k, v in value.items() if not k.startswith("cpu_")}
    if isinstance(value, list):
        return [_as_shown(v, key) for v in value]
    if isinstance(value, float):
        return float(f"{value:.7g}")
    return Path(value).name if key in ("folders", "against") else value


def test_the_protocol_example_is_what_stats_prints(outputs, documented):
    """The example is the output of today's command (it showed greedy's seeds once greedy refused --seed)."""
    assert _as_shown(documented[PROTOCOL]["example"]) == _as_shown(outputs[PROTOCOL][0])


def test_the_comparison_is_missed_without_its_docs(documented):
    """The check can fail: an output with a field no section lists, or a section listing a field not printed."""
    fields = documented["scorpion deal 5 --json"]["fields"]
    assert keys({**documented["scorpion deal 5 --json"]["example"], "rules": "clear"}) - fields == {"rules"}
    assert fields - keys({"deal": 5}) >= {"mode", "columns"}


def test_one_name_for_the_preset(outputs):
    """`mode`, never `rules`, in every output (item 6: hint --fair and play FILE said `rules`)."""
    for heading, objects in outputs.items():
        for o in objects:
            assert "rules" not in keys(o), heading
    fair = outputs["scorpion hint 5 --fair --samples 4 --nodes 1000 --json"][0]
    played = outputs["scorpion play deal5.txt --policy hop --samples 2 --nodes 300 --json"][0]
    assert fair["mode"] == "clear" and played["mode"] == "clear"
    # the policy's node budget and the nodes it searched are two fields, not one overwriting the other
    assert played["budget_nodes"] == 300 and played["nodes"] >= 0
