"""The NumPy twin of the kernels' summation order (summation_order.kernel_reduce) against a literal,
scalar transcription of that order: the twin's vectorized NumPy calls must add in exactly that order.
(The kernels themselves are checked against the twin in test_kernel_reductions.py.)"""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.numba.summation_order import (
    BLOCK_GROUPS,
    CHUNKS,
    LANES,
    kernel_reduce,
)

from tests import oracle


def _lanes(kind, rows, dtype):
    """One output element from its rows (of the last reduced axis), one scalar operation at a time."""
    f32, f64 = np.float32, np.float64
    if len(rows[0]) < LANES:  # short rows: one float64 accumulator, in row-major order
        acc = f64(0.0 if kind == "sum" else 1.0)
        for row in rows:
            for v in row:
                acc = acc + f64(v) if kind == "sum" else acc * f64(v)
        return acc
    blocked = kind == "sum" and dtype == np.float32
    wide = [f64(0.0 if kind == "sum" else 1.0)] * LANES
    narrow = [f32(0.0)] * LANES
    groups = 0

    def flush():
        for j in range(LANES):
            wide[j] = wide[j] + f64(narrow[j])
            narrow[j] = f32(0.0)

    for row in rows:
        for start in range(0, len(row), LANES):
            for j, v in enumerate(row[start : start + LANES]):
                if blocked:
                    narrow[j] = narrow[j] + v
                elif kind == "sum":
                    wide[j] = wide[j] + f64(v)
                else:
                    wide[j] = wide[j] * f64(v)
            groups += 1
            if blocked and groups == BLOCK_GROUPS:
                flush()
                groups = 0
    if blocked:
        flush()
    h = LANES // 2
    while h:
        for j in range(h):
            wide[j] = wide[j] + wide[j + h] if kind == "sum" else wide[j] * wide[j + h]
        h //= 2
    return wide[0]


def _reference(kind, x, axes):
    axes = tuple(sorted(a % x.ndim for a in axes))
    kept = [d for d in range(x.ndim) if d not in axes]
    y = x.transpose(kept + list(axes))
    kept_shape = y.shape[: len(kept)]
    out = np.empty(kept_shape, x.dtype)
    for k in np.ndindex(*kept_shape):
        sub = y[k]
        last = sub.shape[-1]
        if kept:
            out[k] = x.dtype.type(
                _lanes(kind, sub.reshape(int(np.prod(sub.shape[:-1])), last), x.dtype)
            )
            continue
        n = sub.shape[0]
        nch = min(n, CHUNKS)
        acc = np.float64(0.0 if kind == "sum" else 1.0)
        for c in range(nch):
            part = sub[c * n // nch : (c + 1) * n // nch]
            rows = (
                part.reshape(1, -1)
                if sub.ndim == 1
                else part.reshape(int(np.prod(part.shape[:-1])), last)
            )
            value = _lanes(kind, rows, x.dtype)
            acc = acc + value if kind == "sum" else acc * value
        out[k] = x.dtype.type(acc)
    return out


def _data(shape, dtype, kind, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)
    if kind == "prod":
        x = 1.0 + x * 1e-3
    return x.astype(dtype)


CASES = [
    ((1,), (0,)),
    ((40,), (0,)),
    ((4031,), (0,)),  # chunks of 62 and 63 values: short
    ((4090,), (0,)),  # chunks of 63 and 64 values: short and laned
    ((3, 5), (1,)),
    ((30, 4, 3), (1, 2)),
    ((300, 2, 5), (0, 1, 2)),
    ((LANES - 1,), (0,)),
    ((LANES + 1,), (0,)),
    ((257,), (0,)),
    ((4103,), (0,)),  # 64 chunks of 64 or 65
    ((40, 1100), (1,)),  # float32 blocks over 17+ groups per row
    ((40, 70), (0,)),
    ((3, 5, 130), (0, 2)),
    ((4, 3, 70), (1, 2)),
    ((70, 3, 33), (0, 1, 2)),  # full, chunks of the first axis, rows continue the lanes
    ((5, 1, 7), (1,)),
    ((2, 0, 3), (1,)),
    ((0, 4), (0, 1)),
    # leading reduced axes (a bias gradient) take the path without a transpose
    ((256, 10), (0,)),
    ((1100, 3), (0,)),  # float32 blocks over 17+ groups
    ((130, 2, 5), (0, 1)),
    ((63, 4), (0,)),
    ((3, 0, 2), (0,)),
    ((0, 5), (1,)),
    # short rows of many values: a pairwise order would show (two or more columns reduce row after row,
    # a single column accumulates)
    ((50, 40, 60), (1, 2)),
    ((2, 40), (1,)),
    ((1, 300, 20), (1, 2)),
    ((60, 1), (0,)),
    ((60, 2), (0,)),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["sum", "prod"])
@pytest.mark.parametrize("shape, axes", CASES)
def test_twin_adds_in_the_documented_order(shape, axes, kind, dtype):
    x = _data(shape, dtype, kind, seed=len(shape) + sum(shape))
    oracle.assert_bitwise(kernel_reduce(kind, x, axes), _reference(kind, x, axes))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_twin_with_special_values_and_signed_zeros(dtype):
    x = _data((9, 300), dtype, "sum", seed=1)
    x[0] = -0.0  # every lane gets -0.0 only: the kernel's lanes start at +0.0
    x[1, 5], x[2, 7], x[3, 9], x[3, 10] = np.nan, np.inf, -np.inf, np.inf
    x[4, ::3] = -0.0
    with np.errstate(all="ignore"):
        for kind in ("sum", "prod"):
            for axes in ((1,), (0,), (0, 1)):
                got = kernel_reduce(kind, x, axes)
                oracle.assert_bitwise(got, _reference(kind, x, axes))
    assert np.signbit(kernel_reduce("sum", x, (1,))[0]) == np.False_
    assert np.signbit(kernel_reduce("prod", np.array([-0.0, 2.0], dtype), (0,)))


def test_float32_sums_keep_numpy_level_accuracy():
    x = np.random.default_rng(0).random(1_000_003).astype(np.float32)
    exact = np.sum(x.astype(np.float64))
    got = kernel_reduce("sum", x, (0,))
    assert got.dtype == np.float32
    assert abs(float(got) - exact) <= 2 * np.spacing(np.float32(exact))
    rows = kernel_reduce("sum", x[:1_000_000].reshape(100, 10_000), (1,))
    want = x[:1_000_000].reshape(100, 10_000).astype(np.float64).sum(axis=1)
    assert np.all(np.abs(rows - want) <= 2 * np.spacing(want.astype(np.float32)))


def test_twin_takes_any_layout_and_negative_axes():
    x = _data((6, 200, 5), np.float32, "sum", seed=2)
    view = x.transpose(2, 0, 1)[:, :, ::3]
    oracle.assert_bitwise(kernel_reduce("sum", view, (-1, 0)), _reference("sum", view, (0, 2)))
    oracle.assert_bitwise(kernel_reduce("sum", np.float32(2.5), ()), np.float32(2.5))


def test_twin_rejects_other_kinds_and_dtypes():
    with pytest.raises(ValueError, match="kind"):
        kernel_reduce("max", np.ones(3), (0,))
    with pytest.raises(TypeError, match="float32 or float64"):
        kernel_reduce("sum", np.ones(3, np.int64), (0,))
