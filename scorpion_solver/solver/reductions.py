"""The search reductions: sound cuts that change how many nodes a search takes, never its verdict.

A search runs under :class:`Limits` (budgets: when to give up) and under
:class:`Reductions` (which sound cuts it makes). The reductions are one
value with named presets, so a results folder can record the preset it was
made with and a rerun takes it from there:

* ``full``: every reduction (the default of ``solve``, ``batch``, ``hint``);
* ``deadlock``: the deadlock test alone, without its successor-above rule
  and without safe leads: what the committed play folders were played with
  (``results/play-*``, made before the other two existed), and what the
  shortest search and the polish of a line run (``kernel.shortest_search``
  honours the deadlock test only, with no successor-above rule);
* ``none``: no reduction (the plain search, for tests and measurements).

The reductions:

* ``prune``: the deadlock test (``kernel._deadlocked``; twin
  ``deadlock.is_deadlocked``): a position in which some card can never be
  freed is lost;
* ``safe_leads``: after the tail deal, a position with a safe lead has that
  move as its only child (``kernel._safe_lead``; twin in
  ``search_twin``);
* ``successor_above``: the deadlock test's successor-above rule
  (``kernel._successor_free``; twin ``deadlock.least_fixed_point``).

Adding a reduction touches four places: the kernel (a ``PRUNE_*`` bit and
the code it switches), its plain twin (``search_twin`` /
``deadlock``), this table (a field, its bit in :data:`KERNEL_BITS`, its
value in each preset of :data:`PRESETS`) and a test that the kernel and the
twin agree with it on and off, node for node. (The command line's switch
for it, ``--no-...`` in ``cli``, is optional.)
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, fields

# Each reduction's switch in the kernel's ``prune`` argument (by name: the kernel module loads numba, and
# the command line and the results folders read presets without it).
KERNEL_BITS = {"prune": "PRUNE_DEADLOCK", "safe_leads": "PRUNE_SAFE_LEADS", "successor_above": "PRUNE_SUCCESSOR_ABOVE"}

# What each reduction is called where a folder's settings are printed ("no pruning, no safe leads").
TITLES = {"prune": "pruning", "safe_leads": "safe leads", "successor_above": "successor-above rule"}


@dataclass(frozen=True)
class Reductions:
    """Which sound reductions a search makes (see the module docstring); all on by default."""

    prune: bool = True
    safe_leads: bool = True
    successor_above: bool = True

    @property
    def name(self) -> str:
        """The preset these are, or ``custom`` (switches chosen one by one)."""
        return next((name for name, preset in PRESETS.items() if preset == self), "custom")

    def kernel_bits(self) -> int:
        """The kernel's ``prune`` argument: the bits of the reductions that are on (worked out once per value:
        every solve asks)."""
        return _kernel_bits(self)

    def off(self) -> list[str]:
        """The names of the reductions that are off, in the order of the fields."""
        return [name for name, on in asdict(self).items() if not on]

    def proven_for(self, rules) -> Reductions:
        """These reductions less those whose proof does not cover the rules' game.

        The deadlock test (and its successor-above rule) covers every game
        here: the seven-column games, Three Blind Mice's ten columns and
        reserve cards, and Double Scorpion's two copies of each face
        (``deadlock``'s docstring). Safe leads rest on each card having one
        successor and no reserve: the seven-column games only.
        """
        if rules.is_scorpion_shape:
            return self
        return Reductions(prune=self.prune, safe_leads=False, successor_above=self.successor_above)

    @staticmethod
    def in_search(rules) -> bool:
        """Whether the deadlock test runs inside the search, as well as on the root: everywhere but Three
        Blind Mice, where it runs on the root only (the wide kernel's test, ``kernel._wide_deadlocked``,
        came after its results folder was begun; the search there is the one that folder was made with)."""
        return rules.is_scorpion_shape or rules.decks == 2

    def record(self) -> dict:
        """The switches as a results folder records them (``{"prune": true, ...}``)."""
        return asdict(self)

    @classmethod
    def from_record(cls, record: dict) -> Reductions:
        """The reductions a recorded dict names; a switch it lacks was made before that reduction existed: off.

        (``prune``, there from the start, is on when absent.)
        """
        return cls(**{f.name: bool(record.get(f.name, f.name == "prune")) for f in fields(cls)})


PRESETS = {
    "full": Reductions(),
    "deadlock": Reductions(prune=True, safe_leads=False, successor_above=False),
    "none": Reductions(prune=False, safe_leads=False, successor_above=False),
}
FULL = PRESETS["full"]


def get_reductions(name: str) -> Reductions:
    """The preset called ``name``; ValueError naming the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown reductions preset {name!r} (known: {', '.join(PRESETS)})") from None


@functools.cache
def _kernel_bits(reductions: Reductions) -> int:
    from . import kernel  # here, not at the top: reading a preset (the command line, a folder) loads no numba

    return sum(getattr(kernel, bit) for name, bit in KERNEL_BITS.items() if getattr(reductions, name))
