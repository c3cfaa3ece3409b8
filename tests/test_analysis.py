"""``hint`` and ``analyze`` (scorpion_solver.analysis) and their commands, and the walkthrough layouts.

The hint verdicts are checked against independent solves of every resulting
position, on fresh deals and on positions from the middle of real solutions;
the fatal-move search is checked on records built to lose at a known move.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from scorpion_cli import assert_user_error, run

from scorpion_solver import deal, format_position
from scorpion_solver.analysis.game_record import (
    FOUND_FATAL,
    FOUND_LOST_AT_START,
    FOUND_UNLOCATED,
    FOUND_WINNABLE,
    FOUND_WON,
    _next_probe,
    analyze,
    parse_record,
)
from scorpion_solver.analysis.hints import ALREADY_WON, WINNABLE, hint
from scorpion_solver.analysis.walkthrough import render_columns, render_rows, render_walkthrough
from scorpion_solver.game.cards import make_card
from scorpion_solver.game.engine import (
    MoveError,
    apply_move,
    is_won,
    legal_moves,
    move_text,
    moves_text,
    parse_moves,
    replay,
    replay_positions,
)
from scorpion_solver.game.position_text import parse_position
from scorpion_solver.game.rules import CLASSIC, CLEAR, GOODSOL, SCORPION2, WASP
from scorpion_solver.solver.result import LOST, UNKNOWN, Limits
from scorpion_solver.solver.search import solve

BUDGET = Limits(nodes=2_000_000)
VERDICT = {"won": WINNABLE, "lost": LOST, "unknown": UNKNOWN}

# No legal move: every top is an Ace, a King with no space, or a card whose successor lies face down.
STUCK = """\
mode: clear
col1: TH* 2H* AH
col2: QH* 4H* 3H
col3: 6H* 5H
col4: 8H* 7H
col5: 9H
col6: JH
col7: KH
tail: -
"""


def solution(number, rules=CLEAR):
    result = solve(deal(number, rules), rules, BUDGET)
    assert result.status == "won"
    return parse_moves(result.solution)


def middle_positions(number, rules=CLEAR):
    """The start and three positions from the middle of a winning line."""
    moves = solution(number, rules)
    positions = replay_positions(deal(number, rules), moves, rules)
    n = len(moves)
    return [positions[0], positions[n // 4], positions[n // 2], positions[(3 * n) // 4]]


# --------------------------------------------------------------------------
# hint


CASES = [(CLEAR, 5), (CLEAR, 33), (CLEAR, 37), (CLASSIC, 37), (GOODSOL, 5), (SCORPION2, 1), (WASP, 1)]


@pytest.mark.parametrize("rules,number", CASES, ids=[f"{r.name}-{n}" for r, n in CASES])
def test_hint_verdicts_agree_with_solves(rules, number):
    for position in middle_positions(number, rules):
        report = hint(position, rules, BUDGET)
        assert report.status == WINNABLE  # every position on a winning line is winnable
        assert {v.move for v in report.moves} == set(legal_moves(position, rules))
        for v in report.moves:
            child = solve(apply_move(position, v.move, rules), rules, BUDGET)
            assert child.status != "unknown"
            assert v.verdict == VERDICT[child.status], (move_text(v.move), v.verdict, child.status)
        best = report.best
        assert best is not None and best is report.moves[0]
        # the best move keeps the game winnable: its known win replays from here
        assert is_won(replay(position, [best.move, *best.solution], rules), rules)
        assert best.moves_to_win == min(v.moves_to_win for v in report.moves if v.verdict == WINNABLE)
        # winnable first (shortest win first), then unknown, then lost
        ranks = [{WINNABLE: 0, UNKNOWN: 1, LOST: 2}[v.verdict] for v in report.moves]
        assert ranks == sorted(ranks)


def test_hint_every_winnable_move_has_a_replaying_win():
    position = middle_positions(33)[2]
    for v in hint(position, CLEAR, BUDGET).moves:
        if v.verdict == WINNABLE:
            assert is_won(replay(position, [v.move, *v.solution]))


def test_hint_on_a_lost_deal():
    position = deal(1)
    report = hint(position, CLEAR, BUDGET)
    assert report.status == LOST and report.best is None
    assert report.solves == 1  # the position's own solve settles every move
    assert [v.move for v in report.moves] == legal_moves(position)
    for v in report.moves:
        assert v.verdict == LOST
        assert solve(apply_move(position, v.move), CLEAR, BUDGET).status == "lost"


def test_hint_on_a_won_position():
    moves = solution(5)
    final = replay(deal(5), moves)
    report = hint(final, CLEAR, BUDGET)
    assert report.status == ALREADY_WON and report.moves == () and report.best is None


def test_hint_on_a_position_without_moves():
    parsed = parse_position(STUCK)
    assert legal_moves(parsed.position) == []
    report = hint(parsed.position, CLEAR, BUDGET)
    assert report.status == LOST and "no legal move" in report.reason and report.moves == ()


def test_hint_unknown_is_honest():
    report = hint(deal(5), CLEAR, Limits(nodes=20))
    assert report.status == UNKNOWN and report.best is None
    for v in report.moves:
        assert v.verdict in (UNKNOWN, LOST)
        if v.verdict == UNKNOWN:
            assert v.stopped_by == "nodes"
        else:  # a 'lost' under a small budget must still be true
            assert solve(apply_move(deal(5), v.move), CLEAR, BUDGET).status == "lost"


# --------------------------------------------------------------------------
# analyze


def losing_record(number, k, extra=3, rules=CLEAR):
    """A winning line's first k moves, then a legal move that loses, then a few more legal moves.

    Returns (record, position before the losing move); None when no move loses there.
    """
    moves = solution(number, rules)
    before = replay(deal(number, rules), moves[:k], rules)
    for move in legal_moves(before, rules):
        if solve(apply_move(before, move, rules), rules, BUDGET).status == "lost":
            record = [*moves[:k], move]
            pos = apply_move(before, move, rules)
            for _ in range(extra):
                options = legal_moves(pos, rules)
                if not options:
                    break
                record.append(options[0])
                pos = apply_move(pos, options[0], rules)
            return record, before
    return None


@pytest.mark.parametrize("k", [0, 3, 10, 15, 17])  # on deal 5's line some move loses after these
def test_analyze_finds_the_fatal_move(k):
    record, before = losing_record(5, k)
    result = analyze(deal(5), record, CLEAR, BUDGET)
    assert result.finding == FOUND_FATAL
    assert result.fatal_index == k + 1
    assert result.fatal_move == record[k]
    assert result.final_status == LOST
    alternative = result.alternative
    assert alternative != record[k]
    assert alternative in legal_moves(before)
    assert solve(apply_move(before, alternative), CLEAR, BUDGET).status == "won"
    assert is_won(replay(before, result.alternative_solution))
    # bisection: about log2 of the number of positions, plus the final one
    assert len(result.probes) <= math.ceil(math.log2(len(record) + 1)) + 1


@pytest.mark.parametrize(
    "rules,number,k", [(CLASSIC, 37, 20), (SCORPION2, 1, 9), (GOODSOL, 33, 9)], ids=["classic", "scorpion2", "goodsol"]
)
def test_analyze_finds_a_fatal_move_in_other_rules(rules, number, k):
    record, before = losing_record(number, k, rules=rules)
    result = analyze(deal(number, rules), record, rules, BUDGET)
    assert result.finding == FOUND_FATAL and result.fatal_index == k + 1
    assert result.alternative in legal_moves(before, rules)
    assert is_won(replay(before, result.alternative_solution, rules), rules)


def test_analyze_complete_and_partial_games():
    moves = solution(37)
    won = analyze(deal(37), moves, CLEAR, BUDGET)
    assert won.finding == FOUND_WON and won.final_status == ALREADY_WON and won.fatal_move is None
    partial = analyze(deal(37), moves[:20], CLEAR, BUDGET)
    assert partial.finding == FOUND_WINNABLE and partial.final_status == WINNABLE
    assert len(partial.probes) == 1  # the final position is winnable: nothing to look for
    empty = analyze(deal(37), [], CLEAR, BUDGET)
    assert empty.finding == FOUND_WINNABLE


def test_analyze_a_game_lost_from_the_start():
    position = deal(1)
    record = [legal_moves(position)[0]]
    record.append(legal_moves(apply_move(position, record[0]))[0])
    result = analyze(position, record, CLEAR, BUDGET)
    assert result.finding == FOUND_LOST_AT_START and result.fatal_move is None and result.alternative is None
    assert result.first_lost == 0 and result.final_status == LOST


def test_analyze_unknown_is_honest():
    record, _ = losing_record(5, 10)
    result = analyze(deal(5), record, CLEAR, Limits(nodes=50))
    assert result.finding == FOUND_UNLOCATED and result.fatal_index is None
    first, last = result.suspects()
    assert first <= 11 <= last
    assert any(p.verdict == UNKNOWN for p in result.probes)


def test_analyze_rejects_an_illegal_record():
    moves = solution(5)
    bad = [*moves[:4], moves[6]]
    with pytest.raises(MoveError, match=r"^move 5: "):
        analyze(deal(5), bad, CLEAR, BUDGET)


def test_parse_record_names_the_move():
    assert parse_record("6C:5>2 # a comment\nKS:3>4\ntail") == parse_moves("6C:5>2 KS:3>4 tail")
    with pytest.raises(MoveError, match=r"move 3: 'ZZ:1>2' is not a move"):
        parse_record("6C:5>2 KS:3>4 ZZ:1>2")


def test_next_probe_is_bisection():
    assert _next_probe(-1, 9, {8}) == 3
    assert _next_probe(3, 9, {3, 8}) == 5
    assert _next_probe(3, 5, {3, 5}) == 4
    assert _next_probe(3, 4, {3, 4}) is None
    # an unknown in the middle: the next probe goes to the wider side
    assert _next_probe(-1, 9, {8, 3}) == 5


# --------------------------------------------------------------------------
# commands


def test_hint_command_on_a_deal():
    result = run("hint", 5)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("deal 5, clear: winnable")
    assert lines[1].startswith("best move: ")
    assert "loses" in result.stdout and "keeps it winnable" in result.stdout
    assert result.stderr == ""


def test_hint_command_on_a_game_in_progress(tmp_path):
    moves = solution(33)
    position = replay(deal(33), moves[:20])
    path = tmp_path / "game.txt"
    path.write_text(format_position(position, CLEAR))
    result = run("hint", path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "won" and data["best"] == data["moves"][0]["move"]
    assert {m["move"] for m in data["moves"]} == {move_text(m) for m in legal_moves(position)}
    for m in data["moves"]:
        child = solve(apply_move(position, parse_moves(m["move"])[0]), CLEAR, BUDGET)
        assert m["status"] == child.status


def test_hint_command_on_won_and_stuck_positions(tmp_path):
    final = replay(deal(5), solution(5))
    won = tmp_path / "won.txt"
    won.write_text(format_position(final, CLEAR))
    result = run("hint", won)
    assert result.exit_code == 0 and "the game is won" in result.stdout
    stuck = tmp_path / "stuck.txt"
    stuck.write_text(STUCK)
    result = run("hint", stuck)
    assert result.exit_code == 0 and "no legal move" in result.stdout


def test_hint_command_lost_deal_and_other_rules():
    result = run("hint", 1)
    assert result.exit_code == 0
    assert "lost" in result.stdout.splitlines()[0]
    assert "best move: none, every move loses" in result.stdout
    result = run("hint", 1, "--mode", "wasp", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["mode"] == "wasp"


def test_hint_command_user_errors(tmp_path):
    assert_user_error(run("hint", 0), "deal number")
    bad = tmp_path / "bad.txt"
    bad.write_text("col1: XX\n")
    assert_user_error(run("hint", bad), "line 1")
    assert_user_error(run("hint", tmp_path / "missing.txt"), "cannot read")


def test_analyze_command_reports_the_fatal_move(tmp_path):
    record, before = losing_record(5, 10)
    result = run("analyze", 5, "--moves", moves_text(record))
    assert result.exit_code == 0, result.output
    assert f"fatal move: move 11 ({move_text(record[10])})" in result.stdout
    assert "winning alternative at move 11: " in result.stdout
    assert "final position: lost" in result.stdout
    path = tmp_path / "record.txt"
    path.write_text("# my game\n" + "\n".join(move_text(m) for m in record) + "\n")
    data = json.loads(run("analyze", 5, "--moves-file", path, "--json").stdout)
    assert data["finding"] == FOUND_FATAL and data["fatal_index"] == 11
    assert data["fatal_move"] == move_text(record[10])
    assert parse_moves(data["alternative"])[0] in legal_moves(before)


def test_analyze_command_on_a_game_in_progress(tmp_path):
    """SOURCE is a position file from the middle of a game; move numbers count from it."""
    record, _ = losing_record(5, 10)
    middle = replay(deal(5), record[:4])
    path = tmp_path / "middle.txt"
    path.write_text(format_position(middle, CLEAR))
    result = run("analyze", path, "--moves", moves_text(record[4:]), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["finding"] == FOUND_FATAL and data["fatal_index"] == 7
    assert data["fatal_move"] == move_text(record[10])


def test_analyze_command_other_findings():
    moves = solution(5)
    result = run("analyze", 5, "--moves", moves_text(moves))
    assert result.exit_code == 0 and "no fatal move: the game is won" in result.stdout
    result = run("analyze", 5, "--moves", moves_text(moves[:7]))
    assert "no fatal move: the final position can still be won" in result.stdout
    assert "final position: winnable" in result.stdout
    result = run("analyze", 1, "--moves", move_text(legal_moves(deal(1))[0]))
    assert "start position was already lost" in result.stdout
    record, _ = losing_record(5, 10)
    result = run("analyze", 5, "--moves", moves_text(record), "--nodes", 50)
    assert result.exit_code == 0
    assert "could not be located exactly" in result.stdout
    assert re.search(r"leave moves \d+ to 11", result.stdout)


def test_analyze_command_user_errors(tmp_path):
    moves = moves_text(solution(5)[:3])
    assert_user_error(run("analyze", 5, "--moves", moves + " 9H:6>1"), "move 4:", "9H:6>1")
    assert_user_error(run("analyze", 5, "--moves", moves + " QX:1>2"), "move 4:", "'QX:1>2'")
    assert_user_error(run("analyze", 5), "--moves")
    assert_user_error(run("analyze", 5, "--moves", moves, "--moves-file", tmp_path / "x"), "--moves")
    assert_user_error(run("analyze", 5, "--moves-file", tmp_path / "missing"), "cannot read")
    assert_user_error(run("analyze", "nofile.txt", "--moves", moves), "cannot read")


# --------------------------------------------------------------------------
# walkthrough


def test_render_columns_layout():
    position = deal(1)
    text = render_columns(position)
    lines = text.splitlines()
    assert lines[0].split() == [str(i) for i in range(1, 8)]
    assert lines[1] == "  ##(JD) ##(2D) ##(9H) ##(JC) 5D     7H     7C"
    assert lines[7] == "  8D     QS     6C     3D     8C     TC     6S"
    assert lines[8] == "  tail: ##(9C) ##(2H) ##(6H)"
    assert "\x1b" not in text


def test_render_marks_and_colours():
    position = deal(5)
    move = legal_moves(position)[0]
    after = apply_move(position, move)
    moved = {move.card}
    plain = render_rows(after, moved)
    assert f">{move_text(move).split(':')[0]}<" in plain and "\x1b" not in plain
    coloured = render_columns(after, moved, color=True)
    assert "\x1b[7m" in coloured and "\x1b[31m" in coloured
    # padding ignores escape codes: stripped, the coloured layout equals the plain one without marks
    stripped = re.sub(r"\x1b\[\d+m", "", coloured)
    assert stripped == render_columns(after, set(), color=False)


def test_walkthrough_layouts_cover_every_move():
    moves = solution(37)
    for layout in ("rows", "columns"):
        text = render_walkthrough(deal(37), moves, CLEAR, layout=layout)
        assert text.count("move ") == len(moves)
        assert f"move {len(moves)}/{len(moves)}: {move_text(moves[-1])}" in text
        assert "swept: C S H D" in text.splitlines()[-1]


def test_solve_walkthrough_command_layouts():
    result = run("solve", 5, "--walkthrough", "--layout", "columns")
    assert result.exit_code == 0, result.output
    assert "  1      2      3      4      5      6      7" in result.stdout
    assert "\x1b" not in result.stdout  # piped: plain text
    assert ">9H<" in result.stdout
    coloured = run("solve", 5, "--walkthrough", "--color")
    assert "\x1b[7m" in coloured.stdout
    assert run("solve", 5, "--walkthrough", "--layout", "diagonal").exit_code == 2


def test_walkthrough_gives_each_suit_its_own_colour():
    from scorpion_solver.analysis.walkthrough import SUIT_COLOURS, _card

    assert len(set(SUIT_COLOURS)) == 4
    shown = {suit: _card(make_card(5, index), False, False, True) for index, suit in enumerate("CSHD")}
    assert len(set(shown.values())) == 4
