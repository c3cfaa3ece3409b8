"""The reference engine, one rule edge case per test (docs/rules.md, "Moves", "The two modes").

Positions are hand-built in the text format. In Clear runs mode whole suits may
be left out (they count as swept), which keeps the positions small; classic
positions hold all 52 cards.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from perft_table import TABLE, check_perft, read_table

from scorpion_solver import CLASSIC, CLEAR, deal, is_lost, is_won, legal_moves, parse_position, perft
from scorpion_solver.game.cards import SUITS, parse_card
from scorpion_solver.game.engine import (
    TAIL,
    Move,
    MoveError,
    apply_move,
    move_text,
    moves_text,
    parse_move,
    parse_moves,
    perft_divide,
    play,
    replay,
)

RUN = {s: " ".join(r + s for r in "KQJT98765432A") for s in SUITS}


def pos(text, rules=CLEAR):
    """A synthetic position: face-down cards where no deal puts them are allowed here."""
    return parse_position(text, rules, reachable=False).position


def moves(p, rules=CLEAR):
    return moves_text(legal_moves(p, rules))


def after(p, token, rules=CLEAR):
    """Play one move given in notation, checking it is legal."""
    return play(p, parse_move(token), rules)


def suit(letter):
    return SUITS.index(letter)


def card(token):
    return parse_card(token)[0]


# --------------------------------------------------------------------------
# Build moves and riders


RIDERS = """\
col1: 5S 9H 2S QH
col2: 6S
col3: AS 3S 4S
col4: KS QS JS TS 9S 8S 7S
col5: KH JH TH 8H 7H 6H 5H 4H 3H 2H AH
col6:
col7:
tail: -
"""


def test_unordered_riders_move_with_their_leader():
    p = pos(RIDERS)
    # JH leads TH..AH onto QH; 5S carries 9H 2S QH; 6S is a whole column building on 7S.
    # 3S could only build on 4S in its own column; whole columns never relocate once the tail is dealt.
    assert moves(p) == "JH:5>1 5S:1>2 6S:2>4"
    assert after(p, "5S:1>2") == pos("""\
col1:
col2: 6S 5S 9H 2S QH
col3: AS 3S 4S
col4: KS QS JS TS 9S 8S 7S
col5: KH JH TH 8H 7H 6H 5H 4H 3H 2H AH
col6:
col7:
tail: -
""")


def test_only_the_bottom_card_of_the_group_is_checked():
    p = after(pos(RIDERS), "JH:5>1")
    assert p.columns[0] == tuple(card(t) for t in "5S 9H 2S QH JH TH 8H 7H 6H 5H 4H 3H 2H AH".split())
    assert p.columns[4] == (card("KH"),)
    # QH now lies in the middle of column 1, yet it leads everything above it back onto KH;
    # KH alone is a whole column and does not move into the space.
    assert moves(p) == "5S:1>2 6S:2>4 QH:1>5"


def test_nothing_builds_on_an_ace():
    # Card numbers make KC = AS - 1: without the Ace rule KC would "build" on AS.
    p = pos("""\
col1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AS
col2: 2S KC
col3: QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
col4:
col5:
col6:
col7:
tail: -
""")
    assert moves(p) == "QC:3>2 KC:2>4"
    with pytest.raises(MoveError, match="KC does not build on AS"):
        play(p, Move(card("KC"), 1, 0))


def test_no_rank_wraps_king_onto_ace_of_next_suit():
    # KS + 1 = AH as card numbers; a King builds on nothing.
    p = pos("""\
col1: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col2: 4S AH
col3: 3S KS QS JS TS 9S 8S 7S 6S 5S 2S AS
col4:
col5:
col6:
col7:
tail: -
""")
    # AH builds on 2H; KS leads into the empty column; nothing onto AH, AS.
    assert moves(p) == "AH:2>1 KS:3>4"
    with pytest.raises(MoveError, match="KS does not build on AH"):
        play(p, Move(card("KS"), 2, 1))


def test_face_down_cards_never_move_and_nothing_lands_on_them():
    p = pos("""\
