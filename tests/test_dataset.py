"""results/ as a published dataset: the card, the schema, the checksums, the loads, ``verify``, ``export``, ``publish``.

* the card's YAML header parses and its configs name files that exist; the card's three one-line loads
  (pandas, polars, DuckDB, no scorpion import) run and give the exact rates;
* datapackage.json is what the code writes for the folders as they are, and every folder's Parquet files have
  exactly its fields' Arrow types; ``mode``'s allowed values are the code's presets;
* SHA256SUMS lists every file git tracks under results/, each with its sum; CITATION.cff and LICENSE agree
  with pyproject.toml;
* ``scorpion verify`` on small folders made here: every check passes on an honest folder, and a changed
  byte, a solution that does not win, a wrong .stats.json or a game that does not replay from its seed
  each fails its own check (exit 1); ``export --csv`` and ``publish`` on the same folders.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml
from scorpion_cli import assert_user_error, run, small_folder

from scorpion_solver import batch
from scorpion_solver.batch import dataset
from scorpion_solver.batch.backends import LocalBackend
from scorpion_solver.batch.folder import CHUNK_GLOB, read_metadata
from scorpion_solver.batch.play_runs import PlaySettings, run_play
from scorpion_solver.game.rules import PRESETS
from scorpion_solver.play import PolicySpec

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
CARD = RESULTS / "README.md"


def _card_header() -> dict:
    text = CARD.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n", 2)[1])


def test_the_card_header_parses_and_its_configs_name_files_that_exist():
    header = _card_header()
    assert header["license"] == "mit"
    assert header["pretty_name"] and header["size_categories"] and header["tags"]
    names = [c["config_name"] for c in header["configs"]]
    assert names == [
        "exact",
        "shortest",
        "wasp",
        "scorpion2",
        "goodsol",
        "play",
        "bound",
        "losses",
        "mice",
        "double",
        "double-dealt",
        "nopeek",
    ]
    covered = set()
    for config in header["configs"]:
        files = config["data_files"]
        matched = [
            p for pattern in ([files] if isinstance(files, str) else files) for p in sorted(RESULTS.glob(pattern))
        ]
        assert matched, files
        assert all(p.suffix == ".parquet" for p in matched)
        # one table a config: every file of it has the same columns and types (a loader concatenates them)
        assert len({tuple(pq.read_schema(p).remove_metadata()) for p in matched}) == 1, config["config_name"]
        covered |= {p.parent.name for p in matched}
    # every folder of the data package is in some config
    assert covered == {r["title"] for r in json.loads((RESULTS / dataset.PACKAGE).read_text())["resources"]}


def test_the_card_has_the_sections_of_a_dataset_card():
    text = CARD.read_text(encoding="utf-8")
    for section in (
        "What it is",
        "How it was made",
        "The columns",
        "How to verify",
        "How to load",
        "Limits",
        "How to cite",
        "Data version and changelog",
    ):
        assert f"\n## {section}\n" in text, section
    assert f"Data version {dataset.DATA_VERSION}" in text


def _card_loads() -> list[str]:
    block = CARD.read_text(encoding="utf-8").split("## How to load", 1)[1].split("```python\n", 1)[1].split("```")[0]
    return [line for line in block.splitlines() if line.strip()]


@pytest.mark.parametrize("library", ["pandas", "polars", "duckdb"])
def test_the_cards_one_line_loads_run_without_scorpion(library):
    (line,) = [line for line in _card_loads() if line.startswith(f"import {library}")]
    check = {
        "pandas": "c = df.groupby('mode')['status'].apply(lambda s: (s == 'won').sum()).to_dict()",
        "polars": "c = dict(df.filter(pl.col('status') == 'won').group_by('mode').len().iter_rows())",
        "duckdb": "c = {m: round(r * 1000000) for m, r in rates}",
    }[library]
    script = f"{line}\n{check}\nimport sys\nassert 'scorpion_solver' not in sys.modules\nprint(sorted(c.items()))\n"
    out = subprocess.run([sys.executable, "-c", script], cwd=RESULTS, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[('classic', 98152), ('clear', 124122)]"


def test_the_data_package_is_what_the_code_writes_for_the_folders():
    committed = json.loads((RESULTS / dataset.PACKAGE).read_text(encoding="utf-8"))
    assert committed == dataset.data_package(RESULTS), "run `scorpion publish results` after a run"
    assert committed["$schema"] == "https://datapackage.org/profiles/2.0/datapackage.json"
    kinds = {r["kind"] for r in committed["resources"]}
    assert kinds == {"results", "play", "bound", "losses", "nopeek"}


def test_every_folders_parquet_files_have_exactly_the_schema_the_data_package_gives():
    package = json.loads((RESULTS / dataset.PACKAGE).read_text(encoding="utf-8"))
    for resource in package["resources"]:
        folder = RESULTS / resource["title"]
        assert (RESULTS / resource["runRecord"]).is_file()
        assert resource["path"] == [p.relative_to(RESULTS).as_posix() for p in sorted(folder.glob(CHUNK_GLOB))]
        fields = [(f["name"], f["arrowType"]) for f in resource["schema"]["fields"]]
        for path in resource["path"]:
            real = pq.read_schema(RESULTS / path)
            assert [(f.name, str(f.type)) for f in real] == fields, path
        for f in resource["schema"]["fields"]:
            assert f["description"] and f["type"] in ("integer", "number", "string", "boolean")
        assert resource["schema"]["primaryKey"][:2] == ["deal", "mode"]


def test_the_allowed_modes_are_the_codes_presets():
    for kind in dataset.KIND_SCHEMAS:
        assert dataset.allowed_values(kind)["mode"] == list(PRESETS)
    assert dataset.allowed_values("results")["status"] == ["won", "lost", "unknown"]


def _tracked_results() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z", "results"], cwd=ROOT, capture_output=True, check=True).stdout
    return sorted(n.removeprefix("results/") for n in out.decode().split("\0") if n)


def test_sha256sums_lists_every_file_under_results_with_its_sum():
    sums = dataset.read_sums(RESULTS / dataset.SUMS)
    tracked = [n for n in _tracked_results() if n != dataset.SUMS]
    if not tracked:
        pytest.skip("not a git checkout")
    assert not set(tracked) - set(sums), "files not in SHA256SUMS: run `scorpion publish results`"
    on_disk = {p.relative_to(RESULTS).as_posix() for p in RESULTS.rglob("*") if p.is_file()}
    assert set(sums) <= on_disk
    assert dataset.check_sums(RESULTS, sums, sorted(sums)) == []


def test_sha256sum_c_passes_where_coreutils_is():
    if shutil.which("sha256sum") is None:
        pytest.skip("no sha256sum")
    subprocess.run(["sha256sum", "-c", "--quiet", dataset.SUMS], cwd=RESULTS, check=True)


def test_git_keeps_the_bytes_of_results():
    out = subprocess.run(
        ["git", "check-attr", "text", "--", "results/README.md", "results/deals-1-1000000/_batch.json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.count("text: unset") == 2, out


def test_citation_and_license_agree_with_pyproject():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'license = \{ text = "MIT" \}', pyproject)
    version = re.search(r'^version = "(.+)"', pyproject, re.M).group(1)
    assert citation["cff-version"] == "1.2.0" and citation["license"] == "MIT"
    assert citation["version"] == version
    preferred = citation["preferred-citation"]
    assert preferred["type"] == "data" and preferred["version"] == dataset.DATA_VERSION
    assert str(preferred["date-released"]) in CARD.read_text(encoding="utf-8")
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "the scorpion-solver authors" in licence


# --- scorpion verify, export, publish on small folders made here ------------------------------------------------


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    """A results/-like root: a small results folder (deals 1-6, one of them won) with its stats, published."""
    root = tmp_path_factory.mktemp("published")
    folder = small_folder(root / "deals-1-6", deals="1-6", chunk=3)
    stats = run("stats", folder, "--json")
    assert stats.exit_code == 0, stats.output
    (root / "deals-1-6.stats.json").write_text(stats.stdout)
    result = run("publish", root)
    assert result.exit_code == 0, result.output
    return root


def _copy(root: Path, tmp_path: Path) -> Path:
    shutil.copytree(root, tmp_path / "root")
    return tmp_path / "root"


def _verdicts(result) -> dict[str, str]:
    return {m.group(2): m.group(1) for m in re.finditer(r"^(PASS|FAIL|SKIP)\s+([a-z ]+):", result.stdout, re.M)}


def test_verify_passes_an_honest_folder(published):
    result = run("verify", published / "deals-1-6")
    assert result.exit_code == 0, result.output
    assert _verdicts(result) == {"checksums": "PASS", "rows": "PASS", "won lines": "PASS", "stats": "PASS"}
    assert "12 rows of results schema" in result.stdout
    won = dataset.won_rows(published / "deals-1-6", "results")
    assert won and f"{len(won)} of {len(won)} won lines replayed" in result.stdout


def test_publish_writes_sums_that_coreutils_accepts(published):
    if shutil.which("sha256sum") is None:
        pytest.skip("no sha256sum")
    subprocess.run(["sha256sum", "-c", "--quiet", dataset.SUMS], cwd=published, check=True)
    package = json.loads((published / dataset.PACKAGE).read_text())
    assert [r["title"] for r in package["resources"]] == ["deals-1-6"]


def test_verify_fails_a_changed_byte(published, tmp_path):
    root = _copy(published, tmp_path)
    meta = root / "deals-1-6" / "_batch.json"
    meta.write_bytes(meta.read_bytes().replace(b"\n", b"\r\n"))  # what a checkout converting line endings does
    result = run("verify", root / "deals-1-6")
    assert result.exit_code == 1
    assert _verdicts(result)["checksums"] == "FAIL"
    assert "deals-1-6/_batch.json: checksum differs" in result.stdout


def test_verify_fails_a_file_not_in_the_sums(published, tmp_path):
    root = _copy(published, tmp_path)
    (root / "deals-1-6" / "notes.txt").write_text("extra")
    result = run("verify", root / "deals-1-6")
    assert result.exit_code == 1 and "deals-1-6/notes.txt: not listed in SHA256SUMS" in result.stdout


def _rewrite_first_won(folder: Path, change) -> None:
    for path in sorted(folder.glob(CHUNK_GLOB)):
        rows = pq.read_table(path).to_pylist()
        won = [r for r in rows if r["status"] == "won"]
        if won:
            change(won[0])
            batch.write_chunk(folder, path.name, rows)
            return
    raise AssertionError("no won row")


def test_verify_fails_a_solution_that_does_not_win(published, tmp_path):
    root = _copy(published, tmp_path)

    def cut(row):
        row["solution"] = " ".join(row["solution"].split()[:-1])

    _rewrite_first_won(root / "deals-1-6", cut)
    run("publish", root)  # the sums agree again: the replay alone must catch it
    result = run("verify", root / "deals-1-6")
    assert result.exit_code == 1
    assert _verdicts(result) == {"checksums": "PASS", "rows": "PASS", "won lines": "FAIL", "stats": "PASS"}
    assert "the moves are legal but do not win" in result.stdout


def test_verify_fails_a_row_outside_the_schema_and_a_wrong_summary(published, tmp_path):
    root = _copy(published, tmp_path)

    def misname(row):
        row["status"] = "solved"

    _rewrite_first_won(root / "deals-1-6", misname)
    run("publish", root)
    result = run("verify", root / "deals-1-6")
    assert result.exit_code == 1
    verdicts = _verdicts(result)
    assert verdicts["rows"] == "FAIL" and "status 'solved', not an allowed value" in result.stdout
    assert verdicts["stats"] == "FAIL" and re.search(
        r"modes\.(clear|classic)\.won: recorded 1, recomputed 0", result.stdout
    )


def test_verify_user_mistakes_are_one_error_line(tmp_path):
    assert_user_error(run("verify", tmp_path / "absent"), "is not a folder")
    assert_user_error(run("verify", tmp_path), "has no _batch.json")
    assert_user_error(run("export", tmp_path), "give --csv")
    assert_user_error(run("publish", tmp_path / "absent"), "is not a folder")


def test_export_csv_writes_every_row_with_the_schemas_columns(published, tmp_path):
    out = tmp_path / "deals.csv"
    result = run("export", published / "deals-1-6", "--csv", "--out", out)
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    table = batch.read_folder(published / "deals-1-6")
    assert len(rows) == table.num_rows == 12
    assert list(rows[0]) == table.column_names
    assert [(int(r["deal"]), r["mode"], r["status"], r["solution"]) for r in rows] == [
        (r["deal"], r["mode"], r["status"], r["solution"]) for r in table.to_pylist()
    ]
    stdout = run("export", published / "deals-1-6", "--csv")
    assert stdout.exit_code == 0 and stdout.stdout.splitlines()[0].startswith('"deal","mode","status"')


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A small greedy play folder (deals 1-4, both modes, no exact verdicts: every game played), published."""
    root = tmp_path_factory.mktemp("played")
    folder = root / "play-1-4-greedy-s0"
    settings = PlaySettings(batch.parse_range("1-4"), ("clear", "classic"), PolicySpec("greedy"), chunk=2)
    run_play(settings, folder, batch.Execution(lambda: LocalBackend(1), progress=False))
    assert read_metadata(folder)["format"].startswith("scorpion-play/")
    (root / f"{folder.name}.stats.json").write_text(run("stats", folder, "--json").stdout)
    assert run("publish", root).exit_code == 0
    return root


