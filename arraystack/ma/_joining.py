"""Joining and splitting masked arrays: numpy.ma.extras' wrappers that run arraystack's function on the
data and again on the masks, and the `mr_` index expression."""

from __future__ import annotations

import arraystack as xp
from arraystack.ma._array import MaskedArray
from arraystack.ma._masking import getdata, getmaskarray
from arraystack.ma._routines import concatenate


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


def _on_sequence(name):
    """numpy.ma's _fromnxfunction_seq: `arraystack.<name>` of the data and of the masks."""

    def join(tup, *args, **kwargs):
        fn = getattr(xp, name)
        data = fn(tuple(getdata(a) for a in tup), *args, **kwargs)
        return MaskedArray(data, mask=fn(tuple(getmaskarray(a) for a in tup), *args, **kwargs))

    join.__name__ = join.__qualname__ = name
    join.__doc__ = _doc(
        name,
        f"`arraystack.{name}` of masked arrays: the data and the masks joined alike.",
        "    tup : sequence of array_like\n        The arrays.\n"
        f"    *args, **kwargs\n        As for `arraystack.{name}`.",
        "    result : MaskedArray\n        The joined array (its mask a full array).",
    )
    return join


stack = _on_sequence("stack")
hstack = _on_sequence("hstack")
vstack = row_stack = _on_sequence("vstack")
dstack = _on_sequence("dstack")
column_stack = _on_sequence("column_stack")


def _on_each(name):
    """numpy.ma's _fromnxfunction_allargs: `arraystack.<name>` of each argument's data and mask."""

    def each(*arys, **kwargs):
        fn = getattr(xp, name)
        results = [MaskedArray(fn(getdata(a), **kwargs), mask=fn(getmaskarray(a))) for a in arys]
        return results[0] if len(results) == 1 else tuple(results)

    each.__name__ = each.__qualname__ = name
    each.__doc__ = _doc(
        name,
        f"`arraystack.{name}` of masked arrays: the data and the masks alike.",
        "    *arys : array_like\n        The arrays.\n"
        f"    **kwargs\n        As for `arraystack.{name}`.",
        "    result : MaskedArray or tuple of MaskedArray\n        One result per argument.",
    )
    return each


atleast_1d = _on_each("atleast_1d")
atleast_2d = _on_each("atleast_2d")
atleast_3d = _on_each("atleast_3d")


def _on_single(name):
    """numpy.ma's _fromnxfunction_single: `arraystack.<name>` of the data and of the mask."""

    def single(x, *args, **kwargs):
        fn = getattr(xp, name)
        data = fn(getdata(x), *args, **kwargs)
        return MaskedArray(data, mask=fn(getmaskarray(x), *args, **kwargs))

    single.__name__ = single.__qualname__ = name
    single.__doc__ = _doc(
        name,
        f"`arraystack.{name}` of a masked array: the data and the mask alike.",
        f"    x : array_like\n        Input.\n    *args, **kwargs\n        As for `arraystack.{name}`.",
        "    result : MaskedArray\n        The result (pieces of a split stacked, as in numpy.ma).",
    )
    return single


diagflat = _on_single("diagflat")
hsplit = _on_single("hsplit")


def append(a, b, axis=None):
    """Append values to the end of an array (masks joined alike).

    Parameters
    ----------
    a : array_like
        Values are appended to a copy of this array.
    b : array_like
        These values are appended to a copy of `a`.
    axis : int, optional
        The axis along which `b` is appended; both are flattened by default.

    Returns
    -------
    append : MaskedArray
        A copy of `a` with `b` appended.

    See Also
    --------
    numpy.ma.append : The NumPy function this mirrors.
    """
    return concatenate([a, b], axis)


class MaskedRClass:
    """Translate slice objects to concatenation along the first axis, for masked arrays.

    Parameters
    ----------
    None

    See Also
    --------
    numpy.ma.mr_ : The NumPy object this mirrors.
    arraystack.r_
    """

    def __getitem__(self, key):
        items = key if isinstance(key, tuple) else (key,)
        data = xp.r_[tuple(getdata(i) if isinstance(i, MaskedArray) else i for i in items)]
        masks = tuple(_mask_item(i) for i in items)
        result = MaskedArray(data, mask=xp.r_[masks])
        from arraystack.ma._masking import shrink_mask

        result._mask = shrink_mask(result._mask)
        return result

    def __len__(self):
        return 0


def _mask_item(item):
    """What stands for `item` of an `mr_` expression when its masks are joined."""
    if isinstance(item, str):
        return item
    if isinstance(item, slice):
        return xp.zeros(len(xp.r_[item]), dtype=bool)
    return getmaskarray(item)


mr_ = MaskedRClass()
