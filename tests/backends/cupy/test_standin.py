"""The stand-in for cupy (backends/cupy/standin.py): what it offers behaves as cupy's does, and where cupy has
gaps it has the same ones. NumPy is the oracle for the values."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import numpy as np
import pytest
from arraystack.backends.cupy import standin as standin_module
from arraystack.backends.cupy.standin_dlpack import KDLCUDA, capsule_device


def test_numpy_asarray_refuses_a_device_array_as_cupy_does(standin):
    x = standin.arange(6.0)
    with pytest.raises(
        TypeError, match=r"Implicit conversion to a NumPy array is not allowed.*\.get\(\)"
    ):
        np.asarray(x)
    assert not isinstance(x, np.ndarray)
    np.testing.assert_array_equal(x.get(), np.arange(6.0))
    np.testing.assert_array_equal(standin.asnumpy(x), np.arange(6.0))


def test_functions_compute_numpy_values_on_device_arrays(standin):
    a = np.linspace(-2, 2, 12).reshape(3, 4)
    x = standin.asarray(a)
    for name, expected, got in [
        ("sin", np.sin(a), standin.sin(x)),
        ("add", a + 1.5, standin.add(x, 1.5)),
        ("sum", np.sum(a, axis=0), standin.sum(x, axis=0)),
        ("matmul", a @ a.T, x @ x.T),
        ("where", np.where(a > 0, a, 0.0), standin.where(x > 0, x, 0.0)),
    ]:
        assert isinstance(got, standin.ndarray), name
        np.testing.assert_array_equal(got.get(), expected, err_msg=name)
    total = standin.sum(x)  # cupy's reductions give 0-d arrays, not scalars
    assert isinstance(total, standin.ndarray) and total.shape == ()


def test_host_arrays_are_refused_as_operands(standin):
    x = standin.ones(3)
    with pytest.raises(TypeError, match="Unsupported type <class 'numpy.ndarray'>"):
        standin.add(x, np.ones(3))
    with pytest.raises(TypeError, match="Unsupported type"):
        x + np.ones(3)


def test_only_names_of_cupy_are_offered(standin):
    names = {n for n in vars(standin) if not n.startswith("_")}
    assert names - {"cuda", "linalg", "fft"} <= set(standin_module.CUPY_NAMES)
    assert not hasattr(standin, "errstate")  # cupy has none
    assert hasattr(standin, "RawModule") and hasattr(standin.cuda, "Stream")


def test_cupy_gaps_are_kept(standin):
    x = standin.arange(6.0).reshape(2, 3)
    with pytest.raises(NotImplementedError, match="cupy_maximum.accumulate"):
        standin.maximum.accumulate(x, axis=1)
    with pytest.raises(NotImplementedError, match="cupy_multiply.at"):
        standin.multiply.at(x, (0,), 2.0)
    with pytest.raises(ValueError, match="kind can only be None or 'stable'"):
        standin.sort(x, kind="quicksort")
    with pytest.raises(NotImplementedError, match="rank of three"):
        standin.lexsort(standin.zeros((2, 2, 2)))
    standin.add.at(x, (0,), 1.0)  # the scatter cupy has
    np.testing.assert_array_equal(x.get(), [[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]])


def test_views_share_memory_and_results_are_new(standin):
    x = standin.arange(6.0)
    view = x.reshape(2, 3)
    view[0, 0] = 42.0
    assert float(x[0]) == 42.0 and view.base is x
    assert (x + 0).base is None


def test_memory_pool_counts_limits_and_caches_blocks(standin):
    pool = standin.get_default_memory_pool()
    gc.collect()  # arrays of earlier tests give their blocks back first
    pool.free_all_blocks()
    start = pool.used_bytes()
    x = standin.zeros(1000)  # 8000 bytes: 8192 in 512-byte units
    assert pool.used_bytes() - start == 8192
    del x
    gc.collect()
    assert pool.used_bytes() == start and pool.free_bytes() == 8192
    y = standin.zeros(1000)  # the cached block is reused
    assert pool.free_bytes() == 0
    pool.set_limit(size=pool.total_bytes() + 4096)
    with pytest.raises(
        standin.cuda.memory.OutOfMemoryError, match=r"Out of memory allocating 8,192 bytes"
    ):
        standin.zeros(1000)
    assert isinstance(standin.cuda.memory.OutOfMemoryError(1, 2, 3), MemoryError)
    pool.set_limit(None)
    del y


def test_devices_streams_and_runtime_queries(standin):
    assert standin.cuda.runtime.getDeviceCount() == 2
    props = standin.cuda.runtime.getDeviceProperties(1)
    assert props["totalGlobalMem"] > 0 and props["multiProcessorCount"] > 0
    with standin.cuda.Device(1):
        x = standin.ones(3)
        with standin.cuda.Stream() as stream:
            y = x * 2
        stream.synchronize()
    assert x.device.id == 1 and y.device.id == 1 and standin.ones(1).device.id == 0
    with pytest.raises(standin.cuda.runtime.CUDARuntimeError, match="invalid device ordinal"):
        standin.cuda.Device(2)
    with pytest.raises(
        ValueError, match=r"resides \(1\) is different from the current device \(0\)"
    ):
        x + 1


def test_cuda_array_interface_is_shared_memory(standin):
    x = standin.arange(6.0).reshape(2, 3)
    interface = x.__cuda_array_interface__
    assert (
        interface["shape"] == (2, 3) and interface["typestr"] == "<f8" and interface["version"] == 3
    )
    assert interface["strides"] is None and interface["data"][1] is False

    class Producer:
        __cuda_array_interface__ = interface

    y = standin.asarray(Producer())
    y[1, 1] = -1.0
    assert float(x[1, 1]) == -1.0


def test_dlpack_exports_kdlcuda_and_imports_sharing_memory(standin):
    x = standin.arange(4.0)
    assert x.__dlpack_device__() == (KDLCUDA, 0)
    assert capsule_device(x.__dlpack__()) == (KDLCUDA, 0)
    assert capsule_device(x.__dlpack__(max_version=(1, 0))) == (KDLCUDA, 0)

    class Producer:  # another library's CUDA tensor over the same memory
        def __dlpack__(self, **kwargs):
            return x.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return x.__dlpack_device__()

    y = standin.from_dlpack(Producer())
    y[0] = 7.0
    assert float(x[0]) == 7.0
    with pytest.raises(BufferError):
        standin.from_dlpack(np.arange(3.0))  # host memory: cupy copies only through asarray
    with pytest.raises((BufferError, RuntimeError, TypeError)):
        np.from_dlpack(x)  # NumPy cannot read CUDA memory


def test_raw_module_launches_run_on_the_cpu_harness(standin):
    source = r"""
    extern "C" __global__ void axpy(const double* x, double* y, double a, long long n) {
        long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = a * x[i] + y[i];
    }
    """
    kernel = standin.RawModule(code=source, options=("-std=c++17",)).get_function("axpy")
    x, y = standin.arange(100.0), standin.ones(100)
    kernel((4,), (32,), (x, y, np.float64(2.0), np.int64(100)))
    np.testing.assert_array_equal(y.get(), 2.0 * np.arange(100.0) + 1.0)


def test_install_uninstall_and_the_environment_variable():
    from arraystack.backends.cupy import arrays

    standin_module.install(devices=3)
    try:
        assert arrays.cupy_module() is standin_module.module
        assert arrays.CupyArrays().count() == 3
    finally:
        standin_module.uninstall()
    assert arrays.cupy_module() is not standin_module.module
    code = "import arraystack as ast; print([d.key for d in ast.devices()])"
    env = dict(os.environ, ARRAYSTACK_CUDA_STANDIN="2")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr
    assert "'cuda:0', 'cuda:1'" in out.stdout
