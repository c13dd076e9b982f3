"""mathlib_trig's sin, cos and tan: <= 4 ulp from NumPy over the whole input range, within 1 ulp of the correctly
rounded result (mpmath) at the reduction's hardest arguments, the fast float32 variant bit for bit equal
to the full one where it holds, and loops calling them vectorized."""

import math

import numpy as np
import pytest

pytestmark = pytest.mark.numba

numba = pytest.importorskip("numba")
trig = pytest.importorskip("arraystack.backends.numba.mathlib.trig")
constants = pytest.importorskip("arraystack.backends.numba.mathlib.trig_constants")
from tests.backends.test_mathlib import ulp_distance  # noqa: E402

SUFFIX = {np.float32: "f32", np.float64: "f64"}


def _loop(fn):
    @numba.njit(error_model="numpy")  # the flags of generated elementwise kernels
    def loop(x, out):
        for i in range(x.size):
            out[i] = fn(x[i])

    return loop


_LOOPS = {}


def run(name, x):
    key = (name, x.dtype)
    if key not in _LOOPS:
        _LOOPS[key] = _loop(getattr(trig, name))
    out = np.empty_like(x)
    _LOOPS[key](x, out)
    return out


def neighbours(values, dtype, count=3):
    """Each value and `count` floats on either side of it (as dtype)."""
    itype = np.int64 if dtype == np.float64 else np.int32
    bits = np.asarray(values, dtype).view(itype)
    steps = np.arange(-count, count + 1, dtype=itype)
    return (bits[:, None] + steps[None, :]).ravel().view(dtype)


def sample(dtype):
    rng = np.random.default_rng(2024)
    fi = np.finfo(dtype)
    log_lo, log_hi = math.log(float(fi.smallest_subnormal)), math.log(float(fi.max))
    half_pis = np.arange(1, 2000) * (math.pi / 2)
    with np.errstate(over="ignore"):
        parts = [
            rng.standard_normal(20000) * 3,
            rng.uniform(-1e6, 1e6, 20000),
            rng.uniform(-4e6, 4e6, 10000),  # across float32's fast bound, 2**20
            np.exp(rng.uniform(log_lo, log_hi, 20000)),
            -np.exp(rng.uniform(log_lo, log_hi, 10000)),
            neighbours(half_pis, dtype, 2),
            -neighbours(half_pis[:200], dtype, 2),
            neighbours([2.0**20, 2.0**-27, 2.0**-12, 1e22, float(fi.max)], dtype, 5),
            np.array([0.0, -0.0, np.inf, -np.inf, np.nan, fi.tiny, fi.smallest_subnormal, -fi.max]),
        ]
        return np.concatenate([np.asarray(part).astype(dtype) for part in parts])


