"""Resize and Upsample imports beyond ONNX's node tests: integer and float16 images, every coordinate
transformation with each mode, under jit, against onnx's ReferenceEvaluator; the gradient of a linear
resize against finite differences; and sizes computed from the input's shape under jit."""

from __future__ import annotations

import numpy
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import arraystack as ast

_TYPES = {
    "float64": TensorProto.DOUBLE,
    "float32": TensorProto.FLOAT,
    "float16": TensorProto.FLOAT16,
    "uint8": TensorProto.UINT8,
}


def _model(shape, dtype, scales=None, sizes=None, opset=19, **attrs):
    inits = [numpy_helper.from_array(numpy.array([], numpy.float32), "roi")]
    names = ["x", "roi"]
    if scales is not None:
        inits.append(numpy_helper.from_array(numpy.asarray(scales, numpy.float32), "scales"))
        names.append("scales")
    else:
        names.append("")
        inits.append(numpy_helper.from_array(numpy.asarray(sizes, numpy.int64), "sizes"))
        names.append("sizes")
    node = helper.make_node("Resize", names, ["y"], **attrs)
    graph = helper.make_graph(
        [node],
        "resize",
        [helper.make_tensor_value_info("x", _TYPES[dtype], list(shape))],
        [helper.make_tensor_value_info("y", _TYPES[dtype], [None] * len(shape))],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _image(shape, dtype):
    rng = numpy.random.default_rng(1)
    if dtype == "uint8":
        return rng.integers(0, 256, size=shape).astype(numpy.uint8)
    return rng.normal(size=shape).astype(dtype)


def _check(model, x, rtol=1e-6):
    want = ReferenceEvaluator(model).run(None, {"x": x})[0]
    params, fn = ast.onnx.load(model)
    for got in (fn(params, x)[0], ast.jit(fn)(params, x)[0]):
        got = numpy.asarray(got)
        assert got.dtype == want.dtype and got.shape == want.shape
        if x.dtype == numpy.uint8:
            numpy.testing.assert_array_equal(got, want)  # rounded half to even, saturated
        else:
            tol = rtol if x.dtype == numpy.float32 else 1e-3
            numpy.testing.assert_allclose(got, want, rtol=tol, atol=tol)


TRANSFORMS = [
    "half_pixel",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "half_pixel_symmetric",
]


@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
@pytest.mark.parametrize("dtype", ["float32", "uint8", "float16"])
def test_each_mode_and_transform_as_the_reference(mode, transform, dtype):
    x = _image((1, 2, 5, 7), dtype)
    for scales in ([1, 1, 1.7, 0.65], [1, 1, 0.45, 2.3]):
        _check(
            _model(
                x.shape, dtype, scales=scales, mode=mode, coordinate_transformation_mode=transform
            ),
            x,
            _CUBIC_RTOL if mode == "cubic" else 1e-6,
        )


# onnx's reference computes cubic weights in float32 (its cubic_coeff_a is a float32 scalar, and NumPy
# keeps float32 * Python float in float32); arraystack computes them in float64
_CUBIC_RTOL = 1e-4


@pytest.mark.parametrize("mode", ["linear", "cubic"])
def test_antialias_and_exclude_outside_by_sizes(mode):
    x = _image((2, 9, 11), "float32")
    for sizes in ([2, 4, 5], [2, 3, 14]):
        model = _model(x.shape, "float32", sizes=sizes, mode=mode, antialias=1, exclude_outside=1)
        _check(model, x, _CUBIC_RTOL if mode == "cubic" else 1e-6)


def test_gradient_of_a_linear_resize(check_grads):
    model = _model((1, 1, 4, 5), "float64", scales=[1, 1, 1.5, 0.8], mode="linear")
    params, fn = ast.onnx.load(model)
    x = numpy.random.default_rng(2).normal(size=(1, 1, 4, 5))
    check_grads(lambda x: fn(params, x)[0], (x,), modes=("rev",))


def test_sizes_computed_from_the_input_shape_under_jit():
    shape = helper.make_node("Shape", ["x"], ["s"])
    double = helper.make_node("Mul", ["s", "two"], ["sizes"])
    node = helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode="nearest")
    graph = helper.make_graph(
        [shape, double, node],
        "resize",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * 4)],
        [numpy_helper.from_array(numpy.array([1, 1, 2, 2], numpy.int64), "two")],
    )
    params, fn = ast.onnx.load(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    )
    x = numpy.arange(6.0, dtype=numpy.float32).reshape(1, 1, 2, 3)
    want = x.repeat(2, axis=2).repeat(2, axis=3)
    for f in (fn, ast.jit(fn)):  # the shape is known when tracing
        numpy.testing.assert_array_equal(numpy.asarray(f(params, x)[0]), want)
