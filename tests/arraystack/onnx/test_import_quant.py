"""ONNX's quantization operators beyond its node tests (arraystack/onnx/import_quant.py): every integer
target, per tensor, per axis and blocked, eagerly and under jit, against onnx's ReferenceEvaluator; where
the reference departs from the operator's specification (values beyond int32 before saturating, per-row
zero points of a non-square matrix) against the specification's formula in NumPy. Weight-only quantized
models differentiate in their float inputs."""

from __future__ import annotations

import ml_dtypes
import numpy
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import arraystack as ast

RNG = numpy.random.default_rng(0)
TYPES = {"uint8": TensorProto.UINT8, "int8": TensorProto.INT8}
TYPES.update({"uint16": TensorProto.UINT16, "int16": TensorProto.INT16})
RANGES = {"uint8": (0, 255), "int8": (-128, 127), "uint16": (0, 65535), "int16": (-32768, 32767)}


def _model(node, inputs, outputs, initializers=(), opset=21):
    graph = helper.make_graph(
        [node],
        "q",
        [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [helper.make_tensor_value_info(n, t, s) for n, t, s in outputs],
        list(initializers),
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _both(model, *args):
    """The model's outputs eagerly and under jit, as NumPy arrays."""
    params, fn = ast.onnx.load(model)
    return [[numpy.asarray(o) for o in f(params, *args)] for f in (fn, ast.jit(fn))]


def _scales(shape, axis, block):
    if axis is None:
        return RNG.uniform(0.02, 0.2, size=()).astype(numpy.float32)
    if not block:
        return RNG.uniform(0.02, 0.2, size=(shape[axis],)).astype(numpy.float32)
    blocked = [-(-n // block) if k == axis % len(shape) else n for k, n in enumerate(shape)]
    return RNG.uniform(0.02, 0.2, size=blocked).astype(numpy.float32)


LAYOUTS = [
    (None, 0),
    (0, 0),
    (1, 0),
    (-1, 0),
    (1, 2),
    (2, 3),
]  # (axis, block size); None: per tensor


@pytest.mark.parametrize("axis,block", LAYOUTS)
@pytest.mark.parametrize("dtype", list(TYPES))
def test_quantize_and_dequantize_as_the_reference(dtype, axis, block):
    shape = (3, 4, 5)
    x = RNG.normal(scale=4.0, size=shape).astype(numpy.float32)
    x[0, 0, :3] = [0.5 * 0.02, 1e3, -1e3]  # ties, saturation at both ends
    scale = _scales(shape, axis, block)
    lo, hi = RANGES[dtype]
    zero = RNG.integers(lo, hi // 2 + 1, size=scale.shape).astype(dtype)
    attrs = {} if axis is None else {"axis": axis}
    if block:
        attrs["block_size"] = block
    q = _model(
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], **attrs),
        [("x", TensorProto.FLOAT, shape), ("s", TensorProto.FLOAT, scale.shape)],
        [("y", TYPES[dtype], shape)],
        [numpy_helper.from_array(zero, "z")],
    )
    want = ReferenceEvaluator(q).run(None, {"x": x, "s": scale})[0]
    for got in _both(q, x, scale):
        assert got[0].dtype == want.dtype
        numpy.testing.assert_array_equal(got[0], want)
    d = _model(
        helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], **attrs),
        [("q", TYPES[dtype], shape), ("s", TensorProto.FLOAT, scale.shape)],
        [("y", TensorProto.FLOAT, shape)],
        [numpy_helper.from_array(zero, "z")],
    )
    want_d = ReferenceEvaluator(d).run(None, {"q": want, "s": scale})[0]
    for got in _both(d, want, scale):
        numpy.testing.assert_allclose(got[0], want_d, rtol=1e-6)


def test_quantize_saturates_beyond_int32_and_sends_nan_to_the_low_end():
    # the reference converts to int32 before clipping, which wraps 1e12; the specification saturates
    x = numpy.array([1e12, -1e12, numpy.inf, -numpy.inf, numpy.nan, 2.5, 3.5], numpy.float32)
    for dtype, (lo, hi) in RANGES.items():
        model = _model(
            helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"]),
            [("x", TensorProto.FLOAT, x.shape)],
            [("y", TYPES[dtype], x.shape)],
            [
                numpy_helper.from_array(numpy.float32(1.0), "s"),
                numpy_helper.from_array(numpy.array(0, dtype), "z"),
            ],
        )
        for got in _both(model, x):
            numpy.testing.assert_array_equal(got[0], numpy.array([hi, lo, hi, lo, lo, 2, 4], dtype))


def test_quantize_to_float8_saturates_unless_told_not_to():
    x = numpy.array([1e4, -500.0, 0.3, numpy.inf, numpy.nan], numpy.float32)
    for saturate in (1, 0):
        model = _model(
            helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], saturate=saturate),
            [("x", TensorProto.FLOAT, x.shape)],
            [("y", TensorProto.FLOAT8E4M3FN, x.shape)],
            [
                numpy_helper.from_array(numpy.float32(2.0), "s"),
                numpy_helper.from_array(numpy.array(0, ml_dtypes.float8_e4m3fn), "z"),
            ],
        )
        want = ReferenceEvaluator(model).run(None, {"x": x})[0]
        params, fn = ast.onnx.load(model)  # a host dtype: eager only
        got = numpy.asarray(fn(params, x)[0])
        assert got.dtype == want.dtype
        numpy.testing.assert_array_equal(got.astype(numpy.float32), want.astype(numpy.float32))


