"""Deal numbers are PySolFC game numbers (docs/rules.md, "Deal numbers").

Deal ``n`` is the layout PySolFC shows for Scorpion (game id 29) game number
``n``: below 32000 the Microsoft FreeCell generator over the FreeCell deck
order, from 32000 on CPython's Mersenne Twister over the natural order; the
same Fisher-Yates shuffle for both; cards dealt from the end of the list,
seven rows of seven, then the three tail cards.
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


def shuffled_deck(n: int) -> list[int]:
    """The 52 cards after PySolFC's shuffle for game number n (dealt from the end)."""
    check_deal_number(n)
    if n < MS_LIMIT:
        deck, rng = _freecell_deck(), _MicrosoftRandom(n)
    else:
        deck, rng = _natural_deck(), _MersenneRandom(n)
    for i in range(NUM_CARDS - 1, 0, -1):
        j = rng.randint(0, i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(n: int, rules: Rules = CLEAR) -> Position:
    """The starting position of deal number n under the given rules' face-down pattern."""
    deck = shuffled_deck(n)
    return layout([deck[NUM_CARDS - 1 - k] for k in range(NUM_CARDS)], rules)


def layout(dealt: list[int], rules: Rules = CLEAR) -> Position:
    """The starting position of the 52 cards in dealing order: seven rows of seven, then the tail of three."""
    if sorted(dealt) != list(range(NUM_CARDS)):
        raise ValueError("a deal is the 52 cards, each once")
    columns = [[] for _ in range(7)]
    for k in range(49):
        columns[k % 7].append(dealt[k])
    return Position(
        columns=tuple(tuple(c) for c in columns),
        hidden=tuple(rules.face_down),
        tail=tuple(dealt[49:52]),
    )


def dealt_order(position: Position) -> list[int]:
    """The 52 cards of a starting position in dealing order (``layout``'s inverse)."""
    rows = [position.columns[k % 7][k // 7] for k in range(49)]
    return rows + list(position.tail)


def secret_shuffle() -> list[int]:
    """52 cards in an order drawn from the operating system's secure generator (``secrets``): a deal that no
    deal number names, so no one can look it up from its face-up cards (docs/serve.md, "Fair play")."""
    deck = list(range(NUM_CARDS))
    secrets.SystemRandom().shuffle(deck)
    return deck
