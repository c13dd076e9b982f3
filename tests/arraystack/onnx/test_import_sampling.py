"""GridSample, AffineGrid and RoiAlign beyond ONNX's node tests: every mode and padding mode with grid positions
well outside the image, eagerly and under jit, against onnx's ReferenceEvaluator; gradients of a spatial
transformer (AffineGrid then GridSample) in the image and in theta against finite differences."""

from __future__ import annotations

import numpy
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import arraystack as ast

RNG = numpy.random.default_rng(0)
X = RNG.normal(size=(2, 3, 4, 5))
GRID = RNG.uniform(-1.7, 1.7, size=(2, 3, 6, 2))  # positions up to 0.7 outside on either side


def _grid_sample_model(**attrs):
    node = helper.make_node("GridSample", ["x", "grid"], ["y"], **attrs)
    graph = helper.make_graph(
        [node],
        "gs",
        [
            helper.make_tensor_value_info("x", TensorProto.DOUBLE, X.shape),
            helper.make_tensor_value_info("grid", TensorProto.DOUBLE, GRID.shape),
        ],
        [helper.make_tensor_value_info("y", TensorProto.DOUBLE, [None] * 4)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])


@pytest.mark.parametrize("align", [0, 1])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
def test_grid_sample_as_the_reference(mode, padding, align):
    model = _grid_sample_model(mode=mode, padding_mode=padding, align_corners=align)
    want = ReferenceEvaluator(model).run(None, {"x": X, "grid": GRID})[0]
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):
        numpy.testing.assert_allclose(
            numpy.asarray(f(params, X, GRID)[0]), want, rtol=1e-5, atol=1e-5
        )


def test_spatial_transformer_gradients(check_grads):
    size = numpy.array([2, 3, 3, 4], numpy.int64)
    nodes = [
        helper.make_node("AffineGrid", ["theta", "size"], ["grid"]),
        helper.make_node("GridSample", ["x", "grid"], ["y"], mode="linear", padding_mode="border"),
    ]
    graph = helper.make_graph(
        nodes,
        "stn",
        [
            helper.make_tensor_value_info("x", TensorProto.DOUBLE, X.shape),
            helper.make_tensor_value_info("theta", TensorProto.DOUBLE, [2, 2, 3]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.DOUBLE, [2, 3, 3, 4])],
        [numpy_helper.from_array(size, "size")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    # near the identity, off the lattice: a position exactly on a pixel is a kink of linear interpolation
    rng = numpy.random.default_rng(0)
    theta = numpy.array([[[1.0, 0, 0], [0, 1, 0]]] * 2) * 0.83 + rng.normal(size=(2, 2, 3)) * 0.17
    want = ReferenceEvaluator(model).run(None, {"x": X, "theta": theta})[0]
    params, fn = ast.onnx.load(model)
    numpy.testing.assert_allclose(
        numpy.asarray(ast.jit(fn)(params, X, theta)[0]), want, rtol=1e-5, atol=1e-5
    )
    check_grads(lambda x, t: fn(params, x, t)[0], (X, theta), modes=("rev",))


@pytest.mark.parametrize("mode", ["avg", "max"])
@pytest.mark.parametrize("transform", ["half_pixel", "output_half_pixel"])
def test_roi_align_as_the_reference_and_its_gradient(mode, transform, check_grads):
    rois = numpy.array([[0.5, 0.2, 3.7, 2.9], [1.0, 1.0, 1.2, 1.1], [-1.5, 2.0, 6.0, 5.0]])
    batch = numpy.array([1, 0, 1])
    node = helper.make_node(
        "RoiAlign",
        ["x", "rois", "batch"],
        ["y"],
        mode=mode,
        coordinate_transformation_mode=transform,
        output_height=2,
        output_width=3,
        spatial_scale=0.9,
    )
    graph = helper.make_graph(
        [node],
        "roi",
        [helper.make_tensor_value_info("x", TensorProto.DOUBLE, X.shape)],
        [helper.make_tensor_value_info("y", TensorProto.DOUBLE, [3, 3, 2, 3])],
        [numpy_helper.from_array(rois, "rois"), numpy_helper.from_array(batch, "batch")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)])
    want = ReferenceEvaluator(model).run(None, {"x": X})[0]
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):  # the rois are constants of the model
        numpy.testing.assert_allclose(numpy.asarray(f(params, X)[0]), want, rtol=1e-12, atol=1e-12)
    check_grads(lambda x: fn(params, x)[0], (X,), modes=("rev",))


_RANKS = {"x": [None] * 4, "w": [None] * 4, "offset": [None] * 4, "b": [None], "mask": [None] * 4}


def _deform_model(group, offset_group, with_mask, with_bias, **attrs):
    names = ["x", "w", "offset", "b" if with_bias else "", "mask" if with_mask else ""]
    node = helper.make_node(
        "DeformConv", names, ["y"], group=group, offset_group=offset_group, **attrs
    )
    graph = helper.make_graph(
        [node],
        "deform",
        [helper.make_tensor_value_info(n, TensorProto.DOUBLE, _RANKS[n]) for n in names if n],
        [helper.make_tensor_value_info("y", TensorProto.DOUBLE, [None] * 4)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)]), names


def _deform_inputs(group, offset_group, out_hw, k=(2, 3)):
    rng = numpy.random.default_rng(3)
    taps = k[0] * k[1]
    return {
        "x": rng.normal(size=(2, 4, 5, 6)),
        "w": rng.normal(size=(6, 4 // group, *k)),
        "offset": rng.uniform(-2.3, 2.3, size=(2, offset_group * taps * 2, *out_hw)),
        "b": rng.normal(size=6),
        "mask": rng.uniform(0, 1, size=(2, offset_group * taps, *out_hw)),
    }


@pytest.mark.parametrize(
    "group,offset_group,attrs,out_hw",
    [
        (1, 1, {}, (4, 4)),
        (2, 2, {"pads": [1, 0, 1, 2], "strides": [2, 1]}, (3, 6)),
        (2, 4, {"dilations": [2, 1]}, (3, 4)),
    ],
)
def test_deform_conv_as_the_reference(group, offset_group, attrs, out_hw):
    model, names = _deform_model(group, offset_group, True, True, kernel_shape=[2, 3], **attrs)
    feeds = {n: v for n, v in _deform_inputs(group, offset_group, out_hw).items() if n in names}
    want = ReferenceEvaluator(model).run(None, feeds)[0]
    params, fn = ast.onnx.load(model)
    for f in (fn, ast.jit(fn)):  # the reference samples through GridSample's float32 positions
        numpy.testing.assert_allclose(
            numpy.asarray(f(params, *feeds.values())[0]), want, rtol=1e-5, atol=1e-5
        )


def test_deform_conv_gradients(check_grads):
    model, names = _deform_model(2, 2, True, False, kernel_shape=[2, 3])
    feeds = {n: v for n, v in _deform_inputs(2, 2, (4, 4)).items() if n in names}
    params, fn = ast.onnx.load(model)
    check_grads(lambda *a: ast.sum(fn(params, *a)[0] ** 2), list(feeds.values()), modes=("rev",))
