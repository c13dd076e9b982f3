"""NumPy-style docstrings of the functions of _reductions.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "all": """\
Test whether all array elements along a given axis evaluate to True.

Parameters
----------
a : array_like
    Input array.
axis : int or tuple of ints, optional
    Axis or axes along which to operate. By default (None) the flattened array is used.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
where : array_like of bool, optional
    Elements to include in the reduction.

Returns
-------
all : ndarray, bool
    A new boolean array (or `out`) with the reduced axes removed.

See Also
--------
numpy.all : The NumPy function this mirrors.
any, ndarray.all
""",
    "any": """\
Test whether any array element along a given axis evaluates to True.

Parameters
----------
a : array_like
    Input array.
axis : int or tuple of ints, optional
    Axis or axes along which to operate. By default (None) the flattened array is used.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
where : array_like of bool, optional
    Elements to include in the reduction.

Returns
-------
any : ndarray, bool
    A new boolean array (or `out`) with the reduced axes removed.

See Also
--------
numpy.any : The NumPy function this mirrors.
all, ndarray.any
""",
    "argmax": """\
Returns the indices of the maximum values along an axis.

Parameters
----------
a : array_like
    Input array.
axis : int, optional
    By default, the index is into the flattened array, otherwise along the specified axis.
out : array, optional
    If provided, the result will be inserted into this array; it should be of the appropriate shape
    and dtype.
keepdims : bool, optional
    If True, the reduced axis is left in the result as a dimension of size one.

Returns
-------
index_array : ndarray of ints
    Array of indices into the array, with the shape of `a` without `axis`.

See Also
--------
numpy.argmax : The NumPy function this mirrors.
argmin, amax, nanargmax, take_along_axis, ndarray.argmax

Notes
-----
The first maximum wins; a NaN counts as the maximum, as in NumPy.
""",
    "argmin": """\
Returns the indices of the minimum values along an axis.

Parameters
----------
a : array_like
    Input array.
axis : int, optional
    By default, the index is into the flattened array, otherwise along the specified axis.
out : array, optional
    If provided, the result will be inserted into this array; it should be of the appropriate shape
    and dtype.
keepdims : bool, optional
    If True, the reduced axis is left in the result as a dimension of size one.

Returns
-------
index_array : ndarray of ints
    Array of indices into the array, with the shape of `a` without `axis`.

See Also
--------
numpy.argmin : The NumPy function this mirrors.
argmax, amin, nanargmin, take_along_axis, ndarray.argmin

Notes
-----
The first minimum wins; a NaN counts as the minimum, as in NumPy.
""",
    "count_nonzero": """\
Counts the number of non-zero values in the array a.

Parameters
----------
a : array_like
    Input array.
axis : int or tuple, optional
    Axis or tuple of axes along which to count non-zeros; by default all of them.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.

Returns
-------
count : ndarray of int
    Number of non-zero values in the array along the given axis (a 0-d array without `axis`).

See Also
--------
numpy.count_nonzero : The NumPy function this mirrors.
nonzero, sum
""",
    "max": """\
Return the maximum of an array or maximum along an axis.

Parameters
----------
a : array_like
    Input array.
axis : int or tuple of ints, optional
    Axis or axes along which to operate. By default (None) the flattened array is used.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
initial : scalar, optional
    The minimum value of an output element; needed for an empty reduction.
where : array_like of bool, optional
    Elements to compare for the maximum; needs `initial`.

Returns
-------
max : ndarray
    Maximum of `a`, with the reduced axes removed.

See Also
--------
numpy.max : The NumPy function this mirrors.
min, maximum, fmax, nanmax, argmax, ndarray.max

Notes
-----
NaN propagates, as in NumPy. `amax` is an alias.
""",
    "min": """\
Return the minimum of an array or minimum along an axis.

Parameters
----------
a : array_like
    Input array.
axis : int or tuple of ints, optional
    Axis or axes along which to operate. By default (None) the flattened array is used.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
initial : scalar, optional
    The maximum value of an output element; needed for an empty reduction.
where : array_like of bool, optional
    Elements to compare for the minimum; needs `initial`.

Returns
-------
min : ndarray
    Minimum of `a`, with the reduced axes removed.

See Also
--------
numpy.min : The NumPy function this mirrors.
max, minimum, fmin, nanmin, argmin, ndarray.min

Notes
-----
NaN propagates, as in NumPy. `amin` is an alias.
""",
    "prod": """\
Return the product of array elements over a given axis.

Parameters
----------
a : array_like
    Input array.
axis : int or tuple of ints, optional
    Axis or axes along which to operate. By default (None) the flattened array is used.
dtype : dtype, optional
    The type of the returned array and of the accumulator; by default that of `a`, with small
    integers promoted to the platform integer, as in NumPy.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
initial : scalar, optional
    The starting value for this product.
where : array_like of bool, optional
    Elements to include in the product.

Returns
-------
product_along_axis : ndarray
    The product, with the reduced axes removed (or `out`).

See Also
--------
numpy.prod : The NumPy function this mirrors.
sum, cumprod, nanprod, ndarray.prod
""",
    "ptp": """\
Range of values (maximum - minimum) along an axis.

Parameters
----------
a : array_like
    Input array.
axis : None or int or tuple of ints, optional
    Axis along which to find the peaks; by default the flattened array.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.

Returns
-------
ptp : ndarray
    The range of `a` along the given axis.

See Also
--------
numpy.ptp : The NumPy function this mirrors.
max, min

Notes
-----
Computed in the array's dtype, so signed integers wrap around, as in NumPy.
""",
    "sum": """\
Sum of array elements over a given axis.

Parameters
----------
a : array_like
    Input array.
axis : int or tuple of ints, optional
    Axis or axes along which to operate. By default (None) the flattened array is used.
dtype : dtype, optional
    The type of the returned array and of the accumulator; by default that of `a`, with small
    integers promoted to the platform integer, as in NumPy.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
initial : scalar, optional
    Starting value for the sum.
where : array_like of bool, optional
    Elements to include in the sum.

Returns
-------
sum_along_axis : ndarray
    The sum, with the reduced axes removed (or `out`).

See Also
--------
numpy.sum : The NumPy function this mirrors.
prod, mean, cumsum, nansum, ndarray.sum
""",
}
