"""Utilities of the series families (numpy.polynomial.polyutils): coefficient checks and trimming,
domains and the linear maps between them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy
from numpy.exceptions import RankWarning

import arraystack as anp
from arraystack.polynomial._printing import format_float
from arraystack.polynomial._series import is_series, require_concrete

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray

__all__ = [
    "RankWarning",
    "as_series",
    "format_float",
    "getdomain",
    "mapdomain",
    "mapparms",
    "trimcoef",
    "trimseq",
]


def as_series(alist: Any, trim: bool = True) -> list[NDArray]:
    """Return argument as a list of 1-d arrays.

    Parameters
    ----------
    alist : array_like
        A 1- or 2-d array_like, or a sequence of 1-d array_likes (coefficient series).
    trim : bool, optional
        When True (the default), trailing zeros are removed from the series.

    Returns
    -------
    a1, a2, ... : list of 1-D arrays
        The series, converted to one common inexact dtype.

    Raises
    ------
    ValueError
        If a series is empty or not 1-d, or the series have no common type.

    See Also
    --------
    numpy.polynomial.polyutils.as_series : The NumPy function this mirrors.

    Notes
    -----
    Trimming depends on the coefficients' values, so ``trim=True`` needs concrete coefficients.
    """
    arrays = [anp.atleast_1d(anp.asarray(a)) for a in alist]
    for a in arrays:
        if a.size == 0:
            raise ValueError("Coefficient array is empty")
    if any(a.ndim != 1 for a in arrays):
        raise ValueError("Coefficient array is not 1-d")
    if trim:
        arrays = [trimseq(a) for a in arrays]
    try:
        dtype = anp.common_type(*arrays)
    except Exception as e:
        raise ValueError("Coefficient arrays have no common type") from e
    return [a.astype(dtype) for a in arrays]


def trimseq(seq: ArrayLike) -> Any:
    """Remove small Poly series coefficients.

    Parameters
    ----------
    seq : sequence
        Sequence of coefficients, lowest order first.

    Returns
    -------
    series : sequence
        `seq` without its trailing zeros (at least its first entry is kept).

    See Also
    --------
    numpy.polynomial.polyutils.trimseq : The NumPy function this mirrors.

    Notes
    -----
    The result's length depends on the values, so `seq` must be concrete (not traced).
    """
    if len(seq) == 0:
        return seq
    require_concrete(seq, "trimming trailing zeros")
    nonzero = numpy.flatnonzero(numpy.asarray(seq) != 0)
    if len(nonzero) and nonzero[-1] == len(seq) - 1:
        return seq
    return seq[: int(nonzero[-1]) + 1 if len(nonzero) else 1]


def trimcoef(c: ArrayLike, tol: float = 0) -> NDArray:
    """Remove "small" "trailing" coefficients from a polynomial.

    Parameters
    ----------
    c : array_like
        1-d array of coefficients, lowest order first.
    tol : number, optional
        Trailing elements with absolute value at most `tol` are removed.

    Returns
    -------
    trimmed : ndarray
        1-d array with trailing small coefficients removed (``[0]`` if all are small).

    Raises
    ------
    ValueError
        If `tol` < 0.

    See Also
    --------
    numpy.polynomial.polyutils.trimcoef : The NumPy function this mirrors.
    trimseq
    """
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [c] = as_series([c])
    keep = numpy.flatnonzero(numpy.abs(numpy.asarray(c)) > tol)
    if len(keep) == 0:
        return c[:1] * 0
    return anp.copy(c[: int(keep[-1]) + 1])


def getdomain(x: ArrayLike) -> NDArray:
    """Return a domain suitable for given abscissae.

    Parameters
    ----------
    x : array_like
        1-d array of abscissae whose domain will be determined.

    Returns
    -------
    domain : ndarray
        1-d array of two values: the smallest and largest abscissa (for complex `x`, the corners
        of the rectangle holding the points).

    See Also
    --------
    numpy.polynomial.polyutils.getdomain : The NumPy function this mirrors.
    mapdomain, mapparms
    """
    [x] = as_series([x], trim=False)
    if x.dtype.kind == "c":
        low = anp.min(x.real) + 1j * anp.min(x.imag)
        high = anp.max(x.real) + 1j * anp.max(x.imag)
        return anp.stack([low, high])
    return anp.stack([anp.min(x), anp.max(x)])


def mapparms(old: ArrayLike, new: ArrayLike) -> tuple[Any, Any]:
    """Linear map parameters between domains.

    Parameters
    ----------
    old, new : array_like
        Domains: each a sequence of two values.

    Returns
    -------
    off, scl : scalars
        The map ``L(x) = off + scl*x`` takes `old` onto `new`.

    See Also
    --------
    numpy.polynomial.polyutils.mapparms : The NumPy function this mirrors.
    getdomain, mapdomain
    """
    oldlen = old[1] - old[0]
    newlen = new[1] - new[0]
    off = (old[1] * new[0] - old[0] * new[1]) / oldlen
    scl = newlen / oldlen
    return off, scl


def mapdomain(x: ArrayLike, old: ArrayLike, new: ArrayLike) -> Any:
    """Apply linear map to input points.

    Parameters
    ----------
    x : array_like
        Points to be mapped (a series composes with the map).
    old, new : array_like
        The domains: `old` is mapped onto `new`.

    Returns
    -------
    x_out : ndarray
        The mapped points, ``off + scl*x``.

    See Also
    --------
    numpy.polynomial.polyutils.mapdomain : The NumPy function this mirrors.
    getdomain, mapparms
    """
    off, scl = mapparms(old, new)
    if is_series(x):
        return numpy.asarray(off)[()] + numpy.asarray(scl)[()] * x
    if type(x) not in (int, float, complex) and not isinstance(x, numpy.generic):
        x = anp.asarray(x)
    return off + scl * x
