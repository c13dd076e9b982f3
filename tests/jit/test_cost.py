"""The cost model (jit/cost.py): hand-computed costs, predictions vs this CPU."""

from __future__ import annotations

import os
import time

import arraystack.ir
import numpy as np
import pytest
from arraystack.backends.hardware import Device
from arraystack.backends.presets import model as preset_model
from arraystack.ir import GraphBuilder, Literal, ShapedArray, Var
from arraystack.ir import control as c
from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.cost import TRANSCENDENTAL
from arraystack.ir.cost_report import graph_cost, predict_time

import arraystack

F32, F64, I64 = (np.dtype(d) for d in ("float32", "float64", "int64"))



def var(shape, dtype=F32):
    return Var(ShapedArray(tuple(shape), dtype))


def one_eqn_graph(prim, inputs, **params):
    b = GraphBuilder()
    outs = b.emit(prim, inputs, params)
    return b.build(list(dict.fromkeys(x for x in inputs if isinstance(x, Var))), outs)


def cost_of(prim, inputs, **params):
    row = graph_cost(one_eqn_graph(prim, inputs, **params)).rows[0]
    return row.flops, row.bytes, row.kernels


def test_elementwise_costs():
    x, y = var((100,)), var((100,))
    assert cost_of(p.add_p, [x, y]) == (100, 3 * 400, 1)
    assert cost_of(p.add_p, [x, x]) == (100, 2 * 400, 1)  # one input read once
    two = Literal(np.float32(2.0), ShapedArray((), F32))
    assert cost_of(p.mul_p, [x, two]) == (100, 2 * 400, 1)  # a literal is an immediate
    assert cost_of(p.exp_p, [var((10,), F64)]) == (10 * TRANSCENDENTAL, 160, 1)
    assert cost_of(p.div_p, [x, y]) == (400, 1200, 1)
    assert cost_of(p.lt_p, [x, y]) == (100, 800 + 100, 1)  # bool results: a byte each
    assert cost_of(p.add_p, [var((4,), np.dtype("c8"))] * 2) == (16, 64, 1)  # complex: 4 real flops


def test_structural_costs():
    x = var((8, 16))
    assert cost_of(s.reshape_p, [x], new_sizes=(128,)) == (0, 0, 0)  # a view: free, no kernel
    assert cost_of(s.transpose_p, [x], permutation=(1, 0)) == (0, 0, 0)
    assert cost_of(s.concatenate_p, [x, x], dimension=0) == (0, 512 + 1024, 1)
    assert cost_of(s.reduce_sum_p, [x], axes=(1,)) == (128, 512 + 32, 1)
    assert cost_of(s.argmax_p, [x], axis=0) == (128, 512 + 16 * 8, 1)
    assert cost_of(s.cumsum_p, [x], axis=1) == (128, 1024, 1)


def test_dot_general_is_2mnk():
    a, b = var((8, 16)), var((16, 4))
    dims = (((1,), (0,)), ((), ()))
    assert cost_of(s.dot_general_p, [a, b], dimension_numbers=dims) == (
        2 * 8 * 4 * 16,
        (128 + 64 + 32) * 4,
        1,
    )
    a, b = var((3, 8, 16), F64), var((3, 16, 5), F64)
    dims = (((2,), (1,)), ((0,), (0,)))
    flops, nbytes, _ = cost_of(s.dot_general_p, [a, b], dimension_numbers=dims)
    assert flops == 2 * 3 * 8 * 5 * 16 and nbytes == (384 + 240 + 120) * 8


def _region(shape=(64, 32)):
    """A fused softmax-like region: exp, add, reduce over axis 1, divide back (4 inner eqns)."""
    b = GraphBuilder()
    x = var(shape)
    (e,) = b.emit(p.exp_p, [x])
    (t,) = b.emit(p.add_p, [e, e])
    (r,) = b.emit(s.reduce_sum_p, [t], {"axes": (1,)})
    (rb,) = b.emit(s.broadcast_in_dim_p, [r], {"shape": shape, "broadcast_dimensions": (0,)})
    (q,) = b.emit(p.div_p, [t, rb])
    return b.build([x], [q])


def test_a_fused_region_moves_its_inputs_and_outputs_once():
    inner = _region()
    n = 64 * 32
    outer = GraphBuilder()
    x = var((64, 32))
    outs = outer.emit(c.fusion_p, [x], {"graph": inner})
    report = graph_cost(outer.build([x], outs))
    (row,) = report.rows
    assert (
        row.primitive == "fusion" and row.ops == 5 and row.kernels == 1 and row.dtype == "float32"
    )
    assert row.flops == n * TRANSCENDENTAL + n + n + 0 + 4 * n
    assert row.bytes == 2 * n * 4  # input and output; the intermediates stay inside the loop nest
    unfused = graph_cost(inner)
    assert unfused.flops == row.flops and unfused.bytes > 3 * row.bytes and unfused.kernels == 4


def test_control_flow_costs():
    x = var((10,))
    add = one_eqn_graph(p.add_p, [x, x])
    exp = one_eqn_graph(p.exp_p, [var((10,))])
    index = var((), I64)
    b = GraphBuilder()
    outs = b.emit(c.switch_p, [index, x], {"branches": (add, exp)})
    (row,) = graph_cost(b.build([index, x], outs)).rows
    assert (row.flops, row.bytes, row.kernels) == (
        10 * TRANSCENDENTAL,
        80,
        1,
    )  # the costlier branch

    carry, xs = var((10,)), var((7, 10))
    body = one_eqn_graph(p.add_p, [var((10,)), var((10,))])
    params = {"body": body, "nconsts": 0, "ncarry": 1, "length": 7, "reverse": False}
    b = GraphBuilder()
    outs = b.emit(c.scan_p, [carry, xs], params)
    (row,) = graph_cost(b.build([carry, xs], outs)).rows
    assert (row.flops, row.bytes, row.kernels) == (70, 7 * 120, 7)


