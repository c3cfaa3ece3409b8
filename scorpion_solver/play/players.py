"""The players by name: ``make_policy`` builds one, ``PolicySpec`` carries its settings to a batch worker."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game.rules import CLEAR, Rules
from ..solver.reductions import Reductions, get_reductions
from .commit import CommitPolicy
from .policies import DEFAULT_NODES, DEFAULT_SAMPLES, PLAY_REDUCTIONS, GreedyPolicy, HopPolicy, Policy, RandomPolicy

POLICIES = ("random", "greedy", "hop", "commit")


def make_policy(
    name: str,
    rules: Rules = CLEAR,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    nodes: int = DEFAULT_NODES,
    bandit: bool = False,
    exact_endgame: int = 0,
    reductions: Reductions | None = None,
) -> Policy:
    """The policy called ``name``; ``reductions`` are those of its solves (None: ``PLAY_REDUCTIONS``)."""
    if exact_endgame and name not in ("hop", "commit"):
        raise ValueError("the exact endgame is an option of hop and commit")
    if name == "random":
        return RandomPolicy(rules, seed)
    if name == "greedy":
        return GreedyPolicy(rules, seed)
    if name == "hop":
        return HopPolicy(rules, seed, samples, nodes, bandit, exact_endgame=exact_endgame, reductions=reductions)
    if name == "commit":
        if bandit:
            raise ValueError("the bandit is an option of hop")
        return CommitPolicy(
            rules, seed, samples=samples, nodes=nodes, exact_endgame=exact_endgame, reductions=reductions
        )
    raise ValueError(f"unknown policy '{name}' (known: {', '.join(POLICIES)})")


@dataclass
class PolicySpec:
    """A policy's settings as plain data (what a batch worker needs to build it)."""

    name: str
    samples: int = DEFAULT_SAMPLES
    nodes: int = DEFAULT_NODES
    bandit: bool = False
    seed: int = 0
    extra: dict = field(default_factory=dict)
    exact_endgame: int = 0  # hop, commit: play the exact endgame from this many unseen cards down (0: never)
    # The preset of the search reductions of the game's solves (the policy's and the harness's proofs); None:
    # the play folder's, or PLAY_REDUCTIONS (a folder that records none was played with that one).
    reductions: str | None = None

    def search_reductions(self) -> Reductions:
        return get_reductions(self.reductions or PLAY_REDUCTIONS)

    def build(self, rules: Rules, game_seed: int) -> Policy:
        return make_policy(
            self.name,
            rules,
            game_seed,
            self.samples,
            self.nodes,
            self.bandit,
            self.exact_endgame,
            self.search_reductions(),
        )

    def record(self) -> dict:
        """The policy's settings as a play folder records them (``reductions``: the preset's name)."""
        out = {"policy": self.name, "seed": self.seed, "reductions": self.reductions or PLAY_REDUCTIONS}
        if self.name in ("hop", "commit"):
            out.update(samples=self.samples, nodes=self.nodes)
            if self.name == "hop":
                out["bandit"] = self.bandit
            if self.exact_endgame:  # recorded only when on: the folders made before it read the same
                out["exact_endgame"] = self.exact_endgame
        return out