col1: 5H* 4H
col2: KH QH JH TH 9H 8H 7H 6H
col3: 3H 2H AH
col4:
col5:
col6:
col7:
tail: -
""")
    # 3H builds on 4H (carrying 2H AH); 5H is face down: it neither leads onto 6H
    # nor does anything land on it.
    assert moves(p) == "3H:3>1"
    with pytest.raises(MoveError, match="5H is face down"):
        play(p, Move(card("5H"), 0, 1))


# --------------------------------------------------------------------------
# Spaces


KING_SPACE = """\
col1: 3H KH 5H
col2: 7H 6H
col3:
col4: QH JH TH 9H 8H 4H 2H AH
col5:
col6:
col7:
tail: -
"""


def test_only_a_king_moves_into_a_space():
    p = pos(KING_SPACE)
    assert moves(p) == "4H:4>1 5H:1>2 KH:1>3"
    assert after(p, "KH:1>3") == pos(KING_SPACE.replace("col1: 3H KH 5H", "col1: 3H").replace("col3:", "col3: KH 5H"))


@pytest.mark.parametrize("token", ["5H:1>3", "6H:2>3", "QH:4>3", "3H:1>3"])
def test_non_king_is_refused_by_a_space(token):
    with pytest.raises(MoveError, match="only a King may move into an empty column"):
        after(pos(KING_SPACE), token)


def test_one_move_into_interchangeable_empty_columns_after_the_tail():
    p = pos("""\
col1: 3H KH
col2:
col3: QH JH TH 9H 8H 7H 6H 5H 4H 2H AH
col4:
col5:
col6:
col7:
tail: -
""")
    # Once the tail is dealt all empty columns are alike: only the leftmost is offered.
    assert moves(p) == "QH:3>1 KH:1>2"
    with pytest.raises(MoveError):
        after(p, "KH:1>5")


BEFORE_TAIL_SPACES = """\
col1:
col2:
col3: 3H KH
col4: QH JH TH 9H 8H 7H 6H 5H 4H
col5:
col6:
col7: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
tail: AH 2H AS
"""


def test_before_the_tail_columns_1_to_3_are_each_distinct():
    p = pos(BEFORE_TAIL_SPACES)
    # Columns 1 and 2 each get their own moves; of 5 and 6 only 5. KS (a whole
    # column in 7) may move into 1 or 2 but not into 5.
    assert moves(p) == "KH:3>1 KS:7>1 KH:3>2 KS:7>2 QH:4>3 3H:3>4 KH:3>5 tail"
    with pytest.raises(MoveError):
        after(p, "KH:3>6")
    with pytest.raises(MoveError, match="relocating a whole column changes nothing"):
        after(p, "KS:7>5")


# --------------------------------------------------------------------------
# Whole-column relocation


def test_no_relocation_once_the_tail_is_dealt():
    p = pos("""\
col1: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col2:
col3: AH
col4:
col5:
col6:
col7:
tail: -
""")
    # KH is a whole column: moving it to an empty column changes nothing.
    assert moves(p) == "AH:3>1"
    with pytest.raises(MoveError, match="relocating a whole column changes nothing"):
        after(p, "KH:1>2")


def test_no_relocation_between_columns_4_to_7_before_the_tail():
    p = pos("""\
col1: 2S
col2: 4S
col3: 6S
col4: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col5:
col6:
col7: KS QS JS TS 9S 8S 7S 5S
tail: AS AH 3S
""")
    assert moves(p) == "5S:7>3 4S:2>7 tail"


def test_relocation_out_of_columns_1_to_3_before_the_tail():
    p = pos("""\
