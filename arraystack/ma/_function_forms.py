"""Function forms of MaskedArray's methods (numpy.ma.sum(a) is a.sum() on `a` as a masked array), and the
shape, selection and rounding functions numpy.ma defines beside them."""

from __future__ import annotations

import textwrap

import numpy as np

import arraystack as xp
from arraystack.ma._out import write_out
from arraystack.ma._array import MaskedArray, concrete, masked, nomask
from arraystack.ma._masking import getdata, getmask, getmaskarray, make_mask, mask_or


def _as_masked(a):
    return a if isinstance(a, MaskedArray) else MaskedArray(a)


def _section(doc, title):
    """The body of the section `title` of a NumPy-style docstring (empty when absent)."""
    head = f"{title}\n        {'-' * len(title)}\n"
    if head not in doc:
        return ""
    body = doc.split(head, 1)[1]
    return body.split("\n\n", 1)[0]


def _from_method(name, reversed=False):
    """The function form of `MaskedArray.<name>`: the method called on the input as a masked array."""
    method = getattr(MaskedArray, name)
    if reversed:

        def function(condition, a, *args, **kwargs):
            return getattr(_as_masked(a), name)(condition, *args, **kwargs)

        first = "    condition : array_like\n        The method's first argument.\n"
        first += "    a : array_like\n        Input data (masked or not).\n"
    else:

        def function(a, *args, **kwargs):
            return getattr(_as_masked(a), name)(*args, **kwargs)

        first = "    a : array_like\n        Input data (masked or not).\n"
    doc = method.__doc__
    returns = textwrap.indent(textwrap.dedent(_section(doc, "Returns")), "    ")
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"""{doc.strip().splitlines()[0]}

    Parameters
    ----------
{first}    *args, **kwargs
        The other arguments of `MaskedArray.{name}`.

    Returns
    -------
{returns or "    None"}

    See Also
    --------
    numpy.ma.{name} : The NumPy function this mirrors.
    MaskedArray.{name}
    """
    return function


sum = _from_method("sum")
prod = _from_method("prod")
product = _from_method("product")
mean = _from_method("mean")
var = _from_method("var")
std = _from_method("std")
min = _from_method("min")
max = _from_method("max")
ptp = _from_method("ptp")
argmin = _from_method("argmin")
argmax = _from_method("argmax")
all = _from_method("all")
any = _from_method("any")
cumsum = _from_method("cumsum")
cumprod = _from_method("cumprod")
anom = anomalies = _from_method("anom")
trace = _from_method("trace")
ravel = _from_method("ravel")
repeat = _from_method("repeat")
swapaxes = _from_method("swapaxes")
diagonal = _from_method("diagonal")
copy = _from_method("copy")
nonzero = _from_method("nonzero")
compress = _from_method("compress", reversed=True)
harden_mask = _from_method("harden_mask")
soften_mask = _from_method("soften_mask")
ids = _from_method("ids")


def _numpy_reduction(name):
    """numpy's amax/amin as numpy.ma exports them: a masked array's method, else the plain function."""

    def reduction(a, axis=None, out=None, keepdims=False):
        if isinstance(a, MaskedArray):
            return getattr(a, name)(axis=axis, out=out, keepdims=keepdims)
        return getattr(xp, name)(a, axis=axis, out=out, keepdims=keepdims)

    reduction.__name__ = reduction.__qualname__ = "a" + name
    reduction.__doc__ = f"""Return the {name}imum of an array or the {name}imum along an axis.

    Parameters
    ----------
    a : array_like
        Input data; a masked array's masked entries are skipped.
    axis : None or int or tuple of ints, optional
        Axis or axes along which to operate; the flattened array by default.
    out : None
        Where to write the result (its data; a masked `out` also gets the result's mask), of the
        result's shape; it is returned.
    keepdims : bool, optional
        Keep the reduced axes with size one.

    Returns
    -------
    a{name} : MaskedArray, ndarray or scalar
        `MaskedArray.{name}` for a masked array, `arraystack.a{name}` for anything else.

    See Also
    --------
    numpy.ma.a{name} : The NumPy function this mirrors (NumPy's own `numpy.a{name}`).
    """
    return reduction


