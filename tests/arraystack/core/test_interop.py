"""NumPy's dispatch protocol, the NumPy fallback, DLPack and the Array API namespace."""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir import ShapedArray
from arraystack.ir.core import ConcretizationError, TracerError

import arraystack
from arraystack._core import interop as _interop
from tests.conftest import run_on_tracer

AVAL = ShapedArray((3,), numpy.dtype("float64"))


def _traced(fn, aval=AVAL):
    return run_on_tracer(fn, aval)


@numpy._core.overrides.array_function_dispatch(
    lambda x, window_shape, axis=None: (x,), module="numpy.absent_submodule"
)
def windows(x, window_shape, axis=None):
    """A NumPy function of a submodule arraystack does not have (NumPy's sliding_window_view)."""
    return numpy.lib.stride_tricks.sliding_window_view(numpy.asarray(x), window_shape, axis)


def test_numpy_functions_return_arraystack_arrays():
    a, b = arraystack.ones((2, 3)), arraystack.zeros((1, 3))
    out = numpy.concatenate([a, b])
    assert type(out) is arraystack.ndarray
    numpy.testing.assert_array_equal(
        numpy.asarray(out), numpy.concatenate([numpy.ones((2, 3)), numpy.zeros((1, 3))])
    )
    assert type(numpy.reshape(a, (3, 2))) is arraystack.ndarray
    assert type(numpy.sum(a)) is arraystack.ndarray
    assert numpy.result_type(a, 1.0) == numpy.float64


def test_like_argument_creates_arraystack_arrays():
    ref = arraystack.ones(1)
    for out in (
        numpy.arange(3, like=ref),
        numpy.zeros(3, like=ref),
        numpy.asarray([1, 2], like=ref),
    ):
        assert type(out) is arraystack.ndarray
    numpy.testing.assert_array_equal(numpy.asarray(numpy.arange(3, like=ref)), numpy.arange(3))


def test_dispatch_goes_to_arraystack_functions(monkeypatch):
    calls = []
    original = arraystack.concatenate

    def spy(*args, **kwargs):
        calls.append(kwargs)
        return original(*args, **kwargs)

    monkeypatch.setattr(arraystack, "concatenate", spy)
    monkeypatch.setattr(_interop, "_resolved", {})
    numpy.concatenate([arraystack.ones(2), numpy.ones(2)], axis=0)
    assert calls == [{"axis": 0}]


def test_dispatch_traces():
    shape = _traced(lambda x: numpy.concatenate([x, x]).shape)
    assert shape == (6,)
    out = _traced(lambda x: numpy.reshape(x, (3, 1)))
    assert isinstance(out, arraystack.ndarray) and out.shape == (3, 1)


def test_submodules_resolve_by_path():
    assert _interop.resolve(numpy.concatenate) is arraystack.concatenate
    linalg = getattr(arraystack, "linalg", None)
    expected = getattr(linalg, "norm", None) if linalg is not None else None
    assert _interop.resolve(numpy.linalg.norm) is expected
    # NumPy functions from private or absent submodules fall back to NumPy
    assert _interop.resolve(windows) is None
    assert _interop.resolve(numpy.lib.stride_tricks.sliding_window_view) is (
        arraystack.lib.stride_tricks.sliding_window_view
    )


def test_fallback_runs_numpy_and_wraps():
    a = numpy.array([[3.0, 1.0], [2.0, 5.0], [4.0, 0.0]])
    x = arraystack.asarray(a)
    fn = windows
    assert _interop.resolve(fn) is None
    out = fn(x, 2, axis=0)
    assert type(out) is arraystack.ndarray
    numpy.testing.assert_array_equal(numpy.asarray(out), fn(a, 2, axis=0))
    assert numpy.shares_memory(numpy.asarray(out), a)  # NumPy's view of the same buffer


