"""Ufuncs composed of several primitives: fabs, square, reciprocal, degrees/radians, logaddexp(2),
float_power, divmod, modf, frexp, fmax/fmin, heaviside, spacing, lcm, positive and logical_*.

Each is an implementation on operands of NumPy's loop dtypes (see `_ufunc`), written to give NumPy's
own results: the same formula as NumPy's C loop, special values (nan, inf, -0.0) included, and for
float16 the float32 arithmetic NumPy's half loops use where they do."""

from __future__ import annotations

import numpy as np

from arraystack._core.operands import convert_raw
from arraystack._math.ufunc import bind_impl, composite
from arraystack.ir.avals import kind_of
from arraystack.ir import primitives as p
from arraystack.ir.core import bind

_ndarray_np = np.ndarray


def _const(value, dtype):
    return np.dtype(dtype).type(value)


def _in_float32(impl):
    """NumPy computes these float16 loops in float32 and rounds once at the end."""

    def wrapped(dtypes, *operands):
        if dtypes[0] != np.float16:
            return impl(dtypes, *operands)
        f32 = [convert_raw(x, np.float32) for x in operands]
        out = impl((np.dtype(np.float32),) * len(dtypes), *f32)
        return bind(p.convert_p, out, dtype=np.dtype(np.float16))

    return wrapped


def _select(pred, on_true, on_false):
    return bind(p.select_p, pred, on_true, on_false)


def _copy(dtypes, x):
    return bind(p.copy_p, x)


def _square(dtypes, x):
    return bind(p.mul_p, x, x)


def _reciprocal(dtypes, x):
    dtype = dtypes[0]
    if kind_of(dtype) == "f":
        return bind(p.div_p, _const(1, dtype), x)
    if dtype.kind in "iub":  # NumPy divides in double and casts back: 1/0 follows the C cast of inf
        as_double = bind(p.convert_p, x, dtype=np.dtype(np.float64))
        return bind(p.convert_p, bind(p.div_p, 1.0, as_double), dtype=dtype)
    # complex: NumPy's Smith-style loop, which 1/x (complex division) does not round like
    re, im = bind(p.real_p, x), bind(p.imag_p, x)
    one = _const(1, re.dtype)
    use_real = bind(p.le_p, bind(p.abs_p, im), bind(p.abs_p, re))
    r1 = bind(p.div_p, im, re)
    d1 = bind(p.add_p, re, bind(p.mul_p, im, r1))
    r2 = bind(p.div_p, re, im)
    d2 = bind(p.add_p, bind(p.mul_p, re, r2), im)
    real = _select(use_real, bind(p.div_p, one, d1), bind(p.div_p, r2, d2))
    imag = _select(use_real, bind(p.div_p, bind(p.neg_p, r1), d1), bind(p.div_p, -one, d2))
    return bind(p.complex_p, real, imag)


def _scale(factor32, factor64):
    @_in_float32
    def impl(dtypes, x):
        factor = factor32 if dtypes[0] == np.float32 else factor64
        return bind(p.mul_p, x, _const(factor, dtypes[0]))

    return impl


# NumPy's npy_degrees/npy_radians: the constant is computed in the loop's precision
_degrees = _scale(np.float32(180.0) / np.float32(np.pi), 180.0 / np.pi)
_radians = _scale(np.float32(np.pi) / np.float32(180.0), np.pi / 180.0)


