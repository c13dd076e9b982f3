"""mathlib_trig's sin and cos have twins that give the compiled kernels' bits: the NumPy code
(mathlib_trig_numpy.py) and each loop of the C extension (_mathlib_trig_twin.h), on samples reaching
every table row, both reductions of float32, and the arguments nearest multiples of pi/2. The C twin's
constants are mathlib_trig_constants' values, and it runs only once it has the tables."""

import math
import re
import shutil

import numpy as np
import pytest

pytestmark = pytest.mark.numba

numba = pytest.importorskip("numba")
mathlib_trig = pytest.importorskip("arraystack.backends.numba.mathlib.trig")
from arraystack.backends.numba.mathlib import checked_jit, fma_emulation, trig_numpy as mathlib_trig_numpy, twins as mathlib_numpy
from arraystack.backends.numba.mathlib import trig_constants as constants
from arraystack.backends.numba.mathlib.twins import numpy_twin

from tests.backends.test_mathlib_numpy import (
    FAST_MATH_FLAG,
    IMPLEMENTATIONS,
    dense_f32,
    loop_of,
    run_python,
    specials,
    twin,
)

NAMES = ("sin", "cos", "tan")
C_TWIN = mathlib_numpy.C_TWIN
needs_c_twin = pytest.mark.skipif(C_TWIN is None, reason="the C twin is not built (or stale)")
_kernel_results = {}


def kernel(function):
    """mathlib_trig's `function` (e.g. "sin_f32_fast") in a loop compiled like a generated kernel."""
    return loop_of(getattr(mathlib_trig, function), function)


def suffix(dtype):
    return "f32" if dtype == np.float32 else "f64"


def assert_bitwise_equal(got, want, x, what):
    """got and want (the kernel's) of the same dtype hold the same bits; x: the arguments."""
    uint = np.dtype(f"u{got.itemsize}")
    bad = np.flatnonzero(got.view(uint) != want.view(uint))
    if bad.size:
        i = bad[0]
        bits = [f"{a[i : i + 1].view(f'u{a.itemsize}')[0]:#x}" for a in (x, got, want)]
        pytest.fail(
            f"{what}({x[i]!r}) [{bits[0]}]: twin {got[i]!r} [{bits[1]}], kernel {want[i]!r} "
            f"[{bits[2]}]; {bad.size} of {x.size} differ"
        )


def assert_twin_matches_kernel(name, x, implementation):
    # the samples are module fixtures: each kernel result is computed once
    key = (name, x.dtype, id(x))
    if key not in _kernel_results:
        _kernel_results[key] = (x, kernel(f"{name}_{suffix(x.dtype)}")(x))
    got = twin(name, x.dtype, implementation)(x)
    assert_bitwise_equal(got, _kernel_results[key][1], x, name)


def dense(center, dtype, count):
    """`count` consecutive floats of `dtype` on each side of `center` (>= 0), and their negatives."""
    itype = np.int32 if dtype == np.float32 else np.int64
    mid = int(np.array(center, dtype).view(itype))
    x = np.arange(max(mid - count, 0), mid + count, dtype=itype).view(dtype)
    return np.concatenate([x, -x])


