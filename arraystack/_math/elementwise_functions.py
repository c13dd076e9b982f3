"""Elementwise NumPy functions that are not ufuncs: where, clip, round/around, fix, nan_to_num,
real, imag, angle, isreal, iscomplex, isrealobj, iscomplexobj.

Each follows NumPy's own Python or C implementation step by step, on top of the ufuncs of this
family, so dtypes, special values and out= behave as NumPy's do in both eager and traced mode."""

from __future__ import annotations

import builtins
import operator
from typing import TYPE_CHECKING

import numpy as np
from numpy._core import umath as _umath

from arraystack._core.array import ndarray, raw, scalar_result, wrap, wrap_scalar
from arraystack._core.dtypes import result_type
from arraystack._core.operands import broadcast_raw, is_scalar_literal, is_weak, shape_of
from arraystack._core.overrides import defers_to, defers_to_numpy, undeferred
from arraystack._creation.basic import asarray, astype
from arraystack._creation.filled import zeros, zeros_like
from arraystack._math.elementwise import (
    arctan2,
    equal,
    maximum,
    minimum,
    multiply,
    not_equal,
    rint,
    true_divide,
    trunc,
)
from arraystack._math.elementwise_math import positive
from arraystack._math.ufunc import accelerated, composite
from arraystack._math.ufunc_out import assign, normalize_out
from arraystack._transforms import result_layouts
from arraystack._transforms.aliasing import view_of
from arraystack.ir import primitives as p
from arraystack.ir.avals import kind_of
from arraystack.ir.core import Tracer, active, bind, device_namespaces, trace_state

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, NDArray, ScalarLike

_NoValue = np._NoValue
_PY_SCALARS = (bool, int, float, complex)


def _tracing():
    return active.n and trace_state.top is not None


def where(
    condition: ArrayLike,
    x: ArrayLike = _NoValue,
    y: ArrayLike = _NoValue,
    /,
    *,
    size: int | None = None,
    fill_value: int | None = None,
) -> NDArray | tuple[NDArray, ...]:
    """Return elements chosen from `x` or `y` depending on `condition`.

    Parameters
    ----------
    condition : array_like, bool
        Where True, yield `x`, otherwise yield `y`.
    x : array_like
        Values from which to choose; broadcast with `condition` and `y`.
    y : array_like
        Values from which to choose; broadcast with `condition` and `x`.
    size, fill_value : int, optional
        For the one-argument form only, an arraystack extension (as in jax.numpy): the indices are
        exactly `size` long, truncated or padded with `fill_value` (default 0), so `condition` may be
        traced (see `nonzero`).

    Returns
    -------
    out : ndarray
        An array with elements from `x` where `condition` is True, and from `y` elsewhere.

    See Also
    --------
    numpy.where : The NumPy function this mirrors.
    select, choose, nonzero

    Notes
    -----
    The one-argument form is ``nonzero(condition)``, as in NumPy.
    """
    if x is _NoValue and y is _NoValue:
        from arraystack._indexing import subscripts as _indexing

        return _indexing.nonzero(
            condition, size=size, fill_value=0 if fill_value is None else fill_value
        )
    if x is _NoValue or y is _NoValue:
        raise ValueError("either both or neither of x and y should be given")
    if size is not None or fill_value is not None:
        raise ValueError("size and fill_value are for the one-argument form of where (nonzero)")
    c, a, b = raw(condition), raw(x), raw(y)
    if not _tracing():
        return wrap(bind(p.select_p, c, a, b))
    dtype = result_type(a, b)
    if isinstance(c, _PY_SCALARS):
        c = np.bool_(c)
    elif c.dtype != np.bool_:
        c = bind(p.ne_p, c, _scalar_as(0, c.dtype))
    operands = (c, _value_as(a, dtype), _value_as(b, dtype))
    shape = np.broadcast_shapes(*(shape_of(v) for v in operands))
    c, a, b = (v if is_scalar_literal(v) else broadcast_raw(v, shape) for v in operands)
    result = bind(p.select_p, c, a, b)
    if type(result) is Tracer and result.var.aval.weak_type:  # NumPy's where makes an array
        result = bind(p.convert_p, result, dtype=result.var.aval.dtype)
    out = wrap(result)
    result_layouts.elementwise((condition, x, y), (out,))  # its operands' memory order, as NumPy's
    return out


