"""The exact no-peek endgame (issue 24 item 1): V(view) against a brute-force twin, hand-checkable views,
and the proof that it reads only the view."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from scorpion_cli import run

from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, is_won, legal_moves, parse_moves, replay
from scorpion_solver.game.position import Position
from scorpion_solver.game.rules import get_rules
from scorpion_solver.game.view import UNKNOWN, Observation
from scorpion_solver.game.view_text import parse_view
from scorpion_solver.play import History, PolicySpec, make_policy, play_game
from scorpion_solver.play.exact import ExactEndgame, TooManyUnseen, exact_report
from scorpion_solver.solver.result import LOST, WON, Limits
from scorpion_solver.solver.search import solve

CLEAR = get_rules("clear")
CLASSIC = get_rules("classic")
MICE = get_rules("mice")  # Three Blind Mice: ten columns, two reserve cards, nine cards face down, no tail


# --------------------------------------------------------------------------
# the brute-force twin: no cuts, no shared graph, no slot-by-slot reveals


def _winnable(position: Position, rules) -> bool:
    if is_won(position, rules):
        return True
    result = solve(position, rules, Limits(nodes=2_000_000))
    assert result.status in (WON, LOST)
    return result.status == WON


def _outcome(view: Observation, position: Position) -> Observation:
    """The view after a move played on one arrangement: the slots still hidden stay unknown."""
    unknown = set(view.hidden_slots())
    columns = tuple(
        tuple(UNKNOWN if (i, j) in unknown and j < position.hidden[i] else c for j, c in enumerate(col))
        for i, col in enumerate(position.columns)
    )
    tail = tuple(UNKNOWN if (-1, t) in unknown else c for t, c in enumerate(position.tail))
    swept = frozenset(position.swept_suits())
    return Observation(columns, position.hidden, tail, swept, position.frozen, position.reserves)


def twin_move_value(view: Observation, move, rules, memo: dict | None = None) -> Fraction:
    """A move's value: the average, over every arrangement of the unseen cards, of V after it."""
    memo = {} if memo is None else memo
    arrangements = list(itertools.permutations(view.unseen))
    total = Fraction(0)
    for cards in arrangements:
        after = apply_move(view.filled(cards), move, rules)
        total += twin_value(_outcome(view, after), rules, memo)
    return total / len(arrangements)


def twin_value(view: Observation, rules, memo: dict | None = None) -> Fraction:
    """V by plain enumeration: every view reachable without a reveal (depth first), every revealing move of each,
    every arrangement of the unseen cards behind it; down to no unseen card, where the solver decides."""
    memo = {} if memo is None else memo
    if view.key() in memo:
        return memo[view.key()]
    if not view.hidden_slots():
        return Fraction(int(_winnable(view.stand_in(), rules)))
    best = Fraction(0)
    stack, seen = [view], {view.key()}
    while stack:
        w = stack.pop()
        for move in w.legal_moves(rules):
            if w.reveals(move, rules):
                best = max(best, twin_move_value(w, move, rules, memo))
                continue
            after = w.after(move, rules)
            if is_won(after.stand_in(), rules):
                best = Fraction(1)
            elif after.key() not in seen:
                seen.add(after.key())
                stack.append(after)
    memo[view.key()] = best
    return best


def twin_share(view: Observation, rules) -> Fraction:
    arrangements = list(itertools.permutations(view.unseen))
    return Fraction(sum(_winnable(view.filled(c), rules) for c in arrangements), len(arrangements))


# --------------------------------------------------------------------------
# views of real games


def late_views(number: int, rules, unseen: range) -> list[Observation]:
    """The player's views along a won line of a deal, one for each count of unseen cards asked for."""
    position = deal(number, rules)
    result = solve(position, rules, Limits(nodes=5_000_000))
    assert result.status == WON
    out = {}
    for move in parse_moves(result.solution):
        view = Observation.of(position)
        n = len(view.hidden_slots())
        if n in unseen and n not in out:
            out[n] = view
        position = apply_move(position, move, rules)
    return [out[n] for n in sorted(out)]


def off_line_views(view: Observation, rules) -> list[Observation]:
    """Views one non-revealing move away from ``view`` (not on the winning line: some of them lose)."""
    return [a for m in view.legal_moves(rules) if (a := view.after(m, rules)) is not None and a.hidden_slots()]


