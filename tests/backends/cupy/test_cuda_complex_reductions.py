"""Complex prod, max and min reductions in generated CUDA kernels (cuda_codegen_reduce.py, complex_ops.cuh's
np_cx_at): rows, columns and whole-array kernels compile with NVRTC for sm_80 and sm_90 without spills
and, on the CPU harness, give NumPy's results.

max/min return NumPy's element bit for bit, NaN payloads and zeros' signs included: the first holding a
NaN in either part, else the first of the lexicographically largest (smallest), 0.0 equal to -0.0, in
row-major order over the reduced axes (NumPy's order for the C-ordered operands used here). Products
multiply in the kernels' fixed order from NumPy's start (1 + 0j times the first element): within
docs/internals/cuda.md's bound of NumPy's product on ordinary values, and NumPy's bits where the order
does not matter (one element, empty rows: 1 + 0j, rows holding a NaN: NaN in both parts, exact products:
their values; a zero part's sign depends on the order).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from arraystack.backends.cupy import cuda_codegen

import arraystack as ast
from tests.backends.cupy.cuda_check import (
    combined,
    compile_for_gpus,
    fusion_eqns,
    needs_nvrtc,
    reference,
    run_kernels,
)

pytestmark = needs_nvrtc

COMPLEX = ["complex64", "complex128"]
# (shape, axis, kernel form): rows shorter and longer than a block (256 threads), odd lengths, columns,
# whole arrays of one block and of several (a second pass over the blocks' partial results)
CASES = [
    ((1,), None, "whole"),
    ((7,), None, "whole"),
    ((2001,), None, "whole"),
    ((5, 37), 1, "rows"),
    ((3, 701), 1, "rows"),
    ((37, 5), 0, "columns"),
    ((301, 3), 0, "columns"),
    ((9, 301), None, "whole"),
]


def _part(dtype) -> np.dtype:
    return np.dtype(f"f{np.dtype(dtype).itemsize // 2}")


def _nan(dtype, payload, negative=False):
    """A quiet NaN of `dtype`'s parts with `payload` in its low mantissa bits."""
    part = _part(dtype)
    bits = np.dtype(f"u{part.itemsize}")
    quiet = np.array(np.nan, part).view(bits) | bits.type(payload)
    if negative:
        quiet |= bits.type(1) << bits.type(8 * part.itemsize - 1)
    return quiet.view(part)


def ties(dtype, shape, seed=0, nans=True) -> np.ndarray:
    """Values from a few parts, so that rows hold several NaNs (of distinct payloads and signs) and
    equal values whose zeros differ in sign."""
    rng = np.random.default_rng(seed)
    parts = [0.0, -0.0, 1.0, -1.0, 2.0, np.inf, -np.inf]
    weights = [6, 6, 4, 4, 6, 1, 1]
    if nans:
        parts += [_nan(dtype, 1), _nan(dtype, 2, negative=True), _nan(dtype, 3)]
        weights += [0.1, 0.1, 0.1]
    weights = np.array(weights) / np.sum(weights)
    picks = rng.choice(len(parts), size=(2, *shape), p=weights)
    table = np.array(parts, _part(dtype))
    z = np.empty(shape, dtype)
    z.real, z.imag = table[picks[0]], table[picks[1]]
    return z


def unit(dtype, shape, seed=0) -> np.ndarray:
    """Ordinary values near the unit circle: long products neither overflow nor underflow."""
    rng = np.random.default_rng(seed)
    radius = 1.0 + 0.05 * rng.standard_normal(shape)
    return (radius * np.exp(2j * np.pi * rng.random(shape))).astype(dtype)


def bits(x, nan_bits=True) -> list:
    """The bit patterns of x's real and imaginary parts (every NaN as one unless nan_bits)."""
    x = np.ascontiguousarray(x).reshape(-1)
    unsigned = np.dtype(f"u{x.dtype.itemsize // 2}")
    parts = [np.ascontiguousarray(x.real), np.ascontiguousarray(x.imag)]
    if not nan_bits:
        parts = [np.where(np.isnan(part), part.dtype.type(np.nan), part) for part in parts]
    return [part.view(unsigned) for part in parts]


def assert_same_bits(got, want, what="", nan_bits=True) -> None:
    """Bit for bit; NaN payloads and signs too unless nan_bits is False (a NaN that an operation makes,
    0 * inf, has the bits of the hardware that makes it: x86's negative default NaN, CUDA's positive)."""
    assert got.dtype == want.dtype and got.shape == want.shape, what
    for g, w in zip(bits(got, nan_bits), bits(want, nan_bits)):
        np.testing.assert_array_equal(g, w, err_msg=what)


