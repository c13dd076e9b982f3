"""Convolution and pooling, lowered to slices and one matmul (im2col), so the BLAS does the work.

Data is (N, C, *spatial) for data_format 'NCW' / 'NCHW' (the default, PyTorch's) or (N, *spatial, C)
for 'NWC' / 'NHWC'. Weights follow the data: (O, I/groups, *kernel) for channels-first (PyTorch's
OIHW) and (*kernel, I/groups, O) for channels-last (JAX/TensorFlow's HWIO). A window is gathered as
one strided slice of the padded input per kernel offset; the slices are stacked and reshaped into
the patch matrix."""

from __future__ import annotations

import functools
import itertools
import math

import numpy

import arraystack as ast


def _tuple(value, n, name):
    if isinstance(value, int):
        return (value,) * n
    out = tuple(int(v) for v in value)
    if len(out) != n or any(v < 1 for v in out):
        raise ValueError(f"{name} must be a positive int or {n} positive ints, got {value!r}")
    return out


def _channels_first(data_format, ndim):
    fmt = data_format.upper()
    if len(fmt) != ndim or fmt[0] != "N" or "C" not in (fmt[1], fmt[-1]):
        raise ValueError(
            f"data_format {data_format!r} does not describe a {ndim}-d (N, C, spatial) input"
        )
    return fmt[1] == "C"