def near_quadrants(dtype, count, seed):
    """Floats |x| >= 1 of `dtype` whose x 2/pi is within ~2**-50 (float32: ~2**-21) of an integer, where
    the reductions cancel the most bits: for random exponents E, x = m 2**(E - bias) with m a multiple
    of the largest continued-fraction denominator of 2**(E - bias) 2/pi that fits the mantissa."""
    info = np.finfo(dtype)
    digits = info.nmant + 1
    bias = info.maxexp - 2 + digits  # x = m 2**(E - bias), m an integer of `digits` bits
    precision = 1400
    two_over_pi = constants.two_over_pi_fixed(precision)
    rng = np.random.default_rng(seed)
    found = []
    for e in rng.integers(bias - digits + 1, 2 * info.maxexp - 1, count):
        a, b = two_over_pi, 1 << (precision - (int(e) - bias))  # a / b = 2**(E - bias) 2/pi
        previous, q, best = 1, 0, 1
        while b:
            a, b, t = b, a % b, a // b
            previous, q = q, t * q + previous
            if q >> digits:
                break
            best = q
        m = best * -(-(1 << (digits - 1)) // best)  # the first multiple with `digits` bits
        if not m >> digits:
            found.append(math.ldexp(m, int(e) - bias))
    x = np.array(found, dtype)
    return np.concatenate([x, -x])


def pi_over_2_multiples(dtype, ks, ulps):
    """k pi/2 rounded to `dtype`, with `ulps` neighbours on each side, for k in ks (both signs)."""
    itype = np.int32 if dtype == np.float32 else np.int64
    centers = (np.asarray(ks, np.float64) * (np.pi / 2)).astype(dtype).view(itype)
    x = (centers[:, None] + np.arange(-ulps, ulps + 1, dtype=itype)).reshape(-1).view(dtype)
    return np.concatenate([x, -x])


# the double nearest a multiple of pi/2 (2**-61.5 of a quadrant away)
HARD_F64 = 6381956970095103 * 2.0**797


@pytest.fixture(scope="module")
def f64_sample():
    rng = np.random.default_rng(20261128)
    n = 100_000
    sign = rng.choice([-1.0, 1.0], 2 * n)
    parts = [
        rng.integers(0, 2**64, 2 * n, dtype=np.uint64).view(np.float64),  # every exponent
        rng.standard_normal(n),
        rng.uniform(-1e6, 1e6, n),
        # log-uniform, subnormals to the largest
        sign * np.exp2(rng.uniform(-1075, 1023.99, 2 * n)),
        specials(np.float64),
        dense(2.0**20, np.float64, 500),
        dense(constants.TRIG_TINY, np.float64, 500),  # sin(x) = x and cos(x) = 1 below it
        pi_over_2_multiples(np.float64, np.arange(1, 2000), 3),
        pi_over_2_multiples(np.float64, rng.integers(2000, 2**40, 5000), 3),
        near_quadrants(np.float64, 3000, 1),
        dense(HARD_F64, np.float64, 100),
    ]
    return np.concatenate(parts)


@pytest.fixture(scope="module")
def f32_sample():
    rng = np.random.default_rng(20261129)
    n = 100_000
    sign = rng.choice([-1.0, 1.0], 2 * n)
    parts = [
        rng.integers(0, 2**32, 1 << 20, dtype=np.uint64).astype(np.uint32).view(np.float32),
        rng.standard_normal(n),
        rng.uniform(-1e6, 1e6, n),
        # log-uniform, subnormals to the largest
        sign * np.exp2(rng.uniform(-150, 127.99, 2 * n)),
        specials(np.float32),
        dense(constants.TRIG_FAST_F, np.float32, 1 << 12),  # the fast reduction's end
        dense(constants.TRIG_TINY_F, np.float32, 1 << 12),
        dense_f32(1.0, 1 << 12),
        pi_over_2_multiples(np.float32, np.arange(1, 5000), 3),
        pi_over_2_multiples(np.float32, rng.integers(5000, 2**22, 20000), 3),  # past 2**20
        near_quadrants(np.float32, 3000, 2),
    ]
    return np.concatenate([np.asarray(part, np.float32) for part in parts])


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("name", NAMES)
def test_float64_twin_matches_kernel_bitwise(name, implementation, f64_sample):
    assert_twin_matches_kernel(name, f64_sample, implementation)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("name", NAMES)
def test_float32_twin_matches_kernel_bitwise(name, implementation, f32_sample):
    assert_twin_matches_kernel(name, f32_sample, implementation)


def test_samples_reach_the_hard_cases(f64_sample, f32_sample):
    """The samples hold what the bitwise tests claim: every table row a result depends on, both float32
    reductions, and arguments whose reduced argument is far below 1."""
    e64 = np.abs(f64_sample).view(np.int64) >> 52
    assert set(range(1023 - 27, 2047)) <= set(e64.tolist())
    e32 = np.abs(f32_sample).view(np.int32) >> 23
    assert set(range(127 + 20, 255)) <= set(e32.tolist())
    for x, bound in ((f64_sample, 2.0**-45), (f32_sample, 2.0**-18)):
        x = x[np.isfinite(x) & (np.abs(x) >= 1.0)].astype(np.float64)
        # |sin| or |cos| far below 1 and above the float's granularity: near a multiple of pi/2
        small = np.minimum(np.abs(kernel("sin_f64")(x)), np.abs(kernel("cos_f64")(x)))
        assert (small < bound).sum() >= 100
    assert HARD_F64 in f64_sample and -HARD_F64 in f64_sample


def test_float32_steps_match_in_float64(f32_sample):
    """float32 sin and cos compute in float64 and round once: a float64 step computed differently
    would rarely change the float32 result, so the NumPy twin's steps are compared in float64 too,
    the reduction's (k, z) and the polynomials' (sin z, cos z), on the finite inputs."""

    @numba.njit(error_model="numpy")
    def steps(x, k, z, s, c):
        for i in range(x.size):
            k[i], z[i] = mathlib_trig._reduce_f32(abs(x[i]))
            s[i], c[i] = mathlib_trig._sincos_f32(z[i])

    x = f32_sample[np.isfinite(f32_sample)]
    want = [np.empty(x.size) for _ in range(4)]
    steps(x, *want)
    with np.errstate(all="ignore"):
        k, z = mathlib_trig_numpy._reduce_f32(np.abs(x))
        got = [k, z, *mathlib_trig_numpy._sincos_f32(z)]
    for step, g, w in zip(("k", "z", "sin z", "cos z"), got, want):
        assert_bitwise_equal(g.astype(np.float64), w, x, f"float32 step {step} of ")


@pytest.mark.parametrize("name", NAMES)
def test_float32_fast_kernels_give_the_twins_bits(name, f32_sample):
    """Generated kernels call `<name>_f32_fast` on blocks with every |x| <= 2**20 (codegen.py): there it
    gives the full function's bits, so the twins serve those kernels as well."""
    x = f32_sample[np.abs(f32_sample) <= constants.TRIG_FAST_F]  # the fast variants' domain
    assert x.size > 100_000 and (np.abs(x) == constants.TRIG_FAST_F).any()
    got = numpy_twin(name, np.float32)(x)
    assert_bitwise_equal(got, kernel(f"{name}_f32_fast")(x), x, f"{name}_f32_fast")


def test_emulated_fmas_stay_in_the_exact_range(f64_sample, f32_sample, monkeypatch):
    """Every fma_f64 of the NumPy twin meets the conditions under which fma_f64 is exact (its
    docstring). float32 inputs are the finite ones: an infinite or NaN x carries inf or NaN through
    the fast reduction's fma, in lanes whose result the last selects replace."""
    calls = []

    def checked(a, b, c, b_parts=None):
        ok = fma_emulation.in_exact_range_f64(a, b, c)
        assert ok.all(), (np.broadcast_arrays(a, b, c)[0][~ok][:3], np.asarray(b), np.asarray(c))
        calls.append(1)
        return fma_emulation.fma_f64(a, b, c, b_parts)

    monkeypatch.setattr(mathlib_trig_numpy, "fma_f64", checked)
    rng = np.random.default_rng(3)
    x64 = np.concatenate([rng.choice(f64_sample, 200_000), specials(np.float64)])
    x32 = rng.choice(f32_sample[np.isfinite(f32_sample)], 200_000)
    for name in NAMES:
        numpy_twin(name, np.float64, "numpy")(x64)
        numpy_twin(name, np.float32, "numpy")(x32)
    assert len(calls) > 0


def test_kernels_compile_without_fast_math_and_with_explicit_fma():
    """As for mathlib (test_mathlib_numpy.py): no fast-math flag and no llvm.fmuladd in the functions
    kernels call, recompiled uncached (their callees are inlined into them, so their IR is all there)."""
    options = checked_jit.OPTIONS
    fma_seen = set()
    for name in NAMES:
        for function, dtype in [(f"{name}_f64", np.float64), (f"{name}_f32", np.float32),
                                (f"{name}_f32_fast", np.float32)]:  # fmt: skip
            kernel(function)(np.ones(2, dtype))
            dispatcher = getattr(mathlib_trig, function)
            (signature,) = dispatcher.signatures
            llvm_ir = numba.njit(signature, **options)(dispatcher.py_func).inspect_llvm(signature)
            assert "fmuladd" not in llvm_ir, function
            flagged = FAST_MATH_FLAG.search(llvm_ir)
            assert flagged is None, (function, flagged.group(0))
            assert "llvm.rint.f64" in llvm_ir, function  # np.rint: no libm call that could differ
            fma_seen.update(re.findall(r"llvm\.fma\.f(?:32|64)", llvm_ir))
    assert fma_seen == {"llvm.fma.f64"}  # float32 is computed in float64


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_jitted_kernels_match_the_twins_bitwise(dtype, f32_sample, f64_sample):
    """Through arraystack.jit: the generated kernels (for float32 with the fast variants on blocks below
    2**20, the full functions elsewhere) compute the twins' bits."""
    import arraystack as ast

    def each(a):  # * 2 is exact (or overflows in both): the calls sit inside one generated loop
        return ast.sin(a) * 2, ast.cos(a) * 2, ast.tan(a) * 2

    sample = f32_sample if dtype == np.float32 else f64_sample
    rng = np.random.default_rng(6)
    mixed = rng.choice(sample, 300_000)  # a parallel kernel
    below = rng.choice(sample[np.abs(sample) <= constants.TRIG_FAST_F], 300_000)  # fast blocks
    jitted = ast.jit(each)
    source = jitted.lower(ast.asarray(mixed)).compile().source
    assert all(f"{name}_{suffix(dtype)}(" in source for name in NAMES)
    assert ("sin_f32_fast(" in source) == ("tan_f32_fast(" in source) == (dtype == np.float32)
    for x in (mixed, below):
        for name, got in zip(NAMES, jitted(ast.asarray(x))):
            got = np.asarray(got)
            for implementation in ("numpy", "c") if C_TWIN is not None else ("numpy",):
                with np.errstate(all="ignore"):
                    want = numpy_twin(name, dtype, implementation)(x) * dtype(2)
                assert_bitwise_equal(got, want, x, f"jitted {name} ({implementation} twin)")


CONSTANT_NAMES = ("PIO2_HI", "PIO2_LO", "TRIG_TINY", "TWO_OVER_PI", "PIO2_A", "PIO2_B", "TRIG_FAST_F",
                  "TRIG_TINY_F", "SIN_C", "COS_C", "SIN_CF", "COS_CF")  # fmt: skip


@needs_c_twin
def test_c_twin_constants_are_mathlib_trig_constants():
    """_mathlib_trig_twin.h's hex literals, as compiled, are mathlib_trig_constants' values, bit for bit
    (the float32 ones are floats there: their values must be float32)."""
    assert sorted(C_TWIN.TRIG_CONSTANTS) == sorted(CONSTANT_NAMES)
    for name in CONSTANT_NAMES:
        got, want = C_TWIN.TRIG_CONSTANTS[name], getattr(constants, name)
        assert np.shape(got) == np.shape(want), name
        assert np.array(got).tobytes() == np.array(want, np.float64).tobytes(), name
        if name.endswith("_F"):
            assert float(np.float32(want)) == want, name


@needs_c_twin
def test_c_twin_runs_sin_and_cos_only_with_its_tables(tmp_path):
    """A fresh load of the extension (a copy of the file: its own static tables) refuses sin and cos
    until set_trig_tables has copied the tables in; calls with a table of the wrong shape, dtype or
    layout raise and set nothing; then it computes the NumPy twin's bits."""
    shutil.copy(C_TWIN.__file__, tmp_path)
    out = run_python(
        f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\n"
        "import numpy as np\n"
        "import _twin as fresh\n"
        "from arraystack.backends.numba.mathlib import twins as mathlib_numpy\n"
        "from arraystack.backends.numba.mathlib.trig_constants import TRIG_TABLE, TRIG_TABLE_F\n"
        "T, TF = TRIG_TABLE, TRIG_TABLE_F\n"
        "assert fresh is not mathlib_numpy.C_TWIN\n"
        "x = np.linspace(-4.0, 4.0, 9)\n"
        "calls = [lambda: fresh.sin_f64(x, np.empty_like(x)),\n"
        "         lambda: fresh.set_trig_tables(T[:-1], TF),\n"
        "         lambda: fresh.set_trig_tables(T, TF.astype(np.float32)),\n"
        "         lambda: fresh.set_trig_tables(np.asfortranarray(T), TF),\n"
        "         lambda: fresh.cos_f32(x.astype(np.float32), np.empty(9, np.float32))]\n"
        "for call in calls:\n"
        "    try:\n"
        "        call()\n"
        "        print('ran')\n"
        "    except (RuntimeError, ValueError, BufferError) as e:\n"
        "        print(type(e).__name__)\n"
        "fresh.set_trig_tables(T, TF)\n"
        "for name in ('sin', 'cos'):\n"
        "    for dtype, fn in ((np.float64, name + '_f64'), (np.float32, name + '_f32')):\n"
        "        v = np.concatenate([x, [1e300, 3e7, 2.0**20]]).astype(dtype)\n"
        "        got = np.empty_like(v)\n"
        "        getattr(fresh, fn)(v, got)\n"
        "        print(got.tobytes() == mathlib_numpy.numpy_twin(name, dtype, 'numpy')(v).tobytes())\n"
    )
    lines = out.split()
    assert lines[:5] == ["RuntimeError", "ValueError", "ValueError", lines[3], "RuntimeError"]
    assert lines[3] in ("ValueError", "BufferError")  # not C-contiguous: NumPy's own error
    assert lines[5:] == ["True"] * 4


@pytest.mark.parametrize("implementation", [None, "numpy", "c"])
def test_twin_lookup(implementation):
    if implementation == "c" and C_TWIN is None:
        pytest.skip("the C twin is not built (or stale)")
    for name in NAMES:
        for dtype in (np.float32, np.float64):
            fn = numpy_twin(name, dtype, implementation)
            assert fn.__doc__.endswith(" in C.") == (
                implementation != "numpy" and C_TWIN is not None
            )
            y = fn(np.linspace(-3, 3, 12, dtype=dtype).reshape(3, 4)[:, ::2])
            assert y.shape == (3, 2) and y.dtype == dtype
        assert numpy_twin(name, np.float16, implementation) is None
