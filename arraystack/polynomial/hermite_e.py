"""Hermite series, probabilists' (numpy.polynomial.hermite_e): the herme* functions and the
HermiteE class, with the recurrence He_{n+1} = x He_n - n He_{n-1} where NumPy uses it."""

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
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray

__all__ = [
    "HermiteE",
    "herme2poly",
    "hermeadd",
    "hermecompanion",
    "hermeder",
    "hermediv",
    "hermedomain",
    "hermefit",
    "hermefromroots",
    "hermegauss",
    "hermegrid2d",
    "hermegrid3d",
    "hermeint",
    "hermeline",
    "hermemul",
    "hermemulx",
    "hermeone",
    "hermepow",
    "hermeroots",
    "hermesub",
    "hermetrim",
    "hermeval",
    "hermeval2d",
    "hermeval3d",
    "hermevander",
    "hermevander2d",
    "hermevander3d",
    "hermeweight",
    "hermex",
    "hermezero",
    "poly2herme",
]

doc = _docs.documenter(_docs.Family("herme", "HermiteE series", "numpy.polynomial.hermite_e"))

hermetrim = pu.trimcoef
hermedomain = asarray([-1.0, 1.0])
hermezero = asarray([0])
hermeone = asarray([1])
hermex = asarray([0, 1])


@doc("line")
def hermeline(off: Any, scl: Any) -> NDArray:
    return _series.line(off, scl)


@doc("fromroots")
def hermefromroots(roots: ArrayLike) -> NDArray:
    return _series.fromroots(hermeline, hermemul, roots)


