"""Import rules of ONNX's operators that move elements without arithmetic on them, against `xp`
(convention: interpreter.py): ReverseSequence, CenterCropPad, TensorScatter (a KV cache's append),
MaxUnpool, and Col2Im, which adds im2col's columns back into an image (where blocks overlap, their
elements add up).
"""

from __future__ import annotations

import itertools
import math

import numpy

rearrange_rules: dict = {}


def _reverse_sequence(xp, node, x, lengths):
    """Each batch entry's first `lengths[b]` steps along the time axis reversed, the rest as they are:
    a gather along the time axis by per-entry indices (lengths - 1 - t where t < lengths, else t)."""
    batch_axis, time_axis = node.attr("batch_axis", 1), node.attr("time_axis", 0)
    shape = numpy.shape(x)
    steps = xp.arange(shape[time_axis])
    lengths = xp.astype(lengths, steps.dtype)
    index = xp.where(
        steps[:, None] < lengths[None, :], lengths[None, :] - 1 - steps[:, None], steps[:, None]
    )
    if batch_axis < time_axis:
        index = index.T  # (batch, time)
    expand = [1] * len(shape)
    expand[time_axis], expand[batch_axis] = shape[time_axis], shape[batch_axis]
    index = xp.broadcast_to(xp.reshape(index, expand), shape)
    return xp.take_along_axis(x, index, axis=time_axis)


def _center_crop_pad(xp, node, x, shape):
    """Each listed axis cropped to its centered window or zero-padded around it to `shape` (an odd
    difference: the extra element is cut or added at the end)."""
    rank = numpy.ndim(x)
    axes = node.attr("axes")
    axes = list(range(rank)) if axes is None else [a % rank for a in axes]
    target = [int(n) for n in node.static(shape, "shape").reshape(-1)]
    index, widths = [slice(None)] * rank, [(0, 0)] * rank
    for axis, n in zip(axes, target):
        size = numpy.shape(x)[axis]
        if n < size:
            start = (size - n) // 2
            index[axis] = slice(start, start + n)
        elif n > size:
            lo = (n - size) // 2
            widths[axis] = (lo, n - size - lo)
    return xp.pad(x[tuple(index)], widths)


def _col2im(xp, node, x, image_shape, block_shape):
    """x: (N, C * prod(block), L), its L columns the blocks of a strided, dilated sliding window over the
    padded image, in C order; each block's elements are added at their image positions."""
    image = [int(n) for n in node.static(image_shape, "image_shape").reshape(-1)]
    block = [int(n) for n in node.static(block_shape, "block_shape").reshape(-1)]
    nd = len(image)
    strides = list(node.attr("strides", [1] * nd))
    dilations = list(node.attr("dilations", [1] * nd))
    pads = list(node.attr("pads", [0] * (2 * nd)))
    lo, hi = pads[:nd], pads[nd:]
    counts = [
        (n + a + b - d * (k - 1) - 1) // s + 1
        for n, a, b, d, k, s in zip(image, lo, hi, dilations, block, strides)
    ]
    batch, rows, length = numpy.shape(x)
    kernel = math.prod(block)
    if rows % kernel or length != math.prod(counts):
        raise node.error(
            f"Col2Im input of shape {numpy.shape(x)} does not hold blocks {block} at {counts} positions"
        )
    channels = rows // kernel
    columns = xp.reshape(x, (batch, channels, *block, *counts))
    padded = [n + a + b for n, a, b in zip(image, lo, hi)]
    out = xp.zeros((batch, channels, *padded), dtype=x.dtype)
    for offsets in itertools.product(*(range(k) for k in block)):
        window = tuple(
            slice(o * d, o * d + (c - 1) * s + 1, s)
            for o, d, c, s in zip(offsets, dilations, counts, strides)
        )
        out = out.at[(slice(None), slice(None), *window)].add(
            columns[(slice(None), slice(None), *offsets)]
        )
    crop = tuple(slice(a, a + n) for a, n in zip(lo, image))
    return out[(slice(None), slice(None), *crop)]


def _tensor_scatter(xp, node, cache, update, write_indices=None):
    """The cache with each batch entry's `update` written along `axis` from its write index (0 when
    omitted; modulo the axis's length in mode "circular"): a KV cache's append."""
    rank = numpy.ndim(cache)
    axis = node.attr("axis", -2) % rank
    shape = numpy.shape(update)
    length, room = shape[axis], numpy.shape(cache)[axis]
    batch = shape[0]
    starts = (
        xp.zeros((batch,), dtype=numpy.int64)
        if write_indices is None
        else xp.astype(write_indices, numpy.int64)
    )
    at = [1] * rank
    at[axis] = length
    position = xp.reshape(starts, (batch,) + (1,) * (rank - 1)) + xp.reshape(xp.arange(length), at)
    if node.attr("mode", "linear") == "circular":
        position = position % room
    index = []
    for d in range(rank):
        if d == axis:
            index.append(position)
        else:
            along = [1] * rank
            along[d] = shape[d]
            index.append(xp.reshape(xp.arange(shape[d]), along))
    if xp is numpy:
        out = numpy.array(cache, copy=True)
        out[tuple(index)] = update
        return out
    return cache.at[tuple(index)].set(update)


def _max_unpool(xp, node, x, indices, output_shape=None):
    """Zeros with x's values at `indices`, MaxPool's flat indices into the whole output of spatial sizes
    (in - 1) * stride + kernel - pads; an `output_shape` extends that output with zeros at the ends."""
    shape = numpy.shape(x)
    nd = len(shape) - 2
    kernel = node.attr("kernel_shape")
    strides = node.attr("strides", [1] * nd)
    pads = node.attr("pads", [0] * (2 * nd))
    inferred = shape[:2] + tuple(
        (n - 1) * s + k - pads[i] - pads[i + nd]
        for i, (n, s, k) in enumerate(zip(shape[2:], strides, kernel))
    )
    flat = xp.zeros((math.prod(inferred),), dtype=x.dtype)
    where = xp.reshape(xp.astype(indices, numpy.int64), (-1,))
    values = xp.reshape(x, (-1,))
    if xp is numpy:
        flat[where] = values
    else:
        flat = flat.at[where].set(values)
    out = xp.reshape(flat, inferred)
    if output_shape is None:
        return out
    target = [int(n) for n in node.static(output_shape, "output_shape").reshape(-1)]
    if any(t < n for t, n in zip(target, inferred)):
        raise node.error(
            f"MaxUnpool output_shape {target} is smaller than the unpooled {list(inferred)}"
        )
    return xp.pad(out, [(0, t - n) for t, n in zip(target, inferred)])


rearrange_rules["ReverseSequence"] = _reverse_sequence
rearrange_rules["CenterCropPad"] = _center_crop_pad
rearrange_rules["Col2Im"] = _col2im
rearrange_rules["TensorScatter"] = _tensor_scatter
rearrange_rules["MaxUnpool"] = _max_unpool

__all__ = ["rearrange_rules"]
