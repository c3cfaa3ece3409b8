"""The position text format of docs/rules.md: writing, reading, and every rejection."""

from __future__ import annotations

import random

import pytest

from scorpion_solver import CLASSIC, CLEAR, Position, deal, format_position, legal_moves, parse_position
from scorpion_solver.game.cards import SUITS, parse_card
from scorpion_solver.game.engine import apply_move
from scorpion_solver.game.position_text import PositionError
from scorpion_solver.game.rules import SCORPION2

RUN = {s: " ".join(r + s for r in "KQJT98765432A") for s in SUITS}

DEAL_1 = str(deal(1))


def read(text, rules=None):
    return parse_position(text, rules)


def cards(text):
    return tuple(parse_card(t)[0] for t in text.split())


def error_of(text, rules=None):
    with pytest.raises(PositionError) as info:
        parse_position(text, rules)
    return str(info.value)


def plain(text):
    """The text with trailing blanks stripped from each line (see test_empty_column_has_nothing_after_colon)."""
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def assert_round_trip(pos, rules):
    text = format_position(pos, rules)
    parsed = parse_position(text)
    assert parsed.position == pos
    assert parsed.rules == rules
    assert format_position(parsed.position, parsed.rules) == text


# --------------------------------------------------------------------------
# Round trips


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC, SCORPION2], ids=lambda r: r.name)
@pytest.mark.parametrize("number", [1, 5, 617, 31999, 32000, 10**6])
def test_round_trip_fresh_deals(number, rules):
    assert_round_trip(deal(number, rules), rules)


def test_round_trip_without_mode_line_is_clear():
    parsed = parse_position(format_position(deal(3)))
    assert parsed.rules == CLEAR
    assert parsed.position == deal(3)


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=lambda r: r.name)
def test_round_trip_mid_game_positions(rules):
    """Every position along seeded random playouts of deals 1-20 reads back unchanged."""
    checked = tail_dealt = with_empty = 0
    for number in range(1, 21):
        rng = random.Random(number)
        pos = deal(number, rules)
        for _ in range(60):
            moves = legal_moves(pos, rules)
            if not moves:
                break
            pos = apply_move(pos, rng.choice(moves), rules)
            assert_round_trip(pos, rules)
            checked += 1
            tail_dealt += pos.tail_dealt
            with_empty += any(not c for c in pos.columns)
    # The playouts really reach dealt tails and empty columns.
    assert checked > 300 and tail_dealt > 100 and with_empty > 20


CLEAR_SWEPT = """\
col1: 5C* KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col2: AH
col3: KC QC JC TC 9C 8C 7C 6C 4C 3C 2C AC
col4:
col5:
col6:
col7:
tail: -
"""


def test_round_trip_empty_columns_dealt_tail_and_swept_suits():
    parsed = read(CLEAR_SWEPT)
    pos = parsed.position
    assert pos.columns[3:] == ((), (), (), ())
    assert pos.tail == () and pos.tail_dealt
    assert pos.hidden == (1, 0, 0, 0, 0, 0, 0)
    assert pos.swept_suits() == [SUITS.index("S"), SUITS.index("D")]
    assert plain(format_position(pos)) == CLEAR_SWEPT
    assert_round_trip(pos, CLEAR)


def test_round_trip_empty_columns_before_the_tail():
    text = """\
col1:
col2: KS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS 2H
col3:
col4: KH QH JH TH 9H 8H 7H 6H 5H 4H
col5:
col6:
col7:
tail: AH 3H QS
"""
    pos = read(text).position
    assert pos.tail == cards("AH 3H QS")
    assert [len(c) for c in pos.columns] == [0, 13, 0, 10, 0, 0, 0]
    assert plain(format_position(pos)) == text
    assert_round_trip(pos, CLEAR)


CLASSIC_FROZEN = f"""\
mode: classic
col1: 7D {RUN["S"]} 5D
col2: KD QD JD TD 9D 8D 6D
col3: 4D 3D 2D AD
col4: {RUN["C"]}
col5: {RUN["H"]}
col6:
col7:
tail: -
frozen: S
"""


def test_round_trip_frozen_covered_run_in_classic():
    parsed = read(CLASSIC_FROZEN)
    assert parsed.rules == CLASSIC
    pos = parsed.position
    assert pos.frozen == frozenset({SUITS.index("S"), SUITS.index("C"), SUITS.index("H")})
    # Only the covered run needs the frozen: line; runs on top are frozen by the reader.
    assert plain(format_position(pos, CLASSIC)) == CLASSIC_FROZEN
    assert_round_trip(pos, CLASSIC)


