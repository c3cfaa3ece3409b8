"""game.refusals: why a move is refused, from the player's view only.

The promise: the answer is a function of the view. Positions that share a view
(the same face-up cards, face-down counts, tail length, swept and frozen suits)
but place the hidden cards differently get the same refusal for every move that
names any card; and every rule in the module's table is reached by a move.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from scorpion_solver.game import refusals as refusals_module
from scorpion_solver.game.cards import NUM_CARDS, card_text, is_ace, is_king, parse_card, rank_of, suit_of
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import (
    RESERVE,
    TAIL,
    UPPER_COPY,
    Move,
    apply_move,
    canonical_key,
    legal_moves,
    parse_move,
)
from scorpion_solver.game.position import Position, position_problems
from scorpion_solver.game.position_text import parse_position
from scorpion_solver.game.refusals import Refusal, refusal
from scorpion_solver.game.rules import PRESETS, SPACE_ANY, TAIL_WHEN_STUCK, get_rules
from scorpion_solver.game.view import Observation, sample_positions

CLEAR, CLASSIC = get_rules("clear"), get_rules("classic")
SPADES = 1  # suit index in "CSHD"


def every_move_naming_a_card() -> list[Move]:
    """Each card from four columns (the first, the last, two by its number) to another, and the tail."""
    pairs = lambda card: {(0, 1), (6, 5), (card % 7, (card + 3) % 7), ((card + 1) % 7, card % 7)}  # noqa: E731
    return [Move(card, src, dst) for card in range(NUM_CARDS) for src, dst in sorted(pairs(card))] + [TAIL]


ALL_MOVES = every_move_naming_a_card()


def refusals_of(position, rules) -> list[Refusal | None]:
    return [refusal(position, m, rules) for m in ALL_MOVES]


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=lambda r: r.name)
@pytest.mark.parametrize("number", [1, 5, 77])
def test_positions_sharing_a_view_are_refused_in_the_same_words(number, rules):
    """Along a random game, every reachable view: the true position and two re-deals of its hidden cards agree."""
    rng = random.Random(number)
    position = deal(number, rules)
    for ply in range(12):
        others = sample_positions(Observation.of(position), 2, seed=number * 100 + ply)
        assert any(o != position for o in others)  # the hidden cards really lie elsewhere
        truth = refusals_of(position, rules)
        for other in others:
            assert refusals_of(other, rules) == truth
        legal = legal_moves(position, rules)
        if not legal:
            break
        position = apply_move(position, rng.choice(legal), rules)


def test_a_hidden_card_is_not_a_face_up_card_wherever_it_lies():
    position = deal(5, CLEAR)  # AH is face down in column 1, AD in the tail
    for text in ("AH:7>6", "AH:1>2", "AD:1>2"):
        assert refusal(position, parse_move(text), CLEAR) == Refusal(
            "face-up", f"{text[:2]} is not a face-up card: only a face-up card can move."
        )


SPADES_RUN = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS"

# Built to reach every rule: spades swept (Clear runs) or frozen on AH in column 4 (classic), empty column 5
# (and 7), a King leading column 3 (KH 2H, a whole column), KD in column 6 on 7H.
BOARD = """col1: TH* JH* QH* 5D* 9C 8C
col2: AC* 2C* 3C* 4C* TC 4H 3H
col3: KH 2H
col4: 6C* 7C* KC* 5H* AH{spades}
col5:
col6: 7H KD QD JD TD 9D 8D 7D 6D 4D 3D 2D AD QC JC
col7: 6H
tail: 5C 8H 9H"""


def board(rules, tail_dealt=False, empty_7=False):
    """BOARD in ``rules``'s mode; the tail already on columns 1-3, or column 7's 6H on the tail's 9H."""
    text = BOARD.format(spades=" " + SPADES_RUN if rules is CLASSIC else "")
    if empty_7:
        text = text.replace("col7: 6H", "col7:").replace("col3: KH 2H", "col3: KH 2H 6H")
    if tail_dealt:
        for column, card in zip(("col1", "col2", "col3"), ("5C", "8H", "9H"), strict=True):
            line = next(x for x in text.splitlines() if x.startswith(column + ":"))
            text = text.replace(line, f"{line} {card}")
        text = text.replace("tail: 5C 8H 9H", "tail: -")
    position = parse_position(text, rules, reachable=False).position
    assert not position_problems(position)
    assert position.frozen == (frozenset({SPADES}) if rules is CLASSIC else frozenset())
    return position