col1: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col2: 2S
col3: 4S
col4: 6S
col5:
col6: KS QS JS TS 9S 8S 7S 5S
col7:
tail: AS AH 3S
""")
    # KH (col1) may move to a space in 4-7, which changes where the tail lands; KS (col6) may not.
    assert moves(p) == "5S:6>4 KH:1>5 4S:3>6 tail"
    q = after(p, "KH:1>5")
    assert q.columns[0] == () and q.columns[4][0] == card("KH")
    assert str(apply_move(q, TAIL)).splitlines()[:3] == ["col1: AS", "col2: 2S AH", "col3: 4S 3S"]


def test_relocation_into_columns_1_to_3_before_the_tail():
    p = pos("""\
col1: 2S
col2:
col3: 4S
col4: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col5: 6S
col6: KS QS JS TS 9S 8S 7S 5S
col7:
tail: AS AH 3S
""")
    assert moves(p) == "KH:4>2 KS:6>2 5S:6>5 4S:3>6 tail"


# --------------------------------------------------------------------------
# The tail


def test_tail_onto_an_empty_column():
    p = apply_move(pos(BEFORE_TAIL_SPACES), TAIL)
    assert p == pos("""\
col1: AH
col2: 2H
col3: 3H KH AS
col4: QH JH TH 9H 8H 7H 6H 5H 4H
col5:
col6:
col7: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
tail: -
""")
    assert p.hidden == (0,) * 7  # tail cards land face up


def test_tail_only_once():
    p = apply_move(pos(BEFORE_TAIL_SPACES), TAIL)
    assert "tail" not in moves(p).split()
    with pytest.raises(MoveError, match="already been dealt"):
        play(p, TAIL)


TAIL_RUN_CLEAR = """\
col1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
col2: 5H
col3:
col4: KH QH JH TH 9H 8H 7H 6H 4H 3H
col5:
col6:
col7:
tail: AS AH 2H
"""


def test_tail_completing_a_run_is_swept_in_clear():
    p = pos(TAIL_RUN_CLEAR)
    # Before the tail, column 3 is a space of its own: KS (col1) and KH (col4) may each
    # move there; of the interchangeable spaces 5-7 only 5 is offered, and only to KS.
    assert moves(p) == "4H:4>2 KS:1>3 KH:4>3 KS:1>5 tail"
    q = play(p, TAIL)
    assert q == pos("""\
col1:
col2: 5H AH
col3: 2H
col4: KH QH JH TH 9H 8H 7H 6H 4H 3H
col5:
col6:
col7:
tail: -
""")
    assert q.swept_suits() == [suit("C"), suit("S"), suit("D")]


CLASSIC_STUCK = f"""\
col1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
col2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H
col3: {RUN["C"]}
col4: {RUN["D"]}
col5:
col6:
col7:
tail: AS 2H AH
"""


def test_classic_tail_allowed_when_only_relocations_remain():
    p = pos(CLASSIC_STUCK, CLASSIC)
    # KS and KH are whole columns in 1-3: they may move to a space (the tail would land
    # elsewhere), but such relocations never keep the tail locked. KC, KD are frozen.
    assert moves(p, CLASSIC) == "KS:1>5 KH:2>5 tail"


def test_tail_completing_a_run_is_frozen_in_classic():
    p = play(pos(CLASSIC_STUCK, CLASSIC), TAIL, CLASSIC)
    assert p == pos(
        f"""\
