"""Rule variants as data.

Every rule choice the engines make is a field of :class:`Rules`; a variant is a
named preset. The two Scorpion modes of docs/rules.md are ``clear`` (the default) and
``classic``; the relatives of docs/rules.md ("Relatives") are presets too, each with
its source.
"""

from __future__ import annotations

from dataclasses import dataclass

# What happens to a column whose top thirteen cards become a face-up K..A run.
RUNS_SWEPT = "swept"  # removed to the foundations at once (Clear runs)
RUNS_FROZEN = "frozen"  # stays, and neither it nor anything under it moves again (classic)
RUNS_LEFT = "left"  # stays, but its cards move like any other (Goodsol)

# When the tail may be dealt.
TAIL_ANYTIME = "anytime"
TAIL_WHEN_STUCK = "when_stuck"  # only when no other move exists (whole-column relocations aside)

# What may move into an empty column.
SPACE_KINGS = "kings"
SPACE_ANY = "any"


@dataclass(frozen=True)
class Rules:
    """The rule choices of one variant.

    ``face_down`` gives, per column, how many of its bottom cards are dealt
    face down; its length is the number of columns (7, or 10 for the two new
    relatives). The win condition follows from ``runs``: with swept runs the
    game is won when every run has been swept (four per deck); otherwise when
    every suit lies on the table as a face-up King-to-Ace run (stacked runs
    count).

    The shape of the deal (docs/rules.md, "Relatives: two new games"):
    ``decks`` of 52 cards; ``tail_size`` cards kept back as the tail, dealt
    face up onto columns 1..tail_size in one move; ``dealt_at_start`` cards
    dealt after the rows, face up onto columns 1..dealt_at_start at once (the
    older Double Scorpion layout: its tail, already dealt); ``reserves`` face-up
    reserve cards, each playable alone onto the table and never played onto.
    Every other card is dealt in rows, row by row, left to right.
    """

    name: str
    runs: str = RUNS_SWEPT
    tail: str = TAIL_ANYTIME
    space: str = SPACE_KINGS
    face_down: tuple[int, ...] = (3, 3, 3, 3, 0, 0, 0)
    source: str = ""
    decks: int = 1
    tail_size: int = 3
    dealt_at_start: int = 0
    reserves: int = 0
    pysolfc_game: int = 29  # the PySolFC game id whose game numbers are this preset's deal numbers

    def __post_init__(self) -> None:
        if self.runs not in (RUNS_SWEPT, RUNS_FROZEN, RUNS_LEFT):
            raise ValueError(f"unknown runs rule {self.runs!r}")
        if self.tail not in (TAIL_ANYTIME, TAIL_WHEN_STUCK):
            raise ValueError(f"unknown tail rule {self.tail!r}")
        if self.space not in (SPACE_KINGS, SPACE_ANY):
            raise ValueError(f"unknown space rule {self.space!r}")
        if self.decks not in (1, 2):
            raise ValueError("a game has one deck or two")
        if len(self.face_down) not in (7, 10):
            raise ValueError("face_down needs a count for each of 7 or 10 columns")
        dealt_in_rows = self.num_cards - self.tail_size - self.dealt_at_start - self.reserves
        if dealt_in_rows <= 0 or dealt_in_rows % self.num_columns:
            raise ValueError(f"{dealt_in_rows} cards do not deal into {self.num_columns} equal columns")
        if not all(0 <= n < self.rows for n in self.face_down):
            raise ValueError(f"face_down needs counts between 0 and {self.rows - 1}")
        if max(self.tail_size, self.dealt_at_start) > self.num_columns:
            raise ValueError("the tail deals one card a column")
        if self.reserves and self.runs != RUNS_SWEPT:
            raise ValueError("reserve cards are played with swept runs only")

    @property
    def sweeps(self) -> bool:
        return self.runs == RUNS_SWEPT

    @property
    def freezes(self) -> bool:
        return self.runs == RUNS_FROZEN

    @property
    def num_columns(self) -> int:
        return len(self.face_down)

    @property
    def num_cards(self) -> int:
        """Card ids run from 0 to this, exclusive: 52 a deck."""
        return 52 * self.decks

    @property
    def rows(self) -> int:
        """How many cards each column gets in the dealing by rows (before any ``dealt_at_start``)."""
        return (self.num_cards - self.tail_size - self.dealt_at_start - self.reserves) // self.num_columns

    @property
    def num_runs(self) -> int:
        """The runs to complete for a win: four a deck."""
        return 4 * self.decks

    @property
    def is_scorpion_shape(self) -> bool:
        """One deck, seven columns, a tail of three: the shape the numba kernel plays (the relatives before 53)."""
        return self.decks == 1 and self.num_columns == 7 and self.tail_size == 3 and not self.reserves


CLEAR = Rules(
    name="clear",
    source="docs/rules.md 'Clear runs' (cardgames.io with 'Clear completed runs')",
)
CLASSIC = Rules(
    name="classic",
    runs=RUNS_FROZEN,
    tail=TAIL_WHEN_STUCK,
    source="docs/rules.md 'Classic' (the traditional rule: tail only when no move remains)",
)
WASP = Rules(
    name="wasp",
    space=SPACE_ANY,
    source="docs/rules.md 'Relatives': Wasp, PySolFC game id 185; Wikipedia 'Scorpion (solitaire)'",
)
SCORPION2 = Rules(
    name="scorpion2",
    face_down=(3, 3, 3, 0, 0, 0, 0),
    source="docs/rules.md 'Relatives': Scorpion II / Easy Scorpion, PySolFC game id 672",
)
GOODSOL = Rules(
    name="goodsol",
    runs=RUNS_LEFT,
    source="docs/rules.md 'Relatives': Pretty Good Solitaire (Goodsol) Scorpion rules",
)

DOUBLE = Rules(
    name="double",
    face_down=(4, 4, 4, 4, 4, 0, 0, 0, 0, 0),
    decks=2,
    tail_size=4,
    pysolfc_game=511,
    source="docs/rules.md 'Relatives: two new games': Double Scorpion, PySolFC game id 511 (as dealt since 3.4.0)",
)
DOUBLE_DEALT = Rules(
    name="double-dealt",
    face_down=(4, 4, 4, 4, 4, 0, 0, 0, 0, 0),
    decks=2,
    tail_size=0,
    dealt_at_start=4,
    pysolfc_game=511,
    source="docs/rules.md 'Relatives: two new games': Double Scorpion with all 104 cards dealt at the start "
    "(PySolFC before 3.4.0, Goodsol)",
)
MICE = Rules(
    name="mice",
    face_down=(0, 0, 0, 0, 0, 0, 0, 3, 3, 3),
    tail_size=0,
    reserves=2,
    pysolfc_game=305,
    source="docs/rules.md 'Relatives: two new games': Three Blind Mice, PySolFC game id 305",
)

PRESETS: dict[str, Rules] = {r.name: r for r in (CLEAR, CLASSIC, WASP, SCORPION2, GOODSOL, DOUBLE, DOUBLE_DEALT, MICE)}
MODES = ("clear", "classic")


def get_rules(name: str) -> Rules:
    """The preset called ``name``; ValueError listing the known names otherwise."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        known = ", ".join(PRESETS)
        raise ValueError(f"unknown rules '{name}' (known: {known})") from None
