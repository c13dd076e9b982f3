"""logaddexp with a Python scalar in every tier: `jit(lambda v, s: logaddexp(v, s), backend="reference")`
computes what eager mode computes, bit for bit (the weak Python float is cast to the array's dtype first,
as NumPy casts it; nothing is computed in float64 and cast back), tier 0 what the compiled tier computes,
and every tier is NumPy's result within a stated bound.

Why not NumPy's bits: NumPy's logaddexp loop calls libm's scalar exp and log1p (npy_logaddexp:
max(x, y) + log1p(exp(-|x - y|))); arraystack evaluates the same formula with the exp and log1p primitives,
whose reference rules are NumPy's vectorized np.exp and np.log1p (and the compiled tier's mathlib's), which
round differently from libm in the last bit. The sum differs from NumPy's by the difference of the log1p
terms, which lie in [0, ln 2] (each term within a few ulp of the exact one: 4 ulp of ln 2 in all) plus one
rounding of the result: |got - NumPy's| <= 4 ulp(ln 2) + 1 ulp(NumPy's result), in the dtype the loop
computes in (float32 for float16). Where the log1p term is exact (x == y: x + ln 2; an infinity; a NaN;
|x - y| so large that the term vanishes) the result is NumPy's, bit for bit."""

from __future__ import annotations

import numpy
import pytest
from arraystack.backends import compile_graph

import arraystack as ast
from tests import oracle

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy warns on -inf - -inf


def _values(dtype, n=4000, seed=0):
    rng = numpy.random.default_rng(seed)
    x = numpy.concatenate(
        [
            rng.standard_normal(n) * 3,
            rng.uniform(-1, 1, n // 4) - numpy.log(2),  # results near 0: cancellation
            [0.3, -0.0, 0.0, numpy.inf, -numpy.inf, numpy.nan, 60.0, -60.0, 1e4, -1e4],
        ]
    )
    return x.astype(dtype)


SCALARS = [0.3, -2.5, 3, True]
DTYPES = ["float16", "float32", "float64", "int8", "uint8", "bool"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
def test_the_reference_backend_computes_eager_bits_with_a_python_scalar(dtype, scalar):
    x = _values(dtype)
    for fun in (lambda v, s: ast.logaddexp(v, s), lambda v, s: ast.logaddexp(s, v)):
        eager = fun(x, scalar)
        reference = ast.jit(fun, backend="reference")(x, scalar)
        oracle.assert_same_bits(eager, reference)
        assert numpy.asarray(reference).dtype == numpy.logaddexp(x, scalar).dtype  # weak promotion
    reference = ast.jit(lambda v, s: ast.logaddexp(v, s), backend="reference")
    for v in x[:50]:  # 0-d arguments
        oracle.assert_same_bits(ast.logaddexp(ast.asarray(v), scalar), reference(v, scalar))


def _within_bound(got, x, scalar):
    want = numpy.logaddexp(x, scalar)
    got = numpy.asarray(got)
    assert got.dtype == want.dtype
    nan = numpy.isnan(want)
    numpy.testing.assert_array_equal(numpy.isnan(got), nan)
    inner = numpy.dtype(numpy.float32 if want.dtype == numpy.float16 else want.dtype)
    bound = 4 * numpy.spacing(inner.type(numpy.log(2))) + numpy.spacing(numpy.abs(want))
    finite = ~nan & numpy.isfinite(want)
    err = numpy.abs(got[finite].astype(numpy.float64) - want[finite].astype(numpy.float64))
    assert numpy.all(err <= bound[finite].astype(numpy.float64)), numpy.max(err - bound[finite])
    numpy.testing.assert_array_equal(got[~finite & ~nan], want[~finite & ~nan])
    exact = (x == numpy.asarray(scalar, want.dtype)) | ~numpy.isfinite(x)
    exact |= (
        numpy.abs(x.astype(numpy.float64) - scalar) > 120
    )  # the log1p term is 0 or below 2**-170
    oracle.assert_same_bits(want[exact & ~nan], got[exact & ~nan])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("scalar", [0.3, -0.6931471805599453, 2.0])
def test_every_tier_is_within_the_bound_of_numpy(dtype, scalar):
    x = _values(dtype, seed=1)
    _within_bound(ast.logaddexp(x, scalar), x, scalar)
    _within_bound(
        ast.jit(lambda v, s: ast.logaddexp(v, s), backend="reference")(x, scalar), x, scalar
    )
    graph = ast.jit(lambda v, s: ast.logaddexp(v, s)).lower(x, scalar).optimized
    tier0 = compile_graph(graph, "numba", tier=0)(x, numpy.asarray(scalar, numpy.float64))[0]
    tier1 = compile_graph(graph, "numba")(x, numpy.asarray(scalar, numpy.float64))[0]
    oracle.assert_same_bits(tier1, tier0)
    _within_bound(tier1, x, scalar)


def test_equal_operands_infinities_and_nan_are_numpy_bits_in_every_tier():
    x = numpy.array([0.3, 0.3, numpy.inf, -numpy.inf, numpy.nan, 1.5], numpy.float32)
    y = numpy.array([0.3, -numpy.inf, numpy.inf, -numpy.inf, 0.0, 1.5], numpy.float32)
    want = numpy.logaddexp(x, y)
    fun = lambda a, b: ast.logaddexp(a, b)
    oracle.assert_same_bits(want, fun(x, y))
    oracle.assert_same_bits(want, ast.jit(fun, backend="reference")(x, y))
    oracle.assert_same_bits(want, ast.jit(fun, tiered=False)(x, y))


@pytest.mark.parametrize("function", [ast.logaddexp, ast.logaddexp2])
def test_the_derivative_at_a_tie_is_half_for_each_operand(function):
    """d/dx logaddexp(x, y) = exp(x - logaddexp(x, y)): 1/2 at x == y, as a central difference and
    JAX's jvp give it; the tie's value is computed apart (x + ln 2), and its derivative follows."""
    for x in (2.0, -3.5, 0.0):
        gx, gy = ast.grad(lambda a, b: function(a, b), argnums=(0, 1))(x, x)
        assert float(gx) == float(gy) == 0.5
        step = 1e-6
        central = (float(function(x + step, x)) - float(function(x - step, x))) / (2 * step)
        assert abs(central - 0.5) < 1e-6
    assert float(ast.grad(lambda a: function(a, a))(1.25)) == 1.0
