"""Staged row kernels prefetch the next row and divide by per-row values through exact_quotient where the
range checks allow: the same bits as dividing, on rows that take either path (codegen_rows.py)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import arraystack as ast
from tests import oracle

pytestmark = pytest.mark.numba


def _softmax(a):
    e = ast.exp(a - ast.max(a, axis=-1, keepdims=True))
    return e / ast.sum(e, axis=-1, keepdims=True)


def _layernorm(a):
    mu = ast.mean(a, axis=-1, keepdims=True)
    d = a - mu
    var = ast.mean(d * d, axis=-1, keepdims=True)
    return d / ast.sqrt(var + 1e-5)


def _kernel_step(fn, x, parallel=True):
    from arraystack.backends.numba import _kernel_step
    from arraystack.ir.control import fusion_p

    regions = [e for e in ast.jit(fn).lower(x).optimized.eqns if e.prim is fusion_p]
    assert len(regions) == 1
    step, _, _ = _kernel_step(regions[0], ast.config.cache_dir, threshold=0 if parallel else 1 << 62)
    return step


def _source(fn, x):
    text = ast.jit(fn).lower(ast.asarray(x)).compile().as_text()
    return text[text.index("# generated source") :]


def _rows(dtype, n1):
    """Rows for both paths: ordinary ones (exact_quotient), and ones an earlier pass flags (division):
    exps below the range (a spread over 70), NaN, infinities; plus masked rows (exact zeros: fast)."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((40, n1)).astype(dtype)
    x[1] *= 200  # exps underflow past 2**-100 (float32) / 2**-800 (float64 at * 2000)
    x[2] *= 2000
    x[3, 0] = np.nan
    x[4, -1] = np.inf
    x[5, ::2] = -np.inf  # masked: zeros
    x[6] = 0  # a constant row: layernorm's d is all zeros, its std sqrt(1e-5)
    x[7] *= 1e-30
    x[8] = rng.uniform(-60, 0, n1)
    return x


def test_softmax_and_layernorm_kernels_prefetch_and_use_exact_quotients():
    x = np.ones((8, 300), np.float32)
    for fn, ahead in ((_softmax, 2), (_layernorm, 1)):
        src = _source(fn, x)
        assert f"prefetch(a0, (i0 + {ahead}, pf))" in src
        assert "prefetch_for_write(o0, (i0 + 1, pf))" in src
        # the row's dividends checked in one loop before the dividing pass, not inside the pass making them
        assert re.search(r"hi_(ok_v\d+) = magnitude_max\(hi_\1, ", src)
        assert re.search(r"(ok_v\d+) = dividends_in_range\(hi_\1, lo_\1\)", src)
        assert "quotient_in_range" not in src
        assert "exact_quotient(" in src and " / " in src  # both versions of the dividing pass


def _passes(src):
    """The source of each laned pass (each starts by taking its float64 lanes)."""
    return src.split("stack_lanes(np.float64")[1:]


def _normalized_sum(a):
    return a / ast.sum(a, axis=-1, keepdims=True)


def _scaled_layernorm(a, b):
    mu = ast.mean(a, axis=-1, keepdims=True)
    d = a - mu
    var = ast.mean(d * d, axis=-1, keepdims=True)
    return d / ast.sqrt(var + 1e-5) * b


def test_inputs_prefetch_in_the_first_laned_pass_and_outputs_in_the_next():
    x = np.ones((8, 300), np.float32)
    mean_pass, variance_pass = _passes(_source(_layernorm, x))
    assert "prefetch(a0, (i0 + 1, pf))" in mean_pass and "prefetch(a0, (i0 + 1" not in variance_pass
    assert "prefetch_for_write(o0, (i0 + 1, pf))" in variance_pass
    assert "prefetch_for_write" not in mean_pass
    # the max pass before it is not laned: the inputs two rows ahead (the next row's max comes soon)
    (exp_pass,) = _passes(_source(_softmax, x))
    assert "prefetch(a0, (i0 + 2, pf))" in exp_pass and "prefetch(a0, (i0 + 1" not in exp_pass
    assert "prefetch_for_write(o0, (i0 + 1, pf))" in exp_pass
    # two full inputs: both read ahead in the mean pass
    mean_pass, variance_pass = _passes(
        ast.jit(_scaled_layernorm).lower(ast.asarray(x), ast.asarray(x)).compile().as_text()
    )
    assert "prefetch(a0, (i0 + 1, pf))" in mean_pass and "prefetch(a1, (i0 + 1, pf))" in mean_pass
    # one laned pass, the first: it reads the row from memory itself; nothing to prefetch
    assert "prefetch" not in _source(_normalized_sum, x)