def _logaddexp_like(exp_prim, scale, same):
    """npy_logaddexp(2): the larger of x, y plus log1p(exp(-|x - y|)) (one exp, which never overflows, so
    eager evaluation warns only where NumPy does); x == y (infinities too) gives x + `same`; NaN stays NaN.

    Floating-point errors are NumPy's: x == y is never subtracted (inf - inf would be 'invalid'), and a
    NaN operand is 'invalid', as NumPy's loop makes it with its ordered comparison of x - y with 0. The
    reference path (jit under errstate(all="raise")) raises it from inf - inf where x - y is NaN: that
    difference is 0 where x - y is a number, and is added to the result there."""

    @_in_float32
    def impl(dtypes, x, y):
        dtype = dtypes[0]
        zero = _const(0, dtype)
        equal = bind(p.eq_p, x, y)
        tmp = bind(p.sub_p, _select(equal, zero, x), _select(equal, zero, y))
        out = bind(p.log1p_p, bind(exp_prim, bind(p.neg_p, bind(p.abs_p, tmp))))
        if scale is not None:
            out = bind(p.mul_p, _const(scale, dtype), out)
        larger = _select(bind(p.gt_p, tmp, zero), x, y)
        unordered = bind(p.ne_p, tmp, tmp)
        flag = _select(unordered, _const(np.inf, dtype), zero)
        result = bind(p.add_p, bind(p.add_p, larger, out), bind(p.sub_p, flag, flag))
        result = _select(unordered, tmp, result)
        # a tie is x + `same`, spelled x + (y - x) / 2 (+0 for finite x == y, kept off infinities) so
        # that its derivative is 1/2 for each operand, as the function's is (and JAX's)
        finite = bind(p.and_p, equal, bind(p.isfinite_p, x))
        half = bind(p.sub_p, _select(finite, y, zero), _select(finite, x, zero))
        tie = bind(p.add_p, x, bind(p.mul_p, half, _const(0.5, dtype)))
        return _select(equal, bind(p.add_p, tie, _const(same, dtype)), result)

    return impl


# Note: NumPy's loops call libm's exp/log1p, arraystack the exp/log1p ufuncs (vectorised): results
# may differ in the last bits.
_logaddexp = _logaddexp_like(p.exp_p, None, np.log(2.0))
_logaddexp2 = _logaddexp_like(p.exp2_p, 1.0 / np.log(2.0), 1)


def _divmod(dtypes, x, y):
    return bind(p.floordiv_p, x, y), bind(p.rem_p, x, y)


def _modf(dtypes, x):
    """C modf: the fraction has the sign of x (±0 for infinities); the integral part is trunc."""
    dtype = dtypes[0]
    whole = bind(p.trunc_p, x)
    fraction = _select(bind(p.isinf_p, x), _const(0, dtype), bind(p.sub_p, x, whole))
    return bind(p.copysign_p, fraction, x), whole


def _fmax_like(prim, keeps_first):
    """fmax/fmin: NaN only when both are NaN; otherwise NumPy's documented definition, np.where(x >=
    y, x, y) (fmin: <=), so that of two equal values (-0.0 and 0.0) the first is returned.
    # Note: NumPy's own loops return the first of two zeros in their scalar code but the second in
    # their SIMD blocks (np.fmax(-0.0, 0.0) is -0.0, element 40 of a 64-element array +0.0);
    # arraystack returns the first in every tier."""

    def impl(dtypes, x, y):
        kind = kind_of(dtypes[0])
        if kind not in "fc":
            return bind(prim, x, y)
        # complex maximum/minimum already return the first of equal values (NumPy's CGE/CLE)
        both = bind(prim, x, y) if kind == "c" else _select(bind(keeps_first, x, y), x, y)
        return _select(bind(p.isnan_p, y), x, _select(bind(p.isnan_p, x), y, both))

    return impl


def _heaviside(dtypes, x, h):
    dtype = dtypes[0]
    step = _select(bind(p.lt_p, x, _const(0, dtype)), _const(0, dtype), _const(1, dtype))
    step = _select(bind(p.eq_p, x, _const(0, dtype)), h, step)
    return _select(bind(p.isnan_p, x), _const(np.nan, dtype), step)


def _spacing(dtypes, x):
    """npy_spacing: the distance to the next float away from zero (+0's and -0's is the smallest
    subnormal); nan for infinities. NumPy's float16 loop differs: it returns a magnitude, and for a
    negative x the gap towards zero."""
    dtype = dtypes[0]
    inf = _const(np.inf, dtype)
    if dtype == np.float16:
        negative = bind(p.lt_p, x, _const(0, dtype))
        toward = _select(negative, _const(0, dtype), inf)
        gap = bind(p.abs_p, bind(p.sub_p, bind(p.nextafter_p, x, toward), x))
    else:
        direction = _select(bind(p.eq_p, x, _const(0, dtype)), inf, bind(p.copysign_p, inf, x))
        gap = bind(p.sub_p, bind(p.nextafter_p, x, direction), x)
    return _select(bind(p.isinf_p, x), _const(np.nan, dtype), gap)


