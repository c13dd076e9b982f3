"""mathlib_numpy's twins (NumPy code and the C extension) give the compiled mathlib's bits; the fma
emulations are exact; loading the twin needs neither numba nor a built extension."""

import math
import re
import subprocess
import sys
import types
import warnings
from fractions import Fraction

import numpy as np
import pytest

pytestmark = pytest.mark.numba

numba = pytest.importorskip("numba")
mathlib = pytest.importorskip("arraystack.backends.numba.mathlib.exp_log")
mathlib_erf = pytest.importorskip("arraystack.backends.numba.mathlib.erf")
mathlib_log1p = pytest.importorskip("arraystack.backends.numba.mathlib.log1p")
from arraystack.backends.numba.mathlib import erf_numpy as mathlib_erf_numpy
from arraystack.backends.numba.mathlib import exp_log_numpy
from arraystack.backends.numba.mathlib import twins as mathlib_numpy
from arraystack.backends.numba.mathlib import checked_jit, fma_emulation
from arraystack.backends.numba.mathlib import trig_numpy as mathlib_trig_numpy
from arraystack.backends.numba.mathlib.twins import numpy_twin

NAMES = ("exp", "expm1", "log", "tanh", "logistic", "erf", "log1p")
C_TWIN = mathlib_numpy.C_TWIN
# the twin's implementations: the NumPy code, and each loop variant of the C extension this CPU runs
IMPLEMENTATIONS = ["numpy"] + [
    pytest.param(
        f"c:{variant}",
        marks=pytest.mark.skipif(C_TWIN is None, reason="the C twin is not built (or stale)"),
    )
    for variant in (C_TWIN.VARIANTS if C_TWIN is not None else ("portable",))
]
_loops = {}
_kernel_results = {}


def kernel_function(name, dtype):
    """The kernels' function for `name` on dtype (float64 erf lives in mathlib_erf.py, log1p in
    mathlib_log1p.py)."""
    module = mathlib_erf if name == "erf" else mathlib
    module = mathlib_log1p if name == "log1p" else module
    return getattr(module, f"{name}_{'f32' if dtype == np.float32 else 'f64'}")


def loop_of(fn, key):
    """fn in a loop compiled like a generated kernel (error_model numpy, no fast-math), as a function of
    an array; compiled once per key."""
    if key not in _loops:

        @numba.njit(error_model="numpy")
        def loop(x, out):
            for i in range(x.size):
                out[i] = fn(x[i])

        _loops[key] = loop

    def run(x):
        out = np.empty_like(x)
        _loops[key](x, out)
        return out

    return run


def compiled(name, dtype):
    """mathlib's function for name and dtype in a kernel-like loop (loop_of)."""
    return loop_of(kernel_function(name, dtype), (name, np.dtype(dtype)))


def twin(name, dtype, implementation):
    """numpy_twin's function, or for "c:<variant>" the C extension's loop of that variant."""
    if implementation == "numpy":
        return numpy_twin(name, dtype, implementation="numpy")
    variant = C_TWIN.VARIANTS.index(implementation[2:])
    kernel = getattr(C_TWIN, f"{name}_{'f32' if dtype == np.float32 else 'f64'}")

    def run(x):
        out = np.empty_like(x)
        kernel(x, out, variant)
        return out

    return run


def assert_bitwise_equal(name, x, implementation="numpy"):
    uint = np.uint32 if x.dtype == np.float32 else np.uint64
    key = (
        name,
        x.dtype,
        id(x),
    )  # the samples are module fixtures: each kernel result is computed once
    if key not in _kernel_results:
        _kernel_results[key] = (x, compiled(name, x.dtype)(x))
    want = _kernel_results[key][1]
    got = twin(name, x.dtype, implementation)(x)
    bad = np.flatnonzero(got.view(uint) != want.view(uint))
    if bad.size:
        i = bad[0]
        pytest.fail(
            f"{name}({x[i]!r}) [{x[i : i + 1].view(uint)[0]:#x}]: twin {got[i]!r} "
            f"[{got[i : i + 1].view(uint)[0]:#x}], kernel {want[i]!r} "
            f"[{want[i : i + 1].view(uint)[0]:#x}]; {bad.size} of {x.size} differ"
        )


