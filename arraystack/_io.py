"""Input and output: .npy/.npz files, text files, raw binary files and strings (mirrors NumPy's I/O).

Files are read and written by NumPy itself, so the formats are NumPy's byte for byte; arrays read come back
as arraystack arrays (NumPy arrays for dtypes arraystack cannot hold, such as strings). Saving needs
concrete arrays: under jit it raises a ConcretizationError, as any other host-side read does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from arraystack._array import ndarray, wrap
from arraystack._dtypes import is_supported

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from arraystack.typing import ArrayLike, DTypeLike, NDArray


def _host(x):
    """A NumPy view of an arraystack array (concrete only); anything else unchanged, for NumPy to judge."""
    if isinstance(x, ndarray):
        return x._scalar("saving an array")
    return x


def _to_arraystack(value):
    """An array read by NumPy as an arraystack array (memory-mapped and plain arrays alike).
    Note: a dtype arraystack cannot hold (strings, objects, records) stays a NumPy array, as in _interop."""
    value = np.asarray(value)
    return wrap(value) if is_supported(value.dtype) else value


# -- .npy / .npz -------------------------------------------------------------------------------------------------


def save(file: Any, arr: ArrayLike, allow_pickle: bool = True) -> None:
    """Save an array to a binary file in NumPy ``.npy`` format."""
    np.save(file, _host(arr), allow_pickle=allow_pickle)


def savez(file: Any, *args: ArrayLike, allow_pickle: bool = True, **kwds: ArrayLike) -> None:
    """Save several arrays into a single file in uncompressed ``.npz`` format."""
    np.savez(
        file,
        *[_host(a) for a in args],
        allow_pickle=allow_pickle,
        **{k: _host(v) for k, v in kwds.items()},
    )


def savez_compressed(
    file: Any,
    *args: ArrayLike,
    allow_pickle: bool = True,
    **kwds: ArrayLike,
) -> None:
    """Save several arrays into a single file in compressed ``.npz`` format."""
    np.savez_compressed(
        file,
        *[_host(a) for a in args],
        allow_pickle=allow_pickle,
        **{k: _host(v) for k, v in kwds.items()},
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
    """Load arrays or pickled objects from ``.npy``, ``.npz`` or pickled files."""
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
    """Save an array to a text file."""
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
    """Load data from a text file."""
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
    """Load data from a text file, with missing values handled as specified."""
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
    """A new 1-D array initialized from text data in a string."""
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
    """Construct an array from data in a text or binary file."""
    return _to_arraystack(np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset))


def _tofile_method(self, fid: Any, sep: str = "", format: str = "%s") -> None:
    """Write the array to a file as text or binary (default)."""
    self._scalar(".tofile()").tofile(fid, sep=sep, format=format)


ndarray.tofile = _tofile_method

__all__ = [
    "fromfile",
    "fromstring",
    "genfromtxt",
    "load",
    "loadtxt",
    "save",
    "savetxt",
    "savez",
    "savez_compressed",
]


from arraystack._io_docs import DOCS  # the docstrings, kept apart (line budget)

for _function in (
    fromfile,
    fromstring,
    genfromtxt,
    load,
    loadtxt,
    save,
    savetxt,
    savez,
    savez_compressed,
    _tofile_method,
):
    _function.__doc__ = DOCS[_function.__name__]
