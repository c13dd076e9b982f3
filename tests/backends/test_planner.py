"""The execution planner (backends/planner.py) and its policies (backends/policies.py): placement decisions
on a simulated machine (a 64-core server CPU + an H100 preset) checked against hand-computed costs."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends import policies
from arraystack.backends.planner import PlanError, plan_graph
from arraystack.backends.presets import model as preset_model
from arraystack.ir import GraphBuilder, ShapedArray, Var
from arraystack.ir import control as c
from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.cost import TRANSCENDENTAL

import arraystack

F32 = np.dtype("float32")
HW = preset_model("h100")  # cpu: server-cpu-64; cuda:0: H100 over PCIe 5.0
GPU = "cuda:0"
MATMUL = (((1,), (0,)), ((), ()))

# The preset figures, written out so the expected costs below are computed by hand.
CPU_FLOPS, CPU_BW, CPU_LAUNCH = 6.35e12, 460e9, 2e-6
GPU_FLOPS, GPU_BW, GPU_LAUNCH = 67e12, 3.35e12, 4e-6
LINK_BW, LINK_LATENCY = 50e9, 8e-6


def cpu_time(flops, nbytes):
    return max(flops / CPU_FLOPS, nbytes / CPU_BW) + CPU_LAUNCH


def gpu_time(flops, nbytes):
    return max(flops / GPU_FLOPS, nbytes / GPU_BW) + GPU_LAUNCH


def copy_time(nbytes):
    return LINK_LATENCY + nbytes / LINK_BW


def var(*shape):
    return Var(ShapedArray(shape, F32))


def matmul_graph(n):
    a, b = var(n, n), var(n, n)
    builder = GraphBuilder()
    (out,) = builder.emit(s.dot_general_p, [a, b], {"dimension_numbers": MATMUL})
    return builder.build([a, b], [out])


def chain_graph(n, ops, fused=True):
    """exp applied `ops` times to x:f32[n]: one fused region, or `ops` separate equations."""
    x = var(n)
    inner = GraphBuilder()
    y = x
    for _ in range(ops):
        (y,) = inner.emit(p.exp_p, [y])
    if not fused:
        return inner.build([x], [y])
    body = inner.build([x], [y])
    x2 = var(n)
    outer = GraphBuilder()
    outs = outer.emit(c.fusion_p, [x2], {"graph": body})
    return outer.build([x2], outs)


def check_transfers(plan):
    """Each region's operands are on its device when it runs, and a transfer exists exactly for the
    (value, device) pairs where a producer's device (or a graph input's) differs from a consumer's."""
    where = {name: {dev} for name, dev in zip(_input_names(plan), _input_devices(plan))}
    needed = []
    for what, i in plan.order:
        if what == "transfer":
            t = plan.transfers[i]
            assert t.src in where[t.value] and t.dst not in where[t.value]
            where[t.value].add(t.dst)
            continue
        region = plan.regions[i]
        for name in region.inputs:
            if name == "literal":
                continue
            assert region.device in where[name], f"{name} is not on {region.device} at region {i}"
        for name in region.outputs:
            where[name] = {region.device}
    home = HW.default.key
    for name in _output_names(plan):
        assert home in where[name]
    # no transfer is redundant: each copies a value to a device that lacked it, for a reader there
    for t in plan.transfers:
        if t.consumer is None:
            assert t.dst == home and t.value in _output_names(plan)
        else:
            region = plan.regions[t.consumer]
            assert t.dst == region.device and t.value in region.inputs
        needed.append((t.value, t.dst))
    assert len(needed) == len(set(needed))


def _names(plan):
    from arraystack.backends.planner import value_names

    return value_names(plan.graph)


def _input_names(plan):
    names = _names(plan)
    return [names[v] for v in plan.graph.inputs]


def _input_devices(plan):
    return [b.device for b in plan.buffers if b.kind == "argument"]


def _output_names(plan):
    names = _names(plan)
    return [names[v] for v in plan.graph.outputs if isinstance(v, Var)]


