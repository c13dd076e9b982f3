"""DLPack on the GPU path, on the stand-in for cupy (kDLCUDA): the consumer's stream reaches the producer,
which synchronizes it (the stand-in records each request in `dlpack_syncs`), `dl_device=` and `copy=` of
`__dlpack__`, read-only buffers and the errors of `from_dlpack(copy=False)`."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.cupy import standin_array

import arraystack as ast


@pytest.fixture
def syncs(standin):
    """The stand-in's record of synchronized streams, empty at the start of the test."""
    standin_array.dlpack_syncs.clear()
    yield standin_array.dlpack_syncs
    standin_array.dlpack_syncs.clear()


def test_the_consumers_stream_is_synchronized(standin, syncs):
    x = ast.arange(4.0, device="cuda")
    x.__dlpack__(stream=None)
    x.__dlpack__(stream=2)
    x.__dlpack__(stream=-1)  # the consumer asks for no synchronization
    assert syncs == [(1, 0), (2, 0)]  # None is the legacy default stream (1)
    producer = standin.arange(3.0)
    with standin.cuda.Stream() as stream:
        y = ast.from_dlpack(_Producer(producer))  # cupy passes its current stream to the producer
    x.__dlpack__(stream=stream.ptr)  # from the null stream (0) to the consumer's
    assert syncs[2:] == [(stream.ptr, stream.ptr), (stream.ptr, 0)]
    assert y.device == "cuda:0"
    with pytest.raises(ValueError, match="ambiguous"):
        x.__dlpack__(stream=0)


def test_dl_device_and_copy_of_dlpack(standin, syncs):
    x = ast.arange(4.0, device="cuda")
    host = np.from_dlpack(_Capsule(x.__dlpack__(dl_device=(1, 0), max_version=(1, 0)), (1, 0)))
    np.testing.assert_array_equal(host, np.arange(4.0))
    host[0] = 9.0
    assert float(x[0]) == 0.0  # a copy to the host
    with pytest.raises(BufferError, match="copy=False"):
        x.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(3, 0))
    copied = standin.from_dlpack(_Capsule(x.__dlpack__(copy=True, max_version=(1, 0)), (2, 0)))
    copied[0] = 5.0
    assert float(x[0]) == 0.0
    shared = standin.from_dlpack(_Capsule(x.__dlpack__(max_version=(1, 0)), (2, 0)))
    shared[0] = 5.0
    assert float(x[0]) == 5.0


def test_from_dlpack_copy_semantics_on_the_device(standin):
    x = ast.arange(3.0, device="cuda")
    same = ast.from_dlpack(x, copy=False)
    same._value[0] = 4.0
    assert float(x[0]) == 4.0
    fresh = ast.from_dlpack(x, copy=True)
    fresh._value[1] = 4.0
    assert float(x[1]) == 1.0
    with pytest.raises(BufferError, match="copy"):
        ast.from_dlpack(x, device="cpu", copy=False)
    with pytest.raises(BufferError, match="copy"):
        ast.from_dlpack(np.arange(3.0), device="cuda:0", copy=False)


def test_read_only_device_buffers_export_only_versioned(standin):
    x = standin.arange(3.0)
    x._host.flags.writeable = False
    with pytest.raises(BufferError):
        x.__dlpack__()
    y = ast.from_dlpack(_Capsule(x.__dlpack__(max_version=(1, 0)), (2, 0)))
    assert y.device == "cuda:0"
    with pytest.raises(ValueError, match="read-only"):
        y[0] = 5.0  # the flag of the versioned capsule is kept
    assert float(x[0].get()) == 0.0


class _Capsule:
    def __init__(self, capsule, device):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


class _Producer:
    """Another library's CUDA array: the stand-in imports it through `__dlpack__`."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, **kwargs):
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()
