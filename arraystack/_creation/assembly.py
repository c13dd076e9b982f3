"""Assembling an array from pieces: block (nested lists of blocks, numpy/_core/shape_base.py) and
fromiter (an iterable of scalars, numpy/_core/multiarray).

Concrete calls run NumPy's own function on the host buffers (arraystack._core.host_calls). A traced block
is NumPy's algorithm (repeated concatenation) over arraystack functions, after NumPy's own check of the
nesting; fromiter stacks traced elements.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import numpy as np
from numpy._core.shape_base import _block_setup  # NumPy's nesting checks and their messages

import arraystack as anp
from arraystack._core.devices import read_on_default
from arraystack._core.dtypes import check_supported
from arraystack._core.host_calls import host_arguments, wrap_result
from arraystack._core.overrides import defers_to_numpy
from arraystack._transforms import result_layouts
from arraystack._transforms.aliasing import layout_of
from arraystack.ir.core import Tracer

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from arraystack.typing import ArrayLike, DTypeLike, NDArray

__all__ = ["block", "fromiter"]


@defers_to_numpy
def block(arrays: Any) -> NDArray:
    """Assemble an nd-array from nested lists of blocks.

    Blocks in the innermost lists are concatenated along the last dimension (-1), then these are
    concatenated along the second-last dimension (-2), and so on until the outermost list is
    reached. Blocks can be of any dimension, but will not be broadcasted using the normal rules.
    Instead, leading axes of size 1 are inserted, to make ``block.ndim`` the same for all blocks.

    Parameters
    ----------
    arrays : nested list of array_like or scalars (but not tuples)
        If passed a single ndarray or scalar (a nested list of depth 0), this is returned
        unmodified (and not copied). Elements shapes must match along the appropriate axes (without
        broadcasting), but leading 1s will be prepended to the shape as necessary to make the
        dimensions match.

    Returns
    -------
    block_array : ndarray
        The array assembled from the given blocks: a new array.

    See Also
    --------
    numpy.block : The NumPy function this mirrors.
    concatenate, stack, hstack, vstack
    """
    host = host_arguments(arrays)
    if host is not None:
        return wrap_result(np.block(host[0]))
    arrays, list_ndim, result_ndim, final_size = _block_setup(arrays)
    result = _block(arrays, list_ndim, result_ndim)
    if list_ndim == 0:
        return anp.copy(result, order="C")  # NumPy's ndarray.copy
    if list_ndim * final_size > 2 * 512 * 512:
        # NumPy fills an empty array: Fortran-ordered where every block is (and not all are C's)
        blocks = [anp.asarray(a) for a in _leaves(arrays)]
        fortran = all(_layout_flag(b, "f_contiguous") for b in blocks)
        if fortran and not all(_layout_flag(b, "c_contiguous") for b in blocks):
            return anp.asfortranarray(result)
        return result_layouts.c_ordered(result)
    return result


def _leaves(nested):
    if isinstance(nested, list):
        for item in nested:
            yield from _leaves(item)
    else:
        yield nested


def _layout_flag(x, flag) -> bool:
    return bool(getattr(layout_of(x).flags, flag))


def _block(arrays, max_depth, result_ndim, depth=0):
    if depth < max_depth:
        parts = [_block(a, max_depth, result_ndim, depth + 1) for a in arrays]
        return anp.concatenate(parts, axis=-(max_depth - depth))
    return anp.array(arrays, ndmin=result_ndim, copy=None)


def fromiter(
    iter: Iterable[Any],  # NumPy's parameter name
    dtype: DTypeLike,
    count: int = -1,
    *,
    like: ArrayLike | None = None,
) -> NDArray:
    """Create a new 1-dimensional array from an iterable object.

    Parameters
    ----------
    iter : iterable object
        An iterable object providing data for the array.
    dtype : data-type
        The data-type of the returned array (a subarray data-type adds its dimensions).
    count : int, optional
        The number of items to read from *iterable*. The default is -1, which means all data is
        read.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

    Returns
    -------
    out : ndarray
        The output array.

    See Also
    --------
    numpy.fromiter : The NumPy function this mirrors.
    array, asarray

    Notes
    -----
    At most `count` items are drawn from the iterable (all when `count` is negative). Elements
    holding traced values are stacked and cast (unsafe casting, as NumPy's assignment) to `dtype`.
    """
    stop = None if count < 0 else count
    items = list(itertools.islice(iter, stop))
    if any(isinstance(v, anp.ndarray) and type(v._value) is Tracer for v in items):
        dtype = np.dtype(dtype)
        if any(np.ndim(v) for v in items):
            raise ValueError("setting an array element with a sequence.")
        if count >= 0 and len(items) < count:
            raise ValueError(
                f"iterator too short: Expected {count} but iterator had only {len(items)} items."
            )
        return anp.stack([anp.asarray(v) for v in items]).astype(dtype)
    out = np.fromiter(
        [np.asarray(v) if isinstance(v, anp.ndarray) else v for v in items], dtype, count
    )
    check_supported(out.dtype)
    return read_on_default(wrap_result(out))
