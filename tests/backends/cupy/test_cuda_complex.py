"""complex64/complex128 in generated CUDA kernels (backends/cupy/complex_ops.cuh, lowering.py): the kernels
compile with NVRTC for sm_80 and sm_90 without spills and, on the CPU harness, equal NumPy: bitwise for
arithmetic, comparisons, selects, conversions and sums of integer-valued data; within the bounds of
docs/internals/cuda.md for abs, exp, log, sqrt and float sums; on random values and on every pair of
special parts (0, -0, inf, -inf, nan, denormals, huge)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from arraystack.backends.cupy import cuda_codegen
from arraystack.ir.control import fusion_p
from arraystack.ir.ir import Eqn
from arraystack.ir.passes.fusion_policy import GENERIC
from arraystack.ir.passes.pipeline import run_pipeline

import arraystack as ast
from tests.backends.cupy.cuda_check import (
    combined,
    compile_for_gpus,
    fusion_eqns,
    needs_nvrtc,
    reference,
    run_kernels,
    ulps,
)

pytestmark = needs_nvrtc

COMPLEX = ["complex64", "complex128"]


def _part(dtype) -> np.dtype:
    return np.dtype(f"f{np.dtype(dtype).itemsize // 2}")


def _specials(dtype) -> list:
    info = np.finfo(_part(dtype))
    tiny = float(info.smallest_subnormal) * 3
    huge = float(info.max) / 3
    return [0.0, -0.0, np.inf, -np.inf, np.nan, tiny, -tiny, huge, -huge, 1.0, -2.5]


def special_pairs(dtype) -> np.ndarray:
    """Every complex number whose parts are both special values."""
    parts = np.array(_specials(dtype), _part(dtype))
    re, im = np.meshgrid(parts, parts, indexing="ij")
    z = np.empty(re.shape, dtype)
    z.real, z.imag = re, im
    return z.ravel()


def random_values(dtype, n=200, seed=0, scale=4.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) * scale + 1j * rng.standard_normal(n) * scale).astype(dtype)


def _run(fn, *arrays):
    """(kernel outputs, NumPy's outputs) of every region of fn at arrays, the regions compiled for both
    GPUs first (one translation unit)."""
    graph = run_pipeline(ast.jit(fn).lower(*arrays).traced, fusion=GENERIC)
    eqns = [e for e in graph.eqns if e.prim is fusion_p]
    position = {v: k for k, v in enumerate(graph.inputs)}
    lowered = [cuda_codegen.lower_region(e) for e in eqns]
    for eqn, ks in zip(eqns, lowered):
        assert ks is not None, cuda_codegen.why_not(eqn)
    source = combined(lowered)
    compile_for_gpus(source, [k for ks in lowered for k in ks.kernels])
    results = []
    for eqn, ks in zip(eqns, lowered):
        feed = [arrays[position[x]] if x in position else None for x in eqn.inputs]
        assert all(f is not None for f in feed), "a region reads a value computed outside it"
        got = run_kernels(ks, eqn, feed, source)
        results += list(zip(got, reference(eqn, feed)))
    return results


def _parts(x) -> list:
    return [x.real, x.imag] if x.dtype.kind == "c" else [x]


def same_bits(got, want) -> None:
    """Equal part by part, NaN where NaN, and zeros of the same sign."""
    assert got.dtype == want.dtype and got.shape == want.shape
    for g, w in zip(_parts(got), _parts(want)):
        np.testing.assert_array_equal(g, w, strict=True)
        if w.dtype.kind == "f":
            zero = (g == 0) & (w == 0)
            np.testing.assert_array_equal(np.signbit(g[zero]), np.signbit(w[zero]))


def worst_ulps(got, want) -> float:
    """The largest distance of a part from NumPy's, in its units in the last place."""
    assert got.dtype == want.dtype and got.shape == want.shape
    return max(ulps(g, w).max(initial=0) for g, w in zip(_parts(got), _parts(want)))


@pytest.mark.parametrize("dtype", COMPLEX)
def test_arithmetic_comparisons_and_selects_are_bitwise_on_every_special_pair(dtype):
    z = special_pairs(dtype)
    a = np.concatenate([np.repeat(z, z.size), random_values(dtype)])
    b = np.concatenate([np.tile(z, z.size), random_values(dtype, seed=1)])

    def f(x, y):
        return (x + y, x - y, x * y, x / y, -x, ast.conj(x), x == y, x != y)

    def g(x, y):
        picked = ast.where(ast.real(x) > ast.imag(y), x, y)
        return ast.real(x), ast.imag(y), picked, ast.conj(x * 2.0 - 1j)

    for got, want in _run(f, a, b) + _run(g, a, b):
        same_bits(got, want)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_complex_from_two_floats_keeps_each_part(dtype):
    """round(z) traces to complex(rint(real(z)), rint(imag(z))); the fusion pass leaves `complex` out
    of regions (jit/regions.py), so the traced graph is made one region here."""
    z = np.concatenate([special_pairs(dtype), random_values(dtype)])
    graph = ast.jit(lambda x: ast.round(x) * x).lower(z).traced
    assert "complex" in {e.prim.name for e in graph.eqns}
    eqn = Eqn(fusion_p, graph.inputs, graph.outputs, {"graph": graph})
    ks = cuda_codegen.lower_region(eqn)
    assert ks is not None, cuda_codegen.why_not(eqn)
    compile_for_gpus(ks.source, ks.kernels)
    (got,) = run_kernels(ks, eqn, [z])
    (want,) = reference(eqn, [z])
    same_bits(got, want)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_conversions_to_and_from_complex_as_numpy(dtype):
    z = np.concatenate([special_pairs(dtype), random_values(dtype)])
    other = "complex128" if dtype == "complex64" else "complex64"

    def f(x):
        return x.astype(other), x.astype(bool), x.astype("float32"), x.astype("float16")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        for got, want in _run(f, z):
            same_bits(got, want)
    rng = np.random.default_rng(3)
    x = np.concatenate([_specials(dtype), rng.standard_normal(50) * 1e3]).astype(_part(dtype))
    ints = rng.integers(-(2**62), 2**62, x.size)
    flags = rng.random(x.size) > 0.5
    with np.errstate(over="ignore"):
        halves = x.astype(np.float16)

    def g(a, i, b, h):
        return a.astype(dtype), i.astype(dtype), b.astype(dtype), h.astype(dtype)

    for got, want in _run(g, x, ints, flags, halves):
        same_bits(got, want)


# CUDA's bounds composed (docs/internals/cuda.md, "Complex functions"), per part in ulp: (complex64,
# complex128); the tests add 2 ulp for NumPy's own error (glibc's cexp, clog, csqrt, its abs loop)
COMPLEX_BOUNDS = {"abs": (3, 2), "exp": (9, 7), "log": (14, 10), "sqrt": (6, 5)}


@pytest.mark.parametrize("dtype", COMPLEX)
def test_abs_exp_log_sqrt_within_the_documented_bounds(dtype):
    rng = np.random.default_rng(4)
    angle = rng.uniform(-np.pi, np.pi, 200)
    near_one = np.exp(1j * angle) * (1 + rng.uniform(-1e-3, 1e-3, 200))  # log1p's range
    wide = np.exp(rng.uniform(-80, 80, 200) + 1j * rng.uniform(-40, 40, 200))
    # exp(Re z) alone overflows while exp(z) need not: exp's factors split
    limit = 88.0 if dtype == "complex64" else 709.0
    past = limit + rng.uniform(0.1, 12, 200) + 1j * rng.uniform(-np.pi, np.pi, 200)
    with np.errstate(over="ignore", invalid="ignore"):
        z = np.concatenate(
            [
                special_pairs(dtype),
                random_values(dtype),
                *(v.astype(dtype) for v in (near_one, wide, past)),
            ]
        )
    names = list(COMPLEX_BOUNDS)
    results = _run(lambda x: tuple(getattr(ast, name)(x) for name in names), z)
    assert len(results) == len(names)
    for name, (got, want) in zip(names, results):
        bound = COMPLEX_BOUNDS[name][COMPLEX.index(dtype)] + 2
        worst = worst_ulps(got, want)
        assert worst <= bound, f"{name}: {worst} ulp (bound {bound})"


def _within_sum_bound(got, want, x, axis) -> None:
    """Each part within 2 n eps sum|part| of NumPy's (both orders are within n eps sum|part| of the
    exact sum)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    eps = np.finfo(_part(x.dtype)).eps
    n = x.size if axis is None else x.shape[axis]
    for g, w, part in zip(_parts(got), _parts(want), _parts(x)):
        bound = 2 * n * eps * np.sum(np.abs(part.astype(np.float64)), axis=axis)
        assert np.all(np.abs(g.astype(np.float64) - w.astype(np.float64)) <= bound + 1e-300)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_sums_in_row_column_and_whole_kernels(dtype):
    rng = np.random.default_rng(5)
    shape = (7, 300)
    whole = rng.integers(-50, 50, shape) + 1j * rng.integers(-50, 50, shape)
    x = random_values(dtype, n=shape[0] * shape[1], seed=6).reshape(shape)
    y = whole.astype(dtype)
    for axis, kind in [(1, "rows"), (0, "columns"), (None, "whole")]:

        def f(a, b, axis=axis):
            return ast.sum(a * b, axis=axis), ast.sum(ast.conj(b), axis=axis)

        kinds = {cuda_codegen.lower_region(eqn).kind for eqn in fusion_eqns(f, x, y)}
        assert kinds == {kind}
        (product, product_ref), (exact, exact_ref) = _run(f, x, y)
        same_bits(exact, exact_ref)  # integer-valued parts: every order of addition is exact
        _within_sum_bound(product, product_ref, x * y, axis)
    # a row read twice (kept in shared memory) and a full-size output
    centred = _run(lambda a: a - ast.sum(a, axis=-1, keepdims=True) / 300.0, y)
    for got, want in centred:
        same_bits(got, want)


def test_functions_without_a_complex_lowering_say_why_they_are_not_lowered():
    z = random_values("complex64", n=12).reshape(3, 4)
    (eqn,) = fusion_eqns(lambda a: ast.prod(ast.sin(a * a), axis=1), z)
    assert cuda_codegen.lower_region(eqn) is None
    assert "sin with complex64 operands is not written" in cuda_codegen.why_not(eqn)


def test_jit_of_a_complex_function_on_a_cuda_array_runs_cuda_kernels(standin):
    a = np.concatenate([random_values("complex128", n=100), special_pairs("complex128")])
    b = random_values("complex128", n=a.size, seed=7)

    def f(x, y):
        return x * y / (x + 2.0) - ast.conj(y), ast.exp(x), ast.sum(y * y)

    args = [ast.asarray(v, device="cuda") for v in (a, b)]
    text = ast.jit(f).lower(*args).compile().as_text()
    plan_lines = text.split("# optimized")[0]
    assert "cuda kernel (elementwise)" in plan_lines and "cuda kernel (whole)" in plan_lines
    assert "cupy rule" not in plan_lines
    got = [np.asarray(out.to_device("cpu")) for out in ast.jit(f)(*args)]
    assert all(out.dtype == np.complex128 for out in got)
    with np.errstate(all="ignore"):
        same_bits(got[0], a * b / (a + 2.0) - np.conj(b))
        assert worst_ulps(got[1], np.exp(a)) <= COMPLEX_BOUNDS["exp"][1] + 2
    _within_sum_bound(got[2], np.sum(b * b), b * b, None)


def test_a_complex128_operand_not_16_byte_aligned_is_refused_before_the_launch():
    z = random_values("complex128", n=8)
    (eqn,) = fusion_eqns(lambda a: a * a, z)
    ks = cuda_codegen.lower_region(eqn)
    buffer = np.zeros(z.nbytes + 16, np.uint8)
    start = 8 if buffer.ctypes.data % 16 == 0 else 0
    shifted = buffer[start : start + z.nbytes].view(np.complex128)  # 8-byte aligned only
    shifted[...] = z
    out = np.empty_like(z)
    with pytest.raises(ValueError, match="complex128 operand at address .* not 16-byte aligned"):
        ks.launches([shifted], [out])
    assert len(ks.launches([shifted.copy()], [out])) == 1


@pytest.mark.parametrize("dtype", COMPLEX)
def test_conversions_to_integers_take_the_real_part_as_numpys_element_loop(dtype):
    z = np.concatenate([special_pairs(dtype), random_values(dtype, scale=1e3)])
    targets = ("int8", "uint8", "int32", "uint32", "int64", "uint64")
    eqns = fusion_eqns(lambda a: tuple(a.astype(dst) for dst in targets), z)
    lowered = [cuda_codegen.lower_region(eqn) for eqn in eqns]
    source = combined(lowered)  # one compile for every target
    compile_for_gpus(source, [k for ks in lowered for k in ks.kernels])
    results = {}
    for eqn, ks in zip(eqns, lowered):
        for v, out in zip(eqn.outputs, run_kernels(ks, eqn, [z], source)):
            results[np.dtype(v.aval.dtype).name] = out
    assert sorted(results) == sorted(targets)
    for dst in targets:
        got = results[dst]
        # one element at a time: NumPy's element loop (its SIMD loops differ out of range)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = np.array([np.array([v]).astype(dst)[0] for v in z])
        np.testing.assert_array_equal(got, want, strict=True, err_msg=f"{dtype} -> {dst}")


def test_real_imag_and_conj_of_real_values_as_numpy():
    x = np.array([1.5, -0.0, np.inf, np.nan, -3.0], np.float32)
    i = np.array([3, -7, 0, 2**31 - 1, -(2**31)], np.int32)
    for got, want in _run(
        lambda a, b: (ast.real(a) * 2, ast.imag(a) + a, ast.conj(a), ast.imag(b) - b, ast.conj(b)),
        x,
        i,
    ):
        same_bits(got, want)