def test_verify_replays_play_games_from_their_seeds(played):
    result = run("verify", played / "play-1-4-greedy-s0", "--games", "8")
    assert result.exit_code == 0, result.output
    assert _verdicts(result) == {
        "checksums": "PASS",
        "rows": "PASS",
        "won lines": "PASS",
        "stats": "PASS",
        "games": "PASS",
    }
    assert "8 of 8 played games played again from their seeds" in result.stdout


def test_verify_fails_a_game_that_its_seed_does_not_replay(played, tmp_path):
    root = _copy(played, tmp_path)
    folder = root / "play-1-4-greedy-s0"
    path = sorted(folder.glob(CHUNK_GLOB))[0]
    rows = pq.read_table(path).to_pylist()
    rows[0]["decisions"] += 1
    table = pq.read_table(path).from_pylist(rows, schema=pq.read_schema(path))
    batch.folder.write_table(folder, path.name, table)
    run("publish", root)
    result = run("verify", folder, "--games", "8")
    assert result.exit_code == 1
    assert _verdicts(result)["games"] == "FAIL"
    assert f"deal {rows[0]['deal']} ({rows[0]['mode']}): decisions differ" in result.stdout


def test_verify_dot_finds_the_sums_and_summary_beside_it(published, monkeypatch):
    monkeypatch.chdir(published / "deals-1-6")
    result = run("verify", ".")
    assert result.exit_code == 0, result.output
    assert _verdicts(result) == {"checksums": "PASS", "rows": "PASS", "won lines": "PASS", "stats": "PASS"}