SLOW = pytest.mark.slow  # deal 33's late views have big closures: minutes for the twin
REAL = [
    pytest.param(5, CLEAR, id="5-clear"),
    pytest.param(33, CLEAR, marks=SLOW, id="33-clear"),
    pytest.param(37, CLEAR, id="37-clear"),
    pytest.param(5, CLASSIC, id="5-classic"),
    pytest.param(37, CLASSIC, id="37-classic"),
    pytest.param(3, MICE, id="3-mice"),
    pytest.param(4, MICE, id="4-mice"),
]


@pytest.mark.parametrize("number,rules", REAL)
def test_value_equals_the_brute_force_twin_on_late_views(number, rules):
    views = late_views(number, rules, range(1, 4))
    assert views, "the line must pass through views with 1-3 unseen cards"
    views += [w for v in views[-1:] for w in off_line_views(v, rules)][:4]
    for view in views:
        engine = ExactEndgame(rules)
        assert engine.value(view) == twin_value(view, rules), str(view)
        assert engine.thoughtful_share(view) == twin_share(view, rules)


@pytest.mark.parametrize("number,rules", REAL[:3])
def test_every_move_value_equals_the_twin(number, rules):
    view = late_views(number, rules, range(3, 4))[0]
    report = exact_report(view, rules)
    assert report.status == "exact"
    assert report.value == max(m.value for m in report.moves)
    for judged in report.moves:
        assert judged.value == twin_move_value(view, judged.move, rules), judged.text


@SLOW
def test_four_unseen_cards_match_the_twin():
    view = late_views(33, CLEAR, range(4, 5))[0]
    assert len(view.unseen) == 4
    value = ExactEndgame(CLEAR).value(view)
    assert value == twin_value(view, CLEAR) == Fraction(5, 6)


# --------------------------------------------------------------------------
# hand-checkable views


def _view(text: str):
    view, rules = parse_view(text)
    return view, rules


# Every arrangement wins: whatever lies under the two face-up cards, the player uncovers both and builds.
ALL_WIN = """
col1: ?? 2H
col2: ?? AH
col3: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C
col4: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H
col5:
col6:
col7:
tail: -
"""


def test_every_arrangement_wins_gives_one():
    view, rules = _view(ALL_WIN)
    engine = ExactEndgame(rules)
    assert engine.thoughtful_share(view) == 1
    assert engine.value(view) == 1 == twin_value(view, rules)


# No arrangement wins: every top card's predecessor lies below it in its own column, no column is empty and the
# tail is dealt, so no move is legal, whatever the two face-down cards (AC and AH) are.
NONE_WIN = """
col1: ?? ?? QC KC
col2: 2C 3C 4C 5C 6C
col3: 7C 8C 9C TC JC
col4: 2H 3H 4H 5H 6H
col5: 7H 8H 9H
col6: TH JH
col7: QH KH
tail: -
"""


def test_no_arrangement_wins_gives_zero():
    view, rules = _view(NONE_WIN)
    engine = ExactEndgame(rules)
    assert engine.thoughtful_share(view) == 0
    assert engine.value(view) == 0 == twin_value(view, rules)
    assert engine.report(view).best is None


# Found on deal 5's winning line (Clear runs): AH, 3D and 8S are unseen, two face down in column 1 and one in
# column 2, and column 5 is the only space. A player who saw the cards wins every arrangement; one who cannot
# must commit the space before seeing what lies where, and wins two arrangements in three.
GUESS = """
col1: ?? ?? 3C 2C AC QC JC TC 9C 8C 7C 6C
col2: ?? 5C 4C KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col3: 2D AD
col4: KD QD JD TD 9D 8D 7D 6D 5D 4D
col5:
col6: KS QS JS TS 9S
col7: KC 7S 6S 5S 4S 3S 2S AS
tail: -
"""


def test_value_below_the_share_when_the_player_must_guess():
    view, rules = _view(GUESS)
    engine = ExactEndgame(rules)
    assert engine.thoughtful_share(view) == 1 == twin_share(view, rules)
    assert engine.value(view) == Fraction(2, 3) == twin_value(view, rules)
    report = engine.report(view)
    assert report.value == Fraction(2, 3) and report.share == 1
    assert report.moves[0].value == Fraction(2, 3)
    for judged in report.moves:
        assert judged.value == twin_move_value(view, judged.move, rules), judged.text


