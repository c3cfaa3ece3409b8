"""The `scorpion solve` command: verdicts, ranges, modes, files, JSON, solutions, bad input."""

import json
import resource
import subprocess
import sys

from scorpion_cli import SCORPION
from scorpion_cli import run as scorpion

from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import is_won, parse_moves, replay
from scorpion_solver.game.position_text import format_position
from scorpion_solver.game.rules import CLASSIC, CLEAR


def run(*args):
    return scorpion(*args, catch_exceptions=False)


def test_range_in_both_modes_gives_the_known_verdicts():
    result = run("solve", "31-37", "--mode", "both")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 15
    assert lines.pop().startswith("14 solves: clear: 2 won, 5 lost, 0 unknown; classic: 1 won, 6 lost, 0 unknown [")
    verdicts = {(line.split()[1], line.split()[2].rstrip(":")): line.split()[3] for line in lines}
    assert verdicts[("33", "clear")] == "won" and verdicts[("33", "classic")] == "lost"
    assert verdicts[("37", "clear")] == "won" and verdicts[("37", "classic")] == "won"
    assert [v for k, v in verdicts.items() if k[0] not in ("33", "37")] == ["lost"] * 10


def test_json_rows_carry_the_deal_and_a_solution_that_replays():
    result = run("solve", "5", "--mode", "classic", "--json")
    row = json.loads(result.stdout)
    assert (row["deal"], row["mode"], row["status"]) == (5, "classic", "won")
    assert row["solution_length"] == len(row["solution"].split())
    assert is_won(replay(deal(5), parse_moves(row["solution"]), CLASSIC), CLASSIC)


def test_solution_flag_prints_the_move_list():
    result = run("solve", "37", "--solution")
    verdict, moves = result.stdout.splitlines()
    assert verdict.startswith("deal 37 clear: won")
    assert is_won(replay(deal(37), parse_moves(moves), CLEAR), CLEAR)


def test_position_file_uses_its_own_mode_line(tmp_path):
    path = tmp_path / "deal33.txt"
    path.write_text(format_position(deal(33), CLASSIC))
    assert run("solve", path).stdout.startswith(f"{path} classic: lost")
    assert run("solve", path, "--mode", "clear").stdout.startswith(f"{path} clear: won")


def test_budget_stop_is_reported_as_unknown():
    result = run("solve", "4929", "--nodes", "1000")
    assert result.stdout.startswith("deal 4929 clear: unknown (stopped by the nodes limit)")


def test_no_prune_gives_the_same_verdicts():
    pruned = run("solve", "5", "--mode", "both").stdout.split("[")[0]
    plain = run("solve", "5", "--mode", "both", "--no-prune").stdout.split("[")[0]
    assert pruned == plain


def test_bad_inputs_are_one_line_and_exit_2(tmp_path):
    for args in (
        ["solve", "9-3"],
        ["solve", "0"],
        ["solve", tmp_path / "missing.txt"],
        ["solve", "5", "--mode", "spider"],
        ["solve", "5", "--nodes", "0"],
        ["solve", "5", "--time", "-1"],
    ):
        result = run(*args)
        assert result.exit_code == 2, args
        assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("error:"), (args, result.stderr)


def test_rules_is_an_alias_of_mode_for_the_relatives():
    assert run("solve", "5", "--rules", "wasp").stdout.startswith("deal 5 wasp: won")
    assert run("solve", "5", "--rules", "scorpion2").stdout.startswith("deal 5 scorpion2: won")


# ---------------------------------------------------------------------------
# solve streams a range


def _limited(address_space: int):
    def preexec():
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    return preexec


def test_a_range_of_a_hundred_million_deals_starts_at_once_within_little_memory():
    # 300 MB of address space: the list of 100 million targets alone would need several GB.
    code = "from scorpion_solver.cli.solve import parse_targets; t = iter(parse_targets('1-100000000')); print(next(t), next(t))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, preexec_fn=_limited(300 << 20)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "2"]


def test_solve_prints_the_first_verdicts_of_a_huge_range_at_once():
    process = subprocess.Popen(
        [*SCORPION, "solve", "1-100000000", "--nodes", "100"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_limited(3 << 30),
    )
    try:
        first = [process.stdout.readline() for _ in range(3)]
    finally:
        process.kill()
        process.communicate()
    assert [line.split(":")[0] for line in first] == ["deal 1 clear", "deal 2 clear", "deal 3 clear"]
