"""Import rules of ONNX's reductions, contractions and neural-network operators, against `xp`.

Convention: interpreter.py. Convolution goes through arraystack.nn.conv (so it is differentiable and
jit-compiles); pooling is in import_pooling.py.
"""

from __future__ import annotations

import numpy

from arraystack.onnx.errors import UnsupportedOperatorError
from arraystack.onnx.import_pooling import pad_widths
from arraystack.onnx.interpreter import dynamic

nn_rules: dict = {}


def _same(xp, x, value):
    return xp.asarray(value, dtype=x.dtype)


def _axis(axis, rank):
    return int(axis) + rank if int(axis) < 0 else int(axis)


# -- reductions -----------------------------------------------------------------------------------


def _reduce(fn, axes_input_since):
    def rule(xp, node, x, axes=None):
        rank = numpy.ndim(x)
        if node.opset >= axes_input_since:
            axes = None if axes is None else node.ints(axes, "axes")
        else:
            axes = node.attr("axes")
        keepdims = bool(node.attr("keepdims", 1))
        if not axes:
            if node.attr("noop_with_empty_axes", 0):
                return x
            axes = list(range(rank))
        axes = tuple(sorted(_axis(a, rank) for a in axes))
        return fn(xp, x, axes, keepdims)

    return rule


def _log_sum_exp(xp, x, axes, keepdims):
    if numpy.size(x) == 0:
        return xp.log(xp.sum(xp.exp(x), axis=axes, keepdims=keepdims))
    top = xp.max(x, axis=axes, keepdims=True)
    top = xp.where(xp.isfinite(top), top, _same(xp, x, 0))
    out = xp.log(xp.sum(xp.exp(x - top), axis=axes, keepdims=True)) + top
    return out if keepdims else xp.squeeze(out, axis=axes)


_REDUCTIONS = {
    "ReduceSum": (lambda xp, x, a, k: xp.sum(x, axis=a, keepdims=k, dtype=x.dtype), 13),
    "ReduceMean": (lambda xp, x, a, k: xp.mean(x, axis=a, keepdims=k, dtype=x.dtype), 18),
    "ReduceProd": (lambda xp, x, a, k: xp.prod(x, axis=a, keepdims=k, dtype=x.dtype), 18),
    "ReduceMax": (lambda xp, x, a, k: _extreme(xp, xp.max, x, a, k, -1), 18),
    "ReduceMin": (lambda xp, x, a, k: _extreme(xp, xp.min, x, a, k, 1), 18),
    "ReduceL1": (lambda xp, x, a, k: xp.sum(xp.abs(x), axis=a, keepdims=k, dtype=x.dtype), 18),
    "ReduceL2": (
        lambda xp, x, a, k: xp.sqrt(xp.sum(x * x, axis=a, keepdims=k, dtype=x.dtype)).astype(
            x.dtype
        ),
        18,
    ),
    "ReduceSumSquare": (lambda xp, x, a, k: xp.sum(x * x, axis=a, keepdims=k, dtype=x.dtype), 18),
    "ReduceLogSum": (lambda xp, x, a, k: xp.log(xp.sum(x, axis=a, keepdims=k, dtype=x.dtype)), 18),
    "ReduceLogSumExp": (_log_sum_exp, 18),
}


def _extreme(xp, fn, x, axes, keepdims, sign):
    if numpy.size(x) == 0:  # ONNX: the identity (-inf for max, +inf for min; the dtype's limits)
        shape = [1 if i in axes else n for i, n in enumerate(numpy.shape(x))]
        if not keepdims:
            shape = [n for i, n in enumerate(numpy.shape(x)) if i not in axes]
        dtype = numpy.dtype(x.dtype)
        if dtype.kind == "f":
            value = sign * numpy.inf
        elif dtype.kind == "b":
            value = sign > 0
        else:
            info = numpy.iinfo(dtype)
            value = info.min if sign < 0 else info.max
        return xp.full(shape, value, dtype=dtype)
    return fn(x, axis=axes, keepdims=keepdims)


for _name, (_fn, _since) in _REDUCTIONS.items():
    nn_rules[_name] = _reduce(_fn, _since)


def _arg(fn):
    def rule(xp, node, x):
        rank = numpy.ndim(x)
        axis = _axis(node.attr("axis", 0), rank)
        if node.attr("select_last_index", 0):
            n = numpy.shape(x)[axis]
            out = (n - 1) - fn(xp.flip(x, axis), axis=axis)
        else:
            out = fn(x, axis=axis)
        out = out.astype(numpy.int64)
        return xp.expand_dims(out, axis) if node.attr("keepdims", 1) else out

    return rule


nn_rules["ArgMax"] = lambda xp, node, x: _arg(xp.argmax)(xp, node, x)
nn_rules["ArgMin"] = lambda xp, node, x: _arg(xp.argmin)(xp, node, x)