# eager where(c, x, y) on NumPy buffers and scalars: select_p's reference rule, numpy.where, in C
where = defers_to_numpy(accelerated(where, np.where, 3))


def _scalar_as(value, dtype):
    return np.asarray(value).astype(dtype)[()]


def _value_as(value, dtype):
    """np.where's cast of a branch: scalars convert unsafely (NumPy wraps out-of-range ints)."""
    if isinstance(value, (*_PY_SCALARS, np.generic)):
        return _scalar_as(value, dtype)
    return value if value.dtype == dtype else bind(p.convert_p, value, dtype=np.dtype(dtype))


def _clip_impl(dtypes, x, lo, hi):
    """NumPy's clip loop: maximum with the lower bound, then minimum with the upper bound, where x is
    kept on a tie with either bound (clip(-0.0, 0.0, 1.0) is -0.0): max and min give their second
    operand of two equal ones, as NumPy's maximum and minimum do."""
    return bind(p.min_p, hi, bind(p.max_p, lo, x))


# numpy's clip ufunc (not exported by NumPy) resolves the dtypes of clip(a, min, max)
_clip3 = composite(_umath.clip, _clip_impl)


_INT64 = np.iinfo(np.int64)


def _within(bound, prim, limit):
    """A traced Python int `bound` (a weakly typed integer) limited to the dtype's `limit` by `prim`
    (max_p for a lower bound, min_p for an upper one) and still weak: a bound beyond the dtype's range
    on its own side bounds nothing, as NumPy's _clip drops it, and one beyond on the other side still
    fails the range check of its cast to the dtype, as NumPy's clip does. Other bounds as they are."""
    value = bound._value if type(bound) is ndarray else bound
    if type(value) is not Tracer:
        return bound
    aval = value.var.aval
    if not aval.weak_type or aval.dtype.kind not in "iu" or limit > _INT64.max:
        return bound  # uint64's upper limit is beyond every traced Python int
    if aval.dtype == np.uint64:  # a Python int above int64's range: above every limit left
        return None if prim is p.min_p else bound
    return wrap(bind(prim, value, limit))


@defers_to_numpy
def clip(
    a: ArrayLike,
    a_min: ArrayLike | None = _NoValue,
    a_max: ArrayLike | None = _NoValue,
    out: NDArray | None = None,
    *,
    min: ArrayLike | None = _NoValue,
    max: ArrayLike | None = _NoValue,
    **kwargs: Any,
) -> NDArray:
    """Clip (limit) the values in an array.

    Parameters
    ----------
    a : array_like
        Input array.
    a_min : array_like or None
        Minimum value; None means no lower bound.
    a_max : array_like or None
        Maximum value; None means no upper bound.
    out : ndarray, optional
        The results are placed in this array.
    min : array_like or None
        NumPy 2 name of `a_min`; only one of them may be given.
    max : array_like or None
        NumPy 2 name of `a_max`; only one of them may be given.
    **kwargs
        The ufunc keywords (`where`, `casting`, `dtype`, ...), as for other ufuncs.

    Returns
    -------
    clipped_array : ndarray
        An array with the elements of `a`, but where values < `a_min` are replaced with `a_min`, and
        those > `a_max` with `a_max`.

    See Also
    --------
    numpy.clip : The NumPy function this mirrors.
    minimum, maximum

    Notes
    -----
    Where the value equals a bound of the other zero sign (``clip(-0.0, 0.0, 1.0)``), NumPy's loops
    disagree with each other; arraystack keeps the value's sign, as NumPy's scalar-bound loop does.
    """
    if a_min is _NoValue and a_max is _NoValue:
        a_min = None if min is _NoValue else min
        a_max = None if max is _NoValue else max
    elif a_min is _NoValue:
        raise TypeError("clip() missing 1 required positional argument: 'a_min'")
    elif a_max is _NoValue:
        raise TypeError("clip() missing 1 required positional argument: 'a_max'")
    elif min is not _NoValue or max is not _NoValue:
        raise ValueError(
            "Passing `min` or `max` keyword argument when `a_min` and `a_max` are provided is "
            "forbidden."
        )
    a = asarray(a)
    if a.dtype.kind in "iu":  # Python ints beyond the dtype's range bound nothing (NEP 50)
        info = np.iinfo(a.dtype)
        if type(a_min) is int and a_min <= info.min:
            a_min = None
        if type(a_max) is int and a_max >= info.max:
            a_max = None
        a_min = _within(a_min, p.max_p, int(info.min))
        a_max = _within(a_max, p.min_p, int(info.max))
    if a_min is not None and a_max is not None and out is None and not kwargs and not _tracing():
        value = a._value
        if type(value) is np.ndarray and not device_namespaces:
            # NumPy's clip ufunc: max then min (the composition below) in one pass
            return wrap(np.clip(value, raw(a_min), raw(a_max)))
        # the bounds first: a tie keeps the value (_clip_impl)
        return wrap_scalar(bind(p.min_p, raw(a_max), bind(p.max_p, raw(a_min), a._value)))
    if a_min is None and a_max is None:
        return positive(a, out=out, **kwargs)
    if a_min is None:
        return minimum(a, a_max, out=out, **kwargs)
    if a_max is None:
        return maximum(a, a_min, out=out, **kwargs)
    return _clip3(a, a_min, a_max, out=out, **kwargs)


