"""Index tricks: diagonal, trace, diag/tril/triu_indices(_from), ravel_multi_index, unravel_index, ix_, mgrid,
ogrid, r_, c_.
(ndindex, ndenumerate and nditer are in iterators.py.)

Index sets that depend only on shapes are computed by NumPy as constants; coordinate arithmetic
(ravel_multi_index, unravel_index) and r_/c_ joins compose arraystack functions, so they trace.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray, wrap
from arraystack._core.devices import constants_on_operand_device, host_values
from arraystack._core.dtypes import result_type
from arraystack._core.overrides import defers_to_numpy
from arraystack._core.shapes import normalize_axis
from arraystack._creation.basic import array, asarray, astype
from arraystack._creation.ranges import arange, linspace
from arraystack._manipulation.joining import concatenate
from arraystack._manipulation.reshaping import moveaxis, reshape, transpose
from arraystack._math.elementwise_functions import clip
from arraystack._math.reductions import sum as sum_
from arraystack._transforms.aliasing import layout_of, read_only_view
from arraystack.ir.core import Tracer, active, is_tracing

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, AxisLike, DTypeLike, NDArray

_INT64 = np.dtype(np.int64)


def _constant(value):
    return asarray(np.asarray(value))


def diag_indices(n: int, ndim: int = 2) -> tuple[NDArray, ...]:
    """Return the indices to access the main diagonal of an array.

    Parameters
    ----------
    n : int
        The size, along each dimension, of the arrays for which the indices can be used.
    ndim : int, optional
        The number of dimensions.

    Returns
    -------
    indices : tuple of ndarray
        `ndim` arrays ``arange(n)``, for use as ``a[indices]``.

    See Also
    --------
    numpy.diag_indices : The NumPy function this mirrors.
    diag_indices_from, diagonal
    """
    idx = arange(operator.index(n))
    return (idx,) * operator.index(ndim)


@defers_to_numpy
@constants_on_operand_device
def diag_indices_from(arr: ArrayLike) -> tuple[NDArray, ...]:
    """Return the indices to access the main diagonal of an n-dimensional array.

    Parameters
    ----------
    arr : array, at least 2-D
        An array whose dimensions all have the same length.

    Returns
    -------
    indices : tuple of ndarray
        Indices of the main diagonal.

    See Also
    --------
    numpy.diag_indices_from : The NumPy function this mirrors.
    diag_indices
    """
    arr = asarray(arr)
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[NDArray, NDArray]:
    """Return the indices for the lower-triangle of an (n, m) array.

    Parameters
    ----------
    n : int
        The row dimension of the arrays for which the indices are returned.
    k : int, optional
        Diagonal offset (see `tril`).
    m : int, optional
        The column dimension of the arrays for which the indices are returned; by default `n`.

    Returns
    -------
    inds : tuple of arrays
        The row and column indices of the triangle.

    See Also
    --------
    numpy.tril_indices : The NumPy function this mirrors.
    triu_indices, tril, tril_indices_from
    """
    return tuple(_constant(i) for i in np.tril_indices(n, k, m))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[NDArray, NDArray]:
    """Return the indices for the upper-triangle of an (n, m) array.

    Parameters
    ----------
    n : int
        The size of the arrays for which the returned indices will be valid.
    k : int, optional
        Diagonal offset (see `triu`).
    m : int, optional
        The column dimension of the arrays for which the indices are returned; by default `n`.

    Returns
    -------
    inds : tuple, shape(2) of ndarrays
        The row and column indices of the triangle.

    See Also
    --------
    numpy.triu_indices : The NumPy function this mirrors.
    tril_indices, triu, triu_indices_from
    """
    return tuple(_constant(i) for i in np.triu_indices(n, k, m))


def _square_from(arr):
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return arr.shape


@defers_to_numpy
@constants_on_operand_device
def tril_indices_from(arr: ArrayLike, k: int = 0) -> tuple[NDArray, NDArray]:
    """Return the indices for the lower-triangle of arr.

    Parameters
    ----------
    arr : array_like
        The input array, at least 2-D, whose shape fixes the size.
    k : int, optional
        Diagonal offset (see `tril`).

    Returns
    -------
    tril_indices : tuple, shape(2) of ndarrays
        The row and column indices of the triangle.

    See Also
    --------
    numpy.tril_indices_from : The NumPy function this mirrors.
    tril_indices, triu_indices_from
    """
    n, m = _square_from(arr)
    return tril_indices(n, k, m)


@defers_to_numpy
@constants_on_operand_device
def triu_indices_from(arr: ArrayLike, k: int = 0) -> tuple[NDArray, NDArray]:
    """Return the indices for the upper-triangle of arr.

    Parameters
    ----------
    arr : array_like
        The input array, at least 2-D, whose shape fixes the size.
    k : int, optional
        Diagonal offset (see `triu`).

    Returns
    -------
    triu_indices_from : tuple, shape(2) of ndarrays
        The row and column indices of the triangle.

    See Also
    --------
    numpy.triu_indices_from : The NumPy function this mirrors.
    triu_indices, tril_indices_from
    """
    n, m = _square_from(arr)
    return triu_indices(n, k, m)


def _dims(dims):
    dims = (dims,) if isinstance(dims, (int, np.integer)) else tuple(dims)
    return tuple(operator.index(d) for d in dims)


def _coordinate(x):
    x = asarray(x)
    if x.dtype.kind not in "iub":  # bools cast safely to intp, as NumPy casts them
        raise TypeError("only int indices permitted")
    return astype(x, _INT64) if x.dtype != _INT64 else x


def _concrete(x):
    return not is_tracing() and type(x._value) is not Tracer


def _strides(dims, order):
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    axes = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    strides, step = [0] * len(dims), 1
    for ax in axes:
        strides[ax] = step
        step *= dims[ax]
    return strides


@defers_to_numpy
def ravel_multi_index(
    multi_index: Sequence[ArrayLike],
    dims: AxisLike,
    mode: str | tuple[str, ...] = "raise",
    order: str = "C",
) -> NDArray:
    """Converts a tuple of index arrays into an array of flat indices.

    Parameters
    ----------
    multi_index : tuple of array_like
        A tuple of integer arrays, one array for each dimension.
    dims : tuple of ints
        The shape of the array into which the indices apply.
    mode : {'raise', 'wrap', 'clip'} or tuple, optional
        How out-of-bounds indices are handled, for all dimensions or per dimension.
    order : {'C', 'F'}, optional
        Row-major (C-style) or column-major (Fortran-style) order.

    Returns
    -------
    raveled_indices : ndarray
        An array of indices into the flattened version of an array of dimensions `dims`.

    See Also
    --------
    numpy.ravel_multi_index : The NumPy function this mirrors.
    unravel_index

    Notes
    -----
    Under a trace, ``mode='raise'`` cannot check the coordinates: out-of-range ones give unspecified
    (in-range clipped) results there.
    """
    dims = _dims(dims)
    multi_index = tuple(multi_index)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError("mode must be a string or a sequence of length ndim")
    strides = _strides(dims, order)
    total = None
    for coord, d, m, stride in zip(multi_index, dims, modes, strides):
        c = _coordinate(coord)
        if m == "wrap":
            c = c % d
        elif m == "clip" or (m == "raise" and not _concrete(c)):
            c = clip(c, 0, d - 1)
        elif m == "raise":
            raw = host_values(c._value)
            if np.any((raw < 0) | (raw >= d)):
                raise ValueError("invalid entry in coordinates array")
        else:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {m!r})")
        term = c * stride
        total = term if total is None else total + term
    return total


@defers_to_numpy
def unravel_index(indices: ArrayLike, shape: AxisLike, order: str = "C") -> tuple[NDArray, ...]:
    """Converts a flat index or array of flat indices into a tuple of coordinate arrays.

    Parameters
    ----------
    indices : array_like
        An integer array whose elements are indices into the flattened array of shape `shape`.
    shape : tuple of ints
        The shape of the array to use for unraveling `indices`.
    order : {'C', 'F'}, optional
        Row-major (C-style) or column-major (Fortran-style) order.

    Returns
    -------
    unraveled_coords : tuple of ndarray
        Each array in the tuple has the same shape as the `indices` array.

    See Also
    --------
    numpy.unravel_index : The NumPy function this mirrors.
    ravel_multi_index

    Notes
    -----
    Under a trace, out-of-range indices cannot raise; they give unspecified coordinates.
    """
    dims = _dims(shape)
    idx = _coordinate(indices)
    size = int(np.prod(dims, dtype=np.int64))
    if _concrete(idx) and idx.size:
        raw = host_values(idx._value)
        bad = raw[(raw < 0) | (raw >= size)]
        if bad.size:
            raise ValueError(
                f"index {int(bad.flat[0])} is out of bounds for array with size {size}"
            )
    strides = _strides(dims, order)
    return tuple(idx // s % d if d else idx for s, d in zip(strides, dims))


@defers_to_numpy
@constants_on_operand_device
def ix_(*args: ArrayLike) -> tuple[NDArray, ...]:
    """Construct an open mesh from multiple sequences.

    Parameters
    ----------
    *args : 1-D sequences
        Each sequence should be of integer or boolean type (booleans select their True positions).

    Returns
    -------
    out : tuple of ndarrays
        N arrays with N dimensions each, each with one non-unit dimension, for indexing the cross
        product.

    See Also
    --------
    numpy.ix_ : The NumPy function this mirrors.
    ogrid, mgrid, meshgrid
    """
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        new = asarray(new)
        if new.size == 0 and not isinstance(args[k], ndarray):
            new = astype(new, _INT64)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == bool:
            (new,) = new.nonzero()
        out.append(reshape(new, (1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


class _Grid:
    """mgrid (dense) and ogrid (open): NumPy's nd_grid; the bounds are static, so NumPy computes them."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        grid = (np.ogrid if self.sparse else np.mgrid)[key]
        if isinstance(grid, tuple):
            return tuple(_constant(g) for g in grid)
        if isinstance(grid, list):
            return [_constant(g) for g in grid]
        return _constant(grid)

    def __len__(self):
        return 0


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


