"""The games ``scorpion serve`` offers: each a preset of ``game.rules``, with the words a player reads.

The engine plays every preset (``game.rules.PRESETS``); the server offers those whose board it can
draw (:data:`PLAYABLE`, in the start page's order). Each :class:`Game` names its preset in a player's
words, says in one line how it differs from Scorpion (the start page), and names the section of the
rules page's player's part (docs/playing.md) that is its own: a refusal of a rule the game changes
links there (:func:`rule_section`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game.rules import PRESETS, Rules


@dataclass(frozen=True)
class Game:
    mode: str  # the preset's name (``game.rules.PRESETS``), the mode a request and the database name
    name: str  # what the player reads
    differs: str  # one line: how it differs from Scorpion (Clear runs)
    section: str  # the id of its part of docs/playing.md (GitHub's heading ids)
    # the layouts the page's fair hint samples (a hint asked without ``samples`` too): Double Scorpion's
    # 104 cards make each solve slower and each layout judge more moves (docs/serve.md: its cost measured)
    hint_samples: int = 30
    # whether the graded pool grades its deals (serve.pool), by the rule of ``scorpion deals`` (the exact
    # search, greedy, the look-ahead player): every game offered today; False keeps a game whose players
    # cannot grade it out of the pool, its graded pick a 400 that says why
    graded: bool = True

    @property
    def rules(self) -> Rules:
        return PRESETS[self.mode]

    def about(self) -> dict:
        """The game as STATE's ``rules`` carries it: its words and the shape the board draws."""
        rules = self.rules
        return {
            "name": self.name,
            "differs": self.differs,
            "section": self.section,
            "columns": rules.num_columns,
            "runs": rules.runs,
            "space": rules.space,
            "tail": rules.tail,
            "tail_size": rules.tail_size,
            "decks": rules.decks,
            "reserves": rules.reserves,
            "hint_samples": self.hint_samples,
            "graded": self.graded,
        }


GAMES: dict[str, Game] = {
    g.mode: g
    for g in (
        Game(
            "clear",
            "Scorpion, Clear runs",
            "the game as PySolFC plays it: a complete King-to-Ace run is swept off, the tail is dealt any time",
            "a-complete-suit-clear-runs-and-classic",
        ),
        Game(
            "classic",
            "Scorpion, classic",
            "a complete run stays on the table, frozen; the tail only when no other move is left",
            "a-complete-suit-clear-runs-and-classic",
        ),
        Game(
            "scorpion2",
            "Easy Scorpion",
            "Clear runs with only columns 1-3 dealt partly face down: column 4 starts face up",
            "easy-scorpion",
        ),
        Game("wasp", "Wasp", "Clear runs in which any card, not only a King, may go into an empty column", "wasp"),
        Game(
            "goodsol",
            "Scorpion, Goodsol rules",
            "a complete run stays on the table and its cards still move; won when every suit lies built",
            "the-goodsol-rules",
        ),
        Game(
            "mice",
            "Three Blind Mice",
            "ten columns of five, face down only in columns 8-10; no tail, but two reserve cards that play "
            "onto the table and are never refilled",
            "three-blind-mice",
        ),
        Game(
            "double",
            "Double Scorpion",
            "two decks in ten columns of ten, face down in columns 1-5; eight runs to sweep; a tail of four",
            "double-scorpion",
            hint_samples=10,
        ),
        Game(
            "double-dealt",
            "Double Scorpion, all dealt",
            "Double Scorpion with its four tail cards dealt at the start onto columns 1-4: no tail",
            "double-scorpion",
            hint_samples=10,
        ),
    )
}
PLAYABLE = tuple(GAMES)  # the modes a game may be played in, in the start page's order
GRADED = tuple(mode for mode, game in GAMES.items() if game.graded)  # the modes of graded deals


def game_of(mode: str) -> Game:
    return GAMES[mode]


# The section of docs/playing.md each rule word of ``game.refusals`` links to (tests/test_rules_page.py keeps
# them in step with the headings): the general part, unless the game's own part changes that rule.
RULE_SECTIONS = {
    "same-suit": "moving-cards",
    "one-rank-up": "moving-cards",
    "ace": "moving-cards",
    "king": "moving-cards",
    "face-up": "moving-cards",
    "column": "moving-cards",
    "same-column": "moving-cards",
    "space-king": "empty-columns",
    "changes-nothing": "empty-columns",
    "space-leftmost": "empty-columns",
    "tail-once": "the-tail",
    "tail-when-stuck": "the-tail",
    "frozen": "a-complete-suit-clear-runs-and-classic",
    "game-over": "won-and-lost",
    "reserve": "three-blind-mice",
}
# the rules each game changes: a refusal of one of them links to the game's own part
OWN_RULES = {
    "wasp": ("changes-nothing", "space-leftmost"),
    "goodsol": ("game-over",),
    "scorpion2": (),
    # a tail of four onto columns 1-4 (or none): the empty columns it cannot reach are others than Scorpion's
    "double": ("tail-once", "changes-nothing", "space-leftmost"),
    "double-dealt": ("tail-once", "changes-nothing", "space-leftmost"),
}


def rule_section(rule: str, mode: str) -> str:
    """The id of the rules page's section a refusal of ``rule`` in ``mode`` links to."""
    if rule in OWN_RULES.get(mode, ()):
        return GAMES[mode].section
    return RULE_SECTIONS.get(rule, "moving-cards")
