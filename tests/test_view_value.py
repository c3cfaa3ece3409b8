"""The learned value of a view (play.view_value, issue 38 item 3): its features read the view alone, its fit
recovers a known model, the committed model is the one its file says, and commit's value_ties only
reorders commitments tied for the most layouts won."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorpion_solver.game.cards import make_card
from scorpion_solver.game.deal import deal
from scorpion_solver.game.rules import CLASSIC, CLEAR, get_rules
from scorpion_solver.game.view import Observation, sample_positions
from scorpion_solver.play import view_value
from scorpion_solver.play.commit import Judged, ranked


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC])
def test_the_features_of_a_view_are_the_same_whatever_its_hidden_cards(rules):
    view = Observation.of(deal(5, rules))
    features = view_value.view_features(view, rules)
    named = dict(zip(view_value.FEATURES, features, strict=True))
    unseen = len(view.hidden_slots())
    assert named["unseen"] == unseen == 15  # 12 face down, the tail's 3
    assert (named["face_down"], named["tail_to_come"], named["empty_columns"]) == (12, 1.0, 0)
    assert named["legal_moves"] == len(view.legal_moves(rules))
    for layout in sample_positions(view, 6, seed=1):
        assert view_value.view_features(Observation.of(layout), rules) == features


def test_the_column_features_of_a_hand_made_column():
    # one column, bottom first: a face-down card, then K♠ Q♠ 9♠ J♠ T♠ (six empty columns beside it)
    spade = {rank: make_card(rank, 1) for rank in (13, 12, 11, 10, 9)}
    column = (-1, spade[13], spade[12], spade[9], spade[11], spade[10])
    named = view_value.column_counts(Observation((column,) + ((),) * 6, (1, 0, 0, 0, 0, 0, 0), ()))
    assert named["kings_not_at_bottom"] == 1  # K♠ lies on a face-down card
    assert named["links"] == 2  # Q♠ on K♠, T♠ on J♠
    assert named["inversions"] == 2  # J♠ and T♠ above 9♠, neither on it
    assert named["buried_under_own_successor"] == 1  # 9♠ lies below T♠, the card it builds on
    assert (named["empty_columns"], named["face_down"], named["longest_column"]) == (6, 1, 6)


def test_newtons_fit_recovers_the_model_that_made_binomial_labels():
    rng = np.random.default_rng(7)
    x = rng.normal(loc=[3.0, -1.0], scale=[2.0, 0.5], size=(4000, 2))
    p = 1 / (1 + np.exp(-(0.3 + 0.6 * x[:, 0] - 1.6 * x[:, 1])))
    wins = rng.binomial(50, p).astype(float)
    model = view_value.fit_logistic(x, wins, np.full(4000, 50.0), ridge=0.0)
    slope = model.weights[1:] / model.scale
    intercept = model.weights[0] - np.sum(slope * model.mean)
    assert [intercept, *slope] == pytest.approx([0.3, 0.6, -1.6], abs=0.05)
    assert model.predict(x[:3]) == pytest.approx(p[:3], abs=0.02)


def test_the_committed_model_covers_both_modes_on_the_features_it_names():
    record = json.loads(view_value.MODEL_FILE.read_text())
    assert record["features"] == list(view_value.FEATURES)
    assert set(record["models"]) == {"clear", "classic"}
    for folder in record["trained_on"]["folders"]:
        assert folder.startswith("losses-play-1-2000-") and not folder.endswith("-tail")  # the development range
    for mode in ("clear", "classic"):
        rules = get_rules(mode)
        model = view_value.learned_value(mode)
        assert len(model.weights) == len(view_value.FEATURES) + 1
        start = model.value([Observation.of(deal(5, rules))], rules)
        assert 0 < start < 1
    with pytest.raises(view_value.NoModel, match="no learned value for the rules 'nowhere'"):
        view_value.learned_value("nowhere")


def test_value_ties_reorders_only_the_commitments_tied_for_the_most_layouts_won():
    won = np.array([[1, 1, 0, 1], [1, 1, 1, 0], [0, 0, 0, 1]], dtype=bool)  # wins 2, 2, 1, 2
    judged = Judged(won, np.zeros_like(won), alive=[0, 1, 2, 3])
    assert ranked(judged) == [0, 1, 3, 2]  # ties: the nearest reveal
    assert ranked(judged, {0: 0.2, 1: 0.5, 3: 0.4}) == [1, 3, 0, 2]  # ties: the higher value
    assert ranked(judged, {2: 0.99}) == [0, 1, 3, 2]  # a value never lifts a commitment over more wins
