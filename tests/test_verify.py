"""The cheap solution check (game/verify.py) against the reference engine's replay.

``check_solution`` must accept exactly what ``engine.replay`` accepts and end
in the same position. Checked three ways: on the solver's winning lines (and
mutations of them) for deals in every preset; move by move along random games,
trying every card onto every column and the tail at each position; and one
test per kind of wrong solution, each with the reason it is refused. Since
``check_solution`` is ``replay`` (``is_legal`` on one in-place board), the
last tests hold the replay to the listing it replaced: every move looked for
among ``legal_moves`` and played on a Position of its own.
"""

from __future__ import annotations

import random

import pytest

from scorpion_solver import CLASSIC, CLEAR, deal, parse_position, solve
from scorpion_solver.game.cards import SUITS, parse_card
from scorpion_solver.game.engine import (
    RESERVE,
    TAIL,
    UPPER_COPY,
    Move,
    MoveError,
    apply_move,
    is_legal,
    is_won,
    legal_moves,
    parse_move,
    parse_moves,
    replay,
    replay_positions,
)
from scorpion_solver.game.position import NUM_COLUMNS
from scorpion_solver.game.rules import GOODSOL, PRESETS, SCORPION2, WASP
from scorpion_solver.game.verify import check_solution, solution_wins
from scorpion_solver.solver.search import VerificationError, verify_solution

RUN = {s: " ".join(r + s for r in "KQJT98765432A") for s in SUITS}


def pos(text, rules=CLEAR):
    return parse_position(text, rules).position


def reference_outcome(start, moves, rules):
    """(accepted, final position or None, won) by the reference engine."""
    try:
        final = replay(start, moves, rules)
    except MoveError:
        return False, None, False
    return True, final, is_won(final, rules)


def checked_outcome(start, moves, rules):
    try:
        final = check_solution(start, moves, rules)
    except MoveError:
        return False, None, False
    return True, final, is_won(final, rules)


def mutations(moves, start, rules, rng):
    """Wrong and right variants of a move list: cut, dropped, swapped, redirected, extra moves."""
    n = len(moves)
    out = [moves[:-1], moves[: n // 2], moves + [TAIL], [TAIL] + moves]
    for _ in range(4):
        i = rng.randrange(n)
        out.append(moves[:i] + moves[i + 1 :])
        if i + 1 < n:
            out.append(moves[:i] + [moves[i + 1], moves[i]] + moves[i + 2 :])
        m = moves[i]
        if not m.is_tail:
            out.append(moves[:i] + [Move(m.card, m.src, rng.randrange(NUM_COLUMNS))] + moves[i + 1 :])
            out.append(moves[:i] + [Move(m.card, rng.randrange(NUM_COLUMNS), m.dst)] + moves[i + 1 :])
            out.append(moves[:i] + [Move(rng.randrange(52), m.src, m.dst)] + moves[i + 1 :])
        out.append(moves[:i] + [TAIL] + moves[i:])
        # a legal detour: the prefix, then a random legal move, then the rest of the solution
        here = replay(start, moves[:i], rules)
        legal = legal_moves(here, rules)
        if legal:
            out.append(moves[:i] + [rng.choice(legal)] + moves[i:])
    return out


def winning_lines(rules, numbers):
    lines = []
    for n in numbers:
        start = deal(n, rules)
        result = solve(start, rules)
        if result.status == "won":
            lines.append((n, start, parse_moves(result.solution)))
    return lines


def assert_same_verdicts(rules, numbers, seed=13):
    rng = random.Random(seed)
    lines = winning_lines(rules, numbers)
    assert lines, f"no won deal among {numbers} in {rules.name}"
    accepted = rejected = 0
    for n, start, moves in lines:
        assert checked_outcome(start, moves, rules) == (True, replay(start, moves, rules), True), n
        for variant in mutations(moves, start, rules, rng):
            expected = reference_outcome(start, variant, rules)
            assert checked_outcome(start, variant, rules) == expected, (n, rules.name, variant)
            accepted += expected[0]
            rejected += not expected[0]
    assert accepted and rejected
    return len(lines)


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=lambda r: r.name)
def test_same_verdicts_on_solutions_and_mutations(rules):
    assert assert_same_verdicts(rules, range(1, 151)) > 10


@pytest.mark.parametrize(
    "rules, last", [(WASP, 12), (SCORPION2, 60), (GOODSOL, 60)], ids=lambda x: getattr(x, "name", x)
)
def test_same_verdicts_in_the_relatives(rules, last):
    assert assert_same_verdicts(rules, range(1, last + 1)) > 2


@pytest.mark.slow
@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=lambda r: r.name)
def test_same_verdicts_on_deals_1_to_3000(rules):
    assert assert_same_verdicts(rules, range(1, 3001)) > 250  # 273 classic wins, more in Clear


