"""Laguerre series (numpy.polynomial.laguerre): the lag* functions and the Laguerre class, with
the recurrence (n + 1) L_{n+1} = (2n + 1 - x) L_n - n L_{n-1} where NumPy uses it."""

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
    "Laguerre",
    "lag2poly",
    "lagadd",
    "lagcompanion",
    "lagder",
    "lagdiv",
    "lagdomain",
    "lagfit",
    "lagfromroots",
    "laggauss",
    "laggrid2d",
    "laggrid3d",
    "lagint",
    "lagline",
    "lagmul",
    "lagmulx",
    "lagone",
    "lagpow",
    "lagroots",
    "lagsub",
    "lagtrim",
    "lagval",
    "lagval2d",
    "lagval3d",
    "lagvander",
    "lagvander2d",
    "lagvander3d",
    "lagweight",
    "lagx",
    "lagzero",
    "poly2lag",
]

doc = _docs.documenter(_docs.Family("lag", "Laguerre series", "numpy.polynomial.laguerre"))

lagtrim = pu.trimcoef
lagdomain = asarray([0.0, 1.0])
lagzero = asarray([0])
lagone = asarray([1])
lagx = asarray([1, -1])


@doc("line")
def lagline(off: Any, scl: Any) -> NDArray:
    if scl != 0:
        return _series.line(off + scl, -scl)
    return _series.line(off, 0)


@doc("fromroots")
def lagfromroots(roots: ArrayLike) -> NDArray:
    return _series.fromroots(lagline, lagmul, roots)


@doc("add")
def lagadd(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    return _series.add(c1, c2)


@doc("sub")
def lagsub(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    return _series.sub(c1, c2)


@doc("mulx")
def lagmulx(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    if len(c) == 1 and c[0] == 0:
        return c
    prd = [c[0], -c[0]] + [None] * (len(c) - 1)
    for i in range(1, len(c)):
        prd[i + 1] = -c[i] * (i + 1)
        prd[i] = prd[i] + c[i] * (2 * i + 1)
        prd[i - 1] = prd[i - 1] - c[i] * i
    return _series.stack(prd, c.dtype)


@doc("mul")
def lagmul(c1: ArrayLike, c2: ArrayLike) -> NDArray:
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
                lagsub(c[-i] * xs, (c1 * (nd - 1)) / nd),
                lagadd(c0, lagsub((2 * nd - 1) * c1, lagmulx(c1)) / nd),
            )
    return lagadd(c0, lagsub(c1, lagmulx(c1)))


@doc("div")
def lagdiv(c1: ArrayLike, c2: ArrayLike) -> tuple[NDArray, NDArray]:
    return _series.div(lagmul, c1, c2)


@doc("pow")
def lagpow(c: ArrayLike, pow: int, maxpower: int | None = 16) -> NDArray:
    return _series.power(lagmul, c, pow, maxpower)


def _der_step(c, n):
    der = [None] * n
    for j in range(n, 1, -1):
        der[j - 1] = -c[j]
        c[j - 1] = c[j - 1] + c[j]
    der[0] = -c[1]
    return der


@doc("der")
def lagder(c: ArrayLike, m: int = 1, scl: Any = 1, axis: int = 0) -> NDArray:
    return _series.derivative(c, m, scl, axis, _der_step)


def _int_step(c):
    n = len(c)
    tmp = [c[0], -c[0]] + [None] * (n - 1)
    for j in range(1, n):
        tmp[j] = tmp[j] + c[j]
        tmp[j + 1] = -c[j]
    return tmp


@doc("int")
def lagint(
    c: ArrayLike,
    m: int = 1,
    k: Any = (),
    lbnd: Any = 0,
    scl: Any = 1,
    axis: int = 0,
) -> NDArray:
    return _series.integral(c, m, k, lbnd, scl, axis, _int_step, lagval)


@doc("val")
def lagval(x: Any, c: ArrayLike, tensor: bool = True) -> Any:
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
            c0, c1 = r[-i] - (c1 * (nd - 1)) / nd, c0 + (c1 * ((2 * nd - 1) - x)) / nd
    return c0 + c1 * (1 - x)


@doc("val2d")
def lagval2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.valnd(lagval, c, x, y)


@doc("grid2d")
def laggrid2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.gridnd(lagval, c, x, y)


@doc("val3d")
def lagval3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.valnd(lagval, c, x, y, z)


@doc("grid3d")
def laggrid3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.gridnd(lagval, c, x, y, z)


def _vander_step(v, x, i):
    return (v[i - 1] * (2 * i - 1 - x) - v[i - 2] * (i - 1)) / i


@doc("vander")
def lagvander(x: ArrayLike, deg: int) -> NDArray:
    return _series.vander(x, deg, lambda x: 1 - x, _vander_step)


@doc("vander2d")
def lagvander2d(x: ArrayLike, y: ArrayLike, deg: Any) -> NDArray:
    return _series.vander_nd_flat((lagvander, lagvander), (x, y), deg)


@doc("vander3d")
def lagvander3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, deg: Any) -> NDArray:
    return _series.vander_nd_flat((lagvander,) * 3, (x, y, z), deg)


@doc("fit")
def lagfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: Any,
    rcond: float | None = None,
    full: bool = False,
    w: ArrayLike | None = None,
) -> Any:
    return _series.fit(lagvander, x, y, deg, rcond, full, w)


