"""numpy.ma's module functions: construction, joining, selection, products, comparisons of whole arrays
and statistics, each a composition of MaskedArray operations."""

from __future__ import annotations

import warnings

import numpy as np

import arraystack as xp
from arraystack._core.array import scalar_result
from arraystack._math.ufunc import check_options
from arraystack.ma._out import write_out
from arraystack.ma._array import MaskedArray, concrete, masked, nomask
from arraystack.ma._masking import getdata, getmask, getmaskarray, shrink_mask


def _doc(name, summary, params, returns):
    return f"""{summary}

    Parameters
    ----------
{params}

    Returns
    -------
{returns}

    See Also
    --------
    numpy.ma.{name} : The NumPy function this mirrors.
    """


def masked_array(
    data=None,
    mask=nomask,
    dtype=None,
    copy=False,
    fill_value=None,
    keep_mask=True,
    hard_mask=False,
    shrink=True,
    ndmin=0,
):
    return MaskedArray(
        data,
        mask=mask,
        dtype=dtype,
        copy=copy,
        fill_value=fill_value,
        keep_mask=keep_mask,
        hard_mask=hard_mask,
        shrink=shrink,
        ndmin=ndmin,
    )


def array(
    data,
    dtype=None,
    copy=False,
    order=None,
    mask=nomask,
    fill_value=None,
    keep_mask=True,
    hard_mask=False,
    shrink=True,
    subok=True,
    ndmin=0,
):
    if order is not None:
        check_options(order=order)  # NumPy's ValueError for an unknown order
    return MaskedArray(
        data,
        mask=mask,
        dtype=dtype,
        copy=copy,
        fill_value=fill_value,
        keep_mask=keep_mask,
        hard_mask=hard_mask,
        shrink=shrink,
        ndmin=ndmin,
    )


_CTOR = """    data : array_like
        Input data.
    mask : sequence, optional
        Mask; True marks a masked entry.
    dtype : dtype, optional
        Data type of the output.
    copy : bool, optional
        Whether to copy the input data.
    fill_value : scalar, optional
        Value used to fill in the masked values.
    keep_mask, hard_mask, shrink, ndmin, order, subok
        As for `MaskedArray`."""
masked_array.__doc__ = _doc(
    "masked_array",
    "An array class with possibly masked values.",
    _CTOR,
    "    result : MaskedArray\n        The masked array.",
)
array.__doc__ = _doc(
    "array",
    "An array class with possibly masked values.",
    _CTOR,
    "    result : MaskedArray\n        The masked array.",
)


def _creator(name):
    def create(*args, **kwargs):
        return MaskedArray._new(getattr(xp, name)(*args, **kwargs))

    create.__name__ = create.__qualname__ = name
    create.__doc__ = _doc(
        name,
        f"`arraystack.{name}` as a masked array with no masked entries.",
        "    *args, **kwargs\n        As for `arraystack." + name + "`.",
        "    result : MaskedArray\n        The new array (mask nomask).",
    )
    return create


zeros = _creator("zeros")
ones = _creator("ones")
empty = _creator("empty")
arange = _creator("arange")


def _join(name):
    def join(arrays, axis=0):
        fn = getattr(xp, name)
        data = fn([getdata(a) for a in arrays], axis=axis)
        if all(getmask(a) is nomask for a in arrays):
            return MaskedArray._new(data)
        mask = fn([getmaskarray(a) for a in arrays], axis=axis)
        return MaskedArray._new(data, shrink_mask(mask))

    join.__name__ = join.__qualname__ = name
    join.__doc__ = _doc(
        name,
        f"`arraystack.{name}` of masked arrays, masks joined alike.",
        "    arrays : sequence of array_like\n        The arrays.\n"
        "    axis : int, optional\n        The axis.",
        "    result : MaskedArray\n        The joined array.",
    )
    return join


concatenate = _join("concatenate")
_stack = _join("stack")  # masks shrunk (apply_along_axis's); the public stack is in _joining.py