def _power_of_ten(n):
    """NumPy's power_of_ten(): exact table up to 1e8, then repeated multiplication."""
    if n < 9:
        return (1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8)[n]
    value = 1e9
    while n > 9:
        value *= 10.0
        n -= 1
    return value


@defers_to_numpy
def round(a: ArrayLike, decimals: int = 0, out: NDArray | None = None) -> NDArray:
    """Evenly round to the given number of decimals.

    Parameters
    ----------
    a : array_like
        Input array.
    decimals : int, optional
        Number of decimal places to round to; negative values round to the left of the decimal point.
    out : ndarray, optional
        Alternative output array in which to place the result.

    Returns
    -------
    rounded_array : ndarray
        An array of the same type as `a`, containing the rounded values.

    See Also
    --------
    numpy.round : The NumPy function this mirrors.
    around, rint, fix, ceil, floor, trunc, ndarray.round

    Notes
    -----
    As NumPy's PyArray_Round: ``x * 10**d``, rint, ``/ 10**d``, with the parts of complex numbers
    rounded separately. `around` is an alias.
    """
    a = asarray(a)
    decimals = operator.index(decimals)
    if out is not None:
        (out,) = normalize_out(out, 1) or (None,)
        if out is not None and out.size != a.size:
            raise ValueError("invalid output shape")
    kind = a.dtype.kind
    if kind == "c":
        parts = (_round_real(real(a), decimals, None), _round_real(imag(a), decimals, None))
        result = wrap(bind(p.complex_p, *(part._value for part in parts)))
        if out is None:  # NumPy rounds the parts in a copy of `a`, in its order
            return result_layouts.like(a, result)
        return assign(out, result)
    result = _round_real(a, decimals, out)
    new = decimals < 0 if kind in "iu" else decimals != 0 and kind == "f"
    if out is None and new:
        # a new array (PyArray_Round): Fortran's order for a Fortran-ordered `a`, else C's
        return result_layouts.by_source_order(a, result)
    return result


around = defers_to(np.around)(undeferred(round))  # numpy.around is a function of its own


def _round_real(a, decimals, out):
    kind = a.dtype.kind
    if decimals >= 0 and kind in "iu":
        return astype(a, a.dtype, copy=True) if out is None else assign(out, a)
    if decimals == 0:
        return rint(a, out=out)
    scale, unscale = (multiply, true_divide) if decimals >= 0 else (true_divide, multiply)
    factor = _power_of_ten(builtins.abs(decimals))
    if out is None and kind == "b":  # NumPy writes into a bool array: raises its casting error
        out = zeros(a.shape, bool)
    if out is not None:
        scale(a, factor, out=out)
        rint(out, out=out)
        return unscale(out, factor, out=out)
    result = unscale(rint(scale(a, factor)), factor)
    return astype(result, a.dtype) if kind in "iu" else result


@defers_to_numpy
def fix(x: ArrayLike, out: NDArray | None = None) -> NDArray:
    """Round to nearest integer towards zero.

    Parameters
    ----------
    x : array_like
        An array to be rounded.
    out : ndarray, optional
        A location into which the result is stored.

    Returns
    -------
    out : ndarray of floats
        The rounded values, the dtype of `x`.

    See Also
    --------
    numpy.fix : The NumPy function this mirrors.
    trunc, floor, ceil, around

    Notes
    -----
    As in NumPy 2, this is `trunc`.
    """
    return trunc(x, out=out)