def _smallest_committed_folder(kind: str) -> Path:
    folders = [RESULTS / r["title"] for r in json.loads((RESULTS / dataset.PACKAGE).read_text())["resources"]]
    return min(
        (f for f in folders if dataset.folder_kind(read_metadata(f)) == kind),
        key=lambda f: sum(p.stat().st_size for p in f.glob(CHUNK_GLOB)),
    )


@pytest.mark.parametrize("kind", ["results", "play", "bound", "losses"])
def test_verify_passes_the_smallest_committed_folder_of_each_kind(kind):
    folder = _smallest_committed_folder(kind)
    result = run("verify", folder, "--sample", "20", "--games", "0")
    assert result.exit_code == 0, result.output
    verdicts = _verdicts(result)
    assert verdicts["checksums"] == verdicts["rows"] == "PASS"
    assert "FAIL" not in verdicts.values()


def test_publish_leaves_out_a_run_in_progress_lock_and_temporary_chunks(published, tmp_path):
    root = _copy(published, tmp_path)
    (root / "deals-1-6" / ".lock").write_text("")
    (root / "deals-1-6" / ".chunk-00000007-00000009.parquet.tmp").write_text("")
    assert run("publish", root).exit_code == 0
    sums = dataset.read_sums(root / dataset.SUMS)
    assert not [name for name in sums if "/." in name]
    assert sorted(sums) == sorted(dataset.read_sums(published / dataset.SUMS))
