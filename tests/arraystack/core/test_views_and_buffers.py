"""ndarray's memory methods against NumPy: view by dtype and type (aliasing, errors), flat (reads, writes,
iteration, traced), resize, byteswap, setflags, ctypes and the buffer protocol (memoryview, bytes, struct,
array.array)."""

from __future__ import annotations

import array
import ctypes
import struct

import numpy
import pytest
from arraystack.ir.core import ConcretizationError

import arraystack
from arraystack._core.array import _fastpath
from tests.conftest import assert_same, run_traced

needs_c = pytest.mark.skipif(
    _fastpath is None, reason="the buffer protocol on Python 3.11 needs the C accelerator"
)


def pair(x):
    """The same data as a NumPy array and an arraystack array (separate buffers)."""
    x = numpy.asarray(x)
    return x.copy(), arraystack.asarray(x.copy())


# -- view ------------------------------------------------------------------------------------------------

VIEW_DTYPES = ["uint8", "int16", "float32", "complex128", "int64", ">i4"]


@pytest.mark.parametrize("dtype", VIEW_DTYPES)
def test_view_dtype_matches_numpy_and_aliases(dtype):
    n, a = pair(numpy.arange(8, dtype=numpy.int32).reshape(2, 4))
    nv, av = n.view(dtype), a.view(dtype)
    assert_same(nv, av)
    nv.flat[0] = 7
    av.flat[0] = 7
    assert_same(n, a)  # a write through the view changes the array


def test_view_without_arguments_is_a_view():
    n, a = pair(numpy.arange(4.0))
    v = a.view()
    v[1] = -1.0
    n.view()[1] = -1.0
    assert_same(n, a)
    assert arraystack.shares_memory(a, v)


def test_view_itemsize_mismatch_noncontiguous_raises_valueerror():
    n, a = pair(numpy.arange(12, dtype=numpy.int32).reshape(3, 4))
    with pytest.raises(ValueError) as expected:
        n[:, ::2].view(numpy.int16)
    with pytest.raises(ValueError) as got:
        a[:, ::2].view(numpy.int16)
    assert str(got.value) == str(expected.value)
    with pytest.raises(ValueError):
        a.view(numpy.dtype("V3"))


def test_view_by_type():
    n, a = pair(numpy.arange(4))
    assert type(a.view(arraystack.ndarray)) is arraystack.ndarray
    assert_same(n.view(numpy.uint8), a.view(numpy.uint8, arraystack.ndarray))
    m = a.view(numpy.matrix)  # a NumPy subclass: NumPy's view of the same buffer
    assert type(m) is numpy.matrix
    m[0, 0] = 9
    assert int(a[0]) == 9

    class Tagged(arraystack.ndarray):
        def __array_finalize__(self, obj):
            self.tag = "from " + type(obj).__name__

    t = a.view(Tagged)
    assert type(t) is Tagged and t.tag == "from ndarray"
    t[1] = 5
    assert int(a[1]) == 5
    for x in (n, a):
        with pytest.raises(ValueError, match="Type must be a sub-type of ndarray type"):
            x.view(numpy.int8, list)
        with pytest.raises(ValueError, match="Type must be a sub-type of ndarray type"):
            x.view(type=list)


def test_newbyteorder_through_view():
    n, a = pair(numpy.arange(3, dtype=numpy.int32))
    assert_same(n.view(n.dtype.newbyteorder()), a.view(a.dtype.newbyteorder()))


def test_view_traced_same_dtype_aliases():
    def body(xp, x):
        v = x.view()
        v[0] = 100.0
        return x

    expected = numpy.arange(3.0)
    expected[0] = 100.0
    assert_same(expected, run_traced(body, numpy.arange(3.0)))
    assert_same(numpy.arange(3.0), arraystack.jit(lambda x: x.view(x.dtype))(numpy.arange(3.0)))


def test_view_traced_other_dtype_reads_the_bits():
    f = arraystack.jit(lambda x: x.view(arraystack.int64))
    x = numpy.arange(3.0)
    numpy.testing.assert_array_equal(numpy.asarray(f(arraystack.asarray(x))), x.view(numpy.int64))


# -- flat ------------------------------------------------------------------------------------------------

BASES = {
    "c_order": numpy.arange(12).reshape(3, 4),
    "transposed": numpy.arange(12.0).reshape(3, 4).T,
    "strided": numpy.arange(30).reshape(5, 6)[::2, 1::2],
    "zero_d": numpy.array(5.0),
}
FLAT_KEYS = {
    "int": 3,
    "neg": -1,
    "numpy_int": numpy.int64(2),
    "slice": slice(1, 5),
    "step": slice(None, None, -2),
    "list": [0, 2, -1],
    "array2d": numpy.array([[0, 1], [2, 0]]),
    "ellipsis": Ellipsis,
    "one_tuple": (1,),
}