def test_fallback_results_of_several_kinds():
    x = arraystack.asarray(numpy.array([3.0, 1.0, 2.0]))
    assert numpy.array_equal(x, x) is True  # Python scalars pass through
    assert numpy.shape(x) == (3,)
    assert numpy.ndim(x) == 1
    s = numpy.array2string(x)
    assert s == numpy.array2string(numpy.array([3.0, 1.0, 2.0]))
    hist, edges = numpy.histogram(x, bins=2)
    assert type(hist) is arraystack.ndarray and type(edges) is arraystack.ndarray
    assert numpy.asarray(hist).tolist() == [1, 2]


def test_fallback_numpy_scalars_become_0d_arrays():
    out = _interop.call_numpy(windows, (arraystack.ones(3), 2), {})
    assert type(out) is arraystack.ndarray
    med = _interop.call_numpy(numpy.median, (arraystack.asarray(numpy.array([1.0, 5.0, 2.0])),), {})
    assert type(med) is arraystack.ndarray and med.shape == () and float(med) == 2.0


def test_fallback_writes_land_in_arguments():
    a = numpy.zeros((3, 3))
    x = arraystack.asarray(a)
    assert numpy.fill_diagonal(x, 7.0) is None
    assert numpy.asarray(x).trace() == 21.0
    target = arraystack.zeros(3)
    numpy.copyto(target, arraystack.ones(3))
    assert numpy.asarray(target).tolist() == [1.0, 1.0, 1.0]


def test_fallback_returns_the_out_argument():
    x = arraystack.asarray(numpy.array([1.0, 4.0]))
    out = arraystack.zeros(())
    result = _interop.call_numpy(numpy.median, (x,), {"out": out})
    assert result is out
    assert float(out) == 2.5


def test_fallback_object_results_are_arraystack_arrays():
    x = arraystack.asarray(numpy.array(["a b", "c"]))
    out = _interop.call_numpy(numpy.char.split, (x,), {})  # an object array of lists
    assert isinstance(out, arraystack.ndarray) and out.dtype == object
    assert out.tolist() == [["a", "b"], ["c"]]


def test_fallback_unsupported_dtype_results_stay_numpy():
    out = _interop.call_numpy(numpy.ones, (2, numpy.longdouble), {})
    assert type(out) is numpy.ndarray and out.dtype == numpy.longdouble


def test_fallback_host_dtype_results_are_arraystack_arrays():
    x = arraystack.asarray(numpy.array([1.0, 2.0]))
    out = _interop.call_numpy(numpy.char.mod, ("%.1f", x), {})
    assert isinstance(out, arraystack.ndarray) and out.dtype.kind == "U"


def test_fallback_refuses_traced_values():
    with pytest.raises(ConcretizationError) as info:
        _traced(lambda x: windows(x, 2))
    message = str(info.value)
    assert "numpy.absent_submodule.windows" in message
    assert "not supported under tracing" in message
    assert isinstance(info.value, TracerError) and isinstance(info.value, TypeError)
    with pytest.raises(ConcretizationError, match="numpy.median"):
        _traced(lambda x: _interop.call_numpy(numpy.median, ([x],), {}))


def test_foreign_array_types_are_deferred_to():
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return "other"

    assert _interop.array_function(numpy.concatenate, (arraystack.ndarray, Other), (), {}) is (
        NotImplemented
    )
    assert numpy.concatenate([arraystack.ones(2), Other()]) == "other"


def test_asarray_is_zero_copy():
    a = numpy.arange(4.0)
    x = arraystack.asarray(a)
    assert x.__array__() is a
    assert numpy.asarray(x).ctypes.data == a.ctypes.data  # a view of the buffer (buffer protocol)
    view = numpy.asarray(x[1:])
    view[0] = 10.0
    assert a[1] == 10.0


def test_array_namespace():
    x = arraystack.ones(2)
    assert x.__array_namespace__() is arraystack
    for version in ("2021.12", "2022.12", "2023.12", "2024.12"):
        assert x.__array_namespace__(api_version=version) is arraystack
    with pytest.raises(ValueError) as actual:
        x.__array_namespace__(api_version="2020.10")
    with pytest.raises(ValueError) as expected:
        numpy.ones(2).__array_namespace__(api_version="2020.10")
    assert str(actual.value) == str(expected.value)
    assert _traced(lambda t: t.__array_namespace__()) is arraystack


