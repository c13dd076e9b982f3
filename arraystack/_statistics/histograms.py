"""Histograms: histogram, histogram_bin_edges, histogram2d, histogramdd, bincount, following
numpy/lib/_histograms_impl.py. Bin edges of concrete data come from NumPy's own edge logic (estimators
included); counting is a scatter-add in element order (NumPy's bincount order), so weighted sums round as
NumPy's do. Traced data works with a bin count or edges given; estimators and bincount need the data.
"""

from __future__ import annotations

import builtins
import operator
import warnings
from typing import TYPE_CHECKING

import numpy as np
from numpy.lib import _histograms_impl as _nph

import arraystack as anp
from arraystack._core.devices import constants_on_operand_device, host_values
from arraystack._core.array import wrap
from arraystack.ir.core import ShapeDependsOnDataError, Tracer, bind
from arraystack.ir.structural import scatter_p
from arraystack._core.overrides import defers_to_numpy

if TYPE_CHECKING:
    from typing import Any
    from arraystack.typing import ArrayLike, NDArray

INTP = np.dtype(np.intp)


def _concrete(*xs) -> bool:
    return not any(isinstance(getattr(x, "_value", x), Tracer) for x in xs)


def _host(x):
    return None if x is None else host_values(x._value)


def _scatter_add(index, weights, length, dtype, mode="clip"):
    """bincount(index, weights, minlength=length) cast to dtype; index is clipped into [0, length)
    (`mode` "clip"), or a negative one raises NumPy's ValueError (`mode` "bincount")."""
    if weights is None:
        updates = anp.ones(index.shape, np.int64)
    else:
        kind = weights.dtype.kind
        updates = weights.astype(np.complex128 if kind == "c" else np.float64)
    zeros = anp.zeros(length, updates.dtype)
    out = bind(
        scatter_p,
        zeros._value,
        updates._value,
        index.astype(INTP)._value,
        mode=mode,
        update="add",
    )
    return wrap(out).astype(dtype)


def _ravel_and_check_weights(a, weights):
    a = anp.asarray(a)
    if a.dtype == np.bool_:
        warnings.warn(
            f"Converting input from {a.dtype} to {np.uint8} for compatibility.",
            RuntimeWarning,
            stacklevel=3,
        )
        a = a.astype(np.uint8)
    if weights is not None:
        weights = anp.asarray(weights)
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
        weights = anp.ravel(weights)
    return anp.ravel(a), weights


def _traced_edges(a, bins, range):
    """Bin edges of traced data: an integer bin count (shape known) or explicit edges."""
    if isinstance(bins, str):
        raise ShapeDependsOnDataError(
            f"histogram bins={bins!r} picks the number of bins from the data, so the output shape "
            "depends on traced values. Pass an integer bin count or explicit edges under jit."
        )
    if np.ndim(bins) == 1:
        if _concrete(bins):  # NumPy's checks and edges
            return anp.asarray(
                _nph._get_bin_edges(np.zeros(0), _host(anp.asarray(bins)), None, None)[0]
            ), None
        return anp.asarray(bins), None
    n = operator.index(bins)
    if n < 1:
        raise ValueError("`bins` must be positive, when an integer")
    if range is not None:
        first, last = _nph._get_outer_edges(np.zeros(0), range)
    else:
        # Note: a traced range cannot be checked for finiteness; equal ends widen by 0.5 as in NumPy
        first, last = (anp.min(a), anp.max(a)) if a.size else (0, 1)
        same = first == last
        first, last = anp.where(same, first - 0.5, first), anp.where(same, last + 0.5, last)
    dtype = np.result_type(getattr(first, "dtype", first), getattr(last, "dtype", last), a.dtype)
    if dtype.kind in "iub":
        dtype = np.result_type(dtype, float)
    edges = anp.linspace(first, last, n + 1, endpoint=True, dtype=dtype)
    return edges, (first, last, n)


def _bin_edges(a, bins, range, weights):
    if _concrete(a) and (np.ndim(bins) != 1 or _concrete(bins)):
        bins = _host(bins) if hasattr(bins, "_value") else bins
        # NumPy only asks whether there are weights (estimators refuse them)
        marker = None if weights is None else np.ones(0)
        edges, uniform = _nph._get_bin_edges(_host(a), bins, range, marker)
        return anp.asarray(edges), uniform
    return _traced_edges(a, bins, range)


