"""Play without peeking: policies that see only the player's view, fair hints, the game harness.

* ``greedy``: the heuristic move order (uncover, make spaces, hold the tail);
* ``policies``: ``random``, ``greedy`` and ``hop`` (hindsight optimisation), whose
  one entry point takes an Observation, never a Position;
* ``commit``: hindsight optimisation over commitments (blind until the next reveal);
* ``commit2``: commitments judged two levels deep (blind until the second reveal);
* ``players``: the players by name (``make_policy``, ``PolicySpec``);
* ``exact``: the exact no-peek endgame;
* ``fair``: fair hints, every move judged over sampled layouts of the hidden cards;
* ``game``: the harness that plays a policy from a true position and keeps the record;
* ``intervals``: the Wilson interval.

Sits beside ``analysis`` (above ``solver`` and ``game``); ``batch`` runs games in bulk.
"""

from .commit import CommitPolicy
from .commit2 import TwoLevelCommitPolicy
from .game import GameRecord, play_game
from .players import POLICIES, PolicySpec, make_policy
from .policies import GreedyPolicy, History, HopPolicy, Policy, RandomPolicy

__all__ = [
    "POLICIES",
    "CommitPolicy",
    "GameRecord",
    "GreedyPolicy",
    "History",
    "HopPolicy",
    "Policy",
    "PolicySpec",
    "RandomPolicy",
    "TwoLevelCommitPolicy",
    "make_policy",
    "play_game",
]