def parse_card_text(text: str) -> int:
    return parse_card(text)[0]


LOCKED_TAIL = (
    "in classic the tail may be dealt only when no other move exists (moving a whole column into an empty column "
    "does not count), and {move} still can be played."
)
# (move, rule, sentence, board options); each reached in both modes unless the rule is the mode's own
REACHED = [
    ("5D:1>5", "face-up", "5D is not a face-up card: only a face-up card can move.", {}),
    ("5C:1>2", "face-up", "5C is not a face-up card: only a face-up card can move.", {}),  # in the tail
    ("9C:2>5", "column", "9C is in column 1, not in column 2.", {}),
    ("8C:1>1", "same-column", "8C cannot move onto its own column 1.", {}),
    ("JC:2>2", "column", "JC is in column 6, not in column 2.", {}),  # not "its own column 2": it is in 6
    (
        "8C:1>2",
        "same-suit",
        "8C cannot go on 3H: a card goes only on the next higher card of its own suit (8C on 9C).",
        {},
    ),
    ("JC:6>1", "one-rank-up", "JC cannot go on 8C: only 7C, one rank lower, goes on 8C.", {}),
    ("2H:3>4", "ace", "2H cannot go on {ace}: nothing goes onto an Ace.", {}),  # AS tops the frozen spades
    ("KD:6>1", "king", "KD cannot go on 8C: a King goes on no card, only into an empty column.", {}),
    ("9C:1>5", "space-king", "9C cannot go into an empty column: only a King may go there.", {}),
    # the whole column 6H into column 5: both among the interchangeable columns 4-7
    ("6H:7>5", "space-king", "6H cannot go into an empty column: only a King may go there.", {}),
    # KD leads part of column 6: a real move, written to the leftmost empty column
    (
        "KD:6>7",
        "space-leftmost",
        "KD may go into an empty column, but the empty columns 5 and 7 are interchangeable (no tail card lands "
        "there): a move into them is written to the leftmost, KD:6>5.",
        {"empty_7": True},
    ),
    # the whole column 3 (KH 2H 6H) into 7 before the tail deal: it matters (column 3 gets the tail), but 5 is
    # the leftmost of the interchangeable empty columns
    (
        "KH:3>7",
        "space-leftmost",
        "KH may go into an empty column, but the empty columns 5 and 7 are interchangeable (no tail card lands "
        "there): a move into them is written to the leftmost, KH:3>5.",
        {"empty_7": True},
    ),
    # once the tail is dealt every column is interchangeable: the whole column 3 into 5 changes nothing
    (
        "KH:3>5",
        "changes-nothing",
        "moving KH with all of column 3 into an empty column changes nothing.",
        {"tail_dealt": True},
    ),
    (
        "tail",
        "tail-once",
        "the tail has been dealt already: it is dealt once, onto columns 1, 2 and 3.",
        {"tail_dealt": True},
    ),
]
CLASSIC_ONLY = [
    ("QS:4>5", "frozen", "QS is in or under a frozen run: a completed run and what lies under it never move.", {}),
    ("AH:4>5", "frozen", "AH is in or under a frozen run: a completed run and what lies under it never move.", {}),
    ("tail", "tail-when-stuck", LOCKED_TAIL.format(move="2H:3>2"), {}),
]


@pytest.mark.parametrize(
    "rules, text, rule, sentence, options",
    [(r, *case) for r in (CLEAR, CLASSIC) for case in REACHED] + [(CLASSIC, *case) for case in CLASSIC_ONLY],
    ids=lambda x: x.name if hasattr(x, "runs") else None,
)
def test_each_rule_is_named_with_its_sentence(rules, text, rule, sentence, options):
    position = board(rules, **options)
    sentence = sentence.format(ace="AS" if rules is CLASSIC else "AH")
    assert refusal(position, parse_move(text), rules) == Refusal(rule, sentence)
    assert_true(position, parse_move(text), rules, Refusal(rule, sentence))


