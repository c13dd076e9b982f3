"""Row reductions that keep the row in shared memory (backends/cupy/cuda_codegen_reduce.py): softmax and
layernorm read each input element from global memory once when the row fits the block's shared memory
(48 KiB beside the reductions' slots), and re-read it per stage above that; both give the same bits, and
equal NumPy within the bounds of test_cuda_codegen_reduce."""

from __future__ import annotations

import numpy as np
from arraystack.backends.cupy import cuda_codegen
from arraystack.backends.cupy.cuda_codegen_reduce import SHARED_PER_BLOCK

import arraystack as ast
from tests.backends.cupy.cuda_check import (
    combined,
    compile_for_gpus,
    fusion_eqns,
    load,
    needs_nvrtc,
    reference,
    run_kernels,
)

pytestmark = needs_nvrtc


def softmax(a):
    e = ast.exp(a - ast.max(a, axis=-1, keepdims=True))
    return e / ast.sum(e, axis=-1, keepdims=True)


def layernorm(a, w):
    mu = ast.mean(a, axis=-1, keepdims=True)
    d = a - mu
    return d / ast.sqrt(ast.mean(d * d, axis=-1, keepdims=True) + 1e-5) * w


def _rerun_without_the_cache(ks, eqn, x, source):
    """The same launches with cache_rows = 0 and no shared memory: every stage reads global memory."""
    outputs = [np.empty(v.aval.shape, v.aval.dtype) for v in eqn.outputs]
    for launch in ks.launches(x, outputs):
        args = (*launch.args[:-1], type(launch.args[-1])(0))
        load(source, launch)(launch.grid, launch.block, args, 0)
    return outputs


