"""Where numba keeps the compiled kernels of an install whose package folder cannot be written.

An editable install (``pip install -e .``) keeps them beside the sources, in
``scorpion_solver/solver/__pycache__``. A wheel installed into a
site-packages the user cannot write (a system Python, a shared environment)
has no such place: numba then writes to its user-wide cache,
``$XDG_CACHE_HOME/numba`` (``~/.cache/numba``) in a folder named after the
package's, or to ``NUMBA_CACHE_DIR`` when that is set (docs/design.md, "The
compile"). The test runs a job's kernels twice in fresh processes with the
in-tree place refused, as it is for an unwritable site-packages (the tests
run as root, who may write anywhere, so the refusal is made by hand): the
first run compiles into the user-wide cache, the second loads from it and
compiles nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from scorpion_solver.solver.compiling import JOBS

SCRIPT = textwrap.dedent("""
    import json
    from numba.core import caching, event
    # as for a site-packages this user cannot write: numba's in-tree place refuses
    caching.InTreeCacheLocator.from_function = classmethod(lambda cls, py_func, py_file: None)
    from scorpion_solver.solver import compiling, search

    missing = compiling.missing(compiling.JOBS["deals"])
    compiled = []

    class Count(event.Listener):
        def on_start(self, ev):
            pass

        def on_end(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__name__)

    with event.install_listener("numba:compile", Count()):
        compiling.load(("deals",))
    print(json.dumps({"missing": missing, "compiled": compiled}))
""")


def test_an_unwritable_install_compiles_once_into_the_user_cache_and_loads_from_it(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)

    def run() -> dict:
        done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.splitlines()[-1])

    first = run()
    assert first["missing"] == list(JOBS["deals"])  # nothing in the fresh user cache
    assert "write_deal" in first["compiled"] and "shuffle_many" in first["compiled"]
    written = {p.name for p in (tmp_path / "numba").rglob("*.nbi")}
    assert any(name.startswith("deal_kernel.") for name in written), written
    assert any(name.startswith("kernel.write_deal") for name in written), written
    second = run()
    assert second == {"missing": [], "compiled": []}


BESIDE = textwrap.dedent("""
    import json
    from numba.core import event
    from scorpion_solver.solver import compiling, search

    compiled = []

    class Count(event.Listener):
        def on_start(self, ev):
            pass

        def on_end(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__name__)

    with event.install_listener("numba:compile", Count()):
        compiling.load(("deals", "screen"))
    print(json.dumps(compiled))
""")


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: everything compiles in one process")
def test_two_cold_jobs_compile_in_two_processes(tmp_path):
    def compiled_here(cache, **extra) -> list[str]:
        env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), **extra)
        done = subprocess.run([sys.executable, "-c", BESIDE], capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.splitlines()[-1])

    # the first cold job here, the second beside it: this process loads it from the cache the other wrote
    here = compiled_here(tmp_path / "a")
    assert "write_deal" in here and "shuffle_many" in here
    assert "screen_roots" not in here
    alone = compiled_here(tmp_path / "b", SCORPION_COMPILE_PROCESSES="1")
    assert "write_deal" in alone and "screen_roots" in alone