def specials(dtype):
    fi = np.finfo(dtype)
    values = [
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        np.nan,
        -np.nan,
        fi.tiny,
        -fi.tiny,
        fi.smallest_subnormal,
        -fi.smallest_subnormal,
        fi.max,
        -fi.max,
        fi.eps,
        1.0,
        -1.0,
        0.5,
        2.0,
        math.log(2) / 2,
    ]
    uint = np.uint32 if dtype == np.float32 else np.uint64
    nans = [
        0x7FC00001,
        0xFFC12345,
        0x7F800001,
        0xFF800003,
    ]  # quiet/signalling, both signs, payloads
    if dtype == np.float64:
        nans = [0x7FF8000000000001, 0xFFF8000000012345, 0x7FF0000000000001, 0xFFF0000000000003]
    return np.concatenate([np.array(values, dtype), np.array(nans, uint).view(dtype)])


def dense_f32(center, count=1 << 17):
    """`count` consecutive float32 on each side of `center` (every one of them)."""
    mid = int(np.array(abs(center), np.float32).view(np.int32))
    bits = np.arange(max(mid - count, 0), mid + count, dtype=np.int32).view(np.float32)
    return bits if center >= 0 else -bits


F32_CENTERS = [
    0.0,
    2.0**-126,
    2.0**-20,
    0.25,
    0.3466,
    0.5,
    1.0,
    1.4142135,
    2.0,
    9.0,
    17.5,
    25.0,
    88.72,
    89.5,
    100.0,
    -0.3466,
    -1.0,
    -9.0,
    -17.5,
    -87.33,
    -103.97,
    -105.5,
]


@pytest.fixture(scope="module")
def f32_sample():
    rng = np.random.default_rng(20260101)
    random_bits = rng.integers(0, 2**32, 1 << 22, dtype=np.uint64).astype(np.uint32)
    dense = [dense_f32(c) for c in F32_CENTERS]
    return np.concatenate([random_bits.view(np.float32), specials(np.float32), *dense])


@pytest.fixture(scope="module")
def f64_sample():
    rng = np.random.default_rng(20260102)
    random_bits = rng.integers(0, 2**64, 1_000_000, dtype=np.uint64).view(np.float64)
    n = 100_000
    edges = [
        709.782712893384,
        709.78,
        -745.1332191019412,
        -708.4,
        -38.0,
        38.0,
        22.0,
        -22.0,
        56 * 0.6931,
        0.3465735902799727,
        -0.3465735902799727,
        1.0,
        1.4142135623730951,
    ]
    parts = [
        random_bits,
        rng.uniform(-1, 1, n),
        rng.choice([-1.0, 1.0], n) * np.exp2(rng.uniform(-1074, 0, n)),  # |x| < 1 down to denormals
        rng.integers(0, 2**52, n, dtype=np.int64).view(np.float64),  # positive denormals
        rng.uniform(-800, 800, n),
        1.0 + rng.integers(-2000, 2000, n) * 2.0**-52,  # log near 1
        specials(np.float64),
    ]
    for edge in edges:
        parts.append(edge + rng.uniform(-1e-9, 1e-9, 5000) * max(abs(edge), 1.0))
        parts.append(np.nextafter(np.full(200, edge), rng.choice([-np.inf, np.inf], 200)))
    return np.concatenate(parts)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("name", NAMES)
def test_float32_twin_matches_kernel_bitwise(name, implementation, f32_sample):
    assert_bitwise_equal(name, f32_sample, implementation)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("name", NAMES)