# -- DLPack ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "float32", "complex128"])
def test_dlpack_round_trip_with_numpy(dtype):
    a = numpy.arange(6).reshape(2, 3).astype(dtype)
    x = arraystack.from_dlpack(a)
    assert type(x) is arraystack.ndarray
    assert x.dtype == a.dtype and x.shape == a.shape
    assert numpy.shares_memory(numpy.asarray(x), a)
    back = numpy.from_dlpack(x)
    assert type(back) is numpy.ndarray
    assert numpy.shares_memory(back, a)
    numpy.testing.assert_array_equal(back, a)


def test_dlpack_non_contiguous_and_device():
    a = numpy.arange(12.0).reshape(3, 4)[:, ::2]
    x = arraystack.asarray(a)
    assert x.__dlpack_device__() == (1, 0) == a.__dlpack_device__()
    back = numpy.from_dlpack(x)
    numpy.testing.assert_array_equal(back, a)
    assert back.strides == a.strides


def test_from_dlpack_copy_and_device_arguments():
    a = numpy.arange(3.0)
    copied = arraystack.from_dlpack(a, copy=True)
    assert not numpy.shares_memory(numpy.asarray(copied), a)
    same = arraystack.from_dlpack(arraystack.asarray(a), device="cpu")
    assert numpy.shares_memory(numpy.asarray(same), a)
    assert arraystack.from_dlpack(a, device=arraystack.ones(1).device).shape == (3,)
    with pytest.raises(ValueError):
        arraystack.from_dlpack(a, device="cuda:0")
    with pytest.raises(AttributeError):
        arraystack.from_dlpack([1, 2, 3])


def test_from_dlpack_foreign_device_needs_copy():
    class OnGpu:
        def __dlpack_device__(self):
            return (2, 0)

        def __dlpack__(self, **kwargs):
            raise BufferError("no GPU here")

    with pytest.raises(BufferError, match="copy=False"):
        arraystack.from_dlpack(OnGpu(), copy=False)
    with pytest.raises(BufferError):
        arraystack.from_dlpack(OnGpu())


def test_dlpack_of_traced_value_raises():
    with pytest.raises(ConcretizationError, match="__dlpack__"):
        _traced(lambda x: x.__dlpack__())
    with pytest.raises(ConcretizationError):
        _traced(numpy.from_dlpack)


def test_the_array_interface_is_the_host_buffers():
    """`__array_interface__` and `.data` (what PIL's Image.fromarray and other consumers read) is the NumPy
    buffer's, memory shared; dtypes NumPy does not define itself (bfloat16), device arrays and traced
    values have none, and numpy.asarray takes `__array__` there."""
    from arraystack.ir.avals import bfloat16

    host = numpy.arange(12, dtype=numpy.uint8).reshape(3, 4)
    x = arraystack.asarray(host)
    assert x.__array_interface__ == x._value.__array_interface__
    assert x.T.__array_interface__["strides"] == host.T.__array_interface__["strides"]
    assert x.sum().__array_interface__["typestr"] == host.sum().__array_interface__["typestr"]
    assert numpy.shares_memory(numpy.asarray(x), x._value)
    for got, want in [(x.data, host.data), (x.T.data, host.T.data), (x.sum().data, host.sum().data)]:
        assert (got.tobytes(), got.format, got.shape) == (want.tobytes(), want.format, want.shape)
    b = arraystack.asarray(numpy.ones(2, bfloat16))
    assert not hasattr(b, "__array_interface__") and numpy.asarray(b).dtype == bfloat16

    def traced(a):
        assert not hasattr(a, "__array_interface__")
        return a + 1

    arraystack.jit(traced)(host)
    image = pytest.importorskip("PIL.Image")
    numpy.testing.assert_array_equal(numpy.asarray(image.fromarray(x)), host)
