"""arraystack.lib.format: the ``.npy`` file format (numpy.lib.format).

The header functions (magic strings, header reading and writing, dtype descriptions) are NumPy's own,
re-exported: they handle bytes and dtypes, not arrays. The functions of arrays take arraystack arrays
and give them: `write_array` writes an arraystack array (read to the host, bfloat16 named in the header as
`save` names it), `read_array` reads one, and `open_memmap` maps a ``.npy`` file as an arraystack `memmap`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.lib.format import (
    ARRAY_ALIGN,
    BUFFER_SIZE,
    EXPECTED_KEYS,
    GROWTH_AXIS_MAX_DIGITS,
    MAGIC_LEN,
    MAGIC_PREFIX,
    descr_to_dtype,
    drop_metadata,
    dtype_to_descr,
    magic,
    read_array_header_1_0,
    read_array_header_2_0,
    read_magic,
    write_array_header_1_0,
    write_array_header_2_0,
)

from arraystack._core.array import ndarray
from arraystack._io import npy_format
from arraystack._io.memmap import memmap
from arraystack._io.npyio import _to_arraystack

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import ArrayLike, DTypeLike, NDArray, ShapeLike


def _host(array):
    if isinstance(array, ndarray):
        from arraystack._core.devices import host_values

        return host_values(array._scalar("writing an array"))
    return np.asarray(array)


def header_data_from_array_1_0(array: ArrayLike) -> dict:
    """Get the dictionary of header metadata from an array.

    Parameters
    ----------
    array : ndarray
        The array (an arraystack or NumPy array).

    Returns
    -------
    d : dict
        This has the appropriate entries for writing its string representation to the header of
        the file: 'shape', 'fortran_order' and 'descr'.

    See Also
    --------
    numpy.lib.format.header_data_from_array_1_0 : The NumPy function this mirrors.
    """
    value = _host(array)
    header = np.lib.format.header_data_from_array_1_0(value)
    header["descr"] = npy_format.dtype_descr(value.dtype)
    return header


def write_array(
    fp: Any,
    array: ArrayLike,
    version: tuple[int, int] | None = None,
    allow_pickle: bool = True,
    pickle_kwargs: dict | None = None,
) -> None:
    """Write an array to an NPY file, including a header.

    Parameters
    ----------
    fp : file_like object
        An open, writable file object, or similar object with a ``.write()`` method.
    array : ndarray
        The array to write to disk (an arraystack array is read to the host; a traced one raises
        ConcretizationError).
    version : (int, int) or None, optional
        The version number of the format; None means the oldest supported version able to store
        the data.
    allow_pickle : bool, optional
        Whether to allow writing pickled data.
    pickle_kwargs : dict, optional
        Additional keyword arguments to pass to pickle.dump.

    See Also
    --------
    numpy.lib.format.write_array : The NumPy function this mirrors.
    arraystack.save
    """
    value = _host(array)
    if npy_format.needs_naming(value):  # bfloat16: NumPy's writer would call it void
        npy_format.write_array(fp, value, allow_pickle=allow_pickle)
        return
    np.lib.format.write_array(fp, value, version, allow_pickle, pickle_kwargs)


def read_array(
    fp: Any,
    allow_pickle: bool = False,
    pickle_kwargs: dict | None = None,
    *,
    max_header_size: int = 10000,
) -> NDArray:
    """Read an array from an NPY file.

    Parameters
    ----------
    fp : file_like object
        If this is not a real file object, then this may take extra memory and time.
    allow_pickle : bool, optional
        Whether to allow reading pickled data; default: False.
    pickle_kwargs : dict, optional
        Additional keyword arguments to pass to pickle.load.
    max_header_size : int, optional
        Maximum allowed size of the header.

    Returns
    -------
    array : ndarray
        The array from the data on disk, as an arraystack array (data in the other byte order
        converted to the machine's).

    See Also
    --------
    numpy.lib.format.read_array : The NumPy function this mirrors.
    arraystack.load
    """
    value = np.lib.format.read_array(
        fp, allow_pickle, pickle_kwargs, max_header_size=max_header_size
    )
    return _to_arraystack(value)


def open_memmap(
    filename: Any,
    mode: str = "r+",
    dtype: DTypeLike | None = None,
    shape: ShapeLike | None = None,
    fortran_order: bool = False,
    version: tuple[int, int] | None = None,
    *,
    max_header_size: int = 10000,
) -> memmap:
    """Open a .npy file as a memory-mapped array.

    Parameters
    ----------
    filename : str or path-like
        The name of the file on disk; not a file-like object.
    mode : str, optional
        The mode in which to open the file: 'r', 'r+', 'w+' or 'c', as for `memmap`.
    dtype : data-type, optional
        The data type of the array if a new file is created ("w+" mode).
    shape : tuple of int
        The shape of the array if a new file is created.
    fortran_order : bool, optional
        Whether the new array is Fortran-contiguous (column-major).
    version : tuple of int (major, minor) or None
        The format version of a created file; None: the oldest that can hold the array.
    max_header_size : int, optional
        Maximum allowed size of the header.

    Returns
    -------
    marray : memmap
        The memory-mapped array, an arraystack `memmap`.

    See Also
    --------
    numpy.lib.format.open_memmap : The NumPy function this mirrors.
    arraystack.memmap, arraystack.load
    """
    mapped = np.lib.format.open_memmap(
        filename, mode, dtype, shape, fortran_order, version, max_header_size=max_header_size
    )
    if not mapped.dtype.isnative and mapped.mode not in ("r", "c"):
        raise TypeError(
            f"a writable memory map of {mapped.dtype.str!r} data (the other byte order) cannot be an "
            "arraystack array, whose values are in the machine's byte order: open it with mode='r' or "
            "'c' (a converted copy), or use NumPy's open_memmap"
        )
    return memmap._adopt(mapped)


__all__ = [
    "ARRAY_ALIGN",
    "BUFFER_SIZE",
    "EXPECTED_KEYS",
    "GROWTH_AXIS_MAX_DIGITS",
    "MAGIC_LEN",
    "MAGIC_PREFIX",
    "descr_to_dtype",
    "drop_metadata",
    "dtype_to_descr",
    "header_data_from_array_1_0",
    "magic",
    "open_memmap",
    "read_array",
    "read_array_header_1_0",
    "read_array_header_2_0",
    "read_magic",
    "write_array",
    "write_array_header_1_0",
    "write_array_header_2_0",
]