def _while_graph():
    i, v = var((), I64), var((10,))
    limit = Literal(np.int64(3), ShapedArray((), I64))
    b = GraphBuilder()
    ci, cv = var((), I64), var((10,))
    cond = b.build([ci, cv], b.emit(p.lt_p, [ci, limit]))
    b = GraphBuilder()
    bi, bv = var((), I64), var((10,))
    body = b.build([bi, bv], [*b.emit(p.add_p, [bi, bi]), *b.emit(p.exp_p, [bv])])
    outer = GraphBuilder()
    (w, _) = outer.emit(
        c.while_p, [i, v], {"cond": cond, "body": body, "cond_nconsts": 0, "body_nconsts": 0}
    )
    (y,) = outer.emit(p.neg_p, [v])
    return outer.build([i, v], [w, y])


def test_a_while_loop_is_reported_unknown():
    report = graph_cost(_while_graph(), preset_model("h100"))
    loop, neg = report.rows
    assert (loop.flops, loop.bytes, loop.kernels) == (None, None, None)
    assert report.unknown == (loop,)
    assert (report.flops, report.bytes, report.kernels) == (10, 80, 1)  # the known part only
    assert "unknown" in report.as_text() and report.as_dict()["unknown"] == [0]
    assert report.predicted_time() == neg.time(preset_model()[0]) > 0  # a lower bound


def test_predicted_time_is_the_roofline_plus_launches():
    device = Device(
        "cpu", peak_flops=(("float32", 1e9), ("float64", 5e8)), bandwidth=1e9, launch_latency=1e-6
    )
    assert predict_time(2e9, 1e6, 1, "float32", device) == pytest.approx(2 + 1e-6)  # compute-bound
    assert predict_time(2e9, 1e6, 1, "float64", device) == pytest.approx(4 + 1e-6)
    assert predict_time(1e3, 3e9, 2, "float32", device) == pytest.approx(3 + 2e-6)  # memory-bound
    assert predict_time(None, 1, 1, "float32", device) is None


def test_lowered_cost_reports_regions_and_predictions_per_device():
    @arraystack.jit
    def layer(x, w):
        h = arraystack.tanh(x @ w + 1.0)
        return (h * h).sum(axis=1)

    x = arraystack.ones((64, 32), dtype=arraystack.float32)
    w = arraystack.ones((32, 16), dtype=arraystack.float32)
    hw = preset_model("h100")
    report = layer.lower(x, w).cost(hw)
    assert [r.primitive for r in report.rows] == ["dot_general", "fusion"]
    dot, region = report.rows
    assert dot.flops == 2 * 64 * 16 * 32
    assert region.bytes == (64 * 16 + 64) * 4 and region.ops >= 4
    assert region.flops == 64 * 16 * (1 + TRANSCENDENTAL + 1 + 1)  # add, tanh, mul, sum
    assert report.flops == dot.flops + region.flops and report.kernels == 2
    times = report.predicted
    assert set(times) == {"cpu", "cuda:0"} and all(t > 0 for t in times.values())
    assert times["cuda:0"] == pytest.approx(
        2 * hw[1].launch_latency, rel=0.01
    )  # tiny: launch-bound
    text = report.as_text()
    assert "dot_general" in text and "fusion" in text and "cuda:0 us" in text


# -- predicted vs measured on this CPU --------------------------------------------------------------------


def _chain(x):
    y = x
    for _ in range(8):
        y = y * 1.0001 + 0.5
    return arraystack.tanh(y) * arraystack.exp(-y * y)


def _matmul(a, b):
    return a @ b


def _dense_softmax(x, w, b):
    h = x @ w + b
    h = h - h.max(axis=-1, keepdims=True)
    e = arraystack.exp(h)
    return e / e.sum(axis=-1, keepdims=True)


def _workloads():
    rng = np.random.default_rng(0)

    def normal(*shape):
        return arraystack.asarray(rng.standard_normal(shape).astype(np.float32))

    return {
        "elementwise chain, 4M f32": (_chain, [normal(1 << 22)]),
        "matmul 512x512 f32": (_matmul, [normal(512, 512), normal(512, 512)]),
        "dense + softmax 1024x256x512": (
            _dense_softmax,
            [normal(1024, 256), normal(256, 512), normal(512)],
        ),
    }


@pytest.mark.slow
@pytest.mark.numba
@pytest.mark.skipif(
    os.environ.get("ARRAYSTACK_TIMING_TESTS") != "1",
    reason="compares times, which other processes on a shared machine distort: run with ARRAYSTACK_TIMING_TESTS=1",
)
def test_predicted_time_is_within_10x_of_measured_on_this_cpu():
    from arraystack.backends.calibration import calibrate_cpu

    cpu = calibrate_cpu()
    ratios = {}
    for name, (fn, args) in _workloads().items():
        jitted = arraystack.jit(fn, tiered=False)
        jitted(*args)  # compile
        measured = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            jitted(*args)
            measured = min(measured, time.perf_counter() - start)
        predicted = jitted.lower(*args).cost([cpu]).predicted_time(cpu)
        ratios[name] = measured / predicted
    assert all(0.1 < r < 10 for r in ratios.values()), ratios
