"""Input and output: .npy/.npz files, text files, raw binary files and strings (mirrors NumPy's I/O).

Files are read and written by NumPy itself, so the formats are NumPy's byte for byte; arrays read come back
as arraystack arrays (NumPy arrays for dtypes arraystack cannot hold, such as strings). Saving needs
concrete arrays: under jit it raises a ConcretizationError, as any other host-side read does.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from arraystack._array import ndarray, wrap
from arraystack._dtypes import is_supported


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


def save(file, arr, allow_pickle=True):
    """Mirrors numpy.save."""
    np.save(file, _host(arr), allow_pickle=allow_pickle)


def savez(file, *args, allow_pickle=True, **kwds):
    """Mirrors numpy.savez."""
    np.savez(
        file,
        *[_host(a) for a in args],
        allow_pickle=allow_pickle,
        **{k: _host(v) for k, v in kwds.items()},
    )


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """Mirrors numpy.savez_compressed."""
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
    file,
    mmap_mode=None,
    allow_pickle=False,
    fix_imports=True,
    encoding="ASCII",
    *,
    max_header_size=10000,
):
    """Mirrors numpy.load: a .npy file gives an arraystack array (memory-mapped with `mmap_mode`), a .npz
    archive an NpzFile whose members load lazily; pickles (allow_pickle=True only) load unchanged."""
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
    fname,
    X,
    fmt="%.18e",
    delimiter=" ",
    newline="\n",
    header="",
    footer="",
    comments="# ",
    encoding=None,
):
    """Mirrors numpy.savetxt."""
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
    fname,
    dtype=float,
    comments="#",
    delimiter=None,
    converters=None,
    skiprows=0,
    usecols=None,
    unpack=False,
    ndmin=0,
    encoding=None,
    max_rows=None,
    *,
    quotechar=None,
    like=None,
):
    """Mirrors numpy.loadtxt."""
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
    fname,
    dtype=float,
    comments="#",
    delimiter=None,
    skip_header=0,
    skip_footer=0,
    converters=None,
    missing_values=None,
    filling_values=None,
    usecols=None,
    unpack=None,
    usemask=False,
    autostrip=False,
    invalid_raise=True,
    max_rows=None,
    encoding=None,
    *,
    ndmin=0,
    like=None,
    **kwargs,
):
    """Mirrors numpy.genfromtxt; the remaining keyword arguments (names, excludelist, ...) are NumPy's.
    usemask=True is absent (arraystack has no masked arrays); records come back as NumPy arrays."""
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


def fromstring(string, dtype=float, count=-1, *, sep="", like=None):
    """Mirrors numpy.fromstring (text mode; NumPy 2 removed the binary mode: use frombuffer)."""
    return _to_arraystack(np.fromstring(string, dtype=dtype, count=count, sep=sep))


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None):
    """Mirrors numpy.fromfile."""
    return _to_arraystack(np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset))


def _tofile_method(self, fid, sep="", format="%s"):
    """Mirrors numpy.ndarray.tofile."""
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
