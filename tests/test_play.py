"""Play without peeking: the policies see only the view, the harness keeps honest records, fair hints."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from scorpion_solver.analysis.hints import LOST as HINT_LOST
from scorpion_solver.analysis.hints import WINNABLE, hint
from scorpion_solver.batch import Execution, plan
from scorpion_solver.batch.backends import LocalBackend
from scorpion_solver.batch.deal_grades import grade_counts, grade_deals, pick
from scorpion_solver.batch.play_runs import PlaySettings, read_play_folder, run_play
from scorpion_solver.batch.play_stats import summarize_play
from scorpion_solver.batch.runner import run_batch
from scorpion_solver.cli import main
from scorpion_solver.game.cards import is_king
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, is_won, lead_index, legal_moves, parse_moves, replay
from scorpion_solver.game.position_text import format_position
from scorpion_solver.game.rules import CLASSIC, CLEAR, DOUBLE, DOUBLE_DEALT, MICE, get_rules
from scorpion_solver.game.view import Observation, sample_positions
from scorpion_solver.game.view_text import format_view
from scorpion_solver.play import History, PolicySpec, make_policy, play_game
from scorpion_solver.play.fair import fair_hint
from scorpion_solver.play.greedy import BREAKS_RUN, greedy_order, move_score
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import solve

SMALL = Limits(nodes=2000, memory_mb=16)


def _walk(number, rules, steps, seed=0):
    rng = np.random.default_rng(seed)
    pos = deal(number, rules)
    moves = []
    for _ in range(steps):
        legal = legal_moves(pos, rules)
        if not legal:
            break
        move = legal[int(rng.integers(len(legal)))]
        moves.append(move)
        pos = apply_move(pos, move, rules)
    return pos, moves


def _policies(rules):
    return [
        make_policy("random", rules, seed=4),
        make_policy("greedy", rules, seed=4),
        make_policy("hop", rules, seed=4, samples=4, nodes=300),
        make_policy("hop", rules, seed=4, samples=3, nodes=300, bandit=True),
        make_policy("commit", rules, seed=4, samples=4, nodes=300),
        make_policy("commit", rules, seed=4, samples=3, nodes=300, exact_endgame=4),
        make_policy("commit2", rules, seed=4, samples=6, nodes=300, outer=3, inner=3),
        make_policy("commit2", rules, seed=4, samples=6, nodes=300, outer=3, inner=3, value_ties=True),
    ]


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC])
@pytest.mark.parametrize("number, steps", [(37, 0), (5, 6), (33, 12)])
def test_information_each_policy_chooses_the_same_move_whatever_the_hidden_cards(rules, number, steps):
    """Re-deal the hidden cards in many ways consistent with one view: every policy's move stays the same."""
    truth, _ = _walk(number, rules, steps, seed=number)
    view = Observation.of(truth)
    redeals = sample_positions(view, 8, seed=99)
    assert len({p for p in redeals}) == 8
    for policy in _policies(rules):
        chosen = set()
        for position in [truth, *redeals]:
            seen = Observation.of(position)
            assert seen == view  # what the player sees does not change
            chosen.add(policy.choose(seen, History()))
        assert len(chosen) == 1, policy.name
        assert chosen.pop() in legal_moves(truth, rules)


@pytest.mark.parametrize("number, steps", [(4, 0), (3, 5), (15, 9)])
def test_three_blind_mice_each_policy_chooses_the_same_move_whatever_the_hidden_cards(number, steps):
    """The same proof in Three Blind Mice, whose two reserve cards lie face up: a player sees them, never the
    nine face-down cards (deal 4 starts with a reserve card playable, AD onto 2D)."""
    truth, _ = _walk(number, MICE, steps, seed=number)
    view = Observation.of(truth)
    assert view.reserves == truth.reserves and len(view.unseen) == len(view.hidden_slots())
    redeals = sample_positions(view, 8, seed=99)
    for policy in _policies(MICE)[:-1]:  # not value_ties: mice has no learned value (play refuses it up front)
        chosen = {policy.choose(Observation.of(position), History()) for position in [truth, *redeals]}
        assert len(chosen) == 1, policy.name
        assert chosen.pop() in legal_moves(truth, MICE)