def test_four_unseen_cards_below_the_share_in_classic():
    """Deal 5 in classic, one move off its winning line, four cards unseen: the player must guess."""
    view = late_views(5, CLASSIC, range(4, 5))[0]
    assert len(view.unseen) == 4
    worse = [w for w in off_line_views(view, CLASSIC) if len(w.unseen) == 4]
    engine = ExactEndgame(CLASSIC)
    found = [(engine.value(w), engine.thoughtful_share(w)) for w in worse]
    guess = next(w for w, (v, s) in zip(worse, found) if v < s)
    assert (engine.value(guess), engine.thoughtful_share(guess)) == (Fraction(7, 12), Fraction(2, 3))
    assert twin_value(guess, CLASSIC) == Fraction(7, 12) and twin_share(guess, CLASSIC) == Fraction(2, 3)


# The tail still to deal, three of the four unseen cards in it, one face down under the hearts run K..2 of
# column 2: the deal reveals an ordered triple, and when AH lands on column 2 (the tail's second card) the hearts
# are swept and the face-down card turns up in the same move (a fourth card revealed).
TAIL = """
col1: 3C 2C AC QC JC TC 9C 8C 7C 6C
col2: ?? KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col3: 2D AD
col4: KD QD JD TD 9D 8D 7D 6D 5D 4D
col5: 4C
col6: KS QS JS TS 9S
col7: KC 7S 6S 5S 4S 3S 2S AS
tail: ?? ?? ??
"""


def test_the_tail_deal_reveals_an_ordered_triple_and_a_sweep_one_more():
    view, rules = _view(TAIL)
    engine = ExactEndgame(rules)
    tail = next(m for m in view.legal_moves(rules) if m.is_tail)
    outcomes = engine._outcomes(view, tail)
    assert len(outcomes) == 4 * 3 * 2 and sum(p for p, _, _ in outcomes) == 1
    assert {len(revealed) for _, _, revealed in outcomes} == {3, 4}  # AH second: the sweep shows col2's card
    report = engine.report(view)
    values = {m.text: m.value for m in report.moves}
    assert values == {"3C:1>5": 1, "tail": Fraction(11, 12)} and report.value == 1
    assert values["tail"] == twin_move_value(view, tail, rules)


# --------------------------------------------------------------------------
# limits and the view alone


def test_too_many_unseen_cards_are_refused():
    view = Observation.of(deal(1, CLEAR))
    with pytest.raises(TooManyUnseen, match="15 unseen cards"):
        ExactEndgame(CLEAR).value(view)


def test_a_position_is_refused():
    with pytest.raises(TypeError, match="Observation"):
        ExactEndgame(CLEAR).value(deal(5, CLEAR))


def test_a_node_budget_makes_it_unknown_never_a_guess():
    view = late_views(33, CLEAR, range(4, 5))[0]
    engine = ExactEndgame(CLEAR, budget_nodes=50)
    assert engine.value(view) is None
    report = ExactEndgame(CLEAR, budget_nodes=50).report(view)
    assert report.status == "unknown" and report.value is None and report.stopped_by == "budget"
    walked = ExactEndgame(CLEAR, budget_views=3)
    assert walked.value(view) is None and walked.report(view).stopped_by == "views"


def traced_from_views(monkeypatch, truths, compute) -> tuple[list, list]:
    """``compute(Observation.of(truth))`` for each true position, and the positions each call solved, in order."""
    import scorpion_solver.solver.search as search

    assert truths[0] != truths[1] and Observation.of(truths[0]) == Observation.of(truths[1])
    traces, results = [], []
    real = search.solve
    for truth in truths:
        solved: list = []
        monkeypatch.setattr(search, "solve", lambda p, *a, _s=solved, **k: (_s.append(p), real(p, *a, **k))[1])
        results.append(compute(Observation.of(truth)))
        traces.append(solved)
    return traces, results


def test_the_result_is_a_function_of_the_view_only(monkeypatch):
    """Two true positions with the same view: the same value, the same moves, and the very same positions solved
    (none of them is chosen by the true hidden cards)."""
    view = late_views(37, CLEAR, range(3, 4))[0]
    truths = [view.filled(cards) for cards in itertools.permutations(view.unseen)][:2]
    traces, reports = traced_from_views(monkeypatch, truths, lambda seen: ExactEndgame(CLEAR).report(seen))
    assert traces[0] == traces[1] and traces[0]
    assert reports[0].as_dict() | {"seconds": 0} == reports[1].as_dict() | {"seconds": 0}


def test_legal_moves_of_a_hand_view_are_those_of_the_engine():
    view, rules = _view(ALL_WIN)
    assert view.legal_moves(rules) == legal_moves(view.stand_in(), rules)


