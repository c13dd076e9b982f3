"""NumPy-style docstrings of the functions of _reductions_nan.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "nanargmax": """\
Return the indices of the maximum values in the specified axis ignoring NaNs.

Parameters
----------
a : array_like
    Input array.
axis : int, optional
    Axis along which to operate; by default the flattened input.
out : array, optional
    If provided, the result is written into it.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.

Returns
-------
index_array : ndarray
    An array of indices.

See Also
--------
numpy.nanargmax : The NumPy function this mirrors.
argmax, nanargmin, nanmax

Notes
-----
An all-NaN slice raises ValueError, as in NumPy; traced, it cannot raise (the trace does not see
data) and its index is 0.
""",
    "nanargmin": """\
Return the indices of the minimum values in the specified axis ignoring NaNs.

Parameters
----------
a : array_like
    Input array.
axis : int, optional
    Axis along which to operate; by default the flattened input.
out : array, optional
    If provided, the result is written into it.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.

Returns
-------
index_array : ndarray
    An array of indices.

See Also
--------
numpy.nanargmin : The NumPy function this mirrors.
argmin, nanargmax, nanmin

Notes
-----
An all-NaN slice raises ValueError, as in NumPy; traced, it cannot raise (the trace does not see
data) and its index is 0.
""",
    "nancumprod": """\
Return the cumulative product of array elements over a given axis treating NaNs as one.

Parameters
----------
a : array_like
    Input array.
axis : int, optional
    Axis along which the cumulation is computed; by default the flattened array.
dtype : data-type, optional
    The desired data-type of the result. By default it is inferred from the input, as in NumPy.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.

Returns
-------
nancumprod : ndarray
    The cumulative products.

See Also
--------
numpy.nancumprod : The NumPy function this mirrors.
cumprod, nanprod
""",
    "nancumsum": """\
Return the cumulative sum of array elements over a given axis treating NaNs as zero.

Parameters
----------
a : array_like
    Input array.
axis : int, optional
    Axis along which the cumulation is computed; by default the flattened array.
dtype : data-type, optional
    The desired data-type of the result. By default it is inferred from the input, as in NumPy.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.

Returns
-------
nancumsum : ndarray
    The cumulative sums.

See Also
--------
numpy.nancumsum : The NumPy function this mirrors.
cumsum, nansum
""",
    "nanmax": """\
Return the maximum of an array or maximum along an axis, ignoring any NaNs.

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
    The minimum value of an output element; needed for empty slices.
where : array_like of bool, optional
    Elements to include in the operation.

Returns
-------
nanmax : ndarray
    The maximum, with the specified axes removed.

See Also
--------
numpy.nanmax : The NumPy function this mirrors.
nanmin, amax, fmax

Notes
-----
An all-NaN slice gives NaN with a RuntimeWarning, as in NumPy.
""",
    "nanmean": """\
Compute the arithmetic mean along the specified axis, ignoring NaNs.

Parameters
----------
a : array_like
    Input array.
axis : int or tuple of ints, optional
    Axis or axes along which to operate. By default (None) the flattened array is used.
dtype : data-type, optional
    The desired data-type of the result. By default it is inferred from the input, as in NumPy.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
where : array_like of bool, optional
    Elements to include in the operation.

Returns
-------
m : ndarray
    The mean of the non-NaN elements.

See Also
--------
numpy.nanmean : The NumPy function this mirrors.
mean, nanvar, nanstd

Notes
-----
An all-NaN slice gives NaN with a RuntimeWarning, as in NumPy.
""",
    "nanmin": """\
Return minimum of an array or minimum along an axis, ignoring any NaNs.

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
    The maximum value of an output element; needed for empty slices.
where : array_like of bool, optional
    Elements to include in the operation.

Returns
-------
nanmin : ndarray
    The minimum, with the specified axes removed.

See Also
--------
numpy.nanmin : The NumPy function this mirrors.
nanmax, amin, fmin

Notes
-----
An all-NaN slice gives NaN with a RuntimeWarning, as in NumPy.
""",
    "nanprod": """\
Return the product of array elements over a given axis treating NaNs as ones.

Parameters
----------
a : array_like
    Input array.
axis : int or tuple of ints, optional
    Axis or axes along which to operate. By default (None) the flattened array is used.
dtype : data-type, optional
    The desired data-type of the result. By default it is inferred from the input, as in NumPy.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
initial : scalar, optional
    The starting value of the reduction.
where : array_like of bool, optional
    Elements to include in the operation.

Returns
-------
nanprod : ndarray
    The product.

See Also
--------
numpy.nanprod : The NumPy function this mirrors.
prod, nancumprod
""",
    "nanstd": """\
Compute the standard deviation along the specified axis, while ignoring NaNs.

Parameters
----------
a : array_like
    Input array.
axis : int or tuple of ints, optional
    Axis or axes along which to operate. By default (None) the flattened array is used.
dtype : data-type, optional
    The desired data-type of the result. By default it is inferred from the input, as in NumPy.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
ddof : {int, float}, optional
    Delta degrees of freedom: the divisor is ``N - ddof``, N the number of non-NaN elements.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
where : array_like of bool, optional
    Elements to include in the operation.
mean : array_like, optional
    A precomputed mean (with ``keepdims=True`` shape) to use instead of computing it.
correction : {int, float}, optional
    Array API name for `ddof`; only one of them may be given.

Returns
-------
standard_deviation : ndarray
    The standard deviation of the non-NaN elements.

See Also
--------
numpy.nanstd : The NumPy function this mirrors.
std, nanvar, nanmean

Notes
-----
An all-NaN slice gives NaN with a RuntimeWarning, as in NumPy.
""",
    "nansum": """\
Return the sum of array elements over a given axis treating NaNs as zero.

Parameters
----------
a : array_like
    Input array.
axis : int or tuple of ints, optional
    Axis or axes along which to operate. By default (None) the flattened array is used.
dtype : data-type, optional
    The desired data-type of the result. By default it is inferred from the input, as in NumPy.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
initial : scalar, optional
    The starting value of the reduction.
where : array_like of bool, optional
    Elements to include in the operation.

Returns
-------
nansum : ndarray
    The sum.

See Also
--------
numpy.nansum : The NumPy function this mirrors.
sum, nancumsum
""",
    "nanvar": """\
Compute the variance along the specified axis, while ignoring NaNs.

Parameters
----------
a : array_like
    Input array.
axis : int or tuple of ints, optional
    Axis or axes along which to operate. By default (None) the flattened array is used.
dtype : data-type, optional
    The desired data-type of the result. By default it is inferred from the input, as in NumPy.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
ddof : {int, float}, optional
    Delta degrees of freedom: the divisor is ``N - ddof``, N the number of non-NaN elements.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
where : array_like of bool, optional
    Elements to include in the operation.
mean : array_like, optional
    A precomputed mean (with ``keepdims=True`` shape) to use instead of computing it.
correction : {int, float}, optional
    Array API name for `ddof`; only one of them may be given.

Returns
-------
variance : ndarray
    The variance of the non-NaN elements.

See Also
--------
numpy.nanvar : The NumPy function this mirrors.
var, nanstd, nanmean

Notes
-----
An all-NaN slice gives NaN with a RuntimeWarning, as in NumPy.
""",
}
