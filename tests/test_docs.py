"""The documentation is true to the repository, and the rules it states hold.

* Every ``tests/FILE.py::NAME`` reference in docs/*.md and README.md names a
  test function or class that exists in that file (read with ast).
* No tracked text file points outside the repository: a fresh clone has
  everything it refers to.
* Every markdown link to a local file in README.md and docs/*.md resolves,
  inside the repository, and a link to a heading of a markdown file finds it.
* Rules of docs/rules.md that no other test pins: the deal program printed
  there deals the golden layouts; Wasp's whole-column moves; Goodsol's won
  position; the error of a move whose card lies elsewhere.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

from scorpion_solver import deal, parse_position
from scorpion_solver.game.engine import MoveError, is_won, legal_moves, moves_text, parse_move, play
from scorpion_solver.game.rules import GOODSOL, WASP

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
MARKDOWN = [ROOT / "README.md", *DOCS]

TEST_REFERENCE = re.compile(r"\btests/([\w/]+\.py)::(\w+(?:::\w+)?)")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
# Spelled in pieces so that this file does not match its own check.
OUTSIDE = ("../" + "shared", "/" + "work/")


def _defined_names(path: Path) -> set[str]:
    """Top-level functions and classes of a test file, and Class::method for their methods."""
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(f"{node.name}::{item.name}")
    return names


def test_docs_exist():
    names = {path.name for path in DOCS}
    assert {"rules.md", "design.md", "batch.md"} <= names
    assert "rules-decisions.md" not in names  # merged into rules.md


def test_every_test_reference_names_an_existing_test():
    checked, missing = 0, []
    defined: dict[str, set[str]] = {}
    for doc in MARKDOWN:
        for match in TEST_REFERENCE.finditer(doc.read_text(encoding="utf-8")):
            file, name = match.groups()
            path = ROOT / "tests" / file
            if file not in defined:
                defined[file] = _defined_names(path) if path.is_file() else set()
            checked += 1
            if name not in defined[file]:
                missing.append(f"{doc.relative_to(ROOT)}: tests/{file}::{name}")
    assert not missing, "references to tests that do not exist:\n" + "\n".join(missing)
    assert checked >= 100  # docs/rules.md alone cites well over a hundred


def test_the_reference_check_notices_a_wrong_name():
    text = "see tests/test_deal.py::test_golden_layout and tests/test_deal.py::test_no_such_thing"
    found = [m.groups() for m in TEST_REFERENCE.finditer(text)]
    assert found == [("test_deal.py", "test_golden_layout"), ("test_deal.py", "test_no_such_thing")]
    names = _defined_names(ROOT / "tests" / "test_deal.py")
    assert "test_golden_layout" in names and "test_no_such_thing" not in names


def _tracked_files() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: no list of tracked files")
    return [name for name in out.split("\0") if name]


def test_no_tracked_file_points_outside_the_repository():
    files = _tracked_files()
    assert "README.md" in files and "pyproject.toml" in files
    offenders = []
    for name in files:
        path = ROOT / name
        if not path.is_file():
            continue  # deleted in the working tree
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue  # binary (Parquet, images)
        text = data.decode("utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            if any(outside in line for outside in OUTSIDE):
                offenders.append(f"{name}:{number}: {line.strip()[:100]}")
    assert not offenders, "paths outside the repository:\n" + "\n".join(offenders)


def _heading_anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a markdown file."""
    anchors, in_code = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


