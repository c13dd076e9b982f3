"""Legendre series (numpy.polynomial.legendre): the leg* functions and the Legendre class, with
Bonnet's recurrence (n + 1) P_{n+1} = (2n + 1) x P_n - n P_{n-1} where NumPy uses it."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
    "Legendre",
    "leg2poly",
    "legadd",
    "legcompanion",
    "legder",
    "legdiv",
    "legdomain",
    "legfit",
    "legfromroots",
    "leggauss",
    "leggrid2d",
    "leggrid3d",
    "legint",
    "legline",
    "legmul",
    "legmulx",
    "legone",
    "legpow",
    "legroots",
    "legsub",
    "legtrim",
    "legval",
    "legval2d",
    "legval3d",
    "legvander",
    "legvander2d",
    "legvander3d",
    "legweight",
    "legx",
    "legzero",
    "poly2leg",
]

doc = _docs.documenter(_docs.Family("leg", "Legendre series", "numpy.polynomial.legendre"))

legtrim = pu.trimcoef
legdomain = asarray([-1.0, 1.0])
legzero = asarray([0])
legone = asarray([1])
legx = asarray([0, 1])


@doc("line")
def legline(off: Any, scl: Any) -> NDArray:
    return _series.line(off, scl)


@doc("fromroots")
def legfromroots(roots: ArrayLike) -> NDArray:
    return _series.fromroots(legline, legmul, roots)


@doc("add")
def legadd(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    return _series.add(c1, c2)


@doc("sub")
def legsub(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    return _series.sub(c1, c2)


@doc("mulx")
def legmulx(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    if len(c) == 1 and c[0] == 0:
        return c
    prd = [c[0] * 0, c[0]] + [None] * (len(c) - 1)
    for i in range(1, len(c)):
        j, k, s = i + 1, i - 1, 2 * i + 1
        prd[j] = (c[i] * j) / s
        prd[k] = prd[k] + (c[i] * i) / s
    return _series.stack(prd, c.dtype)


@doc("mul")
def legmul(c1: ArrayLike, c2: ArrayLike) -> NDArray:
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
                legsub(c[-i] * xs, (c1 * (nd - 1)) / nd),
                legadd(c0, (legmulx(c1) * (2 * nd - 1)) / nd),
            )
    return legadd(c0, legmulx(c1))


@doc("div")
def legdiv(c1: ArrayLike, c2: ArrayLike) -> tuple[NDArray, NDArray]:
    return _series.div(legmul, c1, c2)


@doc("pow")
def legpow(c: ArrayLike, pow: int, maxpower: int | None = 16) -> NDArray:
    return _series.power(legmul, c, pow, maxpower)


def _der_step(c, n):
    der = [None] * n
    for j in range(n, 2, -1):
        der[j - 1] = (2 * j - 1) * c[j]
        c[j - 2] = c[j - 2] + c[j]
    if n > 1:
        der[1] = 3 * c[2]
    der[0] = c[1]
    return der


@doc("der")
def legder(c: ArrayLike, m: int = 1, scl: Any = 1, axis: int = 0) -> NDArray:
    return _series.derivative(c, m, scl, axis, _der_step)


def _int_step(c):
    n = len(c)
    tmp = [c[0] * 0, c[0]] + [None] * (n - 1)
    if n > 1:
        tmp[2] = c[1] / 3
    for j in range(2, n):
        t = c[j] / (2 * j + 1)
        tmp[j + 1] = t
        tmp[j - 1] = tmp[j - 1] - t
    return tmp


@doc("int")
def legint(
    c: ArrayLike,
    m: int = 1,
    k: Any = (),
    lbnd: Any = 0,
    scl: Any = 1,
    axis: int = 0,
) -> NDArray:
    return _series.integral(c, m, k, lbnd, scl, axis, _int_step, legval)


@doc("val")
def legval(x: Any, c: ArrayLike, tensor: bool = True) -> Any:
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
            c0, c1 = r[-i] - c1 * ((nd - 1) / nd), c0 + c1 * x * ((2 * nd - 1) / nd)
    return c0 + c1 * x


@doc("val2d")
def legval2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.valnd(legval, c, x, y)


@doc("grid2d")
def leggrid2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.gridnd(legval, c, x, y)


@doc("val3d")
def legval3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.valnd(legval, c, x, y, z)


@doc("grid3d")
def leggrid3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.gridnd(legval, c, x, y, z)


def _vander_step(v, x, i):
    return (v[i - 1] * x * (2 * i - 1) - v[i - 2] * (i - 1)) / i


@doc("vander")
def legvander(x: ArrayLike, deg: int) -> NDArray:
    return _series.vander(x, deg, lambda x: x, _vander_step)


@doc("vander2d")
def legvander2d(x: ArrayLike, y: ArrayLike, deg: Any) -> NDArray:
    return _series.vander_nd_flat((legvander, legvander), (x, y), deg)


@doc("vander3d")
def legvander3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, deg: Any) -> NDArray:
    return _series.vander_nd_flat((legvander,) * 3, (x, y, z), deg)


@doc("fit")
def legfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: Any,
    rcond: float | None = None,
    full: bool = False,
    w: ArrayLike | None = None,
) -> Any:
    return _series.fit(legvander, x, y, deg, rcond, full, w)


@doc("companion")
def legcompanion(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    if len(c) < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if len(c) == 2:
        return anp.reshape(-c[0] / c[1], (1, 1))
    n = len(c) - 1
    scl = 1.0 / anp.sqrt(2 * anp.arange(n) + 1)
    top = anp.arange(1, n) * scl[: n - 1] * scl[1:n]
    last = (c[:-1] / c[-1]) * (scl / scl[-1]) * (n / (2 * n - 1))
    return _series.companion_matrix({1: top, -1: top}, last)


@doc("roots")
def legroots(c: ArrayLike) -> NDArray:
    return _series.roots(legcompanion, c, lambda c: -c[0] / c[1])


@doc("gauss")
def leggauss(deg: int) -> tuple[NDArray, NDArray]:
    ideg = _series.as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    c = anp.asarray([0] * ideg + [1])
    x = anp.linalg.eigvalsh(legcompanion(c))
    dy = legval(x, c)  # one Newton step polishes the eigenvalues
    df = legval(x, legder(c))
    x = x - dy / df
    fm = legval(x, c[1:])
    fm = fm / anp.max(anp.abs(fm))
    df = df / anp.max(anp.abs(df))
    w = 1 / (fm * df)
    w = (w + w[::-1]) / 2  # symmetric about the origin
    x = (x - x[::-1]) / 2
    return x, w * (2.0 / anp.sum(w))


@doc("weight")
def legweight(x: ArrayLike) -> NDArray:
    return anp.asarray(x) * 0.0 + 1.0


@doc("2poly")
def leg2poly(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    n = len(c)
    if n < 3:
        return c
    c0, c1 = c[-2], c[-1]
    for i in range(n - 1, 1, -1):
        c0, c1 = (
            polysub(c[i - 2], (c1 * (i - 1)) / i),
            polyadd(c0, (polymulx(c1) * (2 * i - 1)) / i),
        )
    return polyadd(c0, polymulx(c1))


@doc("poly2")
def poly2leg(pol: ArrayLike) -> NDArray:
    [pol] = pu.as_series([pol])
    res = 0
    for i in range(len(pol) - 1, -1, -1):
        res = legadd(legmulx(res), pol[i])
    return res


class Legendre(ABCPolyBase):
    """A Legendre series class.

    Parameters
    ----------
    coef : array_like
        Legendre coefficients in order of increasing degree.
    domain : (2,) array_like, optional
        Domain to use, mapped to the window by shifting and scaling ([-1., 1.] by default).
    window : (2,) array_like, optional
        Window, see `domain` ([-1., 1.] by default).
    symbol : str, optional
        Symbol used to represent the independent variable in printing ('x' by default).

    See Also
    --------
    numpy.polynomial.legendre.Legendre : The NumPy class this mirrors.
    """

    _add = staticmethod(legadd)
    _sub = staticmethod(legsub)
    _mul = staticmethod(legmul)
    _div = staticmethod(legdiv)
    _pow = staticmethod(legpow)
    _val = staticmethod(legval)
    _int = staticmethod(legint)
    _der = staticmethod(legder)
    _fit = staticmethod(legfit)
    _line = staticmethod(legline)
    _roots = staticmethod(legroots)
    _fromroots = staticmethod(legfromroots)

    domain = legdomain
    window = legdomain
    basis_name = "P"
