"""The player's view: its text with ??, what it hides, and exact sampling of the hidden cards."""

from __future__ import annotations

import numpy as np
import pytest

from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, legal_moves
from scorpion_solver.game.position_text import PositionError, format_position
from scorpion_solver.game.rules import CLASSIC, CLEAR
from scorpion_solver.game.view import UNKNOWN, Observation, sample_positions
from scorpion_solver.game.view_text import format_view, parse_view

DEAL1_VIEW = """\
mode: clear
col1: ?? ?? ?? AS 4H TH 8D
col2: ?? ?? ?? AH AC 8H QS
col3: ?? ?? ?? 3C 4D 2C 6C
col4: ?? ?? ?? 4C 7S JH 3D
col5: 5D 5S 9D 5C 3S 7D 8C
col6: 7H AD QD TS TD 6D TC
col7: 7C QC JS QH 4S 8S 6S
tail: ?? ?? ??
"""


def test_view_of_deal_1_hides_the_twelve_face_down_cards_and_the_tail():
    view = Observation.of(deal(1, CLEAR))
    assert format_view(view, CLEAR) == DEAL1_VIEW
    assert len(view.hidden_slots()) == 15
    # the unseen cards are exactly deal 1's face-down cards and tail (docs/rules.md)
    hidden = "JD 5H KH 2D KD 3H 9H KC 2S JC 9S KS 9C 2H 6H".split()
    from scorpion_solver.game.cards import card_text

    assert sorted(card_text(c) for c in view.unseen) == sorted(hidden)
    assert parse_view(DEAL1_VIEW) == (view, CLEAR)


def test_a_position_without_unknowns_is_a_fully_known_view():
    position = deal(5, CLASSIC)
    view, rules = parse_view(format_position(position, CLASSIC))
    assert rules == CLASSIC and view.fully_known and view.unseen == ()
    assert view.stand_in() == position


@pytest.mark.parametrize(
    "line, message",
    [
        ("col1: AS ?? ?? ?? 4H TH 8D", "line 2: col1: the unknown card ?? lies above face-up card AS"),
        ("col1: AS 4H TH 8D ?? ?? ??", "line 2: col1: the unknown card ?? lies above face-up card AS"),
        ("col1: ?? ?? ?? AS 4H TH 8D ??", "line 2: col1: the unknown card ?? lies above face-up card AS"),
        ("col1: ?? ?? ?? AS 4H TH 8D 8C", "line 6: 8C appears twice (col1 and col5)"),
        ("col1: ?? ?? AS 4H TH 8D", "make 51; the cards off the table must be whole swept suits"),
        ("col1: ?? ?? ?? ?? AS 4H TH 8D", "unknown cards ?? but only"),
        ("col1: ?? ?? ?? AS 4H TH 8D KQ", "line 2: col1: 'KQ' is not a card"),
    ],
)
def test_the_reader_names_the_line_and_the_problem(line, message):
    text = DEAL1_VIEW.replace("col1: ?? ?? ?? AS 4H TH 8D", line)
    with pytest.raises(PositionError, match=None) as exc:
        parse_view(text)
    assert message in str(exc.value)


def test_the_reader_checks_face_down_counts_per_column_and_the_tail():
    moved = DEAL1_VIEW.replace("col4: ?? ?? ?? 4C 7S JH 3D", "col4: 4C 7S JH 3D").replace(
        "col5: 5D", "col5: ?? ?? ?? 5D"
    )
    with pytest.raises(PositionError, match="col5: 3 face-down cards, but clear deals 0 face down there"):
        parse_view(moved)
    with pytest.raises(PositionError, match="line 9: the tail holds 3 cards"):
        parse_view(DEAL1_VIEW.replace("tail: ?? ?? ??", "tail: ?? ??"))
    with pytest.raises(PositionError, match="the top card of a column is face up; it cannot be ??"):
        parse_view(DEAL1_VIEW.replace("col2: ?? ?? ?? AH AC 8H QS", "col2: ?? ??"))


