"""Python scalar arguments of jitted functions behave as NumPy's Python scalars (arraystack/_transforms/jit_arguments.py):
an int cast to an integer dtype it does not fit raises NumPy's OverflowError (with NumPy's message) on
every call, where NumPy raises, and wraps where NumPy wraps; floats overflow to inf as in NumPy."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import arraystack as ast


def _set_first(xp, v, s):
    v = v.copy()
    v[0] = s
    return v


OPS = {
    "multiply": lambda xp, v, s: v * s,
    "reflected add": lambda xp, v, s: s + v,
    "maximum": lambda xp, v, s: xp.maximum(v, s),
    "floor divide": lambda xp, v, s: v // s,
    "full_like": lambda xp, v, s: xp.full_like(v, s),
    "setitem": _set_first,
    "asarray with a dtype": lambda xp, v, s: xp.asarray(s, dtype=v.dtype) + v,
    "negated (computed from the argument)": lambda xp, v, s: v * -s,
    "where (NumPy wraps)": lambda xp, v, s: xp.where(v > 1, v, s),
    "astype of an array (NumPy wraps)": lambda xp, v, s: xp.asarray(s).astype(v.dtype) + v,
    "select (NumPy wraps)": lambda xp, v, s: xp.select([v > 1], [v], s),
}
DTYPES = ["int8", "uint8", "int16", "uint32", "int64", "uint64"]
VALUES = [5, -1, 127, 128, 255, 256, 300, -129, -200, 2**15, 2**31, 2**63 - 1, 2**63, 2**64 - 1]


def _outcome(fn, *args):
    """('ok', values, dtype) or (exception type, message), as NumPy or the jitted function gives it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            result = np.asarray(fn(*args))
    except (OverflowError, ValueError, TypeError) as error:
        return type(error).__name__, str(error)
    return "ok", result.tolist(), str(result.dtype)


@pytest.mark.parametrize("name", list(OPS))
def test_python_int_arguments_overflow_as_in_numpy(name):
    op = OPS[name]
    jf = ast.jit(lambda v, s: op(ast, v, s), backend="reference")
    for dtype in DTYPES:
        v = np.arange(1, 5, dtype=dtype)
        for s in VALUES:
            if name.startswith("negated") and s == 2**63:
                continue  # -s is computed in int64 (as the graph computes it), not as a Python int
            assert _outcome(jf, v, s) == _outcome(lambda v, s: op(np, v, s), v, s), (dtype, s)


def test_the_issue_reproducer_raises_numpys_error_on_every_call():
    jf = ast.jit(lambda v, s: v * s, tiered=False)
    v = np.arange(4, dtype=np.int8)
    np.testing.assert_array_equal(np.asarray(jf(v, 3)), v * 3)
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for int8"):
        jf(v, 300)  # a cached call: the check runs on every call, not at the trace
    with pytest.raises(OverflowError, match="Python integer -129 out of bounds for int8"):
        jf(ast.asarray(v), -129)
    np.testing.assert_array_equal(np.asarray(jf(v, -128)), v * np.int8(-128))
    assert jf.stats()["traces"] == 1


def test_a_python_int_above_int64_is_a_uint64_as_in_numpy():
    jf = ast.jit(lambda v, s: v + s, backend="reference")
    v = np.arange(3, dtype=np.uint64)
    np.testing.assert_array_equal(np.asarray(jf(v, 2**63 + 5)), v + (2**63 + 5))
    assert np.asarray(jf(v, 2**63)).dtype == np.uint64
    with pytest.raises(OverflowError):
        jf(np.arange(3), 2**63)  # int64, as NumPy


FLOAT_CASES = [
    ("float16", 1e10),
    ("float16", 70000.0),
    ("float16", 65519.0),  # rounds to the largest float16
    ("float16", 70000),  # a Python int into float16
    ("float32", 1e39),
    ("float32", -3.5e38),
    ("complex64", 1e39 + 1j),
]


@pytest.mark.parametrize("tiered", [False, True], ids=["compiled", "tier 0"])
@pytest.mark.parametrize("dtype, s", FLOAT_CASES)
def test_python_floats_overflow_to_inf_as_in_numpy(tiered, dtype, s):
    jf = ast.jit(lambda v, s: v * s + v, tiered=tiered)
    v = np.ones(3, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # compiled code does not warn (NumPy does)
        want = v * s + v
        results = [np.asarray(jf(v, s)) for _ in range(2)]  # traced, then cached
    for result in results:
        assert result.dtype == want.dtype
        np.testing.assert_array_equal(result, want)
