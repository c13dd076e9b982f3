"""Generated numba kernels against the reference path, on random elementwise/reduction compositions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arraystack as ast

pytestmark = pytest.mark.numba

UNARY = ["negative", "exp", "tanh", "abs", "sqrt_abs", "log_abs1", "square"]
BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "divide_safe", "where_gt"]


def apply_unary(xp, name, x):
    if name == "sqrt_abs":
        return xp.sqrt(xp.abs(x))
    if name == "log_abs1":
        return xp.log(xp.abs(x) + 1)
    if name == "square":
        return x * x
    return getattr(xp, name)(x)


def apply_binary(xp, name, x, y):
    if name == "divide_safe":
        return x / (xp.abs(y) + 1)
    if name == "where_gt":
        return xp.where(x > y, x, y * 0.5)
    return getattr(xp, name)(x, y)


@st.composite
def programs(draw):
    ops = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):
            ops.append(("u", draw(st.sampled_from(UNARY)), draw(st.integers(0, 10))))
        else:
            ops.append(("b", draw(st.sampled_from(BINARY)), draw(st.integers(0, 10)), draw(st.integers(0, 10))))
    reduce = draw(st.sampled_from([None, "sum_last", "max_last", "sum_all", "mean_first"]))
    return ops, reduce


def run(xp, program, x, y):
    ops, reduce = program
    values = [x, y]
    for op in ops:
        if op[0] == "u":
            values.append(apply_unary(xp, op[1], values[op[2] % len(values)]))
        else:
            values.append(apply_binary(xp, op[1], values[op[2] % len(values)], values[op[3] % len(values)]))
    out = values[-1]
    if reduce == "sum_last":
        out = out - xp.sum(out, axis=-1, keepdims=True)
    elif reduce == "max_last":
        out = xp.exp(out - xp.max(out, axis=-1, keepdims=True))
    elif reduce == "sum_all":
        out = xp.sum(out)
    elif reduce == "mean_first":
        out = xp.mean(out, axis=0)
    return out


SHAPES = [((5, 7), (5, 7)), ((5, 7), (7,)), ((3, 1, 4), (2, 4)), ((1,), (6, 3)), ((300, 260), (260,))]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=programs(), shapes=st.sampled_from(SHAPES), dtype=st.sampled_from([np.float32, np.float64]))
def test_numba_kernels_match_the_reference_backend(program, shapes, dtype):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shapes[0]).astype(dtype)
    y = rng.standard_normal(shapes[1]).astype(dtype)
    try:
        want = run(np, program, x, y)
    except ValueError:  # shapes that do not broadcast for this program
        return
    fn = lambda a, b: run(ast, program, a, b)  # noqa: E731
    got_numba = ast.jit(fn, backend="numba")(ast.asarray(x), ast.asarray(y))
    got_reference = ast.jit(fn, backend="reference")(ast.asarray(x), ast.asarray(y))
    # sums accumulate in a wider type in kernels (NumPy: pairwise in the input type), so results that
    # cancel to near zero differ by a few ulps of the summed magnitude, not of the result
    rtol, atol = (1e-4, 5e-5) if dtype == np.float32 else (1e-11, 1e-11)
    np.testing.assert_allclose(np.asarray(got_reference), want, rtol=rtol, atol=atol)
    np.testing.assert_allclose(np.asarray(got_numba), np.asarray(got_reference), rtol=rtol, atol=atol)
    assert np.asarray(got_numba).dtype == want.dtype


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint8, np.int64, np.bool_])
def test_integer_and_bool_kernels_wrap_like_numpy(dtype):
    rng = np.random.default_rng(1)
    info = np.iinfo(dtype) if dtype != np.bool_ else None
    lo, hi = (info.min, info.max) if info else (0, 2)
    x = rng.integers(lo, hi, 64, endpoint=True).astype(dtype)
    y = rng.integers(lo, hi, 64, endpoint=True).astype(dtype)

    def f(xp, a, b):
        if dtype == np.bool_:
            return (a & b) | ~a, a ^ b
        return a * b + a - b, xp.maximum(a, b), a > b, xp.sum(a, dtype=a.dtype)

    want = f(np, x, y)
    got = ast.jit(lambda a, b: f(ast, a, b))(ast.asarray(x), ast.asarray(y))
    for w, g in zip(want, got):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(np.asarray(g), w)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rint_and_round_compile_with_numpys_bits(dtype):
    """rint rounds half to even as NumPy's (llvm.rint); round(x, 2) is rint(x * 100) / 100 in kernels too."""
    halves = np.arange(-6, 6) + 0.5
    special = [0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 0.49999997, 2.0**52 + 0.5, 2.0**23 + 0.5, 1e-45, 3e38]
    x = np.concatenate([halves, special, np.random.default_rng(2).standard_normal(500) * 1e3]).astype(dtype)
    f = ast.jit(lambda a: (ast.rint(a), ast.round(a, 2), ast.around(-a)), tiered=False)
    assert "reference" not in f.lower(x).compile().as_text().split("# optimized graph")[0]
    with np.errstate(all="ignore"):
        want = (np.rint(x), np.round(x, 2), np.around(-x))
    for got, w in zip(f(x), want):
        assert np.asarray(got).dtype == w.dtype
        np.testing.assert_array_equal(np.asarray(got).view(np.uint8), w.view(np.uint8))


def test_compile_reports_kernels_and_reference_fallbacks():
    f = ast.jit(lambda x: ast.exp(x) + ast.cumsum(x))
    text = f.lower(ast.asarray(np.ones(5))).compile().as_text()
    assert "numba kernel" in text and "cumsum" in text and "reference" in text


def test_numbas_set_up_waits_for_its_compiler_lock():
    """disk_cache.prepare() refreshes numba's registries, as a compile or cache load in another thread may
    be doing: it must hold numba's compiler lock (else "generator already executing")."""
    import threading

    from arraystack.backends.numba.disk_cache import prepare
    from numba.core.compiler_lock import global_compiler_lock

    done = threading.Event()
    with global_compiler_lock:  # a compile in progress elsewhere
        worker = threading.Thread(target=lambda: (prepare(), done.set()), daemon=True)
        worker.start()
        assert not done.wait(0.3)
    worker.join(120)
    assert done.is_set()
