"""game.refusals: why a move is refused, from the player's view only.

The promise: the answer is a function of the view. Positions that share a view
(the same face-up cards, face-down counts, tail length, swept and frozen suits)
but place the hidden cards differently get the same refusal for every move that
names any card; and every rule in the module's table is reached by a move.
"""

from __future__ import annotations

import random

import pytest

from scorpion_solver.game.cards import NUM_CARDS, parse_card
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import TAIL, Move, apply_move, legal_moves, parse_move
from scorpion_solver.game.position import Position, position_problems
from scorpion_solver.game.refusals import Refusal, refusal
from scorpion_solver.game.rules import get_rules
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


def frozen_position():
    """Classic, spades frozen in column 3; every card placed (col: face-down cards, then face-up ones)."""
    c = parse_card_text
    columns = [
        "TH JH QH 5D | 9C 8C",
        "AC 2C 3C 4C | TC 4H 3H",
        "| KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS 6H",
        "6C 7C KC 5H | AH",
        "|",
        "| KH 2H",
        "| 7H KD QD JD TD 9D 8D 7D 6D 4D 3D 2D AD QC JC",
    ]
    cards, hidden = [], []
    for text in columns:
        down, up = text.split("|")
        cards.append(tuple(c(t) for t in down.split() + up.split()))
        hidden.append(len(down.split()))
    position = Position(tuple(cards), tuple(hidden), tuple(c(t) for t in "5C 8H 9H".split()), frozenset({SPADES}))
    assert not position_problems(position) and len(position.cards_in_play()) == NUM_CARDS
    return position, CLASSIC


def parse_card_text(text: str) -> int:
    return parse_card(text)[0]


@pytest.mark.parametrize(
    "text, rule, sentence",
    [
        ("5D:1>5", "face-up", "5D is not a face-up card: only a face-up card can move."),
        ("9C:2>5", "column", "9C is in column 1, not in column 2."),
        ("8C:1>1", "same-column", "8C cannot move onto its own column 1."),
        (
            "QS:3>5",
            "frozen",
            "QS is in or under a frozen run: a completed run and what lies under it never move.",
        ),
        (
            "8C:1>2",
            "same-suit",
            "8C cannot go on 3H: a card goes only on the next higher card of its own suit (8C on 9C).",
        ),
        ("JC:7>1", "one-rank-up", "JC cannot go on 8C: only 7C, one rank lower, goes on 8C."),
        ("2H:6>4", "ace", "2H cannot go on AH: nothing goes onto an Ace."),
        ("KH:6>2", "king", "KH cannot go on 3H: a King goes on no card, only into an empty column."),
        ("9C:1>5", "space-king", "9C cannot go into an empty column: only a King may go there."),
        ("KH:6>5", "changes-nothing", "moving all of column 6 into an empty column changes nothing."),
        ("tail", "tail-when-stuck", "in classic the tail may be dealt only when no other move exists."),
    ],
)
def test_each_rule_is_named_with_its_sentence(text, rule, sentence):
    position, rules = frozen_position()
    assert refusal(position, parse_move(text), rules) == Refusal(rule, sentence)


def test_the_tail_is_dealt_once():
    dealt = apply_move(deal(5, CLEAR), TAIL, CLEAR)
    assert refusal(dealt, TAIL, CLEAR) == Refusal(
        "tail-once", "the tail has been dealt already: it is dealt once, onto columns 1, 2 and 3."
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