def test_a_tiny_elementwise_op_stays_on_the_cpu():
    plan = plan_graph(chain_graph(16, 1, fused=False), HW, "cost")
    (region,) = plan.regions
    flops, nbytes = TRANSCENDENTAL * 16, 2 * 16 * 4
    assert region.estimate("cpu").total == pytest.approx(cpu_time(flops, nbytes), rel=1e-12)
    on_gpu = gpu_time(flops, nbytes) + 2 * copy_time(16 * 4)  # operand in, result back
    assert region.estimate(GPU).total == pytest.approx(on_gpu, rel=1e-12)
    assert region.device == "cpu" and plan.transfers == () and plan.order == (("run", 0),)


def test_a_large_matmul_moves_to_the_gpu():
    n = 2048
    plan = plan_graph(matmul_graph(n), HW, "cost")
    (region,) = plan.regions
    flops, nbytes = 2 * n**3, 3 * n * n * 4
    on_cpu = cpu_time(flops, nbytes)
    on_gpu = gpu_time(flops, nbytes) + 3 * copy_time(n * n * 4)  # a and b in, the product back
    assert region.estimate("cpu").total == pytest.approx(on_cpu, rel=1e-12)
    assert region.estimate(GPU).total == pytest.approx(on_gpu, rel=1e-12)
    assert on_gpu < on_cpu and region.device == GPU
    moves = [(t.value, t.src, t.dst, t.consumer) for t in plan.transfers]
    assert moves == [("a", "cpu", GPU, 0), ("b", "cpu", GPU, 0), ("c", GPU, "cpu", None)]
    assert plan.order == (("transfer", 0), ("transfer", 1), ("run", 0), ("transfer", 2))
    assert plan.transfers[0].seconds == pytest.approx(copy_time(n * n * 4), rel=1e-12)
    assert plan.predicted_time() == pytest.approx(on_gpu, rel=1e-12)
    check_transfers(plan)


def test_a_small_matmul_stays_on_the_cpu():
    plan = plan_graph(matmul_graph(64), HW, "cost")
    assert plan.devices == ("cpu",) and plan.transfers == ()


@pytest.mark.parametrize("ops", [1, 16, 64, 256, 1024])
def test_a_chain_moves_only_when_the_compute_saved_exceeds_the_transfers(ops):
    n = 1 << 20
    plan = plan_graph(chain_graph(n, ops), HW, "cost")
    (region,) = plan.regions
    flops, nbytes = TRANSCENDENTAL * ops * n, 2 * n * 4
    saved = cpu_time(flops, nbytes) - gpu_time(flops, nbytes)
    transfers = 2 * copy_time(n * 4)  # x to the GPU, the result back to the host
    assert region.estimate(GPU).transfer == pytest.approx(transfers, rel=1e-12)
    assert region.device == (GPU if saved > transfers else "cpu")
    check_transfers(plan)


def test_the_chain_threshold_lies_between_the_sizes_tested():
    n = 1 << 20
    decisions = [plan_graph(chain_graph(n, k), HW, "cost").devices[0] for k in (64, 256)]
    assert decisions == ["cpu", GPU]


def test_inputs_already_on_the_gpu_pay_only_for_the_way_back():
    n, ops = 1 << 20, 16  # too little work to be worth a round trip, enough to stay where x lives
    plan = plan_graph(chain_graph(n, ops), HW, "cost", inputs=[GPU])
    (region,) = plan.regions
    assert region.estimate(GPU).transfer == pytest.approx(copy_time(n * 4), rel=1e-12)
    assert region.estimate("cpu").transfer == pytest.approx(copy_time(n * 4), rel=1e-12)
    assert region.device == GPU
    assert [(t.value, t.src, t.dst) for t in plan.transfers] == [("b", GPU, "cpu")]
    check_transfers(plan)