def test_the_moves_beside_the_refused_ones_are_legal():
    """What the sentences point to is legal: the leftmost space, a King's whole column out of columns 1-3."""
    for rules in (CLEAR, CLASSIC):
        for text, options in (("KD:6>5", {"empty_7": True}), ("KH:3>5", {"empty_7": True}), ("KH:3>5", {})):
            assert refusal(board(rules, **options), parse_move(text), rules) is None
        assert refusal(board(CLEAR), TAIL, CLEAR) is None


def rule_words() -> set[str]:
    """The rule words of game/refusals.py's table (tests/test_rules_page.py reads them too)."""
    table = refusals_module.__doc__.split("====\n", 2)[2]
    return set(re.findall(r"^``([a-z-]+)``", table, flags=re.M))


MICE = get_rules("mice")
# Three Blind Mice, clubs and diamonds swept: 2H and 6H in the reserve, column 6 empty
MICE_BOARD = """col1: KH QH JH
col2: TH 3H
col3: 7H 5S
col4: 9S
col5: AH 8H
col6:
col7: 5H 4H
col8: AS* 2S* 3S* 4S
col9: 6S* 7S* 8S* TS
col10: JS* QS* KS* 9H
reserve: 2H 6H"""
MICE_ONLY = [
    ("2H:1>2", "reserve", "2H is a reserve card, not in column 1: it moves from the reserve, alone."),
    ("9S:r>5", "reserve", "9S is in column 4: only a reserve card moves from the reserve."),
    ("6H:r>4", "same-suit", "6H cannot go on 9S: a card goes only on the next higher card of its own suit (6H on 7H)."),
    ("6H:r>5", "one-rank-up", "6H cannot go on 8H: only 7H, one rank lower, goes on 8H."),
    ("2H:r>6", "space-king", "2H cannot go into an empty column: only a King may go there."),
]


@pytest.mark.parametrize("text, rule, sentence", MICE_ONLY)
def test_a_reserve_card_moves_alone_from_the_reserve(text, rule, sentence):
    position = parse_position(MICE_BOARD, MICE, reachable=False).position
    assert position.reserves and refusal(position, parse_move(text), MICE) == Refusal(rule, sentence)
    assert_true(position, parse_move(text), MICE, Refusal(rule, sentence))
    assert refusal(position, parse_move("2H:r>2"), MICE) is None  # the 2H onto the 3H: legal


def test_every_rule_of_the_table_is_reached():
    reached = {case[1] for case in REACHED + CLASSIC_ONLY + MICE_ONLY} | {"game-over"}
    assert reached == rule_words()


def named_move(sentence: str) -> Move:
    """The move a sentence points to (its last ``CARD:S>D``)."""
    return parse_move(re.findall(r"[2-9TJQKA][CSHD]:\d>\d", sentence)[-1])


def assert_true(position: Position, move: Move, rules, why: Refusal | None) -> None:
    """The referee: what the refusal says holds in the full position (the referee may read every card).

    Written from docs/rules.md, apart from game.refusals: each rule's claim is checked on the cards.
    """
    legal = legal_moves(position, rules)
    assert (why is None) == (move in legal), (move, why)
    if why is None:
        return
    if why.rule == "game-over":
        assert not legal
        return
    assert legal, why
    if move.is_tail:
        if why.rule == "tail-once":
            assert not position.tail
        else:
            assert why.rule == "tail-when-stuck" and position.tail and rules.tail == TAIL_WHEN_STUCK
            other = named_move(why.sentence)
            assert other in legal and not whole_column_into_space(position, other)
        return
    assert card_text(move.card % NUM_CARDS) in why.sentence or why.rule == "column"
    width = len(position.columns)
    if move.dst >= width or (move.src != RESERVE and move.src >= width):  # a column the game does not have
        assert why.rule == "column" and f"this game has {width} columns" in why.sentence
        return
    column, index, face_up = where_named(position, move, rules)
    in_reserve = move.card in position.reserves  # Three Blind Mice: face up, and moved from the reserve only
    src = position.columns[move.src] if move.src != RESERVE else ()
    dst = position.columns[move.dst]
    top = dst[-1] if dst else None
    claims = {
        "same-column": lambda: move.src == move.dst and face_up and column == move.src,
        "face-up": lambda: not face_up and not in_reserve,
        "column": lambda: (face_up and column != move.src and move.src != RESERVE) or upper_of_one(position, move),
        "reserve": lambda: (in_reserve and move.src != RESERVE) or (face_up and move.src == RESERVE),
        # a frozen run ends with its Ace on top: that Ace and everything under it stay
        "frozen": lambda: any(src[k] == 13 * suit and k >= index for suit in position.frozen for k in range(len(src))),
        "space-king": lambda: not dst and rules.space != SPACE_ANY and not is_king(move.card),
        "changes-nothing": lambda: not dst and index == 0 and relocated_is_the_same(position, move),
        "space-leftmost": lambda: not dst and leftmost_is_named(position, move, named_move(why.sentence), legal),
        "king": lambda: dst and is_king(move.card),
        "ace": lambda: dst and is_ace(top),
        "same-suit": lambda: dst and suit_of(top) != suit_of(move.card),
        "one-rank-up": lambda: dst and suit_of(top) == suit_of(move.card) and rank_of(top) != rank_of(move.card) + 1,
    }
    assert claims[why.rule](), (str(position), move, why)