@pytest.mark.slow
@pytest.mark.parametrize("rules", [WASP, SCORPION2, GOODSOL], ids=lambda r: r.name)
def test_same_verdicts_in_the_relatives_on_deals_1_to_500(rules):
    assert assert_same_verdicts(rules, range(1, 501)) > 25


def candidate_moves(p, rng):
    """Each card on the table onto every column, from its own column and from another (in a two-deck game, named
    as either copy in its column); each reserve card, and each card as if a reserve card; the tail; a non-move."""
    width = len(p.columns)
    out = [TAIL, Move(-1, 0, 1)]
    for src, col in enumerate(p.columns):
        for card in col:
            wrong = rng.choice([c for c in range(width) if c != src])
            names = (card % 52, card % 52 + UPPER_COPY) if any(c >= 52 for c in p.cards_in_play()) else (card,)
            for dst in range(width):
                out += [Move(name, s, dst) for name in names for s in (src, wrong)]
            out.append(Move(card, RESERVE, rng.randrange(width)))
    for card in p.reserves:
        out += [Move(card, RESERVE, dst) for dst in range(width)]
    return list(dict.fromkeys(out))  # a two-deck face's moves are named once for both its copies


def assert_same_single_moves(p, rules, rng):
    legal = legal_moves(p, rules)
    accepted = []
    for m in candidate_moves(p, rng):
        try:
            after = check_solution(p, [m], rules)
        except MoveError:
            continue
        accepted.append(m)
        assert after == apply_move(p, m, rules), (p, m)
    assert len(set(legal)) == len(legal), str(p)
    assert sorted(accepted) == sorted(legal), str(p)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_single_move_along_random_games(name):
    rules = PRESETS[name]
    rng = random.Random(name)
    positions = 0
    for n in range(1, 4):
        p = deal(n, rules)
        for _ in range(30):
            assert_same_single_moves(p, rules, rng)
            positions += 1
            legal = legal_moves(p, rules)
            if not legal:
                break
            p = apply_move(p, rng.choice(legal), rules)
    assert positions > 30


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC, GOODSOL], ids=lambda r: r.name)
def test_every_single_move_along_winning_lines(rules):
    rng = random.Random(rules.name)
    for _, start, moves in winning_lines(rules, range(1, 40))[:2]:
        p = start
        for m in moves:
            assert_same_single_moves(p, rules, rng)
            p = apply_move(p, m, rules)
        assert_same_single_moves(p, rules, rng)  # the won position: no move at all


# --------------------------------------------------------------------------
# Each kind of wrong solution, refused with its reason

DEAL_1 = deal(1)  # col2: 2D* KD* 3H* AH AC 8H QS; col4 ends 3D; col5 ends 7D 8C; col1 ends 8D


def card(token):
    return parse_card(token)[0]


def refused(start, tokens, rules=CLEAR):
    """The check's message for a refused move list, which must be the reference engine's."""
    with pytest.raises(MoveError) as info:
        check_solution(start, parse_moves(tokens), rules)
    with pytest.raises(MoveError) as reference:
        replay(start, parse_moves(tokens), rules)
    assert str(info.value) == str(reference.value)
    return str(info.value)