def test_covered_run_without_frozen_line_is_not_frozen():
    pos = read(CLASSIC_FROZEN.replace("frozen: S\n", "")).position
    assert pos.frozen == frozenset({SUITS.index("C"), SUITS.index("H")})
    assert "frozen:" not in format_position(pos, CLASSIC)
    assert_round_trip(pos, CLASSIC)


def test_round_trip_classic_frozen_run_under_a_tail_card():
    text = f"""\
mode: classic
col1: {RUN["S"]} 9C
col2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H 4C
col3: {RUN["D"]} AH
col4: KC QC JC TC 8C 7C 6C 5C 3C 2C AC
col5:
col6:
col7:
tail: -
frozen: S D
"""
    pos = read(text).position
    assert pos.frozen == frozenset({SUITS.index("S"), SUITS.index("D")})
    assert plain(format_position(pos, CLASSIC)) == text
    assert_round_trip(pos, CLASSIC)


def test_empty_column_has_nothing_after_colon():
    assert format_position(read(CLEAR_SWEPT).position) == CLEAR_SWEPT
    assert str(read(CLEAR_SWEPT).position).splitlines()[3] == "col4:"


# --------------------------------------------------------------------------
# What the reader accepts


def test_accepts_ten_lower_case_tail_stars_and_comments():
    variant = """\
# deal 1, written loosely
mode: clear   # the default anyway

col1: jd* 5h* kh* as 4h 10h 8d
COL2: 2D* KD* 3H* AH AC 8H QS     # col2 in capitals
col3: 9H* KC* 2S* 3C 4D 2C 6C
  col4:   JC*  9S*  KS*  4C 7S JH 3D
col5: 5D 5S 9D 5C 3S 7D 8C
col6: 7H AD QD 10s Td 6D 10C
col7: 7C QC JS QH 4S 8S 6S
Tail: 9C* 2h* 6H     # '*' on tail cards means nothing
"""
    parsed = read(variant)
    assert parsed.position == deal(1)
    assert parsed.rules == CLEAR


def test_accepts_windows_line_endings():
    assert read(DEAL_1.replace("\n", "\r\n") + "\r\n").position == deal(1)


def test_lines_in_any_order():
    lines = DEAL_1.splitlines()
    assert read("\n".join(reversed(lines))).position == deal(1)


def test_mode_line_selects_rules_and_argument_overrides_it():
    assert read("mode: classic\n" + DEAL_1).rules == CLASSIC
    assert read("mode: Classic\n" + DEAL_1).rules == CLASSIC
    assert read("mode: classic\n" + DEAL_1, CLEAR).rules == CLEAR
    assert read(DEAL_1, CLASSIC).rules == CLASSIC
    assert read(DEAL_1).rules == CLEAR


def test_frozen_line_is_ignored_when_runs_are_swept():
    parsed = read(DEAL_1 + "\nfrozen: S H\n")
    assert parsed.position == deal(1)
    assert parsed.position.frozen == frozenset()


# --------------------------------------------------------------------------
# Normalisations the reader documents


@pytest.mark.parametrize(
    "old, new, problem",
    [
        # issue 17 item 8: positions no deal can reach are refused, naming the line
        (
            "col5: 5D 5S 9D 5C 3S 7D 8C",
            "col5: 5D* 5S* 9D* 5C* 3S* 7D* 8C",
            r"line 5: col5: 6 face-down cards, but clear deals no card",
        ),
        (
            "col6: 7H AD QD TS TD 6D TC",
            "col6: 7H* AD QD TS TD 6D TC",
            r"line 6: col6: 1 face-down cards, but clear deals no card",
        ),
        (
            "col1: JD* 5H* KH* AS 4H TH 8D",
            "col1: JD* 5H* KH* AS* 4H TH 8D",
            r"line 1: col1: 4 face-down cards, but clear deals 3 cards",
        ),
        (
            "col5: 5D 5S 9D 5C 3S 7D 8C",
            "col5: 5D* 5S* 9D* 5C* 3S* 7D* 8C*",
            r"line 5: col5: every card is face down.*write 8C without",
        ),
        (
            "col1: JD* 5H* KH* AS 4H TH 8D",
            "col1: JD* 5H* KH* AS* 4H* TH* 8D*",
            r"line 1: col1: every card is face down",
        ),
    ],
)
def test_unreachable_face_down_cards_are_refused(old, new, problem):
    with pytest.raises(PositionError, match=problem):
        read(DEAL_1.replace(old, new))