@defers_to_numpy
def nan_to_num(
    x: ScalarLike,
    copy: bool = True,
    nan: float = 0.0,
    posinf: float | None = None,
    neginf: float | None = None,
) -> NDArray:
    """Replace NaN with zero and infinity with large finite numbers (default behaviour) or with the numbers
    defined by the user.

    Parameters
    ----------
    x : scalar or array_like
        Input data.
    copy : bool, optional
        Whether to create a copy (True, default) or to replace values in place (False).
    nan : int, float, optional
        Value to be used to fill NaN values.
    posinf : int, float, optional
        Value to fill positive infinity with; by default the largest finite value.
    neginf : int, float, optional
        Value to fill negative infinity with; by default the most negative finite value.

    Returns
    -------
    out : ndarray
        `x` with the non-finite values replaced.

    See Also
    --------
    numpy.nan_to_num : The NumPy function this mirrors.
    isnan, isinf, isfinite

    Notes
    -----
    With ``copy=False`` an eager `x` is written in place; a traced `x` is rebound (functionalized).
    """
    x = asarray(x)
    if x.ndim == 0:  # NumPy returns x[()]: a 0-d input gives a scalar
        return scalar_result(_nan_to_num(x, copy, nan, posinf, neginf))
    return _nan_to_num(x, copy, nan, posinf, neginf)


def _nan_to_num(x, copy, nan, posinf, neginf):
    if kind_of(x.dtype) not in "fc":
        return astype(x, x.dtype, copy=True) if copy else x
    real_dtype = np.dtype(x.dtype.char.lower())
    info = np.finfo(real_dtype)
    high = info.max if posinf is None else posinf
    low = info.min if neginf is None else neginf

    def replace(part):
        infinite = bind(p.isinf_p, part)
        negative = bind(p.signbit_p, part)
        part = _replaced(part, bind(p.isnan_p, part), nan)
        part = _replaced(part, bind(p.and_p, infinite, bind(p.not_p, negative)), high)
        return _replaced(part, bind(p.and_p, infinite, negative), low)

    if x.dtype.kind == "c":
        result = wrap(bind(p.complex_p, replace(real(x)._value), replace(imag(x)._value)))
    else:
        result = wrap(replace(x._value))
    if copy:  # NumPy's copy keeps x's memory order
        return result_layouts.like(x, result)
    return assign(x, result)


def _replaced(part, mask, value):
    """copyto(part, value, where=mask) as a new raw value (with NumPy's same_kind check of
    `value`)."""
    value = asarray(value)
    if not np.can_cast(value.dtype, part.dtype, "same_kind"):
        raise TypeError(
            f"Cannot cast scalar from {value.dtype!r} to {part.dtype!r} according to the rule "
            "'same_kind'"
        )
    value = astype(value, part.dtype, copy=False)._value
    if _tracing():
        value = broadcast_raw(value, tuple(part.shape))
    return bind(p.select_p, mask, value, part)


def _python_part(val, prim):
    """np.real/np.imag of a Python scalar, which NumPy gives as the scalar's .real/.imag: a Python
    scalar (True.real is the int 1), and for the trace of one a weakly typed value."""
    if type(val) is not ndarray:
        return getattr(val, prim.name)
    x = val._value
    dtype = x.var.aval.dtype
    if dtype.kind == "c":
        part = bind(prim, x)
    elif prim is p.real_p:
        part = x
    else:
        part = zeros((), dtype)._value
    dtype = np.dtype(np.int64) if dtype.kind == "b" else part.var.aval.dtype
    return wrap(bind(p.convert_p, part, dtype=dtype, weak_type=True))


def _is_python_scalar(val) -> bool:
    """A Python scalar, or the trace of one (a weakly typed value)."""
    return is_weak(val._value if type(val) is ndarray else val)