def _padding_pairs(padding, sizes, window, strides, dilation):
    """[(lo, hi)] per spatial axis: 'VALID' none, 'SAME' out = ceil(size / stride) with the extra
    element at the end (JAX/TensorFlow), an int, one int per axis, or one (lo, hi) pair per axis."""
    n = len(sizes)
    if isinstance(padding, str):
        mode = padding.upper()
        if mode == "VALID":
            return [(0, 0)] * n
        if mode != "SAME":
            raise ValueError(f"padding must be 'SAME', 'VALID' or explicit pairs, got {padding!r}")
        pairs = []
        for size, k, s, d in zip(sizes, window, strides, dilation):
            out = -(-size // s)
            total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
            pairs.append((total // 2, total - total // 2))
        return pairs
    if isinstance(padding, int):
        pairs = [(padding, padding)] * n
    else:
        pairs = [
            (int(q), int(q)) if isinstance(q, int) else tuple(int(v) for v in q) for q in padding
        ]
    if len(pairs) != n or any(len(q) != 2 or min(q) < 0 for q in pairs):
        raise ValueError(f"padding {padding!r}: need {n} non-negative (lo, hi) pairs")
    return pairs


def _windows(x, spatial, window, strides, dilation, pads, pad_value):
    """One strided slice of the padded x per kernel offset (row-major over the window), and the
    output sizes. `spatial` lists x's spatial axes in order."""
    if any(lo or hi for lo, hi in pads):
        widths = [(0, 0)] * x.ndim
        for axis, pair in zip(spatial, pads):
            widths[axis] = pair
        x = ast.pad(x, widths, constant_values=pad_value)
    out = []
    for axis, k, s, d in zip(spatial, window, strides, dilation):
        extent = (k - 1) * d + 1
        if x.shape[axis] < extent:
            raise ValueError(
                f"window extent {extent} is larger than the padded input size {x.shape[axis]}"
            )
        out.append((x.shape[axis] - extent) // s + 1)
    views = []
    for offsets in itertools.product(*(range(k) for k in window)):
        index = [slice(None)] * x.ndim
        for axis, o, d, n, s in zip(spatial, offsets, dilation, out, strides):
            index[axis] = slice(o * d, o * d + (n - 1) * s + 1, s)
        views.append(x[tuple(index)])
    return views, tuple(out)


def conv(x, w, strides=1, padding="VALID", dilation=1, groups=1, data_format=None):
    """N-d convolution (cross-correlation, as in every deep-learning library) of x with w.

    x is (N, C, *spatial) or (N, *spatial, C) by data_format (default channels-first); w is (O,
    C/groups, *kernel) or (*kernel, C/groups, O) to match. Mirrors torch.nn.functional.conv{1,2,3}d
    and jax.lax.conv_general_dilated (rhs_dilation) for these two layouts."""
    x, w = ast.asarray(x), ast.asarray(w)
    nd = x.ndim - 2
    if nd < 1 or w.ndim != x.ndim:
        raise ValueError(
            f"conv: input of shape {x.shape} and weight of shape {w.shape} need equal ranks >= 3"
        )
    first = _channels_first(data_format or "NC" + "S" * nd, x.ndim)
    if first:
        out_channels, group_channels, window = w.shape[0], w.shape[1], w.shape[2:]
        spatial = tuple(range(2, x.ndim))
        channels = x.shape[1]
    else:
        window, group_channels, out_channels = w.shape[:nd], w.shape[nd], w.shape[nd + 1]
        spatial = tuple(range(1, x.ndim - 1))
        channels = x.shape[-1]
    if channels != group_channels * groups or out_channels % groups:
        raise ValueError(
            f"conv: {channels} input channels and weight {w.shape} do not fit groups={groups} "
            f"(need C == weight in-channels * groups and O divisible by groups)"
        )
    strides, dilation = _tuple(strides, nd, "strides"), _tuple(dilation, nd, "dilation")
    sizes = [x.shape[a] for a in spatial]
    pads = _padding_pairs(padding, sizes, window, strides, dilation)
    views, out = _windows(x, spatial, window, strides, dilation, pads, 0)
    n, rows, k = x.shape[0], x.shape[0] * math.prod(out), math.prod(window)
    per_group = out_channels // groups
    if first:
        cols = ast.stack(views, axis=2)  # (N, C, K, *out)
        # (N, *out, C, K): C-major, K-minor, as the rows of w's (O, C/groups, *kernel) layout
        cols = ast.transpose(cols, (0, *range(3, 3 + nd), 1, 2))
        wmat = ast.reshape(w, (groups, per_group, group_channels * k))
        wmat = ast.transpose(wmat, (0, 2, 1))  # (G, Cg*K, Og)
    else:
        cols = ast.stack(views, axis=-2)  # (N, *out, K, C): K-major, as w's (*kernel, C, O) rows
        cols = ast.reshape(cols, (rows, k, groups, group_channels))
        cols = ast.transpose(cols, (0, 2, 1, 3))
        wmat = ast.reshape(w, (k, group_channels, groups, per_group))
        wmat = ast.reshape(
            ast.transpose(wmat, (2, 0, 1, 3)), (groups, k * group_channels, per_group)
        )
    if groups == 1:
        y = ast.matmul(ast.reshape(cols, (rows, k * channels)), ast.reshape(wmat, wmat.shape[1:]))
    else:
        cols = ast.reshape(cols, (rows, groups, group_channels * k))
        y = ast.matmul(ast.transpose(cols, (1, 0, 2)), wmat)  # (G, rows, Og)
        y = ast.reshape(ast.transpose(y, (1, 0, 2)), (rows, out_channels))
    y = ast.reshape(y, (n, *out, out_channels))
    return ast.moveaxis(y, -1, 1) if first else y


def _add_bias(y, b, first):
    if b is None:
        return y
    b = ast.asarray(b)
    return y + (ast.reshape(b, (b.shape[0],) + (1,) * (y.ndim - 2)) if first else b)


def _conv_layer(nd, default_format):
    def layer(
        params, x, stride=1, padding="VALID", dilation=1, groups=1, data_format=default_format
    ):
        x = ast.asarray(x)
        if x.ndim != nd + 2:
            raise ValueError(
                f"conv{nd}d: expected a {nd + 2}-d input ({data_format}), got shape {x.shape}"
            )
        y = conv(x, params["w"], stride, padding, dilation, groups, data_format)
        return _add_bias(y, params.get("b"), _channels_first(data_format, x.ndim))

    layer.__name__ = f"conv{nd}d"
    layer.__doc__ = (
        f"conv{nd}d(params, x, stride, padding, dilation, groups, data_format='{default_format}'): "
        f"conv(x, params['w']) + params['b'] (the bias is optional), torch.nn.functional.conv{nd}d."
    )
    return layer


conv1d = _conv_layer(1, "NCW")
conv2d = _conv_layer(2, "NCHW")


def init_conv(
    key, in_channels, out_channels, kernel_size, groups=1, data_format="NCHW", bias=True, dtype=None
):
    """{'w', 'b'} for conv1d/conv2d: glorot_uniform weights (fans from the (*kernel, I/groups, O)
    layout), zero bias, float32 unless `dtype` says otherwise. The rank comes from data_format
    ('NCW', 'NWC', 'NCHW', 'NHWC')."""
    from arraystack.nn import initializers

    nd = len(data_format) - 2
    window = _tuple(kernel_size, nd, "kernel_size")
    if in_channels % groups or out_channels % groups:
        raise ValueError(
            f"in_channels {in_channels} and out_channels {out_channels} "
            f"must divide by groups {groups}"
        )
    dtype = ast.float32 if dtype is None else dtype
    w = initializers.glorot_uniform(key, (*window, in_channels // groups, out_channels), dtype)
    if _channels_first(data_format, nd + 2):
        w = ast.transpose(w, (nd + 1, nd, *range(nd)))
    params = {"w": w}
    if bias:
        params["b"] = ast.zeros(out_channels, dtype=w.dtype)
    return params


init_conv1d = functools.partial(init_conv, data_format="NCW")
init_conv2d = functools.partial(init_conv, data_format="NCHW")


def _pool_setup(x, window, strides, padding, data_format):
    x = ast.asarray(x)
    nd = x.ndim - 2
    if nd < 1:
        raise ValueError(
            f"pooling needs an (N, C, *spatial) or (N, *spatial, C) input, got shape {x.shape}"
        )
    fmt = data_format or "NC" + "S" * nd
    first = _channels_first(fmt, x.ndim)
    window = _tuple(window, nd, "window")
    strides = window if strides is None else _tuple(strides, nd, "strides")
    spatial = tuple(range(2, x.ndim)) if first else tuple(range(1, x.ndim - 1))
    sizes = [x.shape[a] for a in spatial]
    pads = _padding_pairs(padding, sizes, window, strides, (1,) * nd)
    return x, window, strides, spatial, sizes, pads


def max_pool(x, window, strides=None, padding="VALID", data_format=None):
    """The maximum over each window (padding counts as -inf); strides default to the window
    (torch.nn.functional.max_pool2d, flax.linen.max_pool). The windows are combined with `maximum`.
    """
    x, window, strides, spatial, _, pads = _pool_setup(x, window, strides, padding, data_format)
    low = -numpy.inf if x.dtype.kind in "fc" else ast.iinfo(x.dtype).min
    views, _ = _windows(x, spatial, window, strides, (1,) * len(window), pads, low)
    return functools.reduce(ast.maximum, views)


def _window_counts(sizes, window, strides, pads, out):
    """How many input (non-padding) elements each output window covers, as a NumPy array of shape
    out."""
    counts = numpy.ones(())
    for size, k, s, (lo, _), n in zip(sizes, window, strides, pads, out):
        start = numpy.arange(n) * s - lo
        per_axis = numpy.minimum(start + k, size) - numpy.maximum(start, 0)
        counts = numpy.multiply.outer(counts, per_axis)
    return counts


def avg_pool(x, window, strides=None, padding="VALID", data_format=None, count_include_pad=True):
    """The mean over each window (torch.nn.functional.avg_pool2d, flax.linen.avg_pool); with
    count_include_pad=False, padding elements are left out of the count."""
    x, window, strides, spatial, sizes, pads = _pool_setup(x, window, strides, padding, data_format)
    if x.dtype.kind not in "fc":
        x = x.astype(ast.float64)
    views, out = _windows(x, spatial, window, strides, (1,) * len(window), pads, 0)
    total = functools.reduce(ast.add, views)
    if count_include_pad:
        return total / math.prod(window)
    counts = _window_counts(sizes, window, strides, pads, out).astype(x.dtype)
    shape = [1] * x.ndim
    for axis, n in zip(spatial, out):
        shape[axis] = n
    return total / ast.asarray(counts.reshape(shape))


__all__ = [
    "avg_pool",
    "conv",
    "conv1d",
    "conv2d",
    "init_conv",
    "init_conv1d",
    "init_conv2d",
    "max_pool",
]