def where(condition, x=None, y=None):
    if x is None and y is None:
        return xp.nonzero(MaskedArray(condition).filled(False))
    cond = MaskedArray(condition)
    cf = cond.filled(False)
    data = xp.where(cf, getdata(x), getdata(y))
    mask = xp.where(cf, getmaskarray(x), getmaskarray(y))
    mask = xp.logical_or(xp.broadcast_to(mask, data.shape), getmaskarray(cond))
    return MaskedArray._new(data, shrink_mask(mask))


where.__doc__ = _doc(
    "where",
    "Return a masked array with elements from `x` or `y`, by condition.",
    "    condition : array_like, bool\n        Where True, yield `x`, otherwise `y`;"
    " masked where the condition is masked.\n    x, y : array_like, optional\n"
    "        Values to choose from.",
    "    out : MaskedArray\n        The selected values, with the masks selected alike.",
)


def clip(a, a_min=None, a_max=None, **kwargs):
    a = a if isinstance(a, MaskedArray) else MaskedArray(a)
    return a.clip(a_min, a_max, **kwargs)  # masked where a bound is masked too, as numpy.ma's


clip.__doc__ = _doc(
    "clip",
    "Clip (limit) the values in an array; masked where the array or a bound is masked.",
    "    a : array_like\n        Array to clip.\n    a_min, a_max : scalar or"
    " array_like\n        The limits.\n    **kwargs\n        `out` (where to write the result), as for `MaskedArray.clip`.",
    "    clipped : MaskedArray\n        The clipped array.",
)


def dot(a, b, strict=False, out=None):
    am, bm = getmaskarray(a), getmaskarray(b)
    if strict and xp.ndim(a) and xp.ndim(b):
        # numpy.ma masks whole rows of `a` and whole columns (for a vector: all) of `b`
        am = xp.broadcast_to(am.any(axis=-1, keepdims=True), am.shape)
        axis = -1 if xp.ndim(b) == 1 else -2
        bm = xp.broadcast_to(bm.any(axis=axis, keepdims=True), bm.shape)
    da = xp.where(am, 0, getdata(a))
    db = xp.where(bm, 0, getdata(b))
    data = xp.dot(da, db)
    mask = xp.logical_not(xp.dot(xp.logical_not(am).astype(int), xp.logical_not(bm).astype(int)))
    if data.ndim == 0 and concrete(mask) and not bool(mask):
        mask = nomask  # numpy.ma's mask here is NumPy's False scalar, which is nomask
    result = MaskedArray._new(data, mask)  # a 0-d masked array for vectors, as numpy.ma's
    return result if out is None else write_out(out, result)


dot.__doc__ = _doc(
    "dot",
    "Return the dot product of two arrays, skipping masked values.",
    "    a, b : masked_array_like\n        Inputs.\n    strict : bool, optional\n"
    "        Whether masked rows/columns propagate to the whole product row/column.\n"
    "    out : ndarray, optional\n        Where to write the result (its data; a masked `out` also gets its mask).",
    "    result : MaskedArray\n        Masked where every pair of products is masked.",
)


def allequal(a, b, fill_value=True):
    m = xp.logical_or(getmaskarray(a), getmaskarray(b))
    equal = xp.equal(getdata(a), getdata(b))
    if not bool(m.any()):
        return equal.all()  # NumPy's bool scalar, as numpy.ma returns
    if fill_value:
        return xp.where(m, True, equal).all()
    return False


allequal.__doc__ = _doc(
    "allequal",
    "Return True if all entries of a and b are equal.",
    "    a, b : array_like\n        Inputs.\n    fill_value : bool, optional\n"
    "        Whether masked values count as equal.",
    "    y : bool\n        Whether the arrays are equal.",
)


def allclose(a, b, masked_equal=True, rtol=1e-5, atol=1e-8):
    m = xp.logical_or(getmaskarray(a), getmaskarray(b))
    close = xp.isclose(getdata(a), getdata(b), rtol=rtol, atol=atol, equal_nan=False)
    if bool(m.any()):
        if not masked_equal:
            return False
        close = xp.where(m, True, close)
    return close.all()