def _lcm(dtypes, x, y):
    """npy_lcm: on the magnitudes as unsigned integers (|INT_MIN| is 2**(bits-1)), 0 if their gcd is
    0, else |x| / gcd * |y|, wrapping, read back as the signed type (so an overflowing lcm of signed
    operands may be negative, as NumPy's is). C promotes int8/int16 to int, whose product wraps to the
    same low bits."""
    dtype = dtypes[0]
    if dtype.kind == "i":
        unsigned = np.dtype(f"u{dtype.itemsize}")
        x = convert_raw(bind(p.abs_p, x), unsigned)
        y = convert_raw(bind(p.abs_p, y), unsigned)
    else:
        unsigned = dtype
    zero = _const(0, unsigned)
    g = bind(p.gcd_p, x, y)
    is_zero = bind(p.eq_p, g, zero)
    quotient = bind(p.floordiv_p, x, _select(is_zero, _const(1, unsigned), g))
    value = _select(is_zero, zero, bind(p.mul_p, quotient, y))
    return convert_raw(value, dtype) if unsigned != dtype else value


def _truth(dtype, x):
    return x if dtype == np.bool_ else bind(p.ne_p, x, _const(0, dtype))


def _logical(prim):
    def impl(dtypes, x, y):
        return bind(prim, _truth(dtypes[0], x), _truth(dtypes[1], y))

    return impl


def _logical_not(dtypes, x):
    return bind(p.not_p, _truth(dtypes[0], x))


def _fast(kinds, prim, operands):
    """An eager shortcut for arrays of these dtype kinds, whose loop is the primitive on
    `operands(x)`."""

    def fast(x):
        if type(x) is _ndarray_np and kind_of(x.dtype) in kinds:
            return bind(prim, *operands(x))
        return None

    return fast


def _numpy_loop(ufunc):
    """An eager shortcut running NumPy's own loop on host float operands, where NumPy's loop rounds
    differently from the composition of primitives (logaddexp's float32 loop calls the scalar expf
    and log1pf; the primitives run NumPy's vectorized exp and log1p: 1 ulp apart)."""

    def fast(x, y):
        if (
            type(x) is _ndarray_np
            and type(y) is _ndarray_np
            and x.dtype.kind == y.dtype.kind == "f"
        ):
            return ufunc(x, y)
        return None

    return fast


positive = composite(np.positive, _copy, _fast("iufc", p.copy_p, lambda x: (x,)))
fabs = composite(np.fabs, bind_impl(p.abs_p), _fast("f", p.abs_p, lambda x: (x,)))
square = composite(np.square, _square, _fast("iufc", p.mul_p, lambda x: (x, x)))
reciprocal = composite(
    np.reciprocal, _reciprocal, _fast("f", p.div_p, lambda x: (x.dtype.type(1), x))
)
degrees = composite(np.degrees, _degrees)
rad2deg = composite(np.rad2deg, _degrees)
radians = composite(np.radians, _radians)
deg2rad = composite(np.deg2rad, _radians)
logaddexp = composite(np.logaddexp, _logaddexp, _numpy_loop(np.logaddexp))
logaddexp2 = composite(np.logaddexp2, _logaddexp2, _numpy_loop(np.logaddexp2))
float_power = composite(np.float_power, bind_impl(p.pow_p))
divmod = composite(np.divmod, _divmod)
modf = composite(np.modf, _modf)
frexp = composite(np.frexp, bind_impl(p.frexp_p))
fmax = composite(np.fmax, _fmax_like(p.max_p, p.ge_p))
fmin = composite(np.fmin, _fmax_like(p.min_p, p.le_p))
heaviside = composite(np.heaviside, _heaviside)
spacing = composite(np.spacing, _spacing)
lcm = composite(np.lcm, _lcm)
logical_and = composite(np.logical_and, _logical(p.and_p))
logical_or = composite(np.logical_or, _logical(p.or_p))
logical_xor = composite(np.logical_xor, _logical(p.xor_p))
logical_not = composite(np.logical_not, _logical_not, _fast("b", p.not_p, lambda x: (x,)))

__all__ = [
    "positive",
    "fabs",
    "square",
    "reciprocal",
    "degrees",
    "rad2deg",
    "radians",
    "deg2rad",
    "logaddexp",
    "logaddexp2",
    "float_power",
    "divmod",
    "modf",
    "frexp",
    "fmax",
    "fmin",
    "heaviside",
    "spacing",
    "lcm",
    "logical_and",
    "logical_or",
    "logical_xor",
    "logical_not",
]
