"""NumPy-style docstrings of the functions of _elementwise_functions.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "angle": """\
Return the angle of the complex argument.

Parameters
----------
z : array_like
    A complex number or sequence of complex numbers.
deg : bool, optional
    Return the angle in degrees if True, radians if False (default).

Returns
-------
angle : ndarray
    The counterclockwise angle from the positive real axis, in (-pi, pi].

See Also
--------
numpy.angle : The NumPy function this mirrors.
arctan2, absolute, real, imag
""",
    "clip": """\
Clip (limit) the values in an array.

Parameters
----------
a : array_like
    Input array.
a_min : array_like or None
    Minimum value; None means no lower bound.
a_max : array_like or None
    Maximum value; None means no upper bound.
out : ndarray, optional
    The results are placed in this array.
min : array_like or None
    NumPy 2 name of `a_min`; only one of them may be given.
max : array_like or None
    NumPy 2 name of `a_max`; only one of them may be given.
**kwargs
    The ufunc keywords (`where`, `casting`, `dtype`, ...), as for other ufuncs.

Returns
-------
clipped_array : ndarray
    An array with the elements of `a`, but where values < `a_min` are replaced with `a_min`, and
    those > `a_max` with `a_max`.

See Also
--------
numpy.clip : The NumPy function this mirrors.
minimum, maximum

Notes
-----
Where the value equals a bound of the other zero sign (``clip(-0.0, 0.0, 1.0)``), NumPy's loops
disagree with each other; arraystack keeps the value's sign, as NumPy's scalar-bound loop does.
""",
    "fix": """\
Round to nearest integer towards zero.

Parameters
----------
x : array_like
    An array to be rounded.
out : ndarray, optional
    A location into which the result is stored.

Returns
-------
out : ndarray of floats
    The rounded values, the dtype of `x`.

See Also
--------
numpy.fix : The NumPy function this mirrors.
trunc, floor, ceil, around

Notes
-----
As in NumPy 2, this is `trunc`.
""",
    "imag": """\
Return the imaginary part of the complex argument.

Parameters
----------
val : array_like
    Input array.

Returns
-------
out : ndarray
    The imaginary component of the complex argument; zeros of the input's dtype for real input.

See Also
--------
numpy.imag : The NumPy function this mirrors.
real, angle, ndarray.imag
""",
    "iscomplex": """\
Returns a bool array, where True if input element is complex (nonzero imaginary part).

Parameters
----------
x : array_like
    Input array.

Returns
-------
out : ndarray of bools
    Output array.

See Also
--------
numpy.iscomplex : The NumPy function this mirrors.
isreal, iscomplexobj
""",
    "iscomplexobj": """\
Check for a complex type or an array of complex numbers.

Parameters
----------
x : any
    The input can be of any type and shape.

Returns
-------
iscomplexobj : bool
    True if `x` is of a complex type or has at least one complex element.

See Also
--------
numpy.iscomplexobj : The NumPy function this mirrors.
isrealobj, iscomplex
""",
    "isreal": """\
Returns a bool array, where True if input element is real (zero imaginary part).

Parameters
----------
x : array_like
    Input array.

Returns
-------
out : ndarray, bool
    Boolean array of the same shape as `x`.

See Also
--------
numpy.isreal : The NumPy function this mirrors.
iscomplex, isrealobj
""",
    "isrealobj": """\
Return True if x is a not complex type or an array of complex numbers.

Parameters
----------
x : any
    The input can be of any type and shape.

Returns
-------
y : bool
    The return value, False if `x` is of a complex type.

See Also
--------
numpy.isrealobj : The NumPy function this mirrors.
iscomplexobj, isreal
""",
    "nan_to_num": """\
Replace NaN with zero and infinity with large finite numbers (default behaviour) or with the numbers
defined by the user.

Parameters
----------
x : scalar or array_like
    Input data.
copy : bool, optional
    Whether to create a copy (True, default) or to replace values in place (False).
nan : int, float, optional
    Value to be used to fill NaN values.
posinf : int, float, optional
    Value to fill positive infinity with; by default the largest finite value.
neginf : int, float, optional
    Value to fill negative infinity with; by default the most negative finite value.

Returns
-------
out : ndarray
    `x` with the non-finite values replaced.

See Also
--------
numpy.nan_to_num : The NumPy function this mirrors.
isnan, isinf, isfinite

Notes
-----
With ``copy=False`` an eager `x` is written in place; a traced `x` is rebound (functionalized).
""",
    "real": """\
Return the real part of the complex argument.

Parameters
----------
val : array_like
    Input array.

Returns
-------
out : ndarray
    The real component: a view of a complex array (eagerly), else the array itself.

See Also
--------
numpy.real : The NumPy function this mirrors.
imag, angle, ndarray.real
""",
    "round": """\
Evenly round to the given number of decimals.

Parameters
----------
a : array_like
    Input array.
decimals : int, optional
    Number of decimal places to round to; negative values round to the left of the decimal point.
out : ndarray, optional
    Alternative output array in which to place the result.

Returns
-------
rounded_array : ndarray
    An array of the same type as `a`, containing the rounded values.

See Also
--------
numpy.round : The NumPy function this mirrors.
around, rint, fix, ceil, floor, trunc, ndarray.round

Notes
-----
As NumPy's PyArray_Round: ``x * 10**d``, rint, ``/ 10**d``, with the parts of complex numbers
rounded separately. `around` is an alias.
""",
    "where": """\
Return elements chosen from `x` or `y` depending on `condition`.

Parameters
----------
condition : array_like, bool
    Where True, yield `x`, otherwise yield `y`.
x : array_like
    Values from which to choose; broadcast with `condition` and `y`.
y : array_like
    Values from which to choose; broadcast with `condition` and `x`.

Returns
-------
out : ndarray
    An array with elements from `x` where `condition` is True, and from `y` elsewhere.

See Also
--------
numpy.where : The NumPy function this mirrors.
select, choose, nonzero

Notes
-----
The one-argument form is ``nonzero(condition)``, as in NumPy.
""",
}
