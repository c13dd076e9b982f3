"""The vectorizable math of generated numba kernels: <= 4 ulp from NumPy over the whole input range."""

import math

import numpy as np
import pytest

pytestmark = pytest.mark.numba

mathlib = pytest.importorskip("arraystack.backends.numba.mathlib.exp_log")
mathlib_scale = pytest.importorskip("arraystack.backends.numba.mathlib.scale")
mathlib_erf = pytest.importorskip("arraystack.backends.numba.mathlib.erf")
mathlib_log1p = pytest.importorskip("arraystack.backends.numba.mathlib.log1p")
numba = pytest.importorskip("numba")


def ulp_distance(a, b):
    """Units in the last place between same-dtype float arrays (nan == nan, inf == inf)."""
    itype = np.int64 if a.dtype == np.float64 else np.int32
    ia = a.view(itype).astype(np.int64)
    ib = b.view(itype).astype(np.int64)
    low = np.iinfo(itype).min
    ia = np.where(ia < 0, low - ia, ia)
    ib = np.where(ib < 0, low - ib, ib)
    d = np.abs(ia - ib)
    d[(np.isnan(a) & np.isnan(b)) | (a == b)] = 0
    d[np.isnan(a) != np.isnan(b)] = np.iinfo(np.int64).max
    return d


def sample(dtype):
    rng = np.random.default_rng(1234)
    fi = np.finfo(dtype)
    special = [
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        np.nan,
        fi.tiny,
        fi.tiny / 4,
        fi.smallest_subnormal,
        fi.max,
        -fi.max,
        fi.eps,
        -fi.eps,
        1.0,
        -1.0,
        0.5,
        2.0,
    ]
    edges = [
        88.72,
        88.7228,
        88.73,
        -103.97,
        -103.98,
        -87.33,
        709.78,
        709.79,
        -745.13,
        -745.14,
        -708.4,
        17.5,
        -17.5,
        38.0,
        -38.0,
        9.1,
        22.0,
        1e-8,
        -1e-8,
        0.3466,
        -0.3466,
    ]
    with np.errstate(over="ignore"):
        parts = [
            rng.standard_normal(20000) * 3,
            rng.uniform(-800, 800, 20000),
            np.exp(rng.uniform(-740, 709, 20000)),
            -np.exp(rng.uniform(-740, 709, 5000)),
            np.array(special + edges),
        ]
        return np.concatenate(parts).astype(dtype)


def kernel_function(name, dtype):
    """The kernels' function for `name` on dtype (float64 erf lives in mathlib_erf.py)."""
    module = mathlib_erf if name == "erf" else mathlib
    module = mathlib_log1p if name == "log1p" else module
    return getattr(module, f"{name}_{'f32' if dtype == np.float32 else 'f64'}")


def _run(fn, x):
    @numba.njit(error_model="numpy")  # the flags of generated elementwise kernels
    def loop(x, out):
        for i in range(x.size):
            out[i] = fn(x[i])

    out = np.empty_like(x)
    loop(x, out)
    return out


def _logistic_oracle(x):
    x64 = x.astype(np.float64)
    e = np.exp(-np.abs(x64))
    return np.where(x64 >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype)


_libm_erf = np.frompyfunc(math.erf, 1, 1)


def _erf_oracle(x):
    """NumPy has no erf: libm's float64 erf (math.erf), rounded once to x's dtype."""
    return _libm_erf(x.astype(np.float64)).astype(np.float64).astype(x.dtype)


ORACLES = {
    "exp": np.exp,
    "expm1": np.expm1,
    "log": np.log,
    "tanh": np.tanh,
    "logistic": _logistic_oracle,
    "erf": _erf_oracle,
    "log1p": np.log1p,
}