# --------------------------------------------------------------------------
# hop plays the exact endgame (scorpion play --exact-endgame N)


def _exact_hop(rules, seed=1):
    return make_policy("hop", rules, seed=seed, samples=4, exact_endgame=4)


@pytest.mark.parametrize(
    "text,rules,wins", [(GUESS, CLEAR, 4), (None, CLASSIC, 14)], ids=["guess-clear", "deal5-classic"]
)
def test_hop_with_the_exact_endgame_wins_exactly_v_of_the_arrangements(text, rules, wins):
    """Played from every arrangement of a view (the true positions it never sees), hop with the exact endgame
    wins the share V of them: 2/3 of GUESS's 6, 7/12 of the classic view's 24. Hop alone does no better."""
    if text is None:
        view = next(
            w
            for w in off_line_views(late_views(5, CLASSIC, range(4, 5))[0], CLASSIC)
            if ExactEndgame(CLASSIC).value(w) == Fraction(7, 12)
        )
    else:
        view, rules = _view(text)
    truths = [view.filled(cards) for cards in itertools.permutations(view.unseen)]
    records = [play_game(t, rules, _exact_hop(rules)) for t in truths]
    assert sum(r.outcome == "won" for r in records) == wins
    for truth, record in zip(truths, records):
        assert record.outcome != "won" or is_won(replay(truth, record.moves, rules), rules)
    plain = [play_game(t, rules, make_policy("hop", rules, seed=1, samples=4)) for t in truths]
    assert sum(r.outcome == "won" for r in plain) <= wins


def test_hop_with_the_exact_endgame_is_reproducible_and_sees_only_the_view():
    view, rules = _view(GUESS)
    truths = [view.filled(cards) for cards in itertools.permutations(view.unseen)]
    first = [_exact_hop(rules).choose(Observation.of(t), History()) for t in truths]
    assert len(set(first)) == 1  # the same view, whatever the hidden cards: the same move
    assert first[0] == ExactEndgame(rules).best_line(view)[1][0]
    again = [play_game(t, rules, _exact_hop(rules)).moves for t in truths[:3]]
    assert again == [play_game(t, rules, _exact_hop(rules)).moves for t in truths[:3]]
    with pytest.raises(TypeError, match="Observation"):
        _exact_hop(rules).choose(truths[0], History())


def test_the_exact_endgame_is_off_by_default_and_recorded():
    """Recorded off (0) too, with its budget (tests/test_play_settings.py holds every setting recorded)."""
    record = PolicySpec("hop").record()
    assert (record["exact_endgame"], record["exact_nodes"], record["exact_views"]) == (0, 5_000_000, 20_000)
    assert PolicySpec("hop", exact_endgame=5).record()["exact_endgame"] == 5
    assert make_policy("hop", CLEAR).options.exact_endgame == 0
    with pytest.raises(ValueError, match="option of hop"):
        make_policy("greedy", CLEAR, exact_endgame=3)


# --------------------------------------------------------------------------
# scorpion hint VIEW --fair --exact


def test_hint_fair_exact_text_and_json(tmp_path):
    from test_output import check, strict_json

    path = tmp_path / "guess.txt"
    path.write_text(GUESS)
    text = run("hint", path, "--fair", "--exact")
    assert text.exit_code == 0, text.output
    assert "exact value: 66.7% (2/3); thoughtful share: 100.0% (1)" in text.stdout
    assert "best move: KH:2>5" in text.stdout
    result = run("hint", path, "--fair", "--exact", "--json")
    assert result.exit_code == 0, result.output
    data = strict_json(result.stdout)
    check(data)
    assert (data["exact_fraction"], data["thoughtful_fraction"], data["unseen"]) == ("2/3", "1", 3)
    assert data["exact_value"] == pytest.approx(2 / 3) and data["thoughtful_share"] == 1.0
    assert {m["move"]: m["exact_fraction"] for m in data["moves"]} == {"KH:2>5": "2/3", "5C:2>1": "1/3"}


def test_hint_fair_exact_refuses_too_many_unseen_cards_and_needs_fair(tmp_path):
    result = run("hint", 5, "--fair", "--exact")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: the view has 15 unseen cards") and result.stderr.count("\n") == 1
    path = tmp_path / "guess.txt"
    path.write_text(GUESS)
    assert run("hint", path, "--fair", "--exact", "--max-unseen", 2).exit_code == 2
    result = run("hint", path, "--exact")
    assert result.exit_code == 2 and "give it with --fair" in result.stderr
    result = run("play", path, "--policy", "greedy", "--exact-endgame", 3)
    assert result.exit_code == 2 and "option of --policy hop" in result.stderr