@pytest.mark.parametrize("rules", [DOUBLE, DOUBLE_DEALT], ids=lambda r: r.name)
@pytest.mark.parametrize("number, steps", [(1, 0), (2, 7)])
def test_double_scorpion_random_greedy_and_hop_choose_the_same_move_whatever_the_hidden_cards(rules, number, steps):
    """The same proof in Double Scorpion for random and the players that grade its deals (greedy and hop, for
    the server's graded pool): a move names a face and which face-up copy, the unseen cards are the faces not
    accounted for, and re-dealing them leaves every choice alone."""
    truth, _ = _walk(number, rules, steps, seed=number)
    view = Observation.of(truth, rules.decks)
    redeals = sample_positions(view, 6, seed=99)
    assert len(set(redeals)) == 6
    for policy in _policies(rules)[:3]:  # random, greedy, hop
        chosen = set()
        for position in [truth, *redeals]:
            seen = Observation.of(position, rules.decks)
            assert seen == view
            chosen.add(policy.choose(seen, History()))
        assert len(chosen) == 1, policy.name
        assert chosen.pop() in legal_moves(truth, rules)


def test_greedy_reads_double_scorpion_copies():
    """greedy scores a Double Scorpion move by the face it leads and the copy it names: deal 3, which it
    wins, replays to a win, and a run broken by moving a card off either copy of its successor is scored
    as one."""
    record = play_game(deal(3, DOUBLE), DOUBLE, make_policy("greedy", DOUBLE), proof_nodes=None)
    assert record.outcome == "won" and is_won(replay(deal(3, DOUBLE), record.moves, DOUBLE), DOUBLE)
    for number in range(1, 6):
        pos = deal(number, DOUBLE)
        view = Observation.of(pos, 2)
        for move in legal_moves(pos, DOUBLE):
            if move.is_tail:
                continue
            col = pos.columns[move.src]
            index = lead_index(pos, move, 2)
            below = col[index - 1] if index > 0 else None
            breaks = below is not None and index - 1 >= pos.hidden[move.src] and not is_king(move.card)
            breaks = breaks and below % 52 == move.card % 52 + 1
            assert (move_score(view, move, DOUBLE) == BREAKS_RUN) == breaks, (number, str(move))


def test_players_play_three_blind_mice_and_their_records_replay():
    """hop wins deal 3 (thoughtful-won); random and greedy play reserve cards; every record replays legally."""
    from scorpion_solver.analysis.hint_reasons import hint_reason
    from scorpion_solver.game.engine import RESERVE

    won = play_game(deal(3, MICE), MICE, make_policy("hop", MICE, seed=0, samples=10, nodes=20_000))
    assert won.outcome == "won" and is_won(replay(deal(3, MICE), won.moves, MICE), MICE)
    reserve_moves = 0
    for name in ("random", "greedy"):
        for number in (4, 5, 11):
            record = play_game(deal(number, MICE), MICE, make_policy(name, MICE, seed=number), proof_nodes=None)
            replay(deal(number, MICE), record.moves, MICE)  # raises on an illegal move
            reserve_moves += sum(m.src == RESERVE for m in record.moves)
    assert reserve_moves > 0
    move = next(m for m in legal_moves(deal(4, MICE), MICE) if m.src == RESERVE)
    assert hint_reason(Observation.of(deal(4, MICE)), move, MICE) == (
        "it plays the ace of diamonds from the reserve onto the two of diamonds"
    )


@pytest.mark.parametrize("mode, number", [("double", 1), ("double-dealt", 2)])
def test_a_hints_reason_reads_double_scorpions_two_copies(mode, number):
    """Issue 52: the fair hint's reason in Double Scorpion: a move naming the upper copy (6C+), a run joined
    across copies, a suit's second run swept, the tail of four; a sentence for every move along the solver's
    line, and the sweeps and the tail said as they happen."""
    from scorpion_solver.analysis.hint_reasons import hint_reason
    from scorpion_solver.game.engine import UPPER_COPY, apply_move, parse_move
    from scorpion_solver.solver.search import solve

    rules = get_rules(mode)
    position = deal(number, rules)
    said, uppers = [], 0
    for text in solve(position, rules).solution.split():
        move = parse_move(text)
        uppers += move.card >= UPPER_COPY
        reason = hint_reason(Observation.of(position, rules.decks), move, rules)
        said.append(reason)
        assert reason.startswith("it ") and "??" not in reason, (text, reason)
        position = apply_move(position, move, rules)
    assert uppers > 0
    assert sum(r.startswith("it completes the ") and r.endswith("swept off the table") for r in said) == 8
    if rules.tail_size:
        assert "it deals the tail: four new cards onto columns 1, 2, 3 and 4" in said


