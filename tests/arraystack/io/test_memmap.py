"""memmap: NumPy's memory-mapped file arrays, compared with numpy.memmap on the same files."""

from __future__ import annotations

import io

import numpy
import pytest

import arraystack


def _session(xp, path):
    """Create, write (assignment, in-place operators, a view), flush, reopen read-only and
    copy-on-write; what the file and the arrays hold at each step."""
    seen = []
    m = xp.memmap(path, dtype="float32", mode="w+", shape=(3, 4))
    m[:] = xp.arange(12).reshape(3, 4)
    m[0, 0] = 42
    m += 1
    view = m[1:, ::2]
    view *= -1
    m.flush()
    seen += [numpy.fromfile(path, dtype="float32").tolist(), repr(m), m.offset, m.mode]
    seen += [repr(m.sum()), repr(xp.sin(m[2])), type(m * 2).__name__ == "ndarray"]
    r = xp.memmap(path, dtype="float32", mode="r", offset=16, shape=(2, 4), order="F")
    seen.append(repr(r))
    with pytest.raises(ValueError):
        r[0, 0] = 1
    c = xp.memmap(path, dtype="int32", mode="c")
    c[:] = 0
    seen += [
        numpy.fromfile(path, dtype="float32")[:3].tolist(),
        c[:3].tolist(),
    ]  # slices: see Notes
    m2 = xp.memmap(path, mode="r+")  # uint8, the whole file
    seen += [m2.shape, m2.dtype.str]
    return seen


def test_memmap_reads_and_writes_its_file_as_numpys(tmp_path):
    expected = _session(numpy, tmp_path / "n.dat")
    got = _session(arraystack, tmp_path / "a.dat")
    assert got == expected


def test_memmap_is_an_arraystack_array_whose_views_write_the_file(tmp_path):
    m = arraystack.memmap(tmp_path / "v.dat", dtype="int16", mode="w+", shape=(4,))
    assert isinstance(m, arraystack.memmap) and isinstance(m, arraystack.ndarray)
    tail = m[2:]
    assert type(tail) is arraystack.ndarray  # a view of the same memory (NumPy's is a memmap)
    tail[:] = 7
    m.flush()
    assert numpy.fromfile(tmp_path / "v.dat", dtype="int16").tolist() == [0, 0, 7, 7]


def test_memmap_computes_under_transformations(tmp_path):
    m = arraystack.memmap(tmp_path / "m.dat", dtype="float64", mode="w+", shape=(5,))
    m[:] = arraystack.linspace(-1, 1, 5)
    f = arraystack.jit(lambda x: (x * x).sum())
    assert float(f(m)) == pytest.approx(2.5)
    numpy.testing.assert_allclose(
        numpy.asarray(arraystack.grad(f)(m)), 2 * numpy.linspace(-1, 1, 5)
    )


def test_memmap_errors(tmp_path):
    path = tmp_path / "e.dat"
    numpy.arange(4, dtype=">i4").tofile(path)
    got = arraystack.memmap(path, dtype=">i4", mode="r")  # the other byte order: a converted copy
    assert got.dtype == numpy.int32 and numpy.asarray(got).tolist() == [0, 1, 2, 3]
    with pytest.raises(TypeError, match="mode='r'"):
        arraystack.memmap(path, dtype=">i4", mode="r+")
    for make in (
        lambda xp: xp.memmap(tmp_path / "missing.dat", mode="r"),
        lambda xp: xp.memmap(path, mode="x"),
        lambda xp: xp.memmap(tmp_path / "n.dat", mode="w+"),  # w+ needs a shape
    ):
        with pytest.raises(Exception) as expected:
            make(numpy)
        with pytest.raises(expected.type):
            make(arraystack)


def _npy_session(xp, path):
    """numpy.lib.format's functions of arrays on one .npy file: create a map, write it, reopen it
    read-only, write and read an array through a file object, and a header."""
    m = xp.lib.format.open_memmap(
        path, mode="w+", dtype="float32", shape=(2, 3), fortran_order=True
    )
    m[:] = 5
    m[0, 1] = 1
    m.flush()
    del m
    seen = [repr(numpy.load(path))]
    r = xp.lib.format.open_memmap(path, mode="r")
    seen += [repr(r), r.flags.f_contiguous, type(r).__name__]
    buffer = io.BytesIO()
    xp.lib.format.write_array(buffer, xp.arange(6, dtype="int16").reshape(2, 3).T)
    buffer.seek(0)
    seen.append(repr(xp.lib.format.read_array(buffer)))
    seen.append(xp.lib.format.header_data_from_array_1_0(xp.ones((2, 2), dtype="int16")))
    return seen


def test_lib_format_reads_and_writes_as_numpys(tmp_path):
    expected = _npy_session(numpy, tmp_path / "n.npy")
    assert _npy_session(arraystack, tmp_path / "a.npy") == expected
    buffer = io.BytesIO()  # bfloat16 keeps its name in the header, as arraystack.save writes it
    arraystack.lib.format.write_array(buffer, arraystack.ones(3, dtype=arraystack.bfloat16))
    buffer.seek(0)
    assert arraystack.lib.format.read_array(buffer).dtype == arraystack.bfloat16
