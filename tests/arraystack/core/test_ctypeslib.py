"""arraystack.ctypeslib against numpy.ctypeslib: C functions loaded with ctypes read and write arraystack
arrays in host memory in place, and refuse traced arrays with a clear TypeError."""

import ctypes
import ctypes.util

import numpy
import pytest

import arraystack
from arraystack import ctypeslib

LIBC = ctypes.CDLL(ctypes.util.find_library("c"))


def _memset(lib):
    function = LIBC.memset
    function.argtypes = [
        lib.ndpointer(dtype=numpy.float64, ndim=1, flags="C"),
        ctypes.c_int,
        ctypes.c_size_t,
    ]
    function.restype = None
    return function


@pytest.mark.parametrize("xp", [numpy, arraystack], ids=["numpy", "arraystack"])
def test_an_ndpointer_argument_passes_the_buffer_in_place(xp):
    lib = numpy.ctypeslib if xp is numpy else ctypeslib
    x = xp.arange(4.0)
    _memset(lib)(x, 0, 16)
    assert x.tolist() == [0.0, 0.0, 2.0, 3.0]


@pytest.mark.parametrize(
    "bad, message",
    [
        (numpy.arange(4), "data type"),
        (numpy.ones((2, 2)), "dimension"),
        (numpy.ones(8)[::2], "flags"),
    ],
    ids=["dtype", "ndim", "flags"],
)
def test_a_mismatching_argument_raises_numpys_error(bad, message):
    for lib, x in ((numpy.ctypeslib, bad), (ctypeslib, arraystack.asarray(bad))):
        if message == "flags":
            x = x if lib is numpy.ctypeslib else arraystack.ones(8)[::2]
        with pytest.raises(ctypes.ArgumentError, match=message):
            _memset(lib)(x, 0, 8)


def test_a_traced_array_is_refused_with_the_reason():
    memset = _memset(ctypeslib)
    with pytest.raises(ctypes.ArgumentError, match="host memory, got a traced array"):
        arraystack.jit(lambda x: memset(x, 0, 8))(arraystack.ones(4))


def test_as_ctypes_and_as_array_share_the_memory():
    x = arraystack.arange(4.0)
    c = ctypeslib.as_ctypes(x)
    c[3] = 7.0
    assert x.tolist() == [0.0, 1.0, 2.0, 7.0]
    y = ctypeslib.as_array(c)
    assert type(y) is arraystack.ndarray
    y[0] = 5.0
    assert x.tolist() == [5.0, 1.0, 2.0, 7.0]
    pointer = ctypes.cast(c, ctypes.POINTER(ctypes.c_double))
    assert ctypeslib.as_array(pointer, shape=(2,)).tolist() == [5.0, 1.0]


def test_a_restype_with_dtype_and_shape_gives_an_arraystack_array():
    x = arraystack.asarray([1.0, 2.0, 3.0])
    identity = LIBC.memmove  # returns its first argument
    identity.argtypes = [ctypeslib.ndpointer(dtype=numpy.float64), ctypes.c_void_p, ctypes.c_size_t]
    identity.restype = ctypeslib.ndpointer(dtype=numpy.float64, shape=(3,))
    out = identity(x, x.ctypes.data, 0)
    assert type(out) is arraystack.ndarray and out.tolist() == [1.0, 2.0, 3.0]


def test_numpys_own_names():
    assert ctypeslib.c_intp is numpy.ctypeslib.c_intp
    assert ctypeslib.as_ctypes_type(numpy.float32) is ctypes.c_float
    assert ctypeslib.load_library is numpy.ctypeslib.load_library
