"""Questions and requirements about memory: require, isfortran, shares_memory, may_share_memory
(numpy/_core/_asarray.py, numpy/_core/numeric.py, numpy/_core/multiarray).

They read the NumPy buffers of concrete arrays. A traced value has no memory layout: the queries
raise ConcretizationError for it, and require returns it without layout checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import arraystack as anp
from arraystack._core.array import ndarray
from arraystack._core.host_calls import host_arguments, wrap_result
from arraystack._core.overrides import defers_to_numpy
from arraystack._transforms.aliasing import view_writeable
from arraystack.ir.core import Tracer

if TYPE_CHECKING:
    from collections.abc import Iterable

    from arraystack.typing import ArrayLike, DTypeLike, NDArray

__all__ = ["isfortran", "may_share_memory", "require", "shares_memory"]

_POSSIBLE_FLAGS = {  # numpy/_core/_asarray.py
    "C": "C",
    "C_CONTIGUOUS": "C",
    "CONTIGUOUS": "C",
    "F": "F",
    "F_CONTIGUOUS": "F",
    "FORTRAN": "F",
    "A": "A",
    "ALIGNED": "A",
    "W": "W",
    "WRITEABLE": "W",
    "O": "O",
    "OWNDATA": "O",
    "E": "E",
    "ENSUREARRAY": "E",
}


def require(
    a: ArrayLike,
    dtype: DTypeLike = None,
    requirements: str | Iterable[str] | None = None,
    *,
    like: ArrayLike | None = None,
) -> NDArray:
    """Return an ndarray of the provided type that satisfies requirements.

    Parameters
    ----------
    a : array_like
        The object to be converted to a type-and-requirement-satisfying array.
    dtype : data-type
        The required data-type. If None preserve the current dtype.
    requirements : str or sequence of str
        The requirements list can be any of: 'F_CONTIGUOUS' ('F'), 'C_CONTIGUOUS' ('C'),
        'ALIGNED' ('A'), 'WRITEABLE' ('W'), 'OWNDATA' ('O'), 'ENSUREARRAY' ('E').
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

    Returns
    -------
    out : ndarray
        Array with specified requirements and type if given: `a` itself when it meets them.

    See Also
    --------
    numpy.require : The NumPy function this mirrors.
    asarray, asanyarray, ascontiguousarray, asfortranarray, ndarray.flags

    Notes
    -----
    A traced value has no memory layout: the flags are not checked for it.
    """
    if not requirements:
        return anp.asarray(a, dtype=dtype)
    host = host_arguments(a)
    if host is not None:
        out = np.require(host[0], dtype, requirements)
        return a if out is host[0] and isinstance(a, ndarray) else wrap_result(out)
    requirements = {_POSSIBLE_FLAGS[x.upper()] for x in requirements}
    if requirements >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in requirements else "F" if "F" in requirements else "A"
    arr = anp.asarray(a, dtype=dtype, order=order)
    writeable = view_writeable(arr) if isinstance(arr, ndarray) else None
    if ("O" in requirements and writeable is not None) or ("W" in requirements and writeable is False):
        return anp.copy(arr, order=order)  # a view: NumPy's arr.copy(order)
    return arr


def isfortran(a: NDArray) -> bool:
    """Check if the array is Fortran contiguous but *not* C contiguous.

    Parameters
    ----------
    a : ndarray
        Input array.

    Returns
    -------
    isfortran : bool
        Returns True if the array is Fortran contiguous but *not* C contiguous.

    See Also
    --------
    numpy.isfortran : The NumPy function this mirrors.
    ndarray.flags, asfortranarray

    Notes
    -----
    A traced value's is that of the memory layout NumPy would give it (a jitted function that asks
    is keyed by its arguments' layouts).
    """
    return a.flags.fnc


def _buffer(x):
    if isinstance(x, ndarray):
        return x._concrete("memory")
    if type(x) is Tracer:
        return _buffer(anp.asarray(x))
    return x


@defers_to_numpy
def shares_memory(a: ArrayLike, b: ArrayLike, /, max_work: int = -1) -> bool:
    """Determine if two arrays share memory.

    Parameters
    ----------
    a, b : ndarray
        Input arrays.
    max_work : int, optional
        Effort to spend on solving the overlap problem (see numpy.shares_memory): -1 (default)
        solves it exactly, 0 only checks the memory bounds (as may_share_memory).

    Returns
    -------
    out : bool

    Raises
    ------
    numpy.exceptions.TooHardError
        Exceeded max_work.

    See Also
    --------
    numpy.shares_memory : The NumPy function this mirrors.
    may_share_memory

    Notes
    -----
    A traced value has no memory: it raises ConcretizationError.
    """
    return bool(np.shares_memory(_buffer(a), _buffer(b), max_work=max_work))


@defers_to_numpy
def may_share_memory(a: ArrayLike, b: ArrayLike, /, max_work: int = 0) -> bool:
    """Determine if two arrays might share memory.

    A return of True does not necessarily mean that the two arrays share any element. It just means
    that they *might*.

    Parameters
    ----------
    a, b : ndarray
        Input arrays.
    max_work : int, optional
        Effort to spend on solving the overlap problem; 0 (default) only checks the memory
        bounds, -1 solves it exactly.

    Returns
    -------
    out : bool

    See Also
    --------
    numpy.may_share_memory : The NumPy function this mirrors.
    shares_memory

    Notes
    -----
    A traced value has no memory: it raises ConcretizationError.
    """
    return bool(np.may_share_memory(_buffer(a), _buffer(b), max_work=max_work))
