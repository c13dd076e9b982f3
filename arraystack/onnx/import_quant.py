"""Import rules of ONNX's quantization operators, against `xp` (convention: interpreter.py):
QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger, QLinearMatMul, ConvInteger and
QLinearConv, the operators of quantized models in both of ONNX's formats (QDQ pairs around float
operators, and the QLinear operators).

Quantizing divides by the scale, rounds half to even, adds the zero point and saturates to the target
type's range; a NaN becomes the range's low end, as in ONNX's reference and onnxruntime on x86-64. The
integer targets (uint8, int8, uint16, int16) are arraystack dtypes and trace under jit. The narrow types
of ml_dtypes (int4, uint4, int2, uint2, float8_e4m3fn, float8_e4m3fnuz, float8_e5m2, float8_e5m2fnuz,
float4_e2m1fn) are host dtypes in arraystack: models using them run eagerly.
Integer products accumulate in int32, as the operators specify.
"""

from __future__ import annotations

import numpy

from arraystack.onnx.import_nn import _conv

_INTEGER_RANGES = {
    "uint8": (0, 255),
    "int8": (-128, 127),
    "uint16": (0, 65535),
    "int16": (-32768, 32767),
    "uint4": (0, 15),
    "int4": (-8, 7),
    "uint2": (0, 3),
    "int2": (-2, 1),
}


def _dtype_name(dtype) -> str:
    return numpy.dtype(dtype).name


def saturating_cast(xp, x, dtype):
    """x as the float8 `dtype`, values beyond its largest finite one (infinities too) clamped to it, NaN
    kept: ONNX's Cast and QuantizeLinear with saturate=1."""
    import ml_dtypes

    top = float(ml_dtypes.finfo(dtype).max)
    return xp.where(xp.isnan(x), x, xp.clip(x, -top, top)).astype(dtype)


