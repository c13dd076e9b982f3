"""Running fusion regions through the CUDA generator: NVRTC for sm_80 and sm_90 (no spills), then the same
source on the CPU harness, against each region's reference rules (NumPy).

Compiles are cached for the session (by source text), so a test that meets a kernel twice pays once.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from arraystack.backends.cupy import cpu_harness, cuda_codegen, kernel_cache, nvrtc
from arraystack.ir.control import fusion_p
from arraystack.ir.ir import Literal
from arraystack.ir.passes.fusion_policy import GENERIC
from arraystack.ir.passes.pipeline import run_pipeline
from arraystack.ir.reference import reference_rules

import arraystack as ast

needs_nvrtc = pytest.mark.skipif(not nvrtc.available(), reason="NVRTC is not installed")
ARCHS = ("sm_80", "sm_90")
_checked: set = set()


def fusion_eqns(fn, *args):
    """The fusion equations of fn traced at these arguments, fused under the generic policy (every
    primitive the region model allows joins a region)."""
    traced = ast.jit(fn).lower(*args).traced
    graph = run_pipeline(traced, fusion=GENERIC)
    return [e for e in graph.eqns if e.prim is fusion_p]


def combined(sources) -> str:
    """One translation unit holding the kernels of several KernelSources (one compile for all)."""
    prelude = cuda_codegen.PRELUDE + "\n"
    bodies = dict.fromkeys(ks.source[len(prelude) :] for ks in sources)
    return prelude + "".join(bodies)


def compile_for_gpus(source, kernels) -> None:
    """Every kernel compiles with NVRTC for sm_80 and sm_90 without local-memory spills, in both index
    widths (the source and its narrow variant)."""
    if not nvrtc.available() or source in _checked:
        return
    for arch, text in [
        (a, t) for a in ARCHS for t in dict.fromkeys((source, cuda_codegen.narrow(source)))
    ]:
        result = kernel_cache.compile_cached(text, kernels, arch=arch)
        missing = set(kernels) - set(result.resources)
        assert not missing, (
            f"{arch}: ptxas reported no resources for {sorted(missing)} (NVRTC {nvrtc.version()} "
            f"from {nvrtc.library_path()}; mapped: {_mapped('libnvrtc')}); the log:\n{result.log}"
        )
        assert result.spills == 0, f"{arch}: {result.resources}"
        assert all(r["stack"] == 0 for r in result.resources.values()), result.resources
    _checked.add(source)


def _mapped(name: str) -> list:
    """The files of this process's memory map whose names hold `name` (which libraries are loaded)."""
    try:
        with open("/proc/self/maps") as maps:
            return sorted({line.split()[-1] for line in maps if name in line})
    except OSError:
        return []


def run_kernels(ks, eqn, inputs, source=None, narrow=None):
    """The region's outputs computed by its kernels on the CPU harness (from `source`, a combined
    translation unit holding them, if given); narrow=False: the 64-bit variant where the 32-bit one
    would run."""
    outputs = [np.empty(v.aval.shape, v.aval.dtype) for v in eqn.outputs]
    scratch = [np.empty(shape, dtype) for shape, dtype in ks.scratch(inputs)]
    for launch in ks.launches(inputs, outputs, scratch, narrow=narrow):
        kernel = load(source or ks.source, launch)
        kernel(launch.grid, launch.block, launch.args, launch.shared_mem)
    return outputs


def load(source, launch):
    """The CPU harness's kernel of `launch`, from `source` or its narrow variant as the launch asks."""
    return cpu_harness.load(cuda_codegen.narrow(source) if launch.narrow else source, launch.kernel)


def reference(eqn, inputs):
    """The region evaluated by its primitives' reference rules (NumPy)."""
    graph = eqn.params["graph"]
    env = dict(zip(graph.inputs, inputs))

    def read(x):
        return np.asarray(x.value, x.aval.dtype) if isinstance(x, Literal) else env[x]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for e in graph.eqns:
            out = reference_rules[e.prim](np, *[read(x) for x in e.inputs], **e.params)
            env[e.outputs[0]] = np.asarray(out, e.outputs[0].aval.dtype)
    return [np.asarray(read(v)).reshape(v.aval.shape) for v in graph.outputs]


def ulps(got, want) -> np.ndarray:
    """|got - want| in units in the last place of `want`'s dtype (0 where both are the same NaN/inf)."""
    dtype = want.dtype
    got, want = got.astype(np.float64), want.astype(np.float64)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    tiny = np.finfo(dtype).smallest_subnormal
    with np.errstate(invalid="ignore"):
        spacing = np.maximum(np.abs(np.spacing(want.astype(dtype))).astype(np.float64), tiny)
        out = np.abs(got - want) / spacing
    return np.where(same, 0.0, np.where(np.isfinite(out), out, np.inf))


def check(fn, *args, ulp=0, inputs=None):
    """Every region of fn at args: compiled for both GPUs, and equal to NumPy on the harness (bitwise,
    NaN where NaN, for ulp=0; within `ulp` units in the last place otherwise). `inputs`: arrays to feed
    instead of `args` (strided views with the same avals). Returns the number of regions."""
    eqns = fusion_eqns(fn, *args)
    assert eqns, "no fusion region"
    lowered = [cuda_codegen.lower_region(eqn) for eqn in eqns]
    for eqn, ks in zip(eqns, lowered):
        assert ks is not None, cuda_codegen.why_not(eqn)
    source = combined(lowered)
    compile_for_gpus(source, [name for ks in lowered for name in ks.kernels])
    for eqn, ks in zip(eqns, lowered):
        feed = [np.asarray(a) for a in (inputs or args)] if len(eqns) == 1 else None
        if feed is None or [f.shape for f in feed] != [tuple(x.aval.shape) for x in eqn.inputs]:
            feed = [_sample(x.aval) for x in eqn.inputs]
        got = run_kernels(ks, eqn, feed, source)
        want = reference(eqn, feed)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape
            if ulp == 0 or w.dtype.kind != "f":
                np.testing.assert_array_equal(g, w, strict=True)
                both_zero = (g == 0) & (w == 0)
                np.testing.assert_array_equal(np.signbit(g[both_zero]), np.signbit(w[both_zero]))
            else:
                worst = ulps(g, w).max(initial=0)
                assert worst <= ulp, f"{worst} ulp (bound {ulp})"
    return len(eqns)


def _sample(aval):
    rng = np.random.default_rng(1)
    dtype = np.dtype(aval.dtype)
    if dtype.kind == "b":
        return rng.random(aval.shape) > 0.5
    if dtype.kind in "iu":
        return rng.integers(0 if dtype.kind == "u" else -50, 50, aval.shape).astype(dtype)
    return rng.standard_normal(aval.shape).astype(dtype)