def test_a_policy_refuses_a_position():
    with pytest.raises(TypeError, match="a policy sees an Observation, not a Position"):
        make_policy("greedy").choose(deal(1, CLEAR))


def test_make_policy_refuses_an_option_the_policy_does_not_take():
    with pytest.raises(ValueError, match="'samples' is an option of hop, commit and commit2, not of random"):
        make_policy("random", CLEAR, samples=3)
    with pytest.raises(ValueError, match="'bandit' is an option of hop, not of commit"):
        make_policy("commit", CLEAR, bandit=True)
    with pytest.raises(ValueError, match="'budget' is an option of no policy, not of hop"):
        make_policy("hop", CLEAR, budget=3)
    with pytest.raises(ValueError, match="unknown policy 'best'"):
        make_policy("best", CLEAR)
    commit = make_policy("commit", CLEAR, seed=2, samples=5, nodes=400, max_views=7)
    assert (commit.options.samples, commit.limits.nodes, commit.options.max_views, commit.seed) == (5, 400, 7, 2)


@pytest.mark.parametrize(
    "name, foreign, refusal",
    [
        ("hop", "max_views", "'max_views' is an option of commit and commit2, not of hop"),
        ("commit", "bandit", "'bandit' is an option of hop, not of commit"),
        ("commit2", "bandit", "'bandit' is an option of hop, not of commit2"),
    ],
)
def test_each_lookahead_policy_refuses_an_option_it_does_not_take(name, foreign, refusal):
    with pytest.raises(ValueError, match=f"^{re.escape(refusal)}$"):
        make_policy(name, CLEAR, **{foreign: True})
    with pytest.raises(ValueError, match=f"^'budget' is an option of no policy, not of {name}$"):
        make_policy(name, CLEAR, budget=3)


@pytest.mark.parametrize(
    "name, bad, refusal",
    [
        ("hop", {"samples": 0}, "hop needs at least one sample"),
        ("commit", {"samples": 0}, "hop needs at least one sample"),  # commit samples as hop does
        ("commit2", {"samples": 0, "inner": 0}, "hop needs at least one sample"),  # hop's check comes first
        ("commit2", {"top": 0}, "commit2 needs at least one commitment, outcome and inner layout"),
        ("commit2", {"outer": 0}, "commit2 needs at least one commitment, outcome and inner layout"),
        ("commit2", {"inner": -1}, "commit2 needs at least one commitment, outcome and inner layout"),
    ],
)
def test_each_lookahead_policy_refuses_a_bad_value(name, bad, refusal):
    with pytest.raises(ValueError, match=f"^{re.escape(refusal)}$"):
        make_policy(name, CLEAR, **bad)


def test_settings_list_each_policys_options_in_order():
    """What ``settings()`` reports: memory and reductions never, exact_endgame and rejudge_tail only when on."""
    defaults = {"samples": 10, "nodes": 1000}
    expected = {
        ("random", ()): {},
        ("greedy", ()): {},
        ("hop", ()): {**defaults, "bandit": False},
        ("hop", (("bandit", True), ("exact_endgame", 4), ("memory_mb", 32))): {
            **defaults,
            "bandit": True,
            "exact_endgame": 4,
        },
        ("commit", ()): {**defaults, "max_views": 2000},
        ("commit", (("rejudge_tail", True), ("exact_endgame", 5), ("samples", 3))): {
            "samples": 3,
            "nodes": 1000,
            "exact_endgame": 5,
            "max_views": 2000,
            "rejudge_tail": True,
        },
        ("commit2", ()): {**defaults, "max_views": 2000, "top": 3, "outer": 20, "inner": 8},
    }
    for (name, options), settings in expected.items():
        policy = make_policy(name, CLEAR, seed=7, **dict(options))
        assert list(policy.settings().items()) == [("policy", name), ("seed", 7), *settings.items()]
    assert make_policy("commit", CLEAR).options.bandit is False  # commit never spreads its layouts by UCB1


def test_random_never_relocates_a_whole_column_and_follows_its_seed():
    policy = make_policy("random", CLEAR, seed=3)
    view = Observation.of(deal(1, CLEAR))
    draws = [policy.choose(view, History(moves=tuple(parse_moves("tail") * i))) for i in range(40)]
    assert set(draws) <= set(view.legal_moves(CLEAR))
    assert len(set(draws)) > 2
    assert draws == [
        make_policy("random", CLEAR, seed=3).choose(view, History(moves=tuple(parse_moves("tail") * i)))
        for i in range(40)
    ]