def test_refuses_a_move_from_a_face_down_card():
    assert refused(DEAL_1, "2D:2>4") == "move 1: 2D:2>4 is not legal here: 2D is face down"
    # the same move with the card face up is legal
    face_up = type(DEAL_1)(DEAL_1.columns, (3, 0, 3, 3, 0, 0, 0), DEAL_1.tail)
    assert check_solution(face_up, parse_moves("2D:2>4")) == apply_move(face_up, parse_move("2D:2>4"))


def test_refuses_a_move_onto_a_wrong_card():
    assert check_solution(DEAL_1, parse_moves("7D:5>1")) == apply_move(DEAL_1, parse_move("7D:5>1"))
    assert refused(DEAL_1, "7D:5>2") == (
        "move 1: 7D:5>2 is not legal here: 7D does not build on QS (same suit, one rank up)"
    )
    assert refused(DEAL_1, "7D:5>1 8C:5>1").startswith("move 2: 8C:5>1 is not legal here")


def test_refuses_a_move_naming_the_wrong_source_column():
    assert refused(DEAL_1, "7D:4>1") == "move 1: 7D:4>1 is not legal here: 7D is in column 5, not 4"


KING_ON_ACE = """\
col1: KH QH JH TH
col2: 9H 8H 7H
col3: 6H 5H 4H 3H 2H AH
col4: AD KD
col5: QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D
col6:
col7:
tail: -
"""


def test_refuses_a_king_into_a_non_empty_column():
    p = pos(KING_ON_ACE)
    assert check_solution(p, parse_moves("KD:4>6")).columns[5] == (card("KD"),)
    assert refused(p, "KD:4>1") == "move 1: KD:4>1 is not legal here: KD does not build on TH (same suit, one rank up)"
    for dst in (2, 3, 5):
        assert refused(p, f"KD:4>{dst}").startswith(f"move 1: KD:4>{dst} is not legal here: KD does not build on")


def test_refuses_the_tail_twice():
    assert check_solution(DEAL_1, [TAIL]) == apply_move(DEAL_1, TAIL)
    assert refused(DEAL_1, "tail tail") == "move 2: tail is not legal here: the tail has already been dealt"


def test_refuses_a_classic_tail_deal_while_a_move_exists():
    start = deal(1, CLASSIC)
    assert "7D:5>1" in [str(m) for m in legal_moves(start, CLASSIC)]
    assert refused(start, "tail", CLASSIC) == (
        "move 1: tail is not legal here: in this mode the tail may be dealt only when no other move exists"
    )
    assert check_solution(start, [TAIL], CLEAR) == apply_move(start, TAIL, CLEAR)


CLASSIC_STUCK = f"""\
col1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
col2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H
col3: {RUN["C"]}
col4: {RUN["D"]}
col5:
col6:
col7:
tail: AS 2H AH
"""


def test_classic_tail_deal_allowed_when_only_relocations_remain():
    p = pos(CLASSIC_STUCK, CLASSIC)
    # KS:1>5 and KH:2>5 are legal, but relocations: they do not lock the tail
    won = check_solution(p, parse_moves("tail AH:3>2"), CLASSIC)
    assert is_won(won, CLASSIC) and won == replay(p, parse_moves("tail AH:3>2"), CLASSIC)
    # after a relocation the tail is still dealable, but moving a King off a card locks it
    assert check_solution(p, parse_moves("KS:1>5 tail"), CLASSIC) == replay(p, parse_moves("KS:1>5 tail"), CLASSIC)
    q = pos(CLASSIC_STUCK.replace("col1: KS", "col1: 2S KS").replace(" 3S 2S\n", " 3S\n"), CLASSIC)
    assert refused(q, "tail", CLASSIC).endswith("the tail may be dealt only when no other move exists")


