"""Import rules of ONNX's pooling operators and LRN, against `xp` (convention: interpreter.py).

A pooled window is one strided slice of the padded input per kernel offset, stacked and reduced: the
maximum (padding with the dtype's lowest value), the mean (over the positions counted by
count_include_pad) or, for LpPool, the p-th root of the sum of |x|^p (padding adds zero). ceil_mode adds a
last window where one would start inside the input or the start padding. Pads come from `pads` or
auto_pad's SAME_UPPER/SAME_LOWER split (also Conv's: import_nn.py).
"""

from __future__ import annotations

import itertools

import numpy

pooling_rules: dict = {}


def pad_widths(node, sizes, window, strides, dilations):
    """(lo, hi) per spatial axis from ONNX's pads or auto_pad."""
    auto = node.attr("auto_pad", "NOTSET")
    n = len(sizes)
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        out = []
        for size, k, s, d in zip(sizes, window, strides, dilations):
            total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
            small = total // 2
            out.append((small, total - small) if auto == "SAME_UPPER" else (total - small, small))
        return out
    if auto == "VALID":
        return [(0, 0)] * n
    pads = node.attr("pads", [0] * (2 * n))
    return [(int(pads[i]), int(pads[i + n])) for i in range(n)]


def _pool(kind):
    def rule(xp, node, x):
        p = node.attr("p", 2)
        nd = numpy.ndim(x) - 2
        sizes = numpy.shape(x)[2:]
        window = tuple(node.attr("kernel_shape"))
        strides = tuple(node.attr("strides", [1] * nd))
        dilations = tuple(node.attr("dilations", [1] * nd))
        pads = pad_widths(node, sizes, window, strides, dilations)
        outs = []
        for size, k, s, d, (lo, hi) in zip(sizes, window, strides, dilations, pads):
            span = size + lo + hi - (k - 1) * d - 1
            count = (-(-span // s) if node.attr("ceil_mode", 0) else span // s) + 1
            if node.attr("ceil_mode", 0) and (count - 1) * s >= size + lo:
                count -= 1  # a window may not start in the end padding
            outs.append(count)
        extra = [
            max((o - 1) * s + (k - 1) * d + 1 - (n + lo + hi), 0)
            for o, s, k, d, n, (lo, hi) in zip(outs, strides, window, dilations, sizes, pads)
        ]
        widths = [(0, 0), (0, 0)] + [(lo, hi + e) for (lo, hi), e in zip(pads, extra)]
        fill = 0
        if kind == "lp":
            x = xp.abs(x) ** p
        if kind == "max":
            kind_of = numpy.dtype(x.dtype).kind
            fill = -numpy.inf if kind_of == "f" else numpy.iinfo(x.dtype).min
        padded = xp.pad(x, widths, constant_values=numpy.asarray(fill, x.dtype).item())
        views = []
        for offsets in itertools.product(*(range(k) for k in window)):
            index = (slice(None), slice(None)) + tuple(
                slice(o * d, o * d + (n - 1) * s + 1, s)
                for o, d, n, s in zip(offsets, dilations, outs, strides)
            )
            views.append(padded[index])
        stacked = xp.stack(views, axis=0)
        if kind == "max":
            out = xp.max(stacked, axis=0)
            if len(node.proto.output) < 2 or not node.proto.output[1]:
                return out
            spots = _window_positions(sizes, window, strides, dilations, pads, outs, node)
            batch, channels = numpy.shape(x)[:2]
            spots = numpy.broadcast_to(spots[:, None, None], numpy.shape(stacked))
            best = xp.argmax(stacked, axis=0)[None]
            picked = xp.take_along_axis(xp.asarray(spots), best, axis=0)[0]
            planes = numpy.arange(batch * channels, dtype=numpy.int64).reshape(
                (batch, channels) + (1,) * nd
            )
            return out, picked + planes * int(numpy.prod(sizes))
        total = xp.sum(stacked, axis=0)
        if kind == "lp":
            return total ** (1 / p)
        if node.attr("count_include_pad", 0):
            ones = numpy.pad(numpy.ones(sizes), [(lo, hi) for lo, hi in pads], constant_values=1)
            ones = numpy.pad(ones, [(0, e) for e in extra])
        else:
            ones = numpy.pad(numpy.ones(sizes), [(lo, hi + e) for (lo, hi), e in zip(pads, extra)])
        counts = sum(
            ones[
                tuple(
                    slice(o * d, o * d + (n - 1) * s + 1, s)
                    for o, d, n, s in zip(offs, dilations, outs, strides)
                )
            ]
            for offs in itertools.product(*(range(k) for k in window))
        )
        return total / xp.asarray(counts.astype(numpy.dtype(x.dtype)))

    return rule


def _window_positions(sizes, window, strides, dilations, pads, outs, node):
    """(window offsets, *outs) int64: the flat position in an input plane of each window element,
    row-major (storage_order 0) or column-major (1); -1 in the padding (never a maximum there)."""
    order = node.attr("storage_order", 0)
    strides_of_plane = numpy.cumprod((1,) + tuple(sizes[:-1])) if order else None
    spots = []
    for offsets in itertools.product(*(range(k) for k in window)):
        coords = numpy.meshgrid(
            *[
                numpy.arange(n) * s + o * d - lo
                for n, s, o, d, (lo, _) in zip(outs, strides, offsets, dilations, pads)
            ],
            indexing="ij",
        )
        inside = numpy.all([(c >= 0) & (c < n) for c, n in zip(coords, sizes)], axis=0)
        if order:
            flat = sum(c * m for c, m in zip(coords, strides_of_plane))
        else:
            flat = numpy.ravel_multi_index(
                [numpy.clip(c, 0, n - 1) for c, n in zip(coords, sizes)], sizes
            )
        spots.append(numpy.where(inside, flat, -1))
    return numpy.stack(spots).astype(numpy.int64)


def _max_pool(xp, node, x):
    return _pool("max")(xp, node, x)


def _global(kind):
    def rule(xp, node, x):
        axes = tuple(range(2, numpy.ndim(x)))
        if kind == "lp":
            p = node.attr("p", 2)
            return xp.sum(xp.abs(x) ** p, axis=axes, keepdims=True) ** (1 / p)
        return (
            xp.max(x, axis=axes, keepdims=True)
            if kind == "max"
            else xp.mean(x, axis=axes, keepdims=True)
        )

    return rule


def _lrn(xp, node, x):
    """x / (bias + alpha / size * (sum of squares over the `size` channels around each))^beta: the window
    reaches floor((size - 1) / 2) channels down and ceil((size - 1) / 2) up, cut at the ends."""
    size = int(node.attr("size"))
    alpha, beta, bias = (
        float(node.attr(k, d)) for k, d in (("alpha", 1e-4), ("beta", 0.75), ("bias", 1.0))
    )
    channels = numpy.shape(x)[1]
    down, up = (size - 1) // 2, -(-(size - 1) // 2)
    squares = xp.pad(x * x, [(0, 0), (down, up)] + [(0, 0)] * (numpy.ndim(x) - 2))
    window = sum(squares[:, k : k + channels] for k in range(size))
    return x / (bias + (alpha / size) * window) ** beta


pooling_rules["MaxPool"] = _max_pool
pooling_rules["AveragePool"] = _pool("avg")
pooling_rules["LpPool"] = _pool("lp")
pooling_rules["GlobalMaxPool"] = _global("max")
pooling_rules["GlobalAveragePool"] = _global("avg")
pooling_rules["GlobalLpPool"] = _global("lp")
pooling_rules["LRN"] = _lrn

__all__ = ["pad_widths", "pooling_rules"]