@doc("add")
def hermeadd(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    return _series.add(c1, c2)


@doc("sub")
def hermesub(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    return _series.sub(c1, c2)


@doc("mulx")
def hermemulx(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    if len(c) == 1 and c[0] == 0:
        return c
    prd = [c[0] * 0, c[0]] + [None] * (len(c) - 1)
    for i in range(1, len(c)):
        prd[i + 1] = c[i]
        prd[i - 1] = prd[i - 1] + c[i] * i
    return _series.stack(prd, c.dtype)


@doc("mul")
def hermemul(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    c1, c2 = pu.as_series([c1, c2])
    c, xs = (c2, c1) if len(c1) > len(c2) else (c1, c2)
    if len(c) == 1:
        c0, c1 = c[0] * xs, 0
    elif len(c) == 2:
        c0, c1 = c[0] * xs, c[1] * xs
    else:
        nd = len(c)
        c0, c1 = c[-2] * xs, c[-1] * xs
        for i in range(3, len(c) + 1):
            nd = nd - 1
            c0, c1 = (
                hermesub(c[-i] * xs, c1 * (nd - 1)),
                hermeadd(c0, hermemulx(c1)),
            )
    return hermeadd(c0, hermemulx(c1))


@doc("div")
def hermediv(c1: ArrayLike, c2: ArrayLike) -> tuple[NDArray, NDArray]:
    return _series.div(hermemul, c1, c2)


@doc("pow")
def hermepow(c: ArrayLike, pow: int, maxpower: int | None = 16) -> NDArray:
    return _series.power(hermemul, c, pow, maxpower)


def _der_step(c, n):
    return [j * c[j] for j in range(1, n + 1)]


@doc("der")
def hermeder(c: ArrayLike, m: int = 1, scl: Any = 1, axis: int = 0) -> NDArray:
    der = _series.derivative(c, m, scl, axis, _der_step)
    c = _series.float_array(c)
    if _series.as_int(m, "") >= c.shape[axis] > 0 and c.ndim > 1:
        # Note: NumPy's hermeder returns the zero series before moving `axis` back in place
        return anp.moveaxis(der, axis, 0)
    return der


def _int_step(c):
    return [c[0] * 0, c[0]] + [c[j] / (j + 1) for j in range(1, len(c))]


@doc("int")
def hermeint(
    c: ArrayLike,
    m: int = 1,
    k: Any = (),
    lbnd: Any = 0,
    scl: Any = 1,
    axis: int = 0,
) -> NDArray:
    return _series.integral(c, m, k, lbnd, scl, axis, _int_step, hermeval)


@doc("val")
def hermeval(x: Any, c: ArrayLike, tensor: bool = True) -> Any:
    x, c = _series.evaluation_args(x, c, tensor)
    r = _series.rows(c, x)
    if len(r) == 1:
        c0, c1 = r[0], 0
    elif len(r) == 2:
        c0, c1 = r[0], r[1]
    else:
        nd = len(r)
        c0, c1 = r[-2], r[-1]
        for i in range(3, len(r) + 1):
            nd = nd - 1
            c0, c1 = r[-i] - c1 * (nd - 1), c0 + c1 * x
    return c0 + c1 * x


@doc("val2d")
def hermeval2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.valnd(hermeval, c, x, y)


@doc("grid2d")
def hermegrid2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.gridnd(hermeval, c, x, y)


@doc("val3d")
def hermeval3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.valnd(hermeval, c, x, y, z)


@doc("grid3d")
def hermegrid3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.gridnd(hermeval, c, x, y, z)


def _vander_step(v, x, i):
    return v[i - 1] * x - v[i - 2] * (i - 1)


@doc("vander")
def hermevander(x: ArrayLike, deg: int) -> NDArray:
    return _series.vander(x, deg, lambda x: x, _vander_step)


@doc("vander2d")
def hermevander2d(x: ArrayLike, y: ArrayLike, deg: Any) -> NDArray:
    return _series.vander_nd_flat((hermevander, hermevander), (x, y), deg)


@doc("vander3d")
def hermevander3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, deg: Any) -> NDArray:
    return _series.vander_nd_flat((hermevander,) * 3, (x, y, z), deg)


@doc("fit")
def hermefit(
    x: ArrayLike,
    y: ArrayLike,
    deg: Any,
    rcond: float | None = None,
    full: bool = False,
    w: ArrayLike | None = None,
) -> Any:
    return _series.fit(hermevander, x, y, deg, rcond, full, w)


@doc("companion")
def hermecompanion(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    if len(c) < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if len(c) == 2:
        return anp.reshape(-c[0] / c[1], (1, 1))
    n = len(c) - 1
    scl = anp.cumprod(_series.concat(1.0, 1.0 / anp.sqrt(anp.arange(n - 1, 0, -1))))[::-1]
    top = anp.sqrt(anp.arange(1, n))
    return _series.companion_matrix({1: top, -1: top}, scl * c[:-1] / (c[-1]))


@doc("roots")
def hermeroots(c: ArrayLike) -> NDArray:
    return _series.roots(hermecompanion, c, lambda c: -c[0] / c[1])


def _normed_n(x, n):
    """The degree-n HermiteE function normalised to unit L2 norm under the weight,
    by its recurrence (the unnormalised values overflow for large n)."""
    if n == 0:
        return anp.full(x.shape, 1 / numpy.sqrt(numpy.sqrt(2 * numpy.pi)))
    c0, c1 = 0.0, 1.0 / numpy.sqrt(numpy.sqrt(2 * numpy.pi))
    nd = float(n)
    for _ in range(n - 1):
        c0, c1 = -c1 * numpy.sqrt((nd - 1.0) / nd), c0 + c1 * x * numpy.sqrt(1.0 / nd)
        nd = nd - 1.0
    return c0 + c1 * x


@doc("gauss")
def hermegauss(deg: int) -> tuple[NDArray, NDArray]:
    ideg = _series.as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    c = anp.asarray([0] * ideg + [1], dtype=anp.float64)
    x = anp.linalg.eigvalsh(hermecompanion(c))
    dy = _normed_n(x, ideg)  # one Newton step polishes the eigenvalues
    df = _normed_n(x, ideg - 1) * numpy.sqrt(ideg)
    x = x - dy / df
    fm = _normed_n(x, ideg - 1)
    fm = fm / anp.max(anp.abs(fm))
    w = 1 / (fm * fm)
    w = (w + w[::-1]) / 2  # symmetric about the origin
    x = (x - x[::-1]) / 2
    return x, w * (numpy.sqrt(2 * numpy.pi) / anp.sum(w))


@doc("weight")
def hermeweight(x: ArrayLike) -> NDArray:
    return anp.exp(-0.5 * anp.asarray(x) ** 2)


@doc("2poly")
def herme2poly(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    n = len(c)
    if n < 3:
        return c
    c0, c1 = c[-2], c[-1]
    for i in range(n - 1, 1, -1):
        c0, c1 = polysub(c[i - 2], c1 * (i - 1)), polyadd(c0, polymulx(c1))
    return polyadd(c0, polymulx(c1))


@doc("poly2")
def poly2herme(pol: ArrayLike) -> NDArray:
    [pol] = pu.as_series([pol])
    res = 0
    for i in range(len(pol) - 1, -1, -1):
        res = hermeadd(hermemulx(res), pol[i])
    return res


class HermiteE(ABCPolyBase):
    """A HermiteE series class.

    Parameters
    ----------
    coef : array_like
        HermiteE coefficients in order of increasing degree.
    domain : (2,) array_like, optional
        Domain to use, mapped to the window by shifting and scaling ([-1., 1.] by default).
    window : (2,) array_like, optional
        Window, see `domain` ([-1., 1.] by default).
    symbol : str, optional
        Symbol used to represent the independent variable in printing ('x' by default).

    See Also
    --------
    numpy.polynomial.hermite_e.HermiteE : The NumPy class this mirrors.
    """

    _add = staticmethod(hermeadd)
    _sub = staticmethod(hermesub)
    _mul = staticmethod(hermemul)
    _div = staticmethod(hermediv)
    _pow = staticmethod(hermepow)
    _val = staticmethod(hermeval)
    _int = staticmethod(hermeint)
    _der = staticmethod(hermeder)
    _fit = staticmethod(hermefit)
    _line = staticmethod(hermeline)
    _roots = staticmethod(hermeroots)
    _fromroots = staticmethod(hermefromroots)

    domain = hermedomain
    window = hermedomain
    basis_name = "He"