def test_refuses_a_move_out_of_a_frozen_run():
    p = pos(
        f"""\
col1: 5D {RUN["S"]}
col2: KD QD JD TD 9D 8D 7D 6D
col3: 4D 3D 2D AD
col4: {RUN["C"]}
col5: {RUN["H"]}
col6:
col7:
tail: -
""",
        CLASSIC,
    )
    assert refused(p, "5D:1>2", CLASSIC) == "move 1: 5D:1>2 is not legal here: 5D is in or under a frozen run"
    assert refused(p, "KS:1>6", CLASSIC).endswith("KS is in or under a frozen run")


def test_refuses_a_relocation_and_a_space_that_is_not_the_leftmost():
    p = pos(
        """\
col1: QS KS
col2: KH
col3: QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH
col4: JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS
col5:
col6:
col7:
tail: -
"""
    )
    assert check_solution(p, parse_moves("KS:1>5")) == apply_move(p, parse_move("KS:1>5"))
    assert refused(p, "KH:2>5").startswith("move 1: KH:2>5 is not legal here: relocating a whole column")
    assert refused(p, "KS:1>6").endswith("(or another empty column is the canonical target)")


def test_refuses_a_solution_that_ends_short_of_a_win():
    start = deal(5)
    moves = parse_moves(solve(start).solution)
    short = moves[:-1]
    final = check_solution(start, short)
    assert not is_won(final) and final == replay(start, short)
    assert not solution_wins(start, short)
    assert solution_wins(start, moves)
    with pytest.raises(VerificationError, match="does not win"):
        verify_solution(start, short, CLEAR)
    verify_solution(start, moves, CLEAR)


def test_refuses_a_move_after_the_game_is_won():
    p = pos(
        f"""\
col1: {RUN["S"]} {RUN["H"]}
col2: {RUN["C"]}
col3: {RUN["D"]}
col4:
col5:
col6:
col7:
tail: -
""",
        GOODSOL,
    )
    assert is_won(p, GOODSOL) and legal_moves(p, GOODSOL) == []
    # KH leads the hearts off the spades into a space: legal but for the game being over
    not_won = type(p)(p.columns, (0, 0, 1, 0, 0, 0, 0), p.tail)
    assert parse_move("KH:1>4") in legal_moves(not_won, GOODSOL)
    assert refused(p, "KH:1>4", GOODSOL).startswith("move 1: KH:1>4 is not legal here")


def test_refuses_moves_that_are_no_moves():
    for move in (Move(-1, 0, 1), Move(card("7D"), 4, 4), Move(card("7D"), 3, 0)):
        with pytest.raises(MoveError):
            check_solution(DEAL_1, [move])
        with pytest.raises(MoveError):
            replay(DEAL_1, [move])


def test_solve_uses_the_check_and_a_failed_check_raises(monkeypatch):
    from scorpion_solver.solver import lines

    calls = []
    real = lines.check_solution

    def spy(start, moves, rules):
        calls.append(len(moves))
        return real(start, moves, rules)

    monkeypatch.setattr(lines, "check_solution", spy)
    result = solve(deal(5))
    assert result.status == "won" and calls == [result.solution_length]

    def wrong(start, moves, rules):
        return start

    monkeypatch.setattr(lines, "check_solution", wrong)
    with pytest.raises(VerificationError, match="does not win"):
        solve(deal(5))


# --------------------------------------------------------------------------
# The replay against the listing: is_legal and the in-place board against legal_moves and Positions


def listing_replay(start, moves, rules):
    """What the check must equal: each move looked for among all legal moves (``legal_moves``), then
    played on a Position of its own (``apply_move``); (accepted, final position, number of the refused move)."""
    p = start
    for number, move in enumerate(moves, start=1):
        if move not in legal_moves(p, rules):
            return False, None, number
        p = apply_move(p, move, rules)
    return True, p, None


