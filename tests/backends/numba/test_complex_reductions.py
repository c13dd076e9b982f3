"""Complex prod, max and min reductions compiled into numba kernels (codegen_complex.py), against
their tier-0 twin (bit for bit) and NumPy.

max/min return one of the elements: NumPy's (the first holding a NaN in either part, else the first
of the lexicographically largest or smallest, 0.0 equal to -0.0), bit for bit, NaN payloads
included, for reductions over one axis of any layout and over several axes in row-major order.
Products run in the kernels' lane order from 1 + 0j with complex_mul's formula (complex64 in
complex128, rounded once): within a first-order error bound of NumPy's sequential product on
ordinary values, NumPy's very bits where both multiply in the same order with exact products (rows
shorter than the lanes, special values), and the same NaN and zero patterns, which do not depend on
the order.
"""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends import compile_graph

import arraystack as ast
from tests import oracle

pytestmark = [pytest.mark.numba, pytest.mark.filterwarnings("ignore::RuntimeWarning")]
DTYPES = [np.complex64, np.complex128]


def _nan(dtype, payload, negative=False):
    """A quiet NaN of `dtype`'s parts with `payload` in its low mantissa bits."""
    part = np.dtype(np.float32 if dtype == np.complex64 else np.float64)
    bits = np.dtype(np.uint32 if part == np.float32 else np.uint64)
    quiet = np.array(np.nan, part).view(bits) | bits.type(payload)
    if negative:
        quiet |= bits.type(1) << bits.type(8 * part.itemsize - 1)
    return quiet.view(part)


def _ties(dtype, shape, seed=0):
    """Values from a few parts, so that rows hold several NaNs (of distinct payloads and signs) and
    equal values that differ in their zeros' signs."""
    rng = np.random.default_rng(seed)
    parts = [0.0, -0.0, 1.0, -1.0, 2.0, np.inf, -np.inf]
    parts += [_nan(dtype, 1), _nan(dtype, 2, negative=True), _nan(dtype, 3)]
    weights = np.array([6, 6, 4, 4, 6, 1, 1, 0.15, 0.15, 0.15])
    picks = rng.choice(len(parts), size=(2,) + tuple(shape), p=weights / weights.sum())
    table = np.array(parts, np.float32 if dtype == np.complex64 else np.float64)
    z = np.empty(shape, dtype)
    z.real, z.imag = table[picks[0]], table[picks[1]]
    return z


def _unit(dtype, shape, seed=0):
    """Ordinary values near the unit circle, so long products neither overflow nor underflow."""
    rng = np.random.default_rng(seed)
    size = tuple(shape)
    radius = 1.0 + 0.05 * rng.standard_normal(size)
    return (radius * np.exp(2j * np.pi * rng.random(size))).astype(dtype)


def _compiled(fn, *args, nan_bits=True):
    """(fn's compiled outputs, the plan text); checks them against the tier-0 twin, bit for bit. NaN
    payloads too (max and min move elements) unless nan_bits is False: which NaN a product of NaNs
    keeps is unspecified (LLVM may swap a product's operands)."""
    jitted = ast.jit(fn, tiered=False)
    lowered = jitted.lower(*[ast.asarray(a) for a in args])
    text = lowered.compile().as_text()
    got = jitted(*[ast.asarray(a) for a in args])
    got = [np.asarray(g) for g in (got if isinstance(got, tuple) else (got,))]
    twin = [np.asarray(t) for t in compile_graph(lowered.optimized, "numba", tier=0)(*args)]
    if nan_bits:
        oracle.assert_same_bits(twin, got, "kernel against its tier-0 twin")
    else:
        same = [_canonical_nans(t) for t in twin], [_canonical_nans(g) for g in got]
        oracle.assert_same_bits(*same, "kernel against its tier-0 twin")
    return got, text


def _in_kernels(text):
    plan = text.split("# optimized graph", 1)[0]
    assert "numba kernel" in plan and "reference" not in plan, plan


def _extrema(axis):
    return lambda a: (ast.max(a, axis=axis), ast.min(a, axis=axis))


