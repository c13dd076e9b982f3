"""The execution engine (backends/engine.py, device_runtime.py): plans run end to end on the host and a
simulated H100, with the plan's transfers, per-device memory and limits, and independent regions concurrent."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from arraystack.backends.device_runtime import (
    HostRuntime,
    RuntimeMissing,
    SimulatedRuntime,
    runtime_for,
)
from arraystack.backends.engine import Engine
from arraystack.backends.hardware import Device
from arraystack.backends.presets import model as preset_model
from arraystack.backends.registry import for_device

import arraystack as ast

pytestmark = pytest.mark.numba

# cpu: server-cpu-64 (runs on this machine's CPU); cuda:0: a simulated H100
HW = preset_model("h100")
HOST = for_device(HW["cpu"])  # the backend whose steps the host (and the simulated H100) run
GPU = "cuda:0"
N = 768  # the product is worth moving to the H100 at this size, and takes milliseconds here
NBYTES = N * N * 4


def layer(x, w, v):
    h = ast.tanh(x @ w)  # to the GPU: the product, its tanh, a slice and a reshape of it (views)
    s = ast.log(v * v + 1.0) * 2.0  # small: stays on the host, independent of the GPU work
    return h, s + h[0, 0], ast.exp(v).sum()


@pytest.fixture(scope="module")
def operands():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((N, N)).astype(np.float32)
    w = rng.standard_normal((N, N)).astype(np.float32)
    v = rng.standard_normal(1000).astype(np.float32)
    return x, w, v


@pytest.fixture(scope="module")
def lowered(operands):
    return ast.jit(layer).lower(*operands)


def fresh_engine(plan, **runtimes):
    """An engine whose runtimes are new (their pools and counters start at zero)."""
    made = {"cpu": HostRuntime(HW["cpu"], HOST), GPU: SimulatedRuntime(HW[GPU], backend=HOST)}
    made.update(runtimes)
    return Engine(plan, runtimes=made)


def as_numpy(outs):
    return [np.asarray(o) for o in outs]


def test_a_cost_plan_on_cpu_and_simulated_h100_matches_the_default_plan_and_numpy(
    lowered, operands
):
    plan = lowered.plan(policy="cost", devices=HW)
    assert plan.devices[0] == GPU and "cpu" in plan.devices  # the premise: a mixed placement
    got = as_numpy(plan.run(*operands))
    default = as_numpy(lowered.plan(devices=HW).run(*operands))
    x, w, v = operands
    h = np.tanh(x @ w)
    want = [h, np.log(v * v + 1.0) * 2 + h[0, 0], np.exp(v).sum()]
    for a, b, c in zip(got, default, want):
        np.testing.assert_array_equal(a, b)  # the simulated device runs the host's kernels
        np.testing.assert_allclose(a, c, rtol=2e-5, atol=1e-5)
    assert plan.last_run.runtimes == {"cpu": "host", GPU: "simulated"}


def test_the_transfers_performed_are_the_plans(lowered, operands):
    plan = lowered.plan(policy="cost", devices=HW)
    engine = fresh_engine(plan)
    _, report = engine.run(list(operands))
    planned = [(t.value, t.src, t.dst, t.bytes) for t in plan.transfers]
    assert list(report.transfers) == planned
    assert [t[:3] for t in planned] == [
        ("a", "cpu", GPU), ("b", "cpu", GPU), ("g", GPU, "cpu"), ("e", GPU, "cpu"),
    ]  # fmt: skip
    stats = engine.runtimes[GPU].stats()  # what the simulated device counted itself
    assert stats["copies_in"] == 2 and stats["bytes_in"] == 2 * NBYTES
    assert stats["copies_out"] == 2 and stats["bytes_out"] == NBYTES + 4
    assert "copied a cpu -> cuda:0: 2359296 bytes" in report.explain()


@pytest.mark.parametrize("workers", [1, 4])
def test_peak_bytes_per_device_follow_the_buffer_assignment(lowered, operands, workers):
    plan = lowered.plan(policy="cost", devices=HW)
    # on the GPU: a and b (x and w) arrive, the product d is a third buffer, its tanh e reuses a dead
    # operand's buffer, and the slice f and reshape g are views of e
    assert plan.buffer_of("e", GPU) in (plan.buffer_of("a", GPU), plan.buffer_of("b", GPU))
    assert plan.buffer_of("g", GPU) is plan.buffer_of("e", GPU)
    assert plan.memory()[GPU] == 3 * NBYTES
    engine = fresh_engine(plan)
    _, report = engine.run(list(operands), workers)
    pool = engine.runtimes[GPU].pool
    assert report.peak[GPU] == pool.peak == 3 * NBYTES
    assert pool.in_use == 0 and pool.allocated == 3  # everything freed; three blocks made
    host = report.peak["cpu"]
    arguments = sum(a.nbytes for a in operands)
    assert arguments + NBYTES <= host <= plan.memory()["cpu"]  # each buffer is allocated once
    if workers == 1:  # in plan order, exactly what the plan's buffer reuse predicts
        assert host == report.predicted_peak["cpu"]
    engine.run(list(operands), workers)
    assert pool.allocated == 3 and pool.reused == 3  # a second run reuses the pool's blocks


def test_a_device_limit_raises_out_of_memory_before_allocating(lowered, operands, memory_limit):
    plan = lowered.plan(policy="cost", devices=HW)
    engine = fresh_engine(plan)
    before = [a.copy() for a in operands]
    memory_limit({GPU: 2 * NBYTES + NBYTES // 2})  # a and b fit; the product does not
    with pytest.raises(ast.OutOfMemory) as info:
        engine.run(list(operands))
    err = info.value
    assert isinstance(err, MemoryError)
    assert err.device == GPU and err.primitive == "dot_general"
    assert err.step == plan.order.index(("run", 0)) == 2
    assert (err.requested, err.in_use, err.limit) == (NBYTES, 2 * NBYTES, 2 * NBYTES + NBYTES // 2)
    message = str(err)
    for part in (
        "plan step 2",
        "region 0 `dot_general`",
        "cuda:0",
        f"{NBYTES} bytes",
        "memory_limit",
    ):
        assert part in message
    assert "test_engine.py" in message  # the user's line
    assert engine.runtimes[GPU].pool.allocated == 0 and engine.runtimes[GPU].copies_in == 0
    for a, b in zip(operands, before):
        np.testing.assert_array_equal(a, b)
    memory_limit({GPU: 3 * NBYTES})  # exactly the plan's peak: it fits
    engine.run(list(operands))


def test_a_host_limit_applies_to_plans_too(lowered, operands, memory_limit):
    plan = lowered.plan(devices=HW)  # everything on the host
    arguments = sum(a.nbytes for a in operands)
    memory_limit(arguments + NBYTES)  # bytes: the host's limit; the product fits, its tanh does not
    with pytest.raises(ast.OutOfMemory) as info:
        plan.run(*operands)
    assert info.value.device == "cpu" and info.value.in_use == arguments + NBYTES
    memory_limit({"cpu": None, GPU: 1})  # a limit on a device the plan does not use
    assert len(plan.run(*operands)) == 3


def test_a_simulated_device_has_the_memory_of_its_preset(lowered, operands):
    plan = lowered.plan(policy="cost", devices=HW)
    small = SimulatedRuntime(Device(kind="cuda", memory=NBYTES, source="preset"), backend=HOST)
    with pytest.raises(ast.OutOfMemory, match=r"cuda:0 has 2.2 MiB \(2359296 bytes\) of memory"):
        fresh_engine(plan, **{GPU: small}).run(list(operands))


class BarrierRuntime(HostRuntime):
    """Every region waits for another region to reach the barrier: a serial engine would break it."""

    def __init__(self, device, parties):
        super().__init__(device, HOST)
        self.barrier = threading.Barrier(parties, timeout=20)

    def run(self, step, inputs, outputs):
        self.barrier.wait()
        return super().run(step, inputs, outputs)


def two_branches(x, y):
    return ast.exp(x) * 2.0, ast.sin(y) + 1.0


def test_independent_regions_run_on_different_threads():
    x, y = np.linspace(0, 1, 1000), np.linspace(1, 2, 500)
    plan = ast.jit(two_branches).lower(x, y).plan(devices=HW)
    assert [r.primitive for r in plan.regions] == ["fusion", "fusion"]
    engine = fresh_engine(plan, cpu=BarrierRuntime(HW["cpu"], 2))
    outs, report = engine.run([x, y], workers=2)
    assert len(set(report.threads.values())) == 2
    np.testing.assert_allclose(outs[0], np.exp(x) * 2.0)
    np.testing.assert_allclose(outs[1], np.sin(y) + 1.0)


def branches(x, y):
    for _ in range(3):  # the cumulative sums cut the fusion: six regions per branch
        x = ast.cumsum(ast.tanh(x) * 0.5)
        y = ast.cumsum(ast.sin(y) * 0.5)
    return x, y


def two_sums(x, y):
    return ast.tanh(ast.cumsum(x)).sum(), ast.sin(ast.cumsum(y)).sum()  # a large temporary each


def first_ready(ready):
    """A scheduler that runs steps in the order they became ready (breadth first)."""
    return ready[0]


def test_under_a_limit_any_scheduling_keeps_the_plans_memory(memory_limit):
    x, y = np.linspace(0, 1, 20_000), np.linspace(1, 2, 20_000)
    plan = ast.jit(two_sums).lower(x, y).plan(devices=HW)
    engine = fresh_engine(plan)
    predicted = engine.schedule.predicted_peak["cpu"]
    arguments = x.nbytes + y.nbytes
    assert predicted == arguments + x.nbytes + 16  # in plan order one temporary at a time, two sums
    _, free = engine.run([x, y], pick=first_ready)
    assert free.peak["cpu"] == arguments + 2 * x.nbytes + 8  # both temporaries at once: allowed
    memory_limit(predicted)  # exactly enough in plan order
    for pick in (first_ready, max, min):
        outs, report = engine.run([x, y], pick=pick)
        assert report.peak["cpu"] == predicted
    outs, report = engine.run([x, y], workers=4)
    assert report.peak["cpu"] <= predicted
    np.testing.assert_allclose(outs[0], np.tanh(np.cumsum(x)).sum(), rtol=1e-12)
    np.testing.assert_allclose(outs[1], np.sin(np.cumsum(y)).sum(), rtol=1e-12)


def test_results_are_deterministic_over_repeated_concurrent_runs(lowered, operands):
    plan = lowered.plan(policy="cost", devices=HW)
    serial = as_numpy(plan.run(*operands, workers=1))
    for _ in range(5):
        for a, b in zip(as_numpy(plan.run(*operands, workers=4)), serial):
            np.testing.assert_array_equal(a, b)


def test_plan_run_takes_the_functions_arguments_and_captured_arrays():
    weights = ast.asarray(np.arange(12.0).reshape(3, 4))

    @ast.jit
    def affine(x, scale=2.0):
        return {"y": ast.tanh(x @ weights) * scale}

    x = np.linspace(-1, 1, 6).reshape(2, 3)
    plan = affine.lower(x).plan(policy="cost", devices=HW)
    out = plan.run(ast.asarray(x))
    assert isinstance(out["y"], ast.ndarray)
    np.testing.assert_allclose(np.asarray(out["y"]), np.tanh(x @ np.asarray(weights)) * 2.0)
    with pytest.raises(TypeError, match="this plan was made for arguments"):
        plan.run(np.ones((3, 3)))


def test_a_result_never_shares_memory_with_an_argument():
    x = np.arange(6.0)
    plan = ast.jit(lambda a: (a, a.reshape(2, 3))).lower(x).plan(devices=HW)
    same, view = plan.run(x)
    assert not np.shares_memory(np.asarray(same), x) and not np.shares_memory(np.asarray(view), x)
    np.testing.assert_array_equal(np.asarray(view), x.reshape(2, 3))


def test_loops_and_arguments_kept_on_the_gpu():
    def doubling(x):
        return ast.while_loop(lambda v: (v < 100.0).all(), lambda v: v * 2.0, x)

    x = np.ones(64)
    lowered = ast.jit(doubling).lower(x)
    plan = lowered.plan(policy="cost", devices=HW)
    np.testing.assert_array_equal(np.asarray(plan.run(x)), np.full(64, 128.0))
    on_gpu = lowered.plan(devices=HW, inputs=[GPU])  # x lives on the GPU: copied in, not a transfer
    np.testing.assert_array_equal(np.asarray(on_gpu.run(x)), np.full(64, 128.0))
    assert [t[:3] for t in on_gpu.last_run.transfers] == [("a", GPU, "cpu")]


def test_explain_shows_the_run():
    x, y = np.linspace(0, 1, 1000), np.linspace(1, 2, 500)
    plan = ast.jit(two_branches).lower(x, y).plan(policy="cost", devices=HW)
    assert "# run:" not in plan.explain()
    plan.run(x, y)
    text = plan.explain()
    assert "# run: 0 transfers performed, 0 bytes" in text
    assert "cpu      (host) peak" in text and "plan predicts" in text


def test_a_device_without_a_runtime_is_named():
    tpu = Device(kind="tpu", name="a TPU", backend="xla", source="registered")
    with pytest.raises(RuntimeMissing, match=r"no runtime executes tpu:0 \(a TPU, backend 'xla'\)"):
        runtime_for(tpu, HW["cpu"])
    assert isinstance(runtime_for(HW[GPU], HW["cpu"]), SimulatedRuntime)
    assert runtime_for(HW["cpu"], HW["cpu"]) is runtime_for(HW["cpu"], HW["cpu"])


def test_the_engine_checks_its_input_buffers():
    x = np.linspace(0, 1, 100)
    engine = Engine(ast.jit(lambda a: ast.cos(a) * 3.0).lower(x).plan(devices=HW))
    with pytest.raises(TypeError, match=r"input 0 of the plan is f64\[100\], got float32\[3\]"):
        engine.run([np.ones(3, np.float32)])
    with pytest.raises(TypeError, match="takes 1 inputs, got 2"):
        engine.run([x, x])


class EverythingOnTheGpu:
    name = "gpu-only"
    reason = "every region on the simulated H100"

    def place(self, eqn, cost, devices, current):
        return GPU


@pytest.mark.parametrize(
    "fn",
    [
        lambda a: a,  # no region: the argument is copied out
        lambda a: (a * 2.0, 3.0),  # a literal output
        lambda a: (ast.exp(a) + 1, ast.exp(a) * 2, (a * a).sum(axis=0)),
        lambda a: (a.T * 2).reshape(12)[::2],  # views of a buffer on the device
        lambda a: ast.fori_loop(0, 3, lambda i, c: c * 2.0 + a, a),  # a loop over compiled bodies
        lambda a: ast.cond(a.sum() > 0, lambda v: v + 1, lambda v: v - 1, a),
        lambda a: ast.concatenate([ast.sort(a, axis=1), a.T @ a]),
    ],
    ids=["identity", "literal", "multiple", "views", "loop", "cond", "library"],
)
@pytest.mark.parametrize("on_gpu", [False, True], ids=["inputs-on-host", "inputs-on-gpu"])
def test_everything_on_the_simulated_gpu_computes_what_jit_does(fn, on_gpu):
    x = np.linspace(-1, 1, 12).reshape(3, 4)
    f = ast.jit(fn, tiered=False)
    want = f(x)
    lowered = f.lower(x)
    inputs = [GPU] * len(lowered.optimized.inputs) if on_gpu else None
    plan = lowered.plan(policy=EverythingOnTheGpu(), devices=HW, inputs=inputs)
    got = plan.run(x)
    assert set(plan.devices) <= {GPU}
    pairs = zip(got, want) if isinstance(want, tuple) else [(got, want)]
    for a, b in pairs:
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    assert plan.last_run.peak == plan.last_run.predicted_peak


def test_memory_limit_per_device_setting(memory_limit):
    from arraystack.backends.memory import limits

    memory_limit({GPU: "2M", "cpu": 4096})
    assert ast.config.memory_limit == {GPU: 2 << 20, "cpu": 4096}
    assert limits.of(GPU) == 2 << 20 and limits.host == 4096  # the numba executables see the host's
    memory_limit(1000)
    assert limits.of("cpu") == 1000 and limits.of(GPU) is None
    with pytest.raises(ValueError, match="memory_limit"):
        ast.config.memory_limit = {GPU: -1}
    with pytest.raises(ValueError, match="device names"):
        ast.config.memory_limit = {0: 1}


def test_a_failing_step_releases_every_buffer(lowered, operands):
    class Failing(SimulatedRuntime):
        def run(self, step, inputs, outputs):
            raise FloatingPointError("the device failed")

    plan = lowered.plan(policy="cost", devices=HW)
    failing = Failing(HW[GPU], backend=HOST)
    engine = fresh_engine(plan, **{GPU: failing})
    for workers in (1, 4):
        with pytest.raises(FloatingPointError, match="the device failed"):
            engine.run(list(operands), workers)
        assert failing.pool.in_use == 0  # the operands copied in before the failure are released
    assert failing.pool.peak == 3 * NBYTES and failing.copies_in == 4
