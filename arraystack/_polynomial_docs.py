"""NumPy-style docstrings of the functions of _polynomial.py, which attaches them at import: they
are kept apart so that module stays within the line budget (STYLE.md rule 21)."""

DOCS = {
    "poly1d": """\
A one-dimensional polynomial class.

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
""",
    "polyadd": """\
Find the sum of two polynomials.

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
""",
    "polyder": """\
Return the derivative of the specified order of a polynomial.

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
""",
    "polydiv": """\
Returns the quotient and remainder of polynomial division.

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
""",
    "polyfit": """\
Least squares polynomial fit.

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
""",
    "polyint": """\
Return an antiderivative (indefinite integral) of a polynomial.

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
""",
    "polymul": """\
Find the product of two polynomials.

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
""",
    "polysub": """\
Difference (subtraction) of two polynomials.

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
""",
    "polyval": """\
Evaluate a polynomial at specific values.

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
""",
    "roots": """\
Return the roots of a polynomial with coefficients given in p.

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
""",
}
