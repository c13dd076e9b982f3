"""Chebyshev series (numpy.polynomial.chebyshev): the cheb* functions and the Chebyshev class.
Products, quotients and powers go through z-series (T_n(x) = (z^n + z^-n)/2), as NumPy's do."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

import arraystack as anp
from arraystack._creation.basic import asarray
from arraystack.polynomial import _docs, _series
from arraystack.polynomial import polyutils as pu
from arraystack.polynomial._convenience import ABCPolyBase
from arraystack.polynomial.polynomial import polyadd, polymulx, polysub

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray

__all__ = [
    "Chebyshev",
    "cheb2poly",
    "chebadd",
    "chebcompanion",
    "chebder",
    "chebdiv",
    "chebdomain",
    "chebfit",
    "chebfromroots",
    "chebgauss",
    "chebgrid2d",
    "chebgrid3d",
    "chebint",
    "chebinterpolate",
    "chebline",
    "chebmul",
    "chebmulx",
    "chebone",
    "chebpow",
    "chebpts1",
    "chebpts2",
    "chebroots",
    "chebsub",
    "chebtrim",
    "chebval",
    "chebval2d",
    "chebval3d",
    "chebvander",
    "chebvander2d",
    "chebvander3d",
    "chebweight",
    "chebx",
    "chebzero",
    "poly2cheb",
]

doc = _docs.documenter(_docs.Family("cheb", "Chebyshev series", "numpy.polynomial.chebyshev"))

chebtrim = pu.trimcoef
chebdomain = asarray([-1.0, 1.0])
chebzero = asarray([0])
chebone = asarray([1])
chebx = asarray([0, 1])


def _to_z(c):
    """The z-series of c: symmetric, c[0] in the middle and the rest halved on both sides."""
    half = c / 2
    return _series.concat(half[1:][::-1], c[:1], half[1:])


def _from_z(z):
    n = (z.shape[0] + 1) // 2
    return _series.concat(z[n - 1 : n], z[n:] * 2)


def _z_div(z1, z2):
    """Division of z-series; the quotient is symmetric, so it is built from both ends at once."""
    n1, n2 = z1.shape[0], z2.shape[0]
    if n2 == 1:
        z1 = z1 / z2
        return z1, z1[:1] * 0
    if n1 < n2:
        return z1[:1] * 0, z1
    dlen = n1 - n2
    scl = z2[0]
    z2 = z2 / scl
    quo = [None] * (dlen + 1)
    i, j = 0, dlen
    while i < j:
        r = z1[i]
        quo[i] = quo[dlen - i] = r
        tmp = r * z2
        z1 = _series.concat(z1[:i], z1[i : i + n2] - tmp, z1[i + n2 :])
        z1 = _series.concat(z1[:j], z1[j : j + n2] - tmp, z1[j + n2 :])
        i, j = i + 1, j - 1
    r = z1[i]
    quo[i] = r
    z1 = _series.concat(z1[:i], z1[i : i + n2] - r * z2, z1[i + n2 :])
    return _series.stack(quo, z1.dtype) / scl, z1[i + 1 : i - 1 + n2]


@doc("line")
def chebline(off: Any, scl: Any) -> NDArray:
    return _series.line(off, scl)


@doc("fromroots")
def chebfromroots(roots: ArrayLike) -> NDArray:
    return _series.fromroots(chebline, chebmul, roots)


@doc("add")
def chebadd(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    return _series.add(c1, c2)


@doc("sub")
def chebsub(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    return _series.sub(c1, c2)


@doc("mulx")
def chebmulx(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    if len(c) == 1 and c[0] == 0:
        return c
    prd = [c[0] * 0, c[0]]
    if len(c) > 1:
        tmp = c[1:] / 2
        prd = _series.concat(*prd, tmp)
        return _series.concat(prd[:-2] + tmp, prd[-2:])
    return _series.concat(*prd)


@doc("mul")
def chebmul(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    c1, c2 = pu.as_series([c1, c2])
    return pu.trimseq(_from_z(anp.convolve(_to_z(c1), _to_z(c2))))


@doc("div")
def chebdiv(c1: ArrayLike, c2: ArrayLike) -> tuple[NDArray, NDArray]:
    c1, c2 = pu.as_series([c1, c2])
    if c2[-1] == 0:
        raise ZeroDivisionError("division by a zero series")
    n1, n2 = len(c1), len(c2)
    if n1 < n2:
        return c1[:1] * 0, c1
    if n2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    quo, rem = _z_div(_to_z(c1), _to_z(c2))
    return pu.trimseq(_from_z(quo)), pu.trimseq(_from_z(rem))


@doc("pow")
def chebpow(c: ArrayLike, pow: int, maxpower: int | None = 16) -> NDArray:
    [c] = pu.as_series([c])
    power = int(pow)
    if power != pow or power < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and power > maxpower:
        raise ValueError("Power is too large")
    if power == 0:
        return anp.asarray([1], dtype=c.dtype)
    if power == 1:
        return c
    zs = _to_z(c)
    prd = zs
    for _ in range(2, power + 1):
        prd = anp.convolve(prd, zs)
    return _from_z(prd)


def _der_step(c, n):
    der = [None] * n
    for j in range(n, 2, -1):
        der[j - 1] = (2 * j) * c[j]
        c[j - 2] = c[j - 2] + (j * c[j]) / (j - 2)
    if n > 1:
        der[1] = 4 * c[2]
    der[0] = c[1]
    return der


@doc("der")
def chebder(c: ArrayLike, m: int = 1, scl: Any = 1, axis: int = 0) -> NDArray:
    return _series.derivative(c, m, scl, axis, _der_step)


def _int_step(c):
    n = len(c)
    tmp = [c[0] * 0, c[0]] + [None] * (n - 1)
    if n > 1:
        tmp[2] = c[1] / 4
    for j in range(2, n):
        tmp[j + 1] = c[j] / (2 * (j + 1))
        tmp[j - 1] = tmp[j - 1] - c[j] / (2 * (j - 1))
    return tmp


@doc("int")
def chebint(
    c: ArrayLike,
    m: int = 1,
    k: Any = (),
    lbnd: Any = 0,
    scl: Any = 1,
    axis: int = 0,
) -> NDArray:
    return _series.integral(c, m, k, lbnd, scl, axis, _int_step, chebval)


@doc("val")
def chebval(x: Any, c: ArrayLike, tensor: bool = True) -> Any:
    x, c = _series.evaluation_args(x, c, tensor)
    r = _series.rows(c, x)
    if len(r) == 1:
        c0, c1 = r[0], 0
    elif len(r) == 2:
        c0, c1 = r[0], r[1]
    else:
        x2 = 2 * x
        c0, c1 = r[-2], r[-1]
        for i in range(3, len(r) + 1):
            c0, c1 = r[-i] - c1, c0 + c1 * x2
    return c0 + c1 * x


@doc("val2d")
def chebval2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.valnd(chebval, c, x, y)


@doc("grid2d")
def chebgrid2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.gridnd(chebval, c, x, y)


@doc("val3d")
def chebval3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.valnd(chebval, c, x, y, z)


@doc("grid3d")
def chebgrid3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.gridnd(chebval, c, x, y, z)


@doc("vander")
def chebvander(x: ArrayLike, deg: int) -> NDArray:
    return _series.vander(x, deg, lambda x: x, lambda v, x, i: v[i - 1] * (2 * x) - v[i - 2])


@doc("vander2d")
def chebvander2d(x: ArrayLike, y: ArrayLike, deg: Any) -> NDArray:
    return _series.vander_nd_flat((chebvander, chebvander), (x, y), deg)


@doc("vander3d")
def chebvander3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, deg: Any) -> NDArray:
    return _series.vander_nd_flat((chebvander,) * 3, (x, y, z), deg)


@doc("fit")
def chebfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: Any,
    rcond: float | None = None,
    full: bool = False,
    w: ArrayLike | None = None,
) -> Any:
    return _series.fit(chebvander, x, y, deg, rcond, full, w)


@doc("companion")
def chebcompanion(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    if len(c) < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if len(c) == 2:
        return anp.reshape(-c[0] / c[1], (1, 1))
    n = len(c) - 1
    scl = anp.asarray([1.0] + [numpy.sqrt(0.5)] * (n - 1))
    top = anp.asarray([numpy.sqrt(0.5)] + [0.5] * (n - 2))
    last = (c[:-1] / c[-1]) * (scl / scl[-1]) * 0.5
    return _series.companion_matrix({1: top, -1: top}, last)


@doc("roots")
def chebroots(c: ArrayLike) -> NDArray:
    return _series.roots(chebcompanion, c, lambda c: -c[0] / c[1])


@doc("gauss")
def chebgauss(deg: int) -> tuple[NDArray, NDArray]:
    ideg = _series.as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    x = anp.cos(numpy.pi * anp.arange(1, 2 * ideg, 2) / (2.0 * ideg))
    return x, anp.ones(ideg) * (numpy.pi / ideg)


@doc("weight")
def chebweight(x: ArrayLike) -> NDArray:
    x = anp.asarray(x)
    return 1.0 / (anp.sqrt(1.0 + x) * anp.sqrt(1.0 - x))


@doc("2poly")
def cheb2poly(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    n = len(c)
    if n < 3:
        return c
    c0, c1 = c[-2], c[-1]
    for i in range(n - 1, 1, -1):
        c0, c1 = polysub(c[i - 2], c1), polyadd(c0, polymulx(c1) * 2)
    return polyadd(c0, polymulx(c1))


@doc("poly2")
def poly2cheb(pol: ArrayLike) -> NDArray:
    [pol] = pu.as_series([pol])
    res = 0
    for i in range(len(pol) - 1, -1, -1):
        res = chebadd(chebmulx(res), pol[i])
    return res


def chebpts1(npts: int) -> NDArray:
    """Chebyshev points of the first kind.

    Parameters
    ----------
    npts : int
        Number of sample points desired (at least 1).

    Returns
    -------
    pts : ndarray
        The Chebyshev points of the first kind, ``cos(pi*(k + .5)/npts)`` in increasing order.

    See Also
    --------
    numpy.polynomial.chebyshev.chebpts1 : The NumPy function this mirrors.
    chebpts2
    """
    n = int(npts)
    if n != npts:
        raise ValueError("npts must be integer")
    if n < 1:
        raise ValueError("npts must be >= 1")
    return anp.sin(0.5 * numpy.pi / n * anp.arange(-n + 1, n + 1, 2))


def chebpts2(npts: int) -> NDArray:
    """Chebyshev points of the second kind.

    Parameters
    ----------
    npts : int
        Number of sample points desired (at least 2).

    Returns
    -------
    pts : ndarray
        The Chebyshev points of the second kind, ``cos(pi*k/(npts - 1))`` in increasing order.

    See Also
    --------
    numpy.polynomial.chebyshev.chebpts2 : The NumPy function this mirrors.
    chebpts1
    """
    n = int(npts)
    if n != npts:
        raise ValueError("npts must be integer")
    if n < 2:
        raise ValueError("npts must be >= 2")
    return anp.cos(anp.linspace(-numpy.pi, 0, n))


def chebinterpolate(func: Callable, deg: int, args: tuple = ()) -> NDArray:
    """Interpolate a function at the Chebyshev points of the first kind.

    Parameters
    ----------
    func : function
        The function to be approximated; called as ``func(x, *args)`` on an array of points.
    deg : int
        Degree of the interpolating polynomial.
    args : tuple, optional
        Extra arguments to be used in the function call.

    Returns
    -------
    coef : ndarray, shape (deg + 1,)
        Chebyshev coefficients of the interpolating series, ordered from low to high.

    See Also
    --------
    numpy.polynomial.chebyshev.chebinterpolate : The NumPy function this mirrors.
    chebpts1, chebvander
    """
    degs = numpy.asarray(deg)
    if degs.ndim > 0 or degs.dtype.kind not in "iu":
        raise TypeError("deg must be an int")
    if degs < 0:
        raise ValueError("expected deg >= 0")
    order = int(degs) + 1
    xcheb = chebpts1(order)
    c = anp.dot(chebvander(xcheb, order - 1).T, anp.asarray(func(xcheb, *args)))
    return _series.concat(c[:1] / order, c[1:] / (0.5 * order))


class Chebyshev(ABCPolyBase):
    """A Chebyshev series class.

    Parameters
    ----------
    coef : array_like
        Chebyshev coefficients in order of increasing degree.
    domain : (2,) array_like, optional
        Domain to use, mapped to the window by shifting and scaling ([-1., 1.] by default).
    window : (2,) array_like, optional
        Window, see `domain` ([-1., 1.] by default).
    symbol : str, optional
        Symbol used to represent the independent variable in printing ('x' by default).

    See Also
    --------
    numpy.polynomial.chebyshev.Chebyshev : The NumPy class this mirrors.
    """

    _add = staticmethod(chebadd)
    _sub = staticmethod(chebsub)
    _mul = staticmethod(chebmul)
    _div = staticmethod(chebdiv)
    _pow = staticmethod(chebpow)
    _val = staticmethod(chebval)
    _int = staticmethod(chebint)
    _der = staticmethod(chebder)
    _fit = staticmethod(chebfit)
    _line = staticmethod(chebline)
    _roots = staticmethod(chebroots)
    _fromroots = staticmethod(chebfromroots)

    domain = chebdomain
    window = chebdomain
    basis_name = "T"

    @classmethod
    def interpolate(
        cls, func: Callable, deg: int, domain: ArrayLike | None = None, args: tuple = ()
    ) -> Chebyshev:
        """Interpolate a function at the Chebyshev points of the first kind.

        Parameters
        ----------
        func : function
            The function to be interpolated, called as ``func(x, *args)``.
        deg : int
            Degree of the interpolating polynomial.
        domain : {None, [beg, end]}, optional
            Domain over which `func` is interpolated ([-1, 1] by default).
        args : tuple, optional
            Extra arguments passed to `func`.

        Returns
        -------
        polynomial : Chebyshev instance
            Interpolating Chebyshev instance.

        See Also
        --------
        numpy.polynomial.chebyshev.Chebyshev.interpolate : The NumPy method this mirrors.
        """
        if domain is None:
            domain = cls.domain

        def xfunc(x):
            return func(pu.mapdomain(x, cls.window, domain), *args)

        return cls(chebinterpolate(xfunc, deg), domain=domain)