@doc("companion")
def lagcompanion(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    if len(c) < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if len(c) == 2:
        return anp.reshape(1 + c[0] / c[1], (1, 1))
    n = len(c) - 1
    top = -anp.arange(1, n).astype(c.dtype)
    mid = 2.0 * anp.arange(n) + 1.0
    # Note: NumPy adds to the last column (the diagonal's sign differs from the other families)
    return _series.companion_matrix({0: mid, 1: top, -1: top}, -(c[:-1] / c[-1]) * n)


@doc("roots")
def lagroots(c: ArrayLike) -> NDArray:
    return _series.roots(lagcompanion, c, lambda c: 1 + c[0] / c[1])


@doc("gauss")
def laggauss(deg: int) -> tuple[NDArray, NDArray]:
    ideg = _series.as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    c = anp.asarray([0] * ideg + [1])
    x = anp.linalg.eigvalsh(lagcompanion(c))
    dy = lagval(x, c)  # one Newton step polishes the eigenvalues
    df = lagval(x, lagder(c))
    x = x - dy / df
    fm = lagval(x, c[1:])
    fm = fm / anp.max(anp.abs(fm))
    df = df / anp.max(anp.abs(df))
    w = 1 / (fm * df)
    return x, w / anp.sum(w)


@doc("weight")
def lagweight(x: ArrayLike) -> NDArray:
    return anp.exp(-anp.asarray(x))


@doc("2poly")
def lag2poly(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    n = len(c)
    if n == 1:
        return c
    c0, c1 = c[-2], c[-1]
    for i in range(n - 1, 1, -1):
        c0, c1 = (
            polysub(c[i - 2], (c1 * (i - 1)) / i),
            polyadd(c0, polysub((2 * i - 1) * c1, polymulx(c1)) / i),
        )
    return polyadd(c0, polysub(c1, polymulx(c1)))


@doc("poly2")
def poly2lag(pol: ArrayLike) -> NDArray:
    [pol] = pu.as_series([pol])
    res = 0
    for i in range(len(pol) - 1, -1, -1):
        res = lagadd(lagmulx(res), pol[i])
    return res


class Laguerre(ABCPolyBase):
    """A Laguerre series class.

    Parameters
    ----------
    coef : array_like
        Laguerre coefficients in order of increasing degree.
    domain : (2,) array_like, optional
        Domain to use, mapped to the window by shifting and scaling ([0., 1.] by default).
    window : (2,) array_like, optional
        Window, see `domain` ([0., 1.] by default).
    symbol : str, optional
        Symbol used to represent the independent variable in printing ('x' by default).

    See Also
    --------
    numpy.polynomial.laguerre.Laguerre : The NumPy class this mirrors.
    """

    _add = staticmethod(lagadd)
    _sub = staticmethod(lagsub)
    _mul = staticmethod(lagmul)
    _div = staticmethod(lagdiv)
    _pow = staticmethod(lagpow)
    _val = staticmethod(lagval)
    _int = staticmethod(lagint)
    _der = staticmethod(lagder)
    _fit = staticmethod(lagfit)
    _line = staticmethod(lagline)
    _roots = staticmethod(lagroots)
    _fromroots = staticmethod(lagfromroots)

    domain = lagdomain
    window = lagdomain
    basis_name = "L"
