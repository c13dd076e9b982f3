"""How the compiled copy is compiled, which the agreement rests on: no fast-math flag and every fusion an
explicit llvm.fma (so LLVM may not contract, reassociate or approximate); loops calling the functions
vectorize and generated kernels ask for 512-bit vectors; float32 sin and cos take their fast variant only
on blocks the generated kernel has checked, and give the twins' bits in every kind of kernel.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from arraystack.backends.numba.mathlib import checked_jit, twins

from tests.backends.numba.mathlib.implementations import (
    MODULES,
    kernel_function,
    numba,
    run_loop,
)

pytestmark = pytest.mark.numba

FAST_MATH_FLAG = re.compile(
    r"\b(fadd|fsub|fmul|fdiv|frem|fneg|fcmp|call|select)\s+"
    r"(fast|contract|reassoc|afn|nnan|ninf|nsz|arcp)\b"
)
TRIG = ("sin", "cos", "tan")


def test_functions_compile_without_fast_math_and_with_explicit_fma():
    """Every compiled function of the four modules (each recompiled uncached, as cached code cannot be
    inspected, with mathlib's own options, for the signatures the kernels use): no fast-math flag, no
    llvm.fmuladd (LLVM's choice to fuse or not), float32 and float64 llvm.fma. sin, cos and tan (their
    callees inlined, so their IR is all there) round with llvm.rint, no libm call that could differ,
    and float32 ones compute in float64: only llvm.fma.f64."""
    called = [(kernel_function(name, dtype), dtype) for name, dtype in twins.FUNCTIONS]
    called += [(kernel_function(name, np.float32, "_fast"), np.float32) for name in TRIG]
    for function, dtype in called:
        run_loop(function, np.ones(2, dtype))
    dispatchers = {
        v
        for module in MODULES.values()
        for v in vars(module).values()
        if isinstance(v, numba.core.registry.CPUDispatcher) and v.signatures
    }
    assert {function for function, _ in called} <= dispatchers
    fma_seen = set()
    for dispatcher in dispatchers:
        for signature in dispatcher.signatures:
            fresh = numba.njit(signature, **checked_jit.OPTIONS)(dispatcher.py_func)
            llvm_ir = fresh.inspect_llvm(signature)
            name = dispatcher.__name__
            assert "fmuladd" not in llvm_ir, name
            flagged = FAST_MATH_FLAG.search(llvm_ir)
            assert flagged is None, (name, flagged.group(0))
            fmas = set(re.findall(r"llvm\.fma\.f(?:32|64)", llvm_ir))
            fma_seen |= fmas
            if name.split("_")[0] in TRIG:
                assert "llvm.rint.f64" in llvm_ir, name
                assert fmas == {"llvm.fma.f64"}, name
    assert fma_seen == {"llvm.fma.f32", "llvm.fma.f64"}


@pytest.mark.parametrize("name", ["sin_f64", "sin_f32", "cos_f32_fast", "tan_f64", "tan_f32"])
def test_trig_loops_vectorize(name):
    function = getattr(MODULES["trig"], name)

    @numba.njit(error_model="numpy")
    def loop(x, out):
        for i in range(x.size):
            out[i] = function(x[i])

    x = np.ones(64, np.float64 if name.endswith("f64") else np.float32)
    loop(x, np.empty_like(x))
    assert "llvm.fma.v" in loop.inspect_llvm(loop.signatures[0]), f"{name}: no vector loop"


def test_generated_kernels_prefer_512_bit_vectors():
    """The kernel's loop function carries LLVM's "prefer-vector-width"="512" (x86's cost model otherwise
    picks 256-bit vectors on AVX-512 CPUs), also inside a parallel loop's outlined body."""
    from arraystack.backends.numba.intrinsics import prefer_wide_vectors

    exp_f32 = kernel_function("exp", np.float32)

    @numba.njit(parallel=True)
    def loop(x, out):
        for i in numba.prange(x.size):
            prefer_wide_vectors()
            out[i] = exp_f32(x[i])

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


def _fusions(f, *args):
    return f.lower(*args).compile().as_text().split("# optimized graph")[0].count("fusion")


def test_jitted_loops_check_blocks_in_flat_nested_and_donated_kernels():
    """float32 sin and cos in generated loops: the fast variants on blocks whose arguments are all <=
    2**20, the full functions on the others, in a serial flat kernel (its loop a function of its own),
    a nested one (the arguments broadcast, checked along the last axis) and one writing over its donated
    input; each gives the full functions' bits (NumPy twin), which eager-NumPy float32 arithmetic then
    rounds as NumPy does."""
    import arraystack as ast

    sin, cos = twins.numpy_twin("sin", np.float32), twins.numpy_twin("cos", np.float32)
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

    f = ast.jit(lambda x: ast.sum(ast.sin(x), axis=1))
    x32 = np.random.default_rng(3).standard_normal((64, 300)).astype(np.float32)
    x64 = x32.astype(np.float64)
    assert _fusions(f, x32) == 2 and _fusions(f, x64) == 1
    for x in (x32, x64):
        got = np.asarray(f(x))
        want = twins.numpy_twin("sin", x.dtype)(x).sum(axis=1, dtype=np.float64)
        np.testing.assert_allclose(got, want, rtol=1e-5 if x is x32 else 1e-12)
