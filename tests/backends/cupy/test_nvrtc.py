"""NVRTC through ctypes (backends/cupy/nvrtc.py) and the cache of its cubins (kernel_cache.py)."""

from __future__ import annotations

import os

import pytest
from arraystack.backends.cupy import kernel_cache, nvrtc

pytestmark = pytest.mark.skipif(not nvrtc.available(), reason="NVRTC is not installed")

AXPY = r"""
extern "C" __global__ void axpy(float a, const float* x, float* y, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_compiles_a_cubin_with_resource_figures(arch):
    result = nvrtc.compile(AXPY, ["axpy"], arch=arch)
    assert result.cubin[:4] == b"\x7fELF"
    assert result.lowered_names == {"axpy": "axpy"}
    assert result.resources["axpy"]["registers"] > 0
    assert result.spills == 0
    assert f"for '{arch}'" in result.log


def test_errors_carry_the_log_and_the_source_line():
    with pytest.raises(nvrtc.NvrtcError) as info:
        nvrtc.compile('extern "C" __global__ void k(float* x) {\n    x[0] = undefined_name;\n}\n')
    text = str(info.value)
    assert "undefined_name" in text and "(2)" in text
    assert "    2 |     x[0] = undefined_name;" in text


def test_spills_are_read_from_ptxas():
    log = (
        "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
        "ptxas         .     8 bytes stack frame, 16 bytes spill stores, 12 bytes spill loads\n"
        "ptxas info    : Used 32 registers, used 0 barriers\n"
    )
    assert nvrtc.resources(log) == {
        "k": {"registers": 32, "stack": 8, "spill_stores": 16, "spill_loads": 12}
    }
    source = AXPY.replace(
        "if (i < n) y[i] = a * x[i] + y[i];",
        "if (i >= n) return; float t[64]; for (int k = 0; k < 64; ++k) t[k] = x[(i + k) % n] * a;"
        " for (int k = 0; k < 64; ++k) y[i] += t[63 - k] * t[k];",
    )
    squeezed = nvrtc.compile(source, ["axpy"], options=["--maxrregcount=16"])
    assert squeezed.spills > 0 or squeezed.resources["axpy"]["stack"] > 0


def test_cache_serves_memory_then_disk_and_rebuilds_a_corrupt_entry(tmp_path):
    cache = kernel_cache.KernelCache("cubin", str(tmp_path), ".cubin")
    key = kernel_cache.key_of(AXPY, "sm_80")
    builds = []

    def build():
        builds.append(1)
        return nvrtc.compile(AXPY, ["axpy"]).cubin

    first = cache.get(key, build)
    assert cache.get(key, build) == first and cache.stats["memory"] == 1
    fresh = kernel_cache.KernelCache("cubin", str(tmp_path), ".cubin")
    assert fresh.get(key, build) == first and fresh.stats["disk"] == 1 and len(builds) == 1
    with open(cache.path(key), "r+b") as f:  # damage the entry on disk
        f.seek(len(first) // 2)
        f.write(b"\0garbage\0")
    damaged = kernel_cache.KernelCache("cubin", str(tmp_path), ".cubin")
    assert damaged.get(key, build) == first
    assert damaged.stats["corrupt"] == 1 and len(builds) == 2
    with open(cache.path(key), "rb") as f:
        assert f.read() == first  # rewritten
    os.remove(cache.path(key) + ".sha256")  # a missing digest is a miss, not an error
    assert kernel_cache.KernelCache("cubin", str(tmp_path)).path(key).endswith(".bin")


def test_compile_cached_keys_by_architecture(tmp_path):
    a = kernel_cache.compile_cached(AXPY, ["axpy"], "sm_80", cache_dir=str(tmp_path))
    b = kernel_cache.compile_cached(AXPY, ["axpy"], "sm_90", cache_dir=str(tmp_path))
    again = kernel_cache.compile_cached(AXPY, ["axpy"], "sm_80", cache_dir=str(tmp_path))
    assert a.cubin != b.cubin and again.cubin == a.cubin and again.resources == a.resources
    assert len([n for n in os.listdir(tmp_path / "cuda-cubin") if n.endswith(".cubin")]) == 2
