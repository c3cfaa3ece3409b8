"""Cards as small integers, and their text form.

A card is an int 0..51: ``suit * 13 + rank - 1`` with suits in the order
``C S H D`` and ranks Ace = 1 .. King = 13 (docs/rules.md, "Cards"). With this
numbering the card a card builds on (same suit, one rank higher) is simply
``card + 1``, unless the card is a King.

A game of two decks (Double Scorpion) numbers its cards 0..103: ``card % 52``
is the card's face (the number above) and ``card // 52`` its copy (deck 0 or
1). Rank, suit, text and ``card + 1`` work on either copy; the two copies of a
face are interchangeable in play, and the text shows the face only.

Text: rank then suit (``KS``, ``TH``, ``4D``); readers also accept ``10`` for
``T``, lower case, and the suit symbols a web page shows (``5♥``, ``10♥``,
``Q♠``, also the white ones and an emoji's variation selector); a trailing
``*`` marks a face-down card.
"""

from __future__ import annotations

import functools

SUITS = "CSHD"
RANKS = "A23456789TJQK"
NUM_CARDS = 52  # cards in one deck, and the number of faces
RUN_LENGTH = 13
MAX_DECKS = 2  # Double Scorpion's; card ids run below MAX_DECKS * NUM_CARDS


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
    """Suit index 0..3 in the order C S H D (of either copy)."""
    return card % NUM_CARDS // RUN_LENGTH


def face_of(card: int) -> int:
    """The card's face 0..51 (suit and rank), the same for both copies of a two-deck card."""
    return card % NUM_CARDS


def copy_of(card: int) -> int:
    """Which deck a card comes from: 0, or 1 for the second copy in a two-deck game."""
    return card // NUM_CARDS


def copies(face: int, decks: int) -> tuple[int, ...]:
    """The card ids of a face in a game of ``decks`` decks: (face,) or (face, face + 52)."""
    return tuple(face + NUM_CARDS * d for d in range(decks))


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
    """The face's text (``KS``): both copies of a two-deck card read the same."""
    return RANKS[card % RUN_LENGTH] + SUITS[card % NUM_CARDS // RUN_LENGTH]


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
