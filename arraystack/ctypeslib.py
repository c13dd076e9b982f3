"""arraystack.ctypeslib: NumPy's ctypes interface (numpy.ctypeslib) for arraystack arrays.

An arraystack array in host memory is a NumPy buffer, so C functions loaded with ctypes read and write it
in place: `ndpointer(...)` types in a function's `argtypes` take arraystack arrays (and NumPy's),
`as_ctypes` gives a ctypes array sharing the buffer, and `as_array` an arraystack array over ctypes
memory. A traced array (inside jit, grad or vmap) has no memory to pass, and one on a device is not in
host memory: both raise TypeError. `load_library`, `c_intp` and `as_ctypes_type` are NumPy's own.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy import ctypeslib as _numpy_ctypeslib
from numpy.ctypeslib import as_ctypes_type, c_intp, load_library

from arraystack._core.array import ndarray, wrap

__all__ = ["as_array", "as_ctypes", "as_ctypes_type", "c_intp", "load_library", "ndpointer"]


def _buffer(obj, what: str):
    """The NumPy buffer of an arraystack array in host memory; anything else as it is."""
    if not isinstance(obj, ndarray):
        return obj
    value = obj._value
    if type(value) is not np.ndarray:
        where = "a traced array" if not hasattr(value, "device") else f"an array on {obj.device}"
        raise TypeError(
            f"{what} needs an array in host memory, got {where}: ctypes passes the address of a "
            "buffer (copy a device array with x.to_device('cpu'); call C code outside jit/grad/vmap)"
        )
    return value


def as_array(obj: Any, shape: tuple[int, ...] | None = None) -> ndarray:
    """An arraystack array over a ctypes array or pointer, sharing its memory.

    Parameters
    ----------
    obj : ctypes.Array or ctypes.POINTER
        The memory; a pointer needs `shape`.
    shape : tuple of int, optional
        The shape of the array a pointer points at.

    Returns
    -------
    ndarray
        An array whose writes land in the ctypes memory.

    See Also
    --------
    numpy.ctypeslib.as_array : The NumPy function this mirrors.
    """
    return wrap(_numpy_ctypeslib.as_array(_buffer(obj, "as_array"), shape))


def as_ctypes(obj: Any):
    """A ctypes array sharing the memory of an array in host memory.

    Parameters
    ----------
    obj : ndarray
        A C-contiguous, aligned, writeable array of a dtype ctypes has (as_ctypes_type).

    Returns
    -------
    ctypes.Array
        The array's buffer as a ctypes array of its shape.

    See Also
    --------
    numpy.ctypeslib.as_ctypes : The NumPy function this mirrors.
    """
    return _numpy_ctypeslib.as_ctypes(_buffer(obj, "as_ctypes"))


_pointer_types: dict = {}  # NumPy's ndpointer class -> ours


def ndpointer(dtype=None, ndim=None, shape=None, flags=None) -> type:
    """An array-checking pointer type, for the `argtypes` and `restype` of ctypes functions.

    Parameters
    ----------
    dtype : data-type, optional
        The dtype an argument must have.
    ndim : int, optional
        The number of dimensions it must have.
    shape : tuple of ints, optional
        The shape it must have.
    flags : str or tuple of str, optional
        The flags it must have (C_CONTIGUOUS, F_CONTIGUOUS, ALIGNED, WRITEABLE, OWNDATA, ...).

    Returns
    -------
    type
        NumPy's ndpointer type, whose `from_param` also takes arraystack arrays in host memory (their
        buffer is passed, so the C function reads and writes the array); as a `restype` with dtype and
        shape, a call returns an arraystack array over the memory it points at.

    Raises
    ------
    TypeError
        From `from_param`, when an argument does not match, as NumPy's.

    See Also
    --------
    numpy.ctypeslib.ndpointer : The NumPy function this mirrors.
    """
    base = _numpy_ctypeslib.ndpointer(dtype, ndim, shape, flags)
    ours = _pointer_types.get(base)
    if ours is None:

        def from_param(cls, obj):
            return base.from_param.__func__(cls, _buffer(obj, "an ndpointer argument"))

        namespace = {"from_param": classmethod(from_param), "__module__": __name__}
        if hasattr(base, "contents"):  # dtype and shape known: a restype gives an array
            namespace["contents"] = property(lambda self: wrap(base.contents.fget(self)))
        ours = _pointer_types[base] = type(base.__name__, (base,), namespace)
    return ours