def test_greedy_order_on_deal_1():
    """A space in column 7 first, then moves that free a card something builds on, the tail last."""
    view = Observation.of(deal(1, CLEAR))
    moves = greedy_order(view, view.legal_moves(CLEAR), CLEAR)
    assert [(str(m), move_score(view, m, CLEAR)) for m in moves] == [
        ("7C:7>5", 60),  # empties column 7 (the tail cannot land there)
        ("5C:5>3", 20),  # frees 9D, on which 8D (col1) can build
        ("5S:5>7", 20),  # frees 5D, on which 4D (col3) can build
        ("7D:5>1", 2),  # frees 3S, whose 2S is unseen
        ("JS:7>2", 2),  # frees QC, whose JC is unseen
        ("tail", 1),  # held while productive moves remain
    ]


def test_greedy_uncovers_face_down_cards_first():
    pos = replay(deal(5, CLEAR), parse_moves(solve(deal(5, CLEAR), CLEAR).solution)[:3], CLEAR)
    view = Observation.of(pos)
    for move in view.legal_moves(CLEAR):
        if view.reveals(move, CLEAR) and not move.is_tail:
            assert move_score(view, move, CLEAR) >= 97
            assert greedy_order(view, view.legal_moves(CLEAR), CLEAR)[0] == move or move_score(
                view, greedy_order(view, view.legal_moves(CLEAR), CLEAR)[0], CLEAR
            ) >= move_score(view, move, CLEAR)


def test_greedy_wins_deal_37_and_the_record_replays_to_a_win():
    record = play_game(deal(37, CLEAR), CLEAR, make_policy("greedy", CLEAR))
    assert record.outcome == "won" and record.reason == ""
    assert is_won(replay(deal(37, CLEAR), record.moves, CLEAR), CLEAR)


def test_the_harness_ends_a_lost_deal_at_once_and_caps_long_games():
    lost = play_game(deal(1, CLEAR), CLEAR, make_policy("greedy", CLEAR))
    assert (lost.outcome, lost.reason, lost.moves) == ("lost", "proved-lost", ())
    capped = play_game(deal(37, CLEAR), CLEAR, make_policy("random", CLEAR, seed=1), move_cap=3, proof_nodes=None)
    assert (capped.outcome, capped.reason, len(capped.moves)) == ("capped", "move-cap", 3)


def test_hop_plays_the_solvers_solution_once_nothing_is_hidden():
    start = deal(5, CLEAR)
    line = parse_moves(solve(start, CLEAR).solution)
    pos = start
    for move in line:
        pos = apply_move(pos, move, CLEAR)
        if Observation.of(pos).fully_known:
            break
    assert Observation.of(pos).fully_known and not is_won(pos, CLEAR)
    record = play_game(pos, CLEAR, make_policy("hop", CLEAR, samples=3))
    assert record.outcome == "won"
    assert list(record.moves) == parse_moves(solve(pos, CLEAR).solution)
    assert record.solves == 1  # one solve of the known position, then the plan is followed


def test_hop_wins_a_deal_greedy_loses_and_its_record_replays_to_a_win():
    """Deal 100 (clear, winnable): greedy loses it; hop with 4 samples of 300 nodes wins it."""
    greedy = play_game(deal(100, CLEAR), CLEAR, make_policy("greedy", CLEAR))
    assert greedy.outcome == "lost"
    record = play_game(deal(100, CLEAR), CLEAR, make_policy("hop", CLEAR, seed=0, samples=4, nodes=300))
    assert record.outcome == "won"
    assert is_won(replay(deal(100, CLEAR), record.moves, CLEAR), CLEAR)
    assert record.solves > 0 and record.decisions == len(record.moves)


