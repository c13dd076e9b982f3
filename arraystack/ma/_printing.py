"""How a masked array prints: NumPy's text (`--` for masked entries), from the concrete data and mask.

Note: the text is produced by numpy.ma's printer on the host copies of data and mask, so it follows
NumPy's print options exactly; a traced masked array prints its abstract shape and dtype instead.
"""

from __future__ import annotations

import numpy as np

from arraystack._core.devices import host_values
from arraystack.ma._fill import stored_default


def _host(array):
    """numpy.ma's masked array holding the host copies of `array`'s data, mask and fill value."""
    data = np.asarray(host_values(array._data))  # read back from a device; a scalar as a 0-d array
    mask = np.ma.nomask if array._mask is np.False_ else host_values(array._mask)
    fill = array._fill_value
    if type(fill) is type(stored_default(data.dtype)) and fill == stored_default(data.dtype):
        fill = None  # NumPy prints its own default without the scalar type
    return np.ma.MaskedArray(data, mask=mask, fill_value=fill)


def _traced(array) -> str | None:
    from arraystack.ma._array import concrete

    if concrete(array._data) and (array._mask is np.False_ or concrete(array._mask)):
        return None
    return f"MaskedArray(traced {array.dtype}{list(array.shape)})"


def masked_repr(array) -> str:
    """repr(): NumPy's `masked_array(data=..., mask=..., fill_value=...)`."""
    return _traced(array) or repr(_host(array))


def masked_str(array) -> str:
    """str(): the data with `--` for masked entries."""
    return _traced(array) or str(_host(array))
