"""The CPU harness (backends/cupy/harness/cuda_on_cpu.h, cpu_harness.py): CUDA's execution model on the CPU,
so a kernel's barriers, shuffles and votes behave as on a GPU, and misuse fails loudly."""

from __future__ import annotations

import pathlib
import subprocess

import numpy as np
import pytest
from arraystack.backends.cupy import cpu_harness

from tests.backends.cupy import on_device

SOURCE = r"""
extern "C" __global__ void block_sum(const float* x, float* out, long long n) {
    __shared__ float part[32];
    float acc = 0.0f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        acc += x[i];
    for (int d = 16; d > 0; d >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, d);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) part[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < blockDim.x / 32 ? part[lane] : 0.0f;
        for (int d = 16; d > 0; d >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, d);
        if (lane == 0) out[blockIdx.x] = acc;
    }
}

extern "C" __global__ void lanes(int* out) {
    int t = threadIdx.x;
    out[4 * t] = __shfl_xor_sync(0xffffffffu, t, 1);
    out[4 * t + 1] = __shfl_up_sync(0xffffffffu, t, 3);
    out[4 * t + 2] = __shfl_sync(0xffffffffu, t * 10, 5);
    out[4 * t + 3] = (int)__ballot_sync(0xffffffffu, t % 3 == 0) + __all_sync(0xffffffffu, t < 64);
}

extern "C" __global__ void divergent_barrier(float* out) {
    if (threadIdx.x < 5) __syncthreads();
    out[threadIdx.x] = 1.0f;
}

extern "C" __global__ void divergent_shuffle(float* out) {
    float v = threadIdx.x;
    if (threadIdx.x % 2) v = __shfl_down_sync(0xffffffffu, v, 1);
    out[threadIdx.x] = v;
}

extern "C" __global__ void early_return(float* out) {
    if (threadIdx.x == 3) return;
    __syncthreads();
    out[threadIdx.x] = 1.0f;
}

extern "C" __global__ void halves(const __half* x, __half* y, const float* f, __half* g, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = __float2half_rn(__half2float(x[i]));
        g[i] = __float2half_rn(f[i]);
    }
}

extern "C" __global__ void scalars(double* out, signed char a, unsigned short b, float c, double d,
                                   long long e) {
    out[0] = a; out[1] = b; out[2] = c; out[3] = d; out[4] = (double)e;
    out[5] = gridDim.x * 100 + blockDim.y * 10 + blockDim.z;
}
"""


def test_block_reduction_with_shuffles_and_shared_memory():
    kernel = cpu_harness.load(SOURCE, "block_sum")
    x = np.arange(10001, dtype=np.float32) % 7
    out = np.zeros(5, np.float32)
    kernel((5,), (128,), (x, out, np.int64(x.size)))
    assert out.sum() == x.sum()


