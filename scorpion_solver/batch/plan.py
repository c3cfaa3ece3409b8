"""Which deals a batch solves and how they are cut into chunks.

A RANGE is ``A-B`` (inclusive), one deal ``N``, or a file of deal numbers;
the chunks are consecutive slices of the sorted deal list, a pure function of
the deal list and the chunk size, so a rerun plans the same chunks and can
skip those already written.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np

from ..game.rules import PRESETS, get_rules
from ..game.text_input import read_text, visible
from ..solver.reductions import FULL, Reductions
from ..solver.result import Limits

MAX_DEFAULT_CHUNK = 1000
MIN_DEFAULT_CHUNK = 10
MAX_DEAL = 2**63 - 1  # the deal column is int64; PySolFC numbers beyond are for `scorpion solve N`
MAX_BATCH_DEALS = 100_000_000  # deals in one batch (the plan holds them as int64: 800 MB)


class BatchError(ValueError):
    """A user mistake about a batch (bad RANGE, wrong folder, mixed settings).

    A ValueError, so ``cli_errors.user_errors`` reports it as one ``error:`` line.
    """


RANGE_RE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


@dataclass(frozen=True)
class DealSet:
    """The deals of a batch: sorted, distinct deal numbers and where they came from."""

    spec: str  # the RANGE as given ("1-100000", "7", or a file path)
    numbers: np.ndarray  # sorted distinct int64
    label: str  # for folder names: "1-100000" or the file's stem

    def __len__(self) -> int:
        return int(self.numbers.size)

    @property
    def first(self) -> int:
        return int(self.numbers[0])

    @property
    def last(self) -> int:
        return int(self.numbers[-1])

    def digest(self) -> str:
        return hashlib.sha256(self.numbers.astype("<i8").tobytes()).hexdigest()

    def describe(self) -> dict:
        return {"spec": self.spec, "count": len(self), "first": self.first, "last": self.last, "sha256": self.digest()}


def parse_range(text: str) -> DealSet:
    """A RANGE: ``A-B`` (inclusive), a single deal ``N``, or a file of deal numbers.

    The file holds one number a line; blank lines and ``#`` comments are
    ignored, repeats are dropped and the numbers sorted. Raises BatchError
    with the offending text (and line) otherwise.
    """
    match = RANGE_RE.match(text) if text.isascii() else None
    if match:
        start = int(match.group(1))
        end = int(match.group(2)) if match.group(2) is not None else start
        if start < 1:
            raise BatchError(f"'{text}': deal numbers start at 1")
        if end < start:
            raise BatchError(f"'{text}' is not a range: {start} comes after {end}")
        check_batch_deal(max(start, end), f"'{text}'")
        if end - start + 1 > MAX_BATCH_DEALS:
            raise BatchError(
                f"'{text}' holds {end - start + 1:,} deals; a batch takes at most {MAX_BATCH_DEALS:,} "
                "(split the range into several batches)"
            )
        return DealSet(text.strip(), np.arange(start, end + 1, dtype=np.int64), f"{start}-{end}")
    if text.strip() == "-":
        return _read_numbers(Path("-"))
    path = Path(text)
    if not path.is_file():
        raise BatchError(f"'{text}' is not a RANGE (like 1-100000 or 7) nor a file of deal numbers")
    return _read_numbers(path)


def check_batch_deal(number: int, where: str) -> None:
    """Refuse a deal number the batch's int64 deal column cannot hold (one clear line)."""
    if number > MAX_DEAL:
        raise BatchError(
            f"{where}: deal {number} is beyond what a batch holds (deal numbers up to 2^63-1 = {MAX_DEAL}); "
            f"solve it with 'scorpion solve {number}'"
        )


def _read_numbers(path: Path) -> DealSet:
    name = "standard input" if str(path) == "-" else str(path)
    try:
        lines = read_text(str(path)).splitlines()
    except ValueError as exc:
        raise BatchError(str(exc)) from None
    numbers = []
    for lineno, line in enumerate(lines, 1):
        token = line.split("#", 1)[0].strip()
        if not token:
            continue
        if not (token.isascii() and token.isdigit()) or int(token) < 1:
            raise BatchError(
                f"{name} line {lineno}: '{visible(token)}' is not a deal number (a whole number, 1 or more)"
            )
        check_batch_deal(int(token), f"{name} line {lineno}")
        numbers.append(int(token))
        if len(numbers) > MAX_BATCH_DEALS:
            raise BatchError(f"{name} holds more than {MAX_BATCH_DEALS:,} deal numbers: split it into several batches")
    if not numbers:
        raise BatchError(f"{name} holds no deal numbers (one a line)")
    label = "stdin" if name == "standard input" else path.stem
    return DealSet(name, np.unique(np.array(numbers, dtype=np.int64)), label)


def parse_modes(text: str) -> tuple[str, ...]:
    """A comma list of preset names, deduplicated, in the order of rules.PRESETS."""
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    if not names:
        raise BatchError("--mode needs at least one rules preset (e.g. clear,classic)")
    for name in names:
        get_rules(name)  # ValueError naming the known presets
    return tuple(name for name in PRESETS if name in names)


def default_chunk(count: int) -> int:
    """Deals per chunk when --chunk is not given: about 100 chunks, 10 to 1000 deals each.

    A function of the number of deals only, so a rerun plans the same chunks.
    """
    return max(MIN_DEFAULT_CHUNK, min(MAX_DEFAULT_CHUNK, -(-count // 100)))


def chunk_name(first: int, last: int) -> str:
    return f"chunk-{first:08d}-{last:08d}.parquet"


@dataclass(frozen=True, eq=False)
class Chunk:
    deals: np.ndarray  # a view into the sorted deal list (a plan of millions of deals copies nothing)

    @property
    def name(self) -> str:
        return chunk_name(int(self.deals[0]), int(self.deals[-1]))


def plan_chunks(deals: DealSet, size: int) -> Iterator[Chunk]:
    """Consecutive slices of ``size`` deals of the sorted deal list."""
    if size < 1:
        raise BatchError("--chunk must be at least 1")
    numbers = deals.numbers
    for lo in range(0, numbers.size, size):
        yield Chunk(numbers[lo : lo + size])


@dataclass(frozen=True)
class BatchSettings:
    """What a batch solves and how: the deals, the modes, the budget, the search's reductions, the chunking.

    ``shortest``: each win is one of minimum length, proved minimal (``search.solve_shortest``).
    """

    deals: DealSet
    modes: tuple[str, ...]
    limits: Limits
    chunk: int | None = None  # None: the folder's, or default_chunk()
    reductions: Reductions = FULL
    shortest: bool = False