def _ranking(report_moves):
    return [str(m.move) for m in report_moves]


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC])
@pytest.mark.parametrize("number, steps", [(5, 0), (37, 0), (37, 25), (33, 4)])
def test_fair_hint_without_unknowns_ranks_moves_as_hint_does(rules, number, steps):
    pos, _ = _walk(number, rules, steps, seed=2)
    if not legal_moves(pos, rules):
        pytest.skip("no move here")
    from scorpion_solver.game.view_text import parse_view

    view, _ = parse_view(format_position(pos, rules))
    limits = Limits(nodes=200_000)
    fair = fair_hint(view, rules, samples=10, seed=1, limits=limits)
    exact = hint(pos, rules, limits)
    assert fair.samples == 1 and fair.unseen == 0
    assert _ranking(fair.moves) == _ranking(exact.moves)
    for f, e in zip(fair.moves, exact.moves):
        assert f.share == (1.0 if e.verdict == WINNABLE else 0.0)
        if e.verdict == HINT_LOST:
            assert f.wins == 0 and f.unknown == 0


def test_fair_hint_with_unknowns_is_paired_and_reproducible():
    view = Observation.of(deal(5, CLEAR))
    a = fair_hint(view, CLEAR, samples=12, seed=3, limits=SMALL)
    b = fair_hint(view, CLEAR, samples=12, seed=3, limits=SMALL)
    assert a.as_dict() | {"seconds": 0} == b.as_dict() | {"seconds": 0}
    assert a.samples == 12 and a.unseen == 15
    assert a.wins >= max(m.wins for m in a.moves)  # a layout is winnable when a move keeps it so
    shares = [m.share for m in a.moves]
    assert shares == sorted(shares, reverse=True)
    low, high = a.moves[0].interval
    assert low <= a.moves[0].share <= high


# --------------------------------------------------------------------------
# play folders


@pytest.fixture(scope="module")
def exact_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("exact") / "deals"
    settings = plan.BatchSettings(plan.parse_range("30-40"), ("clear", "classic"), Limits(nodes=2_000_000), 11)
    run_batch(settings, out, Execution(lambda: LocalBackend(1), progress=False))
    return out


def test_play_folder_skips_known_lost_deals_and_resumes(exact_folder, tmp_path):
    out = tmp_path / "play"
    settings = PlaySettings(
        plan.parse_range("30-40"), ("clear", "classic"), PolicySpec("greedy"), exact=exact_folder, chunk=4
    )
    report = run_play(settings, out, Execution(lambda: LocalBackend(1), progress=False))
    assert report.complete and report.written == 3
    rows = read_play_folder(out).to_pylist()
    assert len(rows) == 22
    played = {(r["deal"], r["mode"]) for r in rows if r["played"]}
    assert played == {(33, "clear"), (37, "clear"), (37, "classic")}  # docs/rules.md known verdicts
    for r in rows:
        if not r["played"]:
            assert (r["outcome"], r["reason"], r["thoughtful"]) == ("lost", "not-played", "lost")
        if r["outcome"] == "won":
            rules = CLEAR if r["mode"] == "clear" else CLASSIC
            assert is_won(replay(deal(r["deal"], rules), parse_moves(r["moves"]), rules), rules)
    again = run_play(settings, out, Execution(lambda: LocalBackend(1), progress=False))
    assert again.written == 0 and again.already == 3
    meta = json.loads((out / "_batch.json").read_text())
    assert meta["play"]["policy"] == "greedy" and meta["thoughtful"]["known_lost_not_played"] == 19
    other = PlaySettings(plan.parse_range("30-40"), ("clear", "classic"), PolicySpec("random"), exact=exact_folder)
    with pytest.raises(plan.BatchError, match="refusing to mix games of different settings"):
        run_play(other, out, Execution(lambda: LocalBackend(1), progress=False))
    table = read_play_folder(out)
    summary = summarize_play({n: table.column(n).to_numpy(zero_copy_only=False) for n in table.column_names}, meta)
    clear = summary["modes"]["clear"]
    assert (clear["deals"], clear["played"], clear["thoughtful_won"]) == (11, 2, 2)
    assert clear["thoughtful_rate"] == 2 / 11 and clear["realistic_rate"] == clear["won"] / 11
    assert clear["ratio"] == clear["won"] / 2 and clear["contradictions"] == 0


