"""Power-series polynomials: polyval, polyfit, roots, polyadd/polysub/polymul, polyder/polyint and the
poly1d class, following numpy/lib/_polynomial_impl.py. polyval, polyder, polyint, polyadd, polysub,
polymul and polyfit (through arraystack.linalg.lstsq) compose; roots and poly1d need concrete coefficients
(their lengths depend on where the leading and trailing zeros are).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np

import arraystack as anp
from arraystack._core.devices import constants_on_operand_device, host_values
from arraystack._core.array import ndarray, wrap
from arraystack._core.overrides import defers_to_numpy
from arraystack.ir.core import ShapeDependsOnDataError, Tracer

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray


def _concrete(x) -> bool:
    return not isinstance(getattr(x, "_value", x), Tracer)


def _host(x, what):
    x = anp.asarray(x)
    if not _concrete(x):
        raise ShapeDependsOnDataError(
            f"{what} trims zero coefficients, so its output shape depends on the traced values. "
            "Call it outside jit (on concrete coefficients)."
        )
    return host_values(x._value)  # computed by NumPy on the host (read back from a device)


def _linalg(name):
    """arraystack.linalg's function, or NumPy's on concrete values where arraystack.linalg lacks it."""
    fn = getattr(getattr(anp, "linalg", None), name, None)
    if fn is not None:
        return fn

    def eager(*args):
        hosts = [host_values(anp.asarray(a)._value) if isinstance(a, ndarray) else a for a in args]
        out = getattr(np.linalg, name)(*hosts)
        return tuple(wrap(np.asarray(o)) for o in out) if isinstance(out, tuple) else wrap(out)

    return eager


@defers_to_numpy
def polyval(p: ArrayLike, x: ArrayLike) -> NDArray | poly1d:
    """Evaluate a polynomial at specific values.

    Parameters
    ----------
    p : array_like or poly1d
        1D array of coefficients, highest power first.
    x : array_like or poly1d
        The values at which to evaluate `p` (composition if a poly1d).

    Returns
    -------
    values : ndarray or poly1d
        The polynomial's values at `x`.

    See Also
    --------
    numpy.polyval : The NumPy function this mirrors.
    polyfit, poly1d

    Notes
    -----
    Evaluated with Horner's scheme, as in NumPy.
    """
    p = anp.asarray(p)
    if isinstance(x, poly1d):
        y = 0
    else:
        x = anp.asarray(x)
        y = anp.zeros_like(x)
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def _coeffs(a):
    return a.coeffs if isinstance(a, poly1d) else anp.atleast_1d(anp.asarray(a))


def _trimmed(a):
    """`a`'s coefficients as poly1d holds them, leading zeros trimmed (numpy.polymul reads its operands
    so); traced coefficients as they are (their zeros are not known)."""
    c = _coeffs(a)
    return c if isinstance(a, poly1d) or not _concrete(c) else poly1d(c).coeffs


@defers_to_numpy
@constants_on_operand_device
def polyadd(a1: ArrayLike, a2: ArrayLike) -> NDArray | poly1d:
    """Find the sum of two polynomials.

    Parameters
    ----------
    a1 : array_like or poly1d
        Polynomial coefficients, highest power first.
    a2 : array_like or poly1d
        Polynomial coefficients, highest power first.

    Returns
    -------
    out : ndarray or poly1d
        The sum of the inputs (a poly1d if either input is one).

    See Also
    --------
    numpy.polyadd : The NumPy function this mirrors.
    polysub, polymul, polyval
    """
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a1, a2 = _coeffs(a1), _coeffs(a2)
    diff = len(a2) - len(a1)
    if diff == 0:
        val = a1 + a2
    elif diff > 0:
        val = anp.concatenate((anp.zeros(diff, a1.dtype), a1)) + a2
    else:
        val = a1 + anp.concatenate((anp.zeros(-diff, a2.dtype), a2))
    return poly1d(val) if truepoly else val


@defers_to_numpy
@constants_on_operand_device
def polysub(a1: ArrayLike, a2: ArrayLike) -> NDArray | poly1d:
    """Difference (subtraction) of two polynomials.

    Parameters
    ----------
    a1 : array_like or poly1d
        Minuend polynomial.
    a2 : array_like or poly1d
        Subtrahend polynomial.

    Returns
    -------
    out : ndarray or poly1d
        The difference of the inputs.

    See Also
    --------
    numpy.polysub : The NumPy function this mirrors.
    polyadd, polymul
    """
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a1, a2 = _coeffs(a1), _coeffs(a2)
    diff = len(a2) - len(a1)
    if diff == 0:
        val = a1 - a2
    elif diff > 0:
        val = anp.concatenate((anp.zeros(diff, a1.dtype), a1)) - a2
    else:
        val = a1 - anp.concatenate((anp.zeros(-diff, a2.dtype), a2))
    return poly1d(val) if truepoly else val


@defers_to_numpy
@constants_on_operand_device
def polymul(a1: ArrayLike, a2: ArrayLike) -> NDArray | poly1d:
    """Find the product of two polynomials.

    Parameters
    ----------
    a1 : array_like or poly1d
        Polynomial coefficients, highest power first.
    a2 : array_like or poly1d
        Polynomial coefficients, highest power first.

    Returns
    -------
    out : ndarray or poly1d
        The product: the convolution of the coefficients.

    See Also
    --------
    numpy.polymul : The NumPy function this mirrors.
    convolve, polyadd, polydiv
    """
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    val = anp.convolve(_trimmed(a1), _trimmed(a2))
    return poly1d(val) if truepoly else val


@defers_to_numpy
@constants_on_operand_device
def polyder(p: ArrayLike, m: int = 1) -> NDArray | poly1d:
    """Return the derivative of the specified order of a polynomial.

    Parameters
    ----------
    p : poly1d or sequence
        Polynomial to differentiate; a sequence is interpreted as coefficients.
    m : int, optional
        Order of differentiation (default: 1).

    Returns
    -------
    der : poly1d or ndarray
        The derivative (a poly1d if `p` is one).

    See Also
    --------
    numpy.polyder : The NumPy function this mirrors.
    polyint, poly1d.deriv
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = isinstance(p, poly1d)
    p = p.coeffs if truepoly else anp.asarray(p)
    n = len(p) - 1
    val = p if m == 0 else polyder(p[:-1] * anp.arange(n, 0, -1), m - 1)
    return poly1d(val) if truepoly else val


