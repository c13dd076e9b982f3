"""DLPack with each peer on the CPU: NumPy, jax and torch (when importable). Memory is shared both ways where
the peer allows it (a write on one side is seen on the other), dtypes (bool, float16, complex), 0-d arrays,
strided and negative-stride views as far as each peer accepts them, read-only buffers, `copy=` and
`dl_device=`, and the errors. NumPy is the oracle for what a consumer sees."""

from __future__ import annotations

import importlib.util

import numpy
import pytest

import arraystack

DTYPES = [
    "bool",
    "int8",
    "uint16",
    "int64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]
HAS_TORCH = importlib.util.find_spec("torch") is not None
needs_torch = pytest.mark.skipif(
    not HAS_TORCH, reason="torch is not installed (pip install torch==2.13.0)"
)


class Capsule:
    """A producer handing out one given capsule, for checking what `__dlpack__` returned."""

    def __init__(self, capsule, device=(1, 0)):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


def values(n, dtype):
    return (numpy.arange(n) % 3).astype(dtype)


# -- NumPy ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_shares_memory_both_ways(dtype):
    a = values(6, dtype)
    x = arraystack.from_dlpack(a)
    assert x.dtype == a.dtype
    x[0] = 1
    assert a[0] == 1  # NumPy sees arraystack's write
    back = numpy.from_dlpack(x)
    back[1] = 0
    assert x[1] == 0  # arraystack sees NumPy's write
    numpy.testing.assert_array_equal(numpy.asarray(x), a)


@pytest.mark.parametrize(
    "view", [lambda a: a[::2], lambda a: a[::-1], lambda a: a.reshape(2, 3).T, lambda a: a[2, ...]]
)
def test_numpy_views_keep_their_strides(view):
    a = numpy.arange(6.0)
    a = a if view(a).ndim else a.reshape(3, 2)
    expected = view(a)
    x = arraystack.from_dlpack(expected)
    assert x.shape == expected.shape and x.strides == expected.strides
    back = numpy.from_dlpack(x)
    assert back.strides == expected.strides and numpy.shares_memory(back, a)
    numpy.testing.assert_array_equal(back, expected)


def test_zero_d_arrays():
    a = numpy.array(2.5)
    x = arraystack.from_dlpack(a)
    assert x.shape == () and float(x) == 2.5
    x[()] = 4.0
    assert a[()] == 4.0 and numpy.from_dlpack(x).shape == ()


def test_read_only_buffers_stay_read_only():
    a = numpy.arange(3.0)
    a.flags.writeable = False
    x = arraystack.from_dlpack(a)
    with pytest.raises(ValueError, match="read-only") as ours:
        x[0] = 1.0
    with pytest.raises(ValueError) as numpys:
        numpy.from_dlpack(a)[0] = 1.0
    assert str(ours.value) == str(numpys.value)
    assert a[0] == 0.0
    # exporting it again: the versioned capsule carries the read-only flag; the legacy one cannot
    assert not numpy.from_dlpack(x).flags.writeable
    with pytest.raises(BufferError):
        x.__dlpack__()
    assert not numpy.from_dlpack(Capsule(x.__dlpack__(max_version=(1, 0)))).flags.writeable


def test_copy_argument_of_from_dlpack_and_dlpack():
    a = numpy.arange(4.0)
    assert numpy.shares_memory(numpy.asarray(arraystack.from_dlpack(a, copy=False)), a)
    assert numpy.shares_memory(numpy.asarray(arraystack.from_dlpack(a, copy=None)), a)
    copied = arraystack.from_dlpack(a, copy=True)
    copied[0] = 7.0
    assert a[0] == 0.0 and copied.flags.writeable
    x = arraystack.asarray(a)
    fresh = numpy.from_dlpack(Capsule(x.__dlpack__(max_version=(1, 0), copy=True)))
    assert not numpy.shares_memory(fresh, a)
    numpy.testing.assert_array_equal(fresh, a)
    with pytest.raises(BufferError, match="copy=False"):
        arraystack.from_dlpack(
            Capsule(None, device=(2, 0)), copy=False
        )  # CUDA memory, no CUDA device


def test_dlpack_device_stream_and_dl_device():
    x = arraystack.arange(3.0)
    assert x.__dlpack_device__() == (1, 0) == numpy.arange(3.0).__dlpack_device__()
    assert numpy.from_dlpack(Capsule(x.__dlpack__(dl_device=(1, 0)))).shape == (3,)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0))  # no CUDA copy of host memory from the exporter
    with pytest.raises(RuntimeError, match="stream=None"):
        x.__dlpack__(stream=1)  # the CPU has no streams; NumPy's error
    with pytest.raises(AttributeError):
        arraystack.from_dlpack([1.0, 2.0])  # NumPy's error for an object without __dlpack__


