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


def _flex_model(score_mod=True, prob_mod=False, q_heads=4):
    """FlexAttention (ai.onnx.preview) on float64 (B, H, L, E) inputs with grouped-query heads; score_mod
    adds a relative-position bias and masks future keys (a causal mask as a sub-graph), prob_mod scales
    the probabilities by 0.5."""
    attrs = {}
    if score_mod:
        bias = numpy.subtract.outer(numpy.arange(3), numpy.arange(5)).astype(numpy.float64)
        bias = numpy.where(bias + 2 >= 0, bias * 0.1, -numpy.inf)  # query i sees keys j <= i + 2
        attrs["score_mod"] = helper.make_graph(
            [helper.make_node("Add", ["s", "bias"], ["t"])],
            "score_mod",
            [helper.make_tensor_value_info("s", TensorProto.DOUBLE, [2, q_heads, 3, 5])],
            [helper.make_tensor_value_info("t", TensorProto.DOUBLE, [2, q_heads, 3, 5])],
            [helper.make_tensor("bias", TensorProto.DOUBLE, [3, 5], bias.ravel())],
        )
    if prob_mod:
        attrs["prob_mod"] = helper.make_graph(
            [helper.make_node("Mul", ["p", "half"], ["r"])],
            "prob_mod",
            [helper.make_tensor_value_info("p", TensorProto.DOUBLE, [2, q_heads, 3, 5])],
            [helper.make_tensor_value_info("r", TensorProto.DOUBLE, [2, q_heads, 3, 5])],
            [helper.make_tensor("half", TensorProto.DOUBLE, [], [0.5])],
        )
    node = helper.make_node(
        "FlexAttention", ["q", "k", "v"], ["y"], domain="ai.onnx.preview", **attrs
    )
    graph = helper.make_graph(
        [node],
        "flex",
        [
            helper.make_tensor_value_info("q", TensorProto.DOUBLE, [2, q_heads, 3, 6]),
            helper.make_tensor_value_info("k", TensorProto.DOUBLE, [2, 2, 5, 6]),
            helper.make_tensor_value_info("v", TensorProto.DOUBLE, [2, 2, 5, 4]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.DOUBLE, [2, q_heads, 3, 4])],
    )
    opsets = [helper.make_opsetid("", 23), helper.make_opsetid("ai.onnx.preview", 1)]
    return helper.make_model(graph, opset_imports=opsets)


def _flex_inputs(q_heads=4):
    rng = numpy.random.default_rng(1)
    shapes = {"q": (2, q_heads, 3, 6), "k": (2, 2, 5, 6), "v": (2, 2, 5, 4)}
    return {n: rng.normal(size=s) for n, s in shapes.items()}


def test_flex_attention_with_modifier_sub_graphs_as_the_reference():
    for score_mod, prob_mod, heads in [(True, False, 4), (False, True, 2), (True, True, 4)]:
        model, inputs = _flex_model(score_mod, prob_mod, heads), _flex_inputs(heads)
        (expected,) = ReferenceEvaluator(model).run(None, inputs)
        params, fn = ast.onnx.load(model)
        for f in (fn, ast.jit(fn)):
            numpy.testing.assert_allclose(
                numpy.asarray(f(params, *inputs.values())[0]), expected, rtol=1e-12
            )


def test_flex_attention_gradients(check_grads):
    params, fn = ast.onnx.load(_flex_model(True, True))
    inputs = _flex_inputs()
    check_grads(lambda q, k, v: ast.sum(fn(params, q, k, v)[0] ** 2), list(inputs.values()))