@defers_to_numpy
@constants_on_operand_device
def polyint(p: ArrayLike, m: int = 1, k: ArrayLike | None = None) -> NDArray | poly1d:
    """Return an antiderivative (indefinite integral) of a polynomial.

    Parameters
    ----------
    p : array_like or poly1d
        Polynomial to integrate; a sequence is interpreted as coefficients.
    m : int, optional
        The order of the antiderivative (default: 1).
    k : list of m scalars or scalar, optional
        Integration constants, given in the order of integration: those corresponding to highest-order
        terms come first.

    Returns
    -------
    out : ndarray or poly1d
        The antiderivative (a poly1d if `p` is one).

    See Also
    --------
    numpy.polyint : The NumPy function this mirrors.
    polyder, poly1d.integ
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    truepoly = isinstance(p, poly1d)
    p = p.coeffs if truepoly else anp.asarray(p)
    if k is None:
        k = anp.zeros(m, float, device=p.device)
    k = anp.atleast_1d(k if isinstance(k, ndarray) else anp.asarray(k, device=p.device))
    if len(k) == 1 and m > 1:
        k = k[0] * anp.ones(m, float, device=p.device)
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    if m == 0:
        return poly1d(p) if truepoly else p
    y = anp.concatenate((p / anp.arange(len(p), 0, -1), anp.reshape(k[0], (1,))))
    val = polyint(y, m - 1, k=k[1:])
    return poly1d(val) if truepoly else val


@defers_to_numpy
@constants_on_operand_device
def polydiv(u: ArrayLike, v: ArrayLike) -> tuple[NDArray, NDArray] | tuple[poly1d, poly1d]:
    """Returns the quotient and remainder of polynomial division.

    Parameters
    ----------
    u : array_like or poly1d
        Dividend polynomial's coefficients.
    v : array_like or poly1d
        Divisor polynomial's coefficients.

    Returns
    -------
    q : ndarray
        Coefficients of the quotient.
    r : ndarray
        Coefficients of the remainder.

    See Also
    --------
    numpy.polydiv : The NumPy function this mirrors.
    polymul, polyadd

    Notes
    -----
    The remainder's length depends on its values, so this needs concrete coefficients.
    """
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    q, r = np.polydiv(_host(_coeffs(u), "polydiv"), _host(_coeffs(v), "polydiv"))
    if truepoly:
        return poly1d(q), poly1d(r)
    return wrap(np.asarray(q)), wrap(np.asarray(r))


@defers_to_numpy
@constants_on_operand_device
def roots(p: ArrayLike) -> NDArray:
    """Return the roots of a polynomial with coefficients given in p.

    Parameters
    ----------
    p : array_like
        Rank-1 array of polynomial coefficients, highest power first.

    Returns
    -------
    out : ndarray
        An array containing the roots of the polynomial.

    See Also
    --------
    numpy.roots : The NumPy function this mirrors.
    poly1d, polyval, linalg.eigvals

    Notes
    -----
    The eigenvalues of the companion matrix. The coefficients must be concrete (not traced): the
    result's length depends on their values.
    """
    p = np.atleast_1d(_host(p, "roots"))
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    return wrap(np.asarray(np.roots(p)))


@defers_to_numpy
def polyfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: int,
    rcond: float | None = None,
    full: bool = False,
    w: ArrayLike | None = None,
    cov: bool | str = False,
) -> NDArray | tuple[Any, ...]:
    """Least squares polynomial fit.

    Fits a polynomial ``p(x) = p[0] * x**deg + ... + p[deg]`` of degree `deg` to points ``(x, y)``.

    Parameters
    ----------
    x : array_like, shape (M,)
        x-coordinates of the M sample points.
    y : array_like, shape (M,) or (M, K)
        y-coordinates of the sample points; several data sets share `x` as columns.
    deg : int
        Degree of the polynomial.
    rcond : float, optional
        Relative condition number of the fit; by default ``len(x) * eps``.
    full : bool, optional
        If True, also return the diagnostic information of the least-squares solve.
    w : array_like, shape (M,), optional
        Weights applied to the unsquared residuals.
    cov : bool or str, optional
        If True (or 'unscaled'), also return the covariance matrix of the estimate.

    Returns
    -------
    p : ndarray, shape (deg + 1,) or (deg + 1, K)
        Polynomial coefficients, highest power first.
    residuals, rank, singular_values, rcond
        Present only if `full` is True.
    V : ndarray
        Present only if `cov` is set: the covariance matrix of the coefficients.

    See Also
    --------
    numpy.polyfit : The NumPy function this mirrors.
    polyval, linalg.lstsq

    Notes
    -----
    Solved by least squares on the scaled Vandermonde matrix, as NumPy does.
    """
    order = int(deg) + 1
    x = anp.asarray(x) + 0.0
    y = anp.asarray(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = len(x) * np.finfo(x.dtype).eps
    lhs = anp.stack([x**i for i in range(order - 1, -1, -1)], axis=1)  # numpy.vander(x, order)
    rhs = y
    if w is not None:
        w = anp.asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = anp.sqrt(anp.sum(lhs * lhs, axis=0))
    lhs = lhs / scale
    if full or (_concrete(lhs) and _concrete(rhs)):
        c, resids, rank, s = _linalg("lstsq")(lhs, rhs, rcond)
    else:
        # Note: traced data solve through the pseudo-inverse (the same SVD cutoff as lstsq's rcond),
        # since lstsq's residuals have a data-dependent shape; the residuals assume full rank
        c = _linalg("pinv")(lhs, rcond=rcond) @ rhs
        resids = anp.sum(anp.abs(rhs - lhs @ c) ** 2, axis=0)
        rank = None
    c = (c.T / scale).T
    if rank is not None and _concrete(rank) and int(rank) != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, (wrap(rcond) if isinstance(rcond, np.generic) else rcond)
    if cov:
        vbase = _linalg("inv")(anp.dot(lhs.T, lhs))
        vbase = vbase / anp.outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if len(x) <= order:
                raise ValueError(
                    "the number of data points must exceed order to scale the covariance matrix"
                )
            fac = resids / (len(x) - order)
        return c, (vbase * fac if y.ndim == 1 else vbase[:, :, None] * fac)
    return c


class poly1d:
    """A one-dimensional polynomial class.

    Supports evaluation, arithmetic (``+``, ``-``, ``*``, ``/``, ``**``), `deriv`, `integ` and `roots`,
    and prints as NumPy prints it.

    Parameters
    ----------
    c_or_r : array_like
        The polynomial's coefficients, in decreasing powers, or its roots if `r` is True.
    r : bool, optional
        If True, `c_or_r` holds the polynomial's roots.
    variable : str, optional
        The variable used when printing the polynomial; 'x' by default.

    Attributes
    ----------
    coeffs : ndarray
        The coefficients (also `c`, `coef`, `coefficients`).
    order : int
        The order or degree (also `o`).
    roots : ndarray
        The roots (also `r`).
    variable : str
        The name of the variable.

    See Also
    --------
    numpy.poly1d : The NumPy function this mirrors.
    polyval, polyfit, roots

    Notes
    -----
    arraystack's poly1d works on concrete coefficients (it is not traceable).
    """

    __hash__ = None

    def __init__(self, c_or_r: ArrayLike, r: bool = False, variable: str | None = None) -> None:
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable if variable is None else variable
            self._coeffs = c_or_r._coeffs
            return
        if r:
            c_or_r = np.poly(_host(c_or_r, "poly1d(r=True)"))
        c = np.atleast_1d(_host(c_or_r, "poly1d"))
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        c = np.trim_zeros(c, trim="f")
        if len(c) == 0:
            c = np.array([0], dtype=c.dtype)
        self._coeffs = wrap(c)
        device = getattr(c_or_r, "device", None)
        if isinstance(c_or_r, ndarray) and device != "cpu":  # trimmed on the host, kept on its device
            self._coeffs = self._coeffs.to_device(device)
        self._variable = "x" if variable is None else variable

    coeffs = property(lambda self: self._coeffs, doc="The polynomial coefficients")
    c = coef = coefficients = coeffs
    variable = property(lambda self: self._variable, doc="The name of the polynomial variable")
    order = property(
        lambda self: len(self._coeffs) - 1, doc="The order or degree of the polynomial"
    )
    o = order
    roots = property(lambda self: roots(self._coeffs), doc="The roots of the polynomial")
    r = roots

    def _numpy(self):
        return np.poly1d(host_values(self._coeffs._value), variable=self._variable)

    def __array__(self, t=None, copy=None):
        return np.asarray(self._coeffs._value, dtype=t)

    def __repr__(self):
        return repr(self._numpy())

    def __str__(self):
        return str(self._numpy())

    def __len__(self):
        return self.order

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def _other(self, other):
        """The coefficients of the other operand of an operator: a poly1d's, or those of a scalar or a
        sequence, made on this polynomial's device (host data beside it)."""
        if isinstance(other, poly1d):
            return other._coeffs
        coeffs = poly1d(other)._coeffs
        return coeffs if isinstance(other, ndarray) else coeffs.to_device(self._coeffs.device)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if np.isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, self._other(other)))

    def __rmul__(self, other):
        return self.__mul__(other) if np.isscalar(other) else poly1d(other).__mul__(self)

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, self._other(other)))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, self._other(other)))

    def __rsub__(self, other):
        return poly1d(polysub(self._other(other), self._coeffs))

    def __pow__(self, val):
        if not np.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res = anp.asarray([1], device=self._coeffs.device)
        for _ in range(val):
            res = polymul(self._coeffs, res)
        return poly1d(res)

    def __truediv__(self, other):
        if np.isscalar(other):
            return poly1d(self._coeffs / other)
        return polydiv(self, poly1d(other))

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool(anp.all(self._coeffs == other._coeffs))

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, val):
        ind = self.order - val
        if val > self.order or val < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[ind]

    def __iter__(self):
        return iter(self._coeffs)

    def integ(self, m=1, k=0):
        """The m-th antiderivative (numpy.polyint)."""
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        """The m-th derivative (numpy.polyder)."""
        return poly1d(polyder(self._coeffs, m=m))


__all__ = [
    "poly1d",
    "polyadd",
    "polyder",
    "polydiv",
    "polyfit",
    "polyint",
    "polymul",
    "polysub",
    "polyval",
    "roots",
]
