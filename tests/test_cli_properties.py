"""Property: no input makes any command fail with a traceback (issue 17).

Hypothesis feeds every command random, mostly malformed input: positions
(a real deal's text with lines dropped, repeated or garbled, cards changed,
invisible characters and byte-order marks, or JSON), move records, ranges and
option values. Every run must end in one of two ways: success (exit 0), or
exit status 2 with exactly one ``error:`` line on stderr and no traceback.

Kept fast for the default suite: about 325 examples in all, budgets of a
few hundred nodes, perft depth at most 2, and ``batch``'s run itself replaced
by a stub (its options, RANGE and folder checks are what is fed here; the
runs are tested in test_batch.py and test_faults.py).
"""

from __future__ import annotations

import json
import string
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scorpion_cli import run

from scorpion_solver import batch
from scorpion_solver.batch.backends import solve_chunk
from scorpion_solver.batch.folder import new_metadata
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import legal_moves, move_text
from scorpion_solver.game.position_text import format_position, position_json
from scorpion_solver.game.rules import CLASSIC, CLEAR
from scorpion_solver.solver.result import Limits

SETTINGS = settings(
    max_examples=35,
    deadline=None,  # a loaded 2-core machine: no per-example deadline
    derandomize=True,  # the same examples every run: a failure is reproducible, never flaky
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)

CARD_TOKENS = [r + s for r in "A23456789TJQK" for s in "CSHD"]
ODD_TEXT = st.text(alphabet=string.printable + "\u200b\ufeff\u00e9\u2192\x00", max_size=12)
INVISIBLE = ["\ufeff", "\u200b", "\r", "\t", "\x0c", "\u00a0"]


def outcome_is_clean(result) -> None:
    """Exit 0, or exit 2 with one ``error:`` line and no traceback."""
    assert "Traceback" not in result.output, result.output
    if result.exit_code == 0:
        assert result.exception is None, repr(result.exception)
        return
    assert result.exit_code == 2, (result.exit_code, repr(result.exception), result.output)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr


def invoke(args, stdin: str | None = None):
    return run(*args, input=stdin)


# ---------------------------------------------------------------------------
# strategies


@st.composite
def position_texts(draw) -> str:
    """A real deal's position text, garbled a little or a lot (or its JSON)."""
    number = draw(st.integers(1, 40000))
    rules = draw(st.sampled_from([CLEAR, CLASSIC, None]))
    position = deal(number, rules or CLEAR)
    if draw(st.booleans()) and draw(st.booleans()):
        data = json.loads(position_json(position, rules))
        key = draw(st.sampled_from(["columns", "tail", "mode", "frozen", "deal", None]))
        if key is not None:
            data[key] = draw(st.one_of(st.none(), st.integers(), ODD_TEXT, st.lists(ODD_TEXT, max_size=8)))
        return json.dumps(data)
    lines = format_position(position, rules).splitlines()
    for _ in range(draw(st.integers(0, 4))):
        edit = draw(st.sampled_from(["drop", "repeat", "token", "star", "invisible", "garbage", "tail", "swap"]))
        i = draw(st.integers(0, len(lines) - 1)) if lines else 0
        if not lines:
            lines.append(draw(ODD_TEXT))
        elif edit == "drop":
            del lines[i]
        elif edit == "repeat":
            lines.insert(i, lines[i])
        elif edit == "token":
            tokens = lines[i].split()
            j = draw(st.integers(0, len(tokens)))
            tokens.insert(j, draw(st.one_of(st.sampled_from(CARD_TOKENS), ODD_TEXT.filter(lambda t: t.strip()))))
            lines[i] = " ".join(tokens)
        elif edit == "star":
            tokens = lines[i].split()
            if len(tokens) > 1:
                j = draw(st.integers(1, len(tokens) - 1))
                tokens[j] = tokens[j].rstrip("*") + "*"
            lines[i] = " ".join(tokens)
        elif edit == "invisible":
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + draw(st.sampled_from(INVISIBLE)) + lines[i][at:]
        elif edit == "garbage":
            lines[i] = draw(ODD_TEXT)
        elif edit == "tail":
            lines = [line for line in lines if not line.startswith("tail")] + ["tail: -"]
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\r\n"]))


