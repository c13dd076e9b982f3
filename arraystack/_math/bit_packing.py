"""Packing booleans into bits of uint8 and back: packbits, unpackbits (numpy/_core/multiarray).

Concrete calls run NumPy's own function on the host buffers. Traced calls compare, pad, reshape and
weight (packbits) or shift and mask (unpackbits) with arraystack functions; their arguments are first
checked by NumPy itself on a stand-in array of the same dtype and rank, so errors are NumPy's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

import arraystack as anp
from arraystack._core.devices import constants_on_operand_device
from arraystack._core.host_calls import host_arguments, wrap_result
from arraystack._core.overrides import defers_to_numpy

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, NDArray

__all__ = ["packbits", "unpackbits"]

_BIG_ENDIAN_WEIGHTS = np.array([128, 64, 32, 16, 8, 4, 2, 1], np.uint8)


def _bit_axis(a, axis):
    """NumPy's convention: axis=None works on the flattened array, a 0-d array acts as 1-d."""
    if axis is None:
        return anp.ravel(a), 0
    if a.ndim == 0:
        return anp.reshape(a, (1,)), 0
    return a, normalize_axis_index(axis, a.ndim)


def _along(vector, axis, ndim):
    """A 1-d NumPy vector shaped to broadcast along `axis` of an ndim-d array."""
    return vector.reshape((-1,) + (1,) * (ndim - axis - 1))


@defers_to_numpy
@constants_on_operand_device
def packbits(a: ArrayLike, /, axis: int | None = None, bitorder: str = "big") -> NDArray:
    """Packs the elements of a binary-valued array into bits in a uint8 array.

    The result is padded to full bytes by inserting zero bits at the end.

    Parameters
    ----------
    a : array_like
        An array of integers or booleans whose elements should be packed to bits.
    axis : int, optional
        The dimension over which bit-packing is done. ``None`` implies packing the flattened array.
    bitorder : {'big', 'little'}, optional
        The order of the input bits. 'big' will mimic bin(val),
        ``[0, 0, 0, 0, 0, 0, 1, 1] => 3 = 0b00000011``, 'little' will reverse the order so
        ``[1, 1, 0, 0, 0, 0, 0, 0] => 3``.

    Returns
    -------
    packed : ndarray
        Array of type uint8 whose elements represent bits corresponding to the logical (0 or
        nonzero) value of the input elements. The shape of `packed` has the same number of
        dimensions as the input (unless `axis` is None, in which case the output is 1-D).

    See Also
    --------
    numpy.packbits : The NumPy function this mirrors.
    unpackbits
    """
    host = host_arguments(a)
    if host is not None:
        return wrap_result(np.packbits(host[0], axis=axis, bitorder=bitorder))
    a = anp.asarray(a)
    np.packbits(np.zeros((1,) * a.ndim, a.dtype), axis=axis, bitorder=bitorder)  # NumPy's checks
    a, axis = _bit_axis(a, axis)
    n = a.shape[axis]
    nbytes = -(-n // 8)
    bits = anp.not_equal(a, 0).astype(np.uint8)
    pad = [(0, 0)] * a.ndim
    pad[axis] = (0, nbytes * 8 - n)
    bits = anp.pad(bits, pad)
    bits = anp.reshape(bits, a.shape[:axis] + (nbytes, 8) + a.shape[axis + 1 :])
    weights = _BIG_ENDIAN_WEIGHTS if bitorder[0] in "bB" else _BIG_ENDIAN_WEIGHTS[::-1]
    weights = _along(weights, axis + 1, bits.ndim)
    return anp.sum(bits * weights, axis=axis + 1, dtype=np.uint8)


@defers_to_numpy
@constants_on_operand_device
def unpackbits(
    a: ArrayLike, /, axis: int | None = None, count: int | None = None, bitorder: str = "big"
) -> NDArray:
    """Unpacks elements of a uint8 array into a binary-valued output array.

    Each element of `a` represents a bit-field that should be unpacked into a binary-valued output
    array. The shape of the output array is either 1-D (if `axis` is ``None``) or the same shape as
    the input array with unpacking done along the axis specified.

    Parameters
    ----------
    a : ndarray, uint8 type
        Input array.
    axis : int, optional
        The dimension over which bit-unpacking is done. ``None`` implies unpacking the flattened
        array.
    count : int or None, optional
        The number of elements to unpack along `axis`, provided as a way of undoing the effect of
        packing a size that is not a multiple of eight. A non-negative number means to only unpack
        `count` bits. A negative number means to trim off that many bits from the end. ``None``
        means to unpack the entire array (the default). Counts larger than the available number of
        bits will add zero padding to the output. Negative counts must not exceed the available
        number of bits.
    bitorder : {'big', 'little'}, optional
        The order of the returned bits. 'big' will mimic bin(val), ``3 = 0b00000011 => [0, 0, 0,
        0, 0, 0, 1, 1]``, 'little' will reverse the order to ``[1, 1, 0, 0, 0, 0, 0, 0]``.

    Returns
    -------
    unpacked : ndarray, uint8 type
        The elements are binary-valued (0 or 1).

    See Also
    --------
    numpy.unpackbits : The NumPy function this mirrors.
    packbits
    """
    host = host_arguments(a)
    # Note: NumPy pads an empty input to `count` with uninitialized memory, arraystack with zeros
    if host is not None and not (np.size(host[0]) == 0 and count):
        return wrap_result(np.unpackbits(host[0], axis=axis, count=count, bitorder=bitorder))
    a = anp.asarray(a)
    np.unpackbits(np.zeros((1,) * a.ndim, a.dtype), axis, None, bitorder)  # NumPy's checks,
    if axis is None:  # then of count, on the length unpacked
        length = a.size
    else:
        length = a.shape[normalize_axis_index(axis, a.ndim)] if a.ndim else 1
    np.unpackbits(np.zeros(length, np.uint8), 0, count, bitorder)
    a, axis = _bit_axis(a, axis)
    n = a.shape[axis] * 8
    shifts = np.arange(7, -1, -1, dtype=np.uint8)
    if bitorder[0] in "lL":
        shifts = shifts[::-1]
    expanded = anp.expand_dims(a, axis + 1)
    bits = (expanded >> _along(shifts, axis + 1, expanded.ndim)) & np.uint8(1)
    bits = anp.reshape(bits, a.shape[:axis] + (n,) + a.shape[axis + 1 :])
    if count is None or count == n:
        return bits
    keep = count if count >= 0 else n + count
    index = [slice(None)] * bits.ndim
    index[axis] = slice(0, min(keep, n))
    bits = bits[tuple(index)]
    if keep > n:
        pad = [(0, 0)] * bits.ndim
        pad[axis] = (0, keep - n)
        bits = anp.pad(bits, pad)
    return bits