def test_a_play_folder_records_its_reductions_and_a_rerun_takes_them(exact_folder, tmp_path):
    """A play folder records the preset of its solves' reductions; a rerun without one takes the folder's,
    and a folder that records none (the committed ones) reads as PLAY_REDUCTIONS (``deadlock``)."""
    out = tmp_path / "play"

    def settings(reductions):
        spec = PolicySpec("greedy", reductions=reductions)
        return PlaySettings(plan.parse_range("30-40"), ("clear",), spec, exact=exact_folder, chunk=4)

    run_play(settings("full"), out, Execution(lambda: LocalBackend(1), progress=False))
    meta_path = out / "_batch.json"
    assert json.loads(meta_path.read_text())["play"]["reductions"] == "full"
    (out / "chunk-00000038-00000040.parquet").unlink()
    again = run_play(settings(None), out, Execution(lambda: LocalBackend(1), progress=False))
    assert (again.written, again.already) == (1, 2)
    with pytest.raises(plan.BatchError, match="refusing to mix games of different settings"):
        run_play(settings("deadlock"), out, Execution(lambda: LocalBackend(1), progress=False))
    meta = json.loads(meta_path.read_text())
    del meta["play"]["reductions"]  # as the committed play folders, played before the field existed
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(plan.BatchError, match="refusing to mix games of different settings"):
        run_play(settings("full"), out, Execution(lambda: LocalBackend(1), progress=False))
    assert run_play(settings("deadlock"), out, Execution(lambda: LocalBackend(1), progress=False)).already == 3
    assert run_play(settings(None), out, Execution(lambda: LocalBackend(1), progress=False)).already == 3


