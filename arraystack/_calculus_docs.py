"""NumPy-style docstrings of the functions of _calculus.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "convolve": """\
Return the discrete, linear convolution of two one-dimensional sequences.

Parameters
----------
a : array_like
    First one-dimensional input array.
v : array_like
    Second one-dimensional input array.
mode : {'full', 'valid', 'same'}, optional
    'full' (default) gives every overlap, length ``N + M - 1``; 'same' the length ``max(M, N)``;
    'valid' only the full overlaps, length ``max(M, N) - min(M, N) + 1``.

Returns
-------
out : ndarray
    Discrete, linear convolution of `a` and `v`.

See Also
--------
numpy.convolve : The NumPy function this mirrors.
correlate, polymul
""",
    "correlate": """\
Cross-correlation of two one-dimensional sequences.

Computes ``c[k] = sum_n a[n + k] * conj(v[n])``.

Parameters
----------
a : array_like
    First one-dimensional input sequence.
v : array_like
    Second one-dimensional input sequence.
mode : {'valid', 'same', 'full'}, optional
    As in `convolve`; the default is 'valid'.

Returns
-------
out : ndarray
    Discrete cross-correlation of `a` and `v`.

See Also
--------
numpy.correlate : The NumPy function this mirrors.
convolve
""",
    "cross": """\
Return the cross product of two (arrays of) vectors.

Parameters
----------
a : array_like
    Components of the first vector(s).
b : array_like
    Components of the second vector(s).
axisa : int, optional
    Axis of `a` that defines the vector(s). By default, the last axis.
axisb : int, optional
    Axis of `b` that defines the vector(s). By default, the last axis.
axisc : int, optional
    Axis of the result containing the cross product vector(s); ignored for 2-element vectors.
axis : int, optional
    If defined, the axis of `a`, `b` and the result, overriding `axisa`, `axisb` and `axisc`.

Returns
-------
out : ndarray
    Vector cross product(s).

See Also
--------
numpy.cross : The NumPy function this mirrors.
inner, outer

Notes
-----
As in NumPy 2, 2-element vectors emit a DeprecationWarning.
""",
    "diff": """\
Calculate the n-th discrete difference along the given axis.

Parameters
----------
a : array_like
    Input array.
n : int, optional
    The number of times values are differenced; 0 returns the input.
axis : int, optional
    The axis along which the difference is taken; the last by default.
prepend : array_like, optional
    Values to prepend along `axis` before differencing.
append : array_like, optional
    Values to append along `axis` before differencing.

Returns
-------
out : ndarray
    The n-th differences; the shape is that of `a` with `axis` shorter by `n`.

See Also
--------
numpy.diff : The NumPy function this mirrors.
gradient, ediff1d, cumsum

Notes
-----
Boolean input is differenced with `not_equal`, as in NumPy.
""",
    "ediff1d": """\
The differences between consecutive elements of an array.

Parameters
----------
ary : array_like
    Input array; it is flattened.
to_end : array_like, optional
    Number(s) to append at the end of the differences.
to_begin : array_like, optional
    Number(s) to prepend at the beginning of the differences.

Returns
-------
out : ndarray
    The differences of the flattened input, with the optional ends.

See Also
--------
numpy.ediff1d : The NumPy function this mirrors.
diff, gradient
""",
    "gradient": """\
Return the gradient of an N-dimensional array.

Second-order accurate central differences in the interior and first- or second-order one-sided
differences at the boundaries.

Parameters
----------
f : array_like
    An N-dimensional array of samples of a function.
*varargs : list of scalar or array, optional
    Spacing between `f` values: one scalar for all axes, one scalar per axis, or one array of
    coordinates per axis.
axis : None or int or tuple of ints, optional
    The axis or axes along which the gradient is computed; all by default.
edge_order : {1, 2}, optional
    Accuracy order of the differences at the boundaries.

Returns
-------
gradient : ndarray or tuple of ndarray
    One array per differentiated axis (a single array for one axis).

See Also
--------
numpy.gradient : The NumPy function this mirrors.
diff
""",
    "interp": """\
One-dimensional linear interpolation for monotonically increasing sample points.

Parameters
----------
x : array_like
    The x-coordinates at which to evaluate the interpolated values.
xp : 1-D sequence of floats
    The x-coordinates of the data points, increasing unless `period` is given.
fp : 1-D sequence of float or complex
    The y-coordinates of the data points, same length as `xp`.
left : float or complex, optional
    Value to return for ``x < xp[0]``; default ``fp[0]``.
right : float or complex, optional
    Value to return for ``x > xp[-1]``; default ``fp[-1]``.
period : float, optional
    A period for the x-coordinates; `left` and `right` are then ignored.

Returns
-------
out : ndarray
    The interpolated values, float64 (complex128 for complex `fp`), same shape as `x`.

See Also
--------
numpy.interp : The NumPy function this mirrors.
polyval
""",
    "trapezoid": """\
Integrate along the given axis using the composite trapezoidal rule.

Parameters
----------
y : array_like
    Input array to integrate.
x : array_like, optional
    The sample points corresponding to the `y` values; if None, they are evenly spaced `dx` apart.
dx : scalar, optional
    The spacing between sample points when `x` is None.
axis : int, optional
    The axis along which to integrate.

Returns
-------
trapezoid : ndarray
    Definite integral of `y` approximated by the trapezoidal rule.

See Also
--------
numpy.trapezoid : The NumPy function this mirrors.
cumsum, diff
""",
    "unwrap": """\
Unwrap by taking the complement of large deltas with respect to the period.

Adds multiples of `period` so that consecutive differences are at most ``max(discont, period / 2)``.

Parameters
----------
p : array_like
    Input array.
discont : float, optional
    Maximum discontinuity between values; default ``period / 2``.
axis : int, optional
    Axis along which to unwrap; the last by default.
period : float, optional
    Size of the range over which the input wraps; default ``2 pi``.

Returns
-------
out : ndarray
    Output array.

See Also
--------
numpy.unwrap : The NumPy function this mirrors.
diff
""",
}
