"""Double Scorpion and Three Blind Mice in the game layer (issue 53): deals, card ids, text, notation, the plain engine.

The deals are PySolFC's games 511 and 305 (docs/rules.md, "Relatives: two new
games"): tests/data/relatives_deals.txt holds layouts produced by PySolFC's own
generators (pysol-cards) and dealing, on both sides of 32000. The perft counts of
tests/data/perft_relatives.txt are the reference engine's, checked here by an
independent count written from the rules text alone (``naive_perft``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from perft_table import RELATIVES, check_perft

from scorpion_solver.game import deal, format_position, get_rules, parse_position
from scorpion_solver.game.cards import card_text, copy_of, face_of, parse_card
from scorpion_solver.game.deal import shuffled_deck
from scorpion_solver.game.engine import (
    RESERVE,
    TAIL,
    UPPER_COPY,
    Move,
    MoveError,
    apply_move,
    is_won,
    legal_moves,
    move_text,
    parse_move,
    parse_moves,
    perft,
    perft_divide,
    replay,
)
from scorpion_solver.game.position import Position, copy_blind, position_problems
from scorpion_solver.game.position_text import PositionError, parse_position_json, position_json
from scorpion_solver.game.rules import CLEAR, DOUBLE, DOUBLE_DEALT, MICE

DEALS = Path(__file__).resolve().parent / "data" / "relatives_deals.txt"


def pinned_deals() -> dict[tuple[str, int], str]:
    """The layouts of relatives_deals.txt by (preset, deal number)."""
    out: dict[tuple[str, int], str] = {}
    key = None
    for line in DEALS.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            preset, number = line[3:].split()
            key = (preset, int(number))
            out[key] = ""
        elif key is not None and line.strip() and not line.startswith("#"):
            out[key] += line + "\n"
    return out


PINNED = pinned_deals()


def card(token: str) -> int:
    return parse_card(token)[0]


# --------------------------------------------------------------------------
# Deals


def test_the_pinned_deals_cover_both_generators():
    numbers = {n for _, n in PINNED}
    assert {1, 31999, 32000, 10**20} <= numbers and len(PINNED) == 2 * len(numbers) == 16


@pytest.mark.parametrize("preset, number", sorted(PINNED))
def test_deal_is_pysolfc_game(preset, number):
    rules = get_rules(preset)
    assert format_position(deal(number, rules), rules) == f"mode: {preset}\n" + PINNED[preset, number]


def test_deal_1_is_rules_md():
    """docs/shared RULES.md's deal 1 of each game, written out again."""
    assert str(deal(1, MICE)).splitlines()[7] == "col8: 5H* KS* QH* 2C TC"
    assert str(deal(1, MICE)).endswith("tail: -\nreserve: 2H 6H")
    double = str(deal(1, DOUBLE)).splitlines()
    assert double[0] == "col1: 3D* AS* KD* 7D* 3S QS 4S AD 3H TS"
    assert double[9] == "col10: JD 4H 8S 2S 7H AS 6C 9H 6D 2D"
    assert double[10] == "tail: 4C 5S 6S AC"


@pytest.mark.parametrize("number", [1, 2, 617, 31999, 32000, 32001, 123456])
def test_double_dealt_is_double_with_the_tail_on_columns_1_to_4(number):
    later, dealt = deal(number, DOUBLE), deal(number, DOUBLE_DEALT)
    assert len(later.tail) == 4 and dealt.tail == ()
    assert dealt.columns == tuple(col + later.tail[i : i + 1] for i, col in enumerate(later.columns))
    assert dealt.hidden == later.hidden == (4, 4, 4, 4, 4, 0, 0, 0, 0, 0)
    assert replay(later, [TAIL], DOUBLE) == dealt  # the tail deal of the 3.4 layout makes the older one


