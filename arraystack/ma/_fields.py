"""MaskedArray's field and record methods: reading and writing a field of the data's bytes
(getfield, setfield), the flexible-type form of data and mask (toflex, torecords), and the mask per
record.

Note: arraystack's masked arrays hold one mask entry per record, never a mask per field."""

from __future__ import annotations

import numpy as np

import arraystack as xp


def _ma():
    from arraystack.ma import _array

    return _array


def _as_bytes(data):
    """`data` as unsigned bytes, with a trailing axis of one element's bytes."""
    return data.reshape(tuple(data.shape) + (1,)).view(np.uint8)


def _field_span(data, dtype, offset):
    """The bytes [start, stop) of each element that a field of `dtype` at `offset` covers."""
    dtype = np.dtype(dtype)
    if offset < 0:
        raise ValueError("offset must be non-negative")
    if offset + dtype.itemsize > data.itemsize:
        raise ValueError("new type plus offset is larger than original type")
    return dtype, offset, offset + dtype.itemsize


class MaskedFields:
    """getfield, setfield, toflex, torecords and recordmask of MaskedArray."""

    def getfield(self, dtype, offset=0):
        """Return a field of the data: its elements' bytes at `offset` read as `dtype`.

        Parameters
        ----------
        dtype : str or dtype
            The data type of the field; its size plus `offset` fits in an element.
        offset : int, optional
            Number of bytes to skip before the field.

        Returns
        -------
        field : MaskedArray
            The field, with a copy of the mask; the fill value is cast to `dtype` (a default one
            becomes `dtype`'s default).

        Raises
        ------
        ValueError
            If the field does not fit in an element.

        See Also
        --------
        numpy.ma.MaskedArray.getfield : The NumPy method this mirrors.

        Notes
        -----
        Note: NumPy returns a view of the data; this is a copy of the field's values.
        """
        dtype, start, stop = _field_span(self._data, dtype, offset)
        raw = _as_bytes(self._data)[..., start:stop].copy()
        field = raw.view(dtype).reshape(self.shape)
        mask = self._mask if self._mask is _ma().nomask else self._mask.copy()
        return self._like(field, mask)

    def setfield(self, val, dtype, offset=0) -> None:
        """Write `val` into a field of the data, in place (the mask is unchanged).

        Parameters
        ----------
        val : array_like
            The values, cast to `dtype` and broadcast to the array's shape; a masked array
            counts by its data.
        dtype : str or dtype
            The data type of the field.
        offset : int, optional
            Number of bytes to skip before the field.

        Raises
        ------
        ValueError
            If the field does not fit in an element.

        See Also
        --------
        numpy.ma.MaskedArray.setfield : The NumPy method this mirrors.
        """
        dtype, start, stop = _field_span(self._data, dtype, offset)
        values = val._data if isinstance(val, _ma().MaskedArray) else val
        values = xp.broadcast_to(xp.asarray(values).astype(dtype), self.shape).copy()
        raw = _as_bytes(self._data).copy()
        raw[..., start:stop] = _as_bytes(values)
        self._data[...] = raw.view(self.dtype).reshape(self.shape)

    def toflex(self):
        """Transform the masked array into a flexible-type array of data and mask.

        Returns
        -------
        record : ndarray
            A structured array of the array's shape with fields ``_data`` (the data) and
            ``_mask`` (the mask, of `make_mask_descr` of the dtype); the fill value is lost.

        See Also
        --------
        numpy.ma.MaskedArray.toflex : The NumPy method this mirrors.
        fromflex

        Notes
        -----
        Structured arrays are host arrays, so the data and the mask are read to the host.
        """
        from arraystack.ma._masking import make_mask_descr

        data = np.asarray(self._data)
        mask_dtype = np.dtype(make_mask_descr(data.dtype))
        # one mask entry per record: every field of a structured mask takes the record's entry
        mask = np.asarray(_ma().getmaskarray_of(self)).astype(mask_dtype)
        record = np.empty(data.shape, dtype=[("_data", data.dtype), ("_mask", mask_dtype)])
        record["_data"] = data
        record["_mask"] = mask
        return xp.asarray(record)

    def torecords(self):
        """Transform the masked array into a flexible-type array of data and mask (as `toflex`).

        Returns
        -------
        record : ndarray
            A structured array with fields ``_data`` and ``_mask``.

        See Also
        --------
        numpy.ma.MaskedArray.torecords : The NumPy method this mirrors.
        toflex
        """
        return self.toflex()

    @property
    def recordmask(self):
        """The mask per record: the mask itself (`nomask` where nothing is masked).

        Setting it is not implemented, as in numpy.ma.

        See Also
        --------
        numpy.ma.MaskedArray.recordmask : The NumPy attribute this mirrors.
        """
        return self._mask

    @recordmask.setter
    def recordmask(self, mask):
        raise NotImplementedError("Coming soon: setting the mask per records!")
