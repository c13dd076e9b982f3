"""ONNX's optimizer operators (ai.onnx.preview.training: Adagrad, Momentum, Adam) and BatchNormalization in
training mode beyond ONNX's node tests: several tensors at once, the step count T a traced input (the
first step's special case a select), eagerly and under jit, against onnx's ReferenceEvaluator."""

from __future__ import annotations

import numpy
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

import arraystack as ast

RNG = numpy.random.default_rng(0)
SHAPES = [(3, 4), (5,)]
CASES = {
    "Adagrad": (1, {"decay_factor": 0.1, "epsilon": 1e-6, "norm_coefficient": 0.01}),
    "Momentum": (1, {"alpha": 0.9, "beta": 0.5, "mode": "standard", "norm_coefficient": 0.01}),
    "Nesterov": (1, {"alpha": 0.8, "beta": 0.7, "mode": "nesterov", "norm_coefficient": 0.0}),
    "Adam": (2, {"alpha": 0.85, "beta": 0.99, "epsilon": 1e-7, "norm_coefficient_post": 0.02}),
}


def _model(op, accumulators, attrs):
    per = ["X", "G"] + [f"A{k}" for k in range(accumulators)]
    names = [f"{p}{i}" for p in per for i in range(len(SHAPES))]
    outs = [f"{p}{i}_new" for p in ["X"] + per[2:] for i in range(len(SHAPES))]
    op_type = "Momentum" if op == "Nesterov" else op
    node = helper.make_node(
        op_type, ["R", "T", *names], outs, domain="ai.onnx.preview.training", **attrs
    )
    shape_of = {n: SHAPES[int(n[-1])] for n in names}
    graph = helper.make_graph(
        [node],
        op,
        [
            helper.make_tensor_value_info("R", TensorProto.FLOAT, []),
            helper.make_tensor_value_info("T", TensorProto.INT64, []),
        ]
        + [helper.make_tensor_value_info(n, TensorProto.FLOAT, shape_of[n]) for n in names],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, shape_of[n[:-4]]) for n in outs],
    )
    opsets = [helper.make_opsetid("", 21), helper.make_opsetid("ai.onnx.preview.training", 1)]
    return helper.make_model(graph, opset_imports=opsets), names


@pytest.mark.parametrize("op", list(CASES))
def test_optimizers_as_the_reference_with_a_traced_step_count(op):
    accumulators, attrs = CASES[op]
    model, names = _model(op, accumulators, attrs)
    values = {n: RNG.normal(size=SHAPES[int(n[-1])]).astype(numpy.float32) for n in names}
    for n in names:
        if n.startswith("A1") or (op == "Adagrad" and n.startswith("A0")):
            values[n] = numpy.abs(values[n])  # second moments and squared sums are not negative
    params, fn = ast.onnx.load(model)
    jitted = ast.jit(fn)
    for t in (0, 1, 7):
        feeds = {"R": numpy.float32(0.05), "T": numpy.int64(t), **values}
        want = ReferenceEvaluator(model).run(None, feeds)
        for f in (fn, jitted):
            got = f(params, *feeds.values())
            for g, w in zip(got, want):
                assert numpy.asarray(g).dtype == numpy.float32
                numpy.testing.assert_allclose(numpy.asarray(g), w, rtol=2e-6, atol=1e-7)


def test_batch_normalization_in_training_mode_as_the_reference():
    x = RNG.normal(size=(4, 3, 5, 2)).astype(numpy.float32)
    scale, bias, mean, var = (RNG.normal(size=3).astype(numpy.float32) for _ in range(4))
    var = numpy.abs(var)
    node = helper.make_node(
        "BatchNormalization",
        ["x", "scale", "bias", "mean", "var"],
        ["y", "running_mean", "running_var"],
        training_mode=1,
        momentum=0.8,
        epsilon=1e-3,
    )
    graph = helper.make_graph(
        [node],
        "bn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)]
        + [
            helper.make_tensor_value_info(n, TensorProto.FLOAT, [3])
            for n in ("scale", "bias", "mean", "var")
        ],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, x.shape),
            helper.make_tensor_value_info("running_mean", TensorProto.FLOAT, [3]),
            helper.make_tensor_value_info("running_var", TensorProto.FLOAT, [3]),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)])
    feeds = {"x": x, "scale": scale, "bias": bias, "mean": mean, "var": var}
    want = ReferenceEvaluator(model).run(None, feeds)
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        for g, w in zip(f(params, *feeds.values()), want):
            numpy.testing.assert_allclose(numpy.asarray(g), w, rtol=1e-5, atol=1e-6)