def _random_walk(number: int, rules, steps: int, seed: int):
    """Positions along a random game from a deal (for properties that hold everywhere)."""
    rng = np.random.default_rng(seed)
    pos = deal(number, rules)
    out = [pos]
    for _ in range(steps):
        moves = legal_moves(pos, rules)
        if not moves:
            break
        pos = apply_move(pos, moves[int(rng.integers(len(moves)))], rules)
        out.append(pos)
    return out


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC])
def test_legal_moves_and_quiet_moves_never_depend_on_hidden_cards(rules):
    checked_after = 0
    for number in (1, 5, 33, 37, 100):
        for pos in _random_walk(number, rules, 60, seed=number):
            view = Observation.of(pos)
            assert view.problems(rules) == []
            moves = legal_moves(pos, rules)
            assert view.legal_moves(rules) == moves
            for move in moves:
                after = view.after(move, rules)
                truth = Observation.of(apply_move(pos, move, rules))
                if after is None:
                    assert truth.unseen != view.unseen  # it revealed a card
                else:
                    assert after == truth
                    checked_after += 1
    assert checked_after > 100


def test_samples_are_consistent_and_reproducible():
    pos = _random_walk(37, CLEAR, 20, seed=3)[-1]
    view = Observation.of(pos)
    first = sample_positions(view, 50, seed=7)
    assert first == sample_positions(view, 50, seed=7)
    assert first[:10] == sample_positions(view, 10, seed=7)
    assert first != sample_positions(view, 50, seed=8)
    for sample in first:
        assert Observation.of(sample) == view
    assert len({s for s in first}) > 40


def _slot_chi_square(samples, view) -> float:
    """Sum over unseen cards of the chi-square of that card's slot frequencies against uniform."""
    slots = view.hidden_slots()
    unseen = view.unseen
    counts = np.zeros((len(unseen), len(slots)))
    index = {c: i for i, c in enumerate(unseen)}
    for sample in samples:
        for s, (col, j) in enumerate(slots):
            card = sample.tail[j] if col < 0 else sample.columns[col][j]
            counts[index[card], s] += 1
    expected = len(samples) / len(slots)
    return float(((counts - expected) ** 2 / expected).sum())


def test_sampling_is_uniform_chi_square():
    view = Observation.of(deal(1, CLEAR))
    n, k = 3000, len(view.hidden_slots())
    dof = k * (k - 1)  # each card's row has k - 1 free cells
    threshold = dof + 5 * np.sqrt(2 * dof)  # about five standard deviations above the mean
    statistic = _slot_chi_square(sample_positions(view, n, seed=11), view)
    assert statistic < threshold
    # the test has power: a sampler that leaves the first two unseen cards in place 20% of the time fails it
    rng = np.random.default_rng(11)
    biased = []
    for _ in range(n):
        cards = rng.permutation(np.array(view.unseen))
        if rng.random() < 0.2:
            a, b = view.unseen[0], view.unseen[1]
            cards = np.array([a, b] + [c for c in cards if c not in (a, b)])
        biased.append(view.filled(cards))
    assert _slot_chi_square(biased, view) > threshold


def test_unknown_slots_are_the_face_down_and_tail_slots_only():
    view = Observation.of(_random_walk(5, CLEAR, 30, seed=1)[-1])
    for i, col in enumerate(view.columns):
        assert all((c == UNKNOWN) == (j < view.hidden[i]) for j, c in enumerate(col))
    assert all(c == UNKNOWN for c in view.tail)


def test_view_reader_reads_its_lines_as_the_position_reader_does():
    """One line reader for both formats: a byte-order mark is dropped, a repeated key names its first line."""
    view, _ = parse_view(DEAL1_VIEW)
    assert parse_view("\ufeff" + DEAL1_VIEW) == (view, CLEAR)
    repeated = DEAL1_VIEW + "col1: AS\n"
    with pytest.raises(PositionError, match=r"'col1' given twice \(first on line \d+\)"):
        parse_view(repeated)


