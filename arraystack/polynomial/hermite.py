"""Hermite series, physicists' (numpy.polynomial.hermite): the herm* functions and the Hermite
class, with the recurrence H_{n+1} = 2x H_n - 2n H_{n-1} where NumPy uses it."""

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
    "Hermite",
    "herm2poly",
    "hermadd",
    "hermcompanion",
    "hermder",
    "hermdiv",
    "hermdomain",
    "hermfit",
    "hermfromroots",
    "hermgauss",
    "hermgrid2d",
    "hermgrid3d",
    "hermint",
    "hermline",
    "hermmul",
    "hermmulx",
    "hermone",
    "hermpow",
    "hermroots",
    "hermsub",
    "hermtrim",
    "hermval",
    "hermval2d",
    "hermval3d",
    "hermvander",
    "hermvander2d",
    "hermvander3d",
    "hermweight",
    "hermx",
    "hermzero",
    "poly2herm",
]

doc = _docs.documenter(_docs.Family("herm", "Hermite series", "numpy.polynomial.hermite"))

hermtrim = pu.trimcoef
hermdomain = asarray([-1.0, 1.0])
hermzero = asarray([0])
hermone = asarray([1])
hermx = asarray([0, 1 / 2])


@doc("line")
def hermline(off: Any, scl: Any) -> NDArray:
    return _series.line(off, scl / 2)


@doc("fromroots")
def hermfromroots(roots: ArrayLike) -> NDArray:
    return _series.fromroots(hermline, hermmul, roots)


@doc("add")
def hermadd(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    return _series.add(c1, c2)


@doc("sub")
def hermsub(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    return _series.sub(c1, c2)


@doc("mulx")
def hermmulx(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    if len(c) == 1 and c[0] == 0:
        return c
    prd = [c[0] * 0, c[0] / 2] + [None] * (len(c) - 1)
    for i in range(1, len(c)):
        prd[i + 1] = c[i] / 2
        prd[i - 1] = prd[i - 1] + c[i] * i
    return _series.stack(prd, c.dtype)


@doc("mul")
def hermmul(c1: ArrayLike, c2: ArrayLike) -> NDArray:
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
                hermsub(c[-i] * xs, c1 * (2 * (nd - 1))),
                hermadd(c0, hermmulx(c1) * 2),
            )
    return hermadd(c0, hermmulx(c1) * 2)


@doc("div")
def hermdiv(c1: ArrayLike, c2: ArrayLike) -> tuple[NDArray, NDArray]:
    return _series.div(hermmul, c1, c2)


@doc("pow")
def hermpow(c: ArrayLike, pow: int, maxpower: int | None = 16) -> NDArray:
    return _series.power(hermmul, c, pow, maxpower)


def _der_step(c, n):
    return [(2 * j) * c[j] for j in range(1, n + 1)]


@doc("der")
def hermder(c: ArrayLike, m: int = 1, scl: Any = 1, axis: int = 0) -> NDArray:
    return _series.derivative(c, m, scl, axis, _der_step)


def _int_step(c):
    return [c[0] * 0, c[0] / 2] + [c[j] / (2 * (j + 1)) for j in range(1, len(c))]


@doc("int")
def hermint(
    c: ArrayLike,
    m: int = 1,
    k: Any = (),
    lbnd: Any = 0,
    scl: Any = 1,
    axis: int = 0,
) -> NDArray:
    return _series.integral(c, m, k, lbnd, scl, axis, _int_step, hermval)


@doc("val")
def hermval(x: Any, c: ArrayLike, tensor: bool = True) -> Any:
    x, c = _series.evaluation_args(x, c, tensor)
    r = _series.rows(c, x)
    if len(r) == 1:
        c0, c1 = r[0], 0
    elif len(r) == 2:
        c0, c1 = r[0], r[1]
    else:
        nd = len(r)
        c0, c1 = r[-2], r[-1]
        x2 = x * 2
        for i in range(3, len(r) + 1):
            nd = nd - 1
            c0, c1 = r[-i] - c1 * (2 * (nd - 1)), c0 + c1 * x2
    return c0 + c1 * (x * 2)


@doc("val2d")
def hermval2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.valnd(hermval, c, x, y)


@doc("grid2d")
def hermgrid2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.gridnd(hermval, c, x, y)


@doc("val3d")
def hermval3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.valnd(hermval, c, x, y, z)


@doc("grid3d")
def hermgrid3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.gridnd(hermval, c, x, y, z)


def _vander_step(v, x, i):
    return v[i - 1] * (x * 2) - v[i - 2] * (2 * (i - 1))


@doc("vander")
def hermvander(x: ArrayLike, deg: int) -> NDArray:
    return _series.vander(x, deg, lambda x: x * 2, _vander_step)


@doc("vander2d")
def hermvander2d(x: ArrayLike, y: ArrayLike, deg: Any) -> NDArray:
    return _series.vander_nd_flat((hermvander, hermvander), (x, y), deg)


@doc("vander3d")
def hermvander3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, deg: Any) -> NDArray:
    return _series.vander_nd_flat((hermvander,) * 3, (x, y, z), deg)


@doc("fit")
def hermfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: Any,
    rcond: float | None = None,
    full: bool = False,
    w: ArrayLike | None = None,
) -> Any:
    return _series.fit(hermvander, x, y, deg, rcond, full, w)