def _uniform_index(a, edges, uniform):
    first, last, n = uniform
    keep = (a >= first) & (a <= last)
    ta = a.astype(edges.dtype)
    if _concrete(first, last):
        norm_denom = _nph._unsigned_subtract(last, first)
    else:
        norm_denom = last - first
    offset = ta - first
    f = anp.where(keep, (offset / norm_denom) * n, 0)
    index = anp.clip(f.astype(INTP), 0, n - 1)
    index = anp.where(ta < edges[index], index - 1, index)
    index = anp.where((ta >= edges[index + 1]) & (index != n - 1), index + 1, index)
    return index, keep


@defers_to_numpy
@constants_on_operand_device
def histogram_bin_edges(
    a: ArrayLike,
    bins: ArrayLike | str = 10,
    range: tuple[float, float] | None = None,
    weights: ArrayLike | None = None,
) -> NDArray:
    """Function to calculate only the edges of the bins used by the histogram function.

    Parameters
    ----------
    a : array_like
        Input data; flattened.
    bins : int, sequence of scalars or str, optional
        The number of equal-width bins, the bin edges, or the name of a bin-width estimator.
    range : (float, float), optional
        The lower and upper range of the bins; by default ``(a.min(), a.max())``.
    weights : array_like, optional
        An array of weights, of the same shape as `a`; each value contributes its weight to the bin
        count.

    Returns
    -------
    bin_edges : array of dtype float
        The edges to pass into `histogram`.

    See Also
    --------
    numpy.histogram_bin_edges : The NumPy function this mirrors.
    histogram

    Notes
    -----
    `bins` may be an integer, a sequence of edges or an estimator name ('auto', 'fd', 'doane',
    'scott', 'stone', 'rice', 'sturges', 'sqrt').
    """
    a, weights = _ravel_and_check_weights(a, weights)
    return _bin_edges(a, bins, range, weights)[0]


@defers_to_numpy
@constants_on_operand_device
def histogram(
    a: ArrayLike,
    bins: ArrayLike | str = 10,
    range: tuple[float, float] | None = None,
    density: bool | None = None,
    weights: ArrayLike | None = None,
) -> tuple[NDArray, NDArray]:
    """Compute the histogram of a dataset.

    Parameters
    ----------
    a : array_like
        Input data; the histogram is computed over the flattened array.
    bins : int, sequence of scalars or str, optional
        The number of equal-width bins, the bin edges, or the name of a bin-width estimator.
    range : (float, float), optional
        The lower and upper range of the bins; by default ``(a.min(), a.max())``.
    density : bool, optional
        If True, return the value of the probability density function at the bins.
    weights : array_like, optional
        An array of weights, of the same shape as `a`; each value contributes its weight to the bin
        count.

    Returns
    -------
    hist : ndarray
        The values of the histogram: counts, or densities with `density`.
    bin_edges : ndarray of dtype float
        The bin edges, of length ``len(hist) + 1``.

    See Also
    --------
    numpy.histogram : The NumPy function this mirrors.
    histogram_bin_edges, histogram2d, histogramdd, bincount, digitize
    """
    a, weights = _ravel_and_check_weights(a, weights)
    edges, uniform = _bin_edges(a, bins, range, weights)
    ntype = INTP if weights is None else weights.dtype
    nbins = edges.shape[0] - 1
    if uniform is not None and (weights is None or weights.dtype.kind in "biufc"):
        index, keep = _uniform_index(a, edges, uniform)
        w = keep if weights is None else anp.where(keep, weights, 0)
        n = _scatter_add(index, w.astype(np.int64) if weights is None else w, nbins, ntype)
    else:
        # NumPy: sorted data, cumulative counts at searchsorted edges (the last edge inclusive), diff
        order = anp.argsort(a)  # default kind, as NumPy: ties order the weights as its sort does
        sa = a[order]
        bin_index = anp.concatenate(
            [anp.searchsorted(sa, edges[:-1], "left"), anp.searchsorted(sa, edges[-1:], "right")]
        )
        if weights is None:
            cum = bin_index.astype(ntype)
        else:
            sw = weights[order]
            cw = anp.concatenate((anp.zeros(1, ntype), anp.cumsum(sw))).astype(ntype)
            cum = cw[bin_index]
        n = cum[1:] - cum[:-1]
    if density:
        db = anp.diff(edges).astype(float)
        return n / db / anp.sum(n), edges
    return n, edges