@pytest.mark.parametrize("name,np_fn", [("sin", np.sin), ("cos", np.cos), ("tan", np.tan)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_within_4_ulp_of_numpy(name, np_fn, dtype):
    x = sample(dtype)
    got = run(f"{name}_{SUFFIX[dtype]}", x)
    with np.errstate(invalid="ignore"):
        want = np_fn(x)
    d = ulp_distance(got, want)
    worst = int(np.argmax(d))
    assert d.max() <= 4, (
        f"{name}({x[worst]!r}) = {got[worst]!r}, NumPy {want[worst]!r}: {d.max()} ulp"
    )
    assert np.isnan(got[np.isinf(x)]).all()
    assert np.isnan(got[np.isnan(x)]).all()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_odd_and_even_bit_for_bit(dtype):
    x = sample(dtype)
    x = x[np.isfinite(x)]  # (inf gives a NaN, negated as any other value)
    itype = np.uint32 if dtype == np.float32 else np.uint64
    sin_x, sin_minus = run(f"sin_{SUFFIX[dtype]}", x), run(f"sin_{SUFFIX[dtype]}", -x)
    np.testing.assert_array_equal((-sin_minus).view(itype), sin_x.view(itype))  # incl. sin(-0.0)
    cos_x, cos_minus = run(f"cos_{SUFFIX[dtype]}", x), run(f"cos_{SUFFIX[dtype]}", -x)
    np.testing.assert_array_equal(cos_minus.view(itype), cos_x.view(itype))
    tan_x, tan_minus = run(f"tan_{SUFFIX[dtype]}", x), run(f"tan_{SUFFIX[dtype]}", -x)
    np.testing.assert_array_equal((-tan_minus).view(itype), tan_x.view(itype))


def test_float64_hardest_reductions_against_mpmath():
    """Doubles closest to multiples of pi/2 (where x mod pi/2 keeps only its last ~60 bits) and huge ones:
    within 1 ulp of the correctly rounded value (NumPy's own cos misses the first by 8 ulp)."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.prec = 2200
    hard = [6381956970095103 * 2.0**797, 5319372648326541 * 2.0**-100 * 2.0**100, 1e300, 1.7e308]
    hard += [2.0**k * 1.5707963267948966 for k in range(0, 1000, 37)]
    rng = np.random.default_rng(7)
    hard += list(np.exp(rng.uniform(0, 709, 60)))
    x = neighbours(hard, np.float64, 1)
    for name, bound in (("sin", 1), ("cos", 1), ("tan", 2)):  # tan: a quotient of the two
        got = run(f"{name}_f64", x)
        want = np.array([float(getattr(mpmath, name)(mpmath.mpf(float(v)))) for v in x])
        d = ulp_distance(got, want)
        worst = int(np.argmax(d))
        assert d.max() <= bound, f"{name}({x[worst]!r}) = {got[worst]!r}, exact {want[worst]!r}"


def test_float32_strided_over_all_bit_patterns():
    """Every 4099th float32 bit pattern (1.05 million, all exponents): within 1 ulp of float64 libm's
    result rounded once (tools/mathlib_exhaustive.py runs all 2**32)."""
    x = np.arange(0, 1 << 32, 4099, dtype=np.uint64).astype(np.uint32).view(np.float32)
    with np.errstate(invalid="ignore"):
        for name, np_fn in (("sin", np.sin), ("cos", np.cos), ("tan", np.tan)):
            got = run(f"{name}_f32", x)
            want = np_fn(x.astype(np.float64)).astype(np.float32)
            d = ulp_distance(got, want)
            worst = int(np.argmax(d))
            assert d.max() <= 1, f"{name}({x[worst]!r}) = {got[worst]!r}, libm {want[worst]!r}"


def test_float32_fast_variant_equals_the_full_one_below_its_bound():
    x = sample(np.float32)
    x = np.concatenate([x, neighbours([constants.TRIG_FAST_F], np.float32, 64)])
    inside = np.abs(x) <= constants.TRIG_FAST_F  # the fast variants' domain
    for name in ("sin", "cos", "tan"):
        full = run(f"{name}_f32", x)[inside]
        fast = run(f"{name}_f32_fast", x)[inside]
        np.testing.assert_array_equal(fast.view(np.uint32), full.view(np.uint32))


def test_reduction_tables_hold_2_over_pi():
    """Each float64 row sums to (2**(E-1075) * 2/pi) mod 4 within the truncation (2**-185 and below)."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.prec = 2600
    two_over_pi = 2 / mpmath.pi
    for e in (1, 500, 1023, 1075, 1500, 2046):
        exact = mpmath.mpf(2) ** (e - 1075) * two_over_pi
        exact -= 4 * mpmath.floor(exact / 4)
        row = sum(mpmath.mpf(float(v)) for v in constants.TRIG_TABLE[e])
        assert 0 <= exact - row < mpmath.mpf(2) ** -185
    assert constants.PIO2_HI == math.pi / 2 and constants.TWO_OVER_PI == 2 / math.pi
    assert constants.PIO2_A + constants.PIO2_B - mpmath.pi / 2 < mpmath.mpf(2) ** -82


@pytest.mark.parametrize("name", ["sin_f64", "sin_f32", "cos_f32_fast", "tan_f64", "tan_f32"])
def test_loops_vectorize(name):
    dtype = np.float64 if name.endswith("f64") else np.float32
    loop = _loop(getattr(trig, name))
    x = np.ones(64, dtype)
    loop(x, np.empty_like(x))
    ir = loop.inspect_llvm(loop.signatures[0])
    assert "llvm.fma.v" in ir, f"{name}: the loop calling it did not vectorize"


def _fusions(f, *args):
    return f.lower(*args).compile().as_text().split("# optimized graph")[0].count("fusion")


def test_jitted_loops_check_blocks_in_flat_nested_and_donated_kernels():
    """float32 sin and cos in generated loops: the fast variants on blocks whose arguments are all <=
    2**20, the full functions on the others, in a serial flat kernel (its loop a function of its own),
    a nested one (the arguments broadcast, checked along the last axis) and one writing over its donated
    input; each gives the full functions' bits (NumPy twin), which eager-NumPy float32 arithmetic then
    rounds as NumPy does."""
    import arraystack as ast
    from arraystack.backends.numba.mathlib.twins import numpy_twin

    sin, cos = numpy_twin("sin", np.float32), numpy_twin("cos", np.float32)
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(10_000) * 10).astype(np.float32)
    x[5000] = 3e30  # the second of three blocks (the fast reduction is wrong there)
    got = np.asarray(ast.jit(lambda x: ast.sin(x) * 2 + ast.cos(x))(x))
    np.testing.assert_array_equal(got, sin(x) * np.float32(2) + cos(x))
    m = (rng.standard_normal((37, 5000)) * 4).astype(np.float32)
    b = rng.standard_normal(5000).astype(np.float32)
    b[123] = 1e30
    nested = ast.jit(lambda m, b: ast.sin(m * b[None, :]))
    assert "sin_f32_fast(" in nested.lower(m, b).compile().source
    np.testing.assert_array_equal(np.asarray(nested(m, b)), sin(m * b[None, :]))
    donated = ast.jit(lambda x: ast.cos(x) + x, donate_argnums=0)
    y = (rng.standard_normal(100_000) * 1e3).astype(np.float32)
    y[::7919] = 5e30
    want = cos(y) + y
    np.testing.assert_array_equal(np.asarray(donated(ast.asarray(y.copy()))), want)


def test_float32_sin_stays_out_of_reducing_regions():
    """A float32 sin or cos never joins a region that reduces (its block check is the elementwise loop's);
    a float64 one does, and both results are the twins' bits."""
    import arraystack as ast
    from arraystack.backends.numba.mathlib.twins import numpy_twin

    f = ast.jit(lambda x: ast.sum(ast.sin(x), axis=1))
    x32 = np.random.default_rng(3).standard_normal((64, 300)).astype(np.float32)
    x64 = x32.astype(np.float64)
    assert _fusions(f, x32) == 2 and _fusions(f, x64) == 1
    for x in (x32, x64):
        got = np.asarray(f(x))
        want = numpy_twin("sin", x.dtype)(x).sum(axis=1, dtype=np.float64)
        np.testing.assert_allclose(got, want, rtol=1e-5 if x is x32 else 1e-12)