def where_named(position: Position, move: Move, rules) -> tuple[int | None, int | None, bool]:
    """(column, index, face up) of the card a move names: the card itself with one deck; with two, the copy
    the move names in its column (``+``: the upper of two there), else a face-up copy of its face elsewhere."""
    if rules.decks == 1:
        at = {card: (i, j) for i, col in enumerate(position.columns) for j, card in enumerate(col)}
        column, index = at.get(move.card, (None, None))
        return column, index, column is not None and index >= position.hidden[column]
    face = move.card % NUM_CARDS
    up = [
        (i, j)
        for i, col in enumerate(position.columns)
        for j in range(position.hidden[i], len(col))
        if col[j] % NUM_CARDS == face
    ]
    in_src = [(i, j) for i, j in up if i == move.src]
    nth = 1 if move.card >= UPPER_COPY else 0
    if nth < len(in_src):
        return (*in_src[nth], True)
    others = [(i, j) for i, j in up if i != move.src]
    return (*others[0], True) if others else (None, None, False)


def upper_of_one(position: Position, move: Move) -> bool:
    """A two-deck move naming the upper copy (``6C+``) in a column that holds one face-up copy of the face."""
    if move.card < UPPER_COPY or move.src == RESERVE:
        return False
    col, hidden = position.columns[move.src], position.hidden[move.src]
    return sum(c % NUM_CARDS == move.card % NUM_CARDS for c in col[hidden:]) == 1


def whole_column_into_space(position: Position, move: Move) -> bool:
    return position.columns[move.src][0] == move.card and not position.columns[move.dst]


def columns_the_tail_cannot_reach(position: Position) -> range:
    return range(len(position.columns)) if not position.tail else range(len(position.tail), len(position.columns))


def relocated_is_the_same(position: Position, move: Move) -> bool:
    """Swapping the whole column ``src`` with the empty ``dst`` leaves the same game (docs/rules.md, Spaces)."""
    columns, hidden = list(position.columns), list(position.hidden)
    columns[move.src], columns[move.dst] = columns[move.dst], columns[move.src]
    hidden[move.src], hidden[move.dst] = hidden[move.dst], hidden[move.src]
    moved = Position(tuple(columns), tuple(hidden), position.tail, position.frozen, position.reserves)
    return canonical_key(moved) == canonical_key(position)


def leftmost_is_named(position: Position, move: Move, named: Move, legal: list[Move]) -> bool:
    free = columns_the_tail_cannot_reach(position)
    return (
        (named.card, named.src) == (move.card, move.src)
        and named in legal
        and named.dst < move.dst
        and named.dst in free
        and move.dst in free
        and not position.columns[named.dst]
    )


