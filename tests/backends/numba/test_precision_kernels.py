"""float16, bfloat16 and complex regions compiled into numba kernels, against NumPy.

float16/bfloat16 regions compute in float32 and round each output once (codegen_widen.py): a single
operation equals NumPy's float16 loop (which also computes in float32 and rounds once) bit for bit; a
chain equals the float32 computation rounded once, and differs from NumPy's float16 chain (which rounds
after every operation) by at most a few float16 ulps. Reductions accumulate in float32 lanes
(summation_order.py) and round once. Complex kernels give NumPy's bits, special values included. Every
kernel also equals its tier-0 twin bit for bit.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from arraystack.backends import compile_graph
from arraystack.backends.numba import PARALLEL_THRESHOLD
from arraystack.backends.numba.summation_order import kernel_reduce

import arraystack as ast
from tests import oracle

pytestmark = [pytest.mark.numba, pytest.mark.filterwarnings("ignore::RuntimeWarning")]
BF16 = np.dtype(ml_dtypes.bfloat16)
SIZES = [0, 1, 7, 100, PARALLEL_THRESHOLD + 3]  # empty, one, odd, > a vector, the parallel loop
F16_SPECIALS = [
    0.0,
    -0.0,
    np.inf,
    -np.inf,
    np.nan,
    6.0e-8,
    -6.0e-8,
    3.0e-5,
    65504.0,
    -65504.0,
    40000.0,
]


def _values(n, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * 4.0).astype(np.float32)
    specials = np.array(F16_SPECIALS, np.float32)[: min(n, len(F16_SPECIALS))]
    x[: len(specials)] = specials
    return x.astype(dtype)


def _canonical_nans(x):
    """x with every NaN part the same NaN: where both operands of an addition are NaN, which one the
    result keeps is not specified (LLVM may swap a commutative operation's operands)."""
    x = np.array(x)
    if x.dtype.kind == "c":
        x.real, x.imag = _canonical_nans(x.real), _canonical_nans(x.imag)
        return x
    if x.dtype.kind == "f":
        x[np.isnan(x)] = np.nan
    return x


def _compiled(fn, *args):
    """(the outputs of fn's compiled tier, the plan text), after checking them against the tier-0 twin."""
    jitted = ast.jit(fn, tiered=False)
    lowered = jitted.lower(*[ast.asarray(a) for a in args])
    text = lowered.compile().as_text()
    got = jitted(*[ast.asarray(a) for a in args])
    got = [np.asarray(g) for g in (got if isinstance(got, tuple) else (got,))]
    twin = compile_graph(lowered.optimized, "numba", tier=0)(*[np.asarray(a) for a in args])
    nan_free = [_canonical_nans(t) for t in twin], [_canonical_nans(g) for g in got]
    oracle.assert_same_bits(*nan_free, "kernel against its tier-0 twin")
    return got, text


def _kernels_only(text, size=1):
    """The plan runs every region as a numba kernel (empty arrays: the passes fold them away)."""
    plan = text.split("# optimized graph", 1)[0]
    if size == 0:
        return
    assert "numba kernel" in plan and "reference:" not in plan, plan


def _same(expected, got):
    expected, got = np.asarray(expected), np.asarray(got)
    assert expected.dtype == got.dtype and expected.shape == got.shape
    oracle.assert_same_bits([expected], [got])


def _ulps_f16(expected, got):
    """The largest distance in float16 ulps (NaN and inf must match exactly)."""
    e, g = np.asarray(expected, np.float16), np.asarray(got, np.float16)
    assert np.array_equal(np.isnan(e), np.isnan(g))
    finite = np.isfinite(e)
    assert np.array_equal(e[~finite & ~np.isnan(e)], g[~finite & ~np.isnan(e)])
    spacing = np.spacing(np.abs(e[finite]).astype(np.float16)).astype(np.float64)
    diff = np.abs(e[finite].astype(np.float64) - g[finite].astype(np.float64))
    return float((diff / spacing).max(initial=0.0))


# -- conversions: every float16/bfloat16 bit pattern, float32 edges and random bits ---------------------


def test_storage_conversions_give_numpys_and_ml_dtypes_bits():
    import numba
    from arraystack.backends.numba.mathlib import half

    @numba.njit
    def run(fn, x, out):
        for i in range(x.size):
            out[i] = fn(x[i])

    every = np.arange(1 << 16, dtype=np.uint16)
    widened = np.empty(every.size, np.float32)
    for fn, dtype in ((half.f16_to_f32, np.float16), (half.bf16_to_f32, BF16)):
        run(fn, every, widened)
        _same(every.view(dtype).astype(np.float32), widened)
    rng = np.random.default_rng(1)
    bits = np.concatenate(
        [
            rng.integers(0, 1 << 32, 200_000).astype(np.uint32),
            (every.astype(np.uint32) << 16) | 0x8000,  # float16/bfloat16 ties
            (every.astype(np.uint32) << 13) + 0x38001000,
        ]
    )  # float16 ties near 1
    x32 = bits.view(np.float32)
    x64 = np.concatenate(
        [x32.astype(np.float64) * (1 + 2.0**-30), [65519.99, 65520.0, 1 + 2.0**-11 + 2.0**-40]]
    )
    narrowed = np.empty(x64.size, np.uint16)
    with np.errstate(all="ignore"):
        for fn, x, dtype in (
            (half.f32_to_f16, x32, np.float16),
            (half.f64_to_f16, x64, np.float16),
            (half.f32_to_bf16, x32, BF16),
        ):
            run(fn, x, narrowed[: x.size])
            np.testing.assert_array_equal(narrowed[: x.size], x.astype(dtype).view(np.uint16))


# -- float16 elementwise ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_float16_single_operations_equal_numpys_float16_loops(n):
    x, y = _values(n, np.float16, 0), _values(n, np.float16, 1)[::-1].copy()
    (prod, quot, root, big), text = _compiled(
        lambda a, b: (a * b, a / b, ast.sqrt(ast.abs(a)), a * 3.0), x, y
    )
    _kernels_only(text, n)
    _same(x * y, prod)
    _same(x / y, quot)
    _same(np.sqrt(np.abs(x)), root)
    _same(x * np.float16(3.0), big)  # 40000 * 3 rounds to inf


@pytest.mark.parametrize("n", SIZES)
def test_float16_chains_round_once_and_stay_within_ulps_of_numpys_per_operation_rounding(n):
    x, y = _values(n, np.float16, 2), _values(n, np.float16, 3)

    def chain(xp, a, b):
        return xp.exp(a * 0.25 - b * b * 0.1) * a + b

    (got,), text = _compiled(lambda a, b: chain(ast, a, b), x, y)
    _kernels_only(text, n)
    assert got.dtype == np.float16
    x32, y32 = x.astype(np.float32), y.astype(np.float32)
    tenth = np.float32(np.float16(0.1))  # the literal as the float16 graph holds it
    wide = (np.exp(x32 * np.float32(0.25) - y32 * y32 * tenth) * x32 + y32).astype(np.float16)
    assert _ulps_f16(wide, got) <= 1  # exp: mathlib's float32 polynomial, within 4 float32 ulps
    # NumPy rounds to float16 after each of its 6 operations, the kernel once at the end: NumPy's own
    # roundings (up to half an ulp each, of values up to ~16 before the last sum cancels) are the gap
    eps = float(np.finfo(np.float16).eps)
    np.testing.assert_allclose(
        got.astype(np.float32), chain(np, x, y).astype(np.float32), rtol=4 * eps, atol=16 * eps
    )


def test_float16_strided_and_broadcast_operands():
    x = _values(64 * 48, np.float16, 4).reshape(64, 48)
    row, col = x[0].copy(), x[:, :1].copy()
    for operand in (x.T, x[::2, 1::3]):
        (got,), text = _compiled(lambda a: a * 2.0 - 1.0, operand)
        _kernels_only(text)
        _same(
            (operand.astype(np.float32) * np.float32(2.0) - np.float32(1.0)).astype(np.float16), got
        )
    (got,), text = _compiled(lambda a, r, c: a * r + c, x, row, col)
    _kernels_only(text)
    exact = (x.astype(np.float32) * row.astype(np.float32) + col.astype(np.float32)).astype(
        np.float16
    )
    _same(exact, got)


# -- float16 reductions -------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(0, 5), (1, 1), (7, 9), (37, 130), (600, 513)])
def test_float16_sums_accumulate_in_float32_and_round_once(shape):
    x = _values(int(np.prod(shape)), np.float16, 5).reshape(shape)
    x[np.isinf(x) | np.isnan(x) | (np.abs(x) > 1000)] = 1.5  # finite sums; specials below
    for axes in ((0,), (1,), (0, 1)):
        (got,), text = _compiled(lambda a: ast.sum(a * 0.5, axis=axes), x)  # noqa: B023 (called at once)
        _kernels_only(text, x.size)
        half = x.astype(np.float32) * np.float32(0.5)
        _same(kernel_reduce("sum", half, axes).astype(np.float16), got)
        magnitude = float(np.sum(np.abs(half.astype(np.float64)), axis=axes).max(initial=0.0))
        exact = np.sum(half.astype(np.float64), axis=axes)
        eps = float(np.finfo(np.float16).eps)
        # one rounding to float16 (half an ulp) plus the float32 lanes' error, tiny against the terms
        np.testing.assert_allclose(
            got.astype(np.float64), exact, rtol=eps / 2, atol=2.0**-20 * magnitude
        )
        # NumPy's float16 sum rounds its accumulator to float16 per inner loop (every 8192 elements,
        # and after every row it adds for axis 0): within its n * eps/2 bound of the terms' magnitudes
        numpy_sum = np.sum(x * np.float16(0.5), axis=axes).astype(np.float64)
        count = x.size // max(got.size, 1)
        np.testing.assert_allclose(
            got.astype(np.float64), numpy_sum, rtol=0, atol=count * eps / 2 * magnitude + 1e-7
        )


def test_float16_extrema_and_special_values_in_sums():
    x = _values(7 * 130, np.float16, 6).reshape(7, 130)
    (mx, mn, total), text = _compiled(
        lambda a: (ast.max(a, axis=1), ast.min(a, axis=0), ast.sum(a, axis=1)), x
    )
    _kernels_only(text)
    _same(np.max(x, axis=1), mx)
    _same(np.min(x, axis=0), mn)
    # the nan row is nan (which NaN is unspecified: IEEE leaves it open), the inf rows inf
    np.testing.assert_array_equal(np.sum(x, axis=1), total)
    assert total.dtype == np.float16
    big = np.full((3, 40), 60000.0, np.float16)
    (total,), _ = _compiled(lambda a: ast.sum(a, axis=1), big)
    _same(np.sum(big, axis=1), total)  # float32 accumulator, inf only when rounded to float16


def _softmax(xp, a):
    e = xp.exp(a - xp.max(a, axis=-1, keepdims=True))
    return e / xp.sum(e, axis=-1, keepdims=True)


def _layernorm(xp, a):
    mean = xp.mean(a, axis=-1, keepdims=True)
    centered = a - mean
    return centered / xp.sqrt(xp.mean(centered * centered, axis=-1, keepdims=True) + 1e-5)


@pytest.mark.parametrize("dtype", [np.float16, BF16], ids=["float16", "bfloat16"])
@pytest.mark.parametrize("fn", [_softmax, _layernorm], ids=["softmax", "layernorm"])
def test_softmax_and_layernorm_rows_in_low_precision(fn, dtype):
    x = (np.random.default_rng(7).standard_normal((33, 200)) * 3).astype(np.float32).astype(dtype)
    (got,), text = _compiled(lambda a: fn(ast, a), x)
    _kernels_only(text)
    assert got.dtype == dtype
    wide = fn(np, x.astype(np.float64))  # exact, with float64 constants (the graph's 1/n, 1e-5 are
    eps = float(
        ml_dtypes.finfo(dtype).eps
    )  # dtype's own, which moves values near 0 by ~1e-4 of them)
    np.testing.assert_allclose(got.astype(np.float64), wide, rtol=eps, atol=2 * eps)


# -- bfloat16 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_bfloat16_chains_and_sums_round_once_from_float32(n):
    x = (_values(n, np.float32, 8) * np.float32(30.0)).astype(
        BF16
    )  # 40000 * 30 stays finite in bfloat16
    x32 = x.astype(np.float32)
    (got, total), text = _compiled(lambda a: (a * 3.0 - a * a, ast.sum(ast.abs(a))), x)
    _kernels_only(text, n)
    _same((x32 * np.float32(3.0) - x32 * x32).astype(BF16), got)
    _same(kernel_reduce("sum", np.abs(x32), (0,)).astype(BF16), total)


def test_conversions_between_storage_dtypes_round_where_written():
    x = _values(1000, np.float32, 9) * np.float32(3.3)
    (h, b, back), text = _compiled(
        lambda a: (
            a.astype(np.float16) * 1.0,
            a.astype(ast.bfloat16),
            a.astype(np.float16).astype(np.float32) - a,
        ),
        x,
    )
    _kernels_only(text)
    _same(x.astype(np.float16), h)
    _same(x.astype(BF16), b)
    _same(x.astype(np.float16).astype(np.float32) - x, back)
    d = x.astype(np.float64) * (1 + 2.0**-30)
    (h,), _ = _compiled(lambda a: (a * 1.0).astype(np.float16), d)
    _same(d.astype(np.float16), h)  # float64 -> float16 rounds once


# -- complex ------------------------------------------------------------------------------------------

_PARTS = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan, 1e-40, 3e38]