def test_face_down_limit_follows_the_rules():
    text = DEAL_1.replace("col4: JC* 9S* KS* 4C 7S JH 3D", "col4: JC* 9S* KS* 4C 7S JH 3D")
    assert read(text).position == deal(1)
    with pytest.raises(PositionError, match=r"col4: 3 face-down cards, but scorpion2 deals no card"):
        read(text, SCORPION2)


def test_three_face_down_cards_under_a_face_up_one_are_accepted():
    text = DEAL_1.replace("col1: JD* 5H* KH* AS 4H TH 8D", "col1: JD* 5H* KH*").replace(
        "col7: 7C QC JS QH 4S 8S 6S", "col7: 7C QC JS QH 4S 8S 6S AS 4H TH 8D"
    )
    with pytest.raises(PositionError, match=r"col1: every card is face down.*write KH without"):
        read(text)
    pos = read(text.replace("KH*", "KH")).position
    assert pos.hidden[0] == 2


def test_complete_top_run_is_swept_in_clear():
    text = f"""\
col1: 5C* {RUN["H"]}
col2:
col3: KC QC JC TC 9C 8C 7C 6C 4C 3C 2C AC
col4:
col5:
col6:
col7:
tail: -
"""
    pos = read(text).position
    assert pos.columns[0] == cards("5C")
    assert pos.hidden[0] == 0  # the card under the swept run turned up
    assert (
        plain(str(pos))
        == "col1: 5C\ncol2:\ncol3: KC QC JC TC 9C 8C 7C 6C 4C 3C 2C AC\ncol4:\ncol5:\ncol6:\ncol7:\ntail: -\n"
    )


def test_stacked_complete_runs_are_both_swept_in_clear():
    text = f"""\
col1: {RUN["S"]} {RUN["H"]}
col2: {RUN["C"]} 9D
col3: KD QD JD TD 8D 7D 6D 5D 4D 3D 2D AD
col4:
col5:
col6:
col7:
tail: -
"""
    pos = read(text).position
    assert pos.columns[0] == ()
    assert pos.columns[1] == cards(RUN["C"] + " 9D")  # covered run stays
    assert pos.swept_suits() == [SUITS.index("S"), SUITS.index("H")]


CLASSIC_TOP_RUN = f"""\
col1: 5C* {RUN["H"]}
col2: {RUN["S"]}
col3: KC QC JC TC 9C 8C 7C 6C 4C 3C 2C AC
col4: {RUN["D"]}
col5:
col6:
col7:
tail: -
"""


def test_complete_top_run_is_frozen_in_classic():
    pos = read(CLASSIC_TOP_RUN, CLASSIC).position
    assert pos.frozen == frozenset({SUITS.index("H"), SUITS.index("S"), SUITS.index("D")})
    assert pos.hidden[0] == 1
    assert pos.columns[0] == cards("5C " + RUN["H"])


def test_same_text_read_in_clear_sweeps_instead():
    pos = read(CLASSIC_TOP_RUN, CLEAR).position
    assert pos.frozen == frozenset()
    assert pos.columns[:4] == (cards("5C"), (), cards("KC QC JC TC 9C 8C 7C 6C 4C 3C 2C AC"), ())
    assert pos.hidden == (0,) * 7


# --------------------------------------------------------------------------
# Rejections: one test per problem, each naming the line and the problem


def test_error_duplicate_card():
    message = error_of(DEAL_1.replace("col3: 9H*", "col3: 8D*"))
    assert message == "position, line 3: 8D appears twice (col1 and col3)"


def test_error_duplicate_card_in_tail():
    message = error_of(DEAL_1.replace("tail: 9C 2H 6H", "tail: 9C 2H 8D"))
    assert "line 8" in message and "8D appears twice (col1 and tail)" in message


def test_error_missing_cards_not_whole_suits():
    message = error_of(DEAL_1.replace(" 6S\n", "\n"))
    # A missing card lies on no line; the message names the cards and the problem.
    assert message.startswith("position: ")
    assert "cards missing: 6S" in message and "whole" in message


def test_error_missing_cards_lists_every_missing_card_of_a_partial_suit():
    text = """\
col1: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H
col2:
col3:
col4:
col5:
col6:
col7:
tail: -
"""
    message = error_of(text)
    assert "cards missing: AH 2H (" in message


