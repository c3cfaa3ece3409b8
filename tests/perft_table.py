"""The perft tables of tests/data/perft.txt, and a perft check that prints the divide when a count is wrong.

The counts live in a data file with the source of every number (docs/rules.md's
table, or the reference engine at a named commit, checked against the kernel);
the tests read them from here. When a count differs, ``check_perft`` fails with
the engine's count per first move beside the stored one, as python-chess's perft
runner does, so the message names the first move whose subtree is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from scorpion_solver import deal
from scorpion_solver.game.engine import legal_moves, move_text
from scorpion_solver.game.rules import get_rules

DATA = Path(__file__).resolve().parent / "data" / "perft.txt"
RELATIVES_DATA = DATA.with_name("perft_relatives.txt")  # the ten-column relatives (issue 53), two deals each


@dataclass
class PerftRecord:
    """One record of the data file: a position, a preset, its counts and divides, each number's source."""

    id: str
    deal: int
    preset: str
    counts: dict[int, int] = field(default_factory=dict)
    divides: dict[int, list[tuple[str, int]]] = field(default_factory=dict)
    sources: dict[tuple[str, int], str] = field(default_factory=dict)  # ("perft" | "divide", depth) -> source

    @property
    def rules(self):
        return get_rules(self.preset)

    def position(self):
        return deal(self.deal, self.rules)


def read_table(path: Path = DATA) -> dict[str, PerftRecord]:
    """The records of ``path`` by preset name; a malformed line raises ValueError naming it."""
    records: dict[str, PerftRecord] = {}
    for record in read_records(path):
        if record.preset in records:
            raise ValueError(f"{path.name}: two records for deal {record.deal} in {record.preset}")
        records[record.preset] = record
    return records


def read_records(path: Path) -> list[PerftRecord]:
    """The records of ``path`` in their order (a file may hold several deals of a preset)."""
    records: list[PerftRecord] = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line.split("#", 1)[0].strip() for line in block.splitlines()]
        fields = [line.split(" ", 1) for line in lines if line]
        if not fields:
            continue
        head = dict(f for f in fields if f[0] in ("id", "deal", "preset"))
        record = PerftRecord(head["id"], int(head["deal"]), head["preset"])
        source = ""
        for key, rest in fields:
            if key == "source":
                source = rest
            elif key == "perft":
                depth, count = map(int, rest.split())
                record.counts[depth] = count
                record.sources["perft", depth] = source
            elif key == "divide":
                depth, move, count = rest.split()
                record.divides.setdefault(int(depth), []).append((move, int(count)))
                record.sources["divide", int(depth)] = source
            elif key not in ("id", "deal", "preset"):
                raise ValueError(f"{path.name}: unknown line {key} {rest!r} in {record.id}")
        records.append(record)
    return records


TABLE = read_table()
RELATIVES = {record.id: record for record in read_records(RELATIVES_DATA)}


def kernel_divide(position, depth: int, rules) -> list:
    """perft at ``depth`` per first move, counted by the jitted kernel (the engine lists the moves)."""
    from scorpion_solver.solver.search import jit_perft, jit_play

    out = []
    for move in legal_moves(position, rules):
        child, _, _ = jit_play(position, move, rules)
        out.append((move, jit_perft(child, depth - 1, rules)))
    return out


def divide_message(record: PerftRecord, depth: int, got: int, divide) -> str:
    """The failure text: the count against the stored one, then the divide against the stored divide."""
    expected = record.counts[depth]
    head = (
        f"perft(deal {record.deal}, {record.preset}, depth {depth}) = {got}, expected {expected} "
        f"(tests/data/{DATA.name}, {record.id}; source: {record.sources['perft', depth]})"
    )
    ours = [(move_text(move), n) for move, n in divide(record.position(), depth, record.rules)]
    stored = dict(record.divides.get(depth, []))
    if not stored:
        return head + f"\ndivide at depth {depth} (none stored):\n" + "\n".join(f"  {m}: {n}" for m, n in ours)
    lines = [head, f"divide at depth {depth}, this engine / stored:"]
    for move in dict.fromkeys([m for m, _ in ours] + list(stored)):
        mine, theirs = dict(ours).get(move), stored.get(move)
        mark = "" if mine == theirs else "   <-- differs"
        lines.append(f"  {move}: {'-' if mine is None else mine} / {'-' if theirs is None else theirs}{mark}")
    return "\n".join(lines)


def check_perft(record: PerftRecord, depth: int, got: int, divide) -> None:
    """Fail with the divide of ``divide(position, depth, rules)`` against the stored one unless got is right."""
    assert got == record.counts[depth], divide_message(record, depth, got, divide)