def _complex_values(dtype, n):
    specials = np.array([complex(a, b) for a in _PARTS for b in _PARTS])
    rng = np.random.default_rng(10)
    z = rng.standard_normal(n) * 10.0 ** rng.integers(-5, 5, n) + 1j * rng.standard_normal(n)
    return np.concatenate([specials, z])[:n].astype(dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("n", SIZES)
def test_complex_elementwise_gives_numpys_bits(dtype, n):
    z = _complex_values(dtype, n)
    w = np.roll(_complex_values(dtype, n * 3)[::3], 5) if n else z

    def ops(a, b):
        return (
            a * b,
            a / b,
            -a + b,
            ast.abs(a),
            ast.conj(a) - b,
            ast.real(a) * ast.imag(b),
            a == b,
            ast.where(ast.real(a) > 0, a, b),
        )

    got, text = _compiled(ops, z, w)
    _kernels_only(text, n)
    with np.errstate(all="ignore"):
        expected = (
            z * w,
            z / w,
            -z + w,
            np.abs(z),
            np.conj(z) - w,
            z.real * w.imag,
            z == w,
            np.where(z.real > 0, z, w),
        )
    for e, g in zip(expected, got):
        _same(_canonical_nans(e), _canonical_nans(g))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(1, 1), (9, 70), (300, 129)])