def test_float64_twin_matches_kernel_bitwise(name, implementation, f64_sample):
    assert_bitwise_equal(name, f64_sample, implementation)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_float32_tanh_edges_match_kernel(implementation):
    """Every float32 around float32 tanh's edges, both signs: the steps of its reduction's k (x = (k + 1/2)
    ln2/2), where E + 1 starts to round to E (13 ln2), the clamp at 10, and 0 up through the denormals."""
    centers = [(k + 0.5) * math.log(2) / 2 for k in range(0, 29, 4)] + [13 * math.log(2), 10.0, 0.0]
    x = np.concatenate([dense_f32(c, 1 << 13) for c in centers])
    assert_bitwise_equal("tanh", np.concatenate([x, -x]), implementation)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_float32_exp_edges_match_kernel(implementation):
    """Every float32 around float32 exp's edges: both sides of 0 (the sign of x picks how 2**k is split),
    where the result turns denormal, 0 and inf, the clamps at -105 and 90, and some steps of k."""
    centers = [(k + 0.5) * math.log(2) for k in range(-151, 128, 31)]
    centers += [0.0, -(2.0**-126), -87.3365, -103.972, 88.7228, -105.0, 90.0]
    x = np.concatenate([dense_f32(c, 1 << 12) for c in centers])
    assert_bitwise_equal("exp", x, implementation)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_float32_erf_edges_match_kernel(implementation):
    """Every float32 around float32 erf's edges, both signs: 0 through the denormals, the switch between its
    polynomials at 1, where it rounds to 1 (3.92) and the clamp at 4."""
    x = np.concatenate([dense_f32(c, 1 << 12) for c in (0.0, 1.0, 3.9192059, 4.0)])
    assert_bitwise_equal("erf", np.concatenate([x, -x]), implementation)


def test_float64_fma_operands_stay_in_the_exact_range(f64_sample, monkeypatch):
    """Every fma_f64 the twins make (their float64 polynomials; erf's in mathlib_erf_numpy.py and the
    Horner steps it takes from mathlib_trig_numpy.py) meets the conditions under which fma_f64 is exact
    (its docstring), on the bitwise tests' inputs."""
    calls = []

    def checked(a, b, c, b_parts=None):
        ok = fma_emulation.in_exact_range_f64(a, b, c)
        assert ok.all(), (np.broadcast_arrays(a, b, c)[0][~ok][:3], np.asarray(b), np.asarray(c))
        calls.append(1)
        return fma_emulation.fma_f64(a, b, c, b_parts)

    for module in (exp_log_numpy, mathlib_erf_numpy, mathlib_trig_numpy):
        monkeypatch.setattr(module, "fma_f64", checked)
    rng = np.random.default_rng(3)
    x64 = np.concatenate([rng.choice(f64_sample, 200_000), specials(np.float64)])
    for name in NAMES:
        numpy_twin(name, np.float64, "numpy")(x64)
    assert len(calls) > 0


@pytest.mark.parametrize("implementation", [None, "numpy", "c"])
def test_twin_shapes_strides_and_lookup(implementation):
    if implementation == "c" and C_TWIN is None:
        pytest.skip("the C twin is not built (or stale)")
    x = np.linspace(-3, 3, 60, dtype=np.float32).reshape(6, 10)[:, ::3]  # non-contiguous
    for name in NAMES + ("sin", "cos"):
        twin = numpy_twin(name, np.float32, implementation)
        y = twin(x)
        assert y.shape == x.shape and y.dtype == np.float32
        np.testing.assert_array_equal(y.ravel(), twin(x.ravel()))
        zero_d = twin(np.array(0.5, np.float32))
        assert zero_d.shape == () and zero_d == twin(np.array([0.5], np.float32))[0]
        assert twin(np.zeros((0, 3), np.float32)).shape == (0, 3)
    x64 = np.array([1.0, 2.0])
    out = numpy_twin("exp", "float64", implementation)(x64)
    assert out is not x64 and np.shares_memory(out, x64) is False
    assert numpy_twin("atan", np.float32, implementation) is None
    assert numpy_twin("exp", np.float16, implementation) is None
    assert numpy_twin("exp", np.int32, implementation) is None
    with pytest.raises(TypeError, match="float64"):
        numpy_twin("exp", np.float64, implementation)(x.astype(np.float32))
    with pytest.raises(TypeError, match="float32"):  # the other byte order
        numpy_twin("exp", np.float32, implementation)(x.astype(">f4"))
    expected = "numpy" if implementation == "numpy" or C_TWIN is None else "c"
    assert (numpy_twin("log", np.float64, implementation).__doc__.endswith(" in C.")) == (
        expected == "c"
    )
    with pytest.raises(ValueError, match="implementation"):
        numpy_twin("exp", np.float32, "fortran")


needs_c_twin = pytest.mark.skipif(C_TWIN is None, reason="the C twin is not built (or stale)")