@defers_to_numpy
def real(val: ArrayLike) -> NDArray:
    """Return the real part of the complex argument.

    Parameters
    ----------
    val : array_like
        Input array.

    Returns
    -------
    out : ndarray
        The real component: a view of a complex array (eagerly), else the array itself.

    See Also
    --------
    numpy.real : The NumPy function this mirrors.
    imag, angle, ndarray.real
    """
    if _is_python_scalar(val):
        return _python_part(val, p.real_p)
    val = asarray(val)
    if val.dtype.kind != "c":
        return val
    return view_of(val, p.real_p)


@defers_to_numpy
def imag(val: ArrayLike) -> NDArray:
    """Return the imaginary part of the complex argument.

    Parameters
    ----------
    val : array_like
        Input array.

    Returns
    -------
    out : ndarray
        The imaginary component of the complex argument; zeros of the input's dtype for real input.

    See Also
    --------
    numpy.imag : The NumPy function this mirrors.
    real, angle, ndarray.imag
    """
    if _is_python_scalar(val):
        return _python_part(val, p.imag_p)
    val = asarray(val)
    if val.dtype.kind == "c":
        return view_of(val, p.imag_p)
    if not _tracing():
        return wrap(bind(p.imag_p, val._value))
    # NumPy's zeros of a real array's .imag: Fortran-ordered for a Fortran-ordered array, else C
    return result_layouts.by_source_order(val, zeros(val.shape, val.dtype))


@defers_to_numpy
def angle(z: ArrayLike, deg: bool = False) -> NDArray:
    """Return the angle of the complex argument.

    Parameters
    ----------
    z : array_like
        A complex number or sequence of complex numbers.
    deg : bool, optional
        Return the angle in degrees if True, radians if False (default).

    Returns
    -------
    angle : ndarray
        The counterclockwise angle from the positive real axis, in (-pi, pi].

    See Also
    --------
    numpy.angle : The NumPy function this mirrors.
    arctan2, absolute, real, imag
    """
    z = asarray(z)
    if z.dtype.kind == "c":
        result = arctan2(imag(z), real(z))
    else:
        result = arctan2(0, z)
    if deg:
        result = multiply(result, 180 / np.pi, out=result)
    return result


@defers_to_numpy
def isreal(x: ArrayLike) -> NDArray:
    """Returns a bool array, where True if input element is real (zero imaginary part).

    Parameters
    ----------
    x : array_like
        Input array.

    Returns
    -------
    out : ndarray, bool
        Boolean array of the same shape as `x`.

    See Also
    --------
    numpy.isreal : The NumPy function this mirrors.
    iscomplex, isrealobj
    """
    return equal(imag(x), 0)


@defers_to_numpy
def iscomplex(x: ArrayLike) -> NDArray:
    """Returns a bool array, where True if input element is complex (nonzero imaginary part).

    Parameters
    ----------
    x : array_like
        Input array.

    Returns
    -------
    out : ndarray of bools
        Output array.

    See Also
    --------
    numpy.iscomplex : The NumPy function this mirrors.
    isreal, iscomplexobj
    """
    x = asarray(x)
    if x.dtype.kind == "c":
        return not_equal(imag(x), 0)
    return zeros_like(x, dtype=bool, order="C")  # on x's device; NumPy's zeros(x.shape)


@defers_to_numpy
def iscomplexobj(x: Any) -> bool:
    """Check for a complex type or an array of complex numbers.

    Parameters
    ----------
    x : any
        The input can be of any type and shape.

    Returns
    -------
    iscomplexobj : bool
        True if `x` is of a complex type or has at least one complex element.

    See Also
    --------
    numpy.iscomplexobj : The NumPy function this mirrors.
    isrealobj, iscomplex
    """
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        dtype = np.asarray(x).dtype
    return issubclass(np.dtype(dtype).type, np.complexfloating)


@defers_to_numpy
def isrealobj(x: Any) -> bool:
    """Return True if x is a not complex type or an array of complex numbers.

    Parameters
    ----------
    x : any
        The input can be of any type and shape.

    Returns
    -------
    y : bool
        The return value, False if `x` is of a complex type.

    See Also
    --------
    numpy.isrealobj : The NumPy function this mirrors.
    iscomplexobj, isreal
    """
    return not iscomplexobj(x)


__all__ = [
    "angle",
    "around",
    "clip",
    "fix",
    "imag",
    "iscomplex",
    "iscomplexobj",
    "isreal",
    "isrealobj",
    "nan_to_num",
    "real",
    "round",
    "where",
]
