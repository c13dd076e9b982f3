"""NumPy-style docstrings of the functions of _index_tricks.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "diag_indices": """\
Return the indices to access the main diagonal of an array.

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
""",
    "diag_indices_from": """\
Return the indices to access the main diagonal of an n-dimensional array.

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
""",
    "diagonal": """\
Return specified diagonals.

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
""",
    "ix_": """\
Construct an open mesh from multiple sequences.

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
""",
    "ravel_multi_index": """\
Converts a tuple of index arrays into an array of flat indices.

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
""",
    "trace": """\
Return the sum along diagonals of the array.

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
""",
    "tril_indices": """\
Return the indices for the lower-triangle of an (n, m) array.

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
""",
    "tril_indices_from": """\
Return the indices for the lower-triangle of arr.

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
""",
    "triu_indices": """\
Return the indices for the upper-triangle of an (n, m) array.

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
""",
    "triu_indices_from": """\
Return the indices for the upper-triangle of arr.

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
""",
    "unravel_index": """\
Converts a flat index or array of flat indices into a tuple of coordinate arrays.

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
""",
    "_diagonal_method": """\
Return specified diagonals.

Refer to `arraystack.diagonal` for full documentation.

Parameters
----------
offset : int, optional
    Offset of the diagonal from the main diagonal.
axis1 : int, optional
    First axis of the 2-D sub-arrays.
axis2 : int, optional
    Second axis of the 2-D sub-arrays.

Returns
-------
array_of_diagonals : ndarray
    The diagonals, along a new last axis.

See Also
--------
numpy.ndarray.diagonal : The NumPy method this mirrors.
arraystack.diagonal : The equivalent function.
""",
    "_trace_method": """\
Return the sum along diagonals of the array.

Refer to `arraystack.trace` for full documentation.

Parameters
----------
offset : int, optional
    Offset of the diagonal from the main diagonal.
axis1 : int, optional
    First axis of the 2-D sub-arrays.
axis2 : int, optional
    Second axis of the 2-D sub-arrays.
dtype : data-type, optional
    The desired data-type of the result. By default it is inferred from the input, as in NumPy.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.

Returns
-------
sum_along_diagonals : ndarray
    The sum of the diagonals.

See Also
--------
numpy.ndarray.trace : The NumPy method this mirrors.
arraystack.trace : The equivalent function.
""",
}