def test_softmax_and_layernorm_keep_rows_in_shared_memory_when_they_fit():
    rng = np.random.default_rng(0)
    fits = rng.standard_normal((5, 3001)).astype(np.float32)  # 12 KB rows
    fits[1] *= 100
    too_long = rng.standard_normal((2, SHARED_PER_BLOCK // 4 + 5)).astype(np.float32)
    w = rng.standard_normal(3001).astype(np.float64)
    cases = [(softmax, [fits]), (softmax, [too_long]), (lambda a, b: layernorm(a, b), [fits, w])]
    work = []
    for fn, args in cases:
        (eqn,) = fusion_eqns(fn, *args)
        ks = cuda_codegen.lower_region(eqn)
        assert ks.kind == "rows" and "if (cache_rows) {" in ks.source
        work.append((eqn, ks, args))
    source = combined([ks for _, ks, _ in work])
    compile_for_gpus(source, [ks.name for _, ks, _ in work])
    shared = []
    for eqn, ks, args in work:
        outs = [np.empty(v.aval.shape, v.aval.dtype) for v in eqn.outputs]
        (launch,) = ks.launches(args, outs)
        shared.append(launch.shared_mem)
        (got,) = run_kernels(ks, eqn, args, source)
        (want,) = reference(eqn, args)
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)
        (again,) = _rerun_without_the_cache(ks, eqn, args, source)
        assert got.tobytes() == again.tobytes()
    # float32 rows of 3001: 12004 bytes; the weights are read by the last pass only: not kept
    assert shared == [3001 * 4, 0, 3001 * 4]


def _plan(fn, *args):
    from arraystack.backends.cupy import cuda_row_cache
    from arraystack.backends.cupy.cuda_region import Region

    (eqn,) = fusion_eqns(fn, *args)
    region = Region(eqn)
    return region, cuda_row_cache.plan(region)


def test_softmax_keeps_the_exps_so_each_is_computed_once():
    x = np.ones((3, 70), np.float32)
    region, cache = _plan(softmax, x)
    # pass 1 (max) stores x; pass 2 (sum of exps) reads x, stores exp(x - max) in x's slot; pass 3
    # (the division) reads the exps
    assert cache.types == ["float"] and cache.row_bytes == 4
    (p1, p2, p3) = cache.passes
    assert p1.reads == [] and [k[0] for k, _ in p1.stores] == ["site"]
    assert p2.reads == p1.stores and [k[0] for k, _ in p2.stores] == ["value"]
    ((key, _),) = p2.stores
    assert region.producer[key[1]].prim.name == "exp"
    assert p3.reads == p2.stores and p3.stores == []
    (eqn,) = fusion_eqns(softmax, x)
    source = cuda_codegen.lower_region(eqn).source
    cached = source[source.index("__global__") :].split("if (cache_rows) {")[1:]
    exps = [part.split("} else {")[0].count("expf(") for part in cached]
    assert len(cached) == 3 and exps[0] == exps[2] == 0 and exps[1] > 0  # in the sum's pass only


def _mixed(a, b):
    """Three stages and full outputs of several dtypes: a bool and a float16 value kept across passes."""
    centered = a - ast.mean(a, axis=-1, keepdims=True)
    positive = centered > 0
    scale = ast.max(ast.abs(centered) * b, axis=-1, keepdims=True)
    share = ast.sum(ast.where(positive, centered, 0) / scale, axis=-1, keepdims=True)
    return centered / scale - share, positive, ast.astype(centered, ast.int32) * 3


def _complex_rows(z):
    """Over two axes: a complex value kept from the second pass for the third."""
    c = z - ast.mean(z, axis=(-2, -1), keepdims=True)
    e = c * ast.conj(c) + c
    return e / ast.sum(e, axis=(-2, -1), keepdims=True)


def test_cached_values_of_every_kind_give_the_bits_of_the_uncached_kernel():
    rng = np.random.default_rng(3)
    a16 = (rng.standard_normal((4, 333)) * 4).astype(np.float16)
    a16[1, 5], a16[2, :] = np.nan, 0  # a NaN row, and a row of zeros (0/0 in every element)
    b = np.linspace(0.5, 2, 333).astype(np.float16)
    a64 = rng.standard_normal((3, 257))
    z = (rng.standard_normal((2, 5, 31)) + 1j * rng.standard_normal((2, 5, 31))).astype(
        np.complex64
    )
    cases = [(_mixed, [a16, b]), (_mixed, [a64, a64[0]]), (_complex_rows, [z])]
    for fn, args in cases:
        (eqn,) = fusion_eqns(fn, *args)
        ks = cuda_codegen.lower_region(eqn)
        assert ks.kind == "rows" and "if (cache_rows) {" in ks.source
        compile_for_gpus(ks.source, ks.kernels)
        got = run_kernels(ks, eqn, args)
        again = _rerun_without_the_cache(ks, eqn, args, ks.source)
        for g, w, u in zip(got, reference(eqn, args), again):
            assert g.tobytes() == u.tobytes()
            if g.dtype.kind in "biu":
                np.testing.assert_array_equal(g, w)
            else:
                tol = 4e-3 if g.dtype == np.float16 else 2e-5
                np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


def _recipe(seed):
    """A random rows program: steps over a growing list of full-size values (binary, unary, or a row
    reduction broadcast back), then outputs picked from them."""
    rng = np.random.default_rng(seed)
    steps = []
    for k in range(int(rng.integers(4, 9))):
        kind = rng.choice(["binary", "unary", "reduce"], p=[0.4, 0.25, 0.35])
        steps.append((str(kind), int(rng.integers(0, 2 + k)), int(rng.integers(0, 2 + k)),
                      int(rng.integers(0, 4))))  # fmt: skip
    outputs = sorted({int(i) for i in rng.integers(2, 2 + len(steps), 3)})
    return steps, outputs


def _program(recipe):
    steps, outputs = recipe

    def f(x, w):
        values, reduced = [x, x * w], []
        for kind, i, j, op in steps:
            a, b = values[i], values[j]
            if kind == "binary":
                values.append([a + b, a * b, a - b * 0.5, ast.maximum(a, b)][op])
            elif kind == "unary":
                values.append([ast.tanh(a), ast.exp(-ast.abs(a)), ast.sin(a), a * a][op])
            else:
                r = [ast.sum, ast.max, ast.min, ast.mean][op](a, axis=-1, keepdims=True)
                reduced.append(r[..., 0])
                values.append(b - r if op % 2 else b / (ast.abs(r) + 1.0))
        return tuple(values[k] for k in outputs) + tuple(reduced[-1:])

    return f


def test_random_row_programs_give_the_bits_of_the_uncached_kernel_and_numpys_values():
    rng = np.random.default_rng(7)
    work = []
    for seed in range(12):
        dtype = (np.float32, np.float64)[seed % 2]
        x = rng.standard_normal((3, 257 + seed)).astype(dtype)
        w = rng.uniform(0.5, 1.5, x.shape[1]).astype(dtype)
        rows = [
            (seed, e, cuda_codegen.lower_region(e))
            for e in fusion_eqns(_program(_recipe(seed)), x, w)
        ]
        rows = [(seed, e, ks) for seed, e, ks in rows if ks.kind == "rows"]
        assert rows, seed
        work += rows
    source = combined([ks for _, _, ks in work])  # one translation unit for all programs
    compile_for_gpus(source, [name for _, _, ks in work for name in ks.kernels])
    for seed, eqn, ks in work:
        feed = [rng.standard_normal(v.aval.shape).astype(v.aval.dtype) for v in eqn.inputs]
        got = run_kernels(ks, eqn, feed, source)
        cached = "if (cache_rows) {" in ks.source
        again = _rerun_without_the_cache(ks, eqn, feed, source) if cached else got
        for g, u, want in zip(got, again, reference(eqn, feed)):
            assert g.tobytes() == u.tobytes(), seed
            np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-5, err_msg=f"seed {seed}")