allclose.__doc__ = _doc(
    "allclose",
    "Returns True if two arrays are element-wise equal within a"
    " tolerance, masked values counted as equal by default.",
    "    a, b : array_like\n        Inputs.\n    masked_equal : bool, optional\n"
    "        Whether masked values count as equal.\n    rtol, atol : float,"
    " optional\n        Tolerances.",
    "    y : bool\n        Whether the arrays are close.",
)


def count(self, axis=None, keepdims=False):
    return MaskedArray(self).count(axis=axis, keepdims=keepdims)


count.__doc__ = _doc(
    "count",
    "Count the non-masked elements of the array along the given axis.",
    "    self : array_like\n        Input.\n    axis : int, optional\n        Axis.\n"
    "    keepdims : bool, optional\n        Keep reduced axes.",
    "    result : ndarray or int\n        The counts.",
)


def set_fill_value(a, fill_value):
    if isinstance(a, MaskedArray):
        a.fill_value = fill_value


set_fill_value.__doc__ = _doc(
    "set_fill_value",
    "Set the filling value of a, if a is a masked array.",
    "    a : array_like\n        Input.\n    fill_value : scalar\n        The new fill value.",
    "    None",
)


def average(a, axis=None, weights=None, returned=False, keepdims=False):
    a = a if isinstance(a, MaskedArray) else MaskedArray(a)
    if weights is None:
        avg = a.mean(axis=axis, keepdims=keepdims)
        scale = a.count(axis=axis, keepdims=keepdims)
    else:
        from arraystack.ma._elementwise import true_divide

        w = xp.asarray(weights)
        if w.shape != a.shape and axis is not None:
            shape = [1] * a.ndim
            shape[axis] = w.shape[0]
            w = xp.broadcast_to(w.reshape(shape), a.shape)
        w = w * 1.0 if a._mask is nomask else xp.where(a._mask, 0.0, w)
        scale = w.sum(axis=axis, keepdims=keepdims)
        avg = true_divide((a * w).sum(axis=axis, keepdims=keepdims), scale)
    if returned:
        return avg, xp.asarray(scale).astype(np.result_type(getdata(avg).dtype, float))
    return scalar_result(avg)  # NumPy's scalar where 0-d


average.__doc__ = _doc(
    "average",
    "Return the weighted average of array over the given axis.",
    "    a : array_like\n        Data.\n    axis : int, optional\n        Axis.\n"
    "    weights : array_like, optional\n        Weights.\n    returned : bool,"
    " optional\n        Also return the sum of weights.\n    keepdims : bool,"
    " optional\n        Keep reduced axes.",
    "    average, [sum_of_weights] : MaskedArray or scalar\n        The average.",
)


def _check_sort(kind, order, dtype):
    """NumPy's ValueError for an unknown sort kind, or an order for an array without fields."""
    from arraystack._sorting import sorting

    sorting._sort_kind(kind, None)
    if dtype.names is None:
        sorting._check_order(order)


def sort(a, axis=-1, kind=None, order=None, endwith=True, fill_value=None):
    if not isinstance(a, MaskedArray):  # numpy.ma sorts anything else as an array
        return xp.sort(a, axis=axis, kind=kind, order=order)
    _check_sort(kind, order, a.dtype)
    if axis is None:
        a, axis = a.ravel(), 0
    index = argsort(a, axis=axis, endwith=endwith, fill_value=fill_value)
    data = xp.take_along_axis(a._data, index, axis=axis)
    mask = a._mask if a._mask is nomask else xp.take_along_axis(a._mask, index, axis=axis)
    return a._like(data, mask)


