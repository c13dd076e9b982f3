"""The three copies of mathlib agree bit for bit, generated over twins.FAMILY: for every function, both
dtypes and every copy (the compiled numba function in a kernel-like loop, the NumPy twin, each loop
variant of the C twin), on inputs.generate's arrays (special values, every split point and its
neighbours, a dense sweep of the reduction range, every binade, random bit patterns). The coverage
checks show that the inputs take every select of the NumPy twin both ways (its selects are the
kernels' and the C twin's, line for line), reach every row of trig's reduction tables and every power
of two exp's reduction scales by. Then the variants the kernels also call: float32 trig's fast
reduction, both lowerings of exp's last scale, the float32 trig steps in float64, and whole
generated kernels through arraystack.jit.
"""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.numba.mathlib import (
    erf_numpy,
    exp_log_numpy,
    fma_emulation,
    trig_numpy,
    twins,
)
from arraystack.backends.numba.mathlib import trig_constants as tc

from tests.backends.numba.mathlib.implementations import (
    FAMILIES,
    IMPLEMENTATIONS,
    MODULES,
    NUMPY_MODULES,
    kernel_function,
    kernel_result,
    numba,
    numpy_run,
    run_loop,
    select_outcomes,
    select_sites,
    twin,
)
from tests.backends.numba.mathlib.inputs import (
    F32,
    F64,
    HARD_F64,
    SPLITS,
    assert_bitwise_equal,
    generate,
)

pytestmark = pytest.mark.numba

CASES = [pytest.param(name, dtype, id=f"{name}-{dtype}") for name, dtype in twins.FUNCTIONS]
TRIG = ("sin", "cos", "tan")


def test_every_function_has_all_three_copies_and_inputs():
    """Adding a function to twins.FAMILY without its copies or its split points fails here."""
    assert {name for name, _ in twins.FUNCTIONS} == set(twins.FAMILY)
    assert set(twins.FUNCTIONS) == set(SPLITS) == {(n, d) for n in twins.FAMILY for d in (F32, F64)}
    for name, dtype in twins.FUNCTIONS:
        assert isinstance(kernel_function(name, dtype), numba.core.registry.CPUDispatcher)
        assert twins.numpy_twin(name, dtype, "numpy") is not None
        if twins.C_TWIN is not None:
            assert callable(getattr(twins.C_TWIN, f"{name}_{'f32' if dtype == F32 else 'f64'}"))


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("name,dtype", CASES)
def test_copies_agree_bitwise(name, dtype, implementation):
    x = generate(name, dtype)
    if implementation == "numpy":
        got = numpy_run(name, dtype)
    else:
        got = twin(name, dtype, implementation)(x)
    assert_bitwise_equal(got, kernel_result(name, dtype), x, f"{name} ({implementation} twin)")


# -- the inputs reach every branch and table row ----------------------------------------------------------


@pytest.mark.parametrize("family", FAMILIES)
def test_inputs_take_every_select_both_ways(family):
    """Every np.where, np.minimum, np.maximum, np.fmin and np.fmax of <family>_numpy.py (the kernels'
    selects and clamps, line for line, and the twin's own) sees both outcomes over its functions'
    inputs, both dtypes."""
    seen = {}
    for name in (n for n, f in twins.FAMILY.items() if f == family):
        for dtype in (F32, F64):
            for site, outcomes in select_outcomes(name, dtype).items():
                seen.setdefault(site, set()).update(outcomes)
    sites = select_sites(NUMPY_MODULES[family])
    assert sites, family
    one_way = sorted(
        (site, seen.get(site, set())) for site in sites if seen.get(site) != {True, False}
    )
    assert not one_way, (
        f"selects not taken both ways (file, line, function, outcomes seen): {one_way}"
    )


