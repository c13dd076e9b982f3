"""Masked ufuncs: elementwise functions that propagate masks as numpy.ma's do.

Three kinds, as in numpy.ma: plain (the result is masked where an input is), domained unary (also
masked where the input lies outside the function's domain or the result is not finite) and domained
binary (the divisions: also masked where the divisor is too small or the result is not finite).
Entries masked by an input keep the first input's data.
"""

from __future__ import annotations

import numpy as np

import arraystack as xp
from arraystack.ma._array import MaskedArray, concrete, masked, nomask
from arraystack.ma._masking import getdata, getmask, getmaskarray

_TINY = np.finfo(np.float64).tiny

# ufunc name -> domain(data...) -> bool array of the entries outside the function's domain
domain_rules = {
    "sqrt": lambda x: x < 0,
    "log": lambda x: x <= 0,
    "log2": lambda x: x <= 0,
    "log10": lambda x: x <= 0,
    "tan": lambda x: xp.abs(xp.cos(x)) < 1e-35,
    "arcsin": lambda x: xp.logical_or(x > 1.0, x < -1.0),
    "arccos": lambda x: xp.logical_or(x > 1.0, x < -1.0),
    "arccosh": lambda x: x < 1.0,
    "arctanh": lambda x: xp.logical_or(x > 1.0 - 1e-15, x < -1.0 + 1e-15),
}
for _name in ("divide", "true_divide", "floor_divide", "remainder", "fmod"):
    domain_rules[_name] = lambda a, b: xp.abs(a) * _TINY >= xp.abs(b)

# ufunc name -> what NumPy's ufunc call on a masked array writes at entries outside the domain
domain_fills = {"log": 1.0, "log2": 1.0, "log10": 1.0, "arccosh": 1.0}


def _fill_from(*operands):
    for operand in operands:
        if isinstance(operand, MaskedArray):
            return operand
    return None


def _finish(result, mask, source):
    """The masked result: `masked` for a masked scalar, else a MaskedArray keeping `source`'s fill."""
    if result.ndim == 0 and (mask is nomask or concrete(mask)):
        return masked if mask is not nomask and bool(mask) else result
    if mask is not nomask and tuple(mask.shape) != tuple(result.shape):
        mask = xp.broadcast_to(mask, result.shape).copy()
    if source is not None:
        return source._like(result, mask)
    return MaskedArray._new(result, mask)


def _revert(result, mask, data):
    """`result` with the entries under `mask` set back to `data` (NumPy's unsafe copyto)."""
    if mask is nomask:
        return result
    return xp.where(mask, xp.asarray(data).astype(result.dtype), result)


def unary(name):
    """The masked version of the unary function `arraystack.<name>`."""
    domain = domain_rules.get(name)

    def masked_unary(a, *args, **kwargs):
        data = getdata(a)
        with xp.errstate(all="ignore"):
            result = xp.asarray(getattr(xp, name)(data, *args, **kwargs))
            mask = getmask(a)
            if domain is not None:
                invalid = xp.logical_or(xp.logical_not(xp.isfinite(result)), domain(data))
                mask = invalid if mask is nomask else xp.logical_or(mask, invalid)
        return _finish(_revert(result, mask, data), mask, _fill_from(a))

    masked_unary.__name__ = masked_unary.__qualname__ = name
    masked_unary.__doc__ = _doc(name, 1, domain is not None)
    return masked_unary


def binary_mask(a, b):
    """The mask of a binary operation on `a` and `b`: nomask where neither has one."""
    if getmask(a) is nomask and getmask(b) is nomask:
        return nomask
    return xp.logical_or(getmaskarray(a), getmaskarray(b))


def binary(name):
    """The masked version of the binary function `arraystack.<name>`."""
    domain = domain_rules.get(name)

    def masked_binary(a, b, *args, **kwargs):
        da, db = getdata(a), getdata(b)
        with xp.errstate(all="ignore"):
            result = xp.asarray(getattr(xp, name)(da, db, *args, **kwargs))
            mask = binary_mask(a, b)
            if domain is None:
                result = _revert(result, mask, da)
            else:
                invalid = xp.logical_or(xp.logical_not(xp.isfinite(result)), domain(da, db))
                mask = invalid if mask is nomask else xp.logical_or(mask, invalid)
                safe = np.can_cast(xp.asarray(da).dtype, result.dtype, casting="safe")
                result = _revert(result, mask, da if safe else 0)
        return _finish(result, mask, _fill_from(a, b))

    masked_binary.__name__ = masked_binary.__qualname__ = name
    masked_binary.__doc__ = _doc(name, 2, domain is not None)
    return masked_binary


def _doc(name, nin, domained):
    domain = (
        " Entries outside the function's domain, and non-finite results, are masked too."
        if domained
        else ""
    )
    return f"""Masked `{name}`: the result is masked where {"the input is" if nin == 1 else "an input is"}.{domain}

    Parameters
    ----------
    {"a : array_like" if nin == 1 else "a, b : array_like"}
        Input {"array" if nin == 1 else "arrays"} (masked or not).
    *args, **kwargs
        Passed on to `arraystack.{name}`.

    Returns
    -------
    result : MaskedArray
        The result (`masked` for a masked scalar); masked entries keep the first input's data.

    See Also
    --------
    numpy.ma.{name} : The NumPy function this mirrors.
    """