def argsort(a, axis=np._NoValue, kind=None, order=None, endwith=True, fill_value=None):
    from arraystack.ma._fill import maximum_fill, minimum_fill

    a = a if isinstance(a, MaskedArray) else MaskedArray(a)
    _check_sort(kind, order, a.dtype)
    if axis is np._NoValue:  # numpy.ma's default: the last axis of a vector, else all (warned)
        axis = -1 if a.ndim <= 1 else None
        if axis is None:
            warnings.warn(
                "In the future the default for argsort will be axis=-1, not the current None, to "
                "match its documentation and np.argsort. Explicitly pass -1 or None to silence this "
                "warning.",
                np.ma.core.MaskedArrayFutureWarning,
                stacklevel=2,
            )
    if fill_value is None:
        fill_value = minimum_fill(a.dtype) if endwith else maximum_fill(a.dtype)
    if axis is None:
        a, axis = a.ravel(), 0
    return xp.argsort(a.filled(fill_value), axis=axis, kind="stable")


_SORT = (
    "    a : array_like\n        Input.\n    axis : int, optional\n        Axis (-1; argsort of more than one dimension: None, with numpy.ma's FutureWarning).\n"
    "    kind, order\n        Accepted for NumPy compatibility.\n    endwith : bool, optional\n"
    "        Whether masked values go to the end.\n    fill_value : scalar, optional\n"
    "        Value masked entries sort as."
)
sort.__doc__ = _doc(
    "sort",
    "Return a sorted copy of the masked array.",
    _SORT,
    "    sorted : MaskedArray\n        The sorted array, masks moved alike.",
)
argsort.__doc__ = _doc(
    "argsort",
    "Return the indices that would sort the masked array.",
    _SORT,
    "    indices : ndarray\n        The sorting indices.",
)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    a = a if isinstance(a, MaskedArray) else MaskedArray(a)
    if a._mask is nomask:
        return xp.median(a._data, axis=axis, out=out, keepdims=keepdims)
    result = _median(a, axis, keepdims)
    return result if out is None else write_out(out, result)


def _median(a, axis, keepdims):
    if axis is None:
        a, axis = a.ravel(), 0
    ordered = sort(a, axis=axis)
    n = ordered.count(axis=axis, keepdims=True)
    low = xp.maximum((n - 1) // 2, 0)
    high = xp.maximum(n // 2, 0)
    data = ordered._data
    mid = (xp.take_along_axis(data, low, axis) + xp.take_along_axis(data, high, axis)) / 2.0
    mask = n == 0
    if not keepdims:
        mid, mask = mid.squeeze(axis), mask.squeeze(axis)
    if mid.ndim == 0:
        return masked if bool(mask) else scalar_result(mid)
    return MaskedArray._new(mid, mask)


median.__doc__ = _doc(
    "median",
    "Compute the median along the specified axis, skipping masked values.",
    "    a : array_like\n        Input.\n    axis : int, optional\n        Axis.\n"
    "    out : ndarray, optional\n        Where to write the result (its data; a masked `out` also "
    "gets its mask).\n    overwrite_input\n        Accepted for NumPy compatibility.\n"
    "    keepdims : bool, optional\n        Keep reduced axes.",
    "    median : MaskedArray or scalar\n        The median.",
)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    arr = arr if isinstance(arr, MaskedArray) else MaskedArray(arr)
    moved = arr._map(lambda x: xp.moveaxis(x, axis, -1))
    outer = moved.shape[:-1]
    results = [func1d(moved[index], *args, **kwargs) for index in np.ndindex(*outer)]
    flat = [
        r if isinstance(r, MaskedArray) else MaskedArray(r) if r is not masked else r
        for r in results
    ]
    joined = _stack([r if r is not masked else MaskedArray(0.0, mask=True) for r in flat])
    return joined.reshape(outer + joined.shape[1:])


apply_along_axis.__doc__ = _doc(
    "apply_along_axis",
    "Apply a function to 1-D slices along an axis.",
    "    func1d : callable\n        Function of 1-D masked arrays.\n"
    "    axis : int\n        Axis.\n    arr : array_like\n        Input.\n"
    "    *args, **kwargs\n        Passed to func1d.",
    "    out : MaskedArray\n        The stacked results.",
)