@pytest.mark.parametrize("name", sorted(ORACLES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_max_error_within_4_ulp(name, dtype):
    x = sample(dtype)
    fn = kernel_function(name, dtype)
    with np.errstate(all="ignore"):
        got = _run(fn, x)
        want = ORACLES[name](x)
    assert got.dtype == want.dtype == dtype
    d = ulp_distance(got, want)
    worst = int(np.argmax(d))
    assert d.max() <= 4, (
        f"{name}({x[worst]!r}) = {got[worst]!r}, NumPy {want[worst]!r}: {d.max()} ulp"
    )


@pytest.mark.parametrize("fn,np_fn", [(mathlib.maximum, np.maximum), (mathlib.minimum, np.minimum)])
def test_maximum_minimum_match_numpy_on_nan_and_signed_zero(fn, np_fn):
    values = np.array([0.0, -0.0, 1.0, -1.0, np.nan, np.inf, -np.inf])
    a, b = np.meshgrid(values, values)
    a, b = a.ravel(), b.ravel()

    @numba.njit
    def loop(a, b, out):
        for i in range(a.size):
            out[i] = fn(a[i], b[i])

    out = np.empty_like(a)
    loop(a, b, out)
    want = np_fn(a, b)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(want))


def test_tanh_f32_dense_within_4_ulp():
    """Every 1024th float32 in [0, 10.5] and its negation (past the clamp at 10), where the random sample
    is thin; odd bit for bit (tanh_f32 works on |x| and restores the sign)."""
    top = np.array(10.5, np.float32).view(np.int32)
    x = np.arange(0, int(top), 1024, dtype=np.int32).view(np.float32)
    x = np.concatenate([x, -x])
    got = _run(mathlib.tanh_f32, x)
    d = ulp_distance(got, np.tanh(x))
    worst = int(np.argmax(d))
    assert d.max() <= 4, f"tanh({x[worst]!r}) = {got[worst]!r}, NumPy {np.tanh(x[worst])!r}"
    np.testing.assert_array_equal(got[: x.size // 2], -got[x.size // 2 :])  # odd, bit for bit


def _consecutive_f32(center, count):
    mid = int(np.array(center, np.float32).view(np.int32))
    return np.arange(max(mid - count, 0), mid + count, dtype=np.int32).view(np.float32)


def test_tanh_f32_edges():
    """Every float32 around tanh_f32's edges: where the reduction's k = round(2|x| / ln2) steps (x =
    (k + 1/2) ln2/2, k = 0..28), where E + 1 starts to round to E (13 ln2 ~ 9.011: tanh is 1 from there),
    the clamp at 10, and tiny |x| (tanh(x) is x exactly: +-0.0, the denormals, around 2**-26). Within 4 ulp
    and odd bit for bit."""
    half_ln2 = math.log(2) / 2
    windows = [_consecutive_f32((k + 0.5) * half_ln2, 1 << 12) for k in range(29)]
    windows += [_consecutive_f32(13 * math.log(2), 1 << 14), _consecutive_f32(10.0, 1 << 12)]
    x = np.concatenate(windows)
    tiny = np.concatenate([_consecutive_f32(0.0, 1 << 16), _consecutive_f32(2.0**-26, 1 << 16)])
    ones = np.array([10.0, 9.0117, 1e30, np.inf], np.float32)
    both = np.concatenate([x, tiny, ones])
    both = np.concatenate([both, -both])
    got = _run(mathlib.tanh_f32, both)  # one compile: _run builds a new loop per call
    half = both.size // 2
    np.testing.assert_array_equal(got[half:].view(np.uint32), (-got[:half]).view(np.uint32))  # odd
    d = ulp_distance(got, np.tanh(both))
    worst = int(np.argmax(d))
    assert d.max() <= 4, f"tanh({both[worst]!r}) = {got[worst]!r}, NumPy {np.tanh(both[worst])!r}"
    assert got[x.size + tiny.size : half].tolist() == [1] * 4
    tiny_got = got[
        x.size : x.size + tiny.size
    ]  # +-0.0 (as the odd check shows), denormals, ~2**-26
    np.testing.assert_array_equal(tiny_got.view(np.uint32), tiny.view(np.uint32))


def _signed_window(center, count):
    """`count` consecutive float32 on each side of |center|, with center's sign."""
    window = _consecutive_f32(abs(center), count)
    return -window if math.copysign(1.0, center) < 0 else window


def test_exp_f32_dense_within_4_ulp():
    """Every 512th float32 from -105 to 90 (exp is neither 0 nor inf, nor 1 for small |x|, in between)."""
    top = int(np.array(105.0, np.float32).view(np.int32))
    x = np.arange(0, top, 512, dtype=np.int32).view(np.float32)
    x = np.concatenate([x[x <= 90], -x])
    with np.errstate(over="ignore"):
        got, want = _run(mathlib.exp_f32, x), np.exp(x)
    d = ulp_distance(got, want)
    worst = int(np.argmax(d))
    assert d.max() <= 4, f"exp({x[worst]!r}) = {got[worst]!r}, NumPy {want[worst]!r}: {d.max()} ulp"


def test_exp_f32_edges():
    """Every float32 around exp_f32's edges: where its reduction's k = round(x / ln2) steps (x = (k + 1/2)
    ln2), both sides of 0 (the sign picks the split of 2**k; exp is 1 there, exactly from |x| < 2**-25 on:
    +-0.0, the denormals), where exp turns denormal (-87.3365), 0 (-103.972) and inf (88.7228), and the
    clamps at -105 and 90. Within 4 ulp; the specials exactly."""
    ln2 = math.log(2)
    centers = [(k + 0.5) * ln2 for k in range(-151, 128, 9)] + [
        -87.3365,
        -103.972,
        88.7228,
        -105.0,
        90.0,
    ]
    x = np.concatenate([_signed_window(c, 1 << 11) for c in centers])
    tiny = np.concatenate([_signed_window(c, 1 << 14) for c in (0.0, -0.0, 2.0**-25, -(2.0**-25))])
    specials = np.array(
        [np.inf, -np.inf, np.nan, 1e30, -1e30, np.finfo(np.float32).max], np.float32
    )
    both = np.concatenate([x, tiny, specials])
    with np.errstate(over="ignore"):
        got, want = _run(mathlib.exp_f32, both), np.exp(both)
    d = ulp_distance(got, want)
    worst = int(np.argmax(d))
    assert d.max() <= 4, (
        f"exp({both[worst]!r}) = {got[worst]!r}, NumPy {want[worst]!r}: {d.max()} ulp"
    )
    assert (got[~np.isnan(both)] >= 0).all() and not np.signbit(got).any()
    small = np.abs(tiny) < 2.0**-25
    assert (got[x.size : x.size + tiny.size][small] == 1).all()
    assert got[-6] == np.inf and got[-5] == 0 and np.isnan(got[-4])
    assert got[-3:].tolist() == [np.inf, 0.0, np.inf]


def test_generated_kernels_prefer_512_bit_vectors():
    """The kernel's loop function carries LLVM's "prefer-vector-width"="512" (x86's cost model otherwise
    picks 256-bit vectors on AVX-512 CPUs), also inside a parallel loop's outlined body."""
    from arraystack.backends.numba.intrinsics import prefer_wide_vectors

    @numba.njit(parallel=True)
    def loop(x, out):
        for i in numba.prange(x.size):
            prefer_wide_vectors()
            out[i] = mathlib.exp_f32(x[i])

    x = np.linspace(-3, 3, 100, dtype=np.float32)
    out = np.empty_like(x)
    loop(x, out)
    np.testing.assert_allclose(out, np.exp(x), rtol=1e-6)
    (llvm_ir,) = loop.inspect_llvm().values()
    assert '"prefer-vector-width"="512"' in llvm_ir


def test_kernels_with_vector_math_or_row_reductions_ask_for_512_bit_vectors():
    import arraystack as ast

    def source(fn, *args):
        return ast.jit(fn).lower(*[ast.asarray(a) for a in args]).compile().source

    x = np.linspace(-2, 2, 64, dtype=np.float32).reshape(8, 8)
    assert "prefer_wide_vectors()" in source(lambda a: ast.tanh(a * 2 + 1) + ast.exp(-a), x)
    softmax = source(lambda a: ast.exp(a - ast.max(a, axis=-1, keepdims=True)), x)
    assert "prefer_wide_vectors()" in softmax

    def layernorm(a):
        d = a - ast.mean(a, axis=1, keepdims=True)
        return d / ast.sqrt(ast.mean(d * d, axis=1, keepdims=True) + 1e-5)

    assert "prefer_wide_vectors()" in source(layernorm, x)  # passes after the first run from L1
    assert "prefer_wide_vectors()" not in source(lambda a: ast.sum(a * a), x)  # memory-bound
    assert "prefer_wide_vectors()" not in source(lambda a: ast.sum(a, axis=0), x)  # columns
    assert "prefer_wide_vectors()" not in source(lambda a: a * 2 + 1, x)


@pytest.mark.parametrize("name", sorted(ORACLES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_signed_zeros_and_the_range_of_tanh_match_numpy(name, dtype):
    """ulp_distance counts -0.0 and +0.0 as equal: here the signs must agree too (expm1(-0.0) and
    tanh(-0.0) are -0.0), and tanh stays within [-1, 1] and is +-1 at +-inf."""
    fi = np.finfo(dtype)
    x = np.array([0.0, -0.0, fi.smallest_subnormal, -fi.smallest_subnormal, -1e-30, 1e-30], dtype)
    with np.errstate(all="ignore"):
        out, want = (
            _run(kernel_function(name, dtype), x),
            ORACLES[name](x),
        )
    zero = want == 0
    np.testing.assert_array_equal(np.signbit(out[zero]), np.signbit(want[zero]))
    if name == "tanh":
        y = _run(mathlib.tanh_f32 if dtype == np.float32 else mathlib.tanh_f64, sample(dtype))
        assert np.all(np.abs(y[~np.isnan(y)]) <= 1)
        assert _run(
            mathlib.tanh_f32 if dtype == np.float32 else mathlib.tanh_f64,
            np.array([np.inf, -np.inf], dtype),
        ).tolist() == [1, -1]


def test_erf_f32_edges_within_1_ulp():
    """Every float32 around erf_f32's edges, both signs: tiny |x| (+-0.0, the denormals, erf(x) ~ 1.128 x),
    the switch between its two polynomials at 1, the center of the second at 2.5, where erf rounds to 1
    (3.9192) and the clamp at 4; plus every 4096th float32 below 4.5. Within 1 ulp of libm's erf rounded
    (the exhaustive check's bound), odd bit for bit, and +-1 from 3.9205 on (mathlib_constants.py)."""
    windows = [_consecutive_f32(c, 1 << 13) for c in (0.0, 1.0, 2.5, 3.9192059, 4.0)]
    sweep = np.arange(0, int(np.array(4.5, np.float32).view(np.int32)), 4096, dtype=np.int32)
    x = np.concatenate(windows + [sweep.view(np.float32), np.array([1e30, np.inf], np.float32)])
    both = np.concatenate([x, -x])
    got = _run(mathlib_erf.erf_f32, both)
    half = both.size // 2
    np.testing.assert_array_equal(got[half:].view(np.uint32), (-got[:half]).view(np.uint32))  # odd
    want = _erf_oracle(both)
    d = ulp_distance(got, want)
    worst = int(np.argmax(d))
    assert d.max() <= 1, f"erf({both[worst]!r}) = {got[worst]!r}, libm {want[worst]!r}: {d.max()} ulp"
    assert (got[:half][x >= np.float32(3.9205)] == 1).all()
    assert np.signbit(got[half:][x == 0]).all() and not np.signbit(got[:half][x == 0]).any()


def _compiled_with_scale_path(fn, scalef, monkeypatch):
    """`fn` recompiled in a loop with exp_scale_f32/scale_pow2_f64 lowered one way (the choice is made when
    the intrinsics are typed: mathlib's own compiled functions keep the host's)."""
    monkeypatch.setattr(mathlib_scale, "_target_scales_in_one_instruction", lambda: scalef)
    one = numba.njit(fn.py_func)

    @numba.njit
    def run(x, out):
        for i in range(x.size):
            out[i] = one(x[i])

    x = np.zeros(1, fn.py_func.__name__.endswith("f32") and np.float32 or np.float64)
    run(x, np.empty_like(x))
    return run


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_both_ways_of_scaling_by_2_to_the_k_give_the_same_bits(dtype, monkeypatch):
    """exp's last step, 2**k times the polynomial, is llvm.ldexp (VSCALEFPS/PD) where the target has
    AVX-512 and products of normal powers of two elsewhere; both round once where the result is normal
    and again where it is denormal, so every input gives the same bits either way. Checked on every
    257th float32 bit pattern (float64: 2**20 random ones), and densely where results turn denormal,
    0 and inf."""
    fn = mathlib.exp_f32 if dtype == np.float32 else mathlib.exp_f64
    itype = np.int32 if dtype == np.float32 else np.int64
    if dtype == np.float32:
        x = np.arange(-(2**31), 2**31, 257, dtype=np.int64).astype(np.int32).view(np.float32)
        edges = (-87.3365, -103.972, 88.7228, -105.0, 90.0, 0.0)
    else:
        x = (
            np.random.default_rng(5)
            .integers(-(2**63), 2**63 - 1, 2**20, dtype=np.int64)
            .view(np.float64)
        )
        edges = (-708.4, -745.1332191019412, 709.782712893384, -746.0, 710.0, 0.0)
    near = np.concatenate([np.linspace(e - 0.5, e + 0.5, 20001, dtype=dtype) for e in edges])
    x = np.concatenate([x, near, np.array([np.inf, -np.inf, np.nan], dtype)])
    outs = []
    for scalef in (False, True):
        run = _compiled_with_scale_path(fn, scalef, monkeypatch)
        out = np.empty_like(x)
        run(x, out)
        outs.append(out)
    differ = np.flatnonzero(outs[0].view(itype) != outs[1].view(itype))
    assert differ.size == 0, (
        f"exp({x[differ[0]]!r}): {outs[0][differ[0]]!r} vs {outs[1][differ[0]]!r}"
    )
    with np.errstate(over="ignore", invalid="ignore"):  # signaling NaNs among the bit patterns
        want = np.exp(x)
    assert ulp_distance(outs[0], want).max() <= 4


def test_erf_f64_within_1_ulp_of_libm_and_mpmath():
    """float64 erf (mathlib_erf.py) around its edges (the switch at 1, the center 3.5 of the second
    polynomial, 5.92 where erf rounds to 1, the clamp at 6, tiny and denormal |x|) and over a sweep of
    [0, 7]: within 1 ulp of libm's erf everywhere, within 1 ulp of the correctly rounded value (mpmath)
    on a sample, odd bit for bit."""
    rng = np.random.default_rng(5)
    centers = np.array([1.0, 3.5, 5.921587, 6.0, 1e-300, 5e-324, 2.0**-27])
    bits = centers.view(np.int64)[:, None] + np.arange(-300, 301, dtype=np.int64)[None, :]
    x = np.concatenate([bits.ravel().view(np.float64), np.linspace(0, 7, 200_001), [0.0, np.inf]])
    x = x[x >= 0]
    both = np.concatenate([x, -x])
    got = _run(mathlib_erf.erf_f64, both)
    half = both.size // 2
    np.testing.assert_array_equal(got[half:].view(np.uint64), (-got[:half]).view(np.uint64))
    d = ulp_distance(got, _erf_oracle(both))
    worst = int(np.argmax(d))
    assert d.max() <= 1, f"erf({both[worst]!r}) = {got[worst]!r}, libm {_erf_oracle(both)[worst]!r}"
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    pick = rng.choice(x.size, 2000, replace=False)
    exact = np.array([float(mpmath.erf(mpmath.mpf(float(v)))) for v in x[pick]])
    assert ulp_distance(got[pick], exact).max() <= 1