@pytest.mark.parametrize("values", ["spread", "positive", "constant"])
def test_dynamic_quantize_linear_as_the_reference(values):
    x = {
        "spread": RNG.normal(size=(4, 6)),
        "positive": RNG.uniform(0.5, 3.0, size=(4, 6)),
        "constant": numpy.zeros((4, 6)),
    }[values].astype(numpy.float32)
    model = _model(
        helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"]),
        [("x", TensorProto.FLOAT, x.shape)],
        [
            ("y", TensorProto.UINT8, x.shape),
            ("s", TensorProto.FLOAT, ()),
            ("z", TensorProto.UINT8, ()),
        ],
    )
    want = ReferenceEvaluator(model).run(None, {"x": x})
    for got in _both(model, x):
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            numpy.testing.assert_array_equal(g, w)


def test_matmul_integer_with_per_row_and_per_column_zero_points():
    a = RNG.integers(0, 256, size=(2, 3, 5)).astype(numpy.uint8)
    b = RNG.integers(-128, 128, size=(5, 4)).astype(numpy.int8)
    az = numpy.array([3, 120, 7], numpy.uint8)  # one per row of a (3 rows, 5 columns)
    bz = numpy.array([0, -5, 9, 100], numpy.int8)  # one per column of b
    model = _model(
        helper.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"]),
        [("a", TensorProto.UINT8, a.shape), ("b", TensorProto.INT8, b.shape)],
        [("y", TensorProto.INT32, (2, 3, 4))],
        [numpy_helper.from_array(az, "az"), numpy_helper.from_array(bz, "bz")],
        opset=10,
    )
    want = (a.astype(numpy.int32) - az[:, None]) @ (b.astype(numpy.int32) - bz)
    for got in _both(model, a, b):
        assert got[0].dtype == numpy.int32
        numpy.testing.assert_array_equal(got[0], want)


@pytest.mark.parametrize("dtype", ["uint8", "int8"])
def test_qlinear_matmul_per_row_and_per_column(dtype):
    lo, hi = RANGES[dtype]
    a = RNG.integers(lo, hi + 1, size=(3, 6)).astype(dtype)
    b = RNG.integers(lo, hi + 1, size=(6, 4)).astype(dtype)
    a_s = RNG.uniform(0.01, 0.05, size=3).astype(numpy.float32)
    a_z = RNG.integers(lo, hi + 1, size=3).astype(dtype)
    b_s = RNG.uniform(0.01, 0.05, size=4).astype(numpy.float32)
    b_z = RNG.integers(lo, hi + 1, size=4).astype(dtype)
    y_s, y_z = numpy.float32(0.5), numpy.array(lo + 10, dtype)
    names = ["a", "as", "az", "b", "bs", "bz", "ys", "yz"]
    model = _model(
        helper.make_node("QLinearMatMul", names, ["y"]),
        [("a", TYPES[dtype], a.shape), ("b", TYPES[dtype], b.shape)],
        [("y", TYPES[dtype], (3, 4))],
        [
            numpy_helper.from_array(v, n)
            for n, v in zip(["as", "az", "bs", "bz", "ys", "yz"], [a_s, a_z, b_s, b_z, y_s, y_z])
        ],
    )
    acc = (a.astype(numpy.int32) - a_z[:, None].astype(numpy.int32)) @ (
        b.astype(numpy.int32) - b_z.astype(numpy.int32)
    )
    real = acc * (a_s[:, None] * b_s / y_s)
    want = numpy.clip(numpy.rint(real) + y_z, lo, hi).astype(dtype)
    for got in _both(model, a, b):
        numpy.testing.assert_array_equal(got[0], want)


