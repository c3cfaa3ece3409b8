"""The players by name: ``make_policy`` builds one, ``PolicySpec`` carries its settings to a batch worker."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game.rules import CLEAR, Rules
from ..solver.reductions import Reductions, get_reductions
from .commit import CommitPolicy
from .commit2 import TwoLevelCommitPolicy
from .policies import DEFAULT_NODES, DEFAULT_SAMPLES, PLAY_REDUCTIONS, GreedyPolicy, HopPolicy, Policy, RandomPolicy

PLAYERS: dict[str, type[Policy]] = {
    p.name: p for p in (RandomPolicy, GreedyPolicy, HopPolicy, CommitPolicy, TwoLevelCommitPolicy)
}
POLICIES = tuple(PLAYERS)
LOOKAHEAD = tuple(name for name, p in PLAYERS.items() if issubclass(p, HopPolicy))  # they solve sampled layouts


def make_policy(name: str, rules: Rules = CLEAR, seed: int = 0, **options) -> Policy:
    """The policy called ``name``, with ``options``: the fields of its class's ``Options`` (named in ``OPTIONS``).

    hop takes ``samples``, ``nodes``, ``bandit``, ``exact_endgame``,
    ``memory_mb`` and ``reductions`` (those of its solves; None:
    ``PLAY_REDUCTIONS``): ``HopOptions``; commit takes the same but
    ``bandit`` (it always plays with it off), and ``max_views`` and
    ``rejudge_tail``: ``CommitOptions``; commit2 takes commit's and ``top``,
    ``outer``, ``inner``: ``TwoLevelOptions``; random and greedy take none.
    An option the policy does not take is refused (ValueError), never
    ignored, and so is a bad value (``samples`` below 1, say).
    """
    player = PLAYERS.get(name)
    if player is None:
        raise ValueError(f"unknown policy '{name}' (known: {', '.join(POLICIES)})")
    for option in options:
        if option not in player.OPTIONS:
            takers = [p.name for p in PLAYERS.values() if option in p.OPTIONS]
            named = " and ".join([", ".join(takers[:-1]), takers[-1]] if len(takers) > 1 else takers)
            raise ValueError(f"'{option}' is an option of {named or 'no policy'}, not of {name}")
    return player(rules, seed, **options)


# The options a PolicySpec carries as its own fields (and ``scorpion play`` as its own flags); the others
# travel in ``PolicySpec.options``.
SPEC_FIELDS = ("samples", "nodes", "bandit", "exact_endgame", "rejudge_tail", "reductions")


@dataclass
class PolicySpec:
    """A policy's settings as plain data (what a batch worker needs to build it)."""

    name: str
    samples: int = DEFAULT_SAMPLES
    nodes: int = DEFAULT_NODES
    bandit: bool = False
    seed: int = 0
    extra: dict = field(default_factory=dict)
    rejudge_tail: bool = False  # commit, commit2: judge again where an earlier commitment would deal the tail
    exact_endgame: int = 0  # hop, commit, commit2: play the exact endgame from this many unseen cards down (0: never)
    # The preset of the search reductions of the game's solves (the policy's and the harness's proofs); None:
    # the play folder's, or PLAY_REDUCTIONS (a folder that records none was played with that one).
    reductions: str | None = None
    # The policy's other options by name (commit2's top, outer, inner; commit's max_views, screen, keep; the
    # exact endgame's budget; memory_mb): fields of its ``Options``, checked by ``make_policy``; unset: defaults.
    options: dict = field(default_factory=dict)

    def search_reductions(self) -> Reductions:
        return get_reductions(self.reductions or PLAY_REDUCTIONS)

    def _options(self) -> dict:
        options = {}
        if self.name in LOOKAHEAD:
            options = {"samples": self.samples, "nodes": self.nodes}
        if self.bandit or self.name == "hop":
            options["bandit"] = self.bandit
        if self.exact_endgame:
            options["exact_endgame"] = self.exact_endgame
        if self.rejudge_tail:
            options["rejudge_tail"] = True
        for name in self.options:
            if name in SPEC_FIELDS:
                raise ValueError(f"'{name}' is a setting of its own, not one of the other options")
        return {**options, **self.options}

    def build(self, rules: Rules, game_seed: int) -> Policy:
        """The policy, seeded with ``game_seed``; an option it does not take, or a bad value, is a ValueError."""
        options = self._options()
        if self.name in LOOKAHEAD:
            options["reductions"] = self.search_reductions()
        return make_policy(self.name, rules, game_seed, **options)

    def record(self) -> dict:
        """Every setting of the policy as a play folder records it (``reductions``: the preset's name).

        The name, the seed, the reductions and every option of its class's
        ``Options`` (``PolicyOptions.record``), set or not; a bad option is a
        ValueError, as in ``build``.
        """
        return {
            "policy": self.name,
            "seed": self.seed,
            "reductions": self.reductions or PLAY_REDUCTIONS,
            **make_policy(self.name, CLEAR, 0, **self._options()).options.record(),
        }

    def changed_options(self) -> dict:
        """The entries of ``options`` whose value is not the policy's default, in the order the options are declared."""
        defaults = PLAYERS[self.name].Options().record()
        return {k: self.options[k] for k in defaults if k in self.options and self.options[k] != defaults[k]}