def _local_links(doc: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
    return [t for t in LINK.findall(text) if not re.match(r"^[a-z][a-z+.-]*:", t)]


def test_every_local_markdown_link_resolves():
    broken, checked = [], 0
    for doc in MARKDOWN:
        for target in _local_links(doc):
            checked += 1
            file, _, anchor = target.partition("#")
            path = (doc.parent / file).resolve() if file else doc
            where = f"{doc.relative_to(ROOT)}: ({target})"
            if not path.is_relative_to(ROOT):
                broken.append(f"{where} leaves the repository")
            elif not path.exists():
                broken.append(f"{where} does not exist")
            elif anchor and path.suffix == ".md" and anchor not in _heading_anchors(path):
                broken.append(f"{where} has no heading #{anchor}")
    assert not broken, "broken links:\n" + "\n".join(broken)
    assert checked >= 10


def test_readme_links_the_rules_and_the_design():
    links = _local_links(ROOT / "README.md")
    assert "docs/rules.md" in links and "docs/design.md" in links


# --------------------------------------------------------------------------
# Rules of docs/rules.md pinned here


def _deal_program():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    source = re.search(r"In Python:\n\n```python\n(.*?)```", text, flags=re.S).group(1)
    namespace: dict = {}
    exec(compile(source, "docs/rules.md", "exec"), namespace)
    return namespace["scorpion_deal"]


@pytest.mark.parametrize("number", [1, 2, 617, 31999, 32000, 32001, 10**6, 2**32 + 1])
def test_the_deal_program_of_rules_md_deals_the_goldens(number):
    columns, tail = _deal_program()(number)
    lines = [f"col{i + 1}: " + " ".join(cards) for i, cards in enumerate(columns)]
    assert "\n".join(lines + ["tail: " + " ".join(tail)]) == str(deal(number))


WASP_BEFORE_TAIL = """\
col1: 5S
col2: 9S 8S
col3:
col4: KS QS JS TS 6S 7S
col5:
col6:
col7: 3S
tail: AS 2S 4S
"""
WASP_AFTER_TAIL = """\
col1: 5S AS
col2: 9S 8S 2S
col3:
col4: KS QS JS TS 6S 7S 4S
col5:
col6:
col7: 3S
tail: -
"""


def test_wasp_whole_column_moves_follow_the_king_rule():
    p = parse_position(WASP_BEFORE_TAIL, WASP).position
    # Any face-up card enters a space. Whole columns (5S, 9S, KS, 3S) move only where
    # column 1, 2 or 3 is one of the two: all into 3; into 5 (the leftmost of the
    # interchangeable 5 and 6) only 5S and 9S, from columns 1 and 2.
    assert moves_text(legal_moves(p, WASP)) == (
        "7S:4>2 5S:1>3 9S:2>3 8S:2>3 KS:4>3 QS:4>3 JS:4>3 TS:4>3 6S:4>3 7S:4>3 3S:7>3 "
        "5S:1>5 9S:2>5 8S:2>5 QS:4>5 JS:4>5 TS:4>5 6S:4>5 7S:4>5 tail"
    )
    with pytest.raises(MoveError, match="relocating a whole column changes nothing"):
        play(p, parse_move("3S:7>5"), WASP)
    # After the tail deal no whole column moves; groups that leave cards behind do,
    # into the leftmost space only.
    q = parse_position(WASP_AFTER_TAIL, WASP).position
    assert moves_text(legal_moves(q, WASP)) == (
        "AS:1>2 AS:1>3 8S:2>3 2S:2>3 QS:4>3 JS:4>3 TS:4>3 6S:4>3 7S:4>3 4S:4>3 3S:7>4 2S:2>7"
    )


GOODSOL_NEARLY_WON = """\
col1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH
col2: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
col3: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D
col4: AD
col5:
col6:
col7:
tail: -
"""


def test_goodsol_won_position_has_no_moves():
    p = parse_position(GOODSOL_NEARLY_WON, GOODSOL).position
    assert not p.frozen
    # Runs are not frozen: the King-led hearts may still move into a space.
    assert moves_text(legal_moves(p, GOODSOL)) == "AD:4>3 KH:1>5"
    won = play(p, parse_move("AD:4>3"), GOODSOL)
    assert is_won(won, GOODSOL)
    assert legal_moves(won, GOODSOL) == []


def test_an_illegal_move_says_where_its_card_is():
    with pytest.raises(MoveError, match=r"^7D:4>1 is not legal here: 7D is in column 5, not 4$"):
        play(deal(1), parse_move("7d:4>1"))