def every_move_of(position: Position, decks: int = 1) -> list[Move]:
    """Each face-up card to every column from its own and from one other, each hidden card once, the tail;
    each reserve card to every column from the reserve and from a column, a column's card from the reserve;
    a move to a column the game does not have."""
    n = len(position.columns)
    moves = [TAIL]
    for i, col in enumerate(position.columns):
        for j, card in enumerate(col):
            if decks == 2:  # a move names a face, the lower copy in its column, or the upper (+)
                card = card % NUM_CARDS + (UPPER_COPY if card % 3 == 0 else 0)
            if j < position.hidden[i]:
                moves.append(Move(card, i, (i + 1) % n))
            else:
                moves += [Move(card, i, d) for d in range(n)] + [Move(card, (i + 3) % n, i), Move(card, RESERVE, i)]
    for card in position.reserves:
        moves += [Move(card, RESERVE, d) for d in range(n)] + [Move(card, card % n, (card + 1) % n)]
    if n == 7:
        moves += [Move(card, 0, 8) for card in range(0, NUM_CARDS, 5)]
    return moves + [Move(card, card % n, (card + 2) % n) for card in position.tail]


# every preset: Three Blind Mice's ten columns and reserve, Double Scorpion's two copies of each face
@pytest.mark.parametrize("mode", list(PRESETS))
def test_every_refusal_is_true_along_random_games(mode):
    """Random games in every preset: each refusal's claim holds on the cards (the referee above)."""
    rules, seen = get_rules(mode), Counter()
    two_decks = rules.decks == 2  # 104 cards, many more moves a position: fewer games, shorter
    for number in (3, 11) if two_decks else (3, 11, 40, 41, 2024, 90210):
        rng, position = random.Random(number), deal(number, rules)
        for _ply in range(40 if two_decks else 60):
            for move in every_move_of(position, rules.decks):
                why = refusal(position, move, rules)
                assert_true(position, move, rules, why)
                seen[why.rule if why else "legal"] += 1
                if move.src == RESERVE or move.card in position.reserves:
                    seen["reserve " + (why.rule if why else "legal")] += 1
            legal = legal_moves(position, rules)
            if not legal:
                break
            position = apply_move(position, rng.choice(legal), rules)
    common = {"legal", "face-up", "column", "same-column", "same-suit", "one-rank-up", "king"}
    assert common <= set(seen), seen
    if rules.reserves:  # a reserve card is played, named from a column, and refused where it cannot land
        assert {"reserve legal", "reserve reserve", "reserve same-suit", "reserve one-rank-up"} <= set(seen), seen


def test_a_won_classic_game_refuses_every_move():
    won = parse_position(
        "\n".join(
            f"col{i + 1}: {' '.join(r + s for r in 'KQJT98765432A')}" if i < 4 else f"col{i + 1}:"
            for i, s in zip(range(7), "CSHD   ", strict=True)
        )
        + "\ntail: -",
        CLASSIC,
        reachable=False,
    ).position
    assert won.frozen == frozenset(range(4))
    assert refusal(won, parse_move("AH:3>5"), CLASSIC) == Refusal(
        "game-over", "the game is over: no move is legal any more."
    )


def test_the_tail_is_dealt_once():
    dealt = apply_move(deal(5, CLEAR), TAIL, CLEAR)
    assert refusal(dealt, TAIL, CLEAR) == Refusal(
        "tail-once", "the tail has been dealt already: it is dealt once, onto columns 1, 2 and 3."
    )


def test_the_tail_refusal_says_the_games_tail():
    """Double Scorpion's tail is four cards onto columns 1-4; a game without a tail has none to deal."""
    double = get_rules("double")
    dealt = apply_move(deal(1, double), TAIL, double)
    assert refusal(dealt, TAIL, double) == Refusal(
        "tail-once", "the tail has been dealt already: it is dealt once, onto columns 1, 2, 3 and 4."
    )
    for mode in ("double-dealt", "mice"):
        assert refusal(deal(1, get_rules(mode)), TAIL, get_rules(mode)) == Refusal(
            "tail-once", "this game has no tail to deal: every card is dealt at the start."
        )


def test_a_finished_game_refuses_every_move():
    won = Position(((), (), (), (), (), (), ()), (0,) * 7, (), frozenset())  # Clear runs: all four suits swept
    assert refusal(won, parse_move("AH:1>2"), CLEAR) == Refusal(
        "game-over", "the game is over: no move is legal any more."
    )
    assert refusal(won, TAIL, CLEAR).rule == "game-over"


def test_a_legal_move_has_no_refusal():
    position = deal(5, CLEAR)
    for move in legal_moves(position, CLEAR):
        assert refusal(position, move, CLEAR) is None