# --------------------------------------------------------------------------
# a whole deal's value (Three Blind Mice: 9 unseen cards) and the blind deadlock test


def _blind_dead(view: Observation, rules) -> bool:
    from scorpion_solver.game.position import frozen_floor
    from scorpion_solver.solver.deadlock import dead_for_every_arrangement

    stand_in = view.stand_in()
    floors = [frozen_floor(stand_in, i) for i in range(len(view.columns))]
    return dead_for_every_arrangement(view.columns, view.hidden, view.tail, view.reserves, view.unseen, rules, floors)


@pytest.mark.parametrize("rules", [MICE, CLEAR, CLASSIC], ids=lambda r: r.name)
def test_a_view_the_blind_deadlock_test_calls_dead_is_lost_in_every_arrangement(rules):
    """Soundness, checked: each view it calls dead (opening views and views along random games) is lost in
    every sampled arrangement, by the solver (which never sees the blind test)."""
    import random

    from scorpion_solver.game.view import sample_positions

    rng = random.Random(rules.name)
    dead = alive = 0
    for number in range(1, 41):
        position = deal(number, rules)
        for ply in range(40):
            view = Observation.of(position)
            if view.hidden_slots() and ply % 8 == 0:
                if _blind_dead(view, rules):
                    dead += 1
                    for sample in sample_positions(view, 6, seed=number * 100 + ply):
                        assert solve(sample, rules, Limits(nodes=2_000_000)).status == LOST, f"{number} {ply}"
                else:
                    alive += 1
            moves = legal_moves(position, rules)
            if not moves:
                break
            position = apply_move(position, rng.choice(moves), rules)
    assert dead >= 5 and alive >= 5, (dead, alive)


def test_a_mice_deal_dead_for_every_arrangement_is_worth_zero_without_a_solve():
    from scorpion_solver.play.exact import deal_value

    dead = deal_value(Observation.of(deal(7, MICE)), MICE)  # deal 7's view: dead whatever its 9 unseen cards
    assert (dead.unseen, dead.status, dead.value, dead.share, dead.solves) == (9, "exact", 0, 0, 0)
    assert (dead.lower, dead.upper) == (0, 0)
    # deal 3 (V = S = 2033/5040, tests/test_cover.py's deal): a small budget leaves it unknown, bounded by the
    # arrangements solved so far: those lost lower the upper bound, those won make a cover, a floor
    cut = deal_value(Observation.of(deal(3, MICE)), MICE, budget_nodes=50_000)
    assert (cut.status, cut.value, cut.share, cut.stopped_by) == ("unknown", None, None, "budget")
    assert 0 < cut.lower == cut.covered < Fraction(2033, 5040) < cut.upper < 1 and cut.solves > 0
    assert (cut.upper * 362_880).denominator == 1  # a count of the 9! arrangements not known lost


def test_nopeek_study_folder_resumes_and_summarises(tmp_path):
    out = tmp_path / "nopeek"
    first = run("nopeek", "7-8", "--nodes", "5000", "--out", str(out), "--chunk", "1", "--workers", "1")
    assert first.exit_code == 0, first.output
    assert "| mice | 2 | 2 | 0 | 2 | 0.0000 |" in first.output  # both dead whatever the unseen cards: V = 0
    again = run("nopeek", "7-8", "--nodes", "5000", "--out", str(out), "--chunk", "1", "--workers", "1")
    assert "0 chunks written now, 2 before" in again.output
    more = run("nopeek", "3", "--nodes", "5000", "--out", str(out), "--workers", "1")
    assert more.exit_code == 2 and "holds a run with other deals" in more.stderr
    stats = run("stats", str(out), "--json")
    mice = json.loads(stats.output)["modes"]["mice"]
    assert (mice["deals"], mice["exact"], mice["value_zero"], mice["value_interval"]) == (2, 2, 2, [0.0, 0.0])
    assert (mice["exact_dead"], mice["exact_by_cover"], mice["exact_by_expectimax"]) == (2, 0, 0)
    refused = run("nopeek", "1", "--mode", "clear", "--out", str(tmp_path / "x"))
    assert refused.exit_code == 2 and "a deal of clear has 15 unseen cards" in refused.stderr
