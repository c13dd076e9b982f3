"""Import rules of ONNX's shape, indexing and creation operators, written against `xp`.

Convention: interpreter.py. Operands that ONNX reads as sizes or axes go through `node.ints`, which
requires them static under `jit`. Older opsets pass some of them as attributes (axes of Squeeze before
13, Slice's bounds before 10, Pad's before 11): both forms are read.
"""

from __future__ import annotations

import itertools

import numpy

from arraystack.onnx.errors import UnsupportedOperatorError

tensor_rules: dict = {}


def _axis(axis, rank):
    return int(axis) + rank if int(axis) < 0 else int(axis)


def _shape_rule(xp, node, x):
    start, end = node.attr("start", 0), node.attr("end", None)
    return numpy.asarray(numpy.shape(x)[start:end], dtype=numpy.int64)


def _reshape(xp, node, x, shape=None):
    sizes = node.ints(shape, "shape") if shape is not None else list(node.attr("shape"))
    if not node.attr("allowzero", 0):
        sizes = [numpy.shape(x)[i] if s == 0 else s for i, s in enumerate(sizes)]
    return xp.reshape(x, sizes)


def _flatten(xp, node, x):
    shape = numpy.shape(x)
    axis = _axis(node.attr("axis", 1), len(shape))
    outer = int(numpy.prod(shape[:axis], dtype=numpy.int64))
    return xp.reshape(x, (outer, -1) if outer else (0, int(numpy.prod(shape[axis:]))))


def _axes_operand(node, axes, what="axes"):
    if axes is not None:
        return node.ints(axes, what)
    value = node.attr("axes")
    return None if value is None else [int(a) for a in value]


def _squeeze(xp, node, x, axes=None):
    axes = _axes_operand(node, axes)
    if axes is None:
        return xp.squeeze(x)
    return xp.squeeze(x, axis=tuple(_axis(a, numpy.ndim(x)) for a in axes))


def _unsqueeze(xp, node, x, axes=None):
    axes = _axes_operand(node, axes)
    rank = numpy.ndim(x) + len(axes)
    out = x
    for a in sorted(_axis(a, rank) for a in axes):
        out = xp.expand_dims(out, a)
    return out


def _concat(xp, node, *xs):
    return xp.concatenate(xs, axis=node.attr("axis"))


