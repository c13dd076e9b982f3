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
    from arraystack.backends.cupy import cpu_harness

    outputs = [np.empty(v.aval.shape, v.aval.dtype) for v in eqn.outputs]
    for launch in ks.launches(x, outputs):
        args = (*launch.args[:-1], np.int64(0))
        cpu_harness.load(source, launch.kernel)(launch.grid, launch.block, args, 0)
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
        assert ks.kind == "rows" and "cache_rows ? row" in ks.source
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
