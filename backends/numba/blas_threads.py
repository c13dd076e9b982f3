"""The BLAS under NumPy and background compiles: the process's BLAS thread count is never changed; a compile
worker gives up the cores instead, running at the lowest scheduling priority.

OpenBLAS splits a product differently on a different number of threads, so the same float32 `x @ y` can
differ in its last bits (up to 5e-5 for a 256x784 by 784x512 product) between 1 and 2 threads. Results in
user code must not depend on whether a compile happens to be in flight, so nothing here sets the count.

A compile worker process (backends/numba/compile_worker.py) would otherwise hold a core that a BLAS with a thread
per core needs: OpenBLAS's threads spin and yield, and a product whose thread shares its core with the
worker waits for that thread. `lower_priority()` puts the worker in SCHED_IDLE (Linux; elsewhere nice 19),
so any thread of ordinary priority that wakes takes the core from it at once, and the worker compiles with
what is left over. The compile's own threads in this process keep their priority: they hold the GIL, and a
starved thread holding the GIL would stall the caller's calls.

What it costs (the MLP step of benchmarks/bench_train.py, 784-512-10, batch 256, float32, cold cache; the
median of the tier-0 calls served while the worker compiled). Before, on an otherwise idle 2-core machine:
8 ms with no worker, 61-64 ms with the worker at normal priority and 2 BLAS threads, 11.8 ms with the BLAS
lowered to one thread while compiling (the previous design, whose products changed their bits). Now, on a
shared 2-core machine under a load average of 3-6 from other processes, in interleaved fresh processes:
the worker at SCHED_IDLE 64-128 ms a call (7 runs, median 124), at nice 19 20-56 ms (2 runs), at normal
priority 43-131 ms (6 runs), one BLAS thread while compiling 11-14 ms (5 runs); tier 1 came after 21-34 s
in every variant. Calls with no compile in flight took 16-124 ms in the same runs: under such load a
product on 2 threads waits for the other processes more than for the worker, the runs cannot tell the
priorities apart, and one BLAS thread is faster whether or not a compile runs. What the priority buys
shows on a machine where the worker is the only other thing running, which this one never was.

Only OpenBLAS is asked for its count (NumPy's and SciPy's wheels, whose symbols carry a `scipy_` prefix and
a `64_` suffix, and system builds), found among the shared libraries this process has already loaded
(/proc/self/maps, Linux). Elsewhere (macOS Accelerate, MKL) `blas_threads()` is None.
"""

from __future__ import annotations

import ctypes
import functools
import os

_NAMES = (
    "scipy_openblas_{}_num_threads64_",
    "scipy_openblas_{}_num_threads",
    "openblas_{}_num_threads64_",
    "openblas_{}_num_threads",
)


@functools.cache
def _openblas():
    """(get, set) of the OpenBLAS this process has loaded, or None. Only tests set the count."""
    return _find(lambda path: True)


def scipy_openblas():
    """(get, set) of SciPy's OpenBLAS, the one numba's np.dot calls (through scipy.linalg.cython_blas),
    or None. Compiled loops run their small products on one of its threads (backends/numba/loops.py);
    NumPy's BLAS, under every other product, is never changed."""
    try:
        import scipy.linalg.cython_blas  # noqa: F401  (loads SciPy's BLAS, as numba's np.dot does)
    except ImportError:
        return None
    return _scipy_openblas()


@functools.cache
def _scipy_openblas():
    return _find(lambda path: "scipy" in os.path.basename(os.path.dirname(path)))


def _find(accept):
    try:
        with open("/proc/self/maps") as f:
            paths = sorted({line.split()[-1] for line in f if "openblas" in line.lower() and ".so" in line})
    except OSError:
        return None
    for path in filter(accept, paths):
        try:  # RTLD_NOLOAD: the library already in the process, never a second copy
            lib = ctypes.CDLL(path, mode=os.RTLD_NOLOAD)
        except OSError:
            continue
        for name in _NAMES:
            get = getattr(lib, name.format("get"), None)
            set_ = getattr(lib, name.format("set"), None)
            if get is not None and set_ is not None:
                get.restype, get.argtypes = ctypes.c_int, []
                set_.restype, set_.argtypes = None, [ctypes.c_int]
                return get, set_
    return None


def blas_threads() -> int | None:
    """The number of threads OpenBLAS runs a product on (None when there is no OpenBLAS to ask)."""
    blas = _openblas()
    return None if blas is None else int(blas[0]())


def lower_priority() -> str:
    """Run this process (and the threads it starts later) at the lowest scheduling priority: SCHED_IDLE
    where the OS has it (Linux), else nice 19. Returns which one took effect ("idle", "nice" or "none")."""
    if hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            return "idle"
        except OSError:  # e.g. a seccomp profile that refuses it: nice still lowers the priority
            pass
    try:
        os.nice(19 - os.nice(0))
        return "nice"
    except (OSError, AttributeError):
        return "none"


def priority(pid: int = 0) -> str:
    """How a process is scheduled: "idle" (SCHED_IDLE), "nice <n>", as lower_priority() says it."""
    if hasattr(os, "sched_getscheduler") and os.sched_getscheduler(pid) == getattr(os, "SCHED_IDLE", None):
        return "idle"
    return f"nice {os.getpriority(os.PRIO_PROCESS, pid)}"


__all__ = ["blas_threads", "lower_priority", "priority"]
