"""NumPy-style docstrings of the functions of _quantiles.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "median": """\
Compute the median along the specified axis.

Parameters
----------
a : array_like
    Input array.
axis : {int, sequence of int, None}, optional
    Axis or axes along which the medians are computed; by default the flattened array.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
overwrite_input : bool, optional
    Accepted for compatibility: arraystack never modifies the input.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.

Returns
-------
median : ndarray
    The mean of the one or two middle values; NaN if the slice holds a NaN.

See Also
--------
numpy.median : The NumPy function this mirrors.
mean, percentile, quantile, nanmedian
""",
    "nanmedian": """\
Compute the median along the specified axis, while ignoring NaNs.

Parameters
----------
a : array_like
    Input array.
axis : {int, sequence of int, None}, optional
    Axis or axes along which the medians are computed; by default the flattened array.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
overwrite_input : bool, optional
    Accepted for compatibility: arraystack never modifies the input.
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.

Returns
-------
median : ndarray
    ``(low + high) / 2`` of the non-NaN middle values, as NumPy's masked path computes it.

See Also
--------
numpy.nanmedian : The NumPy function this mirrors.
median, nanmean, nanpercentile

Notes
-----
An all-NaN slice gives NaN and a RuntimeWarning.
""",
    "nanpercentile": """\
Compute the qth percentile of the data along the specified axis, while ignoring nan values.

Parameters
----------
a : array_like
    Input array.
q : array_like of float
    Percentage or sequence of percentages, in [0, 100].
axis : {int, tuple of int, None}, optional
    Axis or axes along which the quantiles are computed; by default the flattened array.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
overwrite_input : bool, optional
    Accepted for compatibility: arraystack never modifies the input.
method : str, optional
    The estimation method: one of NumPy's 13 ('linear' by default, 'inverted_cdf',
    'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', 'hazen', 'weibull',
    'median_unbiased', 'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest').
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
weights : array_like, optional
    Weights for the values of `a`; only with ``method='inverted_cdf'``.

Returns
-------
percentile : ndarray
    The percentiles; the axes of `q` come first.

See Also
--------
numpy.nanpercentile : The NumPy function this mirrors.
percentile, nanquantile, nanmedian

Notes
-----
An all-NaN slice gives NaN and a RuntimeWarning.
""",
    "nanquantile": """\
Compute the qth quantile of the data along the specified axis, while ignoring nan values.

Parameters
----------
a : array_like
    Input array.
q : array_like of float
    Probability or sequence of probabilities, in [0, 1].
axis : {int, tuple of int, None}, optional
    Axis or axes along which the quantiles are computed; by default the flattened array.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
overwrite_input : bool, optional
    Accepted for compatibility: arraystack never modifies the input.
method : str, optional
    The estimation method: one of NumPy's 13 ('linear' by default, 'inverted_cdf',
    'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', 'hazen', 'weibull',
    'median_unbiased', 'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest').
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
weights : array_like, optional
    Weights for the values of `a`; only with ``method='inverted_cdf'``.

Returns
-------
quantile : ndarray
    The quantiles; the axes of `q` come first.

See Also
--------
numpy.nanquantile : The NumPy function this mirrors.
quantile, nanpercentile, nanmedian

Notes
-----
An all-NaN slice gives NaN and a RuntimeWarning.
""",
    "percentile": """\
Compute the q-th percentile of the data along the specified axis.

Parameters
----------
a : array_like
    Input array.
q : array_like of float
    Percentage or sequence of percentages, in [0, 100].
axis : {int, tuple of int, None}, optional
    Axis or axes along which the quantiles are computed; by default the flattened array.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
overwrite_input : bool, optional
    Accepted for compatibility: arraystack never modifies the input.
method : str, optional
    The estimation method: one of NumPy's 13 ('linear' by default, 'inverted_cdf',
    'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', 'hazen', 'weibull',
    'median_unbiased', 'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest').
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
weights : array_like, optional
    Weights for the values of `a`; only with ``method='inverted_cdf'``.

Returns
-------
percentile : ndarray
    The percentiles; the axes of `q` come first.

See Also
--------
numpy.percentile : The NumPy function this mirrors.
quantile, median, nanpercentile

Notes
-----
All 13 of NumPy's methods are supported; `weights` only with ``method='inverted_cdf'``, as in NumPy.
""",
    "quantile": """\
Compute the q-th quantile of the data along the specified axis.

Parameters
----------
a : array_like
    Input array.
q : array_like of float
    Probability or sequence of probabilities, in [0, 1].
axis : {int, tuple of int, None}, optional
    Axis or axes along which the quantiles are computed; by default the flattened array.
out : ndarray, optional
    Alternative output array in which to place the result; it must have the expected shape. Eagerly
    it is written in place; traced, the update is functionalized.
overwrite_input : bool, optional
    Accepted for compatibility: arraystack never modifies the input.
method : str, optional
    The estimation method: one of NumPy's 13 ('linear' by default, 'inverted_cdf',
    'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', 'hazen', 'weibull',
    'median_unbiased', 'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest').
keepdims : bool, optional
    If True, the reduced axes are left in the result as dimensions with size one, so the result
    broadcasts against the input.
weights : array_like, optional
    Weights for the values of `a`; only with ``method='inverted_cdf'``.

Returns
-------
quantile : ndarray
    The quantiles; the axes of `q` come first.

See Also
--------
numpy.quantile : The NumPy function this mirrors.
percentile, median, nanquantile

Notes
-----
All 13 of NumPy's methods are supported; `weights` only with ``method='inverted_cdf'``, as in NumPy.
""",
}