@defers_to_numpy
@constants_on_operand_device
def bincount(
    x: ArrayLike, weights: ArrayLike | None = None, minlength: int = 0, *, length: int | None = None
) -> NDArray:
    """Count number of occurrences of each value in array of non-negative ints.

    Parameters
    ----------
    x : array_like, 1 dimension, nonnegative ints
        Input array.
    weights : array_like, optional
        Weights, array of the same shape as `x`.
    minlength : int, optional
        A minimum number of bins for the output array.
    length : int, optional
        An arraystack extension (as in jax.numpy): the output has exactly `length` bins, and values of
        `x` from `length` on are not counted (`minlength` is then only checked). The output length no
        longer depends on the data, so `x` may be traced (jit, vmap): a negative value still raises
        NumPy's ValueError, when the computation runs.

    Returns
    -------
    out : ndarray of ints
        The number of occurrences of each value (or their summed weights); length ``max(x) + 1`` or
        `minlength`, or `length`.

    See Also
    --------
    numpy.bincount : The NumPy function this mirrors.
    histogram, digitize, unique

    Notes
    -----
    The output length is ``max(x) + 1``, so `x` must be concrete (not traced) unless `length` is
    given; traced weights are fine.
    """
    if length is not None:
        return _bincount_of_length(x, weights, minlength, operator.index(length))
    if not _concrete(x):
        raise ShapeDependsOnDataError(
            "bincount's output length is max(x) + 1, which depends on the traced values of x. "
            "Give the number of bins as length= (values from it on are not counted), call it "
            "outside jit, or use histogram with bins=."
        )
    xs = host_values(x)
    counts = np.bincount(xs, minlength=minlength)  # NumPy's validation and the unweighted result
    if weights is None:
        return wrap(counts)
    weights = anp.asarray(weights)
    if weights.shape != xs.shape:
        raise ValueError("The weights and list don't have the same length.")
    if weights.dtype.kind == "c":
        raise TypeError("float() argument must be a string or a real number, not 'complex'")
    return _scatter_add(anp.asarray(xs.astype(INTP)), weights, counts.shape[0], np.float64)


def _bincount_of_length(x, weights, minlength, length):
    """bincount(x, weights, minlength, length=length): NumPy's bincount, its bins from `length` on
    dropped or zero bins added; traced, a scatter-add into length + 1 bins whose last takes the values
    from `length` on."""
    if length < 0:
        raise ValueError("'length' must not be negative")
    if operator.index(minlength) < 0:
        raise ValueError("'minlength' must not be negative")
    x = anp.asarray(x)
    if x.ndim != 1:
        raise ValueError(
            "object too deep for desired array"
            if x.ndim
            else "object of too small depth for desired array"
        )
    if x.dtype.kind not in "biu":
        raise TypeError(
            f"Cannot cast array data from dtype('{x.dtype}') to dtype('int64') according to the rule 'safe'"
        )
    if weights is not None:
        weights = anp.asarray(weights)
        if weights.shape != x.shape:
            raise ValueError("The weights and list don't have the same length.")
        if weights.dtype.kind == "c":
            raise TypeError("float() argument must be a string or a real number, not 'complex'")
    if _concrete(x, weights):  # NumPy's own, with its checks (a negative value raises)
        counts = np.bincount(host_values(x._value), _host(weights), minlength)[:length]
        return wrap(np.pad(counts, (0, length - counts.shape[0])))
    index = anp.where(x < length, x.astype(INTP), length)
    dtype = np.intp if weights is None else np.float64
    return _scatter_add(index, weights, length + 1, dtype, mode="bincount")[:length]


# -- multidimensional histograms: histogramdd, histogram2d -----------------------------------------