@needs_c_twin
def test_c_twin_checks_its_buffers():
    x = np.linspace(-2, 2, 8)
    out = np.empty_like(x)
    C_TWIN.exp_f64(x, out)
    np.testing.assert_array_equal(out, numpy_twin("exp", np.float64, "numpy")(x))
    C_TWIN.exp_f64(x, x)  # in place
    np.testing.assert_array_equal(x, out)
    with pytest.raises(TypeError, match="'d'"):
        C_TWIN.exp_f64(x.astype(np.float32), out.astype(np.float32))
    with pytest.raises(TypeError, match="'f'"):
        C_TWIN.exp_f32(x, out)
    with pytest.raises(ValueError, match="length"):
        C_TWIN.exp_f64(x, out[:4])
    with pytest.raises((ValueError, BufferError), match="contiguous"):
        C_TWIN.exp_f64(x[::2], out[:4])
    readonly = np.empty_like(x)
    readonly.setflags(write=False)
    with pytest.raises((ValueError, BufferError, TypeError)):
        C_TWIN.exp_f64(x, readonly)
    with pytest.raises(ValueError, match="variant"):
        C_TWIN.exp_f64(x, out, len(C_TWIN.VARIANTS))
    assert C_TWIN.VARIANTS[0] == "portable" and C_TWIN.BEST_VARIANT == len(C_TWIN.VARIANTS) - 1


def test_stale_c_twin_is_not_used():
    """setup.py compiles the source's CRC into the module; another CRC means an edited source."""
    if C_TWIN is not None:
        assert mathlib_numpy._is_current(C_TWIN)
    with pytest.warns(RuntimeWarning, match="older mathlib/_twin"):
        assert not mathlib_numpy._is_current(types.SimpleNamespace(SOURCE_CRC="0000000g"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning):
            mathlib_numpy._is_current(types.SimpleNamespace())


def run_python(code):
    result = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_loading_the_twin_imports_no_numba():
    """Tier 0 serves the first calls: it must not wait for numba's import (0.5-1 s)."""
    out = run_python(
        "import sys, numpy as np\n"
        "from arraystack.backends.numba.mathlib.twins import numpy_twin\n"
        "for name in ('exp', 'expm1', 'log', 'tanh', 'logistic', 'erf', 'sin', 'cos'):\n"
        "    for dtype in (np.float32, np.float64):\n"
        "        numpy_twin(name, dtype)(np.ones(3, dtype))\n"
        "print('numba' in sys.modules)\n"
    )
    assert out.split() == ["False"]


def test_without_the_extension_the_numpy_twin_serves():
    out = run_python(
        "import sys, numpy as np\n"
        "sys.modules['arraystack.backends.numba.mathlib._twin'] = None  # import fails\n"
        "from arraystack.backends.numba.mathlib import twins as m\n"
        "assert m.C_TWIN is None\n"
        "x = np.linspace(-5, 5, 101)\n"
        "assert m.numpy_twin('tanh', np.float64) is m._ENTRY_POINTS['tanh', np.dtype(np.float64)]\n"
        "try:\n"
        "    m.numpy_twin('exp', np.float32, 'c')\n"
        "except ValueError as e:\n"
        "    print('ValueError', 'not built' in str(e))\n"
    )
    assert out.split() == ["ValueError", "True"]


def round_f32(q):
    """The float32 nearest the rational q, ties to even (float(q) then float32 can round twice)."""
    y = np.float32(float(q))
    candidates = [np.nextafter(y, np.float32(-np.inf)), y, np.nextafter(y, np.float32(np.inf))]
    return min(
        candidates,
        key=lambda c: (abs(Fraction(float(c)) - q), int(np.array(c).view(np.uint32)) & 1),
    )


def _operands(rng, n, mantissa_bits, exponents):
    """Random floats with short mantissas (products and sums then often land on ties)."""
    mant = rng.integers(1 << (mantissa_bits - 1), 1 << mantissa_bits, n)
    signs = rng.choice([-1.0, 1.0], n)
    return signs * np.ldexp(mant.astype(np.float64), rng.integers(*exponents, n) - mantissa_bits)


def _near_ties(rng, n, precision, bits_off):
    """(a, b, c) with a * b = ±ulp(c) / 2 * (1 - 2**(-2 * bits_off)) for c with an odd mantissa: rounding
    a * b first (or c + a * b to a wider format first) lands on a tie that the single rounding avoids."""
    mant = rng.integers(1 << (precision - 1), 1 << precision, n) | 1
    q = rng.integers(-20, 20, n)
    c = np.ldexp(mant.astype(np.float64), q)  # ulp(c) = 2**q
    i = rng.integers(-10, 10, n)
    sign = rng.choice([-1.0, 1.0], n)
    a = np.ldexp(1.0 + sign * 2.0**-bits_off, i)
    b = np.ldexp(1.0 - sign * 2.0**-bits_off, q - 1 - i) * rng.choice([-1.0, 1.0], n)
    return a, b, c * rng.choice([-1.0, 1.0], n)


def test_fma_f64_exact_against_rationals():
    rng = np.random.default_rng(7)
    n = 4000
    a = np.concatenate(
        [
            _operands(rng, n, 53, (-60, 10)),
            _operands(rng, n, 27, (-40, 10)),
            rng.uniform(-0.35, 0.35, n),
        ]
    )
    b = np.concatenate(
        [
            _operands(rng, n, 53, (-60, 10)),
            _operands(rng, n, 28, (-40, 10)),
            rng.uniform(-0.35, 0.35, n),
        ]
    )
    c = np.concatenate(
        [
            _operands(rng, n, 53, (-60, 12)),
            -(a[n : 2 * n] * b[n : 2 * n]) + _operands(rng, n, 3, (-120, -60)),
            rng.uniform(0, 2, n) / np.arange(1, n + 1),
        ]
    )
    ties = _near_ties(rng, 2000, 53, 50)
    a, b, c = (np.concatenate([v, t]) for v, t in zip((a, b, c), ties))
    assert fma_emulation.in_exact_range_f64(a, b, c).all()
    with np.errstate(all="ignore"):
        got = fma_emulation.fma_f64(a, b, c)
    want = np.array([float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c)])
    np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))
    assert (got != a * b + c).any()  # the unfused expression differs somewhere: the test can fail
    zero = fma_emulation.fma_f64(
        np.array([0.0, -0.0]), np.array([1.0, 1.0]), np.array([-0.0, -0.0])
    )
    np.testing.assert_array_equal(np.signbit(zero), [False, True])


