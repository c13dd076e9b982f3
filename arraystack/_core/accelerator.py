"""Loading the optional C accelerator of the eager fast path (arraystack/_core/_fastpath*.c).

`fastpath` is the extension module, or None when it is not built (no compiler at install time), turned off
(ARRAYSTACK_FASTPATH=0) or stale (an editable install does not rebuild it when its sources change);
`ArrayBase` is the layout ndarray builds on either way. Without the accelerator the same Python code
serves every call.
"""

from __future__ import annotations

import os
import warnings

# the accelerator's sources, in the order setup.py hashes them
FASTPATH_SOURCES = (
    "_fastpath.c", "_fastpath.h", "_fastpath_array.c", "_fastpath_function.c", "_fastpath_jit.c",
    "_fastpath_results.c",
)


def is_current(module) -> bool:
    """Whether the built accelerator matches its sources next to it; a stale build is not used, with a
    warning saying how to rebuild."""
    from arraystack.backends.native_build import built_from_sources

    if built_from_sources(module, os.path.dirname(os.path.abspath(__file__)), FASTPATH_SOURCES):
        return True
    warnings.warn(
        "arraystack: the C fast path was built from older sources (arraystack/_core/_fastpath*.c); eager calls "
        "use the Python path until it is rebuilt (`pip install -e .`)",
        RuntimeWarning,
        stacklevel=2,
    )
    return False


def _load():
    if os.environ.get("ARRAYSTACK_FASTPATH", "1") == "0":  # run the pure-Python definitions only
        return None
    try:
        from arraystack._core import _fastpath
    except ImportError:
        return None
    return _fastpath if is_current(_fastpath) else None


fastpath = _load()

if fastpath is not None:
    ArrayBase = fastpath.ArrayBase
else:

    class ArrayBase:
        """The layout of ndarray when the C accelerator is absent."""

        __slots__ = ("__weakref__", "_value")


__all__: list[str] = []  # internal: arraystack/_core/array.py uses `fastpath` and `ArrayBase`
