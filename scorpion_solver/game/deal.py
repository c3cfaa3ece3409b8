"""Deal numbers are PySolFC game numbers (docs/rules.md, "Deal numbers").

Deal ``n`` is the layout PySolFC shows for Scorpion (game id 29) game number
``n``: below 32000 the Microsoft FreeCell generator over the FreeCell deck
order, from 32000 on CPython's Mersenne Twister over the natural order; the
same Fisher-Yates shuffle for both; cards dealt from the end of the list,
seven rows of seven, then the three tail cards.

The relatives deal from the same numbers with their own shapes (the preset's
:class:`Rules`): Three Blind Mice (PySolFC game 305) shuffles exactly as
Scorpion and deals ten rows of five, then two reserve cards; Double Scorpion
(game 511) shuffles two decks in their natural order (PySolFC rearranges
only a 52-card deck into FreeCell order) and deals ten rows of ten, then the
tail of four (or, in the older layout, those four onto columns 1-4 at once).
"""

from __future__ import annotations

import random
import secrets

from .cards import NUM_CARDS, make_card
from .position import Position
from .rules import CLEAR, Rules

MS_LIMIT = 32000  # PySolFC switches generators here


def _natural_deck() -> list[int]:
    return list(range(NUM_CARDS))


def _freecell_deck() -> list[int]:
    """AC AD AH AS 2C 2D ... KS: for each rank, suits C D H S."""
    order = (0, 3, 2, 1)  # C D H S as suit indices in our C S H D numbering
    return [make_card(rank, suit) for rank in range(1, 14) for suit in order]


class _MicrosoftRandom:
    """The FreeCell linear congruential generator, as PySolFC's LCRandom31."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def randint(self, a: int, b: int) -> int:
        self.state = (self.state * 214013 + 2531011) % (1 << 32)
        draw = (self.state >> 16) & 0x7FFF
        return a + draw % (b + 1 - a)


class _MersenneRandom:
    """CPython's Mersenne Twister with PySolFC's randint (not randrange)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def randint(self, a: int, b: int) -> int:
        return a + int(self.rng.random() * (b + 1 - a))


PYSOLFC_MAX_GAME = 10**20  # PySolFC's largest game number (its MAX_SEED): deals run from 1 to this
DEAL_NUMBER = "a whole number from 1 to 10^20, a PySolFC game number"  # what a deal number is, for messages


def check_deal_number(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise ValueError(f"deal number must be an integer, got {n!r}")
    if n < 1:
        raise ValueError(f"deal number must be 1 or more, got {n}")
    if n > PYSOLFC_MAX_GAME:
        raise ValueError(
            f"deal {n} is beyond PySolFC's largest game number (10^20 = {PYSOLFC_MAX_GAME}): deal numbers are "
            "PySolFC game numbers, and no PySolFC game has this one"
        )
    return n


def shuffled_deck(n: int, decks: int = 1) -> list[int]:
    """The cards after PySolFC's shuffle for game number n (dealt from the end).

    One deck: 52 cards, rearranged into FreeCell order below 32000. Two decks:
    card ids 0..103 in their natural order (deck 0 then deck 1), never
    rearranged, shuffled by the same generator.
    """
    check_deal_number(n)
    rng = _MicrosoftRandom(n) if n < MS_LIMIT else _MersenneRandom(n)
    if decks == 1:
        deck = _freecell_deck() if n < MS_LIMIT else _natural_deck()
    else:
        deck = list(range(NUM_CARDS * decks))
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randint(0, i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(n: int, rules: Rules = CLEAR) -> Position:
    """The starting position of deal number n under the given rules' shape and face-down pattern."""
    deck = shuffled_deck(n, rules.decks)
    return layout(deck[::-1], rules)  # the k-th card dealt is the k-th from the end


def layout(dealt: list[int], rules: Rules = CLEAR) -> Position:
    """The starting position of the game's cards in dealing order: the rows, the cards dealt at the start,
    the tail, the reserves (a deal number's, or a secret shuffle's)."""
    if sorted(dealt) != list(range(rules.num_cards)):
        raise ValueError(f"a deal of {rules.name} is its {rules.num_cards} cards, each once")
    width, in_rows = rules.num_columns, rules.rows * rules.num_columns
    columns = [dealt[i:in_rows:width] for i in range(width)]
    rest = dealt[in_rows:]
    for i in range(rules.dealt_at_start):
        columns[i].append(rest[i])
    rest = rest[rules.dealt_at_start :]
    return Position(
        columns=tuple(tuple(c) for c in columns),
        hidden=tuple(rules.face_down),
        tail=tuple(rest[: rules.tail_size]),
        reserves=tuple(rest[rules.tail_size :]),
    )


def dealt_order(position: Position, rules: Rules = CLEAR) -> list[int]:
    """The cards of a starting position of ``rules`` in dealing order (``layout``'s inverse): the rows, the
    cards dealt at the start, the tail, the reserves."""
    width, rows = rules.num_columns, rules.rows
    dealt = [position.columns[k % width][k // width] for k in range(rows * width)]
    dealt += [position.columns[i][rows] for i in range(rules.dealt_at_start)]
    return dealt + list(position.tail) + list(position.reserves)


def secret_shuffle(num_cards: int = NUM_CARDS) -> list[int]:
    """The cards (52, or 104 for two decks) in an order drawn from the operating system's secure generator
    (``secrets``): a deal that no deal number names, so no one can look it up from its face-up cards
    (docs/serve.md, "Fair play")."""
    deck = list(range(num_cards))
    secrets.SystemRandom().shuffle(deck)
    return deck