@pytest.mark.parametrize("per_channel", [False, True])
def test_qlinear_conv_and_conv_integer_as_the_reference(per_channel):
    x = RNG.integers(0, 256, size=(2, 3, 7, 6)).astype(numpy.uint8)
    w = RNG.integers(-128, 128, size=(4, 3, 3, 2)).astype(numpy.int8)
    w_s = RNG.uniform(0.001, 0.01, size=4 if per_channel else ()).astype(numpy.float32)
    w_z = numpy.zeros(4 if per_channel else (), numpy.int8)
    consts = {
        "xs": numpy.float32(0.02),
        "xz": numpy.array(128, numpy.uint8),
        "ws": w_s,
        "wz": w_z,
        "ys": numpy.float32(0.05),
        "yz": numpy.array(7, numpy.uint8),
        "bias": RNG.integers(-2000, 2000, size=4).astype(numpy.int32),
    }
    attrs = {"pads": [1, 0, 1, 1], "strides": [2, 1]}
    q = _model(
        helper.make_node(
            "QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "bias"], ["y"], **attrs
        ),
        [("x", TensorProto.UINT8, x.shape), ("w", TensorProto.INT8, w.shape)],
        [("y", TensorProto.UINT8, [None] * 4)],
        [numpy_helper.from_array(v, n) for n, v in consts.items()],
        opset=10,
    )
    want = ReferenceEvaluator(q).run(None, {"x": x, "w": w})[0]
    for got in _both(q, x, w):
        assert got[0].dtype == numpy.uint8
        numpy.testing.assert_array_equal(got[0], want)
    c = _model(
        helper.make_node("ConvInteger", ["x", "w", "xz"], ["y"], **attrs),
        [("x", TensorProto.UINT8, x.shape), ("w", TensorProto.INT8, w.shape)],
        [("y", TensorProto.INT32, [None] * 4)],
        [numpy_helper.from_array(consts["xz"], "xz")],
        opset=10,
    )
    want = ReferenceEvaluator(c).run(None, {"x": x, "w": w})[0]
    for got in _both(c, x, w):
        numpy.testing.assert_array_equal(got[0], want)


def test_a_weight_only_quantized_layer_differentiates_in_its_input(check_grads):
    w = RNG.integers(-128, 128, size=(5, 3)).astype(numpy.int8)
    scale = RNG.uniform(0.01, 0.03, size=3).astype(numpy.float32)
    nodes = [
        helper.make_node("DequantizeLinear", ["w", "s"], ["wf"], axis=1),
        helper.make_node("Cast", ["wf"], ["wd"], to=TensorProto.DOUBLE),
        helper.make_node("MatMul", ["x", "wd"], ["h"]),
        helper.make_node("Tanh", ["h"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "woq",
        [helper.make_tensor_value_info("x", TensorProto.DOUBLE, [4, 5])],
        [helper.make_tensor_value_info("y", TensorProto.DOUBLE, [4, 3])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(scale, "s")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    params, fn = ast.onnx.load(model)
    x = RNG.normal(size=(4, 5))
    want = numpy.tanh(x @ (w.astype(numpy.float32) * scale).astype(numpy.float64))
    numpy.testing.assert_allclose(numpy.asarray(ast.jit(fn)(params, x)[0]), want, rtol=1e-6)
    check_grads(lambda x: fn(params, x)[0], [x], jit=True)


def test_bad_scales_and_zero_points_are_model_errors():
    x = numpy.ones((2, 3), numpy.float32)
    cases = [
        ({"axis": 1}, numpy.ones(2, numpy.float32), None, "vector of the 3 elements"),
        ({"axis": 3}, numpy.ones(3, numpy.float32), None, "axis 3 is out of range"),
        ({"axis": 1, "block_size": 2}, numpy.ones((2, 1), numpy.float32), None, "expected (2, 2)"),
    ]
    for attrs, scale, zero, message in cases:
        inputs = ["x", "s"] + (["z"] if zero is not None else [])
        inits = [numpy_helper.from_array(numpy.asarray(scale), "s")]
        if zero is not None:
            inits.append(numpy_helper.from_array(numpy.asarray(zero), "z"))
        model = _model(
            helper.make_node("QuantizeLinear", inputs, ["y"], **attrs),
            [("x", TensorProto.FLOAT, x.shape)],
            [("y", TensorProto.UINT8, x.shape)],
            inits,
        )
        params, fn = ast.onnx.load(model)
        with pytest.raises(
            ast.onnx.ModelError, match=message.replace("(", r"\(").replace(")", r"\)")
        ):
            fn(params, x)
