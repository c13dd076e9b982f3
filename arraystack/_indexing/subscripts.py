"""Indexing: x[key] and x[key] = v (basic, advanced, boolean) onto slice/rev/reshape/gather/scatter;
nonzero, argwhere, flatnonzero.

Keys are normalised in keys.py. Eager assignment writes the NumPy buffer (views alias as
in NumPy); traced assignment is functionalized in updates.py: the ndarray is rebound.

Out-of-bounds indices are never silent: concrete ones raise NumPy's IndexError while the key is
normalised; a traced one (under jit, grad, vmap, in every tier) is checked by its gather or scatter
(mode "raise") when the computation runs, and raises the same IndexError, naming the index, the axis
and its size; a write leaves the array unchanged. (A read whose result is never used is removed
with its check, as any dead code is.) Clamping or dropping is asked for explicitly:
take/take_along_axis(mode="clip" or "wrap"), put/put_along_axis(mode="clip", "wrap" or "drop").
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import _make, ndarray, wrap
from arraystack._core.devices import constants_on_operand_device
from arraystack._core.overrides import defers_to_numpy
from arraystack._creation.basic import asarray
from arraystack._indexing.keys import (
    advanced_layout,
    apply_basic,
    gather_operands,
    index_arrays,
    make_plan,
    transpose_raw,
)
from arraystack._indexing.updates import updated, updated_part
from arraystack._transforms import result_layouts
from arraystack._transforms.aliasing import layout_of, link, rebind, view_of
from arraystack._transforms.traced_scalars import mark, marked_scalar
from arraystack.ir.core import (
    HostDtypeError,
    Tracer,
    active,
    bind,
    host_dtype_message,
    is_host_dtype,
    is_tracing,
)
from arraystack.ir.primitives import copy_p
from arraystack.ir.structural import (
    concatenate_p,
    gather_p,
    nonzero_p,
    reshape_p,
    slice_p,
    transpose_p,
)

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray


_BASIC_KEYS = frozenset({int, slice, type(None), type(Ellipsis)})
_host_array = np.ndarray
_NUMPY_VALUES = (np.ndarray, np.generic)


@constants_on_operand_device(checked=1)
def getitem(x: ndarray, key, mode="raise"):
    """x[key] as in NumPy: basic indexing gives views (eager); advanced and boolean ones copy.

    A traced index array is checked when the gather runs: out of bounds raises NumPy's IndexError
    (`mode` "raise"), or numpy.choose's ValueError (`mode` "choose", for choose's own index)."""
    value = x._value
    if not active.n and type(value) is _host_array and mode == "raise":
        # Eager fast path: for keys of ints/slices/None/Ellipsis, or one index/mask array, the
        # composition below (slice, rev, reshape, gather on their reference rules) is exactly NumPy's
        # own indexing of the buffer, so let NumPy do it in one call (views alias, errors are NumPy's).
        t = type(key)
        if (
            t in _BASIC_KEYS
            or isinstance(key, _NUMPY_VALUES)
            or (
                t is tuple
                and all(type(k) in _BASIC_KEYS or isinstance(k, _NUMPY_VALUES) for k in key)
            )
        ):  # NumPy's own arrays and scalars (np.int64(1), np.True_) index as NumPy reads them
            return _host_item(value[key])
        if (
            t is ndarray
            and isinstance(key._value, _NUMPY_VALUES)
            and key._value.dtype.kind in "iub"
        ):
            return _host_item(value[key._value])  # an index or mask array, or a scalar result
        if is_host_dtype(value.dtype):
            return _host_item(value[_numpy_key(key)])
    elif (
        isinstance(value, np.void) and not active.n
    ):  # a structured array's row: by field or position
        return _host_item(value[_numpy_key(key)])
    if active.n and getattr(value, "dtype", None) is not None and is_host_dtype(value.dtype):
        raise HostDtypeError(host_dtype_message(value.dtype, "x[key]"))
    shape = value.shape
    plan = make_plan(key, shape)
    traced = is_tracing()
    y = apply_basic(value, shape, plan)
    if plan.groups:
        axes, x_axes, arrays, broadcast = index_arrays(plan, shape, traced)
        indices, params = gather_operands(arrays, x_axes, broadcast, traced, mode)
        perm, back = advanced_layout(plan, axes, broadcast)
        y = bind(gather_p, transpose_raw(y, perm), *indices, **params)
        y = transpose_raw(y, back)
    elif plan.copy and not traced:
        # NumPy returns a scalar (a copy), never a view, for x[i, j] naming every axis
        y = bind(copy_p, y)
    elif y is value and not traced:
        y = bind(reshape_p, y, new_sizes=tuple(shape))  # x[...] is a new view of x, as in NumPy
    out = wrap(y)
    if marked_scalar(x):  # indexing a NumPy scalar makes a new array; s[()] is s
        if not traced:  # on a device: a buffer of its own, never a view
            out = wrap(bind(copy_p, y))
        if type(key) is tuple and not key:
            mark(out)
    elif plan.copy or plan.element:  # an integer for every axis: NumPy's scalar (cupy's is 0-d)
        mark(out)
    elif traced:  # a view of x where NumPy's basic indexing gives one
        _link_view(out, x, key, plan, shape)
        if plan.groups:  # a copy, in the memory order NumPy gives it
            result_layouts.gathered(x, key, broadcast, back, out)
    return out


def _host_item(item):
    """x[key] computed by NumPy, eagerly: arrays and NumPy scalars (a structured array's np.void rows,
    datetimes, numbers) wrapped; an element of an object or StringDType array is the Python object
    itself, as NumPy returns it."""
    return _make(item) if isinstance(item, _NUMPY_VALUES) else item


def _link_view(view, x, key, plan, shape):
    """Record x[key] as a view of x: keys of ints, slices, None and Ellipsis, where a traced integer
    stands for the Python int it was traced from (x[i][j] = v writes x, as NumPy's x[i] is a view)."""
    items = key if type(key) is tuple else (key,)
    concrete = []
    for item in items:
        value = item._value if isinstance(item, ndarray) else item
        if type(value) is Tracer:
            if value.ndim or value.dtype.kind not in "iu":
                return  # an index array: NumPy copies
            value = 0  # the layout's strides do not depend on which element
        elif isinstance(value, np.ndarray) or type(value) in (list, bool, np.bool_):
            return
        concrete.append(value)
    if plan.groups and (Ellipsis not in concrete and len(concrete) >= len(shape)):
        return  # an integer for every axis: NumPy gives a scalar
    layout = layout_of(x)[tuple(concrete)]
    if plan.groups:
        read = lambda b: getitem(wrap(b), key)._value
    else:
        read = lambda b: apply_basic(b, shape, plan)
    link(view, x, read, lambda b, v: updated(b, key, v), layout)


def _numpy_key(key):
    if type(key) is tuple:
        return tuple(k._value if isinstance(k, ndarray) else k for k in key)
    return key._value if isinstance(key, ndarray) else key


@constants_on_operand_device(checked=1)
def setitem(x: ndarray, key, value):
    """x[key] = value: eager writes x's buffer (and so every view of it) with NumPy's casting;
    traced rebinds x to the updated value. On error x is unchanged."""
    if marked_scalar(x):  # traced or on a device, what NumPy holds as a scalar
        raise TypeError(f"'numpy.{x.dtype.type.__name__}' object does not support item assignment")
    if not is_tracing() and type(x._value) is not Tracer:
        x._value[_numpy_key(key)] = value._value if isinstance(value, ndarray) else value
        return
    rebind(x, updated(x._value, key, value), "x[...] = value")


def set_part(x: ndarray, part: str, value):
    """The `.real` / `.imag` setters (`part` is "real" or "imag"), mirroring NumPy's."""
    if not is_tracing() and type(x._value) is not Tracer:
        setattr(x._value, part, value._value if isinstance(value, ndarray) else value)
        return
    rebind(x, updated_part(x._value, part, value), f"setting .{part}")


# -- nonzero and friends ---------------------------------------------------------------------------


def _size_params(size, fill_value):
    if size is None:
        return {}
    size = operator.index(size)
    if size < 0:
        raise ValueError(f"size must be non-negative, got {size}")
    return {"size": size, "fill_value": operator.index(fill_value)}


@defers_to_numpy
def nonzero(a: ArrayLike, *, size: int | None = None, fill_value: int = 0) -> tuple[NDArray, ...]:
    """Return the indices of the elements that are non-zero.

    Parameters
    ----------
    a : array_like
        Input array; it must have at least one dimension.
    size : int, optional
        An arraystack extension (as in jax.numpy): the result has exactly `size` entries, truncated
        or padded with `fill_value`. Inside a trace the output shape must not depend on the data, so
        `size` is required there.
    fill_value : int, optional
        The index used for padding when `size` exceeds the number of nonzero entries.

    Returns
    -------
    tuple_of_arrays : tuple
        Indices of elements that are non-zero, one array per dimension of `a`.

    See Also
    --------
    numpy.nonzero : The NumPy function this mirrors.
    flatnonzero, argwhere, where, count_nonzero, ndarray.nonzero
    """
    a = asarray(a)
    if a.ndim == 0:
        raise ValueError(
            "Calling nonzero on 0d arrays is not allowed. "
            "Use np.atleast_1d(scalar).nonzero() instead."
        )
    return tuple(wrap(i) for i in bind(nonzero_p, a._value, **_size_params(size, fill_value)))


@defers_to_numpy
def argwhere(a: ArrayLike, *, size: int | None = None, fill_value: int = 0) -> NDArray:
    """Find the indices of array elements that are non-zero, grouped by element.

    Parameters
    ----------
    a : array_like
        Input data.
    size : int, optional
        An arraystack extension (as in jax.numpy): the result has exactly `size` entries, truncated
        or padded with `fill_value`. Inside a trace the output shape must not depend on the data, so
        `size` is required there.
    fill_value : int, optional
        The index used for padding when `size` exceeds the number of nonzero entries.

    Returns
    -------
    index_array : (N, a.ndim) ndarray
        Indices of elements that are non-zero, one row per element.

    See Also
    --------
    numpy.argwhere : The NumPy function this mirrors.
    nonzero, flatnonzero, where
    """
    a = asarray(a)
    params = _size_params(size, fill_value)
    if a.ndim == 0:
        # NumPy: argwhere(atleast_1d(a))[:, :0]
        (index,) = bind(nonzero_p, bind(reshape_p, a._value, new_sizes=(1,)), **params)
        n = index.shape[0]
        column = bind(reshape_p, index, new_sizes=(n, 1))
        return wrap(
            bind(slice_p, column, start_indices=(0, 0), limit_indices=(n, 0), strides=(1, 1))
        )
    parts = bind(nonzero_p, a._value, **params)
    n = parts[0].shape[0]
    rows = [bind(reshape_p, i, new_sizes=(1, n)) for i in parts]
    # NumPy's transpose(nonzero(a)): a Fortran-ordered view of the indices' rows
    stacked = wrap(rows[0] if len(rows) == 1 else bind(concatenate_p, *rows, dimension=0))
    return view_of(stacked, transpose_p, permutation=(1, 0))


@defers_to_numpy
def flatnonzero(a: ArrayLike, *, size: int | None = None, fill_value: int = 0) -> NDArray:
    """Return indices that are non-zero in the flattened version of a.

    Parameters
    ----------
    a : array_like
        Input data.
    size : int, optional
        An arraystack extension (as in jax.numpy): the result has exactly `size` entries, truncated
        or padded with `fill_value`. Inside a trace the output shape must not depend on the data, so
        `size` is required there.
    fill_value : int, optional
        The index used for padding when `size` exceeds the number of nonzero entries.

    Returns
    -------
    res : ndarray
        Output array, containing the indices of the elements of ``a.ravel()`` that are non-zero.

    See Also
    --------
    numpy.flatnonzero : The NumPy function this mirrors.
    nonzero, argwhere
    """
    a = asarray(a)
    flat = bind(reshape_p, a._value, new_sizes=(a.size,)) if a.ndim != 1 else a._value
    (index,) = bind(nonzero_p, flat, **_size_params(size, fill_value))
    return wrap(index)


__all__ = ["argwhere", "flatnonzero", "nonzero"]