@pytest.mark.parametrize("base", BASES.values(), ids=BASES.keys())
@pytest.mark.parametrize("key", FLAT_KEYS.values(), ids=FLAT_KEYS.keys())
def test_flat_read(base, key):
    n, a = pair(base)
    try:
        expected = n.flat[key]
    except IndexError:
        with pytest.raises(IndexError):
            a.flat[key]
        with pytest.raises(IndexError):
            run_traced(lambda xp, x: x.flat[key], n)
        return
    assert_same(numpy.asarray(expected), a.flat[key])
    assert_same(numpy.asarray(expected), run_traced(lambda xp, x: x.flat[key], n))


def test_flat_boolean_and_errors():
    n, a = pair(numpy.arange(6).reshape(2, 3))
    mask = numpy.array([True, False, True, False, False, True])
    assert_same(n.flat[mask], a.flat[mask])
    assert_same(n.flat[mask], a.flat[arraystack.asarray(mask)])
    assert_same(n.flat[mask], run_traced(lambda xp, x: x.flat[mask], n))
    for bad in [(1, 2), 6, -7, numpy.ones((2, 3), bool)]:
        with pytest.raises(IndexError) as expected:
            n.flat[bad]
        with pytest.raises(IndexError) as got:
            a.flat[bad]
        assert str(got.value) == str(expected.value)


WRITES = {
    "int": (4, -1),
    "slice": (slice(0, 3), [10, 20, 30]),
    "cyclic": ([0, 1, 2, 3, 4], [7, 8]),
    "scalar_to_slice": (slice(None, None, 3), 0),
    "mask": (numpy.arange(12) % 5 == 0, 99),
    "ellipsis": (Ellipsis, numpy.arange(12)[::-1]),
}


@pytest.mark.parametrize("key, values", WRITES.values(), ids=WRITES.keys())
def test_flat_write(key, values):
    n, a = pair(numpy.arange(12).reshape(3, 4))
    n.flat[key] = values
    a.flat[key] = values
    assert_same(n, a)

    def body(xp, x):
        x.flat[key] = values
        return x

    assert_same(n, run_traced(body, numpy.arange(12).reshape(3, 4)))


def test_flat_write_through_view_changes_the_base():
    n, a = pair(numpy.arange(12.0).reshape(3, 4))
    n.T.flat[[1, 2]] = -5.0
    a.T.flat[[1, 2]] = -5.0
    assert_same(n, a)

    def body(xp, x):
        y = x.reshape(3, 4)
        y.flat[[0, 11]] = -1.0
        return x

    expected = numpy.arange(12.0)
    expected[[0, 11]] = -1.0
    assert_same(expected, run_traced(body, numpy.arange(12.0)))


def test_flat_assignment_sets_every_element():
    n, a = pair(numpy.arange(6).reshape(2, 3))
    n.flat = [1, 2]
    a.flat = [1, 2]
    assert_same(n, a)


def test_flat_iteration_attributes_and_copy():
    n, a = pair(numpy.arange(12).reshape(3, 4).T)
    fn, fa = n.flat, a.flat
    assert fa.base is a and len(fa) == len(fn) == 12
    assert (fa.index, fa.coords) == (fn.index, fn.coords)
    for _ in range(5):
        assert int(next(fa)) == int(next(fn))
    assert (fa.index, fa.coords) == (fn.index, fn.coords)
    assert [int(v) for v in a.flat] == list(n.flat)
    assert_same(n.flat.copy(), a.flat.copy())
    assert_same(numpy.asarray(n.flat), numpy.asarray(a.flat) + arraystack.zeros((), int))
    assert isinstance(a.flat, arraystack.flatiter)


def test_flat_under_jit():
    def f(x):
        y = x.reshape(2, 3)
        y.flat[1:3] = 0.0
        return y.flat[::2], x

    n = numpy.arange(6.0)
    expected = n.copy()
    expected[1:3] = 0.0
    got = arraystack.jit(f)(n)
    assert_same(expected[::2], got[0])
    assert_same(expected, got[1])


# -- resize, byteswap, setflags, ctypes ---------------------------------------------------------------------

