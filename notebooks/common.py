"""The setup the analysis notebooks share: the repository, a results folder and its rows, the plot style.

Each notebook's first code cell imports it (``from common import ...``): the
notebooks run with notebooks/ as their working folder (notebooks/run.py, the
tests, and Jupyter opened on a notebook). It is plain code, not a notebook:
it has no .ipynb pair, and notebooks/run.py runs only the paired scripts.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

import scorpion_solver
from scorpion_solver.batch import limits_text, read_metadata

STATUS_COLORS = {"won": "tab:green", "lost": "tab:red", "unknown": "tab:gray"}
RESULTS_ENV = "SCORPION_RESULTS"  # the results folder every notebook reads


def find_root() -> Path:
    """The repository: the nearest folder up from here with pyproject.toml and scorpion_solver/."""
    for folder in (Path.cwd(), *Path.cwd().parents):
        if (folder / "pyproject.toml").is_file() and (folder / "scorpion_solver").is_dir():
            return folder
    return Path(scorpion_solver.__file__).resolve().parents[1]


ROOT = find_root()


def results_folder(default: str = "deals-1-1000000") -> Path:
    """The folder named by SCORPION_RESULTS, else ``results/DEFAULT`` of the repository."""
    return Path(os.environ.get(RESULTS_ENV) or ROOT / "results" / default).resolve()


def shown_path(path: Path) -> Path:
    """``path`` as the notebooks print it: relative to the repository when it lies inside it."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def read_results(columns: list[str], default: str = "deals-1-1000000"):
    """The results folder, its metadata (``_batch.json``), its rows and its modes, for a notebook's first cell.

    Returns (RESULTS, META, df, MODES): ``df`` holds ``columns`` sorted by
    deal and mode; ``MODES`` lists the modes of the rows, the metadata's order
    first. A folder that does not exist is a FileNotFoundError saying what to do.
    """
    results = results_folder(default)
    if not results.is_dir():
        raise FileNotFoundError(f"no results folder {results}: run `scorpion batch`, or set {RESULTS_ENV}")
    meta = read_metadata(results) or {}  # _batch.json: the settings and the history of the folder
    df = pd.read_parquet(results, columns=columns).sort_values(["deal", "mode"], ignore_index=True)
    modes = [m for m in meta.get("modes", []) if m in set(df["mode"])]
    modes += sorted(set(df["mode"]) - set(modes))
    return results, meta, df, modes


def describe(results: Path, meta: dict, df: pd.DataFrame, modes: list[str]) -> None:
    """Print the folder, its settings, when its last run finished, and PARTIAL RESULTS when the batch is unfinished."""
    expected = (meta.get("deals") or {}).get("count")
    present = df.groupby("mode")["deal"].nunique()
    print(
        f"{shown_path(results)}: deals {(meta.get('deals') or {}).get('spec', '?')}, modes {', '.join(modes)}; "
        + (f"{limits_text(meta['limits'])}; " if "limits" in meta else "")
        + f"written by scorpion-solver {meta.get('package_version', '?')}"
    )
    print(finished_text(meta))
    for m in modes:
        print(f"  {m}: {present[m]:,} deals" + (f" of {expected:,}" if expected else ""))
    if expected and present.min() < expected:
        print("PARTIAL RESULTS: the batch is not finished; this is what it had written when the notebook ran")


def finished_text(meta: dict) -> str:
    """When the folder's data was last written, from its run records (``_batch.json``'s ``runs``, the newest
    ``finished``): a file's time on disk would be the time of a checkout, not of the run."""
    finished = [run["finished"] for run in meta.get("runs", []) if run.get("finished")]
    if not finished:
        return "no finished run recorded"
    return f"last run finished {datetime.fromisoformat(max(finished)).astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC"


# The settings a player's name shows whatever the other players: hop's K and the tail rejudged (commit, commit2).
NAMED_SETTINGS = ("policy", "samples", "rejudge_tail")


def player_name(settings: dict) -> str:
    """A player's name from its settings: the policy, hop's K, rejudge-tail (``hop K=100``, ``commit2 rejudge-tail``)."""
    return (
        settings["policy"]
        + (f" K={settings['samples']}" if settings["policy"] == "hop" else "")
        + (" rejudge-tail" if settings.get("rejudge_tail") else "")
    )


def player_labels(players: dict) -> dict:
    """key -> the label of each player (key -> its settings, every one: ``play_runs.recorded_play``).

    A player is named by :func:`player_name`; where players share a name, each setting off the code's default
    on which they differ is added (``commit2 rejudge-tail inner=16``, ``commit2 rejudge-tail outer=40`` beside
    ``commit2 rejudge-tail``), so no two players that played differently are labelled alike. The seed is not
    a setting of the player.
    """
    from scorpion_solver.play.players import PolicySpec

    labels = {}
    for key, settings in players.items():
        name = player_name(settings)
        namesakes = [s for k, s in players.items() if k != key and player_name(s) == name]
        default = PolicySpec(settings["policy"]).record()
        shown = [
            f"{k}={int(v) if isinstance(v, bool) else v}"
            for k, v in settings.items()
            if k not in (*NAMED_SETTINGS, "seed")
            and v != default.get(k, v)
            and any(s.get(k, default.get(k)) != v for s in namesakes)
        ]
        labels[key] = " ".join([name, *shown])
    return labels


def mode_colors(modes: list[str]) -> dict[str, str]:
    """One matplotlib colour per mode, in the order given."""
    return {m: f"C{i}" for i, m in enumerate(modes)}


def style() -> None:
    """The notebooks' table and plot style."""
    pd.set_option("display.float_format", "{:.4g}".format)
    plt.rcParams.update({"figure.dpi": 80, "figure.facecolor": "white", "axes.grid": True, "grid.alpha": 0.3})


def pct(x, digits: int = 2) -> str:
    """A share as a percentage, ``-`` for none."""
    return "-" if x is None or pd.isna(x) else f"{100 * x:.{digits}f}%"
