"""Array comparisons: isclose, allclose, array_equal, array_equiv, written as numpy/_core/numeric.py writes
them. isclose is elementwise and traces; the others return a Python bool, so they need concrete values."""

from __future__ import annotations

import builtins
import types
from typing import TYPE_CHECKING

import numpy as np

import arraystack as anp
from arraystack._core.overrides import defers_to_numpy

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray


def _operand(v):
    return v if isinstance(v, (int, float, complex)) else anp.asarray(v)


@defers_to_numpy
def isclose(
    a: ArrayLike,
    b: ArrayLike,
    rtol: float = 1.0e-5,
    atol: float = 1.0e-8,
    equal_nan: bool = False,
) -> NDArray:
    """Returns a boolean array where two arrays are element-wise equal within a tolerance.

    For finite values, ``absolute(a - b) <= atol + rtol * absolute(b)``; infinities must be equal.

    Parameters
    ----------
    a : array_like
        First input array.
    b : array_like
        Second input array.
    rtol : float, optional
        The relative tolerance.
    atol : float, optional
        The absolute tolerance.
    equal_nan : bool, optional
        Whether to compare NaNs as equal.

    Returns
    -------
    y : ndarray
        Boolean array of where `a` and `b` are equal within the tolerance.

    See Also
    --------
    numpy.isclose : The NumPy function this mirrors.
    allclose, equal
    """
    x, y, atol, rtol = (_operand(v) for v in (a, b, atol, rtol))
    dtype = getattr(y, "dtype", None)
    if dtype is not None and dtype.kind != "m":
        y = y.astype(np.result_type(dtype, 1.0), copy=False)
    elif isinstance(y, int):
        y = float(y)
    with np.errstate(invalid="ignore"):
        result = (anp.less_equal(anp.abs(x - y), atol + rtol * anp.abs(y)) & anp.isfinite(y)) | (
            x == y
        )
        if equal_nan:
            result = result | (anp.isnan(x) & anp.isnan(y))
    return anp.asarray(result)