def move_tokens(number: int):
    legal = [move_text(m) for m in legal_moves(deal(number))]
    return st.one_of(
        st.sampled_from(legal),
        st.sampled_from(["tail", "TAIL", "#", "# note", "\n"]),
        st.builds(
            lambda card, a, b: f"{card}:{a}>{b}",
            st.sampled_from(CARD_TOKENS + ["XX", "10C", "6C*"]),
            st.integers(-1, 9),
            st.integers(-1, 9),
        ),
        ODD_TEXT.filter(lambda t: t.strip() and not t.strip().startswith("-")),
    )


@st.composite
def records(draw, number: int) -> str:
    tokens = draw(st.lists(move_tokens(number), max_size=8))
    return draw(st.sampled_from([" ", "\n"])).join(tokens)


DEAL_ARGS = st.one_of(
    st.integers(-3, 2**70).map(str),
    st.sampled_from(["0", "-1", "", " ", "1e3", "٣", "0x10", "+5", "5 ", "9" * 5000]),
    ODD_TEXT,
)
SMALL_NODES = st.one_of(
    st.integers(1, 400).map(str), st.sampled_from(["0", "-5", "x", "1.5", "", "99999999999999999999"])
)
MEMORY = st.one_of(st.integers(1, 32).map(str), st.sampled_from(["0", "-1", "lots", "99999999999999999999"]))
TIMES = st.one_of(
    st.floats(0.001, 0.5).map(repr),
    st.sampled_from(["nan", "inf", "-inf", "0", "-1", "1e400", "x", "", "1e-320"]),
)
MODES = st.one_of(
    st.sampled_from(["clear", "classic", "wasp", "scorpion2", "goodsol", "both", "clear,classic", "CLASSIC"]),
    st.sampled_from(["", ",", "clear,", "bogus", "both,wasp", "clear,,classic", " clear"]),
    ODD_TEXT,
)


@st.composite
def rules_args(draw) -> list[str]:
    args = []
    if draw(st.booleans()):
        args += ["--mode", draw(MODES)]
    if draw(st.booleans()) and draw(st.booleans()):
        args += ["--rules", draw(MODES)]
    return args


@st.composite
def budget_args(draw) -> list[str]:
    args = ["--nodes", draw(SMALL_NODES)]
    if draw(st.booleans()):
        args += ["--memory", draw(MEMORY)]
    if draw(st.booleans()):
        args += ["--time", draw(TIMES)]
    return args


@st.composite
def sources(draw, tmp_path):
    """A SOURCE argument (and standard input for '-'): a deal number, a position file, '-', nonsense."""
    kind = draw(st.sampled_from(["deal", "file", "stdin", "missing", "folder", "odd"]))
    if kind == "deal":
        return str(draw(st.integers(1, 40000))), None
    if kind == "file":
        path = tmp_path / f"p{draw(st.integers(0, 10**6))}.txt"
        text = draw(position_texts())
        if draw(st.integers(0, 9)) == 0:
            path.write_bytes(b"\xff\xfe\x00garbage" + text.encode())
        else:
            path.write_text(text, encoding="utf-8")
        return str(path), None
    if kind == "stdin":
        return "-", draw(position_texts())
    if kind == "missing":
        return str(tmp_path / "no-such-file.txt"), None
    if kind == "folder":
        return str(tmp_path), None
    return draw(DEAL_ARGS), None


# ---------------------------------------------------------------------------
# the properties, one per command