def test_a_last_pass_without_reductions_reads_ahead_where_the_first_pass_is_laned():
    x = np.ones((8, 300), np.float32)
    layernorm = _source(_layernorm, x)
    scaling = layernorm[layernorm.rindex("lanes_fold(") :]  # the pass after the last laned one
    assert "prefetch(a0, (i0 + 2, pf))" in scaling and "prefetch_for_write" not in scaling
    softmax = _source(_softmax, x)  # its first pass (the max) is not laned: no read-ahead pass
    assert softmax.count("(i0 + 2") == softmax[: softmax.index("lanes_fold(")].count("(i0 + 2")


@pytest.mark.parametrize("n0, n1", [(1, 1030), (5, 64), (7, 63), (3, 129)])
def test_prefetching_row_kernels_match_numpy_on_odd_shapes_and_strides(n0, n1):
    # the last row prefetches nothing (i0 + 1 < n0); rows of one group, one short of a group, a
    # group and a bit; strided and transposed (F order) inputs prefetch through their strides
    rng = np.random.default_rng(n0 * 1000 + n1)
    x = rng.standard_normal((n0, 2 * n1)).astype(np.float32)
    b = rng.standard_normal((n1, n0)).astype(np.float32)
    x[0, 1] = np.nan
    for a, c in ((x[:, ::2], b.T), (np.ascontiguousarray(x[:, :n1]), np.asfortranarray(b.T))):
        got = np.asarray(ast.jit(_scaled_layernorm)(ast.asarray(a), ast.asarray(c)))
        a64 = a.astype(np.float64)
        d = a64 - a64.mean(axis=-1, keepdims=True)
        want = d / np.sqrt((d * d).mean(axis=-1, keepdims=True) + 1e-5) * c
        with np.errstate(invalid="ignore"):
            np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)


def _softmax_parts(a):
    e = ast.exp(a - ast.max(a, axis=-1, keepdims=True))
    return e, ast.sum(e, axis=-1, keepdims=True)


def _layernorm_parts(a):
    mu = ast.mean(a, axis=-1, keepdims=True)
    d = a - mu
    var = ast.mean(d * d, axis=-1, keepdims=True)
    return d, ast.sqrt(var + 1e-5)


@pytest.mark.parametrize(
    "dtype, n1, parallel",
    [(np.float32, 1030, False), (np.float32, 17, False), (np.float64, 1030, False), (np.float64, 17, True)],
    # one parallel case: parallel kernels take 20-60 s each to compile here
)
def test_row_kernels_match_the_division_bit_for_bit_on_both_paths(dtype, n1, parallel):
    # the reference divides in NumPy what a kernel without the division computes (same operations, so
    # the same dividends and divisors)
    x = _rows(dtype, n1)
    for y in (x, _rows(dtype, 2 * n1 + 1)[:, 1::2]):  # contiguous, strided
        for fn, parts in ((_softmax, _softmax_parts), (_layernorm, _layernorm_parts)):
            with np.errstate(all="ignore"):
                dividend, divisor = _kernel_step(parts, y, parallel)(y)
                want = dividend / divisor.reshape(-1, 1)
            oracle.assert_bitwise(_kernel_step(fn, y, parallel)(y)[0], want)


@pytest.mark.parametrize("dtype, ahead", [(np.float32, 4096), (np.float64, 2048)])
def test_full_reductions_prefetch_their_stream_ahead_of_each_group(dtype, ahead):
    # STREAM_AHEAD_BYTES (16 KB) ahead of each group of a full reduction's laned pass, in elements
    src = _source(lambda a: ast.sum(a * a), np.ones(100_000, dtype))
    assert f"range(g + np.uint64({ahead}), g + np.uint64({ahead}) + np.uint64(64)" in src
    assert "prefetch(a0, (pf,))" in src
    src = _source(lambda a: ast.sum(a * a), np.ones((300, 500), dtype))  # C order: on into the next rows
    assert "prefetch(a0, (i0, pf,))" in src
    assert "pf" not in _source(lambda a: ast.max(a), np.ones(100_000, dtype))  # not laned: no groups
    assert f"g + np.uint64({ahead})" not in _source(_softmax, np.ones((8, 300), dtype))  # rows: next row
