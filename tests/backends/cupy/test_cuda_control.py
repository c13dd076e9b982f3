"""The GPU path end to end on the stand-in (backends/cupy/backend.py `_lowered`, backends/control.py): argmax and
cumulative equations run as CUDA kernels, cond/while_loop/fori_loop/scan run as host loops whose bodies'
fused regions are CUDA kernels too, and compile() and plan.explain() say per equation what runs a kernel
and why the rest runs its cupy rule. NumPy (eager, on the host) is the oracle."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.cupy import cpu_harness

import arraystack as ast
from tests.backends.cupy.cuda_check import needs_nvrtc
from tests.backends.cupy.test_backend import RegionsOnTheGPU, _hardware

pytestmark = needs_nvrtc


@pytest.fixture
def launched(monkeypatch):
    """The names of the kernels the harness builds while the test runs."""
    names = []
    load = cpu_harness.load

    def recording(source, kernel_name, cache_dir=None):
        names.append(kernel_name)
        return load(source, kernel_name, cache_dir)

    monkeypatch.setattr(cpu_harness, "load", recording)
    return names


def _host(value):
    return np.asarray(value.to_device("cpu"))


def _loops(a):
    def body(i, c):
        return c * 0.5 + ast.sin(c) * ast.max(c, axis=1, keepdims=True)

    looped = ast.fori_loop(0, 3, body, a)
    halved = ast.while_loop(lambda c: ast.sum(c * c) > 1.0, lambda c: c * 0.5, a)
    branch = ast.cond(ast.sum(a) > 0, lambda c: ast.exp(c), lambda c: -c, a)

    def step(carry, row):
        return carry + row, ast.argmax(row * carry) + ast.cumsum(row)[-1].astype(np.int64)

    total, picks = ast.scan(step, ast.zeros(a.shape[1], a.dtype), a)
    return looped, halved, branch, total, picks


def test_control_flow_runs_host_loops_over_kernels(standin, launched):
    x = np.random.default_rng(0).standard_normal((4, 37)).astype(np.float64)
    outs = ast.jit(_loops)(ast.asarray(x, device="cuda"))
    for got, want in zip(outs, _loops(x)):
        assert got.device == "cuda:0"
        np.testing.assert_allclose(_host(got), np.asarray(want), rtol=1e-12, atol=1e-12)
    kinds = {name.split("_")[1] for name in launched}
    # the bodies' regions: elementwise and row kernels, argmax and a cumulative sum
    assert {"map", "rows", "argw", "scanr"} <= kinds, kinds
    text = ast.jit(_loops).lower(ast.asarray(x, device="cuda")).compile().as_text()
    assert "host loop over compiled bodies" in text


def test_argmax_and_cumulative_run_as_kernels_through_jit(standin, launched):
    x = np.random.default_rng(1).standard_normal((6, 300)).astype(np.float32)
    x[2, 7] = np.nan

    def f(a):
        return (
            ast.argmax(a, axis=1),
            ast.argmin(a * 2.0),
            ast.cumsum(a, axis=0),
            ast.maximum.accumulate(a, axis=1),  # cupy has no maximum.accumulate: a kernel fills it
        )

    outs = ast.jit(f)(ast.asarray(x, device="cuda"))
    for got, want in zip(outs, f(x)):
        np.testing.assert_allclose(_host(got), np.asarray(want), rtol=1e-6)
    assert {"argr", "argw", "scanc", "scanr"} <= {name.split("_")[1] for name in launched}


def test_compile_and_explain_say_kernel_or_cupy_rule_with_the_reason(standin):
    x = np.linspace(-1, 1, 48).reshape(6, 8)

    def f(a):
        return ast.argmax(ast.tanh(a), axis=0), ast.sort(a, axis=0), ast.sum(ast.exp(a), axis=1)

    text = ast.jit(f).lower(ast.asarray(x, device="cuda")).compile().as_text()
    plan_lines = text.split("# optimized")[0]
    assert "cuda kernel (elementwise)" in plan_lines
    assert "cuda kernel (columns)" in plan_lines  # argmax along axis 0
    assert "cuda kernel (rows)" in plan_lines
    assert "cupy rule (no CUDA kernel of its own for sort)" in plan_lines
    plan = ast.jit(f, policy=RegionsOnTheGPU(), devices=_hardware()).lower(x).plan()
    explained = plan.explain()
    assert "not compiled (cupy: cupy rule" not in explained  # regions on the GPU are kernels
    everything = ast.jit(f, policy=_Everything(), devices=_hardware()).lower(x).plan()
    assert (
        "not compiled (cupy: cupy rule (no CUDA kernel of its own for sort))"
        in everything.explain()
    )


class _Everything:
    def place(self, eqn, cost, devices, current):
        return "cuda:0"
