"""The decorator of every compiled mathlib function: numba.njit with the kernels' options and numba's disk
cache, each cache file checked before numba reads it (disk_cache.CheckedCacheFile).

The check is set on the dispatcher as it is made, so that every process reads and writes these files in
one format: a process that calls a mathlib function before any kernel loads (a test, a tool) reads the
files a kernel-compiling process wrote, and the other way round."""

from __future__ import annotations

from arraystack.backends.numba.disk_cache import check_entries
from numba import njit

OPTIONS = {"error_model": "numpy"}  # and no fast-math: every operator is one IEEE operation


def njit_checked(function):
    """`function` compiled as the kernels compile (error_model="numpy", no fast-math), cached on disk."""
    dispatcher = njit(**OPTIONS, cache=True)(function)
    check_entries(dispatcher)
    return dispatcher
