"""The twins as tier 0 uses them (twins.py): their lookup, shapes and errors; loading them needs neither
numba nor a built extension, and a C twin built from older sources (its CRC) is not used; the C twin
checks its buffers, holds constants.py's and trig_constants.py's values as compiled, and runs sin and cos
only once it has the tables; its libm loop is libm's erf. The NumPy twin's emulated fmas are exactly
rounded (against rationals) and stay in the range where they are, on the generated inputs.
"""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
import types
import warnings
from fractions import Fraction

import numpy as np
import pytest
from arraystack.backends.numba.mathlib import constants, erf_numpy, fma_emulation, twins
from arraystack.backends.numba.mathlib import trig_constants as tc
from arraystack.backends.numba.mathlib.twins import numpy_twin

from tests.backends.numba.mathlib.implementations import NUMPY_MODULES, needs_c_twin, twin
from tests.backends.numba.mathlib.inputs import (
    F32,
    F64,
    assert_bitwise_equal,
    generate,
    neighbours,
    specials,
)

pytestmark = pytest.mark.numba

C_TWIN = twins.C_TWIN


@pytest.mark.parametrize("implementation", [None, "numpy", "c"])
def test_twin_shapes_strides_and_lookup(implementation):
    if implementation == "c" and C_TWIN is None:
        pytest.skip("the C twin is not built (or stale)")
    in_c = implementation != "numpy" and C_TWIN is not None
    x = np.linspace(-3, 3, 60, dtype=np.float32).reshape(6, 10)[:, ::3]  # non-contiguous
    for name in twins.FAMILY:
        for dtype in (F32, F64):
            fn = numpy_twin(name, dtype, implementation)
            assert fn.__doc__.endswith(" in C.") == in_c
            y = fn(x.astype(dtype))
            assert y.shape == x.shape and y.dtype == dtype
            np.testing.assert_array_equal(y.ravel(), fn(x.astype(dtype).ravel()))
            zero_d = fn(np.array(0.5, dtype))
            assert zero_d.shape == () and zero_d == fn(np.array([0.5], dtype))[0]
            assert fn(np.zeros((0, 3), dtype)).shape == (0, 3)
        assert numpy_twin(name, np.float16, implementation) is None
    x64 = np.array([1.0, 2.0])
    out = numpy_twin("exp", "float64", implementation)(x64)
    assert out is not x64 and np.shares_memory(out, x64) is False
    assert numpy_twin("atan", np.float32, implementation) is None
    assert numpy_twin("exp", np.int32, implementation) is None
    with pytest.raises(TypeError, match="float64"):
        numpy_twin("exp", np.float64, implementation)(x.astype(np.float32))
    with pytest.raises(TypeError, match="float32"):  # the other byte order
        numpy_twin("exp", np.float32, implementation)(x.astype(">f4"))
    with pytest.raises(ValueError, match="implementation"):
        numpy_twin("exp", np.float32, "fortran")


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
    """setup.py compiles the sources' CRC into the module; another CRC means an edited source."""
    if C_TWIN is not None:
        assert twins._is_current(C_TWIN)
    with pytest.warns(RuntimeWarning, match="older mathlib/_twin"):
        assert not twins._is_current(types.SimpleNamespace(SOURCE_CRC="0000000g"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning):
            twins._is_current(types.SimpleNamespace())


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
        "from arraystack.backends.numba.mathlib.twins import FAMILY, numpy_twin\n"
        "for name in FAMILY:\n"
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
        "assert m.numpy_twin('tanh', np.float64) is m._ENTRY_POINTS['tanh', np.dtype(np.float64)]\n"
        "try:\n"
        "    m.numpy_twin('exp', np.float32, 'c')\n"
        "except ValueError as e:\n"
        "    print('ValueError', 'not built' in str(e))\n"
    )
    assert out.split() == ["ValueError", "True"]


TRIG_CONSTANTS = ("PIO2_HI", "PIO2_LO", "TRIG_TINY", "TWO_OVER_PI", "PIO2_A", "PIO2_B", "TRIG_FAST_F",
                  "TRIG_TINY_F", "SIN_C", "COS_C", "SIN_CF", "COS_CF")  # fmt: skip
ERF_CONSTANTS = ("ERF_Q", "ERF_R", "ERF_SPLIT", "ERF_ONE", "ERF_CENTER", "ERF_SCALE")


@needs_c_twin
@pytest.mark.parametrize("compiled,module,names", [("TRIG_CONSTANTS", tc, TRIG_CONSTANTS),
                                                   ("ERF_CONSTANTS", constants, ERF_CONSTANTS)])  # fmt: skip
def test_c_twin_constants_are_the_python_ones(compiled, module, names):
    """_trig_twin.h's and _erf_twin.h's hex literals, as compiled, are trig_constants.py's and
    constants.py's values, bit for bit (the float32 ones are floats there: their values must be
    float32)."""
    values = getattr(C_TWIN, compiled)
    assert sorted(values) == sorted(names)
    for name in names:
        got, want = values[name], getattr(module, name)
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
        "from arraystack.backends.numba.mathlib import twins\n"
        "from arraystack.backends.numba.mathlib.trig_constants import TRIG_TABLE, TRIG_TABLE_F\n"
        "T, TF = TRIG_TABLE, TRIG_TABLE_F\n"
        "assert fresh is not twins.C_TWIN\n"
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
        "        print(got.tobytes() == twins.numpy_twin(name, dtype, 'numpy')(v).tobytes())\n"
    )
    lines = out.split()
    assert lines[:5] == ["RuntimeError", "ValueError", "ValueError", lines[3], "RuntimeError"]
    assert lines[3] in ("ValueError", "BufferError")  # not C-contiguous: NumPy's own error
    assert lines[5:] == ["True"] * 4


