"""The Attention import rule beyond ONNX's node tests: a mask that is a model input (not a constant),
grouped-query heads and a causal mask, under jit against onnxruntime, and its gradient against finite
differences. The node tests (tests/arraystack/onnx/test_node_suite.py) cover the operator's variants."""

from __future__ import annotations

import numpy
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

import arraystack as ast
from tests.arraystack.onnx.conftest import assert_close, run_onnx


def _model(opset=23):
    node = helper.make_node(
        "Attention", ["q", "k", "v", "mask"], ["y"], q_num_heads=2, kv_num_heads=1, is_causal=1
    )
    graph = helper.make_graph(
        [node],
        "attention",
        [
            helper.make_tensor_value_info("q", TensorProto.DOUBLE, [2, 3, 8]),
            helper.make_tensor_value_info("k", TensorProto.DOUBLE, [2, 4, 4]),
            helper.make_tensor_value_info("v", TensorProto.DOUBLE, [2, 4, 4]),
            helper.make_tensor_value_info("mask", TensorProto.BOOL, [3, 4]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.DOUBLE, [2, 3, 8])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _inputs():
    rng = numpy.random.default_rng(0)
    mask = rng.random((3, 4)) > 0.3
    mask[:, 0] = True  # no row fully masked
    return {
        "q": rng.normal(size=(2, 3, 8)),
        "k": rng.normal(size=(2, 4, 4)),
        "v": rng.normal(size=(2, 4, 4)),
        "mask": mask,
    }


def test_attention_with_an_input_mask_under_jit():
    model, inputs = _model(), _inputs()
    params, fn = ast.onnx.load(model)
    (expected,) = ReferenceEvaluator(model).run(None, inputs)  # ONNX's reference implementation
    assert_close(expected, numpy.asarray(fn(params, *inputs.values())[0]))
    assert_close(expected, numpy.asarray(ast.jit(fn)(params, *inputs.values())[0]))
    # onnxruntime's float64 Attention differs from the reference in the 8th digit
    numpy.testing.assert_allclose(run_onnx(model, inputs)[0], expected, rtol=1e-6)


def test_attention_gradient_matches_finite_differences(check_grads):
    params, fn = ast.onnx.load(_model())
    inputs = _inputs()

    def loss(q, k, v):
        return ast.sum(fn(params, q, k, v, inputs["mask"])[0] ** 2)

    check_grads(loss, (inputs["q"], inputs["k"], inputs["v"]), modes=("rev",))
