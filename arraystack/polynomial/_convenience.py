"""The convenience classes' shared behaviour (numpy.polynomial._polybase.ABCPolyBase): a series is
its coefficients, a domain mapped onto the family's window, and a symbol; each family's class names
its module functions (`_add`, `_val`, `_fit`, ...) as static methods."""

from __future__ import annotations

import numbers
import os
from typing import TYPE_CHECKING

import numpy

import arraystack as anp
from arraystack.ir.core import TracerError
from arraystack.polynomial import _printing
from arraystack.polynomial import polyutils as pu

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray


def _host(a):
    return numpy.asarray(a)


class ABCPolyBase:
    """An abstract base class for the series classes (Polynomial, Chebyshev, ...).

    Parameters
    ----------
    coef : array_like
        Series coefficients in order of increasing degree.
    domain : (2,) array_like, optional
        Domain to use; it is mapped to the class's window by shifting and scaling.
    window : (2,) array_like, optional
        Window, see domain.
    symbol : str, optional
        Symbol used to represent the independent variable in printing ('x' by default).

    See Also
    --------
    numpy.polynomial._polybase.ABCPolyBase : The NumPy class this mirrors.

    Notes
    -----
    Coefficient arrays are arraystack arrays, so evaluation, calculus and the functions without
    trimming trace under `jit` and `grad`.
    """

    __hash__ = None  # type: ignore[assignment]
    __array_ufunc__ = None  # arrays defer to the series' reflected operators
    maxpower = 100
    basis_name: str | None = None
    _use_unicode = os.name != "nt"
    domain: Any = None
    window: Any = None

    def __init__(
        self,
        coef: ArrayLike,
        domain: ArrayLike | None = None,
        window: ArrayLike | None = None,
        symbol: str = "x",
    ) -> None:
        [self.coef] = pu.as_series([coef], trim=False)
        if domain is not None:
            [domain] = pu.as_series([domain], trim=False)
            if len(domain) != 2:
                raise ValueError("Domain has wrong number of elements.")
            self.domain = domain
        if window is not None:
            [window] = pu.as_series([window], trim=False)
            if len(window) != 2:
                raise ValueError("Window has wrong number of elements.")
            self.window = window
        if not isinstance(symbol, str):
            raise TypeError("Symbol must be a non-empty string")
        if not symbol.isidentifier():
            raise ValueError("Symbol string must be a valid Python identifier")
        self._symbol = symbol

    @property
    def symbol(self) -> str:
        return self._symbol

    # -- comparisons and conversions of the operands ------------------------------------------

    def has_samecoef(self, other: ABCPolyBase) -> bool:
        """Whether the coefficients are the same (shape and values)."""
        a, b = _host(self.coef), _host(other.coef)
        return a.shape == b.shape and bool(numpy.all(a == b))

    def has_samedomain(self, other: ABCPolyBase) -> bool:
        """Whether the domains are the same."""
        return bool(numpy.all(_host(self.domain) == _host(other.domain)))

    def has_samewindow(self, other: ABCPolyBase) -> bool:
        """Whether the windows are the same."""
        return bool(numpy.all(_host(self.window) == _host(other.window)))

    def has_sametype(self, other: Any) -> bool:
        """Whether `other` is an instance of the same class."""
        return isinstance(other, self.__class__)

    def _get_coefficients(self, other):
        if isinstance(other, ABCPolyBase):
            if not isinstance(other, self.__class__):
                raise TypeError("Polynomial types differ")
            if not self.has_samedomain(other):
                raise TypeError("Domains differ")
            if not self.has_samewindow(other):
                raise TypeError("Windows differ")
            if self.symbol != other.symbol:
                raise ValueError("Polynomial symbols differ")
            return other.coef
        return other

    def _new(self, coef):
        return self.__class__(coef, self.domain, self.window, self.symbol)

    # -- printing -----------------------------------------------------------------------------

    def __repr__(self) -> str:
        return _printing.series_repr(self)

    def __format__(self, fmt_str: str) -> str:
        return _printing.format_series(self, fmt_str)

    def __str__(self) -> str:
        return _printing.series_text(self, self._use_unicode)

    @classmethod
    def _str_term_unicode(cls, i, arg_str):
        return _printing.basis_term_unicode(cls.basis_name, i, arg_str)

    @classmethod
    def _str_term_ascii(cls, i, arg_str):
        return _printing.basis_term_ascii(cls.basis_name, i, arg_str)

    # -- the container and the operators ------------------------------------------------------

    def __call__(self, arg: Any) -> Any:
        return self._val(pu.mapdomain(arg, self.domain, self.window), self.coef)

    def __iter__(self):
        return iter(self.coef)

    def __len__(self) -> int:
        return len(self.coef)

    def __neg__(self):
        return self._new(-self.coef)

    def __pos__(self):
        return self

    def _binary(self, fn, *operands):
        try:
            return self._new(fn(*operands))
        except TracerError:
            raise
        except Exception:  # noqa: BLE001 (NumPy: any failure defers to the other operand)
            return NotImplemented

    def __add__(self, other):
        return self._binary(self._add, self.coef, self._get_coefficients(other))

    def __sub__(self, other):
        return self._binary(self._sub, self.coef, self._get_coefficients(other))

    def __mul__(self, other):
        return self._binary(self._mul, self.coef, self._get_coefficients(other))

    def __truediv__(self, other):
        # Note: as in NumPy, only division by a number (a scalar, not a series or array) is defined
        if not isinstance(other, numbers.Number) or isinstance(other, bool):
            raise TypeError(f"unsupported types for true division: '{type(self)}', '{type(other)}'")
        return self.__floordiv__(other)

    def __floordiv__(self, other):
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[0]

    def __mod__(self, other):
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[1]

    def __divmod__(self, other):
        return self._divmod(self.coef, self._get_coefficients(other))

    def _divmod(self, num, den):
        try:
            quo, rem = self._div(num, den)
        except (ZeroDivisionError, TracerError):
            raise
        except Exception:  # noqa: BLE001 (NumPy: any failure defers to the other operand)
            return NotImplemented
        return self._new(quo), self._new(rem)

    def __pow__(self, other):
        return self._new(self._pow(self.coef, other, maxpower=self.maxpower))

    def __radd__(self, other):
        return self._binary(self._add, other, self.coef)

    def __rsub__(self, other):
        return self._binary(self._sub, other, self.coef)

    def __rmul__(self, other):
        return self._binary(self._mul, other, self.coef)

    def __rtruediv__(self, other):
        # a series is not a number, so a number over a series is not defined
        return NotImplemented

    def __rfloordiv__(self, other):
        res = self._divmod(other, self.coef)
        return res if res is NotImplemented else res[0]

    def __rmod__(self, other):
        res = self._divmod(other, self.coef)
        return res if res is NotImplemented else res[1]

    def __rdivmod__(self, other):
        return self._divmod(other, self.coef)

    def __eq__(self, other):
        return (
            isinstance(other, self.__class__)
            and self.has_samedomain(other)
            and self.has_samewindow(other)
            and self.has_samecoef(other)
            and self.symbol == other.symbol
        )

    def __ne__(self, other):
        return not self.__eq__(other)

    # -- methods ------------------------------------------------------------------------------

    def copy(self) -> ABCPolyBase:
        """Return a copy.

        Returns
        -------
        new_series : series
            A copy of self (coefficients, domain and window copied).

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.copy : The NumPy method this mirrors.
        """
        return self.__class__(anp.copy(self.coef), self.domain, self.window, self.symbol)

    def degree(self) -> int:
        """The degree of the series: one less than the number of coefficients.

        Returns
        -------
        degree : int
            Degree of the series.

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.degree : The NumPy method this mirrors.
        """
        return len(self) - 1

    def cutdeg(self, deg: int) -> ABCPolyBase:
        """Truncate series to the given degree.

        Parameters
        ----------
        deg : non-negative int
            The series is reduced to degree `deg` by discarding the higher order terms.

        Returns
        -------
        new_series : series
            New instance of series with reduced degree.

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.cutdeg : The NumPy method this mirrors.
        """
        return self.truncate(deg + 1)

    def trim(self, tol: float = 0) -> ABCPolyBase:
        """Remove trailing coefficients whose magnitude is at most `tol`.

        Parameters
        ----------
        tol : non-negative number
            All trailing coefficients less than `tol` will be removed.

        Returns
        -------
        new_series : series
            New instance of series with trimmed coefficients (needs concrete coefficients).

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.trim : The NumPy method this mirrors.
        """
        return self._new(pu.trimcoef(self.coef, tol))

    def truncate(self, size: int) -> ABCPolyBase:
        """Truncate series to length `size`.

        Parameters
        ----------
        size : positive int
            The series is reduced to length `size` by discarding the high degree terms.

        Returns
        -------
        new_series : series
            New instance of series with truncated coefficients.

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.truncate : The NumPy method this mirrors.
        """
        isize = int(size)
        if isize != size or isize < 1:
            raise ValueError("size must be a positive integer")
        return self._new(self.coef if isize >= len(self.coef) else self.coef[:isize])

    def convert(
        self,
        domain: ArrayLike | None = None,
        kind: type | None = None,
        window: ArrayLike | None = None,
    ) -> ABCPolyBase:
        """Convert series to a different kind and/or domain and/or window.

        Parameters
        ----------
        domain : array_like, optional
            The domain of the converted series (the default domain of `kind` if None).
        kind : class, optional
            The series class to convert to (the class of self if None).
        window : array_like, optional
            The window of the converted series (the default window of `kind` if None).

        Returns
        -------
        new_series : series
            The same function as self, expressed in the new kind, domain and window.

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.convert : The NumPy method this mirrors.
        """
        if kind is None:
            kind = self.__class__
        if domain is None:
            domain = kind.domain
        if window is None:
            window = kind.window
        return self(kind.identity(domain, window=window, symbol=self.symbol))

    def mapparms(self) -> tuple[Any, Any]:
        """Return the mapping parameters: ``off + scl*x`` maps the domain onto the window.

        Returns
        -------
        off, scl : float or complex
            The mapping function is defined by ``off + scl*x``.

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.mapparms : The NumPy method this mirrors.
        """
        return pu.mapparms(self.domain, self.window)

    def integ(self, m: int = 1, k: Any = (), lbnd: Any = None) -> ABCPolyBase:
        """Integrate.

        Parameters
        ----------
        m : non-negative int
            The number of integrations to perform.
        k : array_like
            Integration constants; the first applies to the first integration, and so on.
        lbnd : Scalar
            The lower bound of the definite integral (the domain's coordinates; 0 if None).

        Returns
        -------
        new_series : series
            A new series representing the integral.

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.integ : The NumPy method this mirrors.
        """
        off, scl = self.mapparms()
        lbnd = 0 if lbnd is None else off + scl * lbnd
        return self._new(self._int(self.coef, m, k, lbnd, 1.0 / scl))

    def deriv(self, m: int = 1) -> ABCPolyBase:
        """Differentiate.

        Parameters
        ----------
        m : non-negative int
            Find the derivative of order `m`.

        Returns
        -------
        new_series : series
            A new series representing the derivative.

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.deriv : The NumPy method this mirrors.
        """
        _, scl = self.mapparms()
        return self._new(self._der(self.coef, m, scl))

    def roots(self) -> NDArray:
        """Return the roots of the series.

        Returns
        -------
        roots : ndarray
            The roots, in the domain's coordinates (needs concrete coefficients).

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.roots : The NumPy method this mirrors.
        """
        return pu.mapdomain(self._roots(self.coef), self.window, self.domain)

    def linspace(self, n: int = 100, domain: ArrayLike | None = None) -> tuple[NDArray, NDArray]:
        """Return x, y values at equally spaced points in domain.

        Parameters
        ----------
        n : int, optional
            Number of point pairs to return (100 by default).
        domain : {None, array_like}, optional
            The points' domain (the series' own if None).

        Returns
        -------
        x, y : ndarray
            x is equal to linspace(domain[0], domain[1], n) and y is the series evaluated at x.

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.linspace : The NumPy method this mirrors.
        """
        if domain is None:
            domain = self.domain
        x = anp.linspace(domain[0], domain[1], n)
        return x, self(x)

    @classmethod
    def fit(
        cls,
        x: ArrayLike,
        y: ArrayLike,
        deg: Any,
        domain: Any = None,
        rcond: float | None = None,
        full: bool = False,
        w: ArrayLike | None = None,
        window: ArrayLike | None = None,
        symbol: str = "x",
    ) -> Any:
        """Least squares fit to data.

        Parameters
        ----------
        x : array_like, shape (M,)
            x-coordinates of the M sample points.
        y : array_like, shape (M,)
            y-coordinates of the M sample points.
        deg : int or 1-D array_like
            Degree of the fitting polynomial, or the degrees of the terms to include.
        domain : {None, [beg, end], []}, optional
            Domain of the result: None uses the data's extent, [] the class's default domain.
        rcond : float, optional
            Relative condition number of the fit (``len(x)*eps`` by default).
        full : bool, optional
            Also return the least squares solution's diagnostics.
        w : array_like, shape (M,), optional
            Weights of the unsquared residuals.
        window : {[beg, end]}, optional
            Window of the result (the class's default window if None).
        symbol : str, optional
            Symbol of the independent variable.

        Returns
        -------
        new_series : series
            A series of least squares fit to the data.
        [resid, rank, sv, rcond] : list
            Returned only if `full` is True.

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.fit : The NumPy method this mirrors.
        """
        if domain is None:
            domain = pu.getdomain(x)
            # a single abscissa widens to an interval of length 2 (with where, so it traces)
            same = domain[0] == domain[1]
            domain = anp.where(same, domain + anp.asarray([-1.0, 1.0]), domain)
        elif type(domain) is list and len(domain) == 0:
            domain = cls.domain
        if window is None:
            window = cls.window
        xnew = pu.mapdomain(x, domain, window)
        res = cls._fit(xnew, y, deg, w=w, rcond=rcond, full=full)
        if full:
            coef, status = res
            return cls(coef, domain=domain, window=window, symbol=symbol), status
        return cls(res, domain=domain, window=window, symbol=symbol)

    @classmethod
    def fromroots(
        cls,
        roots: ArrayLike,
        domain: Any = [],  # noqa: B006 (NumPy: [] is the class default, None the data)
        window: ArrayLike | None = None,
        symbol: str = "x",
    ) -> ABCPolyBase:
        """Return series instance that has the specified roots.

        Parameters
        ----------
        roots : array_like
            List of roots.
        domain : {[], None, array_like}, optional
            Domain of the result: [] the class's default, None the roots' extent.
        window : {None, array_like}, optional
            Window of the result (the class's default if None).
        symbol : str, optional
            Symbol of the independent variable.

        Returns
        -------
        new_series : series
            Series with the specified roots.

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.fromroots : The NumPy method this mirrors.
        """
        [roots] = pu.as_series([roots], trim=False)
        if domain is None:
            domain = pu.getdomain(roots)
        elif type(domain) is list and len(domain) == 0:
            domain = cls.domain
        if window is None:
            window = cls.window
        deg = len(roots)
        off, scl = pu.mapparms(domain, window)
        rnew = off + scl * roots
        coef = cls._fromroots(rnew) / scl**deg
        return cls(coef, domain=domain, window=window, symbol=symbol)

    @classmethod
    def identity(
        cls, domain: ArrayLike | None = None, window: ArrayLike | None = None, symbol: str = "x"
    ) -> ABCPolyBase:
        """Identity function: the series p(x) = x in the given domain and window.

        Parameters
        ----------
        domain : {None, array_like}, optional
            Domain of the result (the class's default if None).
        window : {None, array_like}, optional
            Window of the result (the class's default if None).
        symbol : str, optional
            Symbol of the independent variable.

        Returns
        -------
        new_series : series
            Series representing the identity.

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.identity : The NumPy method this mirrors.
        """
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        off, scl = pu.mapparms(window, domain)
        return cls(cls._line(off, scl), domain, window, symbol)

    @classmethod
    def basis(
        cls,
        deg: int,
        domain: ArrayLike | None = None,
        window: ArrayLike | None = None,
        symbol: str = "x",
    ) -> ABCPolyBase:
        """Series basis polynomial of degree `deg`.

        Parameters
        ----------
        deg : int
            Degree of the basis polynomial (non-negative).
        domain : {None, array_like}, optional
            Domain of the result (the class's default if None).
        window : {None, array_like}, optional
            Window of the result (the class's default if None).
        symbol : str, optional
            Symbol of the independent variable.

        Returns
        -------
        new_series : series
            A series with the coefficient of the `deg` term set to one and all others zero.

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.basis : The NumPy method this mirrors.
        """
        ideg = int(deg)
        if ideg != deg or ideg < 0:
            raise ValueError("deg must be non-negative integer")
        return cls([0] * ideg + [1], domain, window, symbol)

    @classmethod
    def cast(
        cls, series: ABCPolyBase, domain: ArrayLike | None = None, window: ArrayLike | None = None
    ) -> ABCPolyBase:
        """Convert series to series of this class.

        Parameters
        ----------
        series : series
            The series instance to be converted.
        domain : {None, array_like}, optional
            Domain of the result (the class's default if None).
        window : {None, array_like}, optional
            Window of the result (the class's default if None).

        Returns
        -------
        new_series : series
            A series of the same kind as the calling class and equal to `series` when evaluated.

        See Also
        --------
        numpy.polynomial.polynomial.Polynomial.cast : The NumPy method this mirrors.
        """
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        return series.convert(domain, cls, window)
