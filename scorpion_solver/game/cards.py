"""Cards as small integers, and their text form.

A card is an int 0..51: ``suit * 13 + rank - 1`` with suits in the order
``C S H D`` and ranks Ace = 1 .. King = 13 (docs/rules.md, "Cards"). With this
numbering the card a card builds on (same suit, one rank higher) is simply
``card + 1``, unless the card is a King.

Text: rank then suit (``KS``, ``TH``, ``4D``); readers also accept ``10`` for
``T``, lower case, and the suit symbols a web page shows (``5♥``, ``10♥``,
``Q♠``, also the white ones and an emoji's variation selector); a trailing
``*`` marks a face-down card.
"""

from __future__ import annotations

import functools

SUITS = "CSHD"
RANKS = "A23456789TJQK"
NUM_CARDS = 52
RUN_LENGTH = 13


# Suit symbols copied from a web page or a game site, black and white forms.
SUIT_SYMBOLS = {"♣": "C", "♧": "C", "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D"}
VARIATION_SELECTORS = "\ufe0e\ufe0f"  # text or emoji presentation of the symbol before it


class CardError(ValueError):
    """A card token that cannot be read."""


def make_card(rank: int, suit: int) -> int:
    """Card from rank 1..13 and suit index 0..3 (C S H D)."""
    return suit * RUN_LENGTH + rank - 1


def rank_of(card: int) -> int:
    """Rank 1 (Ace) .. 13 (King)."""
    return card % RUN_LENGTH + 1


def suit_of(card: int) -> int:
    """Suit index 0..3 in the order C S H D."""
    return card // RUN_LENGTH


def is_king(card: int) -> bool:
    return card % RUN_LENGTH == RUN_LENGTH - 1


def is_ace(card: int) -> bool:
    return card % RUN_LENGTH == 0


def successor(card: int) -> int | None:
    """The card this card builds on (same suit, one rank up), None for a King."""
    return None if is_king(card) else card + 1


@functools.cache  # a pure table of four tuples, asked for in every sweep test and view
def run_of_suit(suit: int) -> tuple[int, ...]:
    """The complete run of a suit as it lies in a column, bottom first: K .. A."""
    return tuple(make_card(rank, suit) for rank in range(RUN_LENGTH, 0, -1))


def card_text(card: int) -> str:
    return RANKS[card % RUN_LENGTH] + SUITS[card // RUN_LENGTH]


def parse_card(token: str) -> tuple[int, bool]:
    """Read one card token; return (card, face_down).

    Raises CardError with a message naming the token when it is not a card.
    """
    text = token.strip()
    face_down = text.endswith("*")
    if face_down:
        text = text[:-1]
    text = text.rstrip(VARIATION_SELECTORS)
    if text and text[-1] in SUIT_SYMBOLS:
        text = text[:-1] + SUIT_SYMBOLS[text[-1]]
    upper = text.upper()
    if upper.startswith("10"):
        upper = "T" + upper[2:]
    if len(upper) != 2 or upper[0] not in RANKS or upper[1] not in SUITS:
        raise CardError(
            f"'{token}' is not a card (expected rank A23456789TJQK or 10, then suit CSHD or ♣♠♥♦, e.g. KS, 10h, Q♠, 4D*)"
        )
    return make_card(RANKS.index(upper[0]) + 1, SUITS.index(upper[1])), face_down


def parse_suit(token: str) -> int:
    upper = token.strip().upper()
    if len(upper) != 1 or upper not in SUITS:
        raise CardError(f"'{token}' is not a suit (expected one of C S H D)")
    return SUITS.index(upper)
