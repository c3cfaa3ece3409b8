"""The package's architecture is a checked contract, and the code passes its linter.

The layers (``cli`` above ``batch`` above ``analysis`` above ``solver`` above
``game``) are written as an import-linter contract in ``pyproject.toml``; these
tests run it on the package, and on a copy of the package with one forbidden
import added, to show that the check would catch a circle coming back. Inside a
layer the contract allows anything, so the modules' import graph is checked for
circles too, with the imports inside functions counted (they hide circles).
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        found = shutil.which(name)
        if found is None:
            pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
        return found
    return str(path)


def _lint_imports(root: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.run(
        [_tool("lint-imports"), "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_layers_contract_is_kept():
    run = _lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 kept, 0 broken" in run.stdout


@pytest.mark.parametrize(
    "module, forbidden_import",
    [
        ("game/cards.py", "from ..solver import result"),  # game reaching up to the solver
        ("solver/search.py", "from ..analysis import hints"),  # the solver reaching up to analysis
        ("batch/plan.py", "from .. import cli"),  # batch reaching up to the command line
    ],
)
def test_layers_contract_catches_an_upward_import(tmp_path, module, forbidden_import):
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copytree(
        ROOT / "scorpion_solver",
        copy / "scorpion_solver",
        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"),
    )
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    with open(copy / "scorpion_solver" / module, "a", encoding="utf-8") as handle:
        handle.write(f"\n{forbidden_import}  # noqa: E402,F401\n")
    run = _lint_imports(copy)
    assert run.returncode != 0
    assert "1 broken" in run.stdout
    assert "is not allowed to import" in run.stdout


def test_ruff_lint_and_format_are_clean():
    paths = ["scorpion_solver", "tests", "benchmarks", "notebooks/run.py"]
    lint = subprocess.run([_tool("ruff"), "check", "--no-cache", *paths], cwd=ROOT, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = subprocess.run(
        [_tool("ruff"), "format", "--no-cache", "--check", *paths], cwd=ROOT, capture_output=True, text=True
    )
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


def import_cycles(package: Path) -> list[list[str]]:
    """The circles of the package's import graph (module and function level imports): each a sorted
    list of module names, found as the strongly connected components of more than one module."""
    modules = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = here
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                target = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    graph[name].add(full if full in modules else target)
            elif isinstance(node, ast.Import):
                graph[name].update(alias.name for alias in node.names)
    graph = {name: {t for t in targets if t in modules and t != name} for name, targets in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def test_no_import_circles():
    assert import_cycles(ROOT / "scorpion_solver") == []


def test_an_import_circle_hidden_in_a_function_is_found(tmp_path):
    copy = tmp_path / "scorpion_solver"
    shutil.copytree(ROOT / "scorpion_solver", copy, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    with open(copy / "game" / "view.py", "a", encoding="utf-8") as handle:
        handle.write("\n\ndef _text(view):\n    from .view_text import format_view\n\n    return format_view(view)\n")
    assert import_cycles(copy) == [["scorpion_solver.game.view", "scorpion_solver.game.view_text"]]


def private_names_imported(package: Path) -> list[str]:
    """Every ``_name`` a module of ``package`` takes from another of its modules (``from m import _x``, ``m._x``).

    A leading underscore says "this module's own business"; a name another
    module needs is public (or belongs in that other module).
    """
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = set()  # names bound to the package's own modules in this file
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(package.name)):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(
                            f"{path.relative_to(package.parent)}: from {node.module or '.'} import {alias.name}"
                        )
                    module_path = (path.parent if node.level else package.parent).joinpath(
                        *([".."] * max(node.level - 1, 0)), *(node.module or "").split("."), alias.name
                    )
                    if module_path.with_suffix(".py").exists() or (module_path / "__init__.py").exists():
                        modules.add(alias.asname or alias.name)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                found.append(f"{path.relative_to(package.parent)}: {node.value.id}.{node.attr}")
    return found


def test_no_module_imports_another_modules_private_name():
    assert private_names_imported(ROOT / "scorpion_solver") == []


def test_a_private_name_imported_across_modules_is_found(tmp_path):
    copy = tmp_path / "scorpion_solver"
    shutil.copytree(ROOT / "scorpion_solver", copy, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    with open(copy / "play" / "bounds.py", "a", encoding="utf-8") as handle:
        handle.write(
            "\n\nfrom .commit import _after_key  # noqa: E402\nfrom . import commit  # noqa: E402\n\nKEY = commit._after_key\n"
        )
    assert private_names_imported(copy) == [
        "scorpion_solver/play/bounds.py: from commit import _after_key",
        "scorpion_solver/play/bounds.py: commit._after_key",
    ]