SHAPES = [(2, 3), 10, (4,), (1, 2, 2)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_resize_in_place(shape):
    n, a = pair(numpy.arange(6.0))
    n.resize(shape)
    a.resize(shape)
    assert_same(n, a)
    n, a = pair(numpy.arange(6.0))
    args = shape if isinstance(shape, tuple) else (shape,)
    n.resize(*args, refcheck=False)
    a.resize(*args, refcheck=False)
    assert_same(n, a)


def test_resize_errors():
    n, a = pair(numpy.arange(6.0))
    nv, av = n[1:], a[1:]
    for x in (n, a):
        with pytest.raises(ValueError, match="referenced"):
            x.resize(10)
    for x in (nv, av):
        with pytest.raises(ValueError, match="does not own its data"):
            x.resize(2)
    assert_same(n, a)
    with pytest.raises(ConcretizationError, match=r"resize\(\)"):
        arraystack.jit(lambda x: x.resize(3))(numpy.arange(6.0))


def test_module_resize_repeats_data():
    assert_same(
        numpy.resize(numpy.arange(3), (2, 4)), arraystack.resize(arraystack.arange(3), (2, 4))
    )


@pytest.mark.parametrize("dtype", ["int16", "int32", "float64", "complex64"])
def test_byteswap(dtype):
    n, a = pair(numpy.arange(5, dtype=dtype) * 3)
    assert_same(n.byteswap(), a.byteswap())
    assert_same(numpy.arange(5, dtype=dtype) * 3, a)  # not in place
    assert a.byteswap(inplace=True) is a
    n.byteswap(inplace=True)
    assert_same(n, a)
    with pytest.raises(ConcretizationError):
        arraystack.jit(lambda x: x.byteswap())(numpy.arange(3.0))


def test_setflags_read_only_makes_writes_raise(accelerated):
    n, a = pair(numpy.arange(4.0))
    n.setflags(write=False)
    a.setflags(write=False)
    assert a.flags.writeable is False
    writes = [
        lambda x: x.__setitem__(0, 1.0),
        lambda x: x.__setitem__([0, 1], 1.0),
        lambda x: x.__iadd__(1.0),
        lambda x: x.fill(0.0),
    ]
    for write in writes:
        with pytest.raises(ValueError) as expected:
            write(n)
        with pytest.raises(ValueError) as got:
            write(a)
        assert str(got.value) == str(expected.value)
    with pytest.raises(ValueError, match="read-only"):
        a.flat[0] = 1.0
    assert_same(numpy.arange(4.0), a)  # nothing written
    a.setflags(write=True)
    a[0] = 5.0
    assert float(a[0]) == 5.0
    with pytest.raises(ValueError) as expected:
        n.setflags(uic=True)
    with pytest.raises(ValueError) as got:
        a.setflags(uic=True)
    assert str(got.value) == str(expected.value)


def test_ctypes_is_the_buffer():
    a = arraystack.arange(4, dtype=arraystack.int32)
    assert a.ctypes.data == a.__array__().ctypes.data
    assert a.ctypes.shape[0] == 4 and tuple(a.ctypes.strides) == (4,)
    pointer = a.ctypes.data_as(ctypes.POINTER(ctypes.c_int32))
    pointer[2] = 42
    assert int(a[2]) == 42


# -- the buffer protocol ---------------------------------------------------------------------------------


@needs_c
@pytest.mark.parametrize(
    "base",
    [numpy.arange(6, dtype=numpy.int32), numpy.arange(6.0).reshape(2, 3), numpy.arange(8)[::2]],
    ids=["i32", "f64_2d", "strided"],
)
def test_buffer_protocol_matches_numpy(base):
    n, a = pair(base)
    mn, ma = memoryview(n), memoryview(a)
    assert (ma.format, ma.shape, ma.strides, ma.itemsize) == (
        mn.format,
        mn.shape,
        mn.strides,
        mn.itemsize,
    )
    assert ma.tolist() == mn.tolist()
    assert bytes(a) == bytes(n)
    fmt = f"{n.size}{n.dtype.char}"
    assert (
        struct.unpack_from(fmt, a) == struct.unpack_from(fmt, n) if n.flags.c_contiguous else True
    )


@needs_c
def test_buffer_aliases_and_array_module():
    n, a = pair(numpy.arange(4, dtype=numpy.int32))
    assert array.array("i", a) == array.array("i", n)
    m = memoryview(a)
    m[1] = 77  # writes the array's memory
    assert int(a[1]) == 77
    a.setflags(write=False)
    assert memoryview(a).readonly
    with pytest.raises(ValueError, match="referenced"):
        _resize_while_exported()


def _resize_while_exported():
    a = arraystack.arange(3.0)
    view = memoryview(a)  # an exported buffer keeps the memory from moving
    try:
        a.resize(5)
    finally:
        view.release()


@needs_c
def test_traced_array_has_no_buffer():
    def f(x):
        memoryview(x)
        return x

    with pytest.raises(BufferError, match="traced value f64\\[3\\] has no buffer"):
        arraystack.jit(f)(numpy.arange(3.0))


@pytest.mark.parametrize("dtype", ["uint32", "int16", "float64", ">i4"])
def test_assigning_dtype_reinterprets_in_place(dtype):
    n, a = pair(numpy.arange(8, dtype=numpy.int32).reshape(2, 4))
    n.dtype = dtype
    a.dtype = dtype
    assert_same(n, a)
    n, a = pair(numpy.arange(8.0))
    n, a = n[::2], a[::2]
    with pytest.raises(ValueError) as expected:
        n.dtype = numpy.float32
    with pytest.raises(ValueError) as got:
        a.dtype = numpy.float32
    assert str(got.value) == str(expected.value)
