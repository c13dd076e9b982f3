"""Unique and NonMaxSuppression beyond ONNX's node tests: random inputs with ties against onnx's
ReferenceEvaluator, and the error under jit (their output sizes depend on the values)."""

from __future__ import annotations

import numpy
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

import arraystack as ast
from arraystack.onnx.errors import ModelError


def _nms_model(center):
    node = helper.make_node(
        "NonMaxSuppression",
        ["boxes", "scores", "k", "iou", "floor"],
        ["y"],
        center_point_box=center,
    )
    graph = helper.make_graph(
        [node],
        "nms",
        [
            helper.make_tensor_value_info("boxes", TensorProto.FLOAT, [2, 30, 4]),
            helper.make_tensor_value_info("scores", TensorProto.FLOAT, [2, 3, 30]),
            helper.make_tensor_value_info("k", TensorProto.INT64, [1]),
            helper.make_tensor_value_info("iou", TensorProto.FLOAT, [1]),
            helper.make_tensor_value_info("floor", TensorProto.FLOAT, [1]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [None, 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])


@pytest.mark.parametrize("center", [0, 1])
def test_non_max_suppression_as_the_reference(center):
    rng = numpy.random.default_rng(center)
    boxes = rng.uniform(0, 10, size=(2, 30, 4)).astype(numpy.float32)
    scores = rng.choice([0.1, 0.3, 0.5, 0.7, 0.9], size=(2, 3, 30)).astype(numpy.float32)  # ties
    feeds = {
        "boxes": boxes,
        "scores": scores,
        "k": numpy.array([7]),
        "iou": numpy.array([0.2], numpy.float32),
        "floor": numpy.array([0.2], numpy.float32),
    }
    model = _nms_model(center)
    want = ReferenceEvaluator(model).run(None, feeds)[0]
    params, fn = ast.onnx.load(model)
    numpy.testing.assert_array_equal(numpy.asarray(fn(params, *feeds.values())[0]), want)
    with pytest.raises(ModelError, match="NonMaxSuppression"):
        ast.jit(fn)(params, *feeds.values())


def _unique_model(shape=(6, 4), **attrs):
    node = helper.make_node("Unique", ["x"], ["y", "first", "inverse", "counts"], **attrs)
    rank = 1 if "axis" not in attrs else 2
    graph = helper.make_graph(
        [node],
        "unique",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * rank),
            *(
                helper.make_tensor_value_info(n, TensorProto.INT64, [None])
                for n in ("first", "inverse", "counts")
            ),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])


X = numpy.random.default_rng(2).integers(0, 3, size=(6, 4)).astype(numpy.float32)
X[3] = X[1]  # a repeated row


@pytest.mark.parametrize("sort", [0, 1])
def test_unique_as_the_reference(sort):
    x = X.reshape(-1)  # onnx's reference orders unsorted values of 1-d inputs only
    model = _unique_model(x.shape, sorted=sort)
    want = ReferenceEvaluator(model).run(None, {"x": x})
    params, fn = ast.onnx.load(model)
    for g, w in zip(fn(params, x), want):
        numpy.testing.assert_array_equal(numpy.asarray(g), w)
    with pytest.raises(ModelError, match="Unique"):
        ast.jit(fn)(params, x)


@pytest.mark.parametrize("axis", [0, -1])
def test_unique_along_an_axis_as_numpy(axis):  # onnx's reference fails on these models
    params, fn = ast.onnx.load(_unique_model(sorted=1, axis=axis))
    want = numpy.unique(X, return_index=True, return_inverse=True, return_counts=True, axis=axis)
    for g, w in zip(fn(params, X), want):
        numpy.testing.assert_array_equal(
            numpy.asarray(g), numpy.reshape(w, -1) if w.ndim == 2 and g.ndim == 1 else w
        )
