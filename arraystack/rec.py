"""arraystack.rec: NumPy's record arrays (`numpy.rec`) as arraystack arrays.

A `recarray` is an arraystack array of a structured dtype whose fields are also attributes
(`people.age` is `people["age"]`). Structured dtypes are host dtypes: NumPy holds and computes them,
eagerly, and under jit, grad or vmap they raise arraystack.errors.HostDtypeError. The constructors
(`array`, `fromarrays`, `fromrecords`, `fromstring`, `fromfile`) are NumPy's, applied to the NumPy
buffers of arraystack arguments; `record`, `format_parser` and `find_duplicate` are NumPy's own.

Indexing a recarray gives a recarray where NumPy's gives one (rows, slices, structured fields; a single
row is a 0-d recarray holding NumPy's `record` scalar, so `people[0].age` works), and a plain arraystack
array for a field of numbers, as NumPy does. Other operations give plain arraystack arrays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray
from arraystack._core.interop import host_forwarder

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from arraystack.typing import ArrayLike, DTypeLike, NDArray, ShapeLike

__all__ = [
    "array", "find_duplicate", "format_parser", "fromarrays", "fromfile", "fromrecords",
    "fromstring", "recarray", "record",
]  # fmt: skip

# NumPy's own: a record scalar type, a parser of format strings, and a function of a list of names
record = np.record
format_parser = np.rec.format_parser
find_duplicate = np.rec.find_duplicate


class recarray(ndarray):
    """An arraystack array of a structured dtype whose fields are attributes (NumPy's recarray).

    Parameters
    ----------
    shape : tuple
        Shape of the output array.
    dtype : data-type, optional
        The desired data-type; by default made from `formats`, `names`, `titles`, `aligned` and
        `byteorder`.
    buf : buffer, optional
        A buffer (an arraystack or NumPy array, bytes) to read the records from.
    offset, strides, formats, names, titles, byteorder, aligned, order
        As NumPy's recarray.

    Notes
    -----
    Without `buf` the records are zero-filled, as `arraystack.empty` fills (NumPy leaves them
    uninitialized).

    See Also
    --------
    numpy.recarray : The NumPy class this mirrors.
    arraystack.rec.array, arraystack.rec.fromarrays
    """

    def __init__(
        self,
        shape: ShapeLike,
        dtype: DTypeLike = None,
        buf: Any = None,
        offset: int = 0,
        strides: ShapeLike | None = None,
        formats: Any = None,
        names: str | Sequence[str] | None = None,
        titles: str | Sequence[str] | None = None,
        byteorder: str | None = None,
        aligned: bool = False,
        order: str = "C",
    ) -> None:
        if isinstance(buf, ndarray):
            buf = buf._value
        value = np.recarray(
            shape, dtype, buf, offset, strides, formats, names, titles, byteorder, aligned, order
        )
        if buf is None:  # zero-filled, as arraystack.empty (NumPy leaves the memory uninitialized)
            value = np.zeros_like(value)
        self._value = _record_value(value)

    def __getattr__(self, attr):
        # only names that are not attributes of the array reach here: its fields
        value = object.__getattribute__(self, "_value")
        fields = getattr(value, "dtype", None)
        fields = None if fields is None else fields.fields
        if fields is None or attr not in fields:
            raise AttributeError(f"recarray has no attribute {attr}")
        return self.field(attr)

    def __setattr__(self, attr, val):
        if attr != "_value":
            fields = self._value.dtype.fields
            if fields is not None and attr in fields:
                self._value[attr] = val._value if isinstance(val, ndarray) else val
                return
        ndarray.__setattr__(self, attr, val)

    def __getitem__(self, key):
        out = ndarray.__getitem__(self, key)
        if isinstance(out, ndarray) and out._value.dtype.names is not None:
            return as_recarray(out._value)
        return out

    def field(self, attr: str | int, val: ArrayLike | None = None) -> NDArray | None:
        """The field `attr` (a name or a position), or set it to `val`, as NumPy's recarray.field.

        Parameters
        ----------
        attr : str or int
            The field's name or its position among the dtype's fields.
        val : array_like, optional
            If given, the field is set to it and None is returned.

        Returns
        -------
        field : ndarray or recarray or None
            The field (a recarray for a structured field), or None when setting.

        See Also
        --------
        numpy.recarray.field : The NumPy method this mirrors.
        """
        names = self._value.dtype.names
        name = names[attr] if isinstance(attr, int) else attr
        if val is not None:
            self._value[name] = val._value if isinstance(val, ndarray) else val
            return None
        return self[name]

    def __repr__(self):
        value = self._value
        if isinstance(value, np.ndarray):
            return repr(value.view(np.recarray))
        return repr(value)

    def __str__(self):
        value = self._value
        return str(value.view(np.recarray) if isinstance(value, np.ndarray) else value)


def as_recarray(value):
    """`value` (a NumPy recarray, structured array or record scalar, or an arraystack array holding
    one) as an arraystack recarray; anything else (NumPy's result of another kind) as it is."""
    if isinstance(value, ndarray):
        value = value._value
    if not isinstance(value, (np.ndarray, np.generic)):
        return value
    # the value is set here: ndarray.__init__ is NumPy's constructor, which this must not run
    out = ndarray.__new__(recarray)
    out._value = _record_value(value)
    return out


def _record_value(value):
    """A NumPy structured array or scalar as a plain ndarray (or scalar) whose dtype's scalar type is
    `record`, as NumPy's recarray has it: its rows are records, whose fields are attributes."""
    if isinstance(value, np.ndarray):
        dtype = value.dtype
        if dtype.names is not None and dtype.type is not np.record:
            dtype = np.dtype((np.record, dtype))
        return value.view(dtype, np.ndarray)
    if isinstance(value, np.void) and not isinstance(value, np.record):
        return value.view(np.dtype((np.record, value.dtype)))
    return value


_MODULE = "arraystack.rec"
array = host_forwarder("numpy.rec.array", _MODULE, as_recarray)
fromarrays = host_forwarder("numpy.rec.fromarrays", _MODULE, as_recarray)
fromrecords = host_forwarder("numpy.rec.fromrecords", _MODULE, as_recarray)
fromstring = host_forwarder("numpy.rec.fromstring", _MODULE, as_recarray)
fromfile = host_forwarder("numpy.rec.fromfile", _MODULE, as_recarray)
