"""NumPy-style docstrings of the functions of _creation_filled.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "empty": """\
Return a new array of given shape and type (zero-filled in arraystack).

Parameters
----------
shape : int or sequence of ints
    Shape of the new array, e.g. ``(2, 3)`` or ``2``.
dtype : data-type, optional
    The desired data-type of the result. By default it is inferred from the input, as in NumPy.
order : {'C', 'F'}, optional
    Whether to store multi-dimensional data in row-major (C-style) or column-major (Fortran-style)
    order in memory.
device : str or Device, optional
    The device on which to place the created array (Array API); 'cpu' or None.
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

Returns
-------
out : ndarray
    Array of zeros with the given shape, dtype, and order.

See Also
--------
numpy.empty : The NumPy function this mirrors.
empty_like, zeros, ones, full

Notes
-----
arraystack zero-fills, so the contents are deterministic (NumPy leaves them uninitialized).
""",
    "empty_like": """\
Return a new array with the same shape and type as a given array (zero-filled in arraystack).

Parameters
----------
prototype : array_like
    The shape and data-type of `prototype` define these same attributes of the returned array.
dtype : data-type, optional
    Overrides the data type of the result.
order : {'C', 'F', 'A', 'K'}, optional
    Overrides the memory layout of the result; 'K' matches `a`'s layout as closely as possible.
subok : bool, optional
    Accepted for compatibility; arraystack has no array subclasses.
shape : int or sequence of ints, optional
    Overrides the shape of the result.
device : str or Device, optional
    The device on which to place the created array (Array API); 'cpu' or None.

Returns
-------
out : ndarray
    Array of zeros with the same shape and type as `prototype`.

See Also
--------
numpy.empty_like : The NumPy function this mirrors.
empty, zeros_like, ones_like, full_like

Notes
-----
arraystack zero-fills, so the contents are deterministic (NumPy leaves them uninitialized).
""",
    "full": """\
Return a new array of given shape and type, filled with `fill_value`.

Parameters
----------
shape : int or sequence of ints
    Shape of the new array, e.g. ``(2, 3)`` or ``2``.
fill_value : scalar or array_like
    Fill value.
dtype : data-type, optional
    The desired data-type for the array; by default that of `fill_value`, as in NumPy.
order : {'C', 'F'}, optional
    Whether to store multi-dimensional data in row-major (C-style) or column-major (Fortran-style)
    order in memory.
device : str or Device, optional
    The device on which to place the created array (Array API); 'cpu' or None.
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

Returns
-------
out : ndarray
    Array of `fill_value` with the given shape, dtype, and order.

See Also
--------
numpy.full : The NumPy function this mirrors.
full_like, zeros, ones, empty
""",
    "full_like": """\
Return a full array with the same shape and type as a given array.

Parameters
----------
a : array_like
    The shape and data-type of `a` define these same attributes of the returned array.
fill_value : array_like
    Fill value, cast to the result dtype (unsafe casting, as in NumPy).
dtype : data-type, optional
    Overrides the data type of the result.
order : {'C', 'F', 'A', 'K'}, optional
    Overrides the memory layout of the result; 'K' matches `a`'s layout as closely as possible.
subok : bool, optional
    Accepted for compatibility; arraystack has no array subclasses.
shape : int or sequence of ints, optional
    Overrides the shape of the result.
device : str or Device, optional
    The device on which to place the created array (Array API); 'cpu' or None.

Returns
-------
out : ndarray
    Array of `fill_value` with the same shape and type as `a`.

See Also
--------
numpy.full_like : The NumPy function this mirrors.
full, zeros_like, ones_like, empty_like
""",
    "ones": """\
Return a new array of given shape and type, filled with ones.

Parameters
----------
shape : int or sequence of ints
    Shape of the new array, e.g. ``(2, 3)`` or ``2``.
dtype : data-type, optional
    The desired data-type for the array; default float64.
order : {'C', 'F'}, optional
    Whether to store multi-dimensional data in row-major (C-style) or column-major (Fortran-style)
    order in memory.
device : str or Device, optional
    The device on which to place the created array (Array API); 'cpu' or None.
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

Returns
-------
out : ndarray
    Array of ones with the given shape, dtype, and order.

See Also
--------
numpy.ones : The NumPy function this mirrors.
ones_like, zeros, full, empty
""",
    "ones_like": """\
Return an array of ones with the same shape and type as a given array.

Parameters
----------
a : array_like
    The shape and data-type of `a` define these same attributes of the returned array.
dtype : data-type, optional
    Overrides the data type of the result.
order : {'C', 'F', 'A', 'K'}, optional
    Overrides the memory layout of the result; 'K' matches `a`'s layout as closely as possible.
subok : bool, optional
    Accepted for compatibility; arraystack has no array subclasses.
shape : int or sequence of ints, optional
    Overrides the shape of the result.
device : str or Device, optional
    The device on which to place the created array (Array API); 'cpu' or None.

Returns
-------
out : ndarray
    Array of ones with the same shape and type as `a`.

See Also
--------
numpy.ones_like : The NumPy function this mirrors.
ones, zeros_like, full_like, empty_like
""",
    "zeros": """\
Return a new array of given shape and type, filled with zeros.

Parameters
----------
shape : int or sequence of ints
    Shape of the new array, e.g. ``(2, 3)`` or ``2``.
dtype : data-type, optional
    The desired data-type for the array; default float64.
order : {'C', 'F'}, optional
    Whether to store multi-dimensional data in row-major (C-style) or column-major (Fortran-style)
    order in memory.
device : str or Device, optional
    The device on which to place the created array (Array API); 'cpu' or None.
like : array_like, optional
    Accepted for NumPy compatibility (NEP 35); arraystack always creates an arraystack array.

Returns
-------
out : ndarray
    Array of zeros with the given shape, dtype, and order.

See Also
--------
numpy.zeros : The NumPy function this mirrors.
zeros_like, ones, full, empty
""",
    "zeros_like": """\
Return an array of zeros with the same shape and type as a given array.

Parameters
----------
a : array_like
    The shape and data-type of `a` define these same attributes of the returned array.
dtype : data-type, optional
    Overrides the data type of the result.
order : {'C', 'F', 'A', 'K'}, optional
    Overrides the memory layout of the result; 'K' matches `a`'s layout as closely as possible.
subok : bool, optional
    Accepted for compatibility; arraystack has no array subclasses.
shape : int or sequence of ints, optional
    Overrides the shape of the result.
device : str or Device, optional
    The device on which to place the created array (Array API); 'cpu' or None.

Returns
-------
out : ndarray
    Array of zeros with the same shape and type as `a`.

See Also
--------
numpy.zeros_like : The NumPy function this mirrors.
zeros, ones_like, full_like, empty_like
""",
}
