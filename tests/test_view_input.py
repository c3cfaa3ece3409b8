"""The player's path on the command line: views read like every source, fair hints that never peek,
views advanced by the cards a move turned up.

* every command reads a SOURCE the same way (a file, ``-``, the JSON of
  ``deal --json``; the same messages for a folder or a binary file), and a
  view with ``??`` given to a command that needs every card says so;
* cards copied from a web page (``5♥``, ``10♥``, ``Q♠``) are read;
* ``hint --fair`` treats every face-down and tail card as unseen, also those
  a position file (or a typed view) names, gives no interval when nothing is
  sampled, and says what a share means;
* ``hint N --fair --moves`` judges the view after the moves (only the cards
  they turned up known); ``replay VIEW MOVES --reveal CARD`` advances a view;
  ``Observation.advance`` with the true cards is the view of the true
  position after the moves, for random games of deals in both modes;
* ``play N`` plays one game and prints it.
"""

from __future__ import annotations

import json
import random

import pytest
from scorpion_cli import assert_user_error, run

from scorpion_solver.game.cards import card_text, parse_card
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, is_won, legal_moves, parse_moves, replay
from scorpion_solver.game.position_text import format_position, position_json
from scorpion_solver.game.rules import CLASSIC, CLEAR
from scorpion_solver.game.view import MissingReveal, Observation
from scorpion_solver.game.view_text import format_view

# The first twelve moves of the solver's win of deal 5 (Clear runs); moves 2 and 9 turn up 3C and 3S.
DEAL5_START = "9H:6>1 5H:1>3 2C:7>1 JC:3>5 7D:4>3 9D:5>4 7H:1>5 QD:5>1 TC:1>5 KS:2>6 TH:4>2 8D:3>4"


def revealed_by(position, move, after) -> list[int]:
    """The cards a move turned up, in the order ``Observation.advance`` takes them."""
    tail = list(position.tail) if move.is_tail else []
    flips = [position.columns[i][j] for i in range(7) for j in range(after.hidden[i], position.hidden[i])]
    return tail + flips


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=lambda r: r.name)
def test_advancing_a_view_with_the_true_cards_gives_the_true_view(rules):
    rng = random.Random(7)
    steps = 0
    for number in range(1, 41):
        position = deal(number, rules)
        view = Observation.of(position)
        for _ in range(100):
            moves = legal_moves(position, rules)
            if not moves:
                break
            move = rng.choice(moves)
            after = apply_move(position, move, rules)
            view = view.play(move, revealed_by(position, move, after), rules)
            assert view == Observation.of(after), (number, steps, str(move))
            position, steps = after, steps + 1
    assert steps > 500


def test_a_view_refuses_cards_that_do_not_fit_the_moves():
    view = Observation.of(deal(5, CLEAR))
    moves = parse_moves(DEAL5_START)
    with pytest.raises(MissingReveal, match=r"move 2 \(5H:1>3\): it turns up the face-down card of column 1"):
        view.advance(moves, [])
    with pytest.raises(
        ValueError,
        match=r"move 3 .*2C cannot go on 5D: a card goes only on the next higher card of its own suit \(2C on 3C\)",
    ):
        view.advance(moves, [parse_card("5D")[0]])  # a wrong card makes the next move illegal
    with pytest.raises(ValueError, match="not turned up by any move"):
        view.advance(moves, [parse_card(c)[0] for c in ("3C", "3S", "KH")])
    with pytest.raises(ValueError, match="9H cannot be turned up: it is not an unseen card"):
        view.advance(moves[:2], [parse_card("9H")[0]])