def test_consumers_follow_their_producer_and_transfers_sit_where_devices_differ():
    n = 2048
    a, b = var(n, n), var(n, n)
    builder = GraphBuilder()
    (prod,) = builder.emit(s.dot_general_p, [a, b], {"dimension_numbers": MATMUL})
    (act,) = builder.emit(p.tanh_p, [prod])  # small next to the matmul: follows its operand
    (view,) = builder.emit(s.transpose_p, [act], {"permutation": (1, 0)})
    (small,) = builder.emit(p.exp_p, [a])  # reads a host input: stays on the CPU
    graph = builder.build([a, b], [view, small])
    plan = plan_graph(graph, HW, "cost")
    # the view ties (d comes home before it, or its result after it): ties go to the default device
    assert plan.devices == (GPU, GPU, "cpu", "cpu")
    moves = [(t.value, t.src, t.dst, t.consumer) for t in plan.transfers]
    assert moves == [("a", "cpu", GPU, 0), ("b", "cpu", GPU, 0), ("d", GPU, "cpu", 2)]
    check_transfers(plan)
    # the view shares the buffer of its operand; a and its GPU copy are different buffers
    assert plan.buffer_of("e") is plan.buffer_of("d")
    assert plan.buffer_of("a", "cpu") is not plan.buffer_of("a", GPU)
    assert plan.buffer_of("e").kind == "output" and plan.buffer_of("a").kind == "argument"


def test_default_places_everything_on_the_default_device():
    n = 2048
    for graph in (matmul_graph(n), chain_graph(1 << 20, 1024), chain_graph(16, 3, fused=False)):
        plan = plan_graph(graph, HW)  # policy="default"
        assert plan.policy == "default"
        assert set(plan.devices) == {"cpu"} and plan.transfers == ()
        assert plan.order == tuple(("run", k) for k in range(len(graph.eqns)))
    assert plan_graph(matmul_graph(n), HW, "cost").devices == (GPU,)


def test_buffers_are_reused_once_their_values_are_dead():
    plan = plan_graph(chain_graph(1 << 10, 4, fused=False), HW)
    nbytes = (1 << 10) * 4
    # x (argument), then exp -> t1, sin... : t1 and t3 share a buffer, the result reuses t2's
    assert plan.buffer_of("b") is plan.buffer_of("d")
    assert plan.buffer_of("c") is plan.buffer_of("e") and plan.buffer_of("e").kind == "output"
    assert plan.buffer_of("b") is not plan.buffer_of(
        "c"
    )  # never in place: c is made while b is read
    assert plan.memory() == {"cpu": 3 * nbytes, GPU: 0}


def test_explain_mentions_each_region_its_device_and_the_costs():
    n = 2048
    a, b = var(n, n), var(16)
    builder = GraphBuilder()
    (prod,) = builder.emit(s.dot_general_p, [a, a], {"dimension_numbers": MATMUL})
    (tiny,) = builder.emit(p.exp_p, [b])
    plan = plan_graph(builder.build([a, b], [prod, tiny]), HW, "cost")
    text = plan.explain()
    assert "region 0 `dot_general`" in text and "region 1 `exp`" in text
    assert "-> cuda:0: lowest predicted time" in text and "-> cpu: lowest predicted time" in text
    assert "policy 'cost'" in text and "copy a cpu -> cuda:0" in text
    assert "return: copy c cuda:0 -> cpu" in text
    for region in plan.regions:
        for estimate in region.estimates:
            assert f"{estimate.total * 1e6:.4g} us" in text
    default = plan_graph(builder.build([a, b], [prod, tiny]), HW).explain()
    assert "-> cpu: policy choice; cuda:0 is predicted faster" in default


def test_policies_register_by_name():
    class Everywhere:
        name = "gpu-first"
        reason = "everything on the first accelerator"

        def place(self, eqn, cost, devices, current):
            return devices[1].key

    policies.register_policy("gpu-first", Everywhere())
    try:
        plan = plan_graph(chain_graph(16, 2, fused=False), HW, "gpu-first")
        assert plan.devices == (GPU, GPU) and len(plan.transfers) == 2
        assert "everything on the first accelerator" in plan.explain()
        check_transfers(plan)
    finally:
        del policies.policies["gpu-first"]
    with pytest.raises(KeyError, match="no placement policy 'gpu-first'"):
        plan_graph(chain_graph(16, 1), HW, "gpu-first")
    with pytest.raises(TypeError, match="place"):
        policies.register_policy("broken", object())