class _Concatenator:
    """r_ and c_: NumPy's AxisConcatenator over arraystack arrays (matrix directives are not supported)."""

    def __init__(self, axis=0, ndmin=1, trans1d=-1):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        first = key[0] if isinstance(key, tuple) and key else None
        if isinstance(key, str) or (isinstance(first, str) and first in ("r", "c")):
            raise TypeError(
                "arraystack has no matrix class: the 'r'/'c' matrix directives of r_ are absent"
            )
        key = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs, kinds = [], []
        for k, item in enumerate(key):
            if isinstance(item, slice):
                obj = self._range(item)
                if ndmin > 1:
                    obj = array(obj, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        obj = obj.swapaxes(-1, trans1d)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                axis, ndmin, trans1d = self._directive(item, axis, ndmin, trans1d)
                continue
            elif type(item) in (int, float, complex, bool) or isinstance(item, np.generic):
                objs.append(item)
                kinds.append(item)
                continue
            else:
                item_ndim = np.ndim(item) if not isinstance(item, ndarray) else item.ndim
                obj = array(item, copy=None, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2, k1 = ndmin - item_ndim, trans1d
                    if k1 < 0:
                        k1 += k2 + 1
                    axes = list(range(ndmin))
                    obj = transpose(obj, axes[:k1] + axes[k2:] + axes[k1:k2])
            objs.append(obj)
            kinds.append(obj.dtype)
        if kinds:
            dtype = result_type(*kinds)
            objs = [array(o, copy=None, ndmin=ndmin, dtype=dtype) for o in objs]
        return concatenate(tuple(objs), axis=axis)

    @staticmethod
    def _range(item):
        start = 0 if item.start is None else item.start
        step = 1 if item.step is None else item.step
        if isinstance(step, (complex, np.complexfloating)):
            return linspace(start, item.stop, num=int(abs(step)))
        return arange(start, item.stop, step)

    @staticmethod
    def _directive(item, axis, ndmin, trans1d):
        if item in ("r", "c"):
            raise TypeError("arraystack has no matrix class: the 'r'/'c' directives are absent")
        if "," in item:
            vec = item.split(",")
            try:
                axis, ndmin = [int(x) for x in vec[:2]]
                if len(vec) == 3:
                    trans1d = int(vec[2])
                return axis, ndmin, trans1d
            except Exception as e:
                raise ValueError(f"unknown special directive {item!r}") from e
        try:
            return int(item), ndmin, trans1d
        except (ValueError, TypeError) as e:
            raise ValueError("unknown special directive") from e

    def __len__(self):
        return 0


r_ = _Concatenator(0)
c_ = _Concatenator(-1, ndmin=2, trans1d=0)


# -- diagonals ----------------------------------------------------------------------------------------------


@defers_to_numpy
@constants_on_operand_device
def diagonal(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1) -> NDArray:
    """Return specified diagonals.

    Parameters
    ----------
    a : array_like
        Array from which the diagonals are taken.
    offset : int, optional
        Offset of the diagonal from the main diagonal.
    axis1 : int, optional
        Axis to be used as the first axis of the 2-D sub-arrays (default 0).
    axis2 : int, optional
        Axis to be used as the second axis of the 2-D sub-arrays (default 1).

    Returns
    -------
    array_of_diagonals : ndarray
        The diagonals, along a new last axis.

    See Also
    --------
    numpy.diagonal : The NumPy function this mirrors.
    diag, diagflat, trace, ndarray.diagonal

    Notes
    -----
    NumPy returns a read-only view; arraystack returns a copy (writing to either is not possible in
    NumPy).
    """
    a = asarray(a)
    offset = operator.index(offset)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    axis1, axis2 = normalize_axis(axis1, a.ndim), normalize_axis(axis2, a.ndim)
    if axis1 == axis2:
        raise ValueError("axis1 and axis2 cannot be the same")
    if not active.n and type(a._value) is np.ndarray:  # NumPy's own read-only view of a's buffer
        return wrap(np.diagonal(a._value, offset, axis1, axis2))
    rows, cols = a.shape[axis1], a.shape[axis2]
    r0, c0 = max(-offset, 0), max(offset, 0)
    n = max(0, min(rows - r0, cols - c0))
    moved = moveaxis(a, (axis1, axis2), (-2, -1))
    i = arange(r0, r0 + n)
    out = moved[..., i, i + (c0 - r0)]
    layout = np.diagonal(layout_of(a), offset, axis1, axis2) if active.n else None
    return read_only_view(
        out, a, lambda b: diagonal(wrap(b), offset, axis1, axis2)._value, layout
    )


@defers_to_numpy
@constants_on_operand_device
def trace(
    a: ArrayLike,
    offset: int = 0,
    axis1: int = 0,
    axis2: int = 1,
    dtype: DTypeLike = None,
    out: NDArray | None = None,
) -> NDArray:
    """Return the sum along diagonals of the array.

    Parameters
    ----------
    a : array_like
        Input array, from which the diagonals are taken.
    offset : int, optional
        Offset of the diagonal from the main diagonal.
    axis1 : int, optional
        First axis of the 2-D sub-arrays (default 0).
    axis2 : int, optional
        Second axis of the 2-D sub-arrays (default 1).
    dtype : dtype, optional
        The data-type of the returned array and of the accumulator.
    out : ndarray, optional
        Alternative output array in which to place the result; it must have the expected shape. Eagerly
        it is written in place; traced, the update is functionalized.

    Returns
    -------
    sum_along_diagonals : ndarray
        The sum of the diagonals; 0-d for 2-D input.

    See Also
    --------
    numpy.trace : The NumPy function this mirrors.
    diagonal, diag, linalg.trace, ndarray.trace
    """
    return sum_(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


__all__ = [
    "c_",
    "diag_indices",
    "diag_indices_from",
    "diagonal",
    "ix_",
    "mgrid",
    "ogrid",
    "r_",
    "ravel_multi_index",
    "trace",
    "tril_indices",
    "tril_indices_from",
    "triu_indices",
    "triu_indices_from",
    "unravel_index",
]
