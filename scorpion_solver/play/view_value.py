"""A learned value of a view: the share of its layouts winnable, predicted from cheap features, no solve.

commit judges commitments by solves on sampled layouts, and breaks a tie
by the nearest reveal. With ``value_ties`` it breaks a tie at the top by
this value instead: the mean, over its first ``VALUE_LAYOUTS`` layouts, of the
predicted share of the view after the commitment in that layout (the card it
turns up is the layout's). ``benchmarks/learned_value.py`` measured the
idea before it was played: in Clear runs the value of 8 layouts chose a
commitment better than 8 layouts' solves did. Played with commit2
``--rejudge-tail`` on the held-out range it won no more (69.06% against
70.17% over 3 seeds, results/README.md), so it stays off by default.

The model is a logistic regression of the share of 50 sampled layouts
winnable at a decision, ``scorpion losses``' ``before`` column, on the
FEATURES of the decision's view, one model a rules preset, fitted by
Newton's method (``fit_logistic``) on every committed losses folder of the
development range (deals 1-2000; the held-out range is never read).
``benchmarks/learned_value.py --write-model`` fits it and writes
``view_value.json`` beside this module: the features' names, their means and
scales, the weights, and what it was trained on. Only the view is read: the
features are functions of an Observation (``tests/test_view_value.py``
re-deals the hidden cards to show it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from ..game.cards import RUN_LENGTH, is_king
from ..game.rules import Rules
from ..game.view import Observation

MODEL_FILE = Path(__file__).with_name("view_value.json")
VALUE_LAYOUTS = 8  # a commitment's value: the mean over this many of the decision's layouts
RIDGE = 1e-3  # the fit's ridge, a share of the rows (the features are standardised)
FEATURES = (
    "unseen",
    "face_down",
    "tail_to_come",
    "empty_columns",
    "links",
    "swept_suits",
    "kings_not_at_bottom",
    "unseen_kings",
    "inversions",
    "buried_under_own_successor",
    "legal_moves",
    "longest_column",
    "columns_with_face_down",
)


def view_features(view: Observation, rules: Rules) -> list[float]:
    """Cheap features of a view, read from the view alone, in the order of FEATURES."""
    counts = column_counts(view)
    counts.update(
        unseen=len(view.hidden_slots()),
        tail_to_come=float(bool(view.tail)),
        swept_suits=len(view.swept),
        unseen_kings=sum(1 for c in view.unseen if is_king(c)),
        legal_moves=len(view.legal_moves(rules)),
    )
    return [float(counts[name]) for name in FEATURES]


def column_counts(view: Observation) -> dict:
    """The features read column by column from the face-up cards.

    * ``links``: face-up neighbours already in sequence (a card on the card one rank above it, same suit);
    * ``inversions``: pairs of face-up cards of one suit in one column, the lower rank below the higher
      (never a linked pair, where the higher is below): the higher must leave before the lower is built on;
    * ``buried_under_own_successor``: face-up cards lying below, in their own column, the card they build on
      (that card must move away, with everything on it, first).
    """
    names = (
        "face_down",
        "columns_with_face_down",
        "empty_columns",
        "links",
        "inversions",
        "kings_not_at_bottom",
        "buried_under_own_successor",
        "longest_column",
    )
    counts = dict.fromkeys(names, 0)
    for col, hidden in zip(view.columns, view.hidden, strict=True):
        counts["longest_column"] = max(counts["longest_column"], len(col))
        counts["face_down"] += hidden
        counts["columns_with_face_down"] += hidden > 0
        counts["empty_columns"] += not col
        up = col[hidden:]
        where = {card: j for j, card in enumerate(up)}
        for j, card in enumerate(up):
            king = is_king(card)
            counts["kings_not_at_bottom"] += king and bool(hidden or j)
            counts["links"] += j + 1 < len(up) and up[j + 1] == card - 1 and card % RUN_LENGTH > 0
            counts["buried_under_own_successor"] += not king and where.get(card + 1, -1) > j
            same_suit_higher_above = (c for c in up[j + 1 :] if c // RUN_LENGTH == card // RUN_LENGTH and c > card)
            counts["inversions"] += sum(1 for _ in same_suit_higher_above)
    return counts


@dataclass(frozen=True)
class LogisticModel:
    """P(winnable) = 1 / (1 + exp(-(w0 + w . (x - mean) / scale))) for the features x of a view."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # the intercept first

    def predict(self, x: np.ndarray) -> np.ndarray:
        z = (np.atleast_2d(x) - self.mean) / self.scale
        return 1 / (1 + np.exp(-(self.weights[0] + z @ self.weights[1:])))

    def value(self, views: list[Observation], rules: Rules) -> float:
        """The mean predicted share of ``views``."""
        return float(self.predict(np.array([view_features(v, rules) for v in views])).mean())

    def as_dict(self) -> dict:
        return {"mean": self.mean.tolist(), "scale": self.scale.tolist(), "weights": self.weights.tolist()}


def fit_logistic(x: np.ndarray, wins: np.ndarray, trials: np.ndarray, ridge: float = RIDGE) -> LogisticModel:
    """Binomial logistic regression (``wins`` of ``trials`` a row) by Newton's method on standardised features."""
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    penalty = ridge * len(x) * np.diag(np.r_[0.0, np.ones(z.shape[1] - 1)])  # the intercept is not shrunk
    w = np.zeros(z.shape[1])
    w[0] = np.log((wins.sum() + 0.5) / (trials.sum() - wins.sum() + 0.5))
    for _ in range(100):
        p = 1 / (1 + np.exp(-z @ w))
        gradient = z.T @ (wins - trials * p) - penalty @ w
        hessian = (z * (trials * p * (1 - p))[:, None]).T @ z + penalty
        step = np.linalg.solve(hessian, gradient)
        w += step
        if np.abs(step).max() < 1e-10:
            break
    return LogisticModel(mean, scale, w)


class NoModel(LookupError):
    """No learned value for these rules in ``view_value.json``."""


@cache
def learned_value(rules_name: str) -> LogisticModel:
    """The committed model of a rules preset (``view_value.json``); NoModel if it has none."""
    models = json.loads(MODEL_FILE.read_text())
    if models.get("features") != list(FEATURES):
        raise NoModel(f"{MODEL_FILE.name} was fitted on other features than {', '.join(FEATURES)}")
    found = models["models"].get(rules_name)
    if found is None:
        raise NoModel(f"{MODEL_FILE.name} has no learned value for the rules {rules_name!r}")
    return LogisticModel(*(np.array(found[k], dtype=float) for k in ("mean", "scale", "weights")))
