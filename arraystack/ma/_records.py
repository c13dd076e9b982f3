"""Structured (record) arrays and masked arrays: rebuilding a masked array from its flexible-type form,
and flattening the fields of a structured array into columns.

Note: arraystack's masked arrays hold one mask entry per record, never a mask per field."""

from __future__ import annotations

import arraystack as xp
from arraystack.ma._array import MaskedArray, nomask
from arraystack.ma._masking import getdata, getmask


def fromflex(fxarray):
    """Build a masked array from a suitable flexible-type array.

    Parameters
    ----------
    fxarray : ndarray
        A structured array with fields ``_data`` and ``_mask`` (as `MaskedArray.toflex` makes).

    Returns
    -------
    result : MaskedArray
        The masked array of the ``_data`` field, masked by the ``_mask`` field.

    See Also
    --------
    numpy.ma.fromflex : The NumPy function this mirrors.
    """
    fxarray = xp.asarray(fxarray)
    return MaskedArray(fxarray["_data"], mask=fxarray["_mask"])


def _flat_values(item):
    if isinstance(item, (tuple, list)):
        for element in item:
            yield from _flat_values(element)
    else:
        yield item


def flatten_structured_array(a):
    """Flatten a structured array: each record becomes a row of its (nested) fields' values.

    Parameters
    ----------
    a : array_like
        A structured array (or a masked array of one).

    Returns
    -------
    output : ndarray or MaskedArray
        The values, one row per record (a record's mask repeated over its fields).

    See Also
    --------
    numpy.ma.flatten_structured_array : The NumPy function this mirrors.
    """
    data = xp.asarray(getdata(a))
    shape = tuple(data.shape)
    rows = [tuple(_flat_values(record)) for record in data.ravel().tolist()]  # read on the host
    out = xp.asarray(rows)
    if len(shape) > 1:
        out = out.reshape(shape + tuple(out.shape[1:]))
    mask = getmask(a)
    if not isinstance(a, MaskedArray):
        return out
    if mask is not nomask:
        mask = xp.broadcast_to(mask.reshape(mask.shape + (1,)), out.shape).copy()
    return MaskedArray._new(out, mask)