def power(a, b, third=None):
    """Returns element-wise base array raised to power from second array (masked).

    Parameters
    ----------
    a, b : array_like
        Base and exponent.
    third : None
        Must be None (modular power is not supported, as in numpy.ma).

    Returns
    -------
    result : MaskedArray
        The powers; masked where an input is masked or the result is not finite (there the
        data holds the fill value).

    Raises
    ------
    MAError
        If `third` is given.

    See Also
    --------
    numpy.ma.power : The NumPy function this mirrors.
    """
    if third is not None:
        from arraystack.ma._array import MAError

        raise MAError("3-argument power not supported.")
    mask = binary_mask(a, b)
    fa, fb = getdata(a), getdata(b)
    with xp.errstate(all="ignore"):
        result = xp.asarray(xp.power(fa, fb))
        result = _revert(result, mask, fa)
        invalid = xp.logical_not(xp.isfinite(result))
    source = _fill_from(a, b)
    out = source._like(result, mask) if source is not None else MaskedArray._new(result, mask)
    fill = xp.asarray(out.fill_value).astype(result.dtype)
    out._data = xp.where(invalid, fill, result)
    out._mask = invalid if mask is nomask else xp.logical_or(mask, invalid)
    if result.ndim == 0 and concrete(out._mask) and bool(out._mask):
        return masked
    if out._mask is not nomask and concrete(out._mask) and mask is nomask and not out._mask.any():
        out._mask = nomask
    return out


def compare(fn, a, b):
    """A comparison as numpy.ma's operators make it: masked where an input is; entries masked in
    both count as equal for == and != ; the fill value is the first operand's, as a bool."""
    ma_, mb = getmask(a), getmask(b)
    mask = binary_mask(a, b)
    if mask is not nomask and concrete(mask) and not bool(mask.any()):
        mask = nomask
    check = xp.asarray(fn(getdata(a), getdata(b)))
    if mask is not nomask and fn in (xp.equal, xp.not_equal):
        check = xp.where(
            mask, fn(ma_, mb) if ma_ is not nomask or mb is not nomask else False, check
        )
    if check.ndim == 0:
        if mask is not nomask and concrete(mask) and bool(mask):
            return masked
        if mask is nomask:
            return check
    if mask is not nomask and tuple(mask.shape) != tuple(check.shape):
        mask = xp.broadcast_to(mask, check.shape).copy()
    source = _fill_from(a, b)
    fill = source.fill_value if source is not None else None
    try:
        from arraystack.ma._fill import check_fill_value

        fill = check_fill_value(fill, np.bool_)
    except TypeError:
        fill = None
    return MaskedArray._new(check, mask, fill, getattr(source, "_hardmask", False))


def ufunc_call(ufunc, inputs, kwargs):
    """A ufunc (NumPy's or arraystack's) applied to masked inputs, as NumPy's call on masked arrays
    does: the function on the data, masked where an input is or outside the function's domain."""
    name = ufunc.__name__
    data = [getdata(x) if isinstance(x, MaskedArray) else x for x in inputs]
    function = getattr(xp, name, None) or ufunc
    with xp.errstate(all="ignore"):
        result = function(*data, **kwargs)
        if isinstance(result, tuple):
            return tuple(_ufunc_result(r, inputs, name, data) for r in result)
        return _ufunc_result(result, inputs, name, data)


def _ufunc_result(result, inputs, name, data):
    result = xp.asarray(result)
    mask = nomask
    for x in inputs:
        if getmask(x) is not nomask:
            mask = xp.logical_or(getmaskarray(x), mask) if mask is not nomask else getmask(x)
    domain = domain_rules.get(name)
    if domain is not None:
        outside = domain(*data)
        if not concrete(outside) or bool(outside.any()):
            fill = domain_fills.get(name, 0.0) if len(data) == 1 else 1
            result = xp.where(outside, xp.asarray(fill).astype(result.dtype), result)
            mask = outside if mask is nomask else xp.logical_or(mask, outside)
    if result.ndim == 0 and mask is nomask:
        return result
    return _finish(result, mask, _fill_from(*inputs))


def shift(name):
    """numpy.ma's left_shift/right_shift: the shift of the data (masked entries as 0); the result
    is masked where `a` or the shift count is."""

    def masked_shift(a, n):
        data = a.filled(0) if isinstance(a, MaskedArray) else a
        result = xp.asarray(getattr(xp, name)(data, getdata(n)))
        mask = binary_mask(a, n)
        if mask is not nomask and tuple(mask.shape) != tuple(result.shape):
            mask = xp.broadcast_to(mask, result.shape).copy()
        return MaskedArray._new(result, mask)

    masked_shift.__name__ = masked_shift.__qualname__ = name
    direction = name.split("_")[0]
    masked_shift.__doc__ = f"""Shift the bits of an integer to the {direction}, with masks.

    Parameters
    ----------
    a : array_like
        The integers to shift; masked entries stay masked.
    n : int or array_like of int
        Number of bits to shift by; a masked count masks its entry.

    Returns
    -------
    result : MaskedArray
        The shifted integers, masked where `a` or `n` is.

    See Also
    --------
    numpy.ma.{name} : The NumPy function this mirrors.
    """
    return masked_shift
