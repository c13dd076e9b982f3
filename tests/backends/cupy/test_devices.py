"""Devices and arrays with CUDA devices (issue 25, item 1), on the stand-in for cupy: arraystack.devices(),
x.device, to_device, device= on the creation functions, the default device, mixed devices, numpy.asarray,
__cuda_array_interface__ and DLPack. NumPy is the oracle for the values; the `gpu` tests run the same checks
on real cupy."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from arraystack.backends.cupy import arrays as cupy_arrays

import arraystack as ast


def host(x):
    """The values of an arraystack array on any device, copied to a NumPy array explicitly."""
    return np.asarray(x.to_device("cpu"))


def test_devices_lists_the_cuda_devices(standin):
    keys = [d.key for d in ast.devices()]
    assert keys[:3] == ["cpu", "cuda:0", "cuda:1"]
    assert ast.devices()["cuda:1"].backend == "cupy"
    assert ast.__array_namespace_info__().devices() == ["cpu", "cuda:0", "cuda:1"]


def test_a_copy_in_an_order_on_a_device_is_in_that_order(standin):
    """x.copy() is C-ordered and copy(x, order="F") Fortran-ordered on a device as on the host (cupy's
    own copy keeps x's order), on the array's device: fuzz 440041, where a reshape of a transposed
    copy then viewed where NumPy copies."""
    x = ast.asarray(np.arange(6.0).reshape(2, 3), device="cuda:1").T
    c, f = x.copy(), ast.copy(x, order="F")
    assert c._value.flags.c_contiguous and f._value.flags.f_contiguous
    assert c.device == f.device == x.device
    host = np.arange(6.0).reshape(2, 3).T
    np.testing.assert_array_equal(np.asarray(c.to_device("cpu")), host)
    np.testing.assert_array_equal(np.asarray(f.to_device("cpu")), host)


def test_without_cupy_or_a_device_only_the_cpu_is_there():
    if importlib.util.find_spec("cupy") is not None:
        pytest.skip("cupy is installed here")
    assert [d.key for d in ast.devices()] == ["cpu"]
    with pytest.raises(
        ValueError,
        match=r"cupy is not installed: pip install cupy-cuda12x \(CUDA 12\) or "
        r"cupy-cuda13x \(CUDA 13\)",
    ):
        ast.zeros(3, device="cuda")
    with pytest.raises(ValueError, match="cupy is not installed"):
        ast.asarray([1.0]).to_device("cuda:0")


def test_cupy_without_a_driver_or_a_device_says_which(monkeypatch):
    monkeypatch.setattr(cupy_arrays, "_found", {})
    monkeypatch.setattr(cupy_arrays.importlib.util, "find_spec", lambda name: object())
    monkeypatch.setattr(cupy_arrays, "_driver_device_count", lambda: "no NVIDIA driver was found")
    assert cupy_arrays.missing() == "cupy is installed, but no NVIDIA driver was found"
    monkeypatch.setattr(cupy_arrays, "_found", {})
    monkeypatch.setattr(cupy_arrays, "_driver_device_count", lambda: 0)
    assert "the CUDA driver reports no device" in cupy_arrays.missing()


def test_asarray_to_device_and_back(standin):
    a = np.arange(12.0).reshape(3, 4)
    x = ast.asarray(a, device="cuda")
    assert x.device == "cuda:0" and isinstance(x._value, standin.ndarray)
    assert ast.asarray(x) is x and x.to_device("cuda:0") is x
    y = x.to_device("cuda:1")
    assert y.device == "cuda:1" and str(y.device) == "cuda:1"
    back = y.to_device("cpu")
    assert back.device == "cpu"
    np.testing.assert_array_equal(np.asarray(back), a)
    assert ast.asarray(y, device="cuda:0").device == "cuda:0"
    assert ast.asarray(x, dtype=np.float32).dtype == np.float32


CREATIONS = [
    ("zeros", lambda xp, **d: xp.zeros((2, 3), dtype=np.float32, **d)),
    ("ones", lambda xp, **d: xp.ones(4, **d)),
    ("full", lambda xp, **d: xp.full((2, 2), -1.5, **d)),
    ("empty", lambda xp, **d: xp.empty((0, 3), **d)),
    ("arange", lambda xp, **d: xp.arange(2, 11, 3, **d)),
    ("arange_float", lambda xp, **d: xp.arange(0.5, 2.0, 0.25, dtype=np.float32, **d)),
    ("linspace", lambda xp, **d: xp.linspace(-1.0, 1.0, 7, **d)),
    ("eye", lambda xp, **d: xp.eye(3, 4, k=1, dtype=np.int32, **d)),
    ("asarray", lambda xp, **d: xp.asarray([[1, 2], [3, 4]], dtype=np.int16, **d)),
]


@pytest.mark.parametrize("name, create", CREATIONS, ids=[c[0] for c in CREATIONS])
def test_creation_functions_create_on_the_device(standin, name, create):
    expected = create(np)
    x = create(ast, device="cuda:1")
    assert x.device == "cuda:1", name
    got = host(x)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("name", ["zeros_like", "ones_like", "empty_like"])
def test_like_functions_follow_their_argument_or_device(standin, name):
    x = ast.asarray(np.arange(6.0, dtype=np.float32).reshape(2, 3), device="cuda:1")
    same = getattr(ast, name)(x)
    assert same.device == "cuda:1" and same.dtype == np.float32 and same.shape == (2, 3)
    like = "zeros_like" if name == "empty_like" else name  # arraystack zero-fills empty arrays
    np.testing.assert_array_equal(host(same), getattr(np, like)(np.zeros((2, 3), np.float32)))
    assert getattr(ast, name)(x, device="cpu").device == "cpu"
    filled = ast.full_like(x, 3.0)
    assert filled.device == "cuda:1"
    np.testing.assert_array_equal(host(filled), np.full((2, 3), 3.0, np.float32))


def test_device_put_places_a_pytree(standin):
    tree = {"w": np.ones((2, 2)), "b": [ast.zeros(2), 3.0]}
    placed = ast.device_put(tree, "cuda:1")
    assert [leaf.device for leaf in (placed["w"], *placed["b"])] == ["cuda:1"] * 3
    np.testing.assert_array_equal(host(placed["w"]), np.ones((2, 2)))
    assert ast.device_put(placed["w"], "cuda:1") is placed["w"]
    with ast.default_device("cuda:0"):
        assert ast.device_put(np.arange(3)).device == "cuda:0"


def test_default_device_context_and_config(standin):
    cpu_array = ast.ones(3)
    with ast.default_device("cuda:1"):
        assert ast.zeros(3).device == "cuda:1"
        assert ast.asarray([1.0, 2.0]).device == "cuda:1"
        assert ast.__array_namespace_info__().default_device() == "cuda:1"
        assert (cpu_array + 1).device == "cpu"  # computations stay with their operands
        assert ast.zeros(2, device="cpu").device == "cpu"
    assert ast.zeros(3).device == "cpu"
    try:
        ast.config.default_device = "cuda"
        assert ast.arange(4).device == "cuda:0"
        np.testing.assert_array_equal(host(ast.arange(4)), np.arange(4))
    finally:
        ast.config.default_device = None
    assert ast.arange(4).device == "cpu"


def test_operands_on_two_devices_raise_naming_both(standin):
    x = ast.asarray([1.0, 2.0], device="cuda:0")
    for other, name in [
        (ast.asarray([1.0, 2.0], device="cuda:1"), "cuda:1"),
        (ast.asarray([1.0, 2.0]), "cpu"),
        (np.ones(2), "cpu"),
    ]:
        with pytest.raises(ValueError, match=rf"two devices, cuda:0 and {name}.*to_device"):
            x + other
        with pytest.raises(ValueError, match="two devices"):
            ast.maximum(x, other)
    assert host(x + 1).tolist() == [2.0, 3.0]
    assert host(x * np.float32(2)).tolist() == [2.0, 4.0]  # NumPy scalars are fine


def test_numpy_asarray_of_a_cuda_array_raises_as_cupy_does(standin):
    x = ast.ones(3, device="cuda")
    with pytest.raises(TypeError, match=r"Implicit conversion to a NumPy array is not allowed"):
        np.asarray(x)
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), np.ones(3))


def test_cuda_array_interface_both_ways(standin):
    x = ast.arange(6.0, device="cuda")
    interface = x.__cuda_array_interface__
    assert interface["shape"] == (6,) and interface["typestr"] == "<f8"
    assert not hasattr(ast.arange(3.0), "__cuda_array_interface__")
    shared = standin.asarray(x)  # cupy reads it without a copy
    shared[0] = 5.0
    assert float(x[0]) == 5.0

    class Producer:  # another library's CUDA array (numba, torch)
        __cuda_array_interface__ = standin.arange(3.0).__cuda_array_interface__

    y = ast.asarray(Producer())
    assert y.device == "cuda:0"
    np.testing.assert_array_equal(host(y), np.arange(3.0))


def test_dlpack_both_ways(standin):
    x = ast.arange(4.0, device="cuda")
    assert x.__dlpack_device__() == (2, 0)
    y = ast.from_dlpack(standin.arange(4.0))
    assert y.device == "cuda:0"
    np.testing.assert_array_equal(host(y), np.arange(4.0))
    z = ast.from_dlpack(x)
    z_value = z._value
    z_value[0] = 9.0  # shared memory
    assert float(x[0]) == 9.0
    on_host = ast.from_dlpack(x, device="cpu")
    assert on_host.device == "cpu" and np.asarray(on_host)[0] == 9.0
    moved = ast.from_dlpack(np.arange(3.0), device="cuda:1")
    assert moved.device == "cuda:1"
    with pytest.raises(BufferError):
        ast.from_dlpack(x, device="cuda:1", copy=False)


@pytest.mark.gpu
def test_real_cupy_devices_and_arrays():
    cupy = cupy_arrays.cupy_module()

    assert ast.devices()["cuda:0"].kind == "cuda"
    x = ast.asarray(np.arange(12.0).reshape(3, 4), device="cuda")
    assert isinstance(x._value, cupy.ndarray) and x.device == "cuda:0"
    np.testing.assert_allclose(
        host(ast.sin(x) * 2 + 1), np.sin(np.arange(12.0).reshape(3, 4)) * 2 + 1
    )
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(x)
    with pytest.raises(ValueError, match="two devices"):
        x + ast.ones((3, 4))
    assert x.__dlpack_device__() == (2, 0)
    assert isinstance(ast.from_dlpack(cupy.arange(3.0))._value, cupy.ndarray)
    assert cupy.asarray(x).data.ptr == x.__cuda_array_interface__["data"][0]


def test_a_copy_between_cuda_devices_goes_device_to_device(standin, monkeypatch):
    """cuda:0 -> cuda:1 is the driver's peer copy on the source's stream, not a trip through NumPy."""

    def no_host(*args, **kwargs):
        raise AssertionError("copied through the host")

    rng = np.random.default_rng(0)
    hosts = [
        rng.standard_normal((6, 8)),
        (rng.standard_normal((5, 3)) + 1j).astype(np.complex64),
        np.arange(10, dtype=np.int16),
        np.zeros((0, 4), np.float32),
    ]
    moved = []
    for a in hosts:
        x = ast.asarray(a, device="cuda:0")
        moved.append((a, x, x[::-2] if a.ndim == 1 else x[1::2, ::-3]))
    monkeypatch.setattr(standin, "asnumpy", no_host)
    monkeypatch.setattr(cupy_arrays.CupyArrays, "to_host", no_host)
    results = []
    for a, x, view in moved:
        for value, want in ((x, a), (view, a[::-2] if a.ndim == 1 else a[1::2, ::-3])):
            y = value.to_device("cuda:1")
            assert y.device == "cuda:1" and y._value.device.id == 1
            results.append((y, want))
    monkeypatch.undo()
    for y, want in results:
        np.testing.assert_array_equal(np.asarray(y.to_device("cpu")), want, strict=True)


def test_host_data_and_numpys_streams_go_to_the_default_device(standin):
    """array() of host data and arraystack.random's draws land on the default device, as asarray's do;
    a draw with an operand on a device lands there; out= on a device is refused (the streams are
    NumPy's, on the host)."""
    with ast.default_device("cuda:1"):
        assert ast.array([1.0, 2.0]).device == "cuda:1"
        assert ast.array(np.arange(3)).device == "cuda:1"
        drawn = ast.random.default_rng(0).standard_normal(3)
        assert drawn.device == "cuda:1"
        np.testing.assert_array_equal(
            drawn.to_device("cpu"), np.random.default_rng(0).standard_normal(3)
        )
        assert ast.random.normal(size=2).device == "cuda:1"
    assert ast.array([1.0]).device == "cpu" and ast.random.default_rng(0).random(2).device == "cpu"
    loc = ast.asarray(np.array([0.0, 10.0]), device="cuda:0")
    assert ast.random.default_rng(0).normal(loc=loc).device == "cuda:0"
    with pytest.raises(ValueError, match="out= must be a CPU array"):
        ast.random.default_rng(0).standard_normal(2, out=ast.zeros(2, device="cuda:0"))


def test_block_until_ready_synchronizes_each_device_once(standin, monkeypatch):
    from arraystack.backends.cupy import standin_cuda

    synchronized = []
    monkeypatch.setattr(
        standin_cuda.Device, "synchronize", lambda self: synchronized.append(self.id)
    )
    tree = {
        "a": ast.ones(2, device="cuda:1"),
        "b": [ast.zeros(3, device="cuda:1"), ast.ones(1, device="cuda:0")],
        "host": np.ones(2),
        "n": 3,
    }
    assert ast.block_until_ready(tree) is tree
    assert sorted(synchronized) == [0, 1]
    x = tree["a"]
    assert x.block_until_ready() is x and synchronized[-1] == 1
