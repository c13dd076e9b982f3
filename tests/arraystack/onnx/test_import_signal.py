"""The signal operators' import rules beyond ONNX's node tests, against onnx's ReferenceEvaluator,
eagerly and under jit: DFT of real and complex signals, forward and inverse, one-sided, cut and
zero-padded, along other axes, in float64, at opsets 17 and 20; STFT with and without a window and a
frame length; each window, periodic and symmetric, in float and double; MelWeightMatrix; the gradient
of a DFT-based function against finite differences; and the errors for a bad axis, a one-sided
transform of the wrong kind of signal, a window of the wrong length and a dft_length traced by jit."""

from __future__ import annotations

import numpy
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import arraystack as ast
from arraystack.onnx.errors import ModelError

_TYPES = {
    numpy.dtype("float16"): TensorProto.FLOAT16,
    numpy.dtype("float32"): TensorProto.FLOAT,
    numpy.dtype("float64"): TensorProto.DOUBLE,
}


def _model(op, inputs, consts, opset, out_type=TensorProto.FLOAT, rank=1, order=None, **attrs):
    """A one-node model of `op` with an output of `rank`: `inputs` (name -> array) are graph inputs,
    `consts` (name -> array) initializers, read in `order` (default: inputs, then initializers; an
    empty name leaves an optional operand out)."""
    order = list(inputs) + list(consts) if order is None else order
    node = helper.make_node(op, order, ["y"], **attrs)
    graph = helper.make_graph(
        [node],
        op.lower(),
        [helper.make_tensor_value_info(k, _TYPES[v.dtype], v.shape) for k, v in inputs.items()],
        [helper.make_tensor_value_info("y", out_type, [None] * rank)],
        [numpy_helper.from_array(numpy.asarray(v), k) for k, v in consts.items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _check(model, inputs, rtol=None):
    """The model's output by arraystack, eagerly and under jit, equals the reference's."""
    want = ReferenceEvaluator(model).run(None, inputs)[0]
    params, fn = ast.onnx.load(model)
    if rtol is None:
        rtol = {numpy.float64: 1e-12, numpy.float32: 1e-5}.get(want.dtype.type, 2e-3)
    atol = rtol * max(1.0, float(numpy.abs(want).max(initial=0)))
    for got in (fn(params, *inputs.values())[0], ast.jit(fn)(params, *inputs.values())[0]):
        got = numpy.asarray(got)
        assert got.dtype == want.dtype and got.shape == want.shape, (got.shape, want.shape)
        numpy.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def _signal(shape, dtype="float32", seed=0):
    return numpy.random.default_rng(seed).normal(size=shape).astype(dtype)


def _dft(x, opset=20, axis=None, dft_length=None, **attrs):
    consts = {}
    order = ["x"]
    if dft_length is not None:
        consts["n"] = numpy.array(dft_length, numpy.int64)
    if opset >= 20:
        order.append("n" if dft_length is not None else "")
        if axis is not None:
            consts["axis"] = numpy.array(axis, numpy.int64)
            order.append("axis")
    else:
        if dft_length is not None:
            order.append("n")
        if axis is not None:
            attrs["axis"] = axis
    return _model("DFT", {"x": x}, consts, opset, _TYPES[x.dtype], x.ndim, order=order, **attrs)


@pytest.mark.parametrize("opset", [17, 20])
@pytest.mark.parametrize("parts", [1, 2])
@pytest.mark.parametrize("inverse", [0, 1])
@pytest.mark.parametrize("dft_length", [None, 5, 11])
def test_dft_of_real_and_complex_signals(opset, parts, inverse, dft_length):
    x = _signal((2, 8, 3, parts))
    _check(_dft(x, opset, axis=1, dft_length=dft_length, inverse=inverse), {"x": x})


@pytest.mark.parametrize("opset", [17, 20])
@pytest.mark.parametrize("dft_length", [None, 6, 7, 12])
def test_a_onesided_dft_and_its_inverse(opset, dft_length):
    x = _signal((3, 10, 1))
    _check(_dft(x, opset, axis=1, dft_length=dft_length, onesided=1), {"x": x})
    spectrum = _signal((3, 6, 2), seed=1)
    model = _dft(spectrum, opset, axis=1, dft_length=dft_length, inverse=1, onesided=1)
    _check(model, {"x": spectrum})


def _unsized(model):
    """`model` with its inputs' sizes undeclared (so ONNX's checker leaves them to the importer)."""
    for value in model.graph.input:
        for i, dim in enumerate(value.type.tensor_type.shape.dim):
            dim.dim_param = f"d{i}"
    return model


def test_a_onesided_dft_takes_a_real_signal_and_its_inverse_a_complex_one():
    x = _signal((4, 9, 2))
    params, fn = ast.onnx.load(_unsized(_dft(x, 20, axis=1, onesided=1)))
    with pytest.raises(ModelError, match="one-sided DFT takes a real signal"):
        fn(params, x)
    params, fn = ast.onnx.load(_unsized(_dft(x[..., :1], 20, axis=1, onesided=1, inverse=1)))
    with pytest.raises(ModelError, match="one-sided inverse DFT takes a complex spectrum"):
        fn(params, x[..., :1])


@pytest.mark.parametrize("axis", [0, 1, -3, -4])
def test_dft_along_an_axis_before_the_last_signal_axis(axis):
    x = _signal((4, 5, 6, 2))
    _check(_dft(x, 20, axis=axis), {"x": x})
    _check(_dft(x, 17, axis=axis, inverse=1), {"x": x})


def test_dft_default_axes():
    x = _signal((3, 7, 5, 1))
    _check(_dft(x, 20), {"x": x})  # -2
    _check(_dft(x, 17), {"x": x})  # 1


@pytest.mark.parametrize("dtype", ["float64", "float16"])
@pytest.mark.parametrize("onesided", [0, 1])
def test_dft_in_float64_and_float16(onesided, dtype):
    x = _signal((2, 9, 1), dtype)
    _check(_dft(x, 20, axis=1, dft_length=12, onesided=onesided), {"x": x})
    spectrum = _signal((2, 7, 2), dtype)
    _check(_dft(spectrum, 20, axis=1, inverse=1, onesided=onesided), {"x": spectrum})


def test_the_last_axis_is_no_signal_axis():
    x = _signal((2, 8, 2))
    model = _model("DFT", {"x": x}, {}, 20, rank=3, order=["x", "", "axis"])
    model.graph.input.append(helper.make_tensor_value_info("axis", TensorProto.INT64, []))
    params, fn = ast.onnx.load(model)
    with pytest.raises(ModelError, match="axis -1 is not a signal axis"):
        fn(params, x, numpy.array(-1))
    got = numpy.asarray(fn(params, x, numpy.array(0))[0])
    numpy.testing.assert_allclose(
        got,
        ReferenceEvaluator(model).run(None, {"x": x, "axis": numpy.array(0)})[0],
        rtol=1e-5,
        atol=1e-5,
    )


def _stft(signal, step, window=None, frame_length=None, **attrs):
    inputs = {"signal": signal}
    consts = {"step": numpy.array(step, numpy.int64)}
    order = ["signal", "step", ""]
    if window is not None:
        inputs["window"] = window
        order[2] = "window"
    if frame_length is not None:
        consts["frame_length"] = numpy.array(frame_length, numpy.int64)
        order.append("frame_length")
    return _model("STFT", inputs, consts, 17, _TYPES[signal.dtype], 4, order=order, **attrs)


@pytest.mark.parametrize("onesided, parts", [(1, 1), (0, 1), (0, 2)])
def test_stft_with_and_without_window_and_frame_length(onesided, parts):
    signal = _signal((2, 50, parts))
    window = numpy.hanning(12).astype(numpy.float32)
    for step, win, n in [(5, window, None), (5, window, 12), (7, None, 9), (3, None, None)]:
        model = _stft(signal, step, win, n, onesided=onesided)
        inputs = {"signal": signal} if win is None else {"signal": signal, "window": win}
        _check(model, inputs)


def test_stft_in_float64():
    signal = _signal((1, 40, 1), "float64")
    window = numpy.hamming(16)
    _check(_stft(signal, 4, window), {"signal": signal, "window": window})


def test_a_onesided_stft_takes_a_real_signal():
    signal = _signal((1, 40, 2))
    params, fn = ast.onnx.load(_unsized(_stft(signal, 4, None, 8)))
    with pytest.raises(ModelError, match="one-sided DFT takes a real signal"):
        fn(params, signal)


def test_a_window_of_another_length_than_frame_length_is_refused():
    signal, window = _signal((1, 40, 1)), numpy.ones(8, numpy.float32)
    params, fn = ast.onnx.load(_unsized(_stft(signal, 4, window, 10)))
    with pytest.raises(ModelError, match="window must be 1-D, of frame_length 10"):
        fn(params, signal, window)


@pytest.mark.parametrize("op", ["HannWindow", "HammingWindow", "BlackmanWindow"])
@pytest.mark.parametrize("periodic", [0, 1])
@pytest.mark.parametrize("dtype", [TensorProto.FLOAT, TensorProto.DOUBLE])
def test_each_window(op, periodic, dtype):
    for size in (2, 7, 16):
        consts = {"size": numpy.array(size, numpy.int64)}
        model = _model(op, {}, consts, 17, dtype, periodic=periodic, output_datatype=dtype)
        _check(model, {}, rtol=1e-6 if dtype == TensorProto.FLOAT else 1e-12)


def test_a_window_size_read_from_an_input():
    model = _model("HannWindow", {}, {}, 17, order=["size"])
    model.graph.input.append(helper.make_tensor_value_info("size", TensorProto.INT32, []))
    params, fn = ast.onnx.load(model)
    got = numpy.asarray(fn(params, numpy.array(8, numpy.int32))[0])
    want = ReferenceEvaluator(model).run(None, {"size": numpy.array(8, numpy.int32)})[0]
    numpy.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize(
    "bins, length, rate, lower, upper",
    [(8, 16, 8192, 0.0, 4096.0), (5, 31, 16000, 300.0, 7000.0), (10, 64, 22050, 20.5, 8000.0)],
)
def test_mel_weight_matrix(bins, length, rate, lower, upper):
    ints = {"bins": bins, "length": length, "rate": rate}
    consts = {k: numpy.array(v, numpy.int64) for k, v in ints.items()}
    hertz = [  # float operands as Constant nodes: known when tracing (initializers would be params)
        helper.make_node("Constant", [], [k], value=numpy_helper.from_array(numpy.float32(v)))
        for k, v in (("lower", lower), ("upper", upper))
    ]
    model = _model(
        "MelWeightMatrix",
        {},
        consts,
        17,
        rank=2,
        order=["bins", "length", "rate", "lower", "upper"],
    )
    for node in reversed(hertz):
        model.graph.node.insert(0, node)
    _check(model, {}, rtol=1e-7)


def test_gradient_of_a_dft_based_function(check_grads):
    """A one-sided DFT, its (real, imaginary) pairs squared, and those transformed back (one-sided)
    and again (complex, zero-padded)."""
    nodes = [
        helper.make_node("DFT", ["x", "", "axis"], ["s"], onesided=1),
        helper.make_node("Mul", ["s", "s"], ["p"]),
        helper.make_node("DFT", ["p", "n", "axis"], ["r"], inverse=1, onesided=1),
        helper.make_node("DFT", ["p", "m", "axis"], ["y"]),
        helper.make_node("ReduceSum", ["r"], ["total"], keepdims=0),
    ]
    graph = helper.make_graph(
        nodes,
        "spectrum",
        [helper.make_tensor_value_info("x", TensorProto.DOUBLE, [2, 7, 1])],
        [
            helper.make_tensor_value_info("y", TensorProto.DOUBLE, [None] * 3),
            helper.make_tensor_value_info("total", TensorProto.DOUBLE, []),
        ],
        [
            numpy_helper.from_array(numpy.array(1, numpy.int64), "axis"),
            numpy_helper.from_array(numpy.array(7, numpy.int64), "n"),
            numpy_helper.from_array(numpy.array(6, numpy.int64), "m"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    params, fn = ast.onnx.load(model)
    x = numpy.random.default_rng(3).normal(size=(2, 7, 1))
    want = ReferenceEvaluator(model).run(None, {"x": x})
    for w, g in zip(want, fn(params, x)):
        numpy.testing.assert_allclose(numpy.asarray(g), w, rtol=1e-12, atol=1e-12)
    check_grads(lambda x: fn(params, x), (x,), modes=("fwd", "rev"))
    check_grads(lambda x: fn(params, x)[0], (x,), modes=("rev",), jit=True)


def test_a_dft_length_computed_under_jit_is_refused():
    x = _signal((2, 8, 1))
    model = _model("DFT", {"x": x}, {}, 20, rank=3, order=["x", "n"])
    model.graph.input.append(helper.make_tensor_value_info("n", TensorProto.INT64, []))
    params, fn = ast.onnx.load(model)
    assert numpy.asarray(fn(params, x, numpy.array(6))[0]).shape == (2, 6, 2)
    with pytest.raises(ModelError, match="dft_length must be known when the function is traced"):
        ast.jit(fn)(params, x, numpy.array(6))
