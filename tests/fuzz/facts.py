"""How the exactness facts of values (program.Var) combine through operations, and the tolerances of
the inexact families (in ulps of the result, with the reason for each bound)."""

from __future__ import annotations

import math

import numpy

# The most terms a reduction of any variant adds: sizes are at most 33 a symbol, and arrays have at
# most three symbolic axes (33**3 < 2**16). Whether integer-valued float sums stay exact uses it.
LONGEST_REDUCTION = 2**16

# Transcendental functions: NumPy's SIMD loops and libm are each within about 2 ulp of the correctly
# rounded result on float32 and float64 (NumPy's float32 tan up to 4), and the kernels' vectorized
# math (mathlib) is documented within 4 ulp of NumPy's (backends/numba/tiering.py): 4 ulp between any
# two tiers.
TRANSCENDENTAL_ULPS = 4
# float ** a non-integer, or an integer other than 2, calls pow: NumPy's is libm's (< 1 ulp); the
# kernels' float32 x**3 and x**4 are computed in float64 and rounded once (within 1 ulp): 2 ulp.
POWER_ULPS = 2
# arctan2, hypot, logaddexp (of operands >= 0: no cancellation): libm quality in NumPy and in the
# kernels (1-2 ulp each): 4 ulp.
BINARY_MATH_ULPS = 4


class Ulps:
    """A tolerance that grows with N, the size of the largest array a program makes on a variant
    (no reduction adds more terms): a polynomial in N with nonnegative coefficients, so that sums,
    products and maxima of bounds stay bounds. `at(n)` gives the tolerance of one variant."""

    __slots__ = ("coefficients",)

    def __init__(self, coefficients):
        coefficients = [int(c) for c in coefficients]
        while len(coefficients) > 1 and coefficients[-1] == 0:
            coefficients.pop()
        self.coefficients = tuple(coefficients)

    @staticmethod
    def of(x) -> Ulps:
        return x if isinstance(x, Ulps) else Ulps((x,))

    def __add__(self, other):
        a, b = self.coefficients, Ulps.of(other).coefficients
        size = max(len(a), len(b))
        return Ulps(
            [(a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0) for i in range(size)]
        )

    __radd__ = __add__

    def __mul__(self, other):
        a, b = self.coefficients, Ulps.of(other).coefficients
        product = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                product[i + j] += x * y
        return Ulps(product)

    __rmul__ = __mul__

    def __floordiv__(self, k):  # rounded up: still a bound
        return Ulps([-(-c // k) for c in self.coefficients])

    def __eq__(self, other):
        return isinstance(other, (int, Ulps)) and self.coefficients == Ulps.of(other).coefficients

    def __hash__(self):
        return hash(self.coefficients)

    def __bool__(self):
        return any(self.coefficients)

    def __repr__(self):
        return f"Ulps({self.coefficients})"

    def at(self, n) -> int:
        return sum(c * n**i for i, c in enumerate(self.coefficients))


N = Ulps((0, 1))  # the size of the largest array of the variant


def ulps_at(ulps, n) -> int:
    return ulps.at(n) if isinstance(ulps, Ulps) else int(ulps)


def ulps_max(values):
    """A bound of each of these (coefficient by coefficient)."""
    polynomials = [Ulps.of(v).coefficients for v in values]
    size = max(len(p) for p in polynomials)
    bound = Ulps([max(p[i] if i < len(p) else 0 for p in polynomials) for i in range(size)])
    return bound.coefficients[0] if len(bound.coefficients) == 1 else bound


def exact_limit(dtype) -> float:
    """The largest integer up to which every integer is a float of this dtype."""
    return 2.0**24 if numpy.dtype(dtype).itemsize == 4 else 2.0**53


def order_ulps(length):
    """A float sum (or product) of `length` terms in two different orders: each result is within
    (length - 1) * eps relative of the exact one when all terms have one sign (products: any sign,
    no overflow), and eps is 2 ulp at the bottom of a binade: 4 * (length - 1) ulp between the two
    (4 * N + 1 for a length of at most N)."""
    if isinstance(length, Ulps):
        return 4 * length + 1
    return 4 * max(length - 1, 0) + 1


def reduced_length(shape, axis):
    """The terms a reduction over `axis` of a value of this (generic) shape adds: 1 when the axes
    have size 1 (in every variant), else at most N."""
    if axis is None:
        axes = range(len(shape))
    else:
        axes = [a % len(shape) for a in ((axis,) if isinstance(axis, int) else axis)]
    return 1 if all(shape[a] == 1 for a in axes) else N


def most_terms(length) -> int:
    """A number bounding `length` (from reduced_length) in every variant."""
    return LONGEST_REDUCTION if isinstance(length, Ulps) else length


def cast_ulps(ulps, src, dst):
    """A tolerance of `ulps` (in src's ulps) carried through a cast to the float dtype dst."""
    if ulps == 0:
        return 0
    src, dst = numpy.dtype(src), numpy.dtype(dst)
    if dst.itemsize >= src.itemsize:
        return ulps * (2 ** (29 if dst.itemsize > src.itemsize else 0))
    return 1 + ulps // 2**29  # float64 -> float32: the float64 error is far below a float32 ulp


def int_bound(dtype) -> float:
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return 1.0
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        return float(max(abs(int(info.min)), int(info.max)))
    return math.inf


def value_bound(var) -> float:
    """|v| <= bound and integer-valued, for any dtype (floats: the tracked bound)."""
    if isinstance(var, ScalarFacts) or var.is_float:
        return var.bound
    return int_bound(var.dtype)


def combine(vars_) -> dict:
    """Facts of a value that holds elements of each of these (where, concatenate, a write into a
    view)."""
    return {
        "bound": max(value_bound(v) for v in vars_),
        "nonneg": all(v.nonneg for v in vars_),
        "unit": all(v.unit for v in vars_),
        "special": any(v.special for v in vars_),
        "ulps": ulps_max(v.ulps for v in vars_),
        "signless": any(v.signless for v in vars_),
    }


def arithmetic(op, a, b, out_dtype) -> dict:
    """Facts of a + b, a - b, a * b (b: a Var, or a Python scalar as a pseudo-Var from
    scalar_var)."""
    ba, bb = value_bound(a), value_bound(b)
    if op in ("add", "subtract"):
        bound = ba + bb
        nonneg = op == "add" and a.nonneg and b.nonneg
        ulps = 0
    else:
        bound = ba * bb
        nonneg = a.nonneg and b.nonneg
        ulps = 0 if a.ulps == 0 and b.ulps == 0 else 2 * (a.ulps + b.ulps) + 1
    special = a.special or b.special or bound > 0.5 * float(numpy.finfo(out_dtype).max)
    return {
        "bound": bound,
        "nonneg": nonneg,
        "unit": False,
        "special": special,
        "ulps": ulps,
        "signless": a.signless or b.signless,
    }


class ScalarFacts:
    """A Python scalar operand seen as a Var."""

    def __init__(self, value):
        self.value = value
        self.is_float = isinstance(value, float)
        self.dtype = numpy.dtype(numpy.float64 if self.is_float else numpy.int64)
        integral = not self.is_float or (math.isfinite(value) and value == int(value))
        self.bound = abs(value) if integral else math.inf
        self.nonneg = value >= 0
        self.unit = self.is_float and 0.5 <= abs(value) <= 2
        self.special = self.is_float and not math.isfinite(value)
        self.ulps = 0
        self.signless = False