@needs_c_twin
def test_c_twins_libm_loop_is_libms_erf():
    """libm_erf_f64 (eager erf's reference rule) gives math.erf's bits in every variant; erf_f64 is the
    kernel's, another function."""
    x = np.ascontiguousarray(generate("erf", F64)[::50])
    want = np.array([math.erf(v) for v in x])
    for variant in range(len(C_TWIN.VARIANTS)):
        got = np.empty_like(x)
        C_TWIN.libm_erf_f64(x, got, variant)
        assert_bitwise_equal(got, want, x, f"libm_erf_f64 ({C_TWIN.VARIANTS[variant]})")
    assert (twin("erf", np.float64, "c:portable")(x) != want).any()


@needs_c_twin
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
            np.testing.assert_array_equal(
                got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}")
            )
            np.testing.assert_array_equal(case, before)
    half = np.array([0.5, -2.0], np.float16)
    np.testing.assert_array_equal(rule(np, half), general(np, half))


# -- the NumPy twin's fma ----------------------------------------------------------------------------------


@pytest.mark.parametrize("family", sorted(set(twins.FAMILY.values()) - {"log1p"}))
def test_emulated_fmas_stay_in_the_exact_range(family, monkeypatch):
    """Every fma_f64 the NumPy twin of the family makes (its polynomials; erf's Horner steps come from
    trig_numpy.py) meets the conditions under which fma_f64 is exact (its docstring), on a sample of the
    generated inputs (float32 trig: the finite ones, as an infinite or NaN x carries inf or NaN through
    the fast reduction's fma, in lanes whose result the last selects replace). log1p's fmas are log's."""
    calls = []

    def checked(a, b, c, b_parts=None):
        ok = fma_emulation.in_exact_range_f64(a, b, c)
        assert ok.all(), (np.broadcast_arrays(a, b, c)[0][~ok][:3], np.asarray(b), np.asarray(c))
        calls.append(1)
        return fma_emulation.fma_f64(a, b, c, b_parts)

    for module in NUMPY_MODULES.values():
        if hasattr(module, "fma_f64"):
            monkeypatch.setattr(module, "fma_f64", checked)
    rng = np.random.default_rng(3)
    for name in (n for n, f in twins.FAMILY.items() if f == family):
        for dtype in (F32, F64):
            x = np.concatenate([rng.choice(generate(name, dtype), 200_000), specials(dtype)])
            numpy_twin(name, dtype, "numpy")(x[np.isfinite(x)] if dtype == F32 else x)
    assert len(calls) > 0


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
    a = np.concatenate([_operands(rng, n, 53, (-60, 10)), _operands(rng, n, 27, (-40, 10)),
                        rng.uniform(-0.35, 0.35, n)])  # fmt: skip
    b = np.concatenate([_operands(rng, n, 53, (-60, 10)), _operands(rng, n, 28, (-40, 10)),
                        rng.uniform(-0.35, 0.35, n)])  # fmt: skip
    c = np.concatenate([_operands(rng, n, 53, (-60, 12)),
                        -(a[n : 2 * n] * b[n : 2 * n]) + _operands(rng, n, 3, (-120, -60)),
                        rng.uniform(0, 2, n) / np.arange(1, n + 1)])  # fmt: skip
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
    a = np.concatenate([_operands(rng, n, 24, (-30, 10)), _operands(rng, n, 13, (-20, 10)),
                        _operands(rng, n, 24, (-80, -60))]).astype(np.float32)  # fmt: skip
    b = np.concatenate([_operands(rng, n, 24, (-30, 10)), _operands(rng, n, 13, (-20, 10)),
                        _operands(rng, n, 24, (-80, -60))]).astype(np.float32)  # fmt: skip
    near = -(a[n : 2 * n].astype(np.float64) * b[n : 2 * n]) + _operands(rng, n, 2, (-60, -30))
    c = np.concatenate([_operands(rng, n, 24, (-30, 12)), near.astype(np.float32),
                        _operands(rng, n, 24, (-150, -120))]).astype(np.float32)  # fmt: skip
    ties = (v.astype(np.float32) for v in _near_ties(rng, 2000, 24, 15))
    a, b, c = (np.concatenate([v, t]) for v, t in zip((a, b, c), ties))
    got = fma_emulation.fma_f32(a, b, c)
    exact = (
        Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)) for x, y, z in zip(a, b, c)
    )
    want = np.array([round_f32(q) for q in exact], np.float32)
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    assert np.any(got != (a * b + c))


def test_erfs_tiny_route_against_rationals():
    """The NumPy twin's fma(a, q, a) for tiny a (erf_numpy._fma_tiny) is the correctly rounded a q + a,
    for normal and subnormal results and the q it takes (0 <= q < 1)."""
    rng = np.random.default_rng(12)
    n = 3000
    a = np.concatenate([
        np.exp2(rng.uniform(-1074, -600, n)),
        rng.integers(0, 2**52, n, dtype=np.int64).view(np.float64),  # denormals
        neighbours([2.0**-1022 / (1 + constants.ERF_Q[0])], F64, 200)[:400],
        [0.0, 5e-324, 2.0**-1022, np.nextafter(2.0**-600, 0)],
    ])  # fmt: skip
    a = a[(a >= 0) & (a < erf_numpy.ERF_TINY)]
    q = np.where(rng.random(a.size) < 0.5, constants.ERF_Q[0], rng.uniform(0, 0.999, a.size))
    got = erf_numpy._fma_tiny(a, q)
    want = np.array([float(Fraction(x) * Fraction(y) + Fraction(x)) for x, y in zip(a, q)])
    assert_bitwise_equal(got, want, a, "fma_tiny")
