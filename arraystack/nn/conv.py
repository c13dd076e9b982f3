"""Convolution, lowered to slices and one matmul (im2col), so the BLAS does the work.

Data is (N, C, *spatial) for data_format 'NCW' / 'NCHW' (the default, PyTorch's) or (N, *spatial, C)
for 'NWC' / 'NHWC'. Weights follow the data: (O, I/groups, *kernel) for channels-first (PyTorch's
OIHW) and (*kernel, I/groups, O) for channels-last (JAX/TensorFlow's HWIO). A window is gathered as
one strided slice of the padded input per kernel offset; the slices are stacked and reshaped into
the patch matrix."""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any

import arraystack as ast

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, NDArray


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


def conv(
    x: ArrayLike,
    w: ArrayLike,
    strides: int | Sequence[int] = 1,
    padding: str | int | Sequence[Any] = "VALID",
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    data_format: str | None = None,
) -> NDArray:
    """N-d convolution (cross-correlation, as in every deep-learning library) of `x` with `w`.

    Parameters
    ----------
    x : array_like
        Inputs (N, C, *spatial) or (N, *spatial, C), by `data_format`.
    w : array_like
        Weights (O, C/groups, *kernel) for channels-first or (*kernel, C/groups, O) for
        channels-last.
    strides : int or tuple of int, optional
        Step between windows, per spatial axis.
    padding : {'VALID', 'SAME'} or int or sequence, optional
        'VALID' (none), 'SAME' (output size ceil(size / stride)), an int, or (lo, hi) pairs per
        spatial axis.
    dilation : int or tuple of int, optional
        Spacing between kernel elements.
    groups : int, optional
        Number of channel groups.
    data_format : str, optional
        'NCW', 'NCHW', ... (default channels-first) or 'NWC', 'NHWC', ...

    Returns
    -------
    ndarray
        The outputs, laid out as the inputs.

    See Also
    --------
    jax.lax.conv_general_dilated : the function mirrored (rhs_dilation), for these two layouts.
    torch.nn.functional.conv2d : the PyTorch relative (channels-first).
    arraystack.nn.conv1d, arraystack.nn.conv2d

    Notes
    -----
    Lowered to strided slices and one matmul (im2col), so the BLAS does the work; differentiable
    and traceable.
    """
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


__all__ = ["conv"]