def run(fn, x, form):
    """(kernel outputs, NumPy's outputs) of fn's regions at x, after checking each lowers to kernels of
    `form` that compile for both GPUs (one translation unit)."""
    eqns = fusion_eqns(fn, x)
    lowered = [cuda_codegen.lower_region(eqn) for eqn in eqns]
    for eqn, ks in zip(eqns, lowered):
        assert ks is not None, cuda_codegen.why_not(eqn)
        assert ks.kind == form
    source = combined(lowered)
    compile_for_gpus(source, [name for ks in lowered for name in ks.kernels])
    got, want = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for eqn, ks in zip(eqns, lowered):
            got += run_kernels(ks, eqn, [x], source)
            want += reference(eqn, [x])
    return got, want


def product_bound(dtype, n) -> float:
    """docs/internals/cuda.md: |kernel - NumPy| <= 2 g / (1 - g) |NumPy|, g = (1 + 3u)^(n - 1) - 1."""
    u = np.finfo(_part(dtype)).eps / 2
    g = (1 + 3 * u) ** max(n - 1, 0) - 1
    return 2 * g / (1 - g)


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize(("shape", "axis", "form"), CASES)
def test_max_and_min_return_numpys_element_bit_for_bit(dtype, shape, axis, form):
    for seed, nans in [(0, True), (1, False)]:
        x = ties(dtype, shape, seed=seed, nans=nans)
        got, want = run(lambda a: (ast.max(a, axis=axis), ast.min(a, axis=axis)), x, form)
        for g, w, name in zip(got, want, ("max", "min")):
            assert_same_bits(g, w, f"{name} {shape} axis={axis} nans={nans}")


@pytest.mark.parametrize("dtype", COMPLEX)
def test_max_and_min_of_special_values_and_of_each_axis(dtype):
    info = np.finfo(_part(dtype))
    parts = [0.0, -0.0, np.inf, -np.inf, info.smallest_subnormal, info.max, -info.max, 1.0]
    re, im = np.meshgrid(np.array(parts, _part(dtype)), np.array(parts, _part(dtype)))
    z = np.empty(re.shape, dtype)
    z.real, z.imag = re, im
    z = np.concatenate([z, z[::-1], z[:, ::-1]], axis=1)  # every value, in three orders
    for axis, form in [(0, "columns"), (1, "rows"), (None, "whole"), ((0, 1), "whole")]:
        got, want = run(
            lambda a, axis=axis: (ast.max(a, axis=axis), ast.min(a, axis=axis)), z, form
        )
        for g, w in zip(got, want):
            assert_same_bits(g, w, f"axis={axis}")
    # a row reduced from a strided, reversed view: NumPy walks an axis in index order
    view = ties(dtype, (4, 600), seed=2)[:, ::-2]
    got, want = run(lambda a: (ast.max(a, axis=1), ast.min(a, axis=1)), view, "rows")
    for g, w in zip(got, want):
        assert_same_bits(g, w, "reversed view")


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize(("shape", "axis", "form"), CASES)
def test_products_within_the_bound_of_numpys(dtype, shape, axis, form):
    x = unit(dtype, shape)
    (got,), (want,) = run(lambda a: ast.prod(a, axis=axis), x, form)
    n = x.size if axis is None else x.shape[axis]
    error = np.abs(got.astype(np.complex128) - want.astype(np.complex128))
    bound = product_bound(dtype, n) * np.abs(want.astype(np.complex128))
    assert np.all(error <= bound), f"{np.max(error / np.abs(want))} > {product_bound(dtype, n)}"
    if form == "columns":  # NumPy's order and NumPy's SIMD product (its loop along axis 0)
        assert_same_bits(got, want)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_products_where_the_order_does_not_matter_are_numpys(dtype):
    rng = np.random.default_rng(3)
    # Gaussian integers of modulus 2^16 at most in every partial product: each product exact, in any
    # order (16 factors +-1 +-1j, 8 factors +-2 or +-2j, the rest units)
    exact = rng.choice([1, -1, 1j, -1j], size=(6, 300)).astype(dtype)
    exact[:, :16] = rng.choice([1 + 1j, 1 - 1j, -1 + 1j, -1 - 1j], size=(6, 16))
    exact[:, 16:24] = rng.choice([2, -2, 2j, -2j], size=(6, 8))
    for row in exact:
        rng.shuffle(row)
    with_nan = unit(dtype, (6, 300), seed=4)
    with_nan[np.arange(6), rng.integers(0, 300, 6)] = [complex(np.nan, 0), complex(1, np.nan)] * 3
    for axis, form in [(1, "rows"), (0, "columns"), (None, "whole")]:
        (got,), (want,) = run(lambda a, axis=axis: ast.prod(a, axis=axis), exact, form)
        # the values are exact; a zero part's sign depends on the order (NumPy's row loop rounds
        # four products, the kernels fuse two: x - x and -0 + 0 meet in other places)
        np.testing.assert_array_equal(got, want, strict=True, err_msg=f"exact axis={axis}")
        (got,), (want,) = run(lambda a, axis=axis: ast.prod(a, axis=axis), with_nan, form)
        holds_nan = np.isnan(with_nan).any(axis=axis)
        for result in (got, want):
            both = np.isnan(result.real) & np.isnan(result.imag)
            np.testing.assert_array_equal(both, holds_nan, err_msg=f"nan axis={axis}")
            assert np.all(np.isfinite(result[~holds_nan]))
    # one element: NumPy's 1 + 0j times it (inf + 0j gives inf + nan j, -0 - 0j gives 0 - 0j)
    info = np.finfo(_part(dtype))
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, info.smallest_subnormal, 1.5, -info.max]
    re, im = np.meshgrid(np.array(specials, _part(dtype)), np.array(specials, _part(dtype)))
    single = np.empty((re.size, 1), dtype)
    single[:, 0].real, single[:, 0].imag = re.ravel(), im.ravel()
    for x, axis, form in [(single, 1, "rows"), (single.T.copy(), 0, "columns")]:
        (got,), (want,) = run(lambda a, axis=axis: ast.prod(a, axis=axis), x, form)
        assert_same_bits(got, want, f"one element axis={axis}", nan_bits=False)
    for element in single[:, 0]:
        (got,), (want,) = run(lambda a: ast.prod(a), np.array([element]), "whole")
        assert_same_bits(got, want, f"prod([{element}])", nan_bits=False)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_empty_reductions(dtype):
    empty = np.zeros((0,), dtype)
    (got,), (want,) = run(lambda a: ast.prod(a), empty, "whole")
    assert_same_bits(got, want)
    rows = np.zeros((3, 0), dtype)
    (got,), (want,) = run(lambda a: ast.prod(a, axis=1), rows, "rows")
    assert_same_bits(got, want)
    # tracing refuses empty max and min; the kernels, shape-generic, refuse them before a launch
    for name, op in [("maximum", ast.max), ("minimum", ast.min)]:
        (eqn,) = fusion_eqns(lambda a, op=op: op(a, axis=1), np.ones((3, 4), dtype))
        ks = cuda_codegen.lower_region(eqn)
        assert ks is not None, cuda_codegen.why_not(eqn)
        with pytest.raises(ValueError, match=f"zero-size array to reduction operation {name}"):
            ks.launches([rows], [np.empty((3,), dtype)])