def test_inputs_reach_every_reduction_table_row():
    """sin, cos and tan gather a row of 2/pi's bits per exponent: every row (float64: 0-2046, float32:
    0-254) is read by some input, and float32's table reduction (|x| > 2**20) reads each row it serves."""
    for name in TRIG:
        x64, x32 = generate(name, F64), generate(name, F32)
        rows64 = np.abs(x64[np.isfinite(x64)]).view(np.int64) >> 52
        assert set(range(2047)) <= set(rows64.tolist())
        large = np.isfinite(x32) & (np.abs(x32) > tc.TRIG_FAST_F)
        rows32 = np.abs(x32[large]).view(np.int32) >> 23
        first = int(np.array(tc.TRIG_FAST_F, np.float32).view(np.int32) >> 23)
        assert set(range(first, 255)) <= set(rows32.tolist())
        assert set(range(255)) <= set((np.abs(x32[np.isfinite(x32)]).view(np.int32) >> 23).tolist())


def test_inputs_reach_every_power_of_two_of_exps_reduction():
    """exp, expm1 and logistic scale by 2**k, k = round(x / ln2) of x clamped: every k occurs (float64:
    -1076..1024, float32: -151..130; logistic's -|x| the k <= 0); float32 tanh's k = round(2|x| / ln2)
    takes 0..29."""
    with np.errstate(all="ignore"):
        for name in ("exp", "expm1", "logistic"):
            for dtype, reduce, bounds in ((F64, exp_log_numpy._reduce_f64, (-746.0, 710.0)),
                                          (F32, exp_log_numpy._reduce_f32, (-105.0, 90.0))):  # fmt: skip
                x = generate(name, dtype)
                if name == "logistic":  # logistic reduces -|x|: k <= 0
                    x, bounds = -np.abs(x), (bounds[0], 0.0)
                k = reduce(x[~np.isnan(x)])[0]
                lo, hi = reduce(np.array(bounds, dtype))[0].astype(int)
                assert set(range(lo, hi + 1)) == set(k.astype(int).tolist()), (name, dtype)
        m = np.minimum(np.abs(generate("tanh", F32)), np.float32(10.0))
        k = np.rint(m.astype(np.float64) * (2 / np.log(2)))
        assert set(range(30)) <= set(k[~np.isnan(k)].astype(int).tolist())


def test_inputs_reach_erfs_routes_and_trigs_hard_cases():
    """float64 erf: both polynomials, the 1 beyond 6, and the NumPy twin's tiny route with normal and
    subnormal results, on an argument where the plain fma_f64 would be wrong (so the route is needed).
    Trig: arguments whose reduced argument is far below 1 (|sin| or |cos| tiny, above the float's
    granularity), and the double nearest a multiple of pi/2."""
    x = generate("erf", F64)
    a = np.abs(x)
    assert ((a > 0) & (a < 1)).any() and ((a >= 1) & (a <= 6)).any() and (a > 6).any()
    tiny = a[(a > 0) & (a < erf_numpy.ERF_TINY)]
    assert (np.abs(kernel_result("erf", F64)[(a > 0) & (a < 2.0**-1022)]) >= 2.0**-1022).any()
    q = np.full_like(tiny, erf_numpy.ml.ERF_Q[0])  # Q's value at a * a = 0
    with np.errstate(all="ignore"):
        plain = fma_emulation.fma_f64(tiny, q, tiny)
    assert (plain != erf_numpy._fma_tiny(tiny, q)).any()
    sin64, cos64 = kernel_function("sin", F64), kernel_function("cos", F64)
    for dtype, bound in ((F64, 2.0**-45), (F32, 2.0**-18)):
        x = generate("sin", dtype)
        x = x[np.isfinite(x) & (np.abs(x) >= 1.0)].astype(np.float64)
        small = np.minimum(np.abs(run_loop(sin64, x)), np.abs(run_loop(cos64, x)))
        assert (small < bound).sum() >= 100
    assert HARD_F64 in generate("sin", F64) and -HARD_F64 in generate("cos", F64)


# -- the variants kernels call ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", TRIG)
def test_float32_fast_variants_agree_below_their_bound(name):
    """Generated kernels call `<name>_f32_fast` on blocks with every |x| <= 2**20 (codegen.py): there it
    gives the full function's bits, so the twins serve those kernels as well."""
    x = generate(name, F32)
    inside = np.abs(x) <= tc.TRIG_FAST_F  # the fast variants' domain
    assert inside.sum() > 100_000 and (np.abs(x) == tc.TRIG_FAST_F).any()
    got = run_loop(kernel_function(name, F32, "_fast"), x[inside])
    assert_bitwise_equal(got, kernel_result(name, F32)[inside], x[inside], f"{name}_f32_fast")


