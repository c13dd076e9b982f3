"""Shape and axis arguments: parsing shapes (ints, sequences, -1), normalizing axes with NumPy's
AxisError, and printing shapes the way NumPy's error messages do. Shared by the creation and
manipulation families (and by any function taking `axis=`).
"""

from __future__ import annotations

import operator

import numpy as np

AxisError = np.exceptions.AxisError


def normalize_axis(axis, ndim, argname=None):
    """An axis in [-ndim, ndim) as a non-negative int; NumPy's AxisError (prefixed by argname) otherwise."""
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(
            f"'{type(axis).__name__}' object cannot be interpreted as an integer"
        ) from None
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim, argname)
    return axis + ndim if axis < 0 else axis


def normalize_axis_tuple(axis, ndim, argname=None, allow_duplicate=False):
    """Mirrors numpy.lib.array_utils.normalize_axis_tuple."""
    if type(axis) not in (tuple, list):
        try:
            axis = [operator.index(axis)]
        except TypeError:
            pass
    axes = tuple(normalize_axis(ax, ndim, argname) for ax in axis)
    if not allow_duplicate and len(set(axes)) != len(axes):
        raise ValueError(f"repeated axis in `{argname}` argument" if argname else "repeated axis")
    return axes


def normalize_axes(axis, ndim):
    """None -> all axes; int or tuple -> a tuple of distinct non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    return normalize_axis_tuple(axis, ndim)


def format_shape(shape) -> str:
    """A shape as NumPy prints it in error messages: (2,3), (4,), (4,newaxis)."""
    dims = ",".join("newaxis" if d < 0 else str(d) for d in shape)
    return f"({dims},)" if len(shape) == 1 else f"({dims})"


def int_tuple(shape):
    if type(shape) is tuple and all(type(d) is int for d in shape):
        return shape
    try:
        return (operator.index(shape),)
    except TypeError:
        pass
    try:
        return tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(
            f"expected a sequence of integers or a single integer, got '{shape!r}'"
        ) from None


def resolve_shape(shape, size):
    if type(shape) is tuple:  # fast path: non-negative Python ints
        known = 1
        for d in shape:
            if type(d) is not int or d < 0:
                break
            known *= d
        else:
            if known != size:
                raise ValueError(
                    f"cannot reshape array of size {size} into shape {format_shape(shape)}"
                )
            return shape
    if type(shape) is int:
        shape = (shape,)
    elif type(shape) is not tuple:
        shape = int_tuple(shape)
    unknown = -1
    known = 1
    for i, d in enumerate(shape):
        if type(d) is not int:
            return resolve_shape(int_tuple(shape), size)
        if d < 0:
            if unknown >= 0:
                raise ValueError("can only specify one unknown dimension")
            unknown = i
        else:
            known *= d
    if unknown < 0:
        if known != size:
            raise ValueError(
                f"cannot reshape array of size {size} into shape {format_shape(shape)}"
            )
        return shape
    if known == 0 or size % known:
        raise ValueError(f"cannot reshape array of size {size} into shape {format_shape(shape)}")
    return shape[:unknown] + (size // known,) + shape[unknown + 1 :]


def shape_tuple(shape) -> tuple:
    """A shape argument (int or sequence of ints) as a tuple of non-negative Python ints."""
    if type(shape) is tuple:
        for d in shape:
            if type(d) is not int:
                return _slow_shape_tuple(shape)
            if d < 0:
                raise ValueError("negative dimensions are not allowed")
        return shape
    if type(shape) is int:
        if shape < 0:
            raise ValueError("negative dimensions are not allowed")
        return (shape,)
    return _slow_shape_tuple(shape)


def _slow_shape_tuple(shape):
    try:
        dims = (operator.index(shape),)
    except TypeError:
        try:
            dims = tuple(operator.index(d) for d in shape)
        except TypeError:
            raise TypeError(
                f"expected a sequence of integers or a single integer, got '{shape!r}'"
            ) from None
    if any(d < 0 for d in dims):
        raise ValueError("negative dimensions are not allowed")
    return dims