def _cumsum(xp, node, x, axis):
    axis = _axis(node.static(axis, "axis").item(), numpy.ndim(x))
    if node.attr("reverse", 0):
        x = xp.flip(x, axis)
    out = xp.cumsum(x, axis=axis, dtype=x.dtype)
    if node.attr("exclusive", 0):
        out = out - x
    return xp.flip(out, axis) if node.attr("reverse", 0) else out


def _top_k(xp, node, x, k=None):
    k = node.attr("k") if k is None else int(node.static(k, "k").reshape(-1)[0])
    axis = _axis(node.attr("axis", -1), numpy.ndim(x))
    key = x.astype(numpy.float64) if numpy.dtype(x.dtype).kind in "iub" else x
    key = -key if node.attr("largest", 1) else key
    order = xp.argsort(key, axis=axis, kind="stable")  # ties: the lower index first, as ONNX says
    index = [slice(None)] * numpy.ndim(x)
    index[axis] = slice(0, k)
    order = order[tuple(index)].astype(numpy.int64)
    return xp.take_along_axis(x, order, axis=axis), order


def _cumprod(xp, node, x, axis):
    axis = _axis(node.static(axis, "axis").item(), numpy.ndim(x))
    if node.attr("reverse", 0):
        x = xp.flip(x, axis)
    if node.attr("exclusive", 0):  # shift by one, starting from 1
        widths = [(0, 0)] * numpy.ndim(x)
        widths[axis] = (1, 0)
        index = [slice(None)] * numpy.ndim(x)
        index[axis] = slice(0, numpy.shape(x)[axis])
        x = xp.pad(x, widths, constant_values=1)[tuple(index)]
    out = xp.cumprod(x, axis=axis, dtype=x.dtype)
    return xp.flip(out, axis) if node.attr("reverse", 0) else out


nn_rules["CumSum"] = _cumsum
nn_rules["CumProd"] = _cumprod
nn_rules["TopK"] = _top_k

# -- contraction ----------------------------------------------------------------------------------


def _gemm(xp, node, a, b, c=None):
    if node.attr("transA", 0):
        a = xp.transpose(a)
    if node.attr("transB", 0):
        b = xp.transpose(b)
    out = xp.matmul(a, b)
    alpha, beta = node.attr("alpha", 1.0), node.attr("beta", 1.0)
    if alpha != 1.0:
        out = out * _same(xp, out, alpha)
    if c is not None:
        out = out + (c * _same(xp, c, beta) if beta != 1.0 else c)
    return out


nn_rules["MatMul"] = lambda xp, node, a, b: xp.matmul(a, b)
nn_rules["Gemm"] = _gemm
nn_rules["Einsum"] = lambda xp, node, *xs: xp.einsum(node.attr("equation").replace(" ", ""), *xs)
nn_rules["Det"] = lambda xp, node, x: xp.linalg.det(x)

# -- softmax and normalization --------------------------------------------------------------------


def _softmax_family(kind):
    def rule(xp, node, x):
        rank = numpy.ndim(x)
        shape = numpy.shape(x)
        if node.opset < 13:  # the operand is coerced to 2-d at `axis`
            axis = _axis(node.attr("axis", 1), rank)
            x = xp.reshape(x, (int(numpy.prod(shape[:axis], dtype=numpy.int64)), -1))
            return xp.reshape(_along(xp, kind, x, 1), shape)
        return _along(xp, kind, x, _axis(node.attr("axis", -1), rank))

    return rule


def _along(xp, kind, x, axis):
    if kind == "hardmax":
        first = xp.argmax(x, axis=axis)
        ramp = numpy.arange(numpy.shape(x)[axis]).reshape(
            [-1 if i == axis else 1 for i in range(numpy.ndim(x))]
        )
        return (xp.expand_dims(first, axis) == xp.asarray(ramp)).astype(x.dtype)
    shifted = x - xp.max(x, axis=axis, keepdims=True)
    if kind == "log":
        return shifted - xp.log(xp.sum(xp.exp(shifted), axis=axis, keepdims=True))
    e = xp.exp(shifted)
    return e / xp.sum(e, axis=axis, keepdims=True)


nn_rules["Softmax"] = _softmax_family("softmax")
nn_rules["LogSoftmax"] = _softmax_family("log")
nn_rules["Hardmax"] = _softmax_family("hardmax")


def _channel(xp, v, rank):
    return xp.reshape(v, (1, -1) + (1,) * (rank - 2))


def _batch_norm(xp, node, x, scale, bias, mean, var, *rest):
    rank = numpy.ndim(x)
    if node.attr("training_mode", 0):  # the batch's statistics, and the running ones updated
        axes = (0, *range(2, rank))
        batch_mean, batch_var = xp.mean(x, axis=axes), xp.var(x, axis=axes)
        momentum = _same(xp, x, node.attr("momentum", 0.9))
        running_mean = mean * momentum + batch_mean * (1 - momentum)
        running_var = var * momentum + batch_var * (1 - momentum)
        eps = _same(xp, x, node.attr("epsilon", 1e-5))
        inv = _channel(xp, scale, rank) / xp.sqrt(_channel(xp, batch_var, rank) + eps)
        y = (x - _channel(xp, batch_mean, rank)) * inv + _channel(xp, bias, rank)
        return y, running_mean.astype(x.dtype), running_var.astype(x.dtype)
    eps = _same(xp, x, node.attr("epsilon", 1e-5))
    inv = _channel(xp, scale, rank) / xp.sqrt(_channel(xp, var, rank) + eps)
    return (x - _channel(xp, mean, rank)) * inv + _channel(xp, bias, rank)


