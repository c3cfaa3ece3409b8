"""The paired comparisons of ``scorpion stats DIR --against OTHER --pair A:B``: verdicts gathered from folders.

:mod:`stats` compares two modes given their verdicts; this module finds
those verdicts in a results folder and the folders it is compared against,
and chooses the pairs (the ones asked for, or every pair the rules order).
"""

from __future__ import annotations

from pathlib import Path

from ..game.rules import PRESETS
from .folder import read_folder, require_kind
from .plan import BatchError
from .stats import compare_modes, implied_pairs, mode_verdicts


def folder_comparisons(
    folder: Path, columns: dict, against: tuple[Path, ...], pairs: tuple[str, ...]
) -> tuple[list[dict], dict[str, str]]:
    """The paired comparisons of ``--against`` / ``--pair``, and the folder each mode was read from.

    ``columns`` are DIR's own (deal, mode, status) columns. A mode held by
    several folders is read from the first of DIR, then the ``against``
    folders in their order. Without ``pairs``, every pair the rules order
    that involves a mode of DIR.
    """
    verdicts = {m: (v, folder) for m, v in mode_verdicts(columns).items()}
    own = set(verdicts)
    for other in against:
        require_kind(other, "results", f"--against with the results folder {folder}")
        table = read_folder(other, columns=["deal", "mode", "status"])
        if table.num_rows == 0:
            raise BatchError(f"--against {other}: holds no finished chunk files (chunk-*.parquet)")
        found = mode_verdicts({name: table.column(name).to_numpy() for name in table.column_names})
        for m, v in found.items():
            verdicts.setdefault(m, (v, other))
    if pairs:
        chosen = [parse_pair(text, verdicts) for text in pairs]
    else:
        chosen = implied_pairs(verdicts, involving=own)
        if not chosen:
            raise BatchError(
                f"no pair of presets the rules order among {', '.join(sorted(verdicts))} "
                f"with a mode of {folder}; give --pair A:B"
            )
    comparisons = [compare_modes(a, b, verdicts[a][0], verdicts[b][0]) for a, b in chosen]
    return comparisons, {m: str(v[1]) for m, v in verdicts.items()}


def parse_pair(text: str, verdicts: dict) -> tuple[str, str]:
    """``A:B`` as two presets that differ, each held by one of the folders (``verdicts``' keys)."""
    parts = [p.strip().lower() for p in text.split(":")]
    if len(parts) != 2 or not all(parts):
        raise BatchError(f"--pair {text!r}: give two presets as A:B, e.g. clear:wasp")
    for m in parts:
        if m not in PRESETS:
            raise BatchError(f"--pair {text!r}: unknown preset {m!r} (known: {', '.join(PRESETS)})")
        if m not in verdicts:
            raise BatchError(
                f"--pair {text!r}: no folder given holds {m} (they hold {', '.join(sorted(verdicts))}; add --against DIR)"
            )
    if parts[0] == parts[1]:
        raise BatchError(f"--pair {text!r}: the two presets must differ")
    return parts[0], parts[1]