col1: {RUN["S"]}
col2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col3: {RUN["C"]} AH
col4: {RUN["D"]}
col5:
col6:
col7:
tail: -
frozen: C
""",
        CLASSIC,
    )
    assert p.frozen == frozenset({suit("S"), suit("C"), suit("D")})
    # Only the tail card on the frozen clubs moves; it completes hearts and wins.
    assert moves(p, CLASSIC) == "AH:3>2"
    won = after(p, "AH:3>2", CLASSIC)
    assert is_won(won, CLASSIC)
    assert won.frozen == frozenset(range(4))
    assert legal_moves(won, CLASSIC) == []


CLASSIC_LOCK = f"""\
col1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
col2: 5H
col3: {RUN["C"]}
col4: KH QH JH TH 9H 8H 7H 6H 4H 3H
col5: {RUN["D"]}
col6:
col7:
tail: AS AH 2H
"""


def test_classic_tail_locked_while_a_move_exists():
    p = pos(CLASSIC_LOCK, CLASSIC)
    assert moves(p, CLASSIC) == "4H:4>2 KS:1>6"
    with pytest.raises(MoveError, match="only when no other move exists"):
        play(p, TAIL, CLASSIC)
    q = after(p, "4H:4>2", CLASSIC)
    assert moves(q, CLASSIC) == "5H:2>4 KS:1>6"
    # After the last build only whole-column relocations are left: the tail unlocks.
    r = after(q, "5H:2>4", CLASSIC)
    assert moves(r, CLASSIC) == "KS:1>2 KH:4>2 KS:1>6 tail"


def test_same_text_in_clear_sweeps_and_offers_the_tail():
    p = pos(CLASSIC_LOCK)
    assert p == pos(TAIL_RUN_CLEAR)
    assert moves(p) == "4H:4>2 KS:1>3 KH:4>3 KS:1>5 tail"


def test_classic_tail_is_the_only_move_when_stuck():
    p = pos(
        f"""\
col1: KS QS JS TS 9S 8S 2S
col2: KH QH JH TH 9H 8H 7H 3H
col3: {RUN["C"]}
col4: {RUN["D"]}
col5: 6S* 3S 5S 4S
col6: 4H 6H 5H
col7: 7S
tail: AS 2H AH
""",
        CLASSIC,
    )
    # Each top waits for a tail card, for a card in its own column, or for the face-down 6S.
    assert moves(p, CLASSIC) == "tail"
    q = play(p, TAIL, CLASSIC)
    assert q == pos(
        f"""\
col1: KS QS JS TS 9S 8S 2S AS
col2: KH QH JH TH 9H 8H 7H 3H 2H
col3: {RUN["C"]} AH
col4: {RUN["D"]}
col5: 6S* 3S 5S 4S
col6: 4H 6H 5H
col7: 7S
tail: -
frozen: C
""",
        CLASSIC,
    )
    assert moves(q, CLASSIC) == "AH:3>2"


# --------------------------------------------------------------------------
# Sweeps (Clear runs)


def test_one_move_sweeps_two_runs_in_two_columns():
    p = pos(f"""\
col1: {RUN["S"]} AH
col2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col3: {RUN["C"].replace(" 2C", "")} 9D 2C
col4: KD QD JD TD 8D 7D 6D 5D 4D 3D 2D AD
col5:
col6:
col7:
tail: -
""")
    # Every King is a whole column and the tail is dealt: AH is the only move.
    assert moves(p) == "AH:1>2"
    q = after(p, "AH:1>2")
    # Hearts complete in the destination, spades exposed in the source: both swept.
    assert q.columns[0] == () and q.columns[1] == ()
    assert q.swept_suits() == [suit("S"), suit("H")]
    assert not is_won(q)


def test_one_move_sweeps_two_stacked_runs_in_one_column():
    p = pos(f"""\
col1: {RUN["S"]} KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col2: AH
col3: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C AC 2C
col4:
col5:
col6:
col7:
tail: -
""")
    assert moves(p) == "AH:2>1 KH:1>4"
    q = after(p, "AH:2>1")
    assert q == pos("""\
col1:
col2:
col3: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C AC 2C
col4:
col5:
col6:
col7:
tail: -
""")
    assert q.swept_suits() == [suit("S"), suit("H"), suit("D")]


def test_a_sweep_exposing_a_face_down_card_flips_it():
    p = pos("""\
col1: 5C* KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col2: AH
col3: KC QC JC TC 9C 8C 7C 6C 4C 3C 2C AC
col4:
col5:
col6:
col7:
tail: -
""")
    assert p.hidden == (1, 0, 0, 0, 0, 0, 0)
    assert moves(p) == "AH:2>1 KH:1>4"
    q = after(p, "AH:2>1")
    assert q.columns[0] == (card("5C"),)
    assert q.hidden == (0,) * 7
    # The flipped 5C is an ordinary face-up card now: 4C (with 3C 2C AC) builds on it.
    assert moves(q) == "4C:3>1"


def test_a_move_exposing_a_face_down_card_flips_it():
    p = pos("""\