amax = _numpy_reduction("max")
amin = _numpy_reduction("min")


def _logical_reduce(name, fill):
    """numpy.ma's alltrue/sometrue: `logical_<name>.reduce` over the data filled with `fill`."""

    def reduce(target, axis=0, dtype=None):
        mask = getmask(target)
        data = xp.asarray(target.filled(fill) if isinstance(target, MaskedArray) else target)
        if data.ndim == 0:
            data = data.reshape(1)
            mask = mask if mask is nomask else xp.asarray(mask).reshape(1)
        result = getattr(xp, "logical_" + name).reduce(data, axis, dtype=dtype)
        result_mask = nomask if mask is nomask else xp.logical_and.reduce(mask, axis)
        if xp.ndim(result) == 0:
            masked_result = result_mask is not nomask and bool(result_mask)
            return masked if masked_result else result
        return MaskedArray._new(xp.asarray(result), result_mask)

    word = {"and": "all", "or": "any"}[name]
    reduce.__name__ = reduce.__qualname__ = {"and": "alltrue", "or": "sometrue"}[name]
    reduce.__doc__ = f"""Reduce with `logical_{name}`: whether {word} entries are True (masked skipped).

    Parameters
    ----------
    target : array_like
        Input data.
    axis : int or None, optional
        Axis along which to reduce (0 by default, as in numpy.ma).
    dtype : dtype, optional
        Type of the reduction.

    Returns
    -------
    result : MaskedArray, bool or masked
        Masked where every reduced entry is masked.

    See Also
    --------
    numpy.ma.{reduce.__name__} : The NumPy function this mirrors.
    """
    return reduce


alltrue = _logical_reduce("and", True)
sometrue = _logical_reduce("or", False)


def take(a, indices, axis=None, out=None, mode="raise"):
    """Take elements from an array along an axis (masks taken alike).

    Parameters
    ----------
    a : array_like
        Input data.
    indices : array_like
        The indices of the values to extract.
    axis : int, optional
        Axis over which to select; the flattened array by default.
    out : None
        Where to write the result (its data; a masked `out` also gets the result's mask), of the
        result's shape; it is returned.
    mode : {'raise', 'wrap', 'clip'}, optional
        How out-of-bounds indices behave.

    Returns
    -------
    out : MaskedArray, scalar or masked
        The selected entries.

    See Also
    --------
    numpy.ma.take : The NumPy function this mirrors.
    """
    return _as_masked(a).take(indices, axis=axis, out=out, mode=mode)


def reshape(a, new_shape, order="C"):
    """Returns an array containing the same data with a new shape.

    Parameters
    ----------
    a : array_like
        Array to reshape; an array keeps its type (a masked array its mask).
    new_shape : int or tuple of ints
        The new shape.
    order : {'C', 'F'}, optional
        Read and write order.

    Returns
    -------
    reshaped_array : MaskedArray or ndarray
        The reshaped array.

    See Also
    --------
    numpy.ma.reshape : The NumPy function this mirrors.
    """
    if hasattr(a, "reshape"):
        return a.reshape(new_shape, order=order)
    return MaskedArray._new(xp.asarray(a).reshape(new_shape, order=order))


def transpose(a, axes=None):
    """Permute the dimensions of an array (mask alike).

    Parameters
    ----------
    a : array_like
        Input array; an array keeps its type.
    axes : tuple of ints, optional
        The permutation; reversed by default.

    Returns
    -------
    p : MaskedArray or ndarray
        The transposed array.

    See Also
    --------
    numpy.ma.transpose : The NumPy function this mirrors.
    """
    if hasattr(a, "transpose"):
        return a.transpose(axes)
    return MaskedArray._new(xp.asarray(a).transpose(axes))


def squeeze(a, axis=None, *, fill_value=None, hardmask=False):
    """Remove axes of length one from `a` (mask alike).

    Parameters
    ----------
    a : array_like
        Input data.
    axis : None or int or tuple of ints, optional
        The axes to remove; all of length one by default.
    fill_value : scalar, optional
        Fill value of the result.
    hardmask : bool, optional
        Whether the result's mask is hard.

    Returns
    -------
    squeezed : MaskedArray
        The input without its length-one axes.

    See Also
    --------
    numpy.ma.squeeze : The NumPy function this mirrors.
    """
    result = (
        a.squeeze(axis) if isinstance(a, MaskedArray) else MaskedArray._new(xp.squeeze(a, axis))
    )
    if fill_value is not None:
        result.fill_value = fill_value
    result._hardmask = bool(hardmask) if hardmask else result._hardmask
    return result


