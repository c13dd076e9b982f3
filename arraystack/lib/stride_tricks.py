"""arraystack.lib.stride_tricks: views with chosen strides (numpy.lib.stride_tricks): `as_strided` and
`sliding_window_view`.

Eagerly these are NumPy's own functions on the buffer, so the result is a view that aliases it. A
traced value has no memory, so its strided view is computed: the flat offsets of the view's elements
(from the shape and strides, over the C-contiguous layout a traced value is taken to have) index the
flattened array in one gather, which has a gradient.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.lib import stride_tricks as _np_stride_tricks

from arraystack._core.array import ndarray, wrap
from arraystack._core.array_memory import host_buffer
from arraystack._creation.basic import asarray
from arraystack._manipulation.reshaping import reshape, transpose
from arraystack._transforms.aliasing import layout_of, note_layout_read
from arraystack.ir.core import active, user_line

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray, ShapeLike

__all__ = ["as_strided", "sliding_window_view"]


def as_strided(
    x: ArrayLike,
    shape: ShapeLike | None = None,
    strides: ShapeLike | None = None,
    subok: bool = False,
    writeable: bool = True,
) -> NDArray:
    """Create a view into the array with the given shape and strides.

    Parameters
    ----------
    x : ndarray
        Array to create a new view of.
    shape : sequence of int, optional
        The shape of the new array; ``x.shape`` by default.
    strides : sequence of int, optional
        The strides of the new array in bytes; ``x.strides`` by default.
    subok : bool, optional
        Accepted for NumPy compatibility; the result is an arraystack ndarray.
    writeable : bool, optional
        If False, the returned array is read-only; True by default (as in NumPy).

    Returns
    -------
    view : ndarray
        A view of `x` (eager): writing it writes `x`.

    See Also
    --------
    numpy.lib.stride_tricks.as_strided : The NumPy function this mirrors.
    sliding_window_view : A safer way to build overlapping windows.

    Notes
    -----
    As in NumPy, nothing checks that the view stays inside `x`'s memory eagerly. Traced, the strides
    count in `x`'s memory as NumPy lays it out (a C- or Fortran-ordered or otherwise permuted
    array, whose memory holds its elements and nothing else); the elements are gathered (a copy, so
    writes to the result do not reach `x`), and strides that are not multiples of the itemsize or
    reach outside `x` raise ValueError, as does a traced view with gaps or reversed axes, whose
    memory holds other elements too (as_strided of a copy reads that copy).
    """
    x = x if isinstance(x, ndarray) else asarray(x)
    value = None if active.n else host_buffer(x)
    if value is not None:
        return wrap(_np_stride_tricks.as_strided(value, shape, strides, False, writeable))
    itemsize = x.dtype.itemsize
    shape = tuple(x.shape) if shape is None else tuple(int(d) for d in np.atleast_1d(shape))
    if strides is None:
        strides = _c_strides(x.shape, itemsize)
    else:
        strides = tuple(strides)
        x = _in_memory_order(x)
    return _gather_strided(x, shape, strides)


def _in_memory_order(x: ndarray) -> ndarray:
    """A traced x as the C-ordered array of its memory (its elements in the order NumPy stores them),
    where that memory holds x's elements alone; else ValueError."""
    note_layout_read()
    layout = layout_of(x)
    if layout.flags.c_contiguous or x.size <= 1:
        return x
    perm = sorted(range(layout.ndim), key=lambda k: -abs(layout.strides[k]))
    dense = layout.transpose(perm)
    if not dense.flags.c_contiguous:
        raise ValueError(
            f"as_strided of a traced value at {user_line()}: its memory (strides "
            f"{layout.strides}) holds other elements than its own, which a trace does not have; "
            "call it on a copy (np.ascontiguousarray(x))"
        )
    return transpose(x, perm)


def sliding_window_view(
    x: ArrayLike,
    window_shape: int | ShapeLike,
    axis: int | ShapeLike | None = None,
    *,
    subok: bool = False,
    writeable: bool = False,
) -> NDArray:
    """Create a sliding window view into the array with the given window shape.

    Parameters
    ----------
    x : array_like
        Array to create the sliding window view from.
    window_shape : int or tuple of int
        Size of window over each axis that takes part in the sliding window.
    axis : int or tuple of int, optional
        Axis or axes along which the sliding window is applied; all axes by default.
    subok : bool, optional
        Accepted for NumPy compatibility; the result is an arraystack ndarray.
    writeable : bool, optional
        When true, allow writing to the returned view (eager); False by default.

    Returns
    -------
    view : ndarray
        Sliding window view of the array; the window dimensions are appended at the end.

    See Also
    --------
    numpy.lib.stride_tricks.sliding_window_view : The NumPy function this mirrors.
    as_strided : Create a view with arbitrary shape and strides.

    Notes
    -----
    Eagerly a read-only view of `x` (NumPy's). Traced, the windows are gathered from `x` (a copy
    with a gradient); NumPy's errors are raised either way.
    """
    x = x if isinstance(x, ndarray) else asarray(x)
    value = None if active.n else host_buffer(x)
    if value is not None:
        return wrap(
            _np_stride_tricks.sliding_window_view(value, window_shape, axis, writeable=writeable)
        )
    layout = _layout(
        x.shape, x.dtype
    )  # NumPy computes the shape and strides, and raises its errors
    windows = _np_stride_tricks.sliding_window_view(layout, window_shape, axis)
    return _gather_strided(x, windows.shape, windows.strides)


def _c_strides(shape, itemsize) -> tuple[int, ...]:
    strides, step = [], itemsize
    for d in reversed(shape):
        strides.append(step)
        step *= max(d, 1)
    return tuple(reversed(strides))


def _layout(shape, dtype) -> np.ndarray:
    """A C-contiguous NumPy array of `shape` over one element of memory, which nothing reads."""
    base = np.zeros(1, dtype)
    return _np_stride_tricks.as_strided(
        base, shape, _c_strides(shape, base.itemsize), writeable=False
    )


def _gather_strided(x: ndarray, shape, strides) -> ndarray:
    """The strided view of a (traced) array as a gather from its flattened elements."""
    itemsize = x.dtype.itemsize
    if len(shape) != len(strides):
        raise ValueError("mismatch in length of strides and shape")
    if any(s % itemsize for s in strides):
        raise ValueError(
            f"as_strided of a traced value at {user_line()}: strides {tuple(strides)} are not "
            f"multiples of the itemsize {itemsize}"
        )
    offsets = np.zeros(shape, dtype=np.intp)
    for axis, (n, step) in enumerate(zip(shape, strides)):
        position = [1] * len(shape)
        position[axis] = n
        offsets = offsets + (np.arange(n, dtype=np.intp) * (step // itemsize)).reshape(position)
    if offsets.size and (offsets.min() < 0 or offsets.max() >= x.size):
        raise ValueError(
            f"as_strided of a traced value at {user_line()}: shape {tuple(shape)} with strides "
            f"{tuple(strides)} reaches outside the array's {x.size} elements"
        )
    flat = reshape(x, (-1,))
    return flat[offsets] if offsets.ndim else flat[int(offsets)]
