"""Pooling (max_pool, avg_pool): the windows of conv.py's strided slices, combined elementwise."""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

import numpy

import arraystack as ast
from arraystack.nn.conv import _channels_first, _padding_pairs, _tuple, _windows

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, NDArray



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


def max_pool(
    x: ArrayLike,
    window: int | Sequence[int],
    strides: int | Sequence[int] | None = None,
    padding: str | int | Sequence[Any] = "VALID",
    data_format: str | None = None,
) -> NDArray:
    """Max pooling: the maximum over each window.

    Parameters
    ----------
    x : array_like
        Inputs (N, C, *spatial) or (N, *spatial, C).
    window : int or tuple of int
        Window size per spatial axis.
    strides : int or tuple of int, optional
        Step between windows (default: the window).
    padding : {'VALID', 'SAME'} or int or sequence, optional
        As in `conv`.
    data_format : str, optional
        Layout (default channels-first).

    Returns
    -------
    ndarray
        The pooled outputs.

    See Also
    --------
    torch.nn.functional.max_pool2d : the function mirrored.
    flax.linen.max_pool : the flax relative.
    arraystack.nn.avg_pool

    Notes
    -----
    Padding counts as -inf (the dtype's minimum for integers); the windows are combined with
    `maximum`.
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


def avg_pool(
    x: ArrayLike,
    window: int | Sequence[int],
    strides: int | Sequence[int] | None = None,
    padding: str | int | Sequence[Any] = "VALID",
    data_format: str | None = None,
    count_include_pad: bool = True,
) -> NDArray:
    """Average pooling: the mean over each window.

    Parameters
    ----------
    x : array_like
        Inputs (N, C, *spatial) or (N, *spatial, C).
    window : int or tuple of int
        Window size per spatial axis.
    strides : int or tuple of int, optional
        Step between windows (default: the window).
    padding : {'VALID', 'SAME'} or int or sequence, optional
        As in `conv`.
    data_format : str, optional
        Layout (default channels-first).
    count_include_pad : bool, optional
        Count padding elements in the mean's denominator.

    Returns
    -------
    ndarray
        The pooled outputs (floating).

    See Also
    --------
    torch.nn.functional.avg_pool2d : the function mirrored.
    flax.linen.avg_pool : the flax relative.
    arraystack.nn.max_pool
    """
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


__all__ = ["avg_pool", "max_pool"]
