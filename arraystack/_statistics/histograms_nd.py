"""Multidimensional histograms: histogramdd and histogram2d, following numpy/lib/_histograms_impl.py.
Re-exported by _histograms.
"""

from __future__ import annotations

import builtins
import operator
from typing import TYPE_CHECKING

import numpy as np
from numpy.lib import _histograms_impl as _nph

import arraystack as anp
from arraystack._statistics.histograms import INTP, _concrete, _host, _scatter_add, _traced_edges

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray


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


__all__ = ["histogram2d", "histogramdd"]
