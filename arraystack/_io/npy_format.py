"""The .npy format for the dtypes NumPy's writer cannot name: bfloat16, whose header says `bfloat16`.

NumPy writes a bfloat16 array with the description `<V2` (raw two-byte records), which reads back as
void. Here the header names `bfloat16`, which `numpy.load` reads back wherever ml_dtypes is imported
(arraystack imports it); every other dtype is written by NumPy's own writer, byte for byte.
"""

from __future__ import annotations

import os
import zipfile

import numpy as np

from arraystack.ir.avals import bfloat16


def dtype_descr(dtype: np.dtype):
    """The `descr` of a .npy header for `dtype` (NumPy's, except bfloat16's name)."""
    return "bfloat16" if dtype == bfloat16 else np.lib.format.dtype_to_descr(dtype)


def needs_naming(value) -> bool:
    """Whether NumPy's writer would lose `value`'s dtype (a NumPy array or scalar)."""
    return getattr(value, "dtype", None) == bfloat16


def write_array(file, array, allow_pickle: bool = True) -> None:
    """numpy.lib.format.write_array, with bfloat16 named in the header."""
    if not needs_naming(array):
        np.lib.format.write_array(file, array, allow_pickle=allow_pickle)
        return
    array = np.ascontiguousarray(array)
    header = {"descr": dtype_descr(array.dtype), "fortran_order": False, "shape": array.shape}
    try:
        np.lib.format.write_array_header_1_0(file, header)
    except ValueError:  # a header over 64 KiB (thousands of dimensions)
        np.lib.format.write_array_header_2_0(file, header)
    file.write(array.tobytes())


def save(file, array, allow_pickle: bool = True) -> None:
    """numpy.save of one NumPy array or scalar, with bfloat16 named in the header."""
    if not needs_naming(array):
        np.save(file, array, allow_pickle=allow_pickle)
        return
    if hasattr(file, "write"):
        write_array(file, np.asanyarray(array), allow_pickle)
        return
    file = os.fspath(file)
    if not file.endswith(".npy"):
        file += ".npy"  # as numpy.save names it
    with open(file, "wb") as f:
        write_array(f, np.asanyarray(array), allow_pickle)


def savez(file, args, kwds, compress: bool, allow_pickle: bool = True) -> None:
    """numpy.savez (or savez_compressed) of NumPy values, with bfloat16 named in the headers."""
    if not any(needs_naming(v) for v in (*args, *kwds.values())):
        save_npz = np.savez_compressed if compress else np.savez
        save_npz(file, *args, allow_pickle=allow_pickle, **kwds)
        return
    named = dict(kwds)
    for i, value in enumerate(args):
        key = f"arr_{i}"
        if key in named:
            raise ValueError(f"Cannot use un-named variables and keyword {key}")
        named[key] = value
    if not hasattr(file, "write"):
        file = os.fspath(file)
        if not file.endswith(".npz"):
            file += ".npz"  # as numpy.savez names it
    compression = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(file, mode="w", compression=compression, allowZip64=True) as archive:
        for key, value in named.items():
            with archive.open(key + ".npy", "w", force_zip64=True) as entry:
                write_array(entry, np.asanyarray(value), allow_pickle)
