"""NumPy-style docstrings of the functions of _creation.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "array": """\
Create an array.

Parameters
----------
object : array_like
    An array, any object exposing the array interface, an object whose ``__array__`` method returns
    an array, or any (nested) sequence; a scalar gives a 0-d array.
dtype : data-type, optional
    The desired data-type for the array; by default, the smallest type that can hold the values, as
    in NumPy.
copy : bool, optional
    If True (default), the array is copied; if None, a copy is made only when needed; if False, a
    needed copy raises ValueError.
order : {'K', 'A', 'C', 'F'}, optional
    Specify the memory layout of the array.
subok : bool, optional
    Accepted for compatibility; arraystack has no array subclasses.
ndmin : int, optional
    The minimum number of dimensions; ones are prepended to the shape as needed.
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

Returns
-------
out : ndarray
    An array object satisfying the specified requirements.

See Also
--------
numpy.array : The NumPy function this mirrors.
asarray, asanyarray, copy, empty_like, zeros_like, ones_like, full_like

Notes
-----
Traced values have no memory layout: `order` is ignored for them.
""",
    "asanyarray": """\
Convert the input to an ndarray, but pass ndarray subclasses through.

Parameters
----------
a : array_like
    Input data, in any form that can be converted to an array.
dtype : data-type, optional
    The desired data-type of the result. By default it is inferred from the input, as in NumPy.
order : {'C', 'F', 'A', 'K'}, optional
    Memory layout; 'K' (default) keeps the input's.
device : str or Device, optional
    The device on which to place the created array (Array API); 'cpu' or None.
copy : bool, optional
    If True, always copy; if False, never copy (raise if a copy is needed); if None, copy only when
    needed.
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

Returns
-------
out : ndarray
    Array interpretation of `a`; `a` itself if it is already an arraystack array of the right dtype.

See Also
--------
numpy.asanyarray : The NumPy function this mirrors.
asarray, array

Notes
-----
arraystack has no array subclasses, so this is `asarray`.
""",
    "asarray": """\
Convert the input to an array.

Parameters
----------
a : array_like
    Input data, in any form that can be converted to an array: lists, tuples, NumPy arrays, scalars,
    objects with ``__array__`` or ``__dlpack__``.
dtype : data-type, optional
    The desired data-type of the result. By default it is inferred from the input, as in NumPy.
order : {'C', 'F', 'A', 'K'}, optional
    Memory layout; 'K' (default) keeps the input's.
device : str or Device, optional
    The device on which to place the created array (Array API); 'cpu' or None.
copy : bool, optional
    If True, always copy; if False, never copy (raise if a copy is needed); if None, copy only when
    needed.
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

Returns
-------
out : ndarray
    Array interpretation of `a`. No copy is made if the input is already an arraystack array with
    matching dtype and order.

See Also
--------
numpy.asarray : The NumPy function this mirrors.
array, asanyarray, ascontiguousarray, from_dlpack, frombuffer

Notes
-----
Traced values have no memory layout, so `order` is ignored for them and ``copy=False`` only refuses
a dtype change.
""",
    "ascontiguousarray": """\
Return a contiguous array (ndim >= 1) in memory (C order).

Parameters
----------
a : array_like
    Input array.
dtype : str or dtype object, optional
    Data-type of returned array.
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

Returns
-------
out : ndarray
    Contiguous array of the same shape and content as `a`, with dtype `dtype` if specified.

See Also
--------
numpy.ascontiguousarray : The NumPy function this mirrors.
asfortranarray, asarray

Notes
-----
As in NumPy, the result has at least one dimension.
""",
    "asfortranarray": """\
Return an array (ndim >= 1) laid out in Fortran order in memory.

Parameters
----------
a : array_like
    Input array.
dtype : str or dtype object, optional
    By default, the data-type is inferred from the input data.
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

Returns
-------
out : ndarray
    The input `a` in Fortran, or column-major, order.

See Also
--------
numpy.asfortranarray : The NumPy function this mirrors.
ascontiguousarray, asarray

Notes
-----
As in NumPy, the result has at least one dimension.
""",
    "astype": """\
Copies an array to a specified data type (the Array API's function form of ndarray.astype).

Parameters
----------
x : ndarray
    Input array to cast.
dtype : dtype
    Data type of the result.
order : {'C', 'F', 'A', 'K'}, optional
    Memory layout of the result.
casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
    Controls what kind of data casting may occur; 'unsafe' by default.
copy : bool, optional
    If False and the dtype already matches, the input is returned without a copy.
device : str or Device, optional
    The device on which to place the created array (Array API); 'cpu' or None.

Returns
-------
out : ndarray
    An array having the specified data type.

See Also
--------
numpy.astype : The NumPy function this mirrors.
ndarray.astype, can_cast, result_type
""",
    "copy": """\
Return an array copy of the given object.

Parameters
----------
a : array_like
    Input data.
order : {'C', 'F', 'A', 'K'}, optional
    Controls the memory layout of the copy; 'K' matches `a` as closely as possible.
subok : bool, optional
    Accepted for compatibility; arraystack has no array subclasses.

Returns
-------
arr : ndarray
    Array interpretation of `a`.

See Also
--------
numpy.copy : The NumPy function this mirrors.
array, ndarray.copy
""",
    "frombuffer": """\
Interpret a buffer as a 1-dimensional array.

Parameters
----------
buffer : buffer_like
    An object that exposes the buffer interface.
dtype : data-type, optional
    Data-type of the returned array; default: float.
count : int, optional
    Number of items to read; -1 means all data in the buffer.
offset : int, optional
    Start reading the buffer from this offset (in bytes); default: 0.
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

Returns
-------
out : ndarray
    A view of the buffer (read-only for immutable buffers such as bytes).

See Also
--------
numpy.frombuffer : The NumPy function this mirrors.
fromstring, fromfile, asarray
""",
}