def test_a_policy_choosing_an_unknown_device_is_a_plan_error():
    class Lost:
        def place(self, eqn, cost, devices, current):
            return "tpu:3"

    with pytest.raises(PlanError, match="region 0 `exp`.*tpu:3"):
        plan_graph(chain_graph(16, 1, fused=False), HW, Lost())


def test_a_device_without_links_is_never_chosen():
    plan = plan_graph(matmul_graph(2048), tuple(HW), "cost")
    assert plan.devices == ("cpu",)
    assert plan.regions[0].estimate(GPU).transfer == float("inf")


def test_lowered_plan_from_the_frontend(monkeypatch):
    @arraystack.jit
    def layer(x, w):
        return arraystack.tanh(x @ w)

    big = np.ones((2048, 2048), np.float32)
    lowered = layer.lower(big, big)
    plan = lowered.plan("cost", devices=HW)
    assert len(plan.regions) == len(lowered.optimized.eqns)
    assert plan.regions[0].primitive == "dot_general" and plan.devices[0] == GPU
    assert set(plan.devices) == {GPU}  # tanh follows its operand
    check_transfers(plan)
    monkeypatch.setattr("arraystack._core.devices.devices", lambda *presets, **kw: HW)
    default = lowered.plan()
    assert default.model is HW and set(default.devices) == {"cpu"}


def test_a_region_of_unknown_cost_stays_on_the_default_device():
    @arraystack.jit
    def doubling(x):
        return arraystack.while_loop(lambda v: (v < 100.0).all(), lambda v: v * 2.0, x)

    plan = doubling.lower(np.ones((2048, 2048), np.float32)).plan("cost", devices=HW)
    (region,) = plan.regions
    assert region.primitive == "while" and region.device == "cpu"
    assert region.estimate(GPU).compute is None and plan.transfers == ()
    text = plan.explain()
    assert "cost unknown" in text and "+ 1 regions of unknown cost" in text


def test_a_plan_runs_on_host_arrays():
    """plan.run (backends/engine.py) without a frontend: host arrays in, a list of host arrays out."""

    class OnGpu:
        def place(self, eqn, cost, devices, current):
            return GPU

    x = np.linspace(0, 1, 16, dtype=np.float32)
    plan = plan_graph(chain_graph(16, 3, fused=False), HW, OnGpu())
    (out,) = plan.run(x)
    np.testing.assert_allclose(out, np.exp(np.exp(np.exp(x))), rtol=1e-6)
    assert [t[:3] for t in plan.last_run.transfers] == [("a", "cpu", GPU), ("d", GPU, "cpu")]
    assert "copied d cuda:0 -> cpu: 64 bytes" in plan.explain()
    with pytest.raises(TypeError, match="input buffers, not keywords"):
        plan.run(x=x)


def test_independent_branches_never_share_a_buffer():
    """A buffer is reused only by a step that depends on every step that used it (buffer_assignment.py),
    so the engine may run the two branches at the same time."""
    n = 1 << 10
    a, b = var(n), var(n)
    builder = GraphBuilder()
    (c,) = builder.emit(p.exp_p, [a])
    (d,) = builder.emit(p.sin_p, [c])
    (e,) = builder.emit(p.exp_p, [b])  # c is dead here, but this branch does not depend on it
    (f,) = builder.emit(p.sin_p, [e])
    (g,) = builder.emit(p.add_p, [d, f])  # depends on both branches: may take a dead buffer
    plan = plan_graph(builder.build([a, b], [g]), HW)
    assert plan.buffer_of("e") is not plan.buffer_of("c")
    assert plan.buffer_of("g") in (plan.buffer_of("c"), plan.buffer_of("e"))
    assert plan.memory()["cpu"] == (2 + 4) * n * 4  # the arguments, c, d, e, f (g reuses one)
