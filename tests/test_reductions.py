"""The search reductions as one named value (``solver/reductions.py``): the presets, what a folder's record
means, the kernel's switches, and the command line's ``--reductions``.

The node counts are those pinned beside each reduction (deal 202 in Clear: 1 node with every reduction,
the successor-above rule proving it lost at the root; 20,572 with the deadlock test alone,
tests/test_safe_leads.py)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from scorpion_solver.cli import main
from scorpion_solver.game.deal import deal
from scorpion_solver.game.rules import CLEAR
from scorpion_solver.solver import kernel
from scorpion_solver.solver.reductions import PRESETS, Reductions, get_reductions
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import solve


def test_the_presets_are_named_switches():
    assert PRESETS["full"] == Reductions(prune=True, safe_leads=True, successor_above=True)
    assert PRESETS["deadlock"] == Reductions(prune=True, safe_leads=False, successor_above=False)
    assert PRESETS["none"] == Reductions(prune=False, safe_leads=False, successor_above=False)
    assert [p.name for p in PRESETS.values()] == list(PRESETS)
    assert Reductions(safe_leads=False).name == "custom"
    assert PRESETS["deadlock"].off() == ["safe_leads", "successor_above"]
    with pytest.raises(ValueError, match="unknown reductions preset 'fast'"):
        get_reductions("fast")


def test_a_record_without_a_switch_means_it_off_but_prune_on():
    """Folders written before a reduction existed do not name it: they were made without it."""
    assert Reductions.from_record({"nodes": 1, "prune": True}) == PRESETS["deadlock"]
    assert Reductions.from_record({"nodes": 1}) == PRESETS["deadlock"]  # prune was there from the start
    assert Reductions.from_record({"prune": False}) == PRESETS["none"]
    for preset in PRESETS.values():
        assert Reductions.from_record(preset.record()) == preset


def test_each_reduction_is_one_bit_of_the_kernels_switches():
    assert PRESETS["full"].kernel_bits() == (
        kernel.PRUNE_DEADLOCK | kernel.PRUNE_SAFE_LEADS | kernel.PRUNE_SUCCESSOR_ABOVE
    )
    assert PRESETS["deadlock"].kernel_bits() == kernel.PRUNE_DEADLOCK
    assert PRESETS["none"].kernel_bits() == 0
    assert Reductions(safe_leads=False).kernel_bits() == kernel.PRUNE_DEADLOCK | kernel.PRUNE_SUCCESSOR_ABOVE


def test_the_presets_change_nodes_not_verdicts():
    found = {name: solve(deal(202), CLEAR, Limits(), reductions=preset) for name, preset in PRESETS.items()}
    assert {r.status for r in found.values()} == {"lost"}
    assert (found["full"].nodes, found["deadlock"].nodes) == (1, 20_572)
    assert found["none"].nodes > found["deadlock"].nodes and found["none"].deadlock_checks == 0


def test_solve_reductions_option_is_the_preset_and_the_switches_turn_single_ones_off():
    def solved(*args):
        result = CliRunner().invoke(main, ["solve", "202", "--json", *args])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        del data["seconds"]  # wall clock
        return data

    by_preset = solved("--reductions", "deadlock")
    assert (by_preset["status"], by_preset["nodes"]) == ("lost", 20_572)
    assert solved("--no-safe-leads", "--no-successor-above") == by_preset
    assert solved("--reductions", "full")["nodes"] == 1
    assert solved("--reductions", "full", "--no-safe-leads", "--no-successor-above") == by_preset
    refused = CliRunner().invoke(main, ["solve", "202", "--reductions", "fast"])
    assert refused.exit_code == 2 and refused.output.count("\n") == 1 and "fast" in refused.output