@doc("companion")
def hermcompanion(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    if len(c) < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if len(c) == 2:
        return anp.reshape(-0.5 * c[0] / c[1], (1, 1))
    n = len(c) - 1
    scl = anp.cumprod(_series.concat(1.0, 1.0 / anp.sqrt(2.0 * anp.arange(n - 1, 0, -1))))[::-1]
    top = anp.sqrt(0.5 * anp.arange(1, n))
    return _series.companion_matrix({1: top, -1: top}, scl * c[:-1] / (2.0 * c[-1]))


@doc("roots")
def hermroots(c: ArrayLike) -> NDArray:
    return _series.roots(hermcompanion, c, lambda c: -0.5 * c[0] / c[1])


def _normed_n(x, n):
    """The degree-n Hermite function normalised to unit L2 norm under the weight,
    by its recurrence (the unnormalised values overflow for large n)."""
    if n == 0:
        return anp.full(x.shape, 1 / numpy.sqrt(numpy.sqrt(numpy.pi)))
    c0, c1 = 0.0, 1.0 / numpy.sqrt(numpy.sqrt(numpy.pi))
    nd = float(n)
    for _ in range(n - 1):
        c0, c1 = -c1 * numpy.sqrt((nd - 1.0) / nd), c0 + c1 * x * numpy.sqrt(2.0 / nd)
        nd = nd - 1.0
    return c0 + c1 * x * numpy.sqrt(2)


@doc("gauss")
def hermgauss(deg: int) -> tuple[NDArray, NDArray]:
    ideg = _series.as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    c = anp.asarray([0] * ideg + [1], dtype=anp.float64)
    x = anp.linalg.eigvalsh(hermcompanion(c))
    dy = _normed_n(x, ideg)  # one Newton step polishes the eigenvalues
    df = _normed_n(x, ideg - 1) * numpy.sqrt(2 * ideg)
    x = x - dy / df
    fm = _normed_n(x, ideg - 1)
    fm = fm / anp.max(anp.abs(fm))
    w = 1 / (fm * fm)
    w = (w + w[::-1]) / 2  # symmetric about the origin
    x = (x - x[::-1]) / 2
    return x, w * (numpy.sqrt(numpy.pi) / anp.sum(w))


@doc("weight")
def hermweight(x: ArrayLike) -> NDArray:
    return anp.exp(-(anp.asarray(x) ** 2))


@doc("2poly")
def herm2poly(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    n = len(c)
    if n == 1:
        return c
    if n == 2:
        return _series.concat(c[:1], c[1:] * 2)
    c0, c1 = c[-2], c[-1]
    for i in range(n - 1, 1, -1):
        c0, c1 = polysub(c[i - 2], c1 * (2 * (i - 1))), polyadd(c0, polymulx(c1) * 2)
    return polyadd(c0, polymulx(c1) * 2)


@doc("poly2")
def poly2herm(pol: ArrayLike) -> NDArray:
    [pol] = pu.as_series([pol])
    res = 0
    for i in range(len(pol) - 1, -1, -1):
        res = hermadd(hermmulx(res), pol[i])
    return res


class Hermite(ABCPolyBase):
    """A Hermite series class.

    Parameters
    ----------
    coef : array_like
        Hermite coefficients in order of increasing degree.
    domain : (2,) array_like, optional
        Domain to use, mapped to the window by shifting and scaling ([-1., 1.] by default).
    window : (2,) array_like, optional
        Window, see `domain` ([-1., 1.] by default).
    symbol : str, optional
        Symbol used to represent the independent variable in printing ('x' by default).

    See Also
    --------
    numpy.polynomial.hermite.Hermite : The NumPy class this mirrors.
    """

    _add = staticmethod(hermadd)
    _sub = staticmethod(hermsub)
    _mul = staticmethod(hermmul)
    _div = staticmethod(hermdiv)
    _pow = staticmethod(hermpow)
    _val = staticmethod(hermval)
    _int = staticmethod(hermint)
    _der = staticmethod(hermder)
    _fit = staticmethod(hermfit)
    _line = staticmethod(hermline)
    _roots = staticmethod(hermroots)
    _fromroots = staticmethod(hermfromroots)

    domain = hermdomain
    window = hermdomain
    basis_name = "H"