def test_shuffles_and_votes_follow_cuda():
    out = np.zeros(64 * 4, np.int32)
    cpu_harness.load(SOURCE, "lanes")(1, 64, (out,))
    got = out.reshape(64, 4)
    t = np.arange(64)
    lane = t % 32
    np.testing.assert_array_equal(got[:, 0], t ^ 1)
    np.testing.assert_array_equal(got[:, 1], np.where(lane >= 3, t - 3, t))
    np.testing.assert_array_equal(got[:, 2], (t // 32 * 32 + 5) * 10)
    ballot = sum(1 << k for k in range(32) if k % 3 == 0)
    ballots = np.array([ballot, sum(1 << k for k in range(32) if (k + 32) % 3 == 0)])
    np.testing.assert_array_equal(got[:, 3], ballots[t // 32].astype(np.int32) + 1)


@pytest.mark.skipif(on_device.wanted(), reason="the harness's own checks; a GPU does not raise")
@pytest.mark.parametrize("name", ["divergent_barrier", "divergent_shuffle", "early_return"])
def test_misused_barriers_and_shuffles_fail_loudly(name):
    kernel = cpu_harness.load(SOURCE, name)
    out = np.zeros(64, np.float32)
    with pytest.raises(RuntimeError, match="divergent|deadlock"):
        kernel(1, 32, (out,))


@pytest.mark.skipif(
    on_device.wanted(),
    reason="CUDA's own __float2half_rn returns the canonical NaN, NumPy keeps the sign; generated "
    "kernels convert with numpy_ops.cuh's own",
)
def test_half_conversions_round_to_nearest_even_as_numpy():
    every = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    rng = np.random.default_rng(0)
    with np.errstate(invalid="ignore"):
        mid = (every.astype(np.float32)[:-1] + every.astype(np.float32)[1:]) / 2
    f = np.concatenate(
        [
            rng.standard_normal(30000).astype(np.float32)
            * np.float32(2.0) ** rng.integers(-30, 18, 30000),
            np.float32(
                [65504, 65519.99, 65520, 2**-24, 2**-25, 3 * 2**-26, 2**-26, np.inf, -0.0, np.nan]
            ),
            mid,  # midpoints between neighbouring halves: ties round to even
        ]
    ).astype(np.float32)
    n = max(every.size, f.size)
    x = np.resize(every, n)
    f = np.resize(f, n)
    y, g = np.empty(n, np.float16), np.empty(n, np.float16)
    cpu_harness.load(SOURCE, "halves")(-(-n // 256), 256, (x, y, f, g, np.int64(n)))
    np.testing.assert_array_equal(y.view(np.uint16)[~np.isnan(x)], x.view(np.uint16)[~np.isnan(x)])
    with np.errstate(over="ignore", invalid="ignore"):
        want = f.astype(np.float16)
    np.testing.assert_array_equal(g, want)
    assert np.array_equal(np.signbit(g), np.signbit(want))


@pytest.mark.skipif(on_device.wanted(), reason="the harness's own argument checks")
def test_scalar_arguments_pass_by_value_with_their_c_types():
    kernel = cpu_harness.load(SOURCE, "scalars")
    out = np.zeros(6)
    kernel((3,), (1, 2, 4), (out, np.int8(-5), np.uint16(60000), np.float32(1.5), 2.25, 1 << 40))
    np.testing.assert_array_equal(out, [-5, 60000, 1.5, 2.25, 2.0**40, 324])
    with pytest.raises(TypeError, match="int8"):
        kernel(1, 1, (out, np.int32(1), np.uint16(1), np.float32(1), 1.0, 1))
    with pytest.raises(TypeError, match="takes 6 arguments"):
        kernel(1, 1, (out,))
    with pytest.raises(RuntimeError, match="1024 threads"):
        kernel(1, 2048, (out, np.int8(1), np.uint16(1), np.float32(1), 1.0, 1))
    with pytest.raises(ValueError, match="no extern"):
        cpu_harness.load(SOURCE, "missing")


def test_the_precompiled_header_serves_builds_and_a_damaged_one_is_dropped(tmp_path, monkeypatch):
    """With g++, builds read harness/cuda_on_cpu.h from a precompiled header made once under the cache
    directory; kernels built with and without it compute the same, and a damaged .gch makes the build
    go on without it (and removes it)."""
    cxx = cpu_harness.compiler()
    if cxx is None:
        pytest.skip("no C++ compiler")
    monkeypatch.setattr(cpu_harness, "_pch_dirs", {})
    x = np.arange(1000, dtype=np.float32) % 5
    sums = []
    for root in (tmp_path / "with", tmp_path / "without", tmp_path / "damaged"):
        if root.name == "without":
            cpu_harness._pch_dirs[cxx, str(root)] = None
        if root.name == "damaged":
            folder = cpu_harness._precompiled(cxx, str(root))
            if folder is not None:
                gch = tmp_path / "with" / "cuda-cpu-pch" / pathlib.Path(folder).name
                data = (gch / "cuda_on_cpu.h.gch").read_bytes()
                (pathlib.Path(folder) / "cuda_on_cpu.h.gch").write_bytes(data[: len(data) // 3])
        kernel = cpu_harness.load(SOURCE, "block_sum", cache_dir=str(root))
        out = np.zeros(2, np.float32)
        kernel((2,), (64,), (x, out, np.int64(x.size)))
        sums.append(out.sum())
    assert sums == [x.sum()] * 3
    made = list((tmp_path / "with").glob("cuda-cpu-pch/*/cuda_on_cpu.h.gch"))
    damaged = list((tmp_path / "damaged").glob("cuda-cpu-pch/*/cuda_on_cpu.h.gch"))
    gcc = "Free Software Foundation" in subprocess.run(
        [cxx, "--version"], capture_output=True, text=True, check=False
    ).stdout
    assert len(made) == (1 if gcc else 0) and not damaged
    assert not (tmp_path / "without" / "cuda-cpu-pch").exists()