def test_replay_advances_a_typed_view_with_reveal(tmp_path):
    path = tmp_path / "view.txt"
    path.write_text(run("deal", 5, "--view").stdout)
    done = run("replay", path, *DEAL5_START.split(), "--reveal", "3C", "--reveal", "3♠")
    assert done.exit_code == 0, done.output
    truth = replay(deal(5, CLEAR), parse_moves(DEAL5_START), CLEAR)
    assert done.stdout == format_view(Observation.of(truth), CLEAR) + (
        "# 12 moves played; 13 cards unseen; the game is in play\n"
    )
    message = assert_user_error(run("replay", path, *DEAL5_START.split()))
    assert "move 2 (5H:1>3): it turns up the face-down card of column 1" in message and "--reveal CARD" in message
    message = assert_user_error(run("replay", 5, "9H:6>1", "--reveal", "3C"))
    assert "--reveal is for a view" in message


def test_a_tail_deal_takes_its_three_cards_before_the_flips():
    position = deal(5, CLEAR)
    line = parse_moves(run("solve", 5, "--solution").stdout.splitlines()[-1])
    upto = line.index(next(m for m in line if m.is_tail)) + 1
    view, true = Observation.of(position), position
    for move in line[:upto]:
        after = apply_move(true, move, CLEAR)
        before = len(view.unseen)
        view, true = view.play(move, revealed_by(true, move, after), CLEAR), after
    assert not view.tail and view == Observation.of(true)
    assert len(view.unseen) <= before - 3  # the deal showed its three cards (and any flip it caused)


@pytest.mark.parametrize("command", [["solve"], ["perft", "--depth", "1"], ["show", "--html", "x.html"], ["analyze"]])
def test_commands_that_need_every_card_say_a_view_is_a_view(tmp_path, command):
    path = tmp_path / "view.txt"
    path.write_text(run("deal", 1, "--view").stdout)
    args = [command[0], path, *command[1:]]
    if command[0] == "show":
        args[-1] = tmp_path / "x.html"
    if command[0] == "analyze":
        args += ["--moves", "9H:6>1"]
    message = assert_user_error(run(*args))
    assert "?? is an unknown card: this text is a player's view" in message and "hint --fair" in message
    assert "is not a card" not in message


def test_cards_copied_from_a_web_page_are_read():
    assert [card_text(parse_card(t)[0]) for t in ("5♥", "10♥", "Q♠", "a♦️", "7♡", "K♣")] == [
        "5H",
        "TH",
        "QS",
        "AD",
        "7H",
        "KC",
    ]
    text = format_position(deal(1, CLEAR), CLEAR).replace("TH", "10♥").replace("QS", "Q♠").replace("5H", "5♥")
    done = run("replay", "-", input=text)
    assert done.exit_code == 0 and done.stdout.startswith(format_position(deal(1, CLEAR), CLEAR))


def test_a_fair_hint_on_a_position_file_does_not_see_its_face_down_cards(tmp_path):
    position_file = tmp_path / "deal5.txt"
    position_file.write_text(format_position(deal(5, CLEAR), CLEAR))
    view_file = tmp_path / "view5.txt"
    view_file.write_text(format_view(Observation.of(deal(5, CLEAR)), CLEAR))
    known_down = tmp_path / "known5.txt"  # a typed view naming the face-down cards of column 1
    known_down.write_text(view_file.read_text().replace("col1: ?? ?? ??", "col1: AH* 3D* 3C*"))
    args = ["hint", "--fair", "--samples", 4, "--nodes", 2000, "--json"]
    outputs = [json.loads(run(args[0], source, *args[1:]).stdout) for source in (position_file, view_file, known_down)]
    outputs.append(json.loads(run(args[0], 5, *args[1:]).stdout))
    outputs.append(json.loads(run(args[0], "-", *args[1:], input=position_json(deal(5, CLEAR), CLEAR, 5)).stdout))
    for data in outputs:
        assert data["unseen"] == 15 and data["samples"] == 4
        data.pop("source"), data.pop("deal"), data.pop("seconds")
    assert all(data == outputs[0] for data in outputs)  # the same hint from every form of the same view