def _along(xp, node, value, shape, axis, block_size, what):
    """A scale or zero point broadcast against x of `shape`: a scalar (or one element) as it is, a
    vector along `axis`, or blocks of `block_size` elements along `axis` (blocked quantization)."""
    if numpy.ndim(value) == 0:
        return value
    if numpy.size(value) == 1:
        return xp.reshape(value, ())
    rank = len(shape)
    if not -rank <= axis < rank:
        raise node.error(f"axis {axis} is out of range for an input of rank {rank}")
    axis %= rank
    if not block_size:
        if numpy.ndim(value) != 1 or numpy.size(value) != shape[axis]:
            raise node.error(
                f"{what} of shape {tuple(numpy.shape(value))} is neither a scalar nor a vector of "
                f"the {shape[axis]} elements of axis {axis} of the input's shape {tuple(shape)}"
            )
        return xp.reshape(value, tuple(-1 if k == axis else 1 for k in range(rank)))
    want = tuple(-(-n // block_size) if k == axis else n for k, n in enumerate(shape))
    if numpy.ndim(value) != rank or tuple(numpy.shape(value)) != want:
        raise node.error(
            f"{what} of shape {tuple(numpy.shape(value))} does not block the input's shape "
            f"{tuple(shape)} by {block_size} along axis {axis} (expected {want})"
        )
    blocks = xp.repeat(value, block_size, axis=axis)
    return blocks[tuple(slice(0, shape[axis]) if k == axis else slice(None) for k in range(rank))]


def _axis(node, x):
    """The quantization axis, checked against x's rank where a scale or zero point is per axis."""
    return node.attr("axis", 1)


def _saturate_integer(xp, v, name):
    """Rounded v (already offset by the zero point) clamped into `name`'s range; NaN to its low end."""
    lo, hi = _INTEGER_RANGES[name]
    return xp.where(xp.isnan(v), lo, xp.clip(v, lo, hi))


def _quantize(xp, node, x, scale, zero_point=None):
    from onnx import helper

    out = node.attr("output_dtype", 0)
    if zero_point is not None:
        if out and helper.tensor_dtype_to_np_dtype(out) != numpy.dtype(zero_point.dtype):
            raise node.error(
                f"output_dtype {helper.tensor_dtype_to_string(out)} differs from the zero point's "
                f"type {_dtype_name(zero_point.dtype)}"
            )
        dtype = numpy.dtype(zero_point.dtype)
    else:
        dtype = numpy.dtype(helper.tensor_dtype_to_np_dtype(out) if out else numpy.uint8)
    axis, block = _axis(node, x), node.attr("block_size", 0)
    shape = numpy.shape(x)
    scale = _along(xp, node, scale, shape, axis, block, "the scale")
    precision = node.attr("precision", 0)
    if precision:
        compute = helper.tensor_dtype_to_np_dtype(precision)
        q = x.astype(compute) / scale.astype(compute)
    else:
        q = x / scale
    name = _dtype_name(dtype)
    if name in _INTEGER_RANGES:
        v = xp.rint(q)
        if zero_point is not None:
            v = v + _along(xp, node, zero_point, shape, axis, block, "the zero point").astype(
                v.dtype
            )
        return _saturate_integer(xp, v, name).astype(dtype)
    if name.startswith("float8"):
        if zero_point is not None and numpy.any(
            node.static(zero_point, "zero point").astype(float)
        ):
            raise node.error("a float8 zero point must be 0")
        return saturating_cast(xp, q, dtype) if node.attr("saturate", 1) else q.astype(dtype)
    if name == "float4_e2m1fn":  # no infinity or NaN: the cast saturates
        if zero_point is not None:
            q = q + _along(xp, node, zero_point, shape, axis, block, "the zero point").astype(
                q.dtype
            )
        return q.astype(dtype)
    raise node.error(f"{name} is not a quantized type")


def _dequantize(xp, node, x, scale, zero_point=None):
    from onnx import helper

    axis, block = _axis(node, x), node.attr("block_size", 0)
    shape = numpy.shape(x)
    name = _dtype_name(x.dtype)
    dx = x.astype(numpy.float32)
    if zero_point is not None and not name.startswith("float"):
        if numpy.dtype(zero_point.dtype) != numpy.dtype(x.dtype):
            raise node.error(
                f"the zero point's type {_dtype_name(zero_point.dtype)} differs from the input's {name}"
            )
        dx = dx - _along(xp, node, zero_point, shape, axis, block, "the zero point")
    elif zero_point is not None and numpy.any(node.static(zero_point, "zero point").astype(float)):
        raise node.error(f"a zero point of {name} must be 0")
    y = dx * _along(xp, node, scale, shape, axis, block, "the scale")
    out = node.attr("output_dtype", 0)
    return y.astype(helper.tensor_dtype_to_np_dtype(out) if out else scale.dtype)


def _dynamic_quantize(xp, node, x):
    """uint8 with the scale and zero point that map [min(x, 0), max(x, 0)] onto [0, 255]."""
    f32 = numpy.float32
    hi = xp.maximum(xp.max(x), 0).astype(f32)
    lo = xp.minimum(xp.min(x), 0).astype(f32)
    scale = xp.where(hi == lo, f32(1), hi - lo) / f32(255)
    zero = xp.rint(xp.clip(f32(0) - lo / scale, 0, 255))
    y = _saturate_integer(xp, xp.rint(x / scale) + zero, "uint8").astype(numpy.uint8)
    return y, scale.astype(x.dtype), zero.astype(numpy.uint8)


def _offset(x, zero_point, row_axis=None):
    """x in int32 less its zero point; a vector zero point per row (row_axis -2: a matrix's rows, 0: a
    convolution weight's output channels) or per column (None: the last axis)."""
    x = x.astype(numpy.int32)
    if zero_point is None:
        return x
    zero = zero_point.astype(numpy.int32)
    if numpy.ndim(zero) == 1 and numpy.size(zero) > 1 and row_axis is not None:
        rank = numpy.ndim(x)
        shape = [1] * rank
        shape[row_axis] = -1
        zero = zero.reshape(shape)
    return x - zero


def _rows(value):
    """A per-row vector (scale or zero point of a matrix's rows) shaped to broadcast over columns."""
    if value is None or numpy.ndim(value) != 1 or numpy.size(value) == 1:
        return value
    return value.reshape((-1, 1))


def _matmul_integer(xp, node, a, b, a_zero=None, b_zero=None):
    return xp.matmul(_offset(a, a_zero, -2), _offset(b, b_zero))


def _requantize(xp, node, acc, factor, y_zero, like):
    """int32 accumulators scaled by `factor`, rounded half to even, offset and saturated into the
    output's type (y_zero's, else `like`'s)."""
    dtype = numpy.dtype(y_zero.dtype if y_zero is not None else like)
    name = _dtype_name(dtype)
    if name not in ("uint8", "int8"):
        raise node.error(f"the quantized output must be uint8 or int8, not {name}")
    v = xp.rint(acc * factor)
    if y_zero is not None:
        v = v + y_zero
    return _saturate_integer(xp, v, name).astype(dtype)


def _qlinear_matmul(xp, node, a, a_scale, a_zero, b, b_scale, b_zero, y_scale, y_zero):
    acc = xp.matmul(_offset(a, a_zero, -2), _offset(b, b_zero))
    factor = _rows(a_scale) * b_scale / _rows(y_scale)
    return _requantize(xp, node, acc, factor, _rows(y_zero), a.dtype)


def _conv_integer(xp, node, x, w, x_zero=None, w_zero=None):
    return _conv(xp, node, _offset(x, x_zero), _offset(w, w_zero, 0))


def _qlinear_conv(xp, node, x, x_scale, x_zero, w, w_scale, w_zero, y_scale, y_zero, bias=None):
    acc = _conv(xp, node, _offset(x, x_zero), _offset(w, w_zero, 0), bias)
    rank = numpy.ndim(acc)
    if numpy.ndim(w_scale) == 1 and numpy.size(w_scale) > 1:
        if numpy.size(w_scale) != numpy.shape(w)[0]:
            raise node.error(
                f"w_scale has {numpy.size(w_scale)} elements for {numpy.shape(w)[0]} output channels"
            )
        w_scale = w_scale.reshape((1, -1) + (1,) * (rank - 2))
    factor = x_scale * w_scale / y_scale
    return _requantize(xp, node, acc, factor, y_zero, x.dtype)


quant_rules = {
    "QuantizeLinear": _quantize,
    "DequantizeLinear": _dequantize,
    "DynamicQuantizeLinear": _dynamic_quantize,
    "MatMulInteger": _matmul_integer,
    "QLinearMatMul": _qlinear_matmul,
    "ConvInteger": _conv_integer,
    "QLinearConv": _qlinear_conv,
}

__all__ = ["quant_rules", "saturating_cast"]