# (shape, axis): staged rows (rows shorter than the 64 lanes, and laned), column kernels, whole
# arrays in chunks (of one element, short, laned), three axes
CASES = [
    ((1,), None),
    ((7,), None),
    ((1000,), None),
    ((9, 70), 1),
    ((70, 9), 1),
    ((9, 70), 0),
    ((130, 5), 0),
    ((33, 70), None),
    ((5, 6, 70), (0, 2)),
    ((5, 6, 7), (1, 2)),
    ((6, 5, 7), (0, 1)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape, axis", CASES)
def test_max_and_min_return_numpys_element_bit_for_bit(dtype, shape, axis):
    z = _ties(dtype, shape, seed=len(shape))
    (high, low), text = _compiled(_extrema(axis), z)
    _in_kernels(text)
    oracle.assert_same_bits(np.max(z, axis=axis), high, "max")
    oracle.assert_same_bits(np.min(z, axis=axis), low, "min")


@pytest.mark.parametrize("dtype", DTYPES)
def test_max_and_min_of_transposed_and_strided_operands(dtype):
    z = _ties(dtype, (90, 70), seed=5)
    for view in (z.T, z[::2, ::-1], z[3:, ::3].T):
        for axis in (0, 1):  # NumPy walks one axis in index order whatever the strides
            (high, low), _ = _compiled(_extrema(axis), view)
            oracle.assert_same_bits(np.max(view, axis=axis), high, f"max over {axis}")
            oracle.assert_same_bits(np.min(view, axis=axis), low, f"min over {axis}")
        # whole arrays: the element of the row-major walk, NumPy's own for a C-ordered copy (NumPy
        # walks a transposed operand in memory order: codegen_complex.py's Note)
        (high, low), _ = _compiled(_extrema(None), view)
        oracle.assert_same_bits(np.max(np.ascontiguousarray(view)), high, "max of all")
        oracle.assert_same_bits(np.min(np.ascontiguousarray(view)), low, "min of all")
    (high, _), _ = _compiled(_extrema(None), z[::2, ::-1])  # C order up to signs: NumPy's walk
    oracle.assert_same_bits(np.max(z[::2, ::-1]), high, "max of a strided view")


def test_max_keeps_the_first_nan_and_the_first_of_equal_values():
    nan_a, nan_b = _nan(np.complex128, 7), _nan(np.complex128, 9, negative=True)
    z = np.array(
        [
            # equal values: the first; the first NaN, in either part; equal infinities: the first
            [complex(-0.0, 3.0), complex(0.0, 3.0), -1 + 5j, complex(-0.0, 1.0)],
            [complex(5.0, nan_a), complex(nan_b, 1.0), 7 + 0j, 1j],
            [complex(np.inf, -0.0), complex(np.inf, 0.0), -np.inf + 0j, 0j],
        ]
    )
    (high, low), _ = _compiled(_extrema(1), z)
    oracle.assert_same_bits(np.max(z, axis=1), high, "max")
    oracle.assert_same_bits(np.min(z, axis=1), low, "min")
    assert np.signbit(high[0].real) and np.signbit(high[2].imag)
    assert high[1].imag.tobytes() == np.float64(nan_a).tobytes()
    assert low[1].imag.tobytes() == np.float64(nan_a).tobytes()


def _norm_error(got, expected):
    """|got - expected| / |expected| elementwise, in complex128."""
    got, expected = np.asarray(got, np.complex128), np.asarray(expected, np.complex128)
    return np.abs(got - expected) / np.abs(expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape, axis", CASES)
def test_products_are_within_a_first_order_bound_of_numpys(dtype, shape, axis):
    z = _unit(dtype, shape, seed=len(shape))
    (got,), text = _compiled(lambda a: ast.prod(a, axis=axis), z, nan_bits=False)
    _in_kernels(text)
    expected = np.prod(z, axis=axis)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    # n products each: NumPy's formula errs by at most sqrt(5) u (u = eps / 2) per product,
    # complex_mul's by 2 u (complex64 runs in complex128: by one rounding at the end), so they
    # differ by at most about (sqrt(5) + 2) n u + u < 3 n eps, to first order
    n = z.size // max(expected.size, 1)
    bound = 3 * n * np.finfo(dtype).eps
    assert np.max(_norm_error(got, expected)) <= bound


@pytest.mark.parametrize("dtype", DTYPES)
def test_products_of_rows_shorter_than_the_lanes_are_numpys_on_exact_values(dtype):
    # every triple of special and small parts: each product exact (or infinite, or NaN), both
    # multiply from 1 + 0j in order, and NumPy's formula and complex_mul's round alike on exact
    # products
    parts = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan]
    values = np.array([complex(a, b) for a in parts for b in parts], dtype)
    rng = np.random.default_rng(3)
    rows = values[rng.integers(0, values.size, (3000, 3))]
    rows[: values.size, 0] = values  # each value alone too (as 1 + 0j times it)
    rows[: values.size, 1:] = 1.0
    (got,), text = _compiled(lambda a: ast.prod(a, axis=1), rows, nan_bits=False)
    _in_kernels(text)
    expected = np.prod(rows, axis=1)
    # which NaN a product of NaNs keeps is unspecified (LLVM may swap a product's operands)
    oracle.assert_same_bits(_canonical_nans(expected), _canonical_nans(got), "products of specials")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_products_keep_numpys_nan_and_zero_patterns(dtype, axis):
    # patterns the order cannot change: a NaN part anywhere makes both parts NaN; a zero among
    # finite values makes both parts zero
    z = _unit(dtype, (40, 130), seed=9)
    z[3, 100] = complex(np.nan, 1.0)
    z[7, 5] = complex(2.0, np.nan)
    z[11, 70] = complex(0.0, -0.0)
    z[20, :] = 0.0
    (got,), _ = _compiled(lambda a: ast.prod(a, axis=axis), z, nan_bits=False)
    expected = np.prod(z, axis=axis)
    for test in (np.isnan, lambda v: v == 0):
        for part in ("real", "imag"):
            where = f"{test} of the {part} parts"
            np.testing.assert_array_equal(
                test(getattr(got, part)), test(getattr(expected, part)), where
            )
    ordinary = np.isfinite(expected) & (expected != 0)
    assert np.all(_norm_error(got[ordinary], expected[ordinary]) <= 3 * 130 * np.finfo(dtype).eps)


@pytest.mark.parametrize("dtype", DTYPES)
def test_empty_reductions(dtype):
    (got,), _ = _compiled(lambda a: ast.prod(a), np.zeros(0, dtype))
    oracle.assert_same_bits(np.prod(np.zeros(0, dtype)), got, "empty product")
    (got,), _ = _compiled(lambda a: ast.prod(a, axis=0), np.zeros((0, 3), dtype))
    oracle.assert_same_bits(np.ones(3, dtype), got, "products over an empty axis")
    (high, low), _ = _compiled(_extrema(1), np.zeros((0, 3), dtype))
    assert high.shape == low.shape == (0,) and high.dtype == dtype
    for shape, axis in (((0,), None), ((3, 0), 1), ((0, 3), 0)):  # no identity: NumPy's error
        with pytest.raises(ValueError, match="zero-size array"):
            np.max(np.zeros(shape, dtype), axis=axis)
        with pytest.raises(ValueError, match="zero-size array"):
            ast.jit(_extrema(axis), tiered=False)(ast.asarray(np.zeros(shape, dtype)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_regions_mixing_complex_arithmetic_and_these_reductions(dtype):
    z, w = _unit(dtype, (70, 130), seed=1), _unit(dtype, (70, 130), seed=2)
    z[4, 9] = complex(np.nan, 0.0)
    z[5, :] = z[5, 0]  # equal values: the first

    def f(a, b):
        return (
            ast.max(ast.abs(a), axis=1),
            ast.max(a * b - a, axis=1),
            a - ast.max(a, axis=1, keepdims=True),
            ast.min(a, axis=1),
            ast.prod(b / a, axis=1),
            ast.prod(a * b, axis=0),
        )

    got, text = _compiled(f, z, w, nan_bits=False)
    _in_kernels(text)
    with np.errstate(all="ignore"):
        exact = (np.max(np.abs(z), axis=1), np.max(z * w - z, axis=1))
        exact += (z - np.max(z, axis=1, keepdims=True), np.min(z, axis=1))
        products = (np.prod(w / z, axis=1), np.prod(z * w, axis=0))
    # max and min move elements, NaN payloads included (z's NaN was made by no operation)
    oracle.assert_same_bits(list(exact), got[:4], "max and min")
    for n, expected, value in zip((130, 70), products, got[4:]):
        np.testing.assert_array_equal(np.isnan(value), np.isnan(expected))
        finite = np.isfinite(expected)
        assert np.max(_norm_error(value[finite], expected[finite])) <= 3 * n * np.finfo(dtype).eps


def test_the_plan_shows_the_reductions_in_kernels():
    z = _unit(np.complex64, (30, 20))
    _, text = _compiled(lambda a: (ast.prod(a * a, axis=0), ast.max(a), ast.min(a, axis=1)), z)
    plan, graph = text.split("# optimized graph", 1)
    assert "reduce_" not in plan, plan  # no reduction is a NumPy step of its own
    for name in ("reduce_prod", "reduce_max", "reduce_min"):
        assert name in graph.split("# generated source", 1)[0]
    assert "complex_mul" in text and "complex_of(np.float32(-np.inf), np.float32(-np.inf))" in text


def test_twin_keeps_complex_mul_bits_for_products_of_one_element():
    # NumPy runs an in-place complex product of one element (np.multiply(a, b, out=a), a.size == 1)
    # through its reduce loop, which rounds all four products; the twin computes complex_mul's bits
    rng = np.random.default_rng(4)
    z = rng.standard_normal((50, 1)) + 1j * rng.standard_normal((50, 1))
    w = rng.standard_normal((50, 1)) + 1j * rng.standard_normal((50, 1))
    for a, b in zip(z, w):
        _compiled(lambda x, y: (x * y) * y, a, b)


def _canonical_nans(x):
    """x with every NaN part np.nan's bits."""
    x = np.array(x)
    if x.dtype.kind == "f":
        x[np.isnan(x)] = np.nan
    elif x.dtype.kind == "c":
        x.real, x.imag = _canonical_nans(x.real), _canonical_nans(x.imag)
    return x