def _layer_norm(xp, node, x, scale, bias=None):
    rank = numpy.ndim(x)
    axis = _axis(node.attr("axis", -1), rank)
    axes = tuple(range(axis, rank))
    eps = _same(xp, x, node.attr("epsilon", 1e-5))
    mean = xp.mean(x, axis=axes, keepdims=True)
    centered = x - mean
    inv = _same(xp, x, 1) / xp.sqrt(xp.mean(centered * centered, axis=axes, keepdims=True) + eps)
    out = centered * inv * scale
    if bias is not None:
        out = out + bias
    return out, mean, inv


def _instance_norm(xp, node, x, scale, bias):
    rank = numpy.ndim(x)
    axes = tuple(range(2, rank))
    eps = _same(xp, x, node.attr("epsilon", 1e-5))
    mean = xp.mean(x, axis=axes, keepdims=True)
    var = xp.mean((x - mean) ** 2, axis=axes, keepdims=True)
    return (x - mean) / xp.sqrt(var + eps) * _channel(xp, scale, rank) + _channel(xp, bias, rank)


def _mvn(xp, node, x):
    axes = tuple(node.attr("axes", [0, 2, 3]))
    mean = xp.mean(x, axis=axes, keepdims=True)
    var = xp.mean(x * x, axis=axes, keepdims=True) - mean * mean
    return (x - mean) / (xp.sqrt(var) + _same(xp, x, 1e-9))


def _lp_norm(xp, node, x):
    axis = _axis(node.attr("axis", -1), numpy.ndim(x))
    if node.attr("p", 2) == 1:
        norm = xp.sum(xp.abs(x), axis=axis, keepdims=True)
    else:
        norm = xp.sqrt(xp.sum(x * x, axis=axis, keepdims=True))
    zero = norm == 0
    return xp.where(zero, _same(xp, x, 0), x / xp.where(zero, _same(xp, x, 1), norm))


def _dropout(xp, node, x, ratio=None, training=None):
    if (
        training is not None
        and bool(node.static(training, "training_mode"))
        and (ratio is None or float(node.static(ratio, "ratio")) != 0)
    ):
        raise node.error(
            "dropout in training mode draws random numbers; it is not supported",
            UnsupportedOperatorError,
        )
    return x, xp.ones(numpy.shape(x), dtype=bool)


def _rms_norm(xp, node, x, scale):
    rank = numpy.ndim(x)
    axes = tuple(range(_axis(node.attr("axis", -1), rank), rank))
    eps = _same(xp, x, node.attr("epsilon", 1e-5))
    return x / xp.sqrt(xp.mean(x * x, axis=axes, keepdims=True) + eps) * scale


def _group_norm(xp, node, x, scale, bias):
    groups = node.attr("num_groups")
    shape = numpy.shape(x)
    eps = _same(xp, x, node.attr("epsilon", 1e-5))
    g = xp.reshape(x, (shape[0], groups, -1))
    mean = xp.mean(g, axis=2, keepdims=True)
    var = xp.mean((g - mean) ** 2, axis=2, keepdims=True)
    y = xp.reshape((g - mean) / xp.sqrt(var + eps), shape)
    rank = len(shape)
    return y * _channel(xp, scale, rank) + _channel(xp, bias, rank)


nn_rules["RMSNormalization"] = _rms_norm
nn_rules["GroupNormalization"] = _group_norm
nn_rules["BatchNormalization"] = _batch_norm
nn_rules["LayerNormalization"] = _layer_norm
nn_rules["InstanceNormalization"] = _instance_norm
nn_rules["MeanVarianceNormalization"] = _mvn
nn_rules["LpNormalization"] = _lp_norm
nn_rules["Dropout"] = _dropout

# -- convolution ----------------------------------------------------------------------


@dynamic
def _conv(xp, node, x, w, bias=None):
    import arraystack

    nd = numpy.ndim(x) - 2
    window = tuple(numpy.shape(w)[2:])
    strides = tuple(node.attr("strides", [1] * nd))
    dilations = tuple(node.attr("dilations", [1] * nd))
    pads = pad_widths(node, numpy.shape(x)[2:], window, strides, dilations)
    out = arraystack.nn.conv(
        x, w, strides=strides, padding=pads, dilation=dilations, groups=node.attr("group", 1)
    )
    if bias is not None:
        out = out + _channel(arraystack, bias, numpy.ndim(out))
    return out


nn_rules["Conv"] = _conv

__all__ = ["nn_rules"]
