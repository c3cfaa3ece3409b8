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

    ``face_down`` gives, per column 1-7, how many of its bottom cards are dealt
    face down. The win condition follows from ``runs``: with swept runs the
    game is won when all four runs have been swept; otherwise when every suit
    lies on the table as a face-up King-to-Ace run (stacked runs count).
    """

    name: str
    runs: str = RUNS_SWEPT
    tail: str = TAIL_ANYTIME
    space: str = SPACE_KINGS
    face_down: tuple[int, ...] = (3, 3, 3, 3, 0, 0, 0)
    source: str = ""

    def __post_init__(self) -> None:
        if self.runs not in (RUNS_SWEPT, RUNS_FROZEN, RUNS_LEFT):
            raise ValueError(f"unknown runs rule {self.runs!r}")
        if self.tail not in (TAIL_ANYTIME, TAIL_WHEN_STUCK):
            raise ValueError(f"unknown tail rule {self.tail!r}")
        if self.space not in (SPACE_KINGS, SPACE_ANY):
            raise ValueError(f"unknown space rule {self.space!r}")
        if len(self.face_down) != 7 or not all(0 <= n <= 7 for n in self.face_down):
            raise ValueError("face_down needs seven counts between 0 and 7")

    @property
    def sweeps(self) -> bool:
        return self.runs == RUNS_SWEPT

    @property
    def freezes(self) -> bool:
        return self.runs == RUNS_FROZEN


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

PRESETS: dict[str, Rules] = {r.name: r for r in (CLEAR, CLASSIC, WASP, SCORPION2, GOODSOL)}
MODES = ("clear", "classic")


def get_rules(name: str) -> Rules:
    """The preset called ``name``; ValueError listing the known names otherwise."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        known = ", ".join(PRESETS)
        raise ValueError(f"unknown rules '{name}' (known: {known})") from None