col1: 5C* KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col2: AH
col3: KC QC JC TC 9C 8C 7C 6C 4C 3C 2C AC
col4:
col5:
col6:
col7:
tail: -
""")
    q = after(p, "KH:1>4")
    assert q.columns[0] == (card("5C"),) and q.hidden[0] == 0


def test_moving_riders_away_sweeps_the_run_beneath():
    p = pos(f"""\
col1: 9D* {RUN["S"]} 4D
col2: 5D
col3: KD QD JD TD 8D 7D 6D 3D 2D AD
col4:
col5:
col6:
col7:
tail: -
""")
    q = after(p, "4D:1>2")
    assert q.columns[0] == (card("9D"),) and q.hidden[0] == 0
    assert q.swept_suits() == [suit("C"), suit("S"), suit("H")]


# --------------------------------------------------------------------------
# Classic: frozen runs


CLASSIC_COVERED = f"""\
col1: 7D {RUN["S"]} 5D
col2: KD QD JD TD 9D 8D 6D
col3: 4D 3D 2D AD
col4: {RUN["C"]}
col5: {RUN["H"]}
col6:
col7:
tail: -
"""


def test_classic_covered_run_is_not_frozen_until_exposed():
    p = pos(CLASSIC_COVERED, CLASSIC)
    assert p.frozen == frozenset({suit("C"), suit("H")})
    # The spade run is covered by 5D: not complete yet, so KS may still lead a group.
    assert moves(p, CLASSIC) == "4D:3>1 5D:1>2 KS:1>6"
    q = after(p, "5D:1>2", CLASSIC)
    assert q.frozen == frozenset({suit("S"), suit("C"), suit("H")})
    # Now the spades and the 7D beneath them never move.
    assert moves(q, CLASSIC) == "4D:3>2"
    with pytest.raises(MoveError, match="in or under a frozen run"):
        after(q, "KS:1>6", CLASSIC)


def test_classic_frozen_covered_run_listed_on_frozen_line():
    p = pos(CLASSIC_COVERED + "frozen: S\n", CLASSIC)
    assert moves(p, CLASSIC) == "4D:3>1 5D:1>2"


def test_classic_cards_beneath_a_frozen_run_never_move():
    p = pos(
        f"""\
col1: 5D {RUN["S"]}
col2: KD QD JD TD 9D 8D 7D 6D
col3: 4D 3D 2D AD
col4: {RUN["C"]}
col5: {RUN["H"]}
col6:
col7:
tail: -
""",
        CLASSIC,
    )
    # 5D would build on 6D, but it lies under the frozen spades.
    assert legal_moves(p, CLASSIC) == []
    assert is_lost(p, CLASSIC) and not is_won(p, CLASSIC)
    with pytest.raises(MoveError, match="5D is in or under a frozen run"):
        after(p, "5D:1>2", CLASSIC)


def test_classic_won_with_stacked_runs():
    p = pos(
        f"""\
col1: {RUN["S"]} {RUN["H"]}
col2: {RUN["C"]}
col3: {RUN["D"]}
col4:
col5:
col6:
col7:
tail: -
""",
        CLASSIC,
    )
    assert is_won(p, CLASSIC)
    assert not is_lost(p, CLASSIC)
    assert legal_moves(p, CLASSIC) == []
    assert perft(p, 1, CLASSIC) == 0


def test_classic_not_won_with_a_face_down_run_card():
    p = pos(
        f"""\
