"""Docstrings of the families' module functions: one template per operation, filled with the
family's names (the functions themselves stay module-level names in each family's module)."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    prefix: str  # "cheb": chebadd, chebval, ...
    series: str  # "Chebyshev series"
    module: str  # "numpy.polynomial.chebyshev"


_C = "    c : array_like\n        Coefficients of the {series}, from low to high degree.\n"
_C12 = "    c1, c2 : array_like\n        1-D arrays of {series} coefficients ordered from low to high.\n"
_X = "    x : array_like, compatible object\n        Points at which to evaluate.\n"
_TRIM = "Trailing zeros of the inputs and result are trimmed, so this needs concrete coefficients."

TEMPLATES = {
    "line": (
        "{Series} whose graph is a straight line.",
        "    off, scl : scalars\n        The line is ``off + scl*x``.\n",
        "y : ndarray\n    The {series} coefficients of the line.",
        "",
    ),
    "add": (
        "Add one {series} to another.",
        _C12,
        "out : ndarray\n    The coefficients of their sum.",
        _TRIM,
    ),
    "sub": (
        "Subtract one {series} from another.",
        _C12,
        "out : ndarray\n    The coefficients of their difference.",
        _TRIM,
    ),
    "mulx": (
        "Multiply a {series} by x.",
        _C,
        "out : ndarray\n    The coefficients of the product.",
        _TRIM,
    ),
    "mul": (
        "Multiply one {series} by another.",
        _C12,
        "out : ndarray\n    The coefficients of their product.",
        _TRIM,
    ),
    "div": (
        "Divide one {series} by another.",
        _C12,
        "[quo, rem] : ndarrays\n    The quotient and remainder.",
        _TRIM,
    ),
    "pow": (
        "Raise a {series} to a power.",
        _C + "    pow : integer\n        Power to which the series is raised.\n"
        "    maxpower : integer, optional\n        Largest power allowed (limits the growth).\n",
        "coef : ndarray\n    The {series} of power.",
        _TRIM,
    ),
    "der": (
        "Differentiate a {series}.",
        _C + "    m : int, optional\n        Number of derivatives taken, non-negative.\n"
        "    scl : scalar, optional\n        Each differentiation is multiplied by `scl`.\n"
        "    axis : int, optional\n        Axis over which the derivative is taken.\n",
        "der : ndarray\n    {Series} of the derivative.",
        "Composed of arraystack operations: traces under `jit` and differentiates.",
    ),
    "int": (
        "Integrate a {series}.",
        _C + "    m : int, optional\n        Order of integration, non-negative.\n"
        "    k : {{[], list, scalar}}, optional\n        Integration constants.\n"
        "    lbnd : scalar, optional\n        The lower bound of the integral.\n"
        "    scl : scalar, optional\n        Each integration is multiplied by `scl`.\n"
        "    axis : int, optional\n        Axis over which the integral is taken.\n",
        "S : ndarray\n    {Series} coefficients of the integral.",
        (
            "Composed of arraystack operations; integrating the zero constant series needs "
            "concrete coefficients."
        ),
    ),
    "val": (
        "Evaluate a {series} at points x.",
        _X + _C + "    tensor : boolean, optional\n        If True, the coefficients' shape is "
        "extended with one axis per dimension of x.\n",
        "values : ndarray, algebra_like\n    The values of the series at x.",
        "Clenshaw's recurrence, as NumPy evaluates it; traces under `jit` and `grad`.",
    ),
    "valfromroots": (
        "Evaluate a polynomial specified by its roots at points x.",
        _X + "    r : array_like\n        Array of roots.\n"
        "    tensor : boolean, optional\n        Extend r's shape by x's dimensions.\n",
        "values : ndarray\n    The values of the polynomial at x.",
        "",
    ),
    "val2d": (
        "Evaluate a 2-D {series} at points (x, y).",
        "    x, y : array_like\n        The points, of the same shape.\n" + _C,
        "values : ndarray\n    The values of the two dimensional series.",
        "",
    ),
    "val3d": (
        "Evaluate a 3-D {series} at points (x, y, z).",
        "    x, y, z : array_like\n        The points, of the same shape.\n" + _C,
        "values : ndarray\n    The values of the three dimensional series.",
        "",
    ),
    "grid2d": (
        "Evaluate a 2-D {series} on the Cartesian product of x and y.",
        "    x, y : array_like\n        The coordinates of the grid.\n" + _C,
        "values : ndarray\n    The values on the grid.",
        "",
    ),
    "grid3d": (
        "Evaluate a 3-D {series} on the Cartesian product of x, y, and z.",
        "    x, y, z : array_like\n        The coordinates of the grid.\n" + _C,
        "values : ndarray\n    The values on the grid.",
        "",
    ),
    "vander": (
        "Pseudo-Vandermonde matrix of given degree.",
        (
            "    x : array_like\n        Array of points.\n"
            "    deg : int\n        Degree of the resulting matrix.\n"
        ),
        "vander : ndarray\n    The matrix, of shape ``x.shape + (deg + 1,)``.",
        "",
    ),
    "vander2d": (
        "Pseudo-Vandermonde matrix of given degrees, in two dimensions.",
        (
            "    x, y : array_like\n        Arrays of point coordinates.\n"
            "    deg : list of ints\n        List of maximum degrees ``[x_deg, y_deg]``.\n"
        ),
        "vander2d : ndarray\n    The matrix.",
        "",
    ),
    "vander3d": (
        "Pseudo-Vandermonde matrix of given degrees, in three dimensions.",
        (
            "    x, y, z : array_like\n        Arrays of point coordinates.\n"
            "    deg : list of ints\n        List of maximum degrees.\n"
        ),
        "vander3d : ndarray\n    The matrix.",
        "",
    ),
    "fit": (
        "Least squares fit of a {series} to data.",
        (
            "    x : array_like, shape (M,)\n        x-coordinates of the M sample points.\n"
            "    y : array_like, shape (M,) or (M, K)\n        y-coordinates of the sample points.\n"
            "    deg : int or 1-D array_like\n        Degree(s) of the fitting series.\n"
            "    rcond : float, optional\n        Relative condition number of the fit.\n"
            "    full : bool, optional\n        Also return the solver's diagnostics.\n"
            "    w : array_like, shape (M,), optional\n        Weights of the residuals.\n"
        ),
        (
            "coef : ndarray\n    {Series} coefficients ordered from low to high.\n"
            "[residuals, rank, singular_values, rcond] : list\n    Only if `full` is True."
        ),
        (
            "Least squares on the column-scaled pseudo-Vandermonde matrix, as NumPy solves it. "
            "Traced data solve through the pseudo-inverse (no rank warning)."
        ),
    ),
    "trim": (
        'Remove "small" "trailing" coefficients from a {series}.',
        _C + "    tol : number, optional\n        Trailing entries up to `tol` are removed.\n",
        "trimmed : ndarray\n    The trimmed coefficients.",
        _TRIM,
    ),
    "roots": (
        "Compute the roots of a {series}.",
        _C,
        "out : ndarray\n    Array of the roots of the series.",
        "Eigenvalues of the companion matrix; needs concrete coefficients.",
    ),
    "fromroots": (
        "Generate a {series} with given roots.",
        "    roots : array_like\n        Sequence containing the roots.\n",
        "out : ndarray\n    1-D array of coefficients.",
        _TRIM,
    ),
    "companion": (
        "Return the scaled companion matrix of c.",
        _C,
        "mat : ndarray\n    Scaled companion matrix of dimensions (deg, deg).",
        "",
    ),
    "gauss": (
        "Gauss quadrature of the {series} family's weight.",
        "    deg : int\n        Number of sample points and weights (at least 1).\n",
        (
            "x : ndarray\n    1-D array containing the sample points.\n"
            "y : ndarray\n    1-D array containing the weights."
        ),
        "",
    ),
    "weight": (
        "Weight function of the {series} family.",
        "    x : array_like\n        Values at which the weight function is computed.\n",
        "w : ndarray\n    The weight function at `x`.",
        "",
    ),
    "2poly": (
        "Convert a {series} to a polynomial.",
        _C,
        "pol : ndarray\n    The polynomial's coefficients, from low to high.",
        _TRIM,
    ),
    "poly2": (
        "Convert a polynomial to a {series}.",
        "    pol : array_like\n        1-D array of the polynomial's coefficients.\n",
        "c : ndarray\n    The {series}'s coefficients.",
        _TRIM,
    ),
}


def documenter(family: Family):
    """A decorator factory: @doc("add") gives a function its operation's docstring."""

    def doc(op: str):
        summary, params, returns, notes = TEMPLATES[op]

        def apply(fn):
            names = {
                "series": family.series,
                "Series": family.series[0].upper() + family.series[1:],
            }
            text = summary.format(**names) + "\n\nParameters\n----------\n"
            text += textwrap.dedent(params.format(**names))
            text += "\nReturns\n-------\n" + returns.format(**names) + "\n"
            text += f"\nSee Also\n--------\n{family.module}.{fn.__name__} : The NumPy function "
            text += "this mirrors.\n"
            if notes:
                text += f"\nNotes\n-----\n{notes}\n"
            fn.__doc__ = text
            return fn

        return apply

    return doc
