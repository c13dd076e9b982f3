"""NumPy-style docstrings of the functions of _manipulation.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "broadcast_arrays": """\
Broadcast any number of arrays against each other.

Parameters
----------
*args : array_likes
    The arrays to broadcast.
subok : bool, optional
    Accepted for compatibility; arraystack has no array subclasses.

Returns
-------
broadcasted : tuple of arrays
    The broadcast arrays; an input that already has the common shape is returned as it is.

See Also
--------
numpy.broadcast_arrays : The NumPy function this mirrors.
broadcast_to, broadcast_shapes

Notes
-----
Broadcast results are read-only views; NumPy's are writable with a deprecation warning.
""",
    "broadcast_shapes": """\
Broadcast the input shapes into a single shape.

Parameters
----------
*args : tuples of ints, or ints
    The shapes to be broadcast against each other.

Returns
-------
tuple
    Broadcasted shape.

See Also
--------
numpy.broadcast_shapes : The NumPy function this mirrors.
broadcast_arrays, broadcast_to
""",
    "broadcast_to": """\
Broadcast an array to a new shape.

Parameters
----------
array : array_like
    The array to broadcast.
shape : tuple or int
    The shape of the desired array; a single integer ``i`` is interpreted as ``(i,)``.
subok : bool, optional
    Accepted for compatibility; arraystack has no array subclasses.

Returns
-------
broadcast : array
    A read-only view on the original array with the given shape (eagerly); traced, a broadcast
    value.

See Also
--------
numpy.broadcast_to : The NumPy function this mirrors.
broadcast_arrays, broadcast_shapes
""",
    "concatenate": """\
Join a sequence of arrays along an existing axis.

Parameters
----------
arrays : sequence of array_like
    The arrays must have the same shape, except in the dimension corresponding to `axis`.
axis : int, optional
    The axis along which the arrays will be joined; None flattens them first. Default is 0.
out : ndarray, optional
    If provided, the destination to place the result; cannot be given with `dtype`.
dtype : str or dtype
    If provided, the destination array will have this dtype; cannot be given with `out`.
casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
    Controls what kind of data casting may occur; 'same_kind' by default.

Returns
-------
res : ndarray
    The concatenated array.

See Also
--------
numpy.concatenate : The NumPy function this mirrors.
stack, hstack, vstack, dstack, column_stack, split

Notes
-----
`concat` (the Array API's name) is an alias.
""",
    "expand_dims": """\
Expand the shape of an array: insert new axes of length one.

Parameters
----------
a : array_like
    Input array.
axis : int or tuple of ints
    Position(s) in the expanded axes where the new axis (or axes) is placed.

Returns
-------
result : ndarray
    `a` with the number of dimensions increased.

See Also
--------
numpy.expand_dims : The NumPy function this mirrors.
squeeze, reshape, atleast_1d

Notes
-----
Eagerly the result is a view of `a` where NumPy's is (writes go through); traced, it is a new value.
""",
    "matrix_transpose": """\
Transposes a matrix (or a stack of matrices): swaps the last two axes.

Parameters
----------
x : array_like
    Input array with ``x.ndim >= 2``.

Returns
-------
out : ndarray
    An array with the last two axes interchanged.

See Also
--------
numpy.matrix_transpose : The NumPy function this mirrors.
transpose, swapaxes, ndarray.mT
""",
    "moveaxis": """\
Move axes of an array to new positions; other axes remain in their original order.

Parameters
----------
a : array_like
    Input array.
source : int or sequence of int
    Original positions of the axes to move; these must be unique.
destination : int or sequence of int
    Destination positions for each of the original axes; these must also be unique.

Returns
-------
result : ndarray
    Array with moved axes.

See Also
--------
numpy.moveaxis : The NumPy function this mirrors.
transpose, swapaxes

Notes
-----
Eagerly the result is a view of `a` where NumPy's is (writes go through); traced, it is a new value.
""",
    "ravel": """\
Return a contiguous flattened array.

Parameters
----------
a : array_like
    Input array.
order : {'C', 'F', 'A', 'K'}, optional
    The order in which the elements are read; 'C' (row-major) by default.

Returns
-------
y : ndarray
    A 1-D array of the elements of `a`: a view when possible (eagerly), else a copy.

See Also
--------
numpy.ravel : The NumPy function this mirrors.
reshape, ndarray.flatten, ndarray.ravel
""",
    "reshape": """\
Gives a new shape to an array without changing its data.

Parameters
----------
a : array_like
    Input array.
shape : int or tuple of ints
    The new shape, compatible with the original one; one dimension may be -1, inferred from the
    size.
order : {'C', 'F', 'A'}, optional
    Read and place the elements in this index order; 'C' by default.
copy : bool, optional
    If True, the data is copied; if False, a needed copy raises ValueError; if None (default), copy
    only when needed.

Returns
-------
reshaped_array : ndarray
    A view of `a` when possible (eagerly), else a copy.

See Also
--------
numpy.reshape : The NumPy function this mirrors.
ravel, ndarray.reshape, expand_dims, squeeze
""",
    "squeeze": """\
Remove axes of length one from `a`.

Parameters
----------
a : array_like
    Input array.
axis : None or int or tuple of ints, optional
    Selects a subset of the length-one axes; selecting an axis of another length raises ValueError.

Returns
-------
squeezed : ndarray
    The input array with the length-one dimensions removed.

See Also
--------
numpy.squeeze : The NumPy function this mirrors.
expand_dims, reshape

Notes
-----
Eagerly the result is a view of `a` where NumPy's is (writes go through); traced, it is a new value.
""",
    "stack": """\
Join a sequence of arrays along a new axis.

Parameters
----------
arrays : sequence of array_like
    Each array must have the same shape.
axis : int, optional
    The axis in the result array along which the input arrays are stacked.
out : ndarray, optional
    If provided, the destination to place the result.
dtype : str or dtype
    If provided, the destination array will have this dtype; cannot be given with `out`.
casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
    Controls what kind of data casting may occur; 'same_kind' by default.

Returns
-------
stacked : ndarray
    The stacked array has one more dimension than the input arrays.

See Also
--------
numpy.stack : The NumPy function this mirrors.
concatenate, unstack, hstack, vstack, dstack
""",
    "swapaxes": """\
Interchange two axes of an array.

Parameters
----------
a : array_like
    Input array.
axis1 : int
    First axis.
axis2 : int
    Second axis.

Returns
-------
a_swapped : ndarray
    `a` with the two axes interchanged.

See Also
--------
numpy.swapaxes : The NumPy function this mirrors.
transpose, moveaxis, ndarray.swapaxes

Notes
-----
Eagerly the result is a view of `a` where NumPy's is (writes go through); traced, it is a new value.
""",
    "transpose": """\
Returns an array with axes transposed.

Parameters
----------
a : array_like
    Input array.
axes : tuple or list of ints, optional
    A permutation of ``[0, 1, ..., N-1]``; by default, the axes are reversed.

Returns
-------
p : ndarray
    `a` with its axes permuted.

See Also
--------
numpy.transpose : The NumPy function this mirrors.
moveaxis, swapaxes, matrix_transpose, ndarray.T, ndarray.transpose

Notes
-----
Eagerly the result is a view of `a` where NumPy's is (writes go through); traced, it is a new value.
`permute_dims` (the Array API's name) is an alias.
""",
}