def expand_dims(a, axis):
    """Expand the shape of an array (mask alike).

    Parameters
    ----------
    a : array_like
        Input array; a masked array stays masked.
    axis : int or tuple of ints
        Position of the new axes.

    Returns
    -------
    result : MaskedArray or ndarray
        The array with the new axes.

    See Also
    --------
    numpy.ma.expand_dims : The NumPy function this mirrors (NumPy's own `numpy.expand_dims`).
    """
    if isinstance(a, MaskedArray):
        return a._map(lambda d: xp.expand_dims(d, axis))
    return xp.expand_dims(a, axis)


def resize(x, new_shape):
    """Return a new masked array with the specified size and shape, repeating the input.

    Parameters
    ----------
    x : array_like
        Array to be resized.
    new_shape : int or tuple of int
        Shape of the resized array.

    Returns
    -------
    resized_array : MaskedArray
        The entries of `x` repeated to fill the shape; the mask repeated alike.

    See Also
    --------
    numpy.ma.resize : The NumPy function this mirrors.
    """
    mask = getmask(x)
    if mask is not nomask:
        mask = xp.resize(mask, new_shape)
    result = xp.resize(getdata(x), new_shape)
    return MaskedArray._new(result, mask if result.ndim else nomask)


def shape(obj):
    """Return the shape of an array.

    Parameters
    ----------
    obj : array_like
        Input array.

    Returns
    -------
    shape : tuple of ints
        The array's shape.

    See Also
    --------
    numpy.ma.shape : The NumPy function this mirrors.
    """
    return tuple(xp.shape(getdata(obj)))


def size(obj, axis=None):
    """Return the number of elements along a given axis.

    Parameters
    ----------
    obj : array_like
        Input data.
    axis : int, optional
        Axis along which the elements are counted; all by default.

    Returns
    -------
    element_count : int
        The number of elements.

    See Also
    --------
    numpy.ma.size : The NumPy function this mirrors.
    """
    return xp.size(getdata(obj), axis)


def ndim(obj):
    """Return the number of dimensions of an array.

    Parameters
    ----------
    obj : array_like
        Input array.

    Returns
    -------
    number_of_dimensions : int
        The number of dimensions.

    See Also
    --------
    numpy.ma.ndim : The NumPy function this mirrors.
    """
    return xp.ndim(getdata(obj))


def round_(a, decimals=0, out=None):
    """Return a copy of `a`, rounded to `decimals` places (the mask is kept).

    Parameters
    ----------
    a : array_like
        Source of data.
    decimals : int, optional
        Number of decimal places to round to.
    out : None
        Where to write the result (its data; a masked `out` also gets the result's mask), of the
        result's shape; it is returned.

    Returns
    -------
    rounded_array : MaskedArray, ndarray or scalar
        A masked array's rounded copy; `arraystack.round` for anything else.

    See Also
    --------
    numpy.ma.round_ : The NumPy function this mirrors.
    """
    if isinstance(a, MaskedArray):
        return a.round(decimals, out)
    return xp.round(a, decimals, out)


round = round_


def put(a, indices, values, mode="raise") -> None:
    """Set storage-indexed locations to corresponding values (masks placed alike), in place.

    Parameters
    ----------
    a : MaskedArray or ndarray
        The target array.
    indices : array_like of int
        Target indices into the flattened array.
    values : array_like
        Values to place.
    mode : {'raise', 'wrap', 'clip'}, optional
        How out-of-bounds indices behave.

    See Also
    --------
    numpy.ma.put : The NumPy function this mirrors.
    """
    if isinstance(a, MaskedArray):
        a.put(indices, values, mode=mode)
    else:
        a.put(indices, getdata(values), mode=mode)


