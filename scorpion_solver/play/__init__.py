"""Play without peeking: policies that see only the player's view, fair hints, the game harness.

* ``greedy``: the heuristic move order (uncover, make spaces, hold the tail);
* ``policies``: ``random``, ``greedy`` and ``hop`` (hindsight optimisation), whose
  one entry point takes an Observation, never a Position;
* ``fair``: fair hints, every move judged over sampled layouts of the hidden cards;
* ``game``: the harness that plays a policy from a true position and keeps the record;
* ``intervals``: the Wilson interval.

Sits beside ``analysis`` (above ``solver`` and ``game``); ``batch`` runs games in bulk.
"""

from .game import GameRecord, play_game
from .policies import POLICIES, GreedyPolicy, History, HopPolicy, Policy, PolicySpec, RandomPolicy, make_policy

__all__ = [
    "POLICIES",
    "GameRecord",
    "GreedyPolicy",
    "History",
    "HopPolicy",
    "Policy",
    "PolicySpec",
    "RandomPolicy",
    "make_policy",
    "play_game",
]
