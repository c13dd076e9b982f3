"""arraystack.scipy.special: scipy.special's functions written in arraystack operations.

Each takes SciPy's arguments and gives SciPy's dtype: float32 stays float32, float64 and every other input
(integers, booleans, float16) computes in float64, as SciPy's loops do; where SciPy's float32 loop comes
first (entr, rel_entr, kl_div, erfinv, erfcinv, ndtri), inputs that cast safely to float32 (booleans,
float16, 8- and 16-bit integers) give float32. The gamma family (gammaln, digamma, betaln: _gamma.py;
gamma, gammasgn, beta, factorial, multigammaln: _gamma_function.py), the error function's (erfc, erfcx,
erfinv, erfcinv, ndtr, ndtri, log_ndtr: _normal.py), the Bessel functions (i0, i0e, i1, i1e:
_bessel.py) and zeta and polygamma (_zeta.py) compute in float64 whatever the input. Each docstring
states its accuracy; tests/arraystack/scipy checks it on special values (0, +-inf, nan, the edges of each
domain) and, for these families, against exact values (mpmath) on dense grids, where several of SciPy's
own lose digits that these keep. They trace, so `jit`, `grad` and `vmap` see ordinary primitives.

SciPy's own ufuncs (scipy.special.gamma, ...) applied to arraystack arrays run eagerly on the NumPy buffers
and return arraystack arrays; under a transformation they raise an error pointing here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

import arraystack as ast
from arraystack._core.array import raw, wrap
from arraystack.ir import primitives as p
from arraystack.ir.core import bind
from arraystack.scipy._bessel import i0, i0e, i1, i1e
from arraystack.scipy._gamma import betaln, digamma, gammaln
from arraystack.scipy._gamma_function import beta, factorial, gamma, gammasgn, multigammaln
from arraystack.scipy._loops import as_dtype, loop_dtype
from arraystack.scipy._normal import erfc, erfcinv, erfcx, erfinv, log_ndtr, ndtr, ndtri
from arraystack.scipy._zeta import polygamma, zeta

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, AxisLike, NDArray

__all__ = [
    "beta",
    "betaln",
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfcinv",
    "erfcx",
    "erfinv",
    "expit",
    "factorial",
    "gamma",
    "gammaln",
    "gammasgn",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "kl_div",
    "log_expit",
    "log_ndtr",
    "log_softmax",
    "logit",
    "logsumexp",
    "multigammaln",
    "ndtr",
    "ndtri",
    "polygamma",
    "psi",
    "rel_entr",
    "softmax",
    "xlog1py",
    "xlogy",
    "zeta",
]

psi = digamma  # SciPy's two names of one function


def erf(z: ArrayLike) -> NDArray:
    """The error function, ``2/sqrt(pi) * integral(exp(-t**2), t=0..z)``.

    Parameters
    ----------
    z : array_like
        Real input (float32 stays float32; other inputs compute in float64).

    Returns
    -------
    ndarray
        erf(z), in [-1, 1].

    See Also
    --------
    scipy.special.erf : the function mirrored.
    jax.scipy.special.erf : JAX's.

    Notes
    -----
    One `erf` primitive. Within 2 ulp of SciPy's in float64 and float32.

    Examples
    --------
    >>> import arraystack as np
    >>> float(np.scipy.special.erf(0.0))
    0.0
    """
    dtype = loop_dtype(z)
    if dtype.kind == "c":
        raise TypeError(
            "arraystack.scipy.special.erf takes real input; complex erf is not implemented"
        )
    return wrap(bind(p.erf_p, raw(as_dtype(z, dtype))))


def expit(x: ArrayLike) -> NDArray:
    """The logistic sigmoid, ``1 / (1 + exp(-x))``, without overflow.

    Parameters
    ----------
    x : array_like
        Real input.

    Returns
    -------
    ndarray
        expit(x), in [0, 1].

    See Also
    --------
    scipy.special.expit : the function mirrored.
    arraystack.nn.sigmoid : the same function.

    Notes
    -----
    One `logistic` primitive. Within 2 ulp of SciPy's.
    """
    return wrap(bind(p.logistic_p, raw(as_dtype(x, loop_dtype(x)))))


def log_expit(x: ArrayLike) -> NDArray:
    """The log of the logistic sigmoid, ``-log(1 + exp(-x))``, without overflow or cancellation.

    Parameters
    ----------
    x : array_like
        Real input.

    Returns
    -------
    ndarray
        log(expit(x)), at most 0.

    See Also
    --------
    scipy.special.log_expit : the function mirrored.

    Notes
    -----
    ``min(x, 0) - log1p(exp(-|x|))``. Within 4 ulp of SciPy's.
    """
    x = as_dtype(x, loop_dtype(x))
    return ast.minimum(x, 0) - ast.log1p(ast.exp(-ast.abs(x)))


def logit(x: ArrayLike) -> NDArray:
    """The inverse of expit, ``log(x / (1 - x))``.

    Parameters
    ----------
    x : array_like
        Probabilities; outside [0, 1] the result is nan, at 0 and 1 it is -inf and inf.

    Returns
    -------
    ndarray
        logit(x).

    See Also
    --------
    scipy.special.logit : the function mirrored.

    Notes
    -----
    ``log(x / (1 - x))``, as SciPy computes it. Within 2 ulp of SciPy's.
    """
    x = as_dtype(x, loop_dtype(x))
    with np.errstate(divide="ignore", invalid="ignore"):
        return ast.log(x / (1 - x))


def xlogy(x: ArrayLike, y: ArrayLike) -> NDArray:
    """``x * log(y)``, 0 where x is 0 (unless y is nan).

    Parameters
    ----------
    x, y : array_like
        Broadcastable real or complex inputs.

    Returns
    -------
    ndarray
        x * log(y), 0 where x == 0 and y is not nan.

    See Also
    --------
    scipy.special.xlogy : the function mirrored.

    Notes
    -----
    Within 1 ulp of SciPy's (the same product).
    """
    return _times_log(x, y, ast.log)


def xlog1py(x: ArrayLike, y: ArrayLike) -> NDArray:
    """``x * log1p(y)``, 0 where x is 0 (unless y is nan).

    Parameters
    ----------
    x, y : array_like
        Broadcastable real or complex inputs.

    Returns
    -------
    ndarray
        x * log1p(y), 0 where x == 0 and y is not nan.

    See Also
    --------
    scipy.special.xlog1py : the function mirrored.

    Notes
    -----
    Within 2 ulp of SciPy's: the same product, of NumPy's `log1p` (the platform's, within 1 ulp), where
    SciPy 1.17 takes its own (``log1p(2.0)`` is 1 ulp apart).
    """
    return _times_log(x, y, ast.log1p)


def _times_log(x, y, log):
    """x * log(y), 0 where x == 0 and y is not nan. Its derivative in x is log(y) at x == 0 too (a select
    of 0 there would make it 0): y is replaced only where x == 0 and log(y) is not finite."""
    dtype = loop_dtype(x, y)
    x, y = as_dtype(x, dtype), as_dtype(y, dtype)
    zero = (x == 0) & ~ast.isnan(y)
    neutral = ast.asarray(1 if log is ast.log else 0, dtype=dtype)  # where log is 0
    with np.errstate(divide="ignore", invalid="ignore"):
        singular = zero & ~ast.isfinite(log(y))
        product = x * log(ast.where(singular, neutral, y))
    return ast.where(zero, product + ast.zeros((), dtype), product)  # -0.0 becomes 0.0


def entr(x: ArrayLike) -> NDArray:
    """Elementwise entropy: ``-x * log(x)`` for x > 0, 0 at 0, -inf for x < 0.

    Parameters
    ----------
    x : array_like
        Real input (float16, float32 and bools compute in float32, as SciPy's loops).

    Returns
    -------
    ndarray
        entr(x); nan where x is nan.

    See Also
    --------
    scipy.special.entr : the function mirrored.

    Notes
    -----
    Within 1 ulp of SciPy's (the same product).
    """
    x = as_dtype(x, loop_dtype(x, single_first=True))
    with np.errstate(divide="ignore", invalid="ignore"):
        inner = -x * ast.log(ast.where(x > 0, x, 1))
    return ast.where(x > 0, inner, ast.where(x == 0, 0, ast.where(x < 0, -np.inf, x)))


def rel_entr(x: ArrayLike, y: ArrayLike) -> NDArray:
    """Elementwise relative entropy: ``x * log(x / y)`` for x, y > 0; 0 for x == 0, y >= 0; else inf.

    Parameters
    ----------
    x, y : array_like
        Broadcastable real inputs.

    Returns
    -------
    ndarray
        rel_entr(x, y); nan where either is nan.

    See Also
    --------
    scipy.special.rel_entr : the function mirrored.

    Notes
    -----
    SciPy's three cases: ``x * log1p((x - y) / y)`` for x / y in (0.5, 2), ``x * log(x / y)`` for a
    normal ratio, ``x * (log(x) - log(y))`` where the ratio under- or overflows. Within 2 ulp of SciPy's.
    """
    dtype = loop_dtype(x, y, single_first=True)
    x, y = as_dtype(x, dtype), as_dtype(y, dtype)
    both = (x > 0) & (y > 0)
    xs, ys = ast.where(both, x, 1), ast.where(both, y, 1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        ratio = xs / ys
        # near 1 the quotient's log cancels: log1p of the relative difference; a ratio that under- or
        # overflows: the difference of the logs (SciPy's three cases)
        near = (ratio > 0.5) & (ratio < 2)
        normal = (ratio > np.finfo(dtype).tiny) & (ratio < np.inf)
        inner = xs * ast.where(
            near,
            ast.log1p((xs - ys) / ys),
            ast.where(normal, ast.log(ast.where(normal, ratio, 1)), ast.log(xs) - ast.log(ys)),
        )
    edge = ast.where((x == 0) & (y >= 0), 0, np.inf)
    nan = ast.isnan(x) | ast.isnan(y)
    return ast.where(nan, x + y, ast.where(both, inner, edge)).astype(dtype)


def kl_div(x: ArrayLike, y: ArrayLike) -> NDArray:
    """Elementwise Kullback-Leibler divergence: ``x * log(x / y) - x + y`` for x, y > 0; y for x == 0,
    y >= 0; else inf.

    Parameters
    ----------
    x, y : array_like
        Broadcastable real inputs.

    Returns
    -------
    ndarray
        kl_div(x, y); nan where either is nan.

    See Also
    --------
    scipy.special.kl_div : the function mirrored.
    rel_entr : the first term.

    Notes
    -----
    ``rel_entr(x, y) - x + y``, SciPy's formula, with SciPy's dtypes. Within 2 ulp of SciPy's away from
    x == y, where both lose the digits the difference cancels.
    """
    dtype = loop_dtype(x, y, single_first=True)
    x, y = as_dtype(x, dtype), as_dtype(y, dtype)
    both = (x > 0) & (y > 0)
    with np.errstate(invalid="ignore"):
        inner = rel_entr(x, y) - x + y
    edge = ast.where((x == 0) & (y >= 0), y, np.inf)  # SciPy's inf off the domain (y = -inf too)
    nan = ast.isnan(x) | ast.isnan(y)
    return ast.where(nan, x + y, ast.where(both, inner, edge)).astype(dtype)


def _axes(axis, ndim):
    """`axis` as a tuple of non-negative axes (NumPy's AxisError when out of range)."""
    return tuple(range(ndim)) if axis is None else normalize_axis_tuple(axis, ndim)


def logsumexp(
    a: ArrayLike,
    axis: AxisLike = None,
    b: ArrayLike | None = None,
    keepdims: bool = False,
    return_sign: bool = False,
):
    """``log(sum(b * exp(a), axis))`` without overflow.

    Parameters
    ----------
    a : array_like
        Input.
    axis : None or int or tuple of ints, optional
        Axes summed over (default: all).
    b : array_like, optional
        Scaling factors for exp(a), broadcast against a; may be negative (then see `return_sign`).
    keepdims : bool, optional
        Keep the reduced axes, with length one.
    return_sign : bool, optional
        Also return the sign of the sum; without it a negative sum gives nan.

    Returns
    -------
    res : ndarray
        The log of the (absolute value of the) sum.
    sgn : ndarray
        Its sign (-1, 0 or 1), with `return_sign`.

    See Also
    --------
    scipy.special.logsumexp : the function mirrored.
    arraystack.nn.logsumexp : without `b` and `return_sign`.

    Notes
    -----
    The values are shifted by the maximum along `axis` (0 where it is not finite), which is held
    constant for differentiation. Within 4 ulp of SciPy's away from cancellation.
    """
    a = ast.asarray(a)
    dtype = loop_dtype(a) if b is None else loop_dtype(a, b)
    a = a.astype(dtype, copy=False)
    if b is not None:
        b = as_dtype(b, dtype)
        a, b = ast.broadcast_arrays(a, b)
    axes = _axes(axis, a.ndim)
    top = (
        ast.max(ast.stop_gradient(a), axis=axes, keepdims=True)
        if a.size
        else ast.zeros((1,) * a.ndim, dtype)
    )
    top = ast.where(ast.isfinite(top), top, 0)
    terms = ast.exp(a - top)
    if b is not None:
        terms = terms * b
    total = ast.sum(terms, axis=axes, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        if return_sign:
            sign = ast.sign(total)
            res = ast.log(ast.abs(total)) + top
        else:
            res = ast.log(total) + top
    if not keepdims:
        res = ast.squeeze(res, axis=axes)
        if return_sign:
            sign = ast.squeeze(sign, axis=axes)
    return (res, sign) if return_sign else res


def softmax(x: ArrayLike, axis: AxisLike = None) -> NDArray:
    """``exp(x - logsumexp(x, axis))``: values summing to 1 along `axis`.

    Parameters
    ----------
    x : array_like
        Input.
    axis : None or int or tuple of ints, optional
        Axes normalized over (default: all, as SciPy).

    Returns
    -------
    ndarray
        Of x's shape.

    See Also
    --------
    scipy.special.softmax : the function mirrored.
    arraystack.nn.softmax : jax.nn's, over the last axis by default.

    Notes
    -----
    Within 4 ulp of SciPy's.
    """
    x = as_dtype(x, loop_dtype(x))
    axes = _axes(axis, x.ndim)
    top = ast.max(ast.stop_gradient(x), axis=axes, keepdims=True)
    e = ast.exp(x - ast.where(ast.isfinite(top), top, 0))
    return e / ast.sum(e, axis=axes, keepdims=True)


def log_softmax(x: ArrayLike, axis: AxisLike = None) -> NDArray:
    """``x - logsumexp(x, axis)``.

    Parameters
    ----------
    x : array_like
        Input.
    axis : None or int or tuple of ints, optional
        Axes normalized over (default: all, as SciPy).

    Returns
    -------
    ndarray
        Of x's shape.

    See Also
    --------
    scipy.special.log_softmax : the function mirrored.
    arraystack.nn.log_softmax : jax.nn's, over the last axis by default.

    Notes
    -----
    Within 4 ulp of SciPy's away from cancellation.
    """
    x = as_dtype(x, loop_dtype(x))
    axes = _axes(axis, x.ndim)
    top = ast.max(ast.stop_gradient(x), axis=axes, keepdims=True)
    shifted = x - ast.where(ast.isfinite(top), top, 0)
    with np.errstate(divide="ignore"):
        return shifted - ast.log(ast.sum(ast.exp(shifted), axis=axes, keepdims=True))