def replayed(start, moves, rules):
    try:
        return True, replay(start, moves, rules), None
    except MoveError as exc:
        return False, None, int(str(exc).split(":")[0].removeprefix("move "))


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC, GOODSOL, SCORPION2], ids=lambda r: r.name)
def test_replay_equals_the_listing_on_solutions_and_mutations(rules):
    rng = random.Random(32)
    lines = winning_lines(rules, range(1, 61))
    refused_count = 0
    for n, start, moves in lines:
        assert (
            replayed(start, moves, rules)
            == listing_replay(start, moves, rules)
            == (True, replay(start, moves, rules), None)
        )
        assert is_won(replay(start, moves, rules), rules)
        assert replay(start, moves, rules) == replay_positions(start, moves, rules)[-1]  # Position by Position
        for variant in mutations(moves, start, rules, rng):
            expected = listing_replay(start, variant, rules)
            assert replayed(start, variant, rules) == expected, (n, rules.name, variant)
            refused_count += not expected[0]
    assert len(lines) > 2 and refused_count > 10


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=lambda r: r.name)
def test_is_legal_on_positions_equals_the_listing(rules):
    rng = random.Random(rules.name)
    for n in range(1, 6):
        p = deal(n, rules)
        for _ in range(40):
            legal = legal_moves(p, rules)
            for m in candidate_moves(p, rng) + [Move(-1, 2, 3), Move(60, 0, 1), Move(0, 0, 9)]:
                assert is_legal(p, m, rules) == (m in legal), (str(p), m)
            if not legal:
                break
            p = apply_move(p, rng.choice(legal), rules)


def test_a_corrupted_line_from_the_solver_is_refused():
    start = deal(5)
    moves = parse_moves(solve(start).solution)
    for i in (0, len(moves) // 2, len(moves) - 1):
        m = moves[i]
        wrong = Move(m.card, m.src, (m.dst + 1) % NUM_COLUMNS)
        with pytest.raises(VerificationError, match=f"solution does not replay: move {i + 1}: "):
            verify_solution(start, moves[:i] + [wrong] + moves[i + 1 :], CLEAR)
    with pytest.raises(VerificationError, match="solution does not replay: move 2: tail is not legal here"):
        verify_solution(start, [TAIL, TAIL] + moves, CLEAR)


# The batch checks a chunk's wins in one pass after its searches (search.WinChecks)


def test_the_batch_checks_its_wins_after_the_chunk_and_gives_solve_deal_rows():
    from scorpion_solver.batch.backends import solve_pairs
    from scorpion_solver.solver.result import Limits
    from scorpion_solver.solver.search import solve_deal

    limits = Limits(nodes=200_000, memory_mb=64)
    pairs = [(n, mode) for n in range(1, 81) for mode in ("clear", "classic")]
    rows = solve_pairs(pairs, limits)
    alone = [solve_deal(n, PRESETS[mode], limits) for n, mode in pairs]  # each win checked at once
    assert sum(r.status == "won" for r in alone) >= 10
    for row, result in zip(rows, alone):
        assert (row["status"], row["nodes"], row["solution"]) == (result.status, result.nodes, result.solution)


def test_a_win_whose_line_fails_the_batch_check_names_its_deal_and_gives_no_rows(monkeypatch):
    from scorpion_solver.batch.backends import solve_pairs
    from scorpion_solver.solver import search
    from scorpion_solver.solver.result import Limits

    real_shorten = search.shorten_path

    def corrupt(position, path, rules, root=None):
        path = real_shorten(position, path, rules, root)
        m = path[len(path) // 2]
        return path[: len(path) // 2] + [Move(m.card, m.src, (m.dst + 1) % NUM_COLUMNS)] + path[len(path) // 2 + 1 :]

    monkeypatch.setattr(search, "shorten_path", corrupt)
    with pytest.raises(RuntimeError, match=r"deal 5 \(clear\): VerificationError: solution does not replay: move \d+"):
        solve_pairs([(4, "clear"), (5, "clear"), (6, "clear")], Limits(nodes=200_000, memory_mb=64))