col1: KS* {RUN["S"][3:]}
col2: {RUN["H"]}
col3: {RUN["C"]}
col4: {RUN["D"]}
col5:
col6:
col7:
tail: -
""",
        CLASSIC,
    )
    assert not is_won(p, CLASSIC)


def test_clear_won_position_has_no_moves():
    p = pos("col1:\ncol2:\ncol3:\ncol4:\ncol5:\ncol6:\ncol7:\ntail: -\n")
    assert is_won(p) and not is_lost(p)
    assert legal_moves(p) == []
    assert perft(p, 3) == 0


def test_clear_last_sweep_wins():
    p = pos("""\
col1: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col2: AH
col3:
col4:
col5:
col6:
col7:
tail: -
""")
    assert moves(p) == "AH:2>1"
    q = after(p, "AH:2>1")
    assert is_won(q) and legal_moves(q) == []


# --------------------------------------------------------------------------
# Notation and replay


def test_move_notation():
    assert parse_move("6C:5>2") == Move(card("6C"), 4, 1)
    assert parse_move("KS:3>4") == Move(card("KS"), 2, 3)
    assert parse_move("10h:1>7") == Move(card("TH"), 0, 6)
    assert parse_move("tail") == TAIL and parse_move("TAIL") == TAIL
    assert move_text(Move(card("TH"), 0, 6)) == "TH:1>7"
    assert move_text(TAIL) == "tail"
    assert str(Move(card("6C"), 4, 1)) == "6C:5>2"
    assert parse_moves(" 6C:5>2  tail\nKS:3>4 ") == [Move(card("6C"), 4, 1), TAIL, Move(card("KS"), 2, 3)]


@pytest.mark.parametrize(
    "token", ["6C:0>2", "6C:5>11", "6C*:5>2", "6C5>2", "6C:5-2", "XX:1>2", "", "tails", "6C:5>2>3"]
)
def test_bad_move_tokens(token):
    with pytest.raises(MoveError, match="is not a move"):
        parse_move(token)


@pytest.mark.parametrize("number", [1, 5, 33, 37])
@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=lambda r: r.name)
def test_parse_move_inverts_move_text(number, rules):
    p = deal(number, rules)
    seen = 0
    for _ in range(30):
        legal = legal_moves(p, rules)
        if not legal:
            break
        for m in legal:
            assert parse_move(move_text(m)) == m
            seen += 1
        p = apply_move(p, legal[-1] if len(legal) < 3 else legal[1], rules)
    assert seen > 10


def test_deal_1_first_moves():
    assert moves(deal(1)) == "7D:5>1 JS:7>2 5C:5>3 7C:7>5 5S:5>7 tail"
    assert moves(deal(1), CLASSIC) == "7D:5>1 JS:7>2 5C:5>3 7C:7>5 5S:5>7"


def test_replay_legal_moves():
    # 7D carries 8C, JS carries QH 4S 8S 6S; then the tail lands on 8C, 6S and 6C.
    final = replay(deal(1), parse_moves("7D:5>1 JS:7>2 tail"))
    assert (
        str(final)
        == """\
