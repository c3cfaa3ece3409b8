"""bench_batch.py's C twin: the batch's search run as native C, only the native calls timed.

The same search as native C (``c_baseline/``, built by ``c_kernel.py``) is
swapped into ``driver.kernel`` as ``compare_c.py`` does; the line kernels its
wins call (``shorten_line``, ``shortest_search``: numba, the batch's own) are
timed apart.
"""

from __future__ import annotations

import time

from scorpion_solver.game.rules import get_rules
from scorpion_solver.solver.result import Limits


class CTwin:
    """The same search as native C (``c_kernel.load_c_kernel``), the CPU of its native calls alone; and,
    apart, of the line kernels its wins call (``shorten_line``, ``shortest_search``: numba, the batch's own)."""

    def __init__(self, bias: float) -> None:
        import threading

        from c_kernel import load_c_kernel

        self.ns = 0
        self.calls = 0
        self.bias = bias  # ns the clock adds to one measured call (Timers.calibrate)
        clock = time.process_time_ns

        def timed(native):
            def call(pointer):
                t0 = clock()
                try:
                    return native(pointer)
                finally:
                    self.ns += clock() - t0
                    self.calls += 1

            return call

        self.kernel = load_c_kernel(wrap_native=timed)
        self.stack = threading.local()  # its own stack and buffers, as compare_c.py gives each kernel
        self.line_ns = 0
        self.line_calls = 0

        def timed_line(kernel_fn):
            def call(*args):
                t0 = clock()
                try:
                    return kernel_fn(*args)
                finally:
                    self.line_ns += clock() - t0
                    self.line_calls += 1

            return call

        for name in ("shorten_line", "shortest_search"):
            setattr(self.kernel, name, timed_line(getattr(self.kernel, name)))

    def solve(self, pairs: list[tuple[int, str]], limits: Limits) -> tuple[list[tuple[str, int]], float, float]:
        """(status, nodes) of each pair, the native search's CPU ns for them all, and the line kernels'."""
        from scorpion_solver.solver import driver, search

        saved = driver.kernel, driver._reused
        ns, calls = self.ns, self.calls
        line_ns, line_calls = self.line_ns, self.line_calls
        driver.kernel, driver._reused = self.kernel, self.stack
        try:
            verdicts = []
            for n, mode in pairs:
                result = search.solve_deal(n, get_rules(mode), limits)
                verdicts.append((result.status, result.nodes))
        finally:
            driver.kernel, driver._reused = saved
        search_ns = max(0.0, (self.ns - ns) - self.bias * (self.calls - calls))
        return verdicts, search_ns, max(0.0, (self.line_ns - line_ns) - self.bias * (self.line_calls - line_calls))
