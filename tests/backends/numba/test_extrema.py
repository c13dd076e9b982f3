"""Float max/min reductions in every kernel form (rows, columns, whole arrays in chunks, passes after a
stash, lanes shared with sums) return the left fold of NumPy's maximum/minimum in the kernel's order:
the later of equal values (-0.0 or 0.0) and a canonical NaN, and tier 0 (extrema.kernel_extremum)
computes the same bits (backends/numba/extrema.py)."""

from __future__ import annotations

import numpy
import pytest
from arraystack.backends import compile_graph
from arraystack.backends.numba.extrema import kernel_extremum

import arraystack as ast

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def left_fold(kind, x, axes):
    """np.maximum (np.minimum) applied value after value over `axes` in row-major order; NaN canonical."""
    kept = [d for d in range(x.ndim) if d not in axes]
    rows = numpy.transpose(x, kept + list(axes)).reshape(tuple(x.shape[d] for d in kept) + (-1,))
    op = numpy.maximum if kind == "max" else numpy.minimum
    acc = rows[..., 0].copy()
    for k in range(1, rows.shape[-1]):
        acc = op(acc, rows[..., k])
    return numpy.where(numpy.isnan(acc), numpy.array(numpy.nan, x.dtype), acc)


def signed_zeros(shape, dtype, kind, seed):
    """Mostly zeros of random signs, some values below (max) or above (min) them, and a few NaNs."""
    rng = numpy.random.default_rng(seed)
    x = numpy.where(rng.random(shape) < 0.5, -0.0, 0.0)
    x = numpy.where(rng.random(shape) < 0.3, -1.0 if kind == "max" else 1.0, x)
    return numpy.where(rng.random(shape) < 0.02, numpy.nan, x).astype(dtype)


def both_tiers(fun, *args):
    graph = ast.jit(fun).lower(*args).optimized
    tier0 = compile_graph(graph, "numba", tier=0)(*args)
    tier1 = compile_graph(graph, "numba")(*args)
    return [numpy.asarray(o) for o in tier0], [numpy.asarray(o) for o in tier1]


FORMS = [  # (shape, axis): rows, columns, whole arrays (chunks), several axes, long rows (laned)
    ((5,), None), ((300,), None), ((7, 3), None), ((200, 3), None), ((4, 7), 1), ((4, 130), 1),
    ((7, 4), 0), ((130, 4), 0), ((3, 5, 6), (0, 2)), ((3, 5, 6), 1), ((3, 5, 6), (1, 2)),
    ((2, 3, 130), 2), ((5, 4, 3), (0, 1)),
]  # fmt: skip


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("kind", ["max", "min"])
@pytest.mark.parametrize(("shape", "axis"), FORMS)
def test_kernels_and_tier_0_keep_the_later_of_equal_values(shape, axis, kind, dtype):
    x = signed_zeros(shape, dtype, kind, seed=len(shape) * 7 + shape[-1])
    axes = (
        tuple(range(len(shape))) if axis is None else ((axis,) if isinstance(axis, int) else axis)
    )
    expected = left_fold(kind, x, axes)
    (tier0,), (tier1,) = both_tiers(lambda a: getattr(ast, kind)(a * 1.0, axis=axis), x)
    assert tier0.tobytes() == expected.tobytes()
    assert tier1.tobytes() == expected.tobytes()
    assert kernel_extremum(kind, x, axes).tobytes() == expected.tobytes()


FUNCTIONS = {
    "max and sum of rows": lambda a: (ast.max(a, axis=1), ast.sum(a, axis=1)),
    "max and sum of all": lambda a: (ast.max(a), ast.sum(a)),
    "max of centred rows": lambda a: ast.max(a - ast.max(a, axis=1, keepdims=True), axis=1),
    "min after a sum": lambda a: ast.min(a * ast.sum(a, axis=1, keepdims=True), axis=1),
    "max of relu": lambda a: ast.max(ast.maximum(a, 0.0), axis=1),
    "max and sum of columns": lambda a: (ast.max(a, axis=0), ast.sum(a, axis=0)),
}


@pytest.mark.parametrize("shape", [(3, 7), (5, 130), (130, 5)])
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_both_tiers_agree_in_regions_with_other_reductions(name, shape):
    rng = numpy.random.default_rng(3)
    x = rng.choice(numpy.array([-0.0, 0.0, -1.0, 0.5]), shape)
    tier0, tier1 = both_tiers(FUNCTIONS[name], x)
    for a, b in zip(tier0, tier1):
        assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_numpy_agrees_where_its_loop_runs_in_order(dtype):
    """Rows of up to 8 values and column reductions: NumPy's maximum.reduce folds in order too."""
    rng = numpy.random.default_rng(0)
    for shape, axis in [((6, 8), 1), ((8, 6), 0), ((2, 4), None), ((9, 5), 0)]:
        x = numpy.where(rng.random(shape) < 0.5, -0.0, 0.0).astype(dtype)
        for kind in ("max", "min"):
            fun = getattr(ast, kind)
            (tier0,), (tier1,) = both_tiers(lambda a, fun=fun, axis=axis: fun(a, axis=axis), x)
            expected = numpy.asarray(getattr(numpy, kind)(x, axis=axis))
            assert tier0.tobytes() == expected.tobytes() == tier1.tobytes()


@pytest.mark.parametrize(("shape", "axis"), [((300,), None), ((4, 300), 1), ((3, 5, 70), (1, 2))])
@pytest.mark.parametrize("kind", ["max", "min"])
def test_a_zero_result_whose_zeros_come_first(kind, shape, axis):
    """Zeros (-0.0, 0.0, -0.0) first in each row, the other values below (above) them: the sign comes
    from the pass over the row, not from its last value."""
    axes = (
        tuple(range(len(shape))) if axis is None else ((axis,) if isinstance(axis, int) else axis)
    )
    kept = [d for d in range(len(shape)) if d not in axes]
    order = kept + list(axes)  # the rows in the kernel's order, then back to the array's axes
    size = int(numpy.prod([shape[d] for d in axes]))
    rows = numpy.full([shape[d] for d in kept] + [size], -1.0 if kind == "max" else 1.0)
    rows[..., :3] = [-0.0, 0.0, -0.0]
    x = numpy.ascontiguousarray(
        rows.reshape([shape[d] for d in order]).transpose(numpy.argsort(order))
    )
    (tier0,), (tier1,) = both_tiers(lambda a: getattr(ast, kind)(a * 1.0, axis=axis), x)
    expected = left_fold(kind, x, axes)
    assert numpy.all(numpy.signbit(expected)) and numpy.all(expected == 0)
    assert tier0.tobytes() == expected.tobytes() == tier1.tobytes()