@SETTINGS
@given(number=DEAL_ARGS, rules=rules_args(), as_json=st.booleans())
def test_deal(number, rules, as_json):
    outcome_is_clean(invoke(["deal", number, *rules, *(["--json"] if as_json else [])]))


@SETTINGS
@given(
    data=st.data(), rules=rules_args(), budget=budget_args(), flags=st.sets(st.sampled_from(["--json", "--solution"]))
)
def test_solve(tmp_path, data, rules, budget, flags):
    shape = data.draw(st.sampled_from(["source", "range"]))
    if shape == "range":
        first = data.draw(st.one_of(st.integers(-2, 2**64), st.just(2**63 - 1)))
        source, stdin = f"{first}-{first + data.draw(st.integers(-2, 2))}", None
    else:
        source, stdin = data.draw(sources(tmp_path))
    outcome_is_clean(invoke(["solve", source, *rules, *budget, *sorted(flags)], stdin))


@SETTINGS
@given(data=st.data(), rules=rules_args(), budget=budget_args(), as_json=st.booleans())
def test_hint(tmp_path, data, rules, budget, as_json):
    source, stdin = data.draw(sources(tmp_path))
    outcome_is_clean(invoke(["hint", source, *rules, *budget, *(["--json"] if as_json else [])], stdin))


@SETTINGS
@given(data=st.data(), rules=rules_args(), budget=budget_args(), as_json=st.booleans())
def test_analyze(tmp_path, data, rules, budget, as_json):
    number = data.draw(st.integers(1, 40000))
    record = data.draw(records(number))
    how = data.draw(st.sampled_from(["inline", "file", "stdin", "both", "neither"]))
    path = tmp_path / f"m{data.draw(st.integers(0, 10**6))}.txt"
    path.write_text(record, encoding="utf-8")
    moves = {"inline": ["--moves", record], "file": ["--moves-file", path], "stdin": ["--moves-file", "-"]}
    moves["both"] = moves["inline"] + moves["file"]
    args = ["analyze", number, *moves.get(how, []), *rules, *budget, *(["--json"] if as_json else [])]
    outcome_is_clean(invoke(args, record if how == "stdin" else None))


@SETTINGS
@given(
    data=st.data(), rules=rules_args(), depth=st.one_of(st.integers(0, 2).map(str), st.sampled_from(["-1", "13", "x"]))
)
def test_perft(tmp_path, data, rules, depth):
    source, stdin = data.draw(sources(tmp_path))
    extra = data.draw(st.sets(st.sampled_from(["--divide", "--engine=reference", "--engine=bogus"])))
    outcome_is_clean(invoke(["perft", source, "-d", depth, *rules, *sorted(extra)], stdin))


@SETTINGS
@given(data=st.data(), rules=rules_args())
def test_replay(tmp_path, data, rules):
    number = data.draw(st.integers(1, 40000))
    record = data.draw(records(number))
    path = tmp_path / f"m{data.draw(st.integers(0, 10**6))}.txt"
    path.write_text(record, encoding="utf-8")
    how = data.draw(st.sampled_from(["args", "file", "stdin", "both", "position-stdin"]))
    tokens = record.replace("#", " ").split()
    if how == "args":
        args, stdin = ["replay", number, *tokens], None
    elif how == "file":
        args, stdin = ["replay", number, "--moves-file", path], None
    elif how == "stdin":
        args, stdin = ["replay", number, "--moves-file", "-"], record
    elif how == "both":
        args, stdin = ["replay", number, *tokens[:1], "--moves-file", path], None
    else:
        args, stdin = ["replay", "-", *tokens], format_position(deal(number))
    outcome_is_clean(invoke([*args, *rules], stdin))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("prop") / "deals-1-2"
    out.mkdir()
    settings_ = batch.BatchSettings(batch.parse_range("1-2"), ("clear", "classic"), Limits(nodes=1000))
    batch.write_metadata(out, new_metadata(settings_, 2))
    batch.write_chunk(out, batch.chunk_name(1, 2), solve_chunk((1, 2), settings_.modes, settings_.limits))
    return out