def test_complex_sums_add_real_and_imaginary_parts_in_the_kernels_order(dtype, shape):
    rng = np.random.default_rng(11)
    z = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    for axes in ((0,), (1,), (0, 1)):
        (got,), text = _compiled(lambda a: ast.sum(a * a, axis=axes), z)  # noqa: B023 (called at once)
        _kernels_only(text)
        sq = z * z  # NumPy's product bits are the kernel's
        exact = kernel_reduce("sum", sq.real, axes) + 1j * kernel_reduce("sum", sq.imag, axes)
        _same(exact.astype(dtype), got)
        tol = 1e-5 if dtype == np.complex64 else 1e-13
        np.testing.assert_allclose(got, np.sum(sq, axis=axes), rtol=tol, atol=tol * np.sqrt(z.size))


def test_complex_functions_numba_computes_otherwise_stay_on_numpy_and_say_so():
    z = _complex_values(np.complex64, 200)
    (got,), text = _compiled(lambda a: ast.exp(a) * 2.0 + ast.sin(a) + ast.prod(a), z)
    plan = text.split("# optimized graph", 1)[0]
    assert "sin" in plan  # a NumPy step of its own
    assert "exp" not in plan and "reduce_prod" not in plan and "numba kernel" in plan
    with np.errstate(all="ignore"):
        expected = np.exp(z) * np.complex64(2.0) + np.sin(z) + np.prod(z)
    _same(_canonical_nans(expected), _canonical_nans(got))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("n", SIZES)
