"""memmap: an array stored in a file on disk, read and written through a memory map."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray
from arraystack._core.dtypes import check_array_dtype, read_dtype

if TYPE_CHECKING:
    from typing import Any, Self

    from arraystack.typing import DTypeLike, ShapeLike


class memmap(ndarray):
    """Create a memory-map to an array stored in a *binary* file on disk.

    Parameters
    ----------
    filename : str, file-like object, or pathlib.Path
        The file name or file object to be used as the array data buffer.
    dtype : data-type, optional
        The data-type used to interpret the file contents; default: uint8. Data in the other byte
        order (``'>f4'`` on a little-endian machine) is mapped only with mode 'r' or 'c', as a
        converted copy (arraystack arrays hold values in the machine's byte order).
    mode : {'r+', 'r', 'w+', 'c'}, optional
        The file is opened in this mode: 'r' read-only, 'r+' read and write, 'w+' create or
        overwrite, 'c' copy-on-write (assignments change the data in memory, never the file).
    offset : int, optional
        In the file, array data starts at this offset (in bytes).
    shape : int or sequence of ints, optional
        The desired shape of the array; by default a 1-d array of the file's size.
    order : {'C', 'F'}, optional
        The data's memory layout.

    Attributes
    ----------
    filename : str or None
        Path to the mapped file.
    offset : int
        Offset position in the file.
    mode : str
        File mode.

    See Also
    --------
    numpy.memmap : The NumPy class this mirrors.
    load : with ``mmap_mode`` maps a ``.npy`` file.

    Notes
    -----
    The memmap is an arraystack array: assignments and in-place operators write the file's memory
    (`flush` writes it to disk), and computations read it without copying. Slices and other views
    are arraystack arrays of the same memory (NumPy's are memmaps); new arrays (``m * 2``, ``m.sum()``)
    are ordinary arrays, as NumPy's are. A memmap stays in host memory under any default device.
    """

    __slots__ = ("_map", "filename", "mode", "offset")

    def __new__(
        cls,
        filename: Any,
        dtype: DTypeLike = np.uint8,
        mode: str = "r+",
        offset: int = 0,
        shape: ShapeLike | None = None,
        order: str = "C",
    ) -> Self:
        dtype = np.dtype(dtype)
        if dtype.isnative or dtype.byteorder == "|":
            check_array_dtype(dtype, "memmap")
        else:
            read_dtype(dtype)
            if mode not in ("r", "c", "readonly", "copyonwrite"):
                raise TypeError(
                    f"a writable memory map of {dtype.str!r} data (the other byte order) cannot be an "
                    "arraystack array, whose values are in the machine's byte order: map it with "
                    "mode='r' or 'c' (a converted copy), or use NumPy's memmap"
                )
        mapped = np.memmap(
            filename, dtype=dtype, mode=mode, offset=offset, shape=shape, order=order
        )
        return cls._adopt(mapped)

    @classmethod
    def _adopt(cls, mapped: np.memmap) -> Self:
        """The arraystack memmap of NumPy's memmap `mapped` (its memory; data in the other byte order
        converted, which the callers allow only for a read-only or copy-on-write map)."""
        self = ndarray.__new__(cls)
        value = mapped.view(np.ndarray)
        self._value = value if value.dtype.isnative else value.astype(value.dtype.newbyteorder("="))
        self._map = mapped
        self.filename, self.offset, self.mode = mapped.filename, mapped.offset, mapped.mode
        return self

    def __init__(
        self,
        filename: Any,
        dtype: DTypeLike = np.uint8,
        mode: str = "r+",
        offset: int = 0,
        shape: ShapeLike | None = None,
        order: str = "C",
    ) -> None:
        """The array was made by __new__ (as NumPy's memmap is), from the same arguments."""

    def flush(self) -> None:
        """Write any changes in the array to the file on disk.

        Returns
        -------
        None

        See Also
        --------
        numpy.memmap.flush : The NumPy method this mirrors.
        """
        self._map.flush()

    def __repr__(self) -> str:
        return repr(self._value.view(np.memmap))


__all__ = ["memmap"]
