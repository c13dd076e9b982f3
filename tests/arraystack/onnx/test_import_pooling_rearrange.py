"""LpPool, GlobalLpPool, LRN, ReverseSequence, CenterCropPad, Col2Im, TensorScatter and MaxUnpool beyond
ONNX's node tests: other
attributes, eagerly and under jit, against onnx's ReferenceEvaluator, and gradients against finite
differences."""

from __future__ import annotations

import numpy
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import arraystack as ast


def _model(op, inputs, inits=(), opset=19, out_rank=None, **attrs):
    """A one-node model: `inputs` as (name, array) pairs, graph inputs unless listed in `inits`."""
    node = helper.make_node(op, [n for n, _ in inputs], ["y"], **attrs)
    types = {numpy.dtype("float64"): TensorProto.DOUBLE, numpy.dtype("int64"): TensorProto.INT64}
    graph = helper.make_graph(
        [node],
        op,
        [
            helper.make_tensor_value_info(n, types[a.dtype], a.shape)
            for n, a in inputs
            if n not in inits
        ],
        [
            helper.make_tensor_value_info(
                "y", TensorProto.DOUBLE, [None] * (out_rank or inputs[0][1].ndim)
            )
        ],
        [numpy_helper.from_array(a, n) for n, a in inputs if n in inits],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _check(model, feeds):
    want = ReferenceEvaluator(model).run(None, feeds)[0]
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        numpy.testing.assert_allclose(
            numpy.asarray(f(params, *feeds.values())[0]), want, rtol=1e-12
        )
    return params, fn


X = numpy.random.default_rng(0).normal(size=(2, 3, 7, 6))


@pytest.mark.parametrize("p", [1, 2, 3])
def test_lp_pool_with_strides_pads_and_dilations(p, check_grads):
    model = _model(
        "LpPool",
        [("x", X)],
        kernel_shape=[3, 2],
        strides=[2, 1],
        pads=[1, 0, 1, 1],
        dilations=[1, 2],
        p=p,
    )
    params, fn = _check(model, {"x": X})
    check_grads(lambda x: fn(params, x)[0], (X,), modes=("rev",))


def test_global_lp_pool_and_lrn(check_grads):
    params, fn = ast.onnx.load(
        _model("GlobalLpPool", [("x", X)], p=3)
    )  # onnx has no reference for it
    want = numpy.sum(numpy.abs(X) ** 3, axis=(2, 3), keepdims=True) ** (1 / 3)
    for f in (fn, ast.jit(fn)):
        numpy.testing.assert_allclose(numpy.asarray(f(params, X)[0]), want, rtol=1e-12)
    # onnx's reference LRN walks the batch axis where it means the channels; the spec's formula instead
    x = X[:, :, :3, :3]
    model = _model("LRN", [("x", x)], size=4, alpha=0.25, beta=0.625, bias=2.0)
    squares = numpy.zeros_like(x)
    for c in range(x.shape[1]):
        squares[:, c] = numpy.sum(x[:, max(0, c - 1) : c + 3] ** 2, axis=1)
    want = x / (2.0 + 0.25 / 4 * squares) ** 0.625
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        numpy.testing.assert_allclose(numpy.asarray(f(params, x)[0]), want, rtol=1e-12)
    check_grads(lambda x: fn(params, x)[0], (x,), modes=("rev",))


@pytest.mark.parametrize("batch_axis", [0, 1])
def test_reverse_sequence_with_lengths_as_an_input(batch_axis):
    x = numpy.arange(24.0).reshape(4, 6) if batch_axis == 0 else numpy.arange(24.0).reshape(6, 4)
    lengths = numpy.array([1, 6, 0, 3])
    model = _model(
        "ReverseSequence",
        [("x", x), ("lengths", lengths)],
        batch_axis=batch_axis,
        time_axis=1 - batch_axis,
    )
    _check(model, {"x": x, "lengths": lengths})


def test_center_crop_pad_on_chosen_axes():
    x = numpy.arange(60.0).reshape(3, 4, 5)
    shape = numpy.array([6, 2])
    model = _model("CenterCropPad", [("x", x), ("shape", shape)], inits=("shape",), axes=[-1, 0])
    _check(model, {"x": x})


def test_col2im_adds_overlapping_blocks(check_grads):
    image, block = numpy.array([5, 6]), numpy.array([2, 3])
    x = numpy.random.default_rng(1).normal(size=(2, 2 * 6, 5 * 3))  # 5 x 3 block positions
    model = _model(
        "Col2Im",
        [("x", x), ("image", image), ("block", block)],
        inits=("image", "block"),
        out_rank=4,
        strides=[1, 2],
        pads=[1, 0, 0, 1],
        dilations=[1, 1],
    )
    params, fn = _check(model, {"x": x})
    check_grads(lambda x: fn(params, x)[0], (x,), modes=("rev",))


@pytest.mark.parametrize("mode", ["linear", "circular"])
def test_tensor_scatter_appends_at_each_entrys_index(mode, check_grads):
    cache = numpy.random.default_rng(3).normal(size=(2, 3, 6, 4))
    update = numpy.random.default_rng(4).normal(size=(2, 3, 3, 4))
    write = numpy.array([1, 3 if mode == "linear" else 5])
    model = _model(
        "TensorScatter",
        [("cache", cache), ("update", update), ("write", write)],
        opset=24,
        mode=mode,
    )
    params, fn = _check(model, {"cache": cache, "update": update, "write": write})
    check_grads(lambda c, u: fn(params, c, u, write)[0], (cache, update), modes=("rev",))


def test_max_unpool_places_values_at_their_indices():
    x = numpy.array([[[[5.0, 6.0], [7.0, 8.0]]]])
    indices = numpy.array([[[[5, 7], [13, 15]]]])
    for extra in ({}, {"shape": numpy.array([1, 1, 5, 5])}):
        inputs = [("x", x), ("indices", indices), *extra.items()]
        model = _model("MaxUnpool", inputs, inits=tuple(extra), kernel_shape=[2, 2], strides=[2, 2])
        _check(model, {"x": x, "indices": indices})


@pytest.mark.parametrize(
    "shape,attrs",
    [
        ((2, 3, 7, 6), {"kernel_shape": [3, 2], "strides": [2, 1], "pads": [1, 0, 1, 1]}),
        ((2, 3, 7, 6), {"kernel_shape": [2, 2], "dilations": [2, 1], "storage_order": 1}),
        ((1, 2, 9), {"kernel_shape": [3], "strides": [2], "ceil_mode": 1}),
        ((1, 2, 4, 5, 3), {"kernel_shape": [2, 2, 2], "pads": [1, 0, 0, 0, 1, 1]}),
    ],
)
def test_max_pool_indices_as_onnxruntime_and_back_through_max_unpool(shape, attrs):
    from tests.arraystack.onnx.conftest import run_onnx

    x = numpy.round(numpy.random.default_rng(1).normal(size=shape)).astype(numpy.float32)  # ties
    node = helper.make_node("MaxPool", ["x"], ["y", "i"], **attrs)
    graph = helper.make_graph(
        [node],
        "mp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * len(shape)),
            helper.make_tensor_value_info("i", TensorProto.INT64, [None] * len(shape)),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)])
    want_y, want_i = run_onnx(model, {"x": x})
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        y, i = (numpy.asarray(v) for v in f(params, x))
        numpy.testing.assert_array_equal(y, want_y)
        assert i.dtype == numpy.int64
        numpy.testing.assert_array_equal(i, want_i)
    if not attrs.get("storage_order"):  # each (row-major) index names the maximum it reports
        assert numpy.all(x.reshape(-1)[want_i.reshape(-1)] == want_y.reshape(-1))