def test_three_blind_mice_views_know_the_reserves_and_hide_only_the_nine_face_down_cards():
    from scorpion_solver.game.rules import get_rules

    mice = get_rules("mice")
    position = deal(1, mice)
    view = Observation.of(position)
    face_down = sorted(c for i, col in enumerate(position.columns) for c in col[: position.hidden[i]])
    assert len(position.reserves) == 2 and len(face_down) == 9
    assert sorted(view.unseen) == face_down  # the reserve cards lie face up: they are seen
    assert view.stand_in().reserves == position.reserves
    for sample in sample_positions(view, 20, seed=1):
        assert sample.reserves == position.reserves and Observation.of(sample) == view
    # a reserve card played: the view after it has one reserve left, and two views differing only
    # by their reserves are two views (their keys differ)
    checked_after = reserve_moves = 0
    for pos in _random_walk(1, mice, 40, seed=5) + _random_walk(3, mice, 40, seed=6):
        here = Observation.of(pos)
        for move in legal_moves(pos, mice):
            after = here.after(move, mice)
            truth = Observation.of(apply_move(pos, move, mice))
            if after is None:
                assert truth.unseen != here.unseen
                continue
            assert after == truth and after.reserves == truth.reserves
            checked_after += 1
            if after.reserves != here.reserves:
                reserve_moves += 1
                assert after.key() != here.key()
    assert checked_after > 50 and reserve_moves > 0, (checked_after, reserve_moves)


def _faces(view: Observation) -> tuple:
    """The view with every card read as its face (a two-deck card's copies are interchangeable)."""

    def face(c: int) -> int:
        return c if c == UNKNOWN else c % 52

    columns = tuple(tuple(face(c) for c in col) for col in view.columns)
    return columns, view.hidden, tuple(map(face, view.tail)), view.swept, view.reserves, sorted(map(face, view.unseen))


@pytest.mark.parametrize("name", ["mice", "double", "double-dealt"])
def test_ten_column_views_read_back_and_sample_their_own_unseen_cards(name):
    from scorpion_solver.game.rules import get_rules

    rules = get_rules(name)
    for number in (1, 2, 77):
        position = deal(number, rules)
        view = Observation.of(position, rules.decks)
        assert view.problems(rules) == []
        face_down = [c for i, col in enumerate(position.columns) for c in col[: position.hidden[i]]]
        assert sorted(c % 52 for c in view.unseen) == sorted(c % 52 for c in face_down + list(position.tail))
        text = format_view(view, rules)
        assert text.count("??") == len(face_down) + len(position.tail)
        back, read_rules = parse_view(text)
        assert read_rules == rules and _faces(back) == _faces(view)
        for sample in sample_positions(back, 5, seed=number):
            assert _faces(Observation.of(sample, rules.decks)) == _faces(view)
            assert len(set(sample.cards_in_play())) == len(sample.cards_in_play())  # no id twice


def test_a_two_deck_view_counts_each_face_twice_and_its_swept_runs_by_copy():
    from scorpion_solver.game.cards import card_text
    from scorpion_solver.game.rules import get_rules

    double = get_rules("double-dealt")
    # both copies of one face known: that face is not unseen any more; one copy known: one left unseen
    view = Observation.of(deal(1, double), 2)
    shown = [c % 52 for col in view.columns for c in col if c != UNKNOWN]
    for face in range(52):
        assert [c % 52 for c in view.unseen].count(face) == 2 - shown.count(face)
    text = format_view(view, double)
    # take one face-up copy of each spade off the table: one run of spades is swept (run index 1),
    # and a spade is unseen only where its other copy is not shown either
    taken: set[str] = set()
    lines = []
    for line in text.splitlines():
        if line.startswith("col"):
            key, rest = line.split(":", 1)
            kept = []
            for token in rest.split():
                if token.endswith("S") and token not in taken:
                    taken.add(token)
                else:
                    kept.append(token)
            line = f"{key}: {' '.join(kept)}".rstrip()
        lines.append(line)
    assert len(taken) == 13
    swept_view, _ = parse_view("\n".join(lines) + "\n")
    assert swept_view.swept == frozenset({1})
    tokens = " ".join(lines).split()
    for face in range(52):
        runs_gone = 1 if face // 13 == 1 else 0
        expected = 2 - runs_gone - tokens.count(card_text(face))
        assert [c % 52 for c in swept_view.unseen].count(face) == expected, card_text(face)
    with pytest.raises(PositionError, match="104 cards in all"):
        parse_view(text.replace("col10: JD", "col10:"))  # a card short of any whole swept run
    with pytest.raises(PositionError, match="line 2: col1: the top card of a column is face up; it cannot be ??"):
        parse_view(text.replace(text.splitlines()[1], "col1: ?? ?? ??"))