def _split(xp, node, x, split=None):
    axis = _axis(node.attr("axis", 0), numpy.ndim(x))
    sizes = node.ints(split, "split") if split is not None else node.attr("split")
    n = len(node.proto.output)
    if sizes is None:
        length = numpy.shape(x)[axis]
        parts = node.attr("num_outputs", n)
        step = -(-length // parts)
        sizes = [min(step, length - i * step) for i in range(parts)]
    bounds = numpy.cumsum([0] + list(sizes))
    index = [slice(None)] * numpy.ndim(x)
    out = []
    for lo, hi in itertools.pairwise(bounds):
        index[axis] = slice(int(lo), int(hi))
        out.append(x[tuple(index)])
    return tuple(out)


def _slice(xp, node, x, starts=None, ends=None, axes=None, steps=None):
    if node.opset < 10:
        starts, ends, axes = node.attr("starts"), node.attr("ends"), node.attr("axes")
    else:
        starts, ends = node.ints(starts, "starts"), node.ints(ends, "ends")
        axes = None if axes is None else node.ints(axes, "axes")
        steps = None if steps is None else node.ints(steps, "steps")
    rank = numpy.ndim(x)
    axes = list(range(len(starts))) if axes is None else [_axis(a, rank) for a in axes]
    steps = [1] * len(starts) if steps is None else steps
    index = [slice(None)] * rank
    for a, lo, hi, st in zip(axes, starts, ends, steps):
        n = numpy.shape(x)[a]
        lo, hi = int(lo), int(hi)
        # ONNX clamps the bounds; Python's slice does the same, except huge sentinels and step < 0
        lo = max(-n - 1, min(n, lo))
        hi = max(-n - 1, min(n, hi))
        if st < 0 and hi < -n:
            hi = None
        index[a] = slice(lo, hi, int(st))
    return x[tuple(index)]


def _gather(xp, node, x, indices):
    axis = _axis(node.attr("axis", 0), numpy.ndim(x))
    return xp.take(x, indices.astype(numpy.int64), axis=axis)


def _gather_elements(xp, node, x, indices):
    axis = _axis(node.attr("axis", 0), numpy.ndim(x))
    n = numpy.shape(x)[axis]
    indices = xp.where(indices < 0, indices + n, indices)
    return xp.take_along_axis(x, indices.astype(numpy.int64), axis=axis)


def _nd_index(xp, indices, shape, batch_dims):
    """The index tuple of GatherND/ScatterND: batch aranges, then the columns of `indices`."""
    k = numpy.shape(indices)[-1]
    idx_shape = numpy.shape(indices)[:-1]
    tuple_index = []
    for b in range(batch_dims):
        ramp = numpy.arange(shape[b]).reshape([-1 if i == b else 1 for i in range(len(idx_shape))])
        tuple_index.append(xp.asarray(numpy.broadcast_to(ramp, idx_shape)))
    for j in range(k):
        col = indices[..., j].astype(numpy.int64)
        n = shape[batch_dims + j]
        tuple_index.append(xp.where(col < 0, col + n, col))
    return tuple(tuple_index)


def _gather_nd(xp, node, x, indices):
    return x[_nd_index(xp, indices, numpy.shape(x), node.attr("batch_dims", 0))]


_AT = {"add": "add", "mul": "multiply", "max": "maximum", "min": "minimum"}


def _write(xp, node, x, index, updates):
    out = xp.array(x, copy=True)
    reduction = node.attr("reduction", "none")
    if reduction == "none":
        out[index] = updates
    else:
        getattr(xp, _AT[reduction]).at(out, index, updates)
    return out


def _scatter_nd(xp, node, x, indices, updates):
    return _write(xp, node, x, _nd_index(xp, indices, numpy.shape(x), 0), updates)


def _scatter_elements(xp, node, x, indices, updates):
    rank = numpy.ndim(x)
    axis = _axis(node.attr("axis", 0), rank)
    grids = numpy.indices(numpy.shape(indices), sparse=True)
    n = numpy.shape(x)[axis]
    idx = indices.astype(numpy.int64)
    idx = xp.where(idx < 0, idx + n, idx)
    index = tuple(
        idx if a == axis else xp.asarray(numpy.broadcast_to(grids[a], numpy.shape(indices)))
        for a in range(rank)
    )
    return _write(xp, node, x, index, updates)


def _expand(xp, node, x, shape):
    target = numpy.broadcast_shapes(numpy.shape(x), tuple(node.ints(shape, "shape")))
    return xp.broadcast_to(x, target)


def _tile(xp, node, x, repeats):
    return xp.tile(x, node.ints(repeats, "repeats"))


def _pad(xp, node, x, pads=None, value=None, axes=None):
    rank = numpy.ndim(x)
    if node.opset < 11:
        pads, value = node.attr("pads"), node.attr("value", 0.0)
    else:
        pads = node.ints(pads, "pads")
        if value is None:
            value = 0
        elif isinstance(value, numpy.ndarray):
            value = value.reshape(-1)[0] if value.size else 0
    axes = list(range(rank)) if axes is None else [_axis(a, rank) for a in node.ints(axes, "axes")]
    k = len(axes)
    widths = [(0, 0)] * rank
    for i, a in enumerate(axes):
        widths[a] = (int(pads[i]), int(pads[i + k]))
    mode = node.attr("mode", "constant")
    if any(lo < 0 or hi < 0 for lo, hi in widths):  # negative pads crop
        index = tuple(
            slice(-lo if lo < 0 else 0, (n + hi) if hi < 0 else None)
            for (lo, hi), n in zip(widths, numpy.shape(x))
        )
        x = x[index]
        widths = [(max(lo, 0), max(hi, 0)) for lo, hi in widths]
    if mode == "constant":
        if not isinstance(value, (int, float, bool, numpy.generic)):
            value = xp.asarray(value)  # a traced pad value
            return _pad_traced(xp, x, widths, value)
        return xp.pad(x, widths, mode="constant", constant_values=value)
    if mode in ("reflect", "edge", "wrap"):
        return xp.pad(x, widths, mode=mode)
    raise node.error(f"pad mode {mode!r}", UnsupportedOperatorError)


def _pad_traced(xp, x, widths, value):
    shape = [lo + n + hi for (lo, hi), n in zip(widths, numpy.shape(x))]
    out = xp.broadcast_to(xp.asarray(value).astype(x.dtype), shape).copy()
    index = tuple(slice(lo, lo + n) for (lo, _), n in zip(widths, numpy.shape(x)))
    out[index] = x
    return out


def _constant(xp, node):
    for key in ("value", "value_float", "value_int", "value_floats", "value_ints"):
        if key in node.attrs:
            value = node.attrs[key]
            dtype = {"value_float": numpy.float32, "value_floats": numpy.float32}.get(key, None)
            if key in ("value_int", "value_ints"):
                dtype = numpy.int64
            return numpy.asarray(value, dtype=dtype)
    if "sparse_value" in node.attrs:
        raise node.error("sparse constants are not supported", UnsupportedOperatorError)
    return numpy.asarray(node.attr("value_strings"))


def _constant_of_shape(xp, node, shape):
    value = node.attr("value")
    value = numpy.zeros(1, numpy.float32) if value is None else value
    return numpy.full(tuple(node.ints(shape, "shape")), value.reshape(-1)[0], dtype=value.dtype)


def _range(xp, node, start, limit, delta):
    values = [
        node.static(v, what) for v, what in ((start, "start"), (limit, "limit"), (delta, "delta"))
    ]
    dtype = values[0].dtype
    first, last, step = (v.item() for v in values)
    n = max(int(numpy.ceil((last - first) / step)), 0)
    ramp = numpy.arange(n).astype(dtype) * numpy.asarray(step, dtype)
    return (numpy.asarray(first, dtype) + ramp).astype(dtype)


def _one_hot(xp, node, indices, depth, values):
    depth = int(node.static(depth, "depth").item())
    axis = node.attr("axis", -1)
    rank = numpy.ndim(indices) + 1
    axis = _axis(axis, rank)
    idx = indices.astype(numpy.int64)
    idx = xp.where(idx < 0, idx + depth, idx)
    ramp = numpy.arange(depth).reshape([-1 if i == axis else 1 for i in range(rank)])
    hot = xp.expand_dims(idx, axis) == xp.asarray(ramp)
    return xp.where(hot, values[1], values[0])


def _trilu(xp, node, x, k=None):
    k = 0 if k is None else int(node.static(k, "k").item())
    return xp.triu(x, k) if node.attr("upper", 1) else xp.tril(x, k)


def _eye_like(xp, node, x):
    from onnx import helper

    dtype = (
        x.dtype
        if node.attr("dtype") is None
        else helper.tensor_dtype_to_np_dtype(node.attr("dtype"))
    )
    n, m = numpy.shape(x)
    return numpy.eye(n, m, k=node.attr("k", 0), dtype=dtype)


def _depth_to_space(xp, node, x):
    b = node.attr("blocksize")
    n, c, h, w = numpy.shape(x)
    if node.attr("mode", "DCR") == "DCR":
        y = xp.reshape(x, (n, b, b, c // (b * b), h, w))
        y = xp.transpose(y, (0, 3, 4, 1, 5, 2))
    else:
        y = xp.reshape(x, (n, c // (b * b), b, b, h, w))
        y = xp.transpose(y, (0, 1, 4, 2, 5, 3))
    return xp.reshape(y, (n, c // (b * b), h * b, w * b))


def _space_to_depth(xp, node, x):
    b = node.attr("blocksize")
    n, c, h, w = numpy.shape(x)
    y = xp.reshape(x, (n, c, h // b, b, w // b, b))
    crd = node.attr("mode", "DCR") == "CRD"
    y = xp.transpose(y, (0, 1, 3, 5, 2, 4) if crd else (0, 3, 5, 1, 2, 4))
    return xp.reshape(y, (n, c * b * b, h // b, w // b))


def _nonzero(xp, node, x):
    return numpy.asarray(
        numpy.nonzero(node.static(x, "input of NonZero (its output size depends on it)")),
        dtype=numpy.int64,
    )


def _compress(xp, node, x, condition):
    cond = node.static(condition, "condition").astype(bool)
    axis = node.attr("axis")
    return xp.compress(cond, x, axis=axis)


tensor_rules.update(
    {
        "Shape": _shape_rule,
        "Size": lambda xp, node, x: numpy.asarray(numpy.size(x), numpy.int64),
        "Reshape": _reshape,
        "Flatten": _flatten,
        "Squeeze": _squeeze,
        "Unsqueeze": _unsqueeze,
        "Transpose": lambda xp, node, x: xp.transpose(x, node.attr("perm")),
        "Concat": _concat,
        "Split": _split,
        "Slice": _slice,
        "Gather": _gather,
        "GatherElements": _gather_elements,
        "GatherND": _gather_nd,
        "ScatterND": _scatter_nd,
        "ScatterElements": _scatter_elements,
        "Scatter": _scatter_elements,
        "Expand": _expand,
        "Tile": _tile,
        "Pad": _pad,
        "Constant": _constant,
        "ConstantOfShape": _constant_of_shape,
        "Range": _range,
        "OneHot": _one_hot,
        "Trilu": _trilu,
        "EyeLike": _eye_like,
        "DepthToSpace": _depth_to_space,
        "SpaceToDepth": _space_to_depth,
        "NonZero": _nonzero,
        "Compress": _compress,
    }
)

__all__ = ["tensor_rules"]