@defers_to_numpy
@constants_on_operand_device
def histogramdd(
    sample: ArrayLike,
    bins: Any = 10,
    range: Any = None,
    density: bool | None = None,
    weights: ArrayLike | None = None,
) -> tuple[NDArray, list[NDArray]]:
    """Compute the multidimensional histogram of some data.

    Parameters
    ----------
    sample : (N, D) array, or (N, D) array_like
        The data to be histogrammed: N points in D dimensions.
    bins : sequence or int, optional
        The bin edges per dimension, the number of bins per dimension, or the number of bins for
        all.
    range : sequence, optional
        A sequence of (lower, upper) pairs, one per dimension.
    density : bool, optional
        If True, return the value of the probability density function at the bins.
    weights : (N,) array_like, optional
        The weights of the points.

    Returns
    -------
    H : ndarray
        The multidimensional histogram of `sample` (float64 counts).
    edges : list of ndarray
        A list of D arrays describing the bin edges for each dimension.

    See Also
    --------
    numpy.histogramdd : The NumPy function this mirrors.
    histogram, histogram2d
    """
    if isinstance(sample, (list, tuple)) or getattr(sample, "ndim", 2) != 2:
        sample = anp.atleast_2d(anp.asarray(sample)).T
    else:
        sample = anp.asarray(sample)
    n_samples, dims = sample.shape
    if weights is not None:
        weights = anp.asarray(weights)
    try:
        if len(bins) != dims:
            raise ValueError(
                "The dimension of bins must be equal to the dimension of the sample x."
            )
    except TypeError:
        bins = dims * [bins]
    if range is None:
        range = (None,) * dims
    elif len(range) != dims:
        raise ValueError("range argument must have one entry per dimension")
    edges, nbin = [], []
    for i in builtins.range(dims):
        column = sample[:, i]
        if np.ndim(bins[i]) == 0:
            if bins[i] < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            if _concrete(column):
                smin, smax = _nph._get_outer_edges(_host(column), range[i])
            else:
                _, (smin, smax, _) = _traced_edges(column, 1, range[i])
            try:
                n = operator.index(bins[i])
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            edge = anp.linspace(smin, smax, n + 1)
        elif np.ndim(bins[i]) == 1:
            edge = anp.asarray(bins[i])
            if _concrete(edge) and np.any(_host(edge)[:-1] > _host(edge)[1:]):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
        edges.append(edge)
        nbin.append(edge.shape[0] + 1)  # an outlier bin at each end
    flat = anp.zeros(n_samples, INTP)
    for i in builtins.range(dims):
        count = anp.searchsorted(edges[i], sample[:, i], side="right")
        count = anp.where(sample[:, i] == edges[i][-1], count - 1, count)
        flat = flat * nbin[i] + count
    if weights is not None and weights.dtype.kind == "c":
        raise TypeError("float() argument must be a string or a real number, not 'complex'")
    hist = _scatter_add(flat, weights, int(np.prod(nbin)), np.float64)
    hist = anp.reshape(hist, tuple(nbin))[(slice(1, -1),) * dims]
    if density:
        s = anp.sum(hist)
        for i in builtins.range(dims):
            shape = [1] * dims
            shape[i] = nbin[i] - 2
            hist = hist / anp.reshape(anp.diff(edges[i]), shape)
        hist = hist / s
    return hist, edges


@defers_to_numpy
@constants_on_operand_device
def histogram2d(
    x: ArrayLike,
    y: ArrayLike,
    bins: Any = 10,
    range: Any = None,
    density: bool | None = None,
    weights: ArrayLike | None = None,
) -> tuple[NDArray, NDArray, NDArray]:
    """Compute the bi-dimensional histogram of two data samples.

    Parameters
    ----------
    x : array_like, shape (N,)
        The x coordinates of the points.
    y : array_like, shape (N,)
        The y coordinates of the points.
    bins : int or array_like or [int, int] or [array, array], optional
        The number of bins or the bin edges, for both dimensions or for each.
    range : array_like, shape(2,2), optional
        The leftmost and rightmost edges of the bins along each dimension.
    density : bool, optional
        If True, return the value of the probability density function at the bins.
    weights : array_like, shape(N,), optional
        The weights of the samples.

    Returns
    -------
    H : ndarray, shape(nx, ny)
        The bi-dimensional histogram.
    xedges : ndarray, shape(nx+1,)
        The bin edges along the first dimension.
    yedges : ndarray, shape(ny+1,)
        The bin edges along the second dimension.

    See Also
    --------
    numpy.histogram2d : The NumPy function this mirrors.
    histogram, histogramdd
    """
    x, y = anp.asarray(x), anp.asarray(y)
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in {1, 2}:
        bins = [anp.asarray(bins), anp.asarray(bins)]
    hist, edges = histogramdd(anp.stack([x, y], axis=1), bins, range, density, weights)
    return hist, edges[0], edges[1]


__all__ = ["bincount", "histogram", "histogram2d", "histogram_bin_edges", "histogramdd"]
