"""Tiered compilation: the first calls of a jitted function never wait for numba.

On a cache miss the optimized graph runs at once through the reference backend (tier 0: the reference rules,
NumPy), and numba compiles it in a background thread, warming every kernel on copies of the first call's
arguments. When that finishes the cache entry switches to the compiled executable (tier 1); calls already
running finish on tier 0. Failures in the background leave the entry on tier 0 and are logged, never raised
into a later call. `jit(f, tiered=False)` or `config.tiered = False` (ARRAYSTACK_TIERED=0) compiles before
the first call returns, as JAX does.

The tiers agree to within the accuracy bound of the compiled math (<= 4 ulp for the transcendental functions,
a different summation order for float reductions), not bit for bit: tier 0 computes with NumPy.

A thread, not a process: numba holds the GIL for much of a compile, so calls made meanwhile run slower, but
the first call returns without waiting and the compiled kernels land in this process without a second
numba start-up.
"""

from __future__ import annotations

import logging
import threading

import numpy as np

log = logging.getLogger("arraystack.jit")


class Tier:
    """The background compilation of one cache entry."""

    def __init__(self, entry, graph, backend, cache_dir, donate, stats, name):
        self.entry = entry
        self.graph = graph
        self.backend = backend
        self.cache_dir = cache_dir
        self.donate = donate
        self.stats = stats
        self.name = name
        self.thread = None
        self.error = None
        self.done = threading.Event()
        self._lock = threading.Lock()

    def start(self, buffers, consts):
        """Start compiling (once), warming the kernels on copies of these buffers."""
        with self._lock:
            if self.thread is not None:
                return
            copies = [np.array(b, copy=True) for b in buffers]  # donation may write into them
            self.thread = threading.Thread(
                target=self._compile, args=(copies, list(consts)), name=f"arraystack-compile-{self.name}",
                daemon=True,
            )
        self.thread.start()

    def _compile(self, buffers, consts):
        from arraystack.backends import compile_graph

        try:
            executable = compile_graph(self.graph, self.backend, cache_dir=self.cache_dir, donate=self.donate)
            executable(*buffers, *consts)  # numba compiles (or loads from disk) each kernel for these types
            self.stats.compiles += getattr(executable, "new_kernels", 0)
            self.entry.executable = executable
            self.entry.run = executable.runner
            self.entry.tier = 1
        except Exception as e:  # noqa: BLE001  (tier 0 keeps serving; the error is kept and logged)
            self.error = e
            log.warning("arraystack.jit: background compile of %s failed, staying on the reference path: %s: %s",
                        self.name, type(e).__name__, e)
        finally:
            self.done.set()

    def wait(self, timeout=None) -> bool:
        """Block until the compiled tier is in place (or failed); True when it is in place."""
        if self.thread is None:
            return False
        self.done.wait(timeout)
        return self.entry.tier == 1


__all__ = ["Tier"]
