"""The loss operators' import rules beyond ONNX's node tests: under jit with the target a model input,
their gradient against finite differences, and the error for a target of the wrong shape."""

from __future__ import annotations

import numpy
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

import arraystack as ast
from arraystack.onnx.errors import ModelError
from tests.arraystack.onnx.conftest import assert_close


def _model(target_shape=(4, 3)):
    node = helper.make_node(
        "SoftmaxCrossEntropyLoss", ["x", "y", "w"], ["loss", "logp"], ignore_index=2
    )
    graph = helper.make_graph(
        [node],
        "sce",
        [
            helper.make_tensor_value_info("x", TensorProto.DOUBLE, [4, 5, 3]),
            helper.make_tensor_value_info("y", TensorProto.INT64, list(target_shape)),
            helper.make_tensor_value_info("w", TensorProto.DOUBLE, [5]),
        ],
        [
            helper.make_tensor_value_info("loss", TensorProto.DOUBLE, []),
            helper.make_tensor_value_info("logp", TensorProto.DOUBLE, [4, 5, 3]),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def _inputs():
    rng = numpy.random.default_rng(0)
    return {
        "x": rng.normal(size=(4, 5, 3)),
        "y": rng.integers(0, 5, size=(4, 3)),
        "w": rng.random(5) + 0.5,
    }


def test_softmax_cross_entropy_under_jit():
    model, inputs = _model(), _inputs()
    params, fn = ast.onnx.load(model)
    expected = ReferenceEvaluator(model).run(None, inputs)
    for got in (fn(params, *inputs.values()), ast.jit(fn)(params, *inputs.values())):
        for e, g in zip(expected, got):
            assert_close(e, numpy.asarray(g))


def test_softmax_cross_entropy_gradient(check_grads):
    params, fn = ast.onnx.load(_model())
    inputs = _inputs()
    check_grads(
        lambda x: fn(params, x, inputs["y"], inputs["w"])[0], (inputs["x"],), modes=("rev",)
    )


def test_a_target_of_the_wrong_shape_names_the_node():
    params, fn = ast.onnx.load(_model(target_shape=("n", "d")))  # the input's shape is not declared
    inputs = _inputs()
    with pytest.raises(ModelError, match="SoftmaxCrossEntropyLoss.*target's shape"):
        fn(params, inputs["x"], inputs["y"][:, :2], inputs["w"])