# -- jax -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "float16", "float32", "complex64"])
def test_jax_both_ways(dtype):
    jax = pytest.importorskip("jax", reason="jax is not installed (it is in the test extras)")
    j = jax.numpy.asarray(values(5, dtype))
    x = arraystack.from_dlpack(j, copy=False)  # jax's host buffer, shared
    assert x.dtype == numpy.dtype(dtype)
    assert numpy.asarray(x).ctypes.data == j.unsafe_buffer_pointer()
    numpy.testing.assert_array_equal(numpy.asarray(x), numpy.asarray(j))
    back = jax.numpy.from_dlpack(arraystack.asarray(values(5, dtype)))
    assert back.dtype == numpy.dtype(dtype)
    numpy.testing.assert_array_equal(numpy.asarray(back), values(5, dtype))


def test_jax_zero_d_strided_and_errors():
    jax = pytest.importorskip("jax", reason="jax is not installed (it is in the test extras)")
    assert float(jax.numpy.from_dlpack(arraystack.asarray(2.0))) == 2.0
    assert float(arraystack.from_dlpack(jax.numpy.asarray(3.0))) == 3.0
    transposed = jax.numpy.from_dlpack(arraystack.arange(6.0).reshape(2, 3).T)
    numpy.testing.assert_array_equal(numpy.asarray(transposed), numpy.arange(6.0).reshape(2, 3).T)
    with pytest.raises(Exception, match="striding"):
        jax.numpy.from_dlpack(arraystack.arange(6.0)[::2])  # jax takes compact buffers only


# -- torch ---------------------------------------------------------------------------------------------------
TORCH_DTYPES = [
    "bool",
    "int8",
    "uint16",
    "int64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]


@needs_torch
@pytest.mark.parametrize("dtype", TORCH_DTYPES)
def test_torch_shares_memory_both_ways(dtype):
    import torch

    t = torch.from_numpy(values(6, dtype))
    x = arraystack.from_dlpack(t, copy=False)
    assert x.dtype == numpy.dtype(dtype)
    x[0] = 1
    assert bool(t[0] == 1)  # torch sees arraystack's write
    back = torch.from_dlpack(x)
    back[1] = 0
    assert x[1] == 0  # arraystack sees torch's write
    assert back.data_ptr() == t.data_ptr()


@needs_torch
def test_torch_views_zero_d_and_errors():
    import torch

    t = torch.arange(12.0).reshape(3, 4)
    # torch has no negative strides (flip copies), and torch 2.13 aborts the process on importing a capsule
    # with one, so arraystack's reversed views are not given to torch
    for view in (t[:, ::2], t.T, t[1:, 2], t[1, 2]):
        x = arraystack.from_dlpack(view)
        numpy.testing.assert_array_equal(numpy.asarray(x), view.numpy())
        assert numpy.shares_memory(numpy.asarray(x), t.numpy())
    strided = torch.from_dlpack(arraystack.from_dlpack(t)[:, 1::2])
    assert strided.stride() == (4, 2)
    numpy.testing.assert_array_equal(strided.numpy(), t.numpy()[:, 1::2])
    assert torch.from_dlpack(arraystack.asarray(2.0)).shape == ()
    with pytest.raises(BufferError, match="gradient"):
        arraystack.from_dlpack(torch.ones(2, requires_grad=True))  # torch's refusal, unchanged
    with pytest.raises((BufferError, RuntimeError, TypeError)):
        arraystack.from_dlpack(torch.ones(2, dtype=torch.bfloat16))  # no bfloat16 in NumPy
