"""Power series (numpy.polynomial.polynomial): the poly* functions, lowest degree first, and the
Polynomial class. Evaluation, calculus and Vandermonde matrices trace; what trims zeros is eager."""

from __future__ import annotations

from typing import TYPE_CHECKING

import arraystack as anp
from arraystack._creation.basic import asarray
from arraystack.polynomial import _docs, _printing, _series
from arraystack.polynomial import polyutils as pu
from arraystack.polynomial._convenience import ABCPolyBase

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray

__all__ = [
    "Polynomial",
    "polyadd",
    "polycompanion",
    "polyder",
    "polydiv",
    "polydomain",
    "polyfit",
    "polyfromroots",
    "polygrid2d",
    "polygrid3d",
    "polyint",
    "polyline",
    "polymul",
    "polymulx",
    "polyone",
    "polypow",
    "polyroots",
    "polysub",
    "polytrim",
    "polyval",
    "polyval2d",
    "polyval3d",
    "polyvalfromroots",
    "polyvander",
    "polyvander2d",
    "polyvander3d",
    "polyx",
    "polyzero",
]

doc = _docs.documenter(_docs.Family("poly", "power series", "numpy.polynomial.polynomial"))

polytrim = pu.trimcoef
polydomain = asarray([-1.0, 1.0])
polyzero = asarray([0])
polyone = asarray([1])
polyx = asarray([0, 1])


@doc("line")
def polyline(off: Any, scl: Any) -> NDArray:
    return _series.line(off, scl)


@doc("fromroots")
def polyfromroots(roots: ArrayLike) -> NDArray:
    return _series.fromroots(polyline, polymul, roots)


@doc("add")
def polyadd(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    return _series.add(c1, c2)


@doc("sub")
def polysub(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    return _series.sub(c1, c2)


@doc("mulx")
def polymulx(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    if len(c) == 1 and c[0] == 0:
        return c
    return _series.concat(c[:1] * 0, c)


@doc("mul")
def polymul(c1: ArrayLike, c2: ArrayLike) -> NDArray:
    c1, c2 = pu.as_series([c1, c2])
    return pu.trimseq(anp.convolve(c1, c2))


@doc("div")
def polydiv(c1: ArrayLike, c2: ArrayLike) -> tuple[NDArray, NDArray]:
    c1, c2 = pu.as_series([c1, c2])
    if c2[-1] == 0:
        raise ZeroDivisionError("division by a zero series")
    n1, n2 = len(c1), len(c2)
    if n1 < n2:
        return c1[:1] * 0, c1
    if n2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    scl = c2[-1]
    c2 = c2[:-1] / scl
    i, j = n1 - n2, n1 - 1
    while i >= 0:  # subtract c1[j] times the monic divisor, shifted to end at j
        c1 = _series.concat(c1[:i], c1[i:j] - c2 * c1[j], c1[j:])
        i, j = i - 1, j - 1
    return c1[j + 1 :] / scl, pu.trimseq(c1[: j + 1])


@doc("pow")
def polypow(c: ArrayLike, pow: int, maxpower: int | None = None) -> NDArray:
    return _series.power(anp.convolve, c, pow, maxpower)


def _der_step(c, n):
    return [j * c[j] for j in range(1, n + 1)]


@doc("der")
def polyder(c: ArrayLike, m: int = 1, scl: Any = 1, axis: int = 0) -> NDArray:
    return _series.derivative(c, m, scl, axis, _der_step)


def _int_step(c):
    return [c[0] * 0, c[0]] + [c[j] / (j + 1) for j in range(1, len(c))]


@doc("int")
def polyint(
    c: ArrayLike,
    m: int = 1,
    k: Any = (),
    lbnd: Any = 0,
    scl: Any = 1,
    axis: int = 0,
) -> NDArray:
    return _series.integral(c, m, k, lbnd, scl, axis, _int_step, polyval)


@doc("val")
def polyval(x: Any, c: ArrayLike, tensor: bool = True) -> Any:
    x, c = _series.evaluation_args(x, c, tensor)
    r = _series.rows(c, x)
    c0 = r[-1] + x * 0
    for i in range(2, len(r) + 1):
        c0 = r[-i] + c0 * x
    return c0


@doc("valfromroots")
def polyvalfromroots(x: Any, r: ArrayLike, tensor: bool = True) -> Any:
    r = _series.float_array(r)
    if isinstance(x, (tuple, list)):
        x = anp.asarray(x)
    if isinstance(x, anp.ndarray):
        if tensor:
            r = anp.reshape(r, r.shape + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return anp.prod(x - r, axis=0)


@doc("val2d")
def polyval2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.valnd(polyval, c, x, y)


@doc("grid2d")
def polygrid2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.gridnd(polyval, c, x, y)


@doc("val3d")
def polyval3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.valnd(polyval, c, x, y, z)


@doc("grid3d")
def polygrid3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> NDArray:
    return _series.gridnd(polyval, c, x, y, z)


@doc("vander")
def polyvander(x: ArrayLike, deg: int) -> NDArray:
    return _series.vander(x, deg, lambda x: x, lambda v, x, i: v[i - 1] * x)


@doc("vander2d")
def polyvander2d(x: ArrayLike, y: ArrayLike, deg: Any) -> NDArray:
    return _series.vander_nd_flat((polyvander, polyvander), (x, y), deg)


@doc("vander3d")
def polyvander3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, deg: Any) -> NDArray:
    return _series.vander_nd_flat((polyvander,) * 3, (x, y, z), deg)


@doc("fit")
def polyfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: Any,
    rcond: float | None = None,
    full: bool = False,
    w: ArrayLike | None = None,
) -> Any:
    return _series.fit(polyvander, x, y, deg, rcond, full, w)


@doc("companion")
def polycompanion(c: ArrayLike) -> NDArray:
    [c] = pu.as_series([c])
    if len(c) < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if len(c) == 2:
        return anp.reshape(-c[0] / c[1], (1, 1))
    n = len(c) - 1
    return _series.companion_matrix({-1: anp.ones(n - 1)}, c[:-1] / c[-1])


@doc("roots")
def polyroots(c: ArrayLike) -> NDArray:
    return _series.roots(polycompanion, c, lambda c: -c[0] / c[1])


class Polynomial(ABCPolyBase):
    """A power series class.

    Parameters
    ----------
    coef : array_like
        Polynomial coefficients in order of increasing degree.
    domain : (2,) array_like, optional
        Domain to use, mapped to the window by shifting and scaling ([-1., 1.] by default).
    window : (2,) array_like, optional
        Window, see `domain` ([-1., 1.] by default).
    symbol : str, optional
        Symbol used to represent the independent variable in printing ('x' by default).

    See Also
    --------
    numpy.polynomial.polynomial.Polynomial : The NumPy class this mirrors.
    """

    _add = staticmethod(polyadd)
    _sub = staticmethod(polysub)
    _mul = staticmethod(polymul)
    _div = staticmethod(polydiv)
    _pow = staticmethod(polypow)
    _val = staticmethod(polyval)
    _int = staticmethod(polyint)
    _der = staticmethod(polyder)
    _fit = staticmethod(polyfit)
    _line = staticmethod(polyline)
    _roots = staticmethod(polyroots)
    _fromroots = staticmethod(polyfromroots)

    domain = polydomain
    window = polydomain
    basis_name = None

    _str_term_unicode = staticmethod(_printing.power_term_unicode)
    _str_term_ascii = staticmethod(_printing.power_term_ascii)
