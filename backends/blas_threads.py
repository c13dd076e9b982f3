"""The thread count of the BLAS under NumPy, and lending one of its cores to a compile worker for a while.

While a compile worker process compiles a jitted function's kernels (tiered compilation), it holds a core.
A BLAS with a thread per core then runs every matrix product of the tier-0 calls with one thread waiting
for that core: OpenBLAS's threads spin and yield, and the product takes several times as long as on one
thread. Measured on 2 cores (the MLP step of benchmarks/bench_train.py, 784-512-10, batch 256): tier-0
calls served while the worker compiled took a median 61-64 ms with 2 BLAS threads, 11.8 ms with one;
8 ms with no worker. `fewer_blas_threads()` leaves the worker its core while any compile is in flight
(nested and concurrent holders count; the last one out restores the count it found).

Only OpenBLAS is handled (NumPy's and SciPy's wheels, whose symbols carry a `scipy_` prefix and a `64_`
suffix, and system builds), found among the shared libraries this process has already loaded
(/proc/self/maps, Linux). Elsewhere (macOS Accelerate, MKL) nothing changes and `blas_threads()` is None.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import threading

_NAMES = (
    "scipy_openblas_{}_num_threads64_",
    "scipy_openblas_{}_num_threads",
    "openblas_{}_num_threads64_",
    "openblas_{}_num_threads",
)

_lock = threading.Lock()
_holders = 0
_restore = None  # the count to restore when the last holder leaves (None: nothing was changed)


@functools.cache
def _openblas():
    """(get, set) of the OpenBLAS this process has loaded, or None."""
    try:
        with open("/proc/self/maps") as f:
            paths = sorted({line.split()[-1] for line in f if "openblas" in line.lower() and ".so" in line})
    except OSError:
        return None
    for path in paths:
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


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@contextlib.contextmanager
def fewer_blas_threads():
    """While inside: BLAS on at most one thread fewer than this process's cores (never fewer than one).
    Yields (count before, count inside), or None without an OpenBLAS."""
    global _holders, _restore
    blas = _openblas()
    if blas is None:
        yield None
        return
    get, set_ = blas
    with _lock:
        before = int(get())
        if _holders == 0:
            target = max(1, min(before, _cores() - 1))
            if target < before:
                set_(target)
                _restore = before
        _holders += 1
        inside = int(get())
    try:
        yield before if _restore is None else _restore, inside
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _restore is not None:
                set_(_restore)
                _restore = None