col1: JD* 5H* KH* AS 4H TH 8D 7D 8C 9C
col2: 2D* KD* 3H* AH AC 8H QS JS QH 4S 8S 6S 2H
col3: 9H* KC* 2S* 3C 4D 2C 6C 6H
col4: JC* 9S* KS* 4C 7S JH 3D
col5: 5D 5S 9D 5C 3S
col6: 7H AD QD TS TD 6D TC
col7: 7C QC
tail: -"""
    )


def test_replay_names_the_first_illegal_move():
    with pytest.raises(MoveError) as info:
        replay(deal(1), parse_moves("7D:5>1 JS:7>2 5C:5>1 tail"))
    assert str(info.value) == "move 3: 5C:5>1 is not legal here: 5C does not build on 8C (same suit, one rank up)"
    with pytest.raises(MoveError, match=r"^move 2: tail is not legal here: the tail has already been dealt"):
        replay(deal(1), parse_moves("tail tail"))
    with pytest.raises(MoveError, match=r"^move 1: tail is not legal here: in this mode"):
        replay(deal(1), parse_moves("tail"), CLASSIC)


def test_replay_of_nothing_is_the_start():
    assert replay(deal(7), []) == deal(7)


# --------------------------------------------------------------------------
# perft (tests/data/perft.txt: docs/rules.md's table for deal 1, and its divides)


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=lambda r: r.name)
def test_perft_deal_1(rules, depth):
    check_perft(TABLE[rules.name], depth, perft(deal(1), depth, rules), perft_divide)


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=lambda r: r.name)
def test_perft_deal_1_depth_6(rules):
    # Fast enough (well under a second) to run by default.
    check_perft(TABLE[rules.name], 6, perft(deal(1), 6, rules), perft_divide)


def test_perft_depth_0_is_one():
    assert perft(deal(1), 0) == 1


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=lambda r: r.name)
def test_perft_divide_sums_to_perft(rules):
    divide = perft_divide(deal(1), 4, rules)
    assert [m for m, _ in divide] == legal_moves(deal(1), rules)
    assert sum(n for _, n in divide) == TABLE[rules.name].counts[4]
    assert [(move_text(m), n) for m, n in divide] == TABLE[rules.name].divides[4]


def test_perft_divide_deal_1_depth_2():
    # docs/rules.md's divide, stored in tests/data/perft.txt; the move order is legal_moves'.
    assert [(move_text(m), n) for m, n in perft_divide(deal(1), 2)] == TABLE["clear"].divides[2]
    assert len(TABLE["clear"].divides[2]) == 6


def test_a_wrong_perft_count_prints_the_divide():
    """A count that disagrees with the table fails naming the one first move whose subtree disagrees."""
    record = copy.deepcopy(TABLE["clear"])
    move, n = record.divides[3][1]
    record.divides[3][1] = (move, n + 1)
    record.counts[3] += 1
    with pytest.raises(AssertionError) as failure:
        check_perft(record, 3, perft(deal(1), 3), perft_divide)
    lines = str(failure.value).splitlines()
    assert f"depth 3) = {record.counts[3] - 1}, expected {record.counts[3]}" in lines[0]
    assert "tests/data/perft.txt" in lines[0] and "docs/rules.md" in lines[0]
    assert [line for line in lines if "differs" in line] == [f"  {move}: {n} / {n + 1}   <-- differs"]
    assert len(lines) == 2 + len(record.divides[3])
    del record.divides[3]
    with pytest.raises(AssertionError, match=r"divide at depth 3 \(none stored\):\n  7D:5>1: \d+\n"):
        check_perft(record, 3, perft(deal(1), 3), perft_divide)


def test_perft_table_refuses_a_line_it_does_not_know(tmp_path):
    path = tmp_path / "perft.txt"
    path.write_text("# a comment\n\nid x\ndeal 1\npreset clear\nperft 1 6\n")
    assert read_table(path)["clear"].counts == {1: 6}
    path.write_text("id x\ndeal 1\npreset clear\nperf 1 6\n")
    with pytest.raises(ValueError, match="unknown line perf"):
        read_table(path)


def test_perft_table_is_the_rules_docs_table():
    """tests/data/perft.txt holds docs/rules.md's perft table of deal 1 and its depth-2 divide, number for number."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text[text.index("\n## perft\n") : text.index("\n## Verdicts\n")]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines() if line.startswith("| ")]
    table = {cells[0]: [int(c) for c in cells[1:] if c] for cells in rows[1:]}
    assert rows[0][0] == "preset" and len(table) == 5
    assert table == {name: [record.counts[d] for d in sorted(record.counts)] for name, record in TABLE.items()}
    for record in TABLE.values():
        assert sorted(record.counts) == list(range(1, len(record.counts) + 1))
        assert record.sources["perft", 1].startswith("docs/rules.md")
    assert TABLE["clear"].sources["divide", 2].startswith("docs/rules.md")
    assert ", ".join(f"`{m}` {n}" for m, n in TABLE["clear"].divides[2]) in " ".join(section.split())