def putmask(a, mask, values) -> None:
    """Set ``a[mask] = values`` in place: where `mask` is True the data and the mask take `values`'.

    Parameters
    ----------
    a : MaskedArray
        Target array.
    mask : array_like of bool
        Where to write.
    values : array_like
        Values (broadcast against `a`) to write.

    See Also
    --------
    numpy.ma.putmask : The NumPy function this mirrors.
    """
    where = xp.asarray(getdata(mask)).astype(bool)
    value_data, value_mask = getdata(values), getmask(values)
    if a._mask is nomask:
        if value_mask is not nomask:
            a._mask = xp.where(where, value_mask, False)
    elif a._hardmask:
        if value_mask is not nomask:
            a._mask = xp.logical_or(a._mask, xp.where(where, value_mask, a._mask))
    else:
        value_mask = getmaskarray(values)
        a._mask[...] = xp.where(where, value_mask, a._mask)
    a._data[...] = xp.where(where, xp.asarray(value_data).astype(a.dtype), a._data)


def choose(indices, choices, out=None, mode="raise"):
    """Use an index array to construct a new array from a list of choices (masks chosen alike).

    Parameters
    ----------
    indices : array_like of ints
        Which choice each entry comes from; masked indices give masked entries.
    choices : sequence of array_like
        The arrays (or `masked`) to choose from.
    out : None
        Where to write the result (its data; a masked `out` also gets the result's mask), of the
        result's shape; it is returned.
    mode : {'raise', 'wrap', 'clip'}, optional
        How out-of-bounds indices behave.

    Returns
    -------
    merged_array : MaskedArray
        The chosen entries.

    See Also
    --------
    numpy.ma.choose : The NumPy function this mirrors.
    """
    index = indices.filled(0) if isinstance(indices, MaskedArray) else indices
    masks = [True if c is masked else getmask(c) for c in choices]
    data = [True if c is masked else getdata(c) for c in choices]
    chosen_mask = xp.choose(index, [xp.asarray(m) for m in masks], mode=mode)
    chosen_mask = make_mask(mask_or(chosen_mask, getmask(indices)), shrink=True)
    result = MaskedArray._new(xp.asarray(xp.choose(index, data, mode=mode)), chosen_mask)
    return result if out is None else write_out(out, result)


def diff(a, /, n=1, axis=-1, prepend=None, append=None):
    """Calculate the n-th discrete difference along the given axis (masked where an operand is).

    Parameters
    ----------
    a : array_like
        Input array.
    n : int, optional
        The number of times values are differenced.
    axis : int, optional
        The axis along which the difference is taken (the last by default).
    prepend, append : array_like, optional
        Values joined to `a` along `axis` first.

    Returns
    -------
    diff : MaskedArray
        The n-th differences.

    Raises
    ------
    ValueError
        If `n` is negative or `a` is 0-d.

    See Also
    --------
    numpy.ma.diff : The NumPy function this mirrors.
    """
    from arraystack.ma._routines import concatenate

    if n == 0:
        return a
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    a = _as_masked(a)
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    combined = [a]
    if prepend is not None:
        combined.insert(0, _edge(prepend, a, axis))
    if append is not None:
        combined.append(_edge(append, a, axis))
    if len(combined) > 1:
        a = concatenate(combined, axis=axis)
    axis = axis % a.ndim
    head = tuple(slice(1, None) if i == axis else slice(None) for i in range(a.ndim))
    tail = tuple(slice(None, -1) if i == axis else slice(None) for i in range(a.ndim))
    op = xp.not_equal if a.dtype == np.bool_ else None
    for _ in range(n):
        if op is None:
            a = a[head] - a[tail]
        else:
            a = a._like(op(a._data[head], a._data[tail]), _pair_mask(a, head, tail))
    return a


def _edge(values, a, axis):
    """`values` (prepended or appended by diff) as a masked array; a scalar spans `a`'s other axes."""
    values = _as_masked(values)
    if values.ndim == 0:
        target = list(a.shape)
        target[axis] = 1
        values = values._map(lambda d: xp.broadcast_to(d, tuple(target)))
    return values


def _pair_mask(a, head, tail):
    if a._mask is nomask:
        return nomask
    mask = xp.logical_or(a._mask[head], a._mask[tail])
    return mask if not concrete(mask) else make_mask(mask, shrink=False)