def test_a_fair_hint_says_what_a_share_means_and_has_no_interval_when_nothing_is_sampled():
    line = run("solve", 37, "--solution").stdout.splitlines()[-1].split()
    sampled = run("hint", 37, "--fair", "--samples", 5, "--nodes", 2000)
    assert sampled.exit_code == 0 and "upper bound on your own chance" in sampled.stdout
    known = run("hint", 37, "--fair", "--moves", " ".join(line[:48]), "--nodes", 20000)
    assert known.exit_code == 0, known.output
    assert known.stdout.startswith("deal 37, clear: no card is unseen, so nothing is sampled: the position itself is")
    assert "interval" not in known.stdout and "%" not in known.stdout
    data = json.loads(run("hint", 37, "--fair", "--moves", " ".join(line[:48]), "--nodes", 20000, "--json").stdout)
    assert data["unseen"] == 0 and data["low"] is None and data["high"] is None
    assert all(m["low"] is None and m["high"] is None for m in data["moves"])


def test_a_fair_hint_after_moves_knows_only_what_they_turned_up():
    done = run("hint", 5, "--fair", "--moves", DEAL5_START, "--samples", 3, "--nodes", 2000, "--json")
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert data["unseen"] == 13  # 15 at the start; moves 2 and 9 turned up 3C and 3S
    truth = replay(deal(5, CLEAR), parse_moves(DEAL5_START), CLEAR)
    assert {m["move"] for m in data["moves"]} == {str(m) for m in legal_moves(truth, CLEAR)}
    from_file = run(
        "hint",
        "-",
        "--fair",
        "--samples",
        3,
        "--nodes",
        2000,
        "--json",
        input=format_view(Observation.of(truth), CLEAR),
    )
    same = json.loads(from_file.stdout)
    for d in (data, same):
        d.pop("source"), d.pop("deal"), d.pop("seconds")
    assert same == data
    message = assert_user_error(run("hint", 5, "--fair", "--moves", "5H:7>6"))
    assert "move 1: 5H:7>6 is not legal here: 5H is in column 1, not 7" in message


def test_the_sources_fair_hints_and_pages_read_give_the_same_messages(tmp_path):
    binary = tmp_path / "image.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    for args in (
        ["hint", binary, "--fair"],
        ["show", binary, "--fair", "--html", tmp_path / "p.html"],
        ["solve", binary],
    ):
        assert f"cannot read {binary}: not UTF-8 text" in assert_user_error(run(*args))
    for args in (["hint", tmp_path, "--fair"], ["show", tmp_path, "--fair", "--html", tmp_path / "p.html"]):
        assert f"cannot read {tmp_path}: it is a folder, not a file" in assert_user_error(run(*args))
    view = format_view(Observation.of(deal(9, CLEAR)), CLEAR)
    page = run("show", "-", "--fair", "--samples", 2, "--nodes", 500, "--html", tmp_path / "p.html", input=view)
    assert page.exit_code == 0, page.output
    assert (tmp_path / "p.html").is_file()


def test_play_one_deal_prints_its_game():
    done = run("play", 37, "--policy", "greedy")
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert lines[0] == "deal 37, clear, greedy: won after 51 moves"
    assert is_won(replay(deal(37, CLEAR), parse_moves(lines[1]), CLEAR), CLEAR)
    data = json.loads(run("play", 37, "--policy", "greedy", "--mode", "classic", "--json").stdout)
    assert data["deal"] == 37 and data["mode"] == "classic" and "rules" not in data


def test_play_file_honours_mode_as_solve_does(tmp_path):
    path = tmp_path / "deal37.txt"
    path.write_text(format_position(deal(37, CLASSIC), CLASSIC))  # the file says classic
    data = json.loads(run("play", path, "--policy", "greedy", "--mode", "clear", "--json").stdout)
    assert data["mode"] == "clear"
    data = json.loads(run("play", path, "--policy", "greedy", "--json").stdout)
    assert data["mode"] == "classic"
