"""The mean of int64 values: each value converted to float64, then a float64 sum divided by the count,
as NumPy computes it. Near +-2**63 with both signs the sum cancels, so the order of its additions shows
in every bit: tier 0 (the numba backend's NumPy twin) must add in the compiled kernels' order in every
memory layout of the argument (a transposed argument made the twin add pairwise, as NumPy does along a
contiguous axis, where the kernels add row after row).

Against NumPy, which adds in its own (pairwise) order: bit for bit where the float64 sum is exact in any
order; otherwise within the bound of two summation orders. Each order's sum of the n converted values
s_i is within gamma(n - 1) * sum(|s_i|) of the exact sum (gamma(k) = k u / (1 - k u), u = 2**-53), and
each division by n rounds once more (u of the result), so the two means differ by at most
(2 gamma(n - 1) + 2 u (1 + gamma(n - 1))) * mean(|s_i|), which the test takes as
n * 2**-52 * mean(|s_i|) * (1 + 2**-40)."""

from __future__ import annotations

import numpy
import pytest
from arraystack.backends import compile_graph

import arraystack as ast
from tests import oracle

TOP = 2**63 - 1
# a column whose float64 sum is 2.0 row after row and 1.0 in NumPy's pairwise order (blocks of 8)
CANCELLING = [TOP - 1, -TOP, 2**62, -1, 3, 3, -(2**62), 1, 1]


def _tiers(fun, *args):
    """(tier-0 outputs, compiled outputs) of fun's optimized graph on args, in their layouts."""
    graph = ast.jit(fun).lower(*args).optimized
    return compile_graph(graph, "numba", tier=0)(*args), compile_graph(graph, "numba")(*args)


def _extremes(shape, seed):
    """int64 values near +-2**63 of both signs, with small ones between them."""
    rng = numpy.random.default_rng(seed)
    choices = numpy.array(
        [TOP, -TOP - 1, TOP - 1, -TOP, 2**62, -(2**62), 2**62 + 12345, 0, 1, -1, 3, -5, 7],
        numpy.int64,
    )
    return rng.choice(choices, size=shape)


def _within_summation_bound(got, x, axis):
    """|got - NumPy's mean| within the bound of two float64 summation orders (module docstring)."""
    want = numpy.mean(x, axis=axis)
    s = numpy.abs(x.astype(numpy.float64))
    n = x.size // numpy.asarray(want).size if x.size else 0
    bound = n * 2.0**-52 * numpy.mean(s, axis=axis) * (1 + 2.0**-40)
    assert numpy.all(numpy.abs(numpy.asarray(got) - want) <= bound), (got, want, bound)


def test_the_cancelling_column_reproducer():
    """Transposed, 9 rows: tier 0 gave NumPy's pairwise 1/9, the compiled tier 2/9."""
    x = numpy.array([CANCELLING, CANCELLING[::-1]], numpy.int64).T  # (9, 2), Fortran order
    (tier0,), (tier1,) = _tiers(lambda a: ast.mean(a, axis=0), x)
    oracle.assert_same_bits((tier0,), (tier1,))
    assert numpy.asarray(tier1)[0] == 2.0 / 9  # row after row: 2**63 - 2**63 cancels first
    _within_summation_bound(tier1, x, 0)


LAYOUTS = {
    "C": lambda x: x,
    "transposed": lambda x: x.T,
    "reversed": lambda x: x[::-1],
    "strided": lambda x: x[::2],
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("shape", [(9, 1000), (70, 5), (128, 3), (9, 64, 5), (33,)])
def test_tiers_agree_on_extreme_int64_means_in_every_layout(shape, layout):
    stored = {"transposed": shape[::-1], "strided": (2 * shape[0],) + shape[1:]}.get(layout, shape)
    x = LAYOUTS[layout](_extremes(stored, seed=sum(shape)))
    axes = [None, *range(x.ndim)] + ([(0, 1)] if x.ndim == 3 else [])
    fun = lambda a: tuple(ast.mean(a, axis=axis) for axis in axes)
    tier0, tier1 = _tiers(fun, x)
    oracle.assert_same_bits(tier0, tier1)
    for got, axis in zip(tier1, axes):
        _within_summation_bound(got, x, axis)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_exact_integer_means_are_numpy_bits(layout):
    """Sums below 2**53 are exact in any order: NumPy's bits in both tiers."""
    rng = numpy.random.default_rng(7)
    x = LAYOUTS[layout](rng.integers(-(2**45), 2**45, size=(80, 12), dtype=numpy.int64))
    axes = [None, 0, 1]
    tier0, tier1 = _tiers(lambda a: tuple(ast.mean(a, axis=axis) for axis in axes), x)
    oracle.assert_same_bits(tier0, tier1)
    for got, axis in zip(tier1, axes):
        want = numpy.mean(x, axis=axis)
        assert numpy.asarray(got).tobytes() == numpy.asarray(want).tobytes(), axis
