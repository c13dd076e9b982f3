"""jit(f, policy=..., devices=...): each specialization is planned (backends/planner.py) and run by the
execution engine (backends/engine.py); the default placement keeps the backend's executable (tiered)."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack._transforms.jit_placement import PlacedExecutable
from arraystack.backends.presets import model as preset_model

import arraystack as ast

pytestmark = pytest.mark.numba

HW = preset_model("h100")  # cpu: a preset server CPU (runs on this machine's CPU); cuda:0: a simulated H100
GPU = "cuda:0"


def layer(x, w, v):
    h = ast.tanh(x @ w)  # worth moving to the H100 at N = 768
    s = ast.log(v * v + 1.0) * 2.0  # small: stays on the host
    return {"h": h, "s": s + h[0, 0], "total": ast.exp(v).sum()}


def operands(n):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, n)).astype(np.float32)
    w = rng.standard_normal((n, n)).astype(np.float32)
    v = rng.standard_normal(1000).astype(np.float32)
    return x, w, v


class EverythingOnTheGpu:
    def place(self, eqn, cost, devices, current):
        return GPU


def assert_same(got, want):
    assert got.keys() == want.keys()
    for k in want:
        np.testing.assert_array_equal(np.asarray(got[k]), np.asarray(want[k]))


def test_the_cost_policy_moves_large_work_and_computes_what_the_default_jit_does():
    args = operands(768)
    f = ast.jit(layer, policy="cost", devices=HW)
    want = ast.jit(layer, tiered=False)(*args)
    got = f(*args)
    assert_same(got, want)
    np.testing.assert_allclose(
        np.asarray(got["h"]), np.tanh(args[0].astype(np.float64) @ args[1]), atol=2e-4
    )
    (entry,) = f._cache.values()
    assert isinstance(entry.executable, PlacedExecutable) and entry.pending is None
    assert GPU in entry.executable.plan.devices and "cpu" in entry.executable.plan.devices
    report = f.last_run()
    copied = {(name, src, dst) for name, src, dst, _ in report.transfers}
    assert any(src == "cpu" and dst == GPU for _, src, dst in copied)
    assert any(src == GPU and dst == "cpu" for _, src, dst in copied)
    # the GPU's steps form a chain (plan order); host steps may overlap, so only bounds hold there
    assert report.peak[GPU] == report.predicted_peak[GPU]
    assert "cost" in entry.executable.as_text()
    assert f.lower(*args).plan().devices == entry.executable.plan.devices  # lower() plans as calls do


def test_small_work_stays_on_the_host_under_the_cost_policy():
    args = operands(8)
    f = ast.jit(layer, policy="cost", devices=HW)
    assert_same(f(*args), ast.jit(layer, tiered=False)(*args))
    assert set(f._cache[next(iter(f._cache))].executable.plan.devices) == {"cpu"}
    assert f.last_run().transfers == ()


@pytest.mark.parametrize(
    "fn",
    [
        lambda a: a,
        lambda a: (a * 2.0, 3.0),
        lambda a: (ast.exp(a) + 1, (a * a).sum(axis=0)),
        lambda a: (a.T * 2).reshape(12)[::2],
        lambda a: ast.fori_loop(0, 3, lambda i, c: c * 2.0 + a, a),
        lambda a: ast.cond(a.sum() > 0, lambda v: v + 1, lambda v: v - 1, a),
    ],
    ids=["identity", "literal", "multiple", "views", "loop", "cond"],
)
def test_a_policy_object_places_every_region_and_results_match(fn):
    x = np.linspace(-1, 1, 12).reshape(3, 4)
    f = ast.jit(fn, policy=EverythingOnTheGpu(), devices=HW)
    want = ast.jit(fn, tiered=False)(x)
    for _ in range(2):  # the first call (kernels compile) and a cached one
        got = f(x)
        pairs = zip(got, want) if isinstance(want, tuple) else [(got, want)]
        for a, b in pairs:
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    assert f.stats()["traces"] == 1 and f.stats()["cache_hits"] == 1
    got = f(x)
    assert not np.shares_memory(np.asarray(got if not isinstance(got, tuple) else got[0]), x)


def test_captured_arrays_are_inputs_of_the_placed_plan():
    scale = np.full(4, 2.0)

    def f(a):
        return a * scale

    g = ast.jit(f, policy="default", devices=HW)
    x = np.arange(4.0)
    np.testing.assert_array_equal(np.asarray(g(x)), x * 2.0)
    scale[:] = 3.0
    np.testing.assert_array_equal(np.asarray(g(x)), x * 3.0)


def test_a_device_limit_raises_out_of_memory_naming_the_step(memory_limit):
    args = operands(768)
    f = ast.jit(layer, policy="cost", devices=HW)
    memory_limit({GPU: 2 * 768 * 768 * 4 + 1000})  # x and w fit on the GPU; their product does not
    with pytest.raises(ast.OutOfMemory, match="dot_general"):
        f(*args)
    memory_limit(None)
    assert_same(f(*args), ast.jit(layer, tiered=False)(*args))


def test_bad_placements_fail_when_jit_is_called():
    with pytest.raises(KeyError, match="no placement policy 'fastest'"):
        ast.jit(layer, policy="fastest")
    with pytest.raises(TypeError, match="hardware model"):
        ast.jit(layer, devices="h100")
    with pytest.raises(TypeError, match="place"):
        ast.jit(layer, policy=object())


def test_the_default_placement_keeps_the_backends_executable_and_tiering():
    f = ast.jit(lambda a: a * 2.0, policy=None)
    assert f.placement is None
    f(np.ones(3))
    (entry,) = f._cache.values()
    assert not isinstance(entry.executable, PlacedExecutable)
    assert f.last_run() is None
    assert ast.jit(lambda a: a, policy="default").placement is None  # nothing to decide


def test_the_fast_path_sees_a_changed_default_backend():
    f = ast.jit(lambda a: a + 1.0, tiered=False)
    x = np.ones(3)
    f(x)
    before = ast.config.default_backend
    try:
        ast.config.default_backend = "reference"
        f(x)
        assert f.stats()["traces"] == 2  # the backend is part of the key, on the fast path too
    finally:
        ast.config.default_backend = before
