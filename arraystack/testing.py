"""arraystack.testing: NumPy's assertions (mirrors numpy.testing), accepting arraystack arrays.

Each array assertion is numpy.testing's own, called with arraystack arrays (also inside tuples, lists and
dicts) replaced by their NumPy buffers (arrays on a device, arraystack's or cupy's, read back), so
tolerances, NaN handling and messages are NumPy's. Traced values
have no data to compare: asserting on one raises a ConcretizationError. Assertions about exceptions and
warnings are NumPy's, re-exported.
"""

from __future__ import annotations

import functools

import numpy.testing as _npt

from arraystack._core import devices as _devices
from arraystack._core.array import ndarray


def _host(obj):
    """`obj` with its arrays as NumPy arrays: an array on a device (arraystack's, or cupy's own) is
    read back, as cupy.testing does."""
    if isinstance(obj, ndarray):
        return _devices.host_values(obj._scalar("an arraystack.testing assertion"))
    t = type(obj)
    if t is list or t is tuple:
        return t(_host(o) for o in obj)
    if t is dict:
        return {k: _host(v) for k, v in obj.items()}
    if hasattr(t, "__cuda_array_interface__"):
        buffer = _devices.adopt(obj)
        return obj if buffer is None else _devices.host_values(buffer)
    return obj


def _on_host(assertion):
    """numpy.testing's `assertion` with its arguments' arraystack arrays replaced by NumPy arrays."""

    @functools.wraps(assertion)
    def check(*args, **kwargs):
        __tracebackhide__ = True  # pytest shows the caller's line
        return assertion(*[_host(a) for a in args], **{k: _host(v) for k, v in kwargs.items()})

    check.__module__ = __name__
    check.__doc__ = _doc(assertion)
    return check


def _doc(assertion) -> str:
    """arraystack's summary, notes and See Also (NumPy's section order), then NumPy's own documentation
    of `assertion`, which describes the parameters. Only slices strings (it runs at import): NumPy's
    text keeps its indentation, and arraystack's lines take the same, for inspect.getdoc()."""
    mirrored = f"numpy.testing.{assertion.__name__}"
    body = (assertion.__doc__ or "").lstrip("\n")
    indent = body[: len(body) - len(body.lstrip(" "))]
    summary = " ".join(body.partition("\n\n")[0].split()) or f"NumPy's `{mirrored}`."
    heading = f"NumPy's documentation of {mirrored}"
    lines = [
        "",
        "NumPy's assertion, called with arraystack arrays (also inside tuples, lists and dicts)",
        "replaced by their NumPy buffers: NumPy's tolerances, NaN handling and messages. Asserting",
        "on a traced value raises a ConcretizationError (it has no data to compare).",
        "",
        "See Also",
        "--------",
        f"{mirrored} : the function mirrored.",
        "",
        heading,
        "-" * len(heading),
    ]
    return summary + "\n" + "\n".join(indent + line if line else "" for line in lines) + "\n" + body


assert_allclose = _on_host(_npt.assert_allclose)
assert_almost_equal = _on_host(_npt.assert_almost_equal)
assert_approx_equal = _on_host(_npt.assert_approx_equal)
assert_array_almost_equal = _on_host(_npt.assert_array_almost_equal)
assert_array_almost_equal_nulp = _on_host(_npt.assert_array_almost_equal_nulp)
assert_array_equal = _on_host(_npt.assert_array_equal)
assert_array_less = _on_host(_npt.assert_array_less)
assert_array_max_ulp = _on_host(_npt.assert_array_max_ulp)
assert_equal = _on_host(_npt.assert_equal)
assert_ = _on_host(_npt.assert_)
assert_array_compare = _on_host(_npt.assert_array_compare)
build_err_msg = _on_host(_npt.build_err_msg)
print_assert_equal = _on_host(_npt.print_assert_equal)

# NumPy's test infrastructure, which holds no arrays: context managers, decorators, exceptions and the
# platform's facts, re-exported (those describing NumPy's own build, NUMPY_ROOT, IS_EDITABLE, ..., are not)
from numpy.testing import (
    HAS_REFCOUNT,
    IS_64BIT,
    IS_MUSL,
    IS_PYPY,
    IS_PYSTON,
    IS_WASM,
    NOGIL_BUILD,
    IgnoreException,
    KnownFailureException,
    SkipTest,
    TestCase,
    assert_no_gc_cycles,
    break_cycles,
    clear_and_catch_warnings,
    decorate_methods,
    jiffies,
    measure,
    memusage,
    run_threaded,
    rundocs,
    suppress_warnings,
    tempdir,
    temppath,
    verbose,
)

assert_no_warnings = _npt.assert_no_warnings
assert_raises = _npt.assert_raises
assert_raises_regex = _npt.assert_raises_regex
assert_string_equal = _npt.assert_string_equal
assert_warns = _npt.assert_warns

__all__ = [
    "HAS_REFCOUNT",
    "IS_64BIT",
    "IS_MUSL",
    "IS_PYPY",
    "IS_PYSTON",
    "IS_WASM",
    "NOGIL_BUILD",
    "IgnoreException",
    "KnownFailureException",
    "SkipTest",
    "TestCase",
    "assert_",
    "assert_allclose",
    "assert_almost_equal",
    "assert_approx_equal",
    "assert_array_almost_equal",
    "assert_array_almost_equal_nulp",
    "assert_array_compare",
    "assert_array_equal",
    "assert_array_less",
    "assert_array_max_ulp",
    "assert_equal",
    "assert_no_gc_cycles",
    "assert_no_warnings",
    "assert_raises",
    "assert_raises_regex",
    "assert_string_equal",
    "assert_warns",
    "break_cycles",
    "build_err_msg",
    "clear_and_catch_warnings",
    "decorate_methods",
    "jiffies",
    "measure",
    "memusage",
    "print_assert_equal",
    "run_threaded",
    "rundocs",
    "suppress_warnings",
    "tempdir",
    "temppath",
    "verbose",
]
