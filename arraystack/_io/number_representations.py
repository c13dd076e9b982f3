"""Integers written as strings: binary_repr (two's complement of a width) and base_repr
(numpy/_core/numeric.py). Pure Python on Python integers: a traced number raises ConcretizationError.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import SupportsIndex

__all__ = ["base_repr", "binary_repr"]

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _check_width(width, binwidth):
    if width is not None and width < binwidth:
        raise ValueError(f"Insufficient bit {width=} provided for {binwidth=}")


def binary_repr(num: SupportsIndex, width: int | None = None) -> str:
    """Return the binary representation of the input number as a string.

    For negative numbers, if width is not given, a minus sign is added to the front. If width is
    given, the two's complement of the number is returned, with respect to that width.

    Parameters
    ----------
    num : int
        Only an integer decimal number can be used.
    width : int, optional
        The length of the returned string if `num` is positive, or the length of the two's
        complement if `num` is negative, provided that `width` is at least a sufficient number of
        bits for `num` to be represented in the designated form. If the `width` value is
        insufficient, an error is raised.

    Returns
    -------
    bin : str
        Binary representation of `num` or two's complement of `num`.

    See Also
    --------
    numpy.binary_repr : The NumPy function this mirrors.
    base_repr, packbits
    """
    num = operator.index(num)
    if num == 0:
        return "0" * (width or 1)
    if num > 0:
        binary = f"{num:b}"
        binwidth = len(binary)
        outwidth = binwidth if width is None else max(binwidth, width)
        _check_width(width, binwidth)
        return binary.zfill(outwidth)
    if width is None:
        return f"-{-num:b}"
    poswidth = len(f"{-num:b}")
    if 2 ** (poswidth - 1) == -num:  # numbers at the boundaries need one digit less (gh-8679)
        poswidth -= 1
    twocomp = 2 ** (poswidth + 1) + num
    binary = f"{twocomp:b}"
    binwidth = len(binary)
    outwidth = max(binwidth, width)
    _check_width(width, binwidth)
    return "1" * (outwidth - binwidth) + binary


def base_repr(number: SupportsIndex, base: int = 2, padding: int = 0) -> str:
    """Return a string representation of a number in the given base system.

    Parameters
    ----------
    number : int
        The value to convert. Positive and negative values are handled.
    base : int, optional
        Convert `number` to the `base` number system. The valid range is 2-36, the default value
        is 2.
    padding : int, optional
        Number of zeros padded on the left. Default is 0 (no padding).

    Returns
    -------
    out : str
        String representation of `number` in `base` system.

    See Also
    --------
    numpy.base_repr : The NumPy function this mirrors.
    binary_repr
    """
    if base > len(_DIGITS):
        raise ValueError("Bases greater than 36 not handled in base_repr.")
    if base < 2:
        raise ValueError("Bases less than 2 not handled in base_repr.")
    num = abs(int(number))
    res = []
    while num:
        res.append(_DIGITS[num % base])
        num //= base
    if padding:
        res.append("0" * padding)
    if number < 0:
        res.append("-")
    return "".join(reversed(res or "0"))