def test_fma_f32_exact_against_rationals():
    rng = np.random.default_rng(8)
    n = 4000
    a = np.concatenate(
        [
            _operands(rng, n, 24, (-30, 10)),
            _operands(rng, n, 13, (-20, 10)),
            _operands(rng, n, 24, (-80, -60)),
        ]
    ).astype(np.float32)
    b = np.concatenate(
        [
            _operands(rng, n, 24, (-30, 10)),
            _operands(rng, n, 13, (-20, 10)),
            _operands(rng, n, 24, (-80, -60)),
        ]
    ).astype(np.float32)
    c = np.concatenate(
        [
            _operands(rng, n, 24, (-30, 12)),
            (
                -(a[n : 2 * n].astype(np.float64) * b[n : 2 * n]) + _operands(rng, n, 2, (-60, -30))
            ).astype(np.float32),
            _operands(rng, n, 24, (-150, -120)),
        ]
    ).astype(np.float32)
    ties = (v.astype(np.float32) for v in _near_ties(rng, 2000, 24, 15))
    a, b, c = (np.concatenate([v, t]) for v, t in zip((a, b, c), ties))
    got = fma_emulation.fma_f32(a, b, c)
    want = np.array(
        [
            round_f32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
            for x, y, z in zip(a, b, c)
        ],
        np.float32,
    )
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    assert np.any(got != (a * b + c))


FAST_MATH_FLAG = re.compile(
    r"\b(fadd|fsub|fmul|fdiv|frem|fneg|fcmp|call|select)\s+"
    r"(fast|contract|reassoc|afn|nnan|ninf|nsz|arcp)\b"
)


