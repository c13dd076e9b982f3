"""arraystack.emath: mathematical functions whose results are complex outside the real domain
(numpy.emath, numpy/lib/_scimath_impl.py): sqrt, log, log2, logn, log10, power, arccos, arcsin,
arctanh.

A real input turns complex when some element lies outside the real domain, so the output dtype
depends on the values: a traced real input raises ConcretizationError. Complex inputs keep their
dtype whatever the values, so they trace.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

import arraystack as anp
from arraystack._core.overrides import defers_to

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray

__all__ = ["arccos", "arcsin", "arctanh", "log", "log2", "log10", "logn", "power", "sqrt"]

_SINGLE_PRECISION = (np.single, np.byte, np.short, np.ubyte, np.ushort, np.csingle)


def _tocomplex(arr):
    if issubclass(arr.dtype.type, _SINGLE_PRECISION):
        return arr.astype(np.csingle)
    return arr.astype(np.cdouble)


def _any(x, test):
    """Whether `test` holds for some element; a concrete array (also inside a trace) is tested
    with NumPy, a traced one needs its values (ConcretizationError under jit)."""
    value = x._value
    if type(value) is np.ndarray:
        return bool(np.any(test(value, np)))
    return bool(anp.any(test(x, anp)))


def _outside(x, test):
    """x as an array, made complex when a real element fails the domain `test`."""
    x = anp.asarray(x)
    if x.dtype.kind == "c":  # no real element: the values cannot change the dtype
        return x
    return _tocomplex(x) if _any(x, test) else x


def _fix_real_lt_zero(x):
    return _outside(x, lambda x, xp: x < 0)


def _fix_real_abs_gt_1(x):
    return _outside(x, lambda x, xp: xp.absolute(x) > 1)


def _fix_int_lt_zero(x):
    x = anp.asarray(x)
    if x.dtype.kind != "c" and _any(x, lambda x, xp: x < 0):
        x = x * 1.0
    return x


@defers_to(np.emath.sqrt)
def sqrt(x: ArrayLike) -> NDArray:
    """Compute the square root of x.

    For negative input elements, a complex value is returned (unlike `arraystack.sqrt` which
    returns NaN).

    Parameters
    ----------
    x : array_like
        The input value(s).

    Returns
    -------
    out : ndarray or scalar
        The square root of `x`. If `x` was a scalar, so is `out`, otherwise an array is returned.

    See Also
    --------
    numpy.emath.sqrt : The NumPy function this mirrors.
    arraystack.sqrt
    """
    return anp.sqrt(_fix_real_lt_zero(x))


@defers_to(np.emath.log)
def log(x: ArrayLike) -> NDArray:
    """Compute the natural logarithm of `x`.

    For negative input elements, a complex value is returned (``log(-x) = log(x) + i*pi``).

    Parameters
    ----------
    x : array_like
        The value(s) whose log is (are) required.

    Returns
    -------
    out : ndarray or scalar
        The log of the `x` value(s). If `x` was a scalar, so is `out`, otherwise an array is
        returned.

    See Also
    --------
    numpy.emath.log : The NumPy function this mirrors.
    arraystack.log
    """
    return anp.log(_fix_real_lt_zero(x))


@defers_to(np.emath.log10)
def log10(x: ArrayLike) -> NDArray:
    """Compute the logarithm base 10 of `x`.

    For negative input elements, a complex value is returned.

    Parameters
    ----------
    x : array_like or scalar
        The value(s) whose log base 10 is (are) required.

    Returns
    -------
    out : ndarray or scalar
        The log base 10 of the `x` value(s).

    See Also
    --------
    numpy.emath.log10 : The NumPy function this mirrors.
    arraystack.log10
    """
    return anp.log10(_fix_real_lt_zero(x))


@defers_to(np.emath.logn)
def logn(n: ArrayLike, x: ArrayLike) -> NDArray:
    """Take log base n of x.

    If `x` contains negative inputs, the answer is computed and returned in the complex domain.

    Parameters
    ----------
    n : array_like
       The integer base(s) in which the log is taken.
    x : array_like
       The value(s) whose log base `n` is (are) required.

    Returns
    -------
    out : ndarray or scalar
       The log base `n` of the `x` value(s).

    See Also
    --------
    numpy.emath.logn : The NumPy function this mirrors.
    log
    """
    x = _fix_real_lt_zero(x)
    n = _fix_real_lt_zero(n)
    return anp.log(x) / anp.log(n)


@defers_to(np.emath.log2)
def log2(x: ArrayLike) -> NDArray:
    """Compute the logarithm base 2 of `x`.

    For negative input elements, a complex value is returned.

    Parameters
    ----------
    x : array_like
        The value(s) whose log base 2 is (are) required.

    Returns
    -------
    out : ndarray or scalar
        The log base 2 of the `x` value(s).

    See Also
    --------
    numpy.emath.log2 : The NumPy function this mirrors.
    arraystack.log2
    """
    return anp.log2(_fix_real_lt_zero(x))


@defers_to(np.emath.power)
def power(x: ArrayLike, p: ArrayLike) -> NDArray:
    """Return x to the power p, (x**p).

    If `x` contains negative values, the output is converted to the complex domain; negative
    integer powers are taken as floats.

    Parameters
    ----------
    x : array_like
        The input value(s).
    p : array_like of ints
        The power(s) to which `x` is raised. If `x` contains multiple values, `p` has to either be a
        scalar, or contain the same number of values as `x`.

    Returns
    -------
    out : ndarray or scalar
        The result of ``x**p``.

    See Also
    --------
    numpy.emath.power : The NumPy function this mirrors.
    arraystack.power
    """
    x = _fix_real_lt_zero(x)
    p = _fix_int_lt_zero(p)
    return anp.power(x, p)


@defers_to(np.emath.arccos)
def arccos(x: ArrayLike) -> NDArray:
    """Compute the inverse cosine of x.

    For real `x` with ``abs(x) <= 1``, this returns the principal value; for ``abs(x) > 1`` the
    complex value.

    Parameters
    ----------
    x : array_like or scalar
       The value(s) whose arccos is (are) required.

    Returns
    -------
    out : ndarray or scalar
       The inverse cosine(s) of the `x` value(s).

    See Also
    --------
    numpy.emath.arccos : The NumPy function this mirrors.
    arraystack.arccos
    """
    return anp.arccos(_fix_real_abs_gt_1(x))


@defers_to(np.emath.arcsin)
def arcsin(x: ArrayLike) -> NDArray:
    """Compute the inverse sine of x.

    For real `x` with ``abs(x) <= 1``, this returns the principal value; for ``abs(x) > 1`` the
    complex value.

    Parameters
    ----------
    x : array_like or scalar
       The value(s) whose arcsin is (are) required.

    Returns
    -------
    out : ndarray or scalar
       The inverse sine(s) of the `x` value(s).

    See Also
    --------
    numpy.emath.arcsin : The NumPy function this mirrors.
    arraystack.arcsin
    """
    return anp.arcsin(_fix_real_abs_gt_1(x))


@defers_to(np.emath.arctanh)
def arctanh(x: ArrayLike) -> NDArray:
    """Compute the inverse hyperbolic tangent of `x`.

    For real `x` with ``abs(x) < 1``, this returns the principal value; for ``abs(x) > 1`` the
    complex value.

    Parameters
    ----------
    x : array_like
       The values whose arctanh is (are) required.

    Returns
    -------
    out : ndarray or scalar
       The inverse hyperbolic tangent(s) of the `x` value(s).

    See Also
    --------
    numpy.emath.arctanh : The NumPy function this mirrors.
    arraystack.arctanh
    """
    return anp.arctanh(_fix_real_abs_gt_1(x))
