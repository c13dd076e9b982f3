"""Writing into an existing array: copyto (numpy/_core/multiarray) and fill_diagonal
(numpy/lib/_index_tricks_impl.py).

A concrete destination is written by NumPy's own function, in its buffer (views of it see the
writes). A traced one is updated functionally, as arraystack's in-place writes are (`dst[...] = ...`,
arraystack.put); NumPy first checks the casting and broadcasting on stand-in arrays with no memory of
their own, so errors are NumPy's and leave the destination unchanged.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np
from numpy.lib.stride_tricks import as_strided

import arraystack as anp
from arraystack._core.array import ndarray
from arraystack._core.host_calls import host_arguments
from arraystack._core.overrides import defers_to_numpy
from arraystack.ir.core import Tracer

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike

__all__ = ["copyto", "fill_diagonal"]


def _stand_in(x, writeable=False):
    """A NumPy array with x's dtype and shape and no memory of its own (every element aliases one),
    or x itself when it is not an array: NumPy's checks run on it at trace time."""
    if isinstance(x, ndarray):
        one = np.zeros(1, x.dtype)
        return as_strided(one, x.shape, (0,) * x.ndim, writeable=writeable)
    if type(x) is Tracer:
        return _stand_in(anp.asarray(x), writeable)
    return x


def _destination(dst, name):
    if not isinstance(dst, ndarray):
        raise TypeError(f"{name}() argument 1 must be arraystack.ndarray, not {type(dst).__name__}")


@defers_to_numpy
def copyto(dst: ArrayLike, src: ArrayLike, casting: str = "same_kind", where: Any = True) -> None:
    """Copies values from one array to another, broadcasting as necessary.

    Raises a TypeError if the `casting` rule is violated, and if `where` is provided, it selects
    which elements to copy.

    Parameters
    ----------
    dst : ndarray
        The array into which values are copied.
    src : array_like
        The array from which values are copied.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        Controls what kind of data casting may occur when copying.
    where : array_like of bool, optional
        A boolean array which is broadcasted to match the dimensions of `dst`, and selects elements
        to copy from `src` to `dst` wherever it contains the value True.

    Returns
    -------
    None
        `dst` is modified in place.

    See Also
    --------
    numpy.copyto : The NumPy function this mirrors.
    putmask, place, put

    Notes
    -----
    `dst` must be an arraystack array (NumPy requires a numpy.ndarray).
    """
    _destination(dst, "copyto")
    host = host_arguments(dst, src, where)
    if host is not None:
        np.copyto(host[0], host[1], casting=casting, where=host[2])
        return
    with warnings.catch_warnings():  # the write below warns, once
        warnings.simplefilter("ignore")
        # NumPy's casting, broadcasting and `where` checks, on stand-ins
        np.copyto(_stand_in(dst, True), _stand_in(src), casting=casting, where=_stand_in(where))
    value = anp.broadcast_to(anp.asarray(src).astype(dst.dtype, copy=False), dst.shape)
    if where is True:
        dst[...] = value
    else:
        dst[...] = anp.where(anp.asarray(where, dtype=bool), value, dst)


@defers_to_numpy
def fill_diagonal(a: ArrayLike, val: Any, wrap: bool = False) -> None:
    """Fill the main diagonal of the given array of any dimensionality.

    For an array `a` with ``a.ndim >= 2``, the diagonal is the list of values ``a[i, ..., i]`` with
    indices ``i`` all identical. This function modifies the input array in-place without returning a
    value.

    Parameters
    ----------
    a : array, at least 2-D.
        Array whose diagonal is to be filled in-place.
    val : scalar or array_like
        Value(s) to write on the diagonal. If `val` is scalar, the value is written along the
        diagonal. If array-like, the flattened `val` is written along the diagonal, repeating if
        necessary to fill all diagonal entries.
    wrap : bool
        For tall matrices, the diagonal "wrapped" after N columns.

    Returns
    -------
    None
        `a` is modified in place.

    See Also
    --------
    numpy.fill_diagonal : The NumPy function this mirrors.
    diag_indices, diagonal, put
    """
    if not isinstance(a, ndarray):
        raise TypeError(
            f"fill_diagonal() argument 1 must be arraystack.ndarray, not {type(a).__name__}"
        )
    host = host_arguments(a, val)
    if host is not None:
        np.fill_diagonal(host[0], host[1], wrap)
        return
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if not np.all(np.diff(a.shape) == 0):
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(np.cumprod(a.shape[:-1]).sum())
    positions = np.arange(a.size)[:end:step]
    with warnings.catch_warnings():  # the write below warns, once
        warnings.simplefilter("ignore")
        # NumPy's conversion of `val` (OverflowError, complex into real...) on a stand-in
        np.put(np.zeros(1, a.dtype), [0] if positions.size else [], _stand_in(val))
    anp.put(a, positions, val)
