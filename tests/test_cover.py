"""The cover (issue 53 item 4): a no-peek strategy built from the winning lines, replayed arrangement by
arrangement in the plain engine, never above the exact V, and equal to it wherever it reaches S."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from test_exact import CLASSIC, CLEAR, GUESS, MICE, _view, late_views, traced_from_views, twin_value

from scorpion_solver.game.deal import deal
from scorpion_solver.game.view import Observation
from scorpion_solver.play.cover import Commit, CoverBudgetSpent, Play, cover, replay_cover
from scorpion_solver.play.exact import ExactEndgame, deal_value


def _cover_of(view, rules, **options):
    engine = ExactEndgame(rules)
    engine.keep_lines()
    share = engine.thoughtful_share(view)
    return engine, share, cover(view, engine.winning_lines(view), rules, **options)


def _replayed_wins(view, strategy, rules) -> int:
    return sum(replay_cover(view, strategy, cards, rules) for cards in itertools.permutations(view.unseen))


VIEWS = [
    pytest.param(5, CLEAR, range(2, 6), id="5-clear"),
    pytest.param(37, CLEAR, range(2, 5), id="37-clear"),
    pytest.param(5, CLASSIC, range(2, 6), id="5-classic"),
    pytest.param(3, MICE, range(2, 6), id="3-mice"),
    pytest.param(4, MICE, range(2, 5), id="4-mice"),
]


@pytest.mark.parametrize("number,rules,unseen", VIEWS)
def test_the_cover_replays_to_its_count_and_agrees_with_the_exact_endgame(number, rules, unseen):
    views = late_views(number, rules, unseen)
    assert len(views) >= 3
    reached = 0
    for view in views:
        engine, share, found = _cover_of(view, rules)
        value = engine.value(view)
        assert found.arrangements == len(list(itertools.permutations(view.unseen)))
        # every arrangement it claims is won by playing the strategy in the plain engine, and no other
        assert _replayed_wins(view, found.strategy, rules) == found.won
        assert found.value <= value <= share  # a real strategy: never above the optimum
        if found.value == share:
            assert value == share  # where the cover reaches S, the expectimax finds V = S too
            reached += 1
    assert reached >= 1


def test_a_view_where_the_player_must_guess_is_covered_below_the_share():
    view, rules = _view(GUESS)  # S = 1, V = 2/3 (tests/test_exact.py)
    engine, share, found = _cover_of(view, rules)
    assert share == 1 and twin_value(view, rules) == Fraction(2, 3)
    assert found.value <= Fraction(2, 3)
    assert found.won == _replayed_wins(view, found.strategy, rules) and found.won >= 2  # of 6
    assert found.solves > 0  # the arrangements of the other commitments were solved after the one taken
    assert isinstance(found.strategy, Commit) and len(found.strategy.branches) >= 2


def test_the_cover_is_a_function_of_the_view_only(monkeypatch):
    """Two true positions with one view: the same strategy, built from the very same positions solved."""
    view = late_views(3, MICE, range(5, 6))[0]
    truths = [view.filled(cards) for cards in itertools.permutations(view.unseen)][::60][:2]
    traces, covers = traced_from_views(monkeypatch, truths, lambda seen: _cover_of(seen, MICE)[2])
    assert traces[0] == traces[1] and traces[0]
    assert (covers[0].strategy, covers[0].won) == (covers[1].strategy, covers[1].won)


def test_one_arrangement_left_plays_its_line_and_a_budget_is_never_a_guess():
    view = late_views(3, MICE, range(4, 5))[0]
    engine, _, _ = _cover_of(view, MICE)
    lines = engine.winning_lines(view)
    cards, line = next(iter(lines.items()))
    single = cover(view, {cards: line}, MICE)
    assert single.strategy == Play(line) and single.won == 1
    assert [c for c in itertools.permutations(view.unseen) if replay_cover(view, single.strategy, c, MICE)] == [cards]
    guess, rules = _view(GUESS)  # no commitment keeps every arrangement: the others are solved after it
    engine, _, found = _cover_of(guess, rules)
    assert found.solves > 0
    with pytest.raises(CoverBudgetSpent):
        cover(guess, engine.winning_lines(guess), rules, budget_nodes=0)


def test_a_whole_mice_deal_is_exact_where_its_cover_wins_every_winnable_arrangement():
    """Deal 7 is dead whatever its unseen cards; a late view of deal 3 with 6 unseen is decided by its cover."""
    dead = deal_value(Observation.of(deal(7, MICE)), MICE)
    assert (dead.status, dead.by, dead.value, dead.covered) == ("exact", "dead", 0, None)
    view = late_views(3, MICE, range(6, 7))[0]
    found = deal_value(view, MICE, budget_views=1)  # no expectimax: only the cover can make it exact
    assert found.share is not None and found.covered is not None and found.covered <= found.share
    if found.covered == found.share:
        assert (found.status, found.by, found.value) == ("exact", "cover", found.share)
        assert ExactEndgame(MICE).value(view) == found.share
    else:
        assert found.status == "unknown" and found.lower == found.covered and found.upper == found.share


def test_the_expectimax_starts_from_the_covers_value_and_still_finds_v():
    """Where the cover falls short of S, V is the larger of the cover and the best pair that beats it: the
    expectimax is given the cover's value as a floor, and finds the same V as from nothing, walking no more."""
    view, rules = _view(GUESS)  # S = 1, V = 2/3
    found = deal_value(view, rules)
    assert (found.status, found.by, found.value, found.share) == ("exact", "expectimax", Fraction(2, 3), 1)
    assert found.covered is not None and found.covered <= found.value
    plain = ExactEndgame(rules)
    assert plain.value(view) == Fraction(2, 3)
    assert found.views <= plain.views
    for floor in (Fraction(0), Fraction(1, 2), found.covered, Fraction(2, 3)):  # any floor a strategy reaches
        floored = ExactEndgame(rules)
        floored.check(view)
        assert floored._v(view, floor) == Fraction(2, 3)


def test_replay_counts_a_loss_for_what_does_not_fit_the_arrangement():
    view = late_views(3, MICE, range(3, 4))[0]
    _, _, found = _cover_of(view, MICE)
    assert isinstance(found.strategy, Commit)
    assert replay_cover(view, None, view.unseen, MICE) is False  # no strategy
    assert replay_cover(view, Play(()), view.unseen, MICE) is False  # a line that ends unwon
    first = found.strategy.moves[0]
    illegal = Commit((first, first), found.strategy.branches)  # the second copy of a move finds its card gone
    assert not any(replay_cover(view, illegal, c, MICE) for c in itertools.permutations(view.unseen))
    pruned = Commit(found.strategy.moves, {})  # a strategy without the branch the cards turned up
    assert not any(replay_cover(view, pruned, c, MICE) for c in itertools.permutations(view.unseen))