@pytest.mark.parametrize("number", [1, 2, 617, 31999, 32000, 32001, 123456])
def test_mice_deals_scorpions_cards_in_scorpions_order(number):
    """The k-th card dealt is Scorpion deal N's k-th card (rows of seven, then the tail)."""
    scorpion, mice = deal(number), deal(number, MICE)
    scorpion_order = [scorpion.columns[k % 7][k // 7] for k in range(49)] + list(scorpion.tail)
    mice_order = [mice.columns[k % 10][k // 10] for k in range(50)] + list(mice.reserves)
    assert mice_order == scorpion_order
    assert mice.hidden == (0, 0, 0, 0, 0, 0, 0, 3, 3, 3) and mice.tail == ()


@pytest.mark.parametrize("number", [1, 31999, 32000, 10**20])
def test_double_card_ids(number):
    pos = deal(number, DOUBLE)
    ids = pos.cards_in_play()
    assert sorted(ids) == list(range(104))
    assert all(card_text(c) == card_text(face_of(c)) and copy_of(c) == c // 52 for c in ids)
    assert sum(pos.hidden) == 20 and position_problems(pos) == []


def test_two_decks_are_never_rearranged_into_freecell_order():
    """Below 32000 one deck is rearranged (AC AD AH AS 2C ...), two decks keep their natural order."""
    deck = list(range(104))
    state = 1
    for i in range(103, 0, -1):  # the Microsoft generator over the natural order, spelled out
        state = (state * 214013 + 2531011) % (1 << 32)
        j = ((state >> 16) & 0x7FFF) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    assert shuffled_deck(1, decks=2) == deck


# --------------------------------------------------------------------------
# Text


@pytest.mark.parametrize("preset", ["double", "double-dealt", "mice"])
@pytest.mark.parametrize("number", [1, 32000])
def test_text_and_json_read_back(preset, number):
    rules = get_rules(preset)
    pos = deal(number, rules)
    again = parse_position(format_position(pos, rules))
    assert again.rules == rules and copy_blind(again.position) == copy_blind(pos)
    assert copy_blind(parse_position_json(position_json(pos, rules)).position) == copy_blind(pos)
    if rules.decks == 1:
        assert again.position == pos


def test_mice_text_has_a_reserve_line_and_no_tail_line():
    text = format_position(deal(1, MICE), MICE)
    assert "tail" not in text and text.endswith("reserve: 2H 6H\n")
    played = apply_move(deal(1, MICE), Move(card("5D"), 4, 0), MICE)
    assert parse_position(format_position(played, MICE)).position == played


def error_of(text: str, rules=None, reachable: bool = True) -> str:
    with pytest.raises(PositionError) as info:
        parse_position(text, rules, reachable=reachable)
    return str(info.value)


def test_reading_names_the_line_and_the_problem():
    mice = format_position(deal(1, MICE), MICE)
    double = format_position(deal(1, DOUBLE), DOUBLE)
    scorpion = format_position(deal(1), CLEAR)
    assert error_of(MICE_HEARTS + "tail: 9C 2C 6C\n", reachable=False) == (
        "position, line 13: mice has no tail (write 'tail: -' or leave the line out), got 3 cards"
    )
    assert error_of(double.replace("tail: 4C 5S 6S AC", "tail: 4C 5S 6S")) == (
        "position, line 12: the tail holds 4 cards (or '-' once dealt), got 3"
    )
    assert error_of(double.replace("tail: 4C 5S 6S AC", "tail: -")).startswith("position: cards missing: AC 4C 5S 6S")
    assert error_of(double.replace("col1: 3D*", "col1: 3D* 3D 3D*")) == (
        "position, line 2: 3D appears three times (col1, col1 and col1); a game has at most two decks"
    )
    assert error_of(scorpion.replace("col2: 2D*", "col2: JD*")) == "position, line 3: JD appears twice (col1 and col2)"
    assert error_of(scorpion + "reserve: AS\n").startswith("position, line 10: clear has no reserve cards, got 1")
    assert error_of(mice.replace("reserve: 2H 6H", "reserve: 2H 6H*")) == (
        "position, line 12: reserve: 6H*: the reserve cards lie face up"
    )
    assert error_of(mice.replace("col10: KC* QD* AC* 7D 9C\n", "")) == (
        "position: no line for col10 (write an empty column as 'colN:')"
    )
    assert error_of(scorpion.replace("mode: clear", "mode: mice")).startswith("position: no line for col8, col9")
    assert error_of(mice, CLEAR).startswith("position, line 9: unknown line 'col8:' (clear has 7 columns)")


# --------------------------------------------------------------------------
# The notation and the engine: Double Scorpion

# Both runs of spades, the other suits swept; two 7S on top of columns 1-2, two face-up 6S in column 3.
TWO_COPIES = """\
mode: double
col1: 7S
col2: 7S
col3: 6S 5S 6S
col4: AS* 2S* 3S* KS
col5:
col6: AS* 2S* 3S* 4S* 8S* 9S* TS* JS* QS* 4S
col7: 8S* 9S* TS* JS* QS* 5S* KS
col8:
col9:
col10:
tail: -
"""


def two_copies() -> Position:
    return parse_position(TWO_COPIES, reachable=False).position


def test_either_copy_is_a_target_and_either_copy_leads():
    assert [move_text(m) for m in legal_moves(two_copies(), DOUBLE)] == [
        "6S:3>1",
        "6S+:3>1",
        "6S:3>2",
        "6S+:3>2",
        "KS:4>5",
        "KS:7>5",
    ]


def test_the_upper_copy_is_written_with_a_plus():
    pos = two_copies()
    lower, upper = parse_move("6S:3>1"), parse_move("6S+:3>1")
    assert lower == Move(card("6S"), 2, 0) and upper == Move(card("6S") + UPPER_COPY, 2, 0)
    assert [card_text(c) for c in replay(pos, [lower], DOUBLE).columns[0]] == ["7S", "6S", "5S", "6S"]
    assert replay(pos, [lower], DOUBLE).columns[2] == ()
    assert [card_text(c) for c in replay(pos, [upper], DOUBLE).columns[0]] == ["7S", "6S"]
    assert [card_text(c) for c in replay(pos, [upper], DOUBLE).columns[2]] == ["6S", "5S"]
    with pytest.raises(MoveError, match=r"^move 2: 6S\+:1>2 is not legal here: 6S\+ names the upper of two face-up"):
        replay(pos, parse_moves("6S+:3>1 6S+:1>2"), DOUBLE)  # column 1 holds one 6S now
    with pytest.raises(MoveError, match="no face-up 5S lies in column 7"):
        replay(pos, parse_moves("5S:7>6"), DOUBLE)


def test_a_move_is_the_same_for_a_copy_swapped_twin():
    pos = two_copies()
    swap = {c: (c + 52) % 104 for c in range(104)}
    twin = Position(tuple(tuple(swap[c] for c in col) for col in pos.columns), pos.hidden, pos.tail)
    assert legal_moves(twin, DOUBLE) == legal_moves(pos, DOUBLE)
    for move in legal_moves(pos, DOUBLE):
        assert copy_blind(apply_move(twin, move, DOUBLE)) == copy_blind(apply_move(pos, move, DOUBLE))


def test_a_run_of_mixed_copies_is_swept_and_eight_runs_win():
    """One run of spades left, its cards from both decks; the Ace completes it and the game is won."""
    spades = [card(r + "S") for r in "KQJT98765432"]
    mixed = [c + 52 * (i % 2) for i, c in enumerate(spades)]
    pos = Position(((*mixed,), (card("AS") + 52,)) + ((),) * 8, (0,) * 10, ())
    assert position_problems(pos) == [] and pos.swept_suits(2) == [0, 0, 1, 2, 2, 3, 3]
    assert legal_moves(pos, DOUBLE) == [Move(card("AS"), 1, 0)]
    won = apply_move(pos, Move(card("AS"), 1, 0), DOUBLE)
    assert won.columns == ((),) * 10 and is_won(won, DOUBLE) and legal_moves(won, DOUBLE) == []
    assert not is_won(pos, DOUBLE)


TAIL_TO_DEAL = """\
mode: double
col1: 7S 6S 6S
col2: 7S
col3:
col4: AS* 2S* 3S* KS
col5:
col6: AS* 5S* 8S* 9S* TS* JS* QS* 4S
col7: 8S* 9S* TS* JS* QS* KS
col8:
col9:
col10:
tail: 5S 4S 3S 2S
"""


def test_the_tail_of_four_lands_on_columns_1_to_4_also_when_empty():
    pos = parse_position(TAIL_TO_DEAL, reachable=False).position
    moves = legal_moves(pos, DOUBLE)
    # an empty column the tail reaches (3) is not interchangeable with the others (5-10: the leftmost, 5)
    assert [move_text(m) for m in moves] == ["6S:1>2", "6S+:1>2", "KS:4>3", "KS:7>3", "KS:4>5", "KS:7>5", "tail"]
    dealt = apply_move(pos, TAIL, DOUBLE)
    assert [card_text(col[-1]) for col in dealt.columns[:4]] == ["5S", "4S", "3S", "2S"]
    assert dealt.columns[2] == (pos.tail[2],) and dealt.tail == ()  # column 3 was empty


WHOLE_COLUMN = """\
mode: double
col1:
col2:
col3:
col4: AS* 2S* 3S* KS
col5: 5S
col6: AS* 2S* 3S* 4S* 8S* 9S* TS* JS* QS* 4S
col7: 8S* 9S* TS* JS* QS* 5S
col8: KS
col9:
col10:
tail: 7S 6S 6S 7S
"""


def test_a_whole_column_moves_into_an_empty_column_only_across_the_tails_reach():
    pos = parse_position(WHOLE_COLUMN, reachable=False).position
    into_space = [move_text(m) for m in legal_moves(pos, DOUBLE) if m != TAIL and not pos.columns[m.dst]]
    # KS alone in column 8 moves to the tail's columns 1-3, not to column 9 (the leftmost of 5-10's spaces)
    assert into_space == ["KS:4>1", "KS:8>1", "KS:4>2", "KS:8>2", "KS:4>3", "KS:8>3", "KS:4>9"]


# --------------------------------------------------------------------------
# The engine: Three Blind Mice

# Hearts only (the other suits swept); 2H and KH in the reserve.
MICE_HEARTS = """\
mode: mice
col1: 3H
col2: 7H
col3:
col4: AH* 4H
col5: 5H* 6H* 8H* 9H* TH* JH* QH
col6:
col7:
col8:
col9:
col10:
reserve: 2H KH
"""


def mice_hearts() -> Position:
    return parse_position(MICE_HEARTS, reachable=False).position


def test_reserve_cards_move_alone_onto_their_successor_or_as_kings_into_a_space():
    pos = mice_hearts()
    assert [move_text(m) for m in legal_moves(pos, MICE)] == ["2H:r>1", "KH:r>3", "3H:1>4"]
    assert parse_move("2H:r>1") == Move(card("2H"), RESERVE, 0)
    after = replay(pos, parse_moves("2H:r>1 3H:1>4 KH:r>1"), MICE)
    assert after.reserves == () and [card_text(c) for c in after.columns[3]] == ["AH", "4H", "3H", "2H"]
    assert [card_text(c) for c in after.columns[0]] == ["KH"]
    with pytest.raises(MoveError, match=r"2H:r>3 is not legal here: only a King may move into an empty column"):
        replay(pos, parse_moves("2H:r>3"), MICE)
    with pytest.raises(MoveError, match="QH is not a reserve card here"):
        replay(pos, parse_moves("QH:r>3"), MICE)
    with pytest.raises(MoveError, match="is not a move"):
        parse_move("3H:1>r")  # nothing goes onto a reserve
    with pytest.raises(MoveError, match="is not a move"):
        parse_move("3H:11>1")  # column 11 is no column, nor the reserve


def test_mice_is_won_only_with_the_reserve_played():
    empty = ((),) * 10
    assert is_won(Position(empty, (0,) * 10, ()), MICE)
    assert not is_won(Position(empty, (0,) * 10, (), reserves=(card("KH"),)), MICE)
    assert legal_moves(Position(empty, (0,) * 10, (), reserves=(card("KH"),)), MICE) == [Move(card("KH"), RESERVE, 0)]


def test_mice_has_no_tail_to_deal():
    with pytest.raises(MoveError, match="tail is not legal here: there is no tail in this game"):
        replay(deal(1, MICE), [TAIL], MICE)


# --------------------------------------------------------------------------
# perft: the stored counts, and an independent count from the rules text


def naive_children(pos: Position, rules) -> list[Position]:
    """The positions after each legal move, written from docs/rules.md alone: every face-up card of every column
    (and every reserve card) tried onto every other column, the tail; canonical empty columns as documented."""
    width, tail_columns = len(pos.columns), len(pos.tail)
    free = range(width) if not pos.tail else range(tail_columns, width)
    empty_free = [i for i in free if not pos.columns[i]]

    def may_enter(card: int, dst: int, whole_column: bool) -> bool:
        target = pos.columns[dst]
        if target:
            return face_of(target[-1]) == face_of(card) + 1 and card % 13 != 12
        if card % 13 != 12 or (dst in free and dst != empty_free[0]):
            return False
        return not whole_column or bool(pos.tail) and (src < tail_columns or dst < tail_columns)

    out = []
    for src, col in enumerate(pos.columns):
        for index in range(pos.hidden[src], len(col)):
            for dst in range(width):
                if dst != src and may_enter(col[index], dst, index == 0):
                    columns = list(pos.columns)
                    columns[dst] += col[index:]
                    columns[src] = col[:index]
                    out.append(settled(columns, pos, (src, dst), pos.tail, pos.reserves))
    for r, card_ in enumerate(pos.reserves):
        src = -1
        for dst in range(width):
            if may_enter(card_, dst, False):
                columns = list(pos.columns)
                columns[dst] += (card_,)
                out.append(settled(columns, pos, (dst,), pos.tail, pos.reserves[:r] + pos.reserves[r + 1 :]))
    if pos.tail:
        columns = [col + pos.tail[i : i + 1] for i, col in enumerate(pos.columns)]
        out.append(settled(columns, pos, range(width), (), pos.reserves))
    return out


def settled(columns, pos, touched, tail, reserves) -> Position:
    hidden = list(pos.hidden)
    for i in touched:
        while True:
            col = columns[i]
            hidden[i] = min(hidden[i], max(len(col) - 1, 0))
            top = [face_of(c) for c in col[hidden[i] :][-13:]]
            if len(top) == 13 and top == list(range(top[0], top[0] - 13, -1)) and top[0] % 13 == 12:
                columns[i] = col[:-13]
                continue
            break
    return Position(tuple(columns), tuple(hidden), tail, frozenset(), reserves)


def naive_perft(pos: Position, depth: int, rules) -> int:
    if depth == 0:
        return 1
    if not pos.tail and not pos.reserves and not any(pos.columns):
        return 0  # won: no moves
    return sum(naive_perft(child, depth - 1, rules) for child in naive_children(pos, rules))


@pytest.mark.parametrize("record_id", sorted(RELATIVES))
def test_perft_is_the_stored_count(record_id):
    record = RELATIVES[record_id]
    top = max(record.counts)
    for depth in range(1, top + 1 if record.deal == 1 else 4):
        check_perft(record, depth, perft(record.position(), depth, record.rules), perft_divide)
    for depth in (2, 3):
        divide = [(move_text(m), n) for m, n in perft_divide(record.position(), depth, record.rules)]
        assert divide == record.divides[depth]


@pytest.mark.parametrize("record_id", sorted(RELATIVES))
def test_perft_is_an_independent_count(record_id):
    record = RELATIVES[record_id]
    for depth in (1, 2, 3):
        assert naive_perft(record.position(), depth, record.rules) == record.counts[depth], depth


@pytest.mark.parametrize("position", [TWO_COPIES, MICE_HEARTS])
def test_the_independent_count_on_the_hand_made_positions(position):
    parsed = parse_position(position, reachable=False)
    for depth in (1, 2, 3, 4):
        assert naive_perft(parsed.position, depth, parsed.rules) == perft(parsed.position, depth, parsed.rules)


def test_one_deck_games_keep_their_ids_and_perft():
    assert perft(deal(1), 4, CLEAR) == 466 and max(deal(1).cards_in_play()) == 51


# --------------------------------------------------------------------------
# The command line: the plain-Python commands play the new presets, the kernel's refuse them


def test_cli_deal_replay_and_reference_perft():
    from scorpion_cli import assert_one_error_line, run

    assert run("deal", "1", "--mode", "mice").output == format_position(deal(1, MICE), MICE)
    assert run("deal", "1", "--mode", "mice", "--view").output.endswith("col10: ?? ?? ?? 7D 9C\nreserve: 2H 6H\n")
    assert '"reserves": ["2H", "6H"]' in run("deal", "1", "--mode", "mice", "--json").output
    assert run("perft", "1", "--mode", "double", "-d", "2", "--engine", "reference").output == (
        "depth 1: 14\ndepth 2: 195\n"
    )
    replayed = run("replay", "1", "--mode", "double-dealt", "3C:9>1").output
    assert "col1: 3D* AS* KD* 7D* 3S QS 4S AD 3H TS 4C 3C 5C 2C 7S 3H" in replayed
    # the kernel plays them too (its wide layout): perft, and solve without --shortest
    assert run("perft", "1", "--mode", "double", "-d", "2").output == "depth 1: 14\ndepth 2: 195\n"
    solved = run("solve", "3", "--mode", "mice")
    assert solved.exit_code == 0 and solved.output.startswith("deal 3 mice: won [173 nodes, ")
    result = run("solve", "3", "--mode", "mice", "--shortest")
    assert result.exit_code == 2
    assert_one_error_line(result.stderr, "the shortest search plays the seven-column games only, not mice")
    result = run("play", "1", "--mode", "double", "--policy", "greedy")
    assert result.exit_code == 2
    assert_one_error_line(result.stderr, "--mode double: `scorpion play` does not play double yet")


def test_cli_fair_hint_of_three_blind_mice_counts_the_sampled_layouts_each_move_keeps_winnable():
    """``hint --fair`` samples the 9 face-down cards (never the two reserve cards, which lie face up) and
    counts, for each move, the sampled layouts that stay winnable: recounted here with the solver."""
    import json

    from scorpion_cli import run

    from scorpion_solver.game.view import Observation, sample_positions
    from scorpion_solver.solver.result import WON, Limits
    from scorpion_solver.solver.search import solve

    got = json.loads(run("hint", "3", "--mode", "mice", "--fair", "--samples", "6", "--json").output)
    assert got["unseen"] == 9 and got["samples"] == 6
    layouts = sample_positions(Observation.of(deal(3, MICE)), 6, seed=0)
    assert {c for p in layouts for c in p.reserves} == set(deal(3, MICE).reserves)
    for row in got["moves"]:
        move = parse_move(row["move"])
        wins = sum(
            solve(apply_move(p, move, MICE), MICE, Limits(nodes=5_000_000), shorten=False).status == WON
            for p in layouts
        )
        assert (row["wins"], row["unknown"]) == (wins, 0), row["move"]
    assert len(got["moves"]) == len(legal_moves(deal(3, MICE), MICE))
