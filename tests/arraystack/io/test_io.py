"""NumPy parity of the I/O family (_io): .npy/.npz, text files, raw binary files and strings."""

from __future__ import annotations

import io

import numpy
import pytest
from arraystack.ir import ConcretizationError

import arraystack
from tests import oracle

DTYPES = oracle.DTYPES


def data(dtype, shape=(3, 4)):
    return (numpy.arange(numpy.prod(shape)) % 7).astype(dtype).reshape(shape)


@pytest.mark.parametrize("dtype", DTYPES)
def test_save_load_round_trip(tmp_path, dtype):
    x = data(dtype)
    path = tmp_path / "x.npy"
    arraystack.save(path, arraystack.asarray(x))
    assert numpy.load(path).dtype == x.dtype  # the file is NumPy's format
    y = arraystack.load(path)
    assert isinstance(y, arraystack.ndarray) and y.dtype == x.dtype
    numpy.testing.assert_array_equal(numpy.asarray(y), x)
    assert path.read_bytes() == _numpy_bytes(x)


def _numpy_bytes(x):
    buf = io.BytesIO()
    numpy.save(buf, x)
    return buf.getvalue()


def test_save_to_file_objects_and_numpy_dispatch(tmp_path):
    x = data("float64")
    buf = io.BytesIO()
    arraystack.save(buf, arraystack.asarray(x))
    assert buf.getvalue() == _numpy_bytes(x)
    # numpy.save dispatches to arraystack.save
    numpy.save(tmp_path / "d.npy", arraystack.asarray(x))
    numpy.testing.assert_array_equal(numpy.asarray(arraystack.load(tmp_path / "d.npy")), x)
    arraystack.save(tmp_path / "list", [[1, 2], [3, 4]])
    assert arraystack.load(tmp_path / "list.npy").dtype == numpy.int64


def test_load_mmap_and_pickles(tmp_path):
    x = data("float32")
    numpy.save(tmp_path / "m.npy", x)
    y = arraystack.load(tmp_path / "m.npy", mmap_mode="r")
    assert isinstance(y, arraystack.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(y), x)
    obj = numpy.array([{"a": 1}, None], dtype=object)
    numpy.save(tmp_path / "o.npy", obj, allow_pickle=True)
    with pytest.raises(ValueError):  # allow_pickle is False by default, as in NumPy
        arraystack.load(tmp_path / "o.npy")
    got = arraystack.load(tmp_path / "o.npy", allow_pickle=True)  # objects stay a NumPy array
    assert isinstance(got, arraystack.ndarray) and got[0] == {"a": 1}  # an object array


@pytest.mark.parametrize("save", ["savez", "savez_compressed"])
def test_npz_is_a_lazy_mapping_of_arraystack_arrays(tmp_path, save):
    a, b = data("int32"), data("complex128", (2,))
    path = tmp_path / "z.npz"
    getattr(arraystack, save)(path, arraystack.asarray(a), named=arraystack.asarray(b))
    with numpy.load(path) as ref:
        assert sorted(ref.files) == ["arr_0", "named"]
    with arraystack.load(path) as z:
        assert sorted(z.files) == ["arr_0", "named"] and len(z) == 2 and "named" in z
        assert sorted(z) == ["arr_0", "named"] and sorted(z.keys()) == ["arr_0", "named"]
        assert isinstance(z["named"], arraystack.ndarray)
        numpy.testing.assert_array_equal(numpy.asarray(z["arr_0"]), a)
        numpy.testing.assert_array_equal(numpy.asarray(dict(z.items())["named"]), b)
        with pytest.raises(KeyError):
            z["missing"]
        assert "NpzFile" in repr(z)


def test_saving_a_traced_array_raises(tmp_path):
    @arraystack.jit
    def f(x):
        arraystack.save(tmp_path / "t.npy", x)
        return x

    with pytest.raises(ConcretizationError):
        f(arraystack.ones(3))


TEXT = "# comment\n1 2 3\n4 5 6\n"


@pytest.mark.parametrize(
    "call",
    [
        lambda xp: xp.loadtxt(io.StringIO(TEXT)),
        lambda xp: xp.loadtxt(io.StringIO(TEXT), dtype=int, usecols=(0, 2)),
        lambda xp: xp.loadtxt(io.StringIO(TEXT), unpack=True),
        lambda xp: xp.loadtxt(io.StringIO("1,2\n3,4"), delimiter=",", dtype="float32", max_rows=1),
        lambda xp: xp.loadtxt(io.StringIO("7"), ndmin=2),
        lambda xp: xp.loadtxt(io.StringIO("1 2\n3")),
        lambda xp: xp.genfromtxt(io.StringIO("1,2,\n4,,6"), delimiter=","),
        lambda xp: xp.genfromtxt(io.StringIO("1,2,\n4,,6"), delimiter=",", filling_values=-1),
        lambda xp: xp.genfromtxt(io.StringIO(TEXT), skip_header=1, dtype=int),
        lambda xp: xp.fromstring("1 2 3.5", sep=" "),
        lambda xp: xp.fromstring("1,2,3", dtype=int, sep=","),
        lambda xp: xp.fromstring(b"\x01\x02", dtype=numpy.uint8),
    ],
)
def test_text_readers(parity, call):
    parity(call, traced=False)


def test_text_of_strings_is_a_host_array():
    got = arraystack.loadtxt(io.StringIO("a b\nc d"), dtype=str)
    assert isinstance(got, arraystack.ndarray) and got[1, 0] == "c"
    with pytest.raises(TypeError):
        arraystack.genfromtxt(io.StringIO("1 2"), usemask=True)


