"""Series of the classical orthogonal polynomials (numpy.polynomial), from arraystack operations.

One module per family, each with its module functions and convenience class:
polynomial (power series: Polynomial), chebyshev (Chebyshev), legendre (Legendre),
laguerre (Laguerre), hermite (Hermite, physicists'), hermite_e (HermiteE, probabilists');
polyutils holds the shared checks and domain maps. Coefficients are arraystack arrays:
evaluation, calculus, Vandermonde matrices and fits trace under `jit` and `grad`; what trims
trailing zeros or finds roots needs concrete coefficients and raises while tracing.
"""

from arraystack.polynomial import (
    chebyshev,
    hermite,
    hermite_e,
    laguerre,
    legendre,
    polynomial,
    polyutils,
)
from arraystack.polynomial._printing import set_default_printstyle
from arraystack.polynomial.chebyshev import Chebyshev
from arraystack.polynomial.hermite import Hermite
from arraystack.polynomial.hermite_e import HermiteE
from arraystack.polynomial.laguerre import Laguerre
from arraystack.polynomial.legendre import Legendre
from arraystack.polynomial.polynomial import Polynomial

__all__ = [
    "Chebyshev",
    "Hermite",
    "HermiteE",
    "Laguerre",
    "Legendre",
    "Polynomial",
    "chebyshev",
    "hermite",
    "hermite_e",
    "laguerre",
    "legendre",
    "polynomial",
    "polyutils",
    "set_default_printstyle",
]