def test_error_unknown_token():
    message = error_of(DEAL_1.replace("QS", "ZZ"))
    assert message.startswith("position, line 2: col2: 'ZZ' is not a card")


@pytest.mark.parametrize("token", ["1S", "KX", "K", "KSS", "11H", "*KS", "-"])
def test_error_unknown_tokens_in_column(token):
    message = error_of(DEAL_1.replace("col5: 5D 5S", f"col5: {token} 5D 5S"))
    assert message.startswith(f"position, line 5: col5: '{token}' is not a card")


def test_error_unknown_token_in_tail():
    message = error_of(DEAL_1.replace("tail: 9C 2H 6H", "tail: 9C 2H 6X"))
    assert message.startswith("position, line 8: tail: '6X' is not a card")


def test_error_face_down_above_face_up():
    message = error_of(DEAL_1.replace("AS 4H", "AS 4H*"))
    assert message == "position, line 1: col1: face-down card 4H* lies above face-up card AS"


@pytest.mark.parametrize("tail, count", [("9C 2H", 2), ("9C 2H 6H 8C", 4), ("", 0)])
def test_error_wrong_tail_count(tail, count):
    text = DEAL_1.replace("tail: 9C 2H 6H", f"tail: {tail}")
    if count == 4:
        text = text.replace("col5: 5D 5S 9D 5C 3S 7D 8C", "col5: 5D 5S 9D 5C 3S 7D")
    message = error_of(text)
    assert message == f"position, line 8: the tail holds 3 cards (or '-' once dealt), got {count}"


def test_error_unknown_line_key():
    message = error_of(DEAL_1 + "\nfoo: 1")
    assert message.startswith("position, line 9: unknown line 'foo:'")


def test_error_column_number_out_of_range():
    message = error_of(DEAL_1 + "\ncol8:")
    assert message.startswith("position, line 9: unknown line 'col8:'")


def test_error_line_without_key():
    message = error_of("col1\n" + DEAL_1)
    assert message.startswith("position, line 1: expected 'colN: cards'")


def test_error_repeated_line():
    message = error_of(DEAL_1 + "\ncol1:")
    assert message == "position, line 9: 'col1' given twice (first on line 1)"


def test_error_repeated_tail_line():
    message = error_of(DEAL_1 + "\ntail: -")
    assert message == "position, line 9: 'tail' given twice (first on line 8)"


def test_error_missing_column_line():
    text = "\n".join(line for line in DEAL_1.splitlines() if not line.startswith("col4"))
    message = error_of(text)
    assert message.startswith("position: no line for col4")


def test_error_missing_tail_line():
    text = "\n".join(line for line in DEAL_1.splitlines() if not line.startswith("tail"))
    message = error_of(text)
    assert message.startswith("position: no 'tail:' line")


def test_error_classic_with_cards_missing():
    message = error_of(DEAL_1.replace(" 6S\n", "\n"), CLASSIC)
    assert message.startswith("position: cards missing: 6S")
    assert "classic" in message


def test_error_classic_with_whole_suit_missing():
    # A complete suit off the table is a swept run: impossible in classic.
    message = error_of(CLEAR_SWEPT, CLASSIC)
    assert message.startswith("position: cards missing: AS 2S 3S")
    assert "classic" in message


def test_error_frozen_suit_not_lying_as_a_run():
    message = error_of("mode: classic\n" + DEAL_1 + "\nfrozen: S")
    assert message == "position, line 10: frozen: suit S does not lie as a face-up King-to-Ace run"


def test_error_frozen_line_with_bad_suit():
    message = error_of(DEAL_1 + "\nfrozen: X")
    assert message.startswith("position, line 9: frozen: 'X' is not a suit")


def test_error_unknown_mode():
    message = error_of("mode: bogus\n" + DEAL_1)
    assert message.startswith("position, line 1: unknown rules 'bogus'")


def test_error_names_the_source():
    with pytest.raises(PositionError, match=r"^game\.txt, line 1: col1: face-down card"):
        parse_position(DEAL_1.replace("AS 4H", "AS 4H*"), source="game.txt")


def test_position_error_is_a_value_error():
    assert issubclass(PositionError, ValueError)


def test_position_is_hashable_and_compares_by_value():
    a, b = read(DEAL_1).position, deal(1)
    assert a == b and hash(a) == hash(b)
    assert isinstance(a, Position)