@settings(SETTINGS, max_examples=80)  # cheap, and a damaged folder has many ways to be damaged
@given(data=st.data())
def test_stats(tmp_path, folder, data):
    import shutil

    copy = Path(tempfile.mkdtemp(dir=tmp_path)) / "folder"  # examples share tmp_path: a fresh folder each
    shutil.copytree(folder, copy)
    damage = data.draw(st.sampled_from(["none", "meta-key", "meta-value", "meta-text", "copy", "stray", "empty"]))
    meta_path = copy / "_batch.json"
    meta = json.loads(meta_path.read_text())
    if damage == "meta-key":
        meta.pop(data.draw(st.sampled_from(sorted(meta))))
    elif damage == "meta-value":
        meta[data.draw(st.sampled_from(sorted(meta)))] = data.draw(
            st.one_of(st.none(), st.integers(), ODD_TEXT, st.lists(st.integers(), max_size=3), st.just({}))
        )
    if damage == "meta-text":
        meta_path.write_text(data.draw(ODD_TEXT))
    else:
        meta_path.write_text(json.dumps(meta))
    chunk = copy / batch.chunk_name(1, 2)
    if damage == "copy":
        shutil.copy(chunk, copy / batch.chunk_name(1, 3))
    elif damage == "stray":
        shutil.copy(chunk, copy / "chunk-copy.parquet")
    elif damage == "empty":
        chunk.write_bytes(b"")
    target = data.draw(st.sampled_from([str(copy), str(tmp_path / "none"), str(chunk), ""]))
    extra = data.draw(st.sets(st.sampled_from(["--json", "--top=0", "--top=-1", "--top=x"])))
    outcome_is_clean(invoke(["stats", target, *sorted(extra)]))


@SETTINGS
@given(data=st.data(), rules=rules_args())
def test_batch_options_and_ranges(tmp_path, folder, data, rules, monkeypatch):
    import scorpion_solver.cli.batch as cli_batch

    def no_run(operation, settings_, out, *rest):
        return batch.BatchReport(out=out, deals=len(settings_.deals), chunks=0, already=0)

    monkeypatch.setattr(cli_batch, "_run", no_run)
    kind = data.draw(st.sampled_from(["range", "file", "odd"]))
    if kind == "range":
        first = data.draw(st.integers(-2, 2**64))
        deal_range = f"{first}-{first + data.draw(st.integers(-2, 10**9))}"
    elif kind == "file":
        path = tmp_path / f"d{data.draw(st.integers(0, 10**6))}.txt"
        lines = data.draw(
            st.lists(st.one_of(st.integers(-1, 2**64).map(str), ODD_TEXT, st.just("# comment")), max_size=6)
        )
        path.write_text("\n".join(lines), encoding="utf-8")
        deal_range = str(path)
    else:
        deal_range = data.draw(DEAL_ARGS)
    args = ["batch", deal_range, *rules]
    for option, values in (
        ("--nodes", SMALL_NODES),
        ("--memory", MEMORY),
        ("--time", TIMES),
        ("--chunk", st.one_of(st.integers(-1, 2000).map(str), st.just("x"))),
        ("--workers", st.one_of(st.integers(-1, 8).map(str), st.just("many"))),
    ):
        if data.draw(st.booleans()) and data.draw(st.booleans()):
            args += [option, data.draw(values)]
    if data.draw(st.booleans()):
        args += ["--out", str(data.draw(st.sampled_from([folder, tmp_path / "new", tmp_path / "x" / "y"])))]
    if data.draw(st.integers(0, 4)) == 0:
        args += ["--retry-unknown"]
    if data.draw(st.integers(0, 6)) == 0:
        args += ["--dask-local", "1", "--scheduler", "tcp://nowhere:1"]
    outcome_is_clean(invoke(args))