def test_kernels_compile_without_fast_math_and_with_explicit_fma():
    """The bitwise match rests on this: LLVM sees no fast-math flag (so it may not contract, reassociate
    or approximate), and every fusion is llvm.fma (single rounding), never llvm.fmuladd (LLVM's choice).
    Each of mathlib's and mathlib_erf's numba functions is recompiled uncached (cached code cannot be
    inspected) with mathlib's own options, for the signatures the kernels use."""
    for name in NAMES:
        for dtype in (np.float32, np.float64):
            compiled(name, dtype)(np.ones(2, dtype))
    options = checked_jit.OPTIONS
    fma_seen = set()
    dispatchers = {
        v
        for module in (mathlib, mathlib_erf, mathlib_log1p)
        for v in vars(module).values()
        if isinstance(v, numba.core.registry.CPUDispatcher)
    }
    assert len(dispatchers) >= 18 and mathlib_erf.erf_f64 in dispatchers
    for dispatcher in dispatchers:
        for signature in dispatcher.signatures:
            fresh = numba.njit(signature, **options)(dispatcher.py_func)
            llvm_ir = fresh.inspect_llvm(signature)
            assert "fmuladd" not in llvm_ir, dispatcher.__name__
            flagged = FAST_MATH_FLAG.search(llvm_ir)
            assert flagged is None, (dispatcher.__name__, flagged.group(0))
            fma_seen.update(re.findall(r"llvm\.fma\.f(?:32|64)", llvm_ir))
    assert fma_seen == {"llvm.fma.f32", "llvm.fma.f64"}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_jitted_kernels_match_the_twins_bitwise(dtype, f32_sample, f64_sample):
    """Through arraystack.jit: the generated (fused, vectorized) kernels compute the twins' bits."""
    import arraystack as ast
    from arraystack.nn.activations import _erf, sigmoid

    def each(a):  # * 2 is exact (or overflows in both): the calls sit inside one generated loop
        return (
            ast.exp(a) * 2, ast.expm1(a) * 2, ast.log(a) * 2, ast.tanh(a) * 2, sigmoid(a) * 2, _erf(a) * 2,
            ast.log1p(a) * 2,
        )  # fmt: skip

    sample = f32_sample if dtype == np.float32 else f64_sample
    x = np.random.default_rng(6).choice(sample, 300_000)  # a parallel kernel
    jitted = ast.jit(each)
    source = jitted.lower(ast.asarray(x)).compile().source
    suffix = "f32" if dtype == np.float32 else "f64"
    assert all(f"{name}_{suffix}(" in source for name in NAMES)
    uint = np.uint32 if dtype == np.float32 else np.uint64
    for name, got in zip(NAMES, jitted(ast.asarray(x))):
        got = np.asarray(got)
        assert got.dtype == dtype
        for implementation in ("numpy", "c") if C_TWIN is not None else ("numpy",):
            with np.errstate(all="ignore"):
                want = numpy_twin(name, dtype, implementation)(x) * dtype(2)
            bad = np.flatnonzero(got.view(uint) != want.view(uint))
            assert bad.size == 0, (name, implementation, x[bad[:3]], got[bad[:3]], want[bad[:3]])


@pytest.mark.skipif(C_TWIN is None, reason="the C twin is not built (or stale)")
def test_reference_erf_in_c_gives_the_general_rules_bits():
    """erf's reference rule (eager calls) runs the C twin's libm loop on float32/float64 host arrays: the
    bits of the rule it replaces (libm's erf through np.frompyfunc), on any shape and layout, 0-d too,
    without touching its operand; other dtypes go to that rule."""
    from arraystack.ir import primitives as prims
    from arraystack.ir.reference import reference_rules

    rule = reference_rules[prims.erf_p]
    general = rule.general
    rng = np.random.default_rng(11)
    for dtype in (np.float32, np.float64):
        x = np.concatenate([(rng.standard_normal(5000) * 3).astype(dtype), specials(dtype)])
        cases = [x, x.reshape(-1, 1)[::3], np.asarray(x[7]), x[:24].reshape(4, 6).T]
        for case in cases:
            before = case.copy()
            with np.errstate(invalid="ignore"):  # np.frompyfunc's NaN
                got, want = rule(np, case), general(np, case)
            assert got.dtype == want.dtype == dtype and got.shape == want.shape
            np.testing.assert_array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}"))
            np.testing.assert_array_equal(case, before)
    half = np.array([0.5, -2.0], np.float16)
    np.testing.assert_array_equal(rule(np, half), general(np, half))
