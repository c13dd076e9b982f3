"""The CUDA kernel tests on a real GPU: with ARRAYSTACK_TEST_KERNELS=gpu (and cupy with a device), every
`cpu_harness.load` of these tests (the generated kernels of cuda_check.py, the rows and loop tests, the
harness's own tests, the stand-in's launches) returns a kernel that runs the same source on the GPU
instead of the CPU harness, so the suite that proves the kernels on the CPU checks them on the device
against the same NumPy references:

    ARRAYSTACK_TEST_KERNELS=gpu python -m pytest tests/backends/cupy -p no:randomly

A kernel is called as the harness's (`kernel(grid, block, args, shared_mem)`, NumPy arrays changed in
place): each array argument is copied to the device with its strides and its address modulo 256 kept
(so alignment checks see what they would on the host), the kernel is compiled by the
backend's loader (backend.load_module: this package's NVRTC, a cubin) and launched, and each array whose bytes the kernel changed is copied back.
"""

from __future__ import annotations

import ctypes
import glob
import os
import sys

import numpy as np

ENV = "ARRAYSTACK_TEST_KERNELS"


def wanted() -> bool:
    return os.environ.get(ENV, "").lower() == "gpu"


def _span(a: np.ndarray) -> tuple[int, int]:
    """The first and one-past-last byte address the array's elements occupy."""
    start = end = a.__array_interface__["data"][0]
    for n, stride in zip(a.shape, a.strides):
        if n == 0:
            return start, start
        if stride < 0:
            start += (n - 1) * stride
        else:
            end += (n - 1) * stride
    return start, end + a.itemsize


class _OnDevice:
    """One host array's copy on the device (same strides, same address modulo 256)."""

    def __init__(self, cupy, a: np.ndarray):
        self.host = a
        self.start, end = _span(a)
        self.nbytes = end - self.start
        pad = self.start % 256
        self.memory = cupy.cuda.alloc(self.nbytes + 256)
        self.base = self.memory + pad
        if self.nbytes:
            self.base.copy_from_host(ctypes.c_void_p(self.start), self.nbytes)
        offset = a.__array_interface__["data"][0] - self.start
        self.array = cupy.ndarray(a.shape, a.dtype, memptr=self.base + offset, strides=a.strides)

    def copy_back(self) -> None:
        if not self.nbytes or not self.host.flags.writeable:
            return
        now = np.empty(self.nbytes, np.uint8)
        self.base.copy_to_host(now.ctypes.data_as(ctypes.c_void_p), self.nbytes)
        before = np.ctypeslib.as_array((ctypes.c_uint8 * self.nbytes).from_address(self.start))
        changed = now != before
        if changed.any():
            before[changed] = now[changed]


class DeviceKernel:
    """A kernel of CUDA C++ source run on the GPU, called as cpu_harness's CpuKernel."""

    def __init__(self, cupy, source: str, name: str):
        from arraystack.backends.cupy.backend import load_module

        options = ()
        if "__half" in source and "struct __half" not in source and "cuda_fp16.h" not in source:
            # a source using CUDA's __half (the harness's header defines it; generated kernels
            # define their own, numpy_ops.cuh) gets CUDA's header on the device
            source = "#include <cuda_fp16.h>\n" + source
            options = tuple(f"-I{d}" for d in _cuda_includes())
        self.cupy, self.name = cupy, name
        self.function = load_module(cupy, source, [name], options).get_function(name)

    def __call__(self, grid, block, args, shared_mem=0):
        cupy = self.cupy
        grid = tuple(grid) if isinstance(grid, (tuple, list)) else (int(grid),)
        block = tuple(block) if isinstance(block, (tuple, list)) else (int(block),)
        copies, passed = [], []
        for a in args:
            if isinstance(a, np.ndarray):
                copies.append(_OnDevice(cupy, a))
                passed.append(copies[-1].array)
            else:
                passed.append(a)
        self.function(grid, block, tuple(passed), shared_mem=int(shared_mem))
        cupy.cuda.Device().synchronize()
        for copy in copies:
            copy.copy_back()


def _cuda_includes() -> list:
    """Folders holding CUDA's cuda_fp16.h: the toolkit's, or the pip runtime wheel's."""
    found = []
    roots = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    folders = [os.path.join(r, "include") for r in roots if r]
    for entry in sys.path:
        folders += sorted(glob.glob(os.path.join(entry, "nvidia", "*", "include")))
    for folder in folders:
        if os.path.exists(os.path.join(folder, "cuda_fp16.h")) and folder not in found:
            found.append(folder)
    return found[:1]


def install() -> bool:
    """Route cpu_harness.load to the GPU when ARRAYSTACK_TEST_KERNELS=gpu; True when it did."""
    if not wanted():
        return False
    import cupy  # a missing cupy is an error here: the run asked for the GPU
    from arraystack.backends.cupy import cpu_harness

    if cupy.cuda.runtime.getDeviceCount() < 1:
        raise RuntimeError(f"{ENV}=gpu, but cupy sees no CUDA device")
    on_cpu = cpu_harness.load
    compiled: dict = {}

    def load(source: str, kernel_name: str, cache_dir: str | None = None):
        if kernel_name not in cpu_harness.kernel_names(source):
            return on_cpu(source, kernel_name, cache_dir)  # the harness's own error
        key = (source, kernel_name)
        if key not in compiled:
            compiled[key] = DeviceKernel(cupy, source, kernel_name)
        return compiled[key]

    cpu_harness.load = load
    return True