@pytest.mark.parametrize(
    "kwargs", [{}, {"fmt": "%d", "delimiter": ","}, {"header": "h", "footer": "f"}]
)
def test_savetxt_writes_numpy_text(kwargs):
    x = data("float64")
    got, want = io.StringIO(), io.StringIO()
    arraystack.savetxt(got, arraystack.asarray(x), **kwargs)
    numpy.savetxt(want, x, **kwargs)
    assert got.getvalue() == want.getvalue()
    numpy.testing.assert_array_equal(
        numpy.asarray(
            arraystack.loadtxt(io.StringIO(got.getvalue()), delimiter=kwargs.get("delimiter"))
        ),
        x,
    )


@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128"])
def test_tofile_fromfile(tmp_path, dtype):
    x = data(dtype)
    arraystack.asarray(x).tofile(tmp_path / "a.bin")
    x.tofile(tmp_path / "b.bin")
    assert (tmp_path / "a.bin").read_bytes() == (tmp_path / "b.bin").read_bytes()
    y = arraystack.fromfile(tmp_path / "a.bin", dtype=dtype)
    assert isinstance(y, arraystack.ndarray) and y.dtype == numpy.dtype(dtype)
    numpy.testing.assert_array_equal(numpy.asarray(y), x.ravel())
    y = arraystack.fromfile(tmp_path / "a.bin", dtype=dtype, count=2, offset=x.itemsize)
    numpy.testing.assert_array_equal(numpy.asarray(y), x.ravel()[1:3])


def test_tofile_text_and_frombuffer(tmp_path):
    x = data("int64")
    arraystack.asarray(x).tofile(tmp_path / "t.txt", sep=",", format="%d")
    x.tofile(tmp_path / "u.txt", sep=",", format="%d")
    assert (tmp_path / "t.txt").read_text() == (tmp_path / "u.txt").read_text()
    y = arraystack.fromfile(tmp_path / "t.txt", dtype=int, sep=",")
    numpy.testing.assert_array_equal(numpy.asarray(y), x.ravel())
    raw = arraystack.asarray(x).tobytes()
    numpy.testing.assert_array_equal(
        numpy.asarray(arraystack.frombuffer(raw, dtype=int)), x.ravel()
    )


@pytest.mark.parametrize("dtype", ["int16", "uint32", "int64", "float32", "float64", "complex64"])
def test_readers_take_the_other_byte_order_as_native_values(tmp_path, dtype):
    """Big-endian data (binary formats, network buffers) reads to NumPy's values, held in native order."""
    other = numpy.dtype(dtype).newbyteorder("S")
    x = numpy.array([0, 1, 2, 300, 7], dtype).astype(other)
    x.tofile(tmp_path / "x.bin")
    numpy.save(tmp_path / "x.npy", x)
    reads = [
        (lambda xp: xp.frombuffer(x.tobytes(), dtype=other)),
        (lambda xp: xp.frombuffer(x.tobytes(), dtype=other, count=2, offset=other.itemsize)),
        (lambda xp: xp.fromfile(tmp_path / "x.bin", dtype=other)),
        (lambda xp: xp.load(tmp_path / "x.npy")),
        (lambda xp: xp.load(tmp_path / "x.npy", mmap_mode="r")),
        (lambda xp: xp.load(tmp_path / "x.npy", mmap_mode="c")),
        (lambda xp: xp.asarray(x)),
    ]
    for read in reads:
        expected, got = read(numpy), read(arraystack)
        assert got.dtype == numpy.dtype(dtype) and got.dtype.isnative
        numpy.testing.assert_array_equal(numpy.asarray(got), expected)
    text = io.StringIO("1 2\n3 4")
    got = arraystack.loadtxt(text, dtype=other)
    assert got.dtype == numpy.dtype(dtype) and numpy.asarray(got).tolist() == [[1, 2], [3, 4]]


def test_the_other_byte_order_is_written_as_numpys(tmp_path):
    """astype, array and asarray to a non-native dtype give NumPy's buffer in that order (tobytes and
    tofile write NumPy's bytes; computing with it reads it in native order); creation functions and
    traced casts cannot, and say so; a writable map of such a file cannot be held either."""
    other = numpy.dtype("int32").newbyteorder("S")
    for make in (
        lambda xp: xp.arange(3).astype(other),
        lambda xp: xp.array([1, 2, 3], dtype=other),
        lambda xp: xp.asarray([1.0, 2.0], dtype=other.str.replace("i", "f")),
    ):
        expected, got = make(numpy), make(arraystack)
        assert repr(got) == repr(expected) and got.tobytes() == expected.tobytes()
        assert repr(got + 1) == repr(expected + 1) and repr(got.sum()) == repr(expected.sum())
    got = arraystack.arange(3).astype(other)
    got.tofile(tmp_path / "x.bin")
    assert (tmp_path / "x.bin").read_bytes() == numpy.arange(3).astype(other).tobytes()
    with pytest.raises(TypeError, match="byte order"):
        arraystack.zeros(3, dtype=other)
    with pytest.raises(TypeError, match="traced"):
        arraystack.jit(lambda x: x.astype(other))(arraystack.arange(3))
    numpy.save(tmp_path / "x.npy", numpy.arange(3, dtype=other))
    with pytest.raises(TypeError, match="mmap_mode='r'"):
        arraystack.load(tmp_path / "x.npy", mmap_mode="r+")