@defers_to_numpy
def allclose(
    a: ArrayLike,
    b: ArrayLike,
    rtol: float = 1.0e-5,
    atol: float = 1.0e-8,
    equal_nan: bool = False,
) -> bool:
    """Returns True if two arrays are element-wise equal within a tolerance.

    The test is ``all(isclose(a, b, rtol, atol, equal_nan))``.

    Parameters
    ----------
    a : array_like
        First input array.
    b : array_like
        Second input array.
    rtol : float, optional
        The relative tolerance.
    atol : float, optional
        The absolute tolerance.
    equal_nan : bool, optional
        Whether to compare NaNs as equal.

    Returns
    -------
    allclose : bool
        True if the arrays are equal within the tolerance.

    See Also
    --------
    numpy.allclose : The NumPy function this mirrors.
    isclose, array_equal

    Notes
    -----
    The result is a Python bool, so under `jit` it needs concrete values (a traced input raises
    ConcretizationError).
    """
    return builtins.bool(anp.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def _as_arrays(a1, a2):
    try:
        return anp.asarray(a1), anp.asarray(a2)
    except (TypeError, ValueError):
        return None


@defers_to_numpy
def array_equal(a1: ArrayLike, a2: ArrayLike, equal_nan: bool = False) -> bool:
    """True if two arrays have the same shape and elements, False otherwise.

    Parameters
    ----------
    a1 : array_like
        First input array.
    a2 : array_like
        Second input array.
    equal_nan : bool, optional
        Whether to compare NaNs as equal.

    Returns
    -------
    b : bool
        True if the arrays are equal.

    See Also
    --------
    numpy.array_equal : The NumPy function this mirrors.
    array_equiv, allclose, equal

    Notes
    -----
    The result is a Python bool, so under `jit` it needs concrete values.
    """
    pair = _as_arrays(a1, a2)
    if pair is None:
        return False
    a1, a2 = pair
    if a1.shape != a2.shape:
        return False
    equal = a1 == a2
    if equal_nan and (a1.dtype.kind in "fc" or a2.dtype.kind in "fc"):
        equal = equal | (anp.isnan(a1) & anp.isnan(a2))
    return builtins.bool(anp.all(equal))


@defers_to_numpy
def array_equiv(a1: ArrayLike, a2: ArrayLike) -> bool:
    """Returns True if input arrays are shape consistent and all elements equal.

    Shape consistent means one can be broadcast to the other; shapes that do not broadcast give
    False.

    Parameters
    ----------
    a1 : array_like
        First input array.
    a2 : array_like
        Second input array.

    Returns
    -------
    out : bool
        True if the arrays are equivalent.

    See Also
    --------
    numpy.array_equiv : The NumPy function this mirrors.
    array_equal

    Notes
    -----
    The result is a Python bool, so under `jit` it needs concrete values.
    """
    pair = _as_arrays(a1, a2)
    if pair is None:
        return False
    a1, a2 = pair
    try:
        np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return builtins.bool(anp.all(a1 == a2))


# Objects no number equals: NumPy 2 compares an array with them element by element as Python objects (or, for
# str and bytes, finds no loop and fills its answer), so x == obj is all False and x != obj all True
_NEVER_EQUAL = (
    type(None), type(Ellipsis), dict, set, frozenset, slice, type, types.FunctionType,
    types.BuiltinFunctionType, types.MethodType, types.ModuleType,
)  # fmt: skip


def _never_equal(other) -> bool:
    """`other` is an object no number equals: one of _NEVER_EQUAL, or one with object's own ==."""
    kind = type(other)
    return kind in _NEVER_EQUAL or (kind.__eq__ is object.__eq__ and kind.__ne__ is object.__ne__)


def _traced_object_error(other, what: str) -> TypeError:
    return TypeError(
        f"{what}: NumPy compares each element with this object in Python, which a traced array "
        "cannot do; compare outside jit, or with an array of numbers"
    )


def compare_with_object(x, other, equal: bool):
    """`x == other` (equal) or `x != other` for an `other` that is no array operand (None, a str, a dict,
    an object), as NumPy 2's ndarray.__eq__/__ne__: an array of x's shape. Objects no number equals give
    a constant, also under jit; any other object (one defining __eq__, a list holding objects) is
    compared by NumPy in eager mode, and raises TypeError on traced values."""
    if isinstance(other, (str, bytes)) or _never_equal(other):
        return anp.full(x.shape, not equal)
    value = x._value
    if isinstance(value, np.ndarray):
        result = value.__eq__(other) if equal else value.__ne__(other)
        return result if result is NotImplemented else anp.asarray(result)
    raise _traced_object_error(other, f"array {'==' if equal else '!='} {type(other).__name__}")


def compare_function_with_object(ufunc, x1, x2, out, where, casting, dtype):
    """`np.equal(x1, x2, ...)` or `np.not_equal` with an operand that is no array of numbers (None,
    a dict, an object, a list holding objects), which NumPy compares element by element as Python
    objects. Without traced values that is NumPy's own comparison (and its errors: a str finds
    no loop, unlike `x == "a"`). On a traced array, an object no number equals gives all False
    (all True for not_equal) in the broadcast shape, as the operator does; a str raises NumPy's
    error, any other object a TypeError. None where no operand is such an object: the caller's
    error stands."""
    from arraystack._core.array import _is_array_operand
    from arraystack._creation.basic import _contains_traced
    from arraystack._math.elementwise import store_results

    if not _contains_traced(x1) and not _contains_traced(x2):
        values = [x._value if isinstance(x, anp.ndarray) else x for x in (x1, x2)]
        arrays = [v for v, x in zip(values, (x1, x2)) if isinstance(x, anp.ndarray)]
        if all(isinstance(v, np.ndarray) for v in arrays):  # host buffers, not a device's
            result = np.asarray(ufunc(*values, dtype=dtype))
            return store_results([anp.asarray(result)], out, where, casting)
    objects = [x for x in (x1, x2) if not _is_array_operand(x)]
    if len(objects) != 1:
        return None
    other = objects[0]
    array = x2 if other is x1 else x1
    if isinstance(other, (str, bytes)):  # NumPy's UFuncTypeError: no loop for a number and a str
        ufunc(np.zeros((), anp.asarray(array).dtype), other)
        return None
    if not _never_equal(other):
        names = ("array", type(other).__name__) if other is x2 else (type(other).__name__, "array")
        raise _traced_object_error(other, f"{ufunc.__name__}({', '.join(names)})")
    if dtype is not None and np.dtype(dtype) != np.bool_:
        raise TypeError(
            "No loop matching the specified signature and casting was found for ufunc "
            + ufunc.__name__
        )
    result = anp.full(np.shape(array), ufunc is np.not_equal)
    return store_results([result], out, where, casting)


__all__ = ["allclose", "array_equal", "array_equiv", "isclose"]