@pytest.mark.parametrize("dtype", [F32, F64])
def test_both_lowerings_of_exps_scale_agree(dtype, monkeypatch):
    """exp's last step, 2**k times the polynomial, is llvm.ldexp (VSCALEFPS/PD) where the target has
    AVX-512 and products of normal powers of two elsewhere (scale.py); both round once where the result
    is normal and again where it is denormal, so both give the kernel's bits on every input."""
    from arraystack.backends.numba.mathlib import scale

    function = kernel_function("exp", dtype)
    x = generate("exp", dtype)
    for one_instruction in (False, True):
        monkeypatch.setattr(
            scale, "_target_scales_in_one_instruction", lambda choice=one_instruction: choice
        )
        out = run_loop(numba.njit(function.py_func), x)  # lowered now, with this choice
        assert_bitwise_equal(out, kernel_result("exp", dtype), x, f"exp (ldexp: {one_instruction})")


def test_float32_trig_steps_agree_in_float64():
    """float32 sin and cos compute in float64 and round once: a float64 step computed differently would
    rarely change the float32 result, so the NumPy twin's steps are compared in float64 too, the
    reduction's (k, z) and the polynomials' (sin z, cos z), on the finite inputs."""
    reduce, sincos = MODULES["trig"]._reduce_f32, MODULES["trig"]._sincos_f32

    @numba.njit(error_model="numpy")
    def steps(x, k, z, s, c):
        for i in range(x.size):
            k[i], z[i] = reduce(abs(x[i]))
            s[i], c[i] = sincos(z[i])

    x = generate("sin", F32)
    x = x[np.isfinite(x)]
    want = [np.empty(x.size) for _ in range(4)]
    steps(x, *want)
    with np.errstate(all="ignore"):
        k, z = trig_numpy._reduce_f32(np.abs(x))
        got = [k, z, *trig_numpy._sincos_f32(z)]
    for step, g, w in zip(("k", "z", "sin z", "cos z"), got, want):
        assert_bitwise_equal(g.astype(np.float64), w, x, f"float32 step {step} of ")


@pytest.mark.parametrize("dtype", [F32, F64])
def test_generated_kernels_agree(dtype):
    """Through arraystack.jit: one fused, parallel, vectorized kernel calling every function (float32
    trig: the fast variants on blocks below 2**20, the full functions elsewhere) computes the twins'
    bits (NumPy's and, where it is built, C's), on inputs drawn from all the generated ones."""
    import arraystack as ast
    from arraystack.nn.activations import _erf, sigmoid

    functions = {"exp": ast.exp, "expm1": ast.expm1, "log": ast.log, "tanh": ast.tanh,
                 "logistic": sigmoid, "erf": _erf, "log1p": ast.log1p, "sin": ast.sin,
                 "cos": ast.cos, "tan": ast.tan}  # fmt: skip
    assert set(functions) == set(twins.FAMILY)

    def each(a):  # * 2 is exact (or overflows in both): the calls sit inside one generated loop
        return tuple(f(a) * 2 for f in functions.values())

    rng = np.random.default_rng(6)
    pool = np.concatenate([generate(name, dtype) for name in functions])
    mixed = rng.choice(pool, 300_000)  # a parallel kernel
    below = rng.choice(pool[np.abs(pool) <= tc.TRIG_FAST_F], 300_000)  # float32 trig: fast blocks
    jitted = ast.jit(each)
    source = jitted.lower(ast.asarray(mixed)).compile().source
    suffix = "f32" if dtype == F32 else "f64"
    assert all(f"{name}_{suffix}(" in source for name in functions)
    assert ("sin_f32_fast(" in source) == ("tan_f32_fast(" in source) == (dtype == F32)
    for x in (mixed, below):
        for name, got in zip(functions, jitted(ast.asarray(x))):
            got = np.asarray(got)
            assert got.dtype == dtype
            for implementation in ("numpy", "c") if twins.C_TWIN is not None else ("numpy",):
                with np.errstate(all="ignore"):
                    want = twins.numpy_twin(name, dtype, implementation)(x) * dtype.type(2)
                assert_bitwise_equal(got, want, x, f"jitted {name} ({implementation} twin)")