def test_jit_of_complex_prod_max_and_min_on_a_cuda_array_runs_cuda_kernels(standin):
    a = ties("complex128", (6, 300), seed=5)
    b = unit("complex128", (6, 300), seed=6)

    def f(x, y):
        return ast.max(x, axis=1), ast.min(x, axis=0), ast.max(x), ast.prod(y * 1.0, axis=1)

    args = [ast.asarray(v, device="cuda") for v in (a, b)]
    text = ast.jit(f).lower(*args).compile().as_text()
    plan_lines = text.split("# optimized")[0]
    assert "cuda kernel (rows)" in plan_lines and "cuda kernel (whole)" in plan_lines
    assert "cuda kernel (columns)" in plan_lines and "cupy rule" not in plan_lines
    got = [np.asarray(out.to_device("cpu")) for out in ast.jit(f)(*args)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for g, w in zip(got[:3], (np.max(a, axis=1), np.min(a, axis=0), np.max(a))):
            assert_same_bits(g, np.asarray(w))
        want = np.prod(b, axis=1)
    assert np.all(np.abs(got[3] - want) <= product_bound("complex128", 300) * np.abs(want))


@pytest.mark.parametrize("dtype", COMPLEX)
def test_max_over_two_axes_and_beside_full_size_outputs(dtype):
    x = ties(dtype, (3, 5, 70), seed=7)
    got, want = run(lambda a: (ast.max(a, axis=(1, 2)), ast.min(a, axis=(1, 2))), x, "rows")
    for g, w in zip(got, want):
        assert_same_bits(g, w, "axes (1, 2)")
    # a row read by two passes (kept in shared memory) and a full-size output
    y = ties(dtype, (4, 300), seed=8, nans=False)
    got, want = run(lambda a: a - ast.max(a, axis=1, keepdims=True), y, "rows")
    assert_same_bits(got[0], want[0], "a - max(a)", nan_bits=False)  # inf - inf makes NaNs
