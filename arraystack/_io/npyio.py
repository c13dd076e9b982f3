"""Input and output: .npy/.npz files, text files, raw binary files and strings (mirrors NumPy's I/O).

Files are read and written by NumPy itself, so the formats are NumPy's byte for byte; arrays read come back
as arraystack arrays (NumPy arrays for dtypes arraystack cannot hold, such as strings). Saving needs
concrete arrays: under jit it raises a ConcretizationError, as any other host-side read does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray, wrap
from arraystack._core.devices import read_on_default
from arraystack._core.dtypes import is_host, is_supported, native_order
from arraystack._core.overrides import defers_to_numpy
from arraystack._io import npy_format

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from arraystack.typing import ArrayLike, DTypeLike, NDArray


def _host(x):
    """A NumPy view of an arraystack array (concrete only); anything else unchanged, for NumPy to judge."""
    if isinstance(x, ndarray):
        return x._scalar("saving an array")
    return x


def _to_arraystack(value, placed: bool = True):
    """An array read by NumPy as an arraystack array (memory-mapped and plain arrays alike; strings,
    objects and records are host dtypes, held as NumPy's buffer), on the default device when that is not
    the CPU (a memory-mapped array stays a view of its file; placed=False: on the host). Note: a dtype arraystack cannot hold
    (longdouble) stays a NumPy array, as in _interop."""
    mapped = isinstance(value, np.memmap)
    if value.dtype.byteorder in "<>" and not value.dtype.isnative:
        if mapped and value.mode in ("r+", "w+"):
            raise TypeError(
                f"a writable memory map of {value.dtype.str!r} data (the other byte order) cannot be an "
                "arraystack array, whose values are in the machine's byte order: map it with "
                "mmap_mode='r' or 'c' (a converted copy), or use NumPy's memmap"
            )
        value, mapped = native_order(np.asarray(value)), False  # converted once, as it enters
    value = np.asarray(value)
    if not (is_supported(value.dtype) or is_host(value.dtype)):
        return value
    return wrap(value) if mapped or not placed else read_on_default(wrap(value))


# -- .npy / .npz -------------------------------------------------------------------------------------------------


@defers_to_numpy
def save(file: Any, arr: ArrayLike, allow_pickle: bool = True) -> None:
    """Save an array to a binary file in NumPy ``.npy`` format.

    Parameters
    ----------
    file : file, str, or pathlib.Path
        File or filename to which the data is saved.
    arr : array_like
        Array data to be saved.
    allow_pickle : bool, optional
        Allow saving object arrays using Python pickles.

    Returns
    -------
    None

    See Also
    --------
    numpy.save : The NumPy function this mirrors.
    savez, savez_compressed, load, savetxt
    save_tree : saves a pytree (parameters, an optimizer state) without pickle.

    Notes
    -----
    The array is read to the host (a traced array raises ConcretizationError). For a pytree use
    `save_tree`: here, as in NumPy, a tuple or an optimizer state becomes an object array that is
    pickled (``allow_pickle=True``), and `load` refuses it by default. A bfloat16 array's header
    names `bfloat16` (NumPy's writer would describe it as raw two-byte records, `<V2`); NumPy reads it
    back once ml_dtypes is imported.
    """
    npy_format.save(file, _host(arr), allow_pickle=allow_pickle)


@defers_to_numpy
def savez(file: Any, *args: ArrayLike, allow_pickle: bool = True, **kwds: ArrayLike) -> None:
    """Save several arrays into a single file in uncompressed ``.npz`` format.

    Parameters
    ----------
    file : file, str, or pathlib.Path
        The file name (``.npz`` is appended if missing) or file object.
    *args : Arguments, optional
        Arrays to save, stored with the names ``arr_0``, ``arr_1``, ...
    allow_pickle : bool, optional
        Allow saving object arrays using Python pickles.
    **kwds : Keyword arguments, optional
        Arrays to save, stored under the keyword names.

    Returns
    -------
    None

    See Also
    --------
    numpy.savez : The NumPy function this mirrors.
    save, savez_compressed, load

    Notes
    -----
    The array is read to the host (a traced array raises ConcretizationError).
    """
    npy_format.savez(
        file, [_host(a) for a in args], {k: _host(v) for k, v in kwds.items()}, False, allow_pickle
    )


@defers_to_numpy
def savez_compressed(
    file: Any,
    *args: ArrayLike,
    allow_pickle: bool = True,
    **kwds: ArrayLike,
) -> None:
    """Save several arrays into a single file in compressed ``.npz`` format.

    Parameters
    ----------
    file : file, str, or pathlib.Path
        The file name (``.npz`` is appended if missing) or file object.
    *args : Arguments, optional
        Arrays to save, stored with the names ``arr_0``, ``arr_1``, ...
    allow_pickle : bool, optional
        Allow saving object arrays using Python pickles.
    **kwds : Keyword arguments, optional
        Arrays to save, stored under the keyword names.

    Returns
    -------
    None

    See Also
    --------
    numpy.savez_compressed : The NumPy function this mirrors.
    save, savez, load

    Notes
    -----
    The array is read to the host (a traced array raises ConcretizationError).
    """
    npy_format.savez(
        file, [_host(a) for a in args], {k: _host(v) for k, v in kwds.items()}, True, allow_pickle
    )


class NpzFile(Mapping):
    """Mirrors numpy.lib.npyio.NpzFile: a lazy, read-only mapping of the arrays in a .npz archive. Each
    lookup reads that member and returns it as an arraystack array. Close it (or use `with`)."""

    def __init__(self, npz):
        self._npz = npz

    @property
    def files(self):
        return self._npz.files

    @property
    def zip(self):
        return self._npz.zip

    @property
    def fid(self):
        return self._npz.fid

    def __getitem__(self, key):
        return _to_arraystack(self._npz[key])

    def __iter__(self):
        return iter(self._npz)

    def __len__(self):
        return len(self._npz)

    def __contains__(self, key):
        return key in self._npz

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __repr__(self):
        return repr(self._npz).replace("NpzFile", "arraystack.NpzFile", 1)


def load(
    file: Any,
    mmap_mode: str | None = None,
    allow_pickle: bool = False,
    fix_imports: bool = True,
    encoding: str = "ASCII",
    *,
    max_header_size: int = 10000,
) -> Any:
    """Load arrays or pickled objects from ``.npy``, ``.npz`` or pickled files.

    Parameters
    ----------
    file : file-like object, string, or pathlib.Path
        The file to read.
    mmap_mode : {None, 'r+', 'r', 'w+', 'c'}, optional
        If not None, memory-map the file using the given mode.
    allow_pickle : bool, optional
        Allow loading pickled object arrays stored in npy files (False by default, for security).
    fix_imports : bool, optional
        Only useful when loading Python 2 generated pickled files.
    encoding : str, optional
        What encoding to use when reading Python 2 strings.
    max_header_size : int, optional
        Maximum allowed size of the header.

    Returns
    -------
    result : array, tuple, dict, etc.
        A ``.npy`` file gives an arraystack array (memory-mapped with `mmap_mode`), a ``.npz`` archive
        an NpzFile whose members load lazily as arraystack arrays, and pickles load unchanged.

    See Also
    --------
    numpy.load : The NumPy function this mirrors.
    save, savez, savez_compressed, loadtxt
    """
    out = np.load(
        file,
        mmap_mode=mmap_mode,
        allow_pickle=allow_pickle,
        fix_imports=fix_imports,
        encoding=encoding,
        max_header_size=max_header_size,
    )
    if isinstance(out, np.lib.npyio.NpzFile):
        return NpzFile(out)
    if isinstance(out, np.ndarray):
        return _to_arraystack(out)
    return out


# -- text --------------------------------------------------------------------------------------------------------


@defers_to_numpy
def savetxt(
    fname: Any,
    X: ArrayLike,
    fmt: str | Sequence[str] = "%.18e",
    delimiter: str = " ",
    newline: str = "\n",
    header: str = "",
    footer: str = "",
    comments: str = "# ",
    encoding: str | None = None,
) -> None:
    """Save an array to a text file.

    Parameters
    ----------
    fname : filename, file handle or pathlib.Path
        The file to write; a name ending in ``.gz`` is gzipped.
    X : 1D or 2D array_like
        Data to be saved to a text file.
    fmt : str or sequence of strs, optional
        A format (or one per column) for the numbers.
    delimiter : str, optional
        String or character separating columns.
    newline : str, optional
        String or character separating lines.
    header : str, optional
        String that will be written at the beginning of the file.
    footer : str, optional
        String that will be written at the end of the file.
    comments : str, optional
        String prepended to the header and footer to mark them as comments.
    encoding : {None, str}, optional
        Encoding used to encode the output file.

    Returns
    -------
    None

    See Also
    --------
    numpy.savetxt : The NumPy function this mirrors.
    save, loadtxt

    Notes
    -----
    The array is read to the host (a traced array raises ConcretizationError).
    """
    np.savetxt(
        fname,
        _host(X),
        fmt=fmt,
        delimiter=delimiter,
        newline=newline,
        header=header,
        footer=footer,
        comments=comments,
        encoding=encoding,
    )


def _wrap_read(out):
    if isinstance(out, (list, tuple)):
        return type(out)(_to_arraystack(o) for o in out)
    return _to_arraystack(out)


def loadtxt(
    fname: Any,
    dtype: DTypeLike = float,
    comments: str | Sequence[str] | None = "#",
    delimiter: str | None = None,
    converters: Any = None,
    skiprows: int = 0,
    usecols: Any = None,
    unpack: bool = False,
    ndmin: int = 0,
    encoding: str | None = None,
    max_rows: int | None = None,
    *,
    quotechar: str | None = None,
    like: ArrayLike | None = None,
) -> NDArray:
    """Load data from a text file.

    Parameters
    ----------
    fname : file, str, pathlib.Path, list of str, generator
        File, filename, list or generator to read.
    dtype : data-type, optional
        Data type of the resulting array; default: float.
    comments : str or sequence of str or None, optional
        The characters or list of characters used to indicate the start of a comment.
    delimiter : str, optional
        The character used to separate the values; whitespace by default.
    converters : dict or callable, optional
        Converter functions to customize value parsing.
    skiprows : int, optional
        Skip the first `skiprows` lines, including comments.
    usecols : int or sequence, optional
        Which columns to read, with 0 being the first.
    unpack : bool, optional
        If True, the returned array is transposed.
    ndmin : int, optional
        The returned array will have at least `ndmin` dimensions.
    encoding : str, optional
        Encoding used to decode the input file.
    max_rows : int, optional
        Read `max_rows` rows of content after `skiprows` lines.
    quotechar : unicode character or None, optional
        The character used to denote the start and end of a quoted item.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35) and ignored.

    Returns
    -------
    out : ndarray
        Data read from the text file.

    See Also
    --------
    numpy.loadtxt : The NumPy function this mirrors.
    load, fromstring, genfromtxt, savetxt
    """
    out = np.loadtxt(
        fname,
        dtype=dtype,
        comments=comments,
        delimiter=delimiter,
        converters=converters,
        skiprows=skiprows,
        usecols=usecols,
        unpack=unpack,
        ndmin=ndmin,
        encoding=encoding,
        max_rows=max_rows,
        quotechar=quotechar,
    )
    return _wrap_read(out)


def genfromtxt(
    fname: Any,
    dtype: DTypeLike = float,
    comments: str | None = "#",
    delimiter: Any = None,
    skip_header: int = 0,
    skip_footer: int = 0,
    converters: Any = None,
    missing_values: Any = None,
    filling_values: Any = None,
    usecols: Any = None,
    unpack: bool | None = None,
    usemask: bool = False,
    autostrip: bool = False,
    invalid_raise: bool = True,
    max_rows: int | None = None,
    encoding: str | None = None,
    *,
    ndmin: int = 0,
    like: ArrayLike | None = None,
    **kwargs: Any,
) -> NDArray:
    """Load data from a text file, with missing values handled as specified.

    Parameters
    ----------
    fname : file, str, list of str, generator
        File, filename, list or generator to read.
    dtype : dtype, optional
        Data type of the resulting array.
    comments : str, optional
        The character used to indicate the start of a comment.
    delimiter : str, int, or sequence, optional
        The string used to separate values (whitespace by default), or field widths.
    skip_header : int, optional
        The number of lines to skip at the beginning of the file.
    skip_footer : int, optional
        The number of lines to skip at the end of the file.
    converters : variable, optional
        Functions that convert the data of a column to a value.
    missing_values : variable, optional
        The strings corresponding to missing data.
    filling_values : variable, optional
        The values to use as default when the data are missing.
    usecols : sequence, optional
        Which columns to read, with 0 being the first.
    unpack : bool, optional
        If True, the returned array is transposed.
    usemask : bool, optional
        Must be False: arraystack has no masked arrays.
    autostrip : bool, optional
        Whether to automatically strip white spaces from the variables.
    invalid_raise : bool, optional
        If True, an exception is raised if an inconsistency is detected in the number of columns.
    max_rows : int, optional
        The maximum number of rows to read.
    encoding : str, optional
        Encoding used to decode the input file.
    ndmin : int, optional
        The minimum number of dimensions of the result.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35) and ignored.
    **kwargs
        NumPy's remaining keywords (names, excludelist, deletechars, ...), passed through.

    Returns
    -------
    out : ndarray
        Data read from the text file.

    See Also
    --------
    numpy.genfromtxt : The NumPy function this mirrors.
    loadtxt

    Notes
    -----
    ``usemask=True`` is absent (arraystack has no masked arrays); structured records come back as NumPy
    arrays.
    """
    if usemask:
        raise TypeError("genfromtxt(usemask=True) makes a masked array; arraystack has none")
    out = np.genfromtxt(
        fname,
        dtype=dtype,
        comments=comments,
        delimiter=delimiter,
        skip_header=skip_header,
        skip_footer=skip_footer,
        converters=converters,
        missing_values=missing_values,
        filling_values=filling_values,
        usecols=usecols,
        unpack=unpack,
        autostrip=autostrip,
        invalid_raise=invalid_raise,
        max_rows=max_rows,
        encoding=encoding,
        ndmin=ndmin,
        **kwargs,
    )
    return _wrap_read(out)


# -- raw bytes and strings ---------------------------------------------------------------------------------------


def fromstring(
    string: str,
    dtype: DTypeLike = float,
    count: int = -1,
    *,
    sep: str = "",
    like: ArrayLike | None = None,
) -> NDArray:
    """A new 1-D array initialized from text data in a string.

    Parameters
    ----------
    string : str
        A string containing the data.
    dtype : data-type, optional
        The data type of the array; default: float.
    count : int, optional
        Read this number of `dtype` elements from the data; -1 means all.
    sep : str
        The string separating numbers in the data.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35) and ignored.

    Returns
    -------
    arr : ndarray
        The constructed array.

    See Also
    --------
    numpy.fromstring : The NumPy function this mirrors.
    frombuffer, fromfile, loadtxt

    Notes
    -----
    Text mode only: NumPy 2 removed the binary mode (use `frombuffer`).
    """
    return _to_arraystack(np.fromstring(string, dtype=dtype, count=count, sep=sep))


def fromfile(
    file: Any,
    dtype: DTypeLike = float,
    count: int = -1,
    sep: str = "",
    offset: int = 0,
    *,
    like: ArrayLike | None = None,
) -> NDArray:
    """Construct an array from data in a text or binary file.

    Parameters
    ----------
    file : file or str or Path
        Open file object or filename.
    dtype : data-type
        Data type of the returned array.
    count : int
        Number of items to read; -1 means all items.
    sep : str
        Separator between items if the file is a text file; empty ('') means binary.
    offset : int
        The offset (in bytes) from the file's current position (binary files only).
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35) and ignored.

    Returns
    -------
    out : ndarray
        The data read, as an arraystack array.

    See Also
    --------
    numpy.fromfile : The NumPy function this mirrors.
    load, save, ndarray.tofile
    """
    return _to_arraystack(np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset))


def fromregex(file: Any, regexp: Any, dtype: DTypeLike, encoding: str | None = None) -> NDArray:
    """Construct an array from a text file, using regular expression parsing.

    Parameters
    ----------
    file : file, str or Path
        Filename or file object to read.
    regexp : str or regexp
        Regular expression used to parse the file; its groups are the fields of the dtype.
    dtype : dtype or list of dtypes
        Dtype for the structured array (a structured dtype: records are host dtypes, computed
        eagerly by NumPy).
    encoding : str, optional
        Encoding used to decode the input file.

    Returns
    -------
    output : ndarray
        The structured array, as an arraystack array.

    See Also
    --------
    numpy.fromregex : The NumPy function this mirrors.
    fromstring, loadtxt
    """
    return _to_arraystack(np.fromregex(file, regexp, dtype, encoding))


__all__ = [
    "fromfile",
    "fromregex",
    "fromstring",
    "genfromtxt",
    "load",
    "loadtxt",
    "save",
    "savetxt",
    "savez",
    "savez_compressed",
]