def test_stats_and_deals_commands_on_play_folders(exact_folder, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    results = Path("results")
    results.mkdir()
    (results / "deals-1-1000000").symlink_to(exact_folder)  # deal_grades reads the exact results there
    runner = CliRunner()
    for policy, options in (("greedy", []), ("hop", ["--samples", "4"])):  # --samples is hop's alone
        run = runner.invoke(
            main,
            [
                "play",
                "30-40",
                "--policy",
                policy,
                *options,
                "--mode",
                "clear",
                "--no-progress",
                "--workers",
                "1",
            ],
        )
        assert run.exit_code == 0, run.output
    folder = "results/play-30-40-clear-greedy-s0"
    stats = runner.invoke(main, ["stats", folder])
    assert stats.exit_code == 0, stats.output
    assert "| clear | 11 | 2 |" in stats.output and "thoughtful rate" in stats.output
    grades = grade_deals("clear", results, results / "deals-1-1000000")
    assert set(grades) == {33, 37} and grades[37] == "easy"  # greedy wins deal 37
    assert sum(grade_counts(grades).values()) == 2
    assert pick(grades, "easy", 5, 0) == [(37, "easy")]
    listed = runner.invoke(main, ["deals", "--winnable", "--grade", "easy"])
    assert listed.exit_code == 0 and listed.output == "37\teasy\n"


def test_play_command_on_a_position_file_prints_the_record(tmp_path):
    path = tmp_path / "deal37.txt"
    path.write_text(format_position(deal(37, CLEAR), CLEAR))
    run = CliRunner().invoke(main, ["play", str(path), "--policy", "greedy", "--json"])
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    assert data["outcome"] == "won"
    assert is_won(replay(deal(37, CLEAR), parse_moves(data["moves"]), CLEAR), CLEAR)
    path.write_text(format_view(Observation.of(deal(37, CLEAR)), CLEAR))
    bad = CliRunner().invoke(main, ["play", str(path), "--policy", "greedy"])
    assert bad.exit_code == 2 and bad.output.startswith("error: ") and "this text is a player's view" in bad.output


def test_deal_view_and_fair_hint_commands(tmp_path):
    runner = CliRunner()
    view = runner.invoke(main, ["deal", "1", "--view"])
    assert view.exit_code == 0 and "col1: ?? ?? ?? AS 4H TH 8D" in view.output and "tail: ?? ?? ??" in view.output
    path = tmp_path / "view.txt"
    path.write_text(view.output)
    fair = runner.invoke(main, ["hint", str(path), "--fair", "--samples", "5", "--nodes", "500", "--json"])
    assert fair.exit_code == 0, fair.output
    data = json.loads(fair.output)
    assert data["samples"] == 5 and data["unseen"] == 15
    assert {m["move"] for m in data["moves"]} == {str(m) for m in legal_moves(deal(1, CLEAR), CLEAR)}
    plain = runner.invoke(main, ["hint", str(path)])
    assert plain.exit_code == 2 and "this text is a player's view" in plain.output and "--fair" in plain.output
    path.write_text(view.output.replace("col1: ?? ?? ??", "col1: AS ??"))
    bad = runner.invoke(main, ["hint", str(path), "--fair"])
    assert bad.exit_code == 2 and "line 2" in bad.output and "error:" in bad.output


def test_play_on_a_dask_cluster_gives_the_same_games(exact_folder, tmp_path):
    pytest.importorskip("distributed")
    from scorpion_solver.batch.backends import DaskBackend

    settings = PlaySettings(
        plan.parse_range("30-40"), ("clear",), PolicySpec("random", seed=5), exact=exact_folder, chunk=6
    )
    run_play(settings, tmp_path / "local", Execution(lambda: LocalBackend(1), progress=False))
    report = run_play(settings, tmp_path / "dask", Execution(lambda: DaskBackend(local_workers=1), progress=False))
    assert report.complete
    meta = json.loads((tmp_path / "dask" / "_batch.json").read_text())
    assert meta["runs"][0]["backend"] == "dask"

    def games(folder):
        return [
            {k: v for k, v in r.items() if k not in ("seconds", "cpu_seconds")}
            for r in read_play_folder(folder).to_pylist()
        ]

    assert games(tmp_path / "dask") == games(tmp_path / "local")


def test_one_game_plays_the_game_of_its_deal_in_a_folder_with_the_same_seed(exact_folder, tmp_path):
    """The one seed rule: ``scorpion play N --seed S`` is deal N's game in a folder played with seed S."""
    settings = PlaySettings(
        plan.parse_range("33-37"), ("clear",), PolicySpec("hop", 2, 300, seed=4), exact=exact_folder, chunk=5
    )
    run_play(settings, tmp_path / "play", Execution(lambda: LocalBackend(1), progress=False))
    rows = {r["deal"]: r for r in read_play_folder(tmp_path / "play").to_pylist() if r["played"]}
    assert set(rows) == {33, 37}
    for number, row in rows.items():
        args = ["play", str(number), "--policy", "hop", "--samples", "2", "--nodes", "300", "--seed", "4", "--json"]
        alone = json.loads(CliRunner().invoke(main, args).output)
        assert alone["game_seed"] == row["game_seed"] and alone["seed"] == 4
        for key in ("outcome", "reason", "moves", "n_moves", "decisions", "solves", "nodes", "proof_solves"):
            assert alone[key] == row[key], (number, key)
    other = json.loads(CliRunner().invoke(main, [*args[:-2], "5", "--json"]).output)
    assert other["game_seed"] != rows[37]["game_seed"]


def test_a_legacy_folder_is_resumed_and_its_metadata_then_records_every_setting(exact_folder, tmp_path):
    """A folder written before every setting was recorded: resumed with its implicit settings, upgraded."""
    out = tmp_path / "play"
    spec = PolicySpec("hop", 2, 300)
    settings = PlaySettings(plan.parse_range("30-40"), ("clear",), spec, exact=exact_folder, chunk=4)
    run_play(settings, out, Execution(lambda: LocalBackend(1), progress=False))
    games = read_play_folder(out).to_pylist()
    meta_path = out / "_batch.json"
    meta = json.loads(meta_path.read_text())
    legacy = {"policy": "hop", "seed": 0, "samples": 2, "nodes": 300, "bandit": False}
    meta["play"] = {**legacy, "move_cap": 400, "proof_nodes": 20000, "skip_lost": True}  # as in 2026-11
    meta_path.write_text(json.dumps(meta))
    (out / "chunk-00000034-00000037.parquet").unlink()
    with pytest.raises(plan.BatchError, match=re.escape("exact_nodes 5000000 (folder) vs 7 (this command)")):
        other = PolicySpec("hop", 2, 300, options={"exact_nodes": 7})
        run_play(PlaySettings(settings.deals, ("clear",), other, exact=exact_folder), out, Execution(LocalBackend))
    assert json.loads(meta_path.read_text())["play"] == meta["play"]
    again = run_play(settings, out, Execution(lambda: LocalBackend(1), progress=False))
    assert (again.written, again.already) == (1, 2)
    upgraded = json.loads(meta_path.read_text())
    assert upgraded["play"] == {**settings.record(), "reductions": "deadlock"}
    implicit = upgraded["play_implicit"][0]["settings"]
    assert implicit == ["reductions", "exact_endgame", "memory_mb", "exact_nodes", "exact_views"]

    def same(rows):
        return [{k: v for k, v in r.items() if k not in ("seconds", "cpu_seconds")} for r in rows]

    assert same(read_play_folder(out).to_pylist()) == same(games)  # the replayed chunk: the same games
    assert upgraded["runs"][-1]["source_commit"] is None or len(upgraded["runs"][-1]["source_commit"]) >= 40