def test_complex_exp_and_sqrt_give_numpys_bits(dtype, n):
    # libm's cexp and csqrt as NumPy calls them: overflow split in factors, scaling near the ends of the
    # range, C99's special values, signed zeros
    info = np.finfo(dtype)
    big = 1000.0 if dtype == np.complex128 else 120.0
    parts = [0.0, -0.0, 1e-310, 0.5, -3.0, big, big * 1.5, big * 2.5, -big, np.inf, -np.inf, np.nan]
    parts += [float(info.tiny), float(info.tiny) / 8, float(info.max) / 2, -float(info.max)]
    special = np.array([complex(a, b) for a in parts for b in parts])
    with np.errstate(over="ignore"):
        z = np.concatenate([special, _complex_values(dtype, n)]).astype(dtype)
    (got_exp, got_sqrt), text = _compiled(lambda a: (ast.exp(a) + 1.0, ast.sqrt(a) * 2.0), z)
    _kernels_only(text)
    with np.errstate(all="ignore"):
        expected = (np.exp(z) + dtype(1.0), np.sqrt(z) * dtype(2.0))
    _same(_canonical_nans(expected[0]), _canonical_nans(got_exp))
    _same(_canonical_nans(expected[1]), _canonical_nans(got_sqrt))


def _log_arguments(dtype, n=2_500):
    """Every pair of special parts, then n values of each of clog's cases: magnitudes over the whole
    range (subnormal to huge), |z| within 1e-17..1e-1 of 1, a larger part of exactly 1, larger parts
    in (1, 2) and in [1/2, 1) with any smaller part, and x^2 + y^2 near 1 (log1p of x^2 + y^2 - 1
    summed exactly); each also rotated by a quarter turn and negated."""
    info = np.finfo(dtype)
    tiny, least, huge = float(info.tiny), float(info.smallest_subnormal), float(info.max)
    parts = [0.0, -0.0, np.inf, -np.inf, np.nan, tiny, -tiny / 8, least, -least, huge, -huge / 1.5]
    parts += [1.0, -1.0, 0.5, float(info.eps), 1.0 + float(info.eps)]
    special = np.array([complex(a, b) for a in parts for b in parts])
    rng = np.random.default_rng(12)
    signs = rng.choice([-1.0, 1.0], (2, n))
    spread = 10.0 ** rng.uniform(np.log10(least), np.log10(huge), (2, n)) * signs
    angle = rng.uniform(-np.pi, np.pi, n)
    circle = (1.0 + rng.standard_normal(n) * 10.0 ** rng.uniform(-17, -1, n)) * np.exp(1j * angle)
    small = 10.0 ** rng.uniform(np.log10(least), 0.0, n)
    near = rng.uniform(0.5, 1.0, n)
    off = 1.0 + rng.standard_normal(n) * 10.0 ** rng.uniform(-16, -3, n)
    other = np.sqrt(1.0 - near**2) * off
    cases = [spread[0] + 1j * spread[1], circle, 1.0 + 1j * small]
    cases += [rng.uniform(1.0, 2.0, n) + 1j * small, near + 1j * small, near + 1j * other]
    with np.errstate(over="ignore"):
        z = np.concatenate(cases).astype(dtype)
    return np.concatenate([special.astype(dtype), z, -z.imag + 1j * z.real, -z])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_log_log2_and_log10_give_numpys_bits(dtype):
    # libm's clog as NumPy calls it (in the parts' float type: logf, log1pf, hypotf and atan2f for
    # complex64), log2 and log10 as NumPy's loops scale it; NaN payloads and signed zeros included
    z = _log_arguments(dtype)
    got, text = _compiled(lambda a: (ast.log(a), ast.log2(a), ast.log10(a)), z)
    _kernels_only(text)
    with np.errstate(all="ignore"):
        expected = [np.log(z), np.log2(z), np.log10(z)]
    oracle.assert_same_bits(expected, got, "log, log2, log10")
