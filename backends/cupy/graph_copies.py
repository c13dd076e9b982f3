"""Device-to-device copies of many small buffers in one kernel launch (graphs.py: a replay's arguments
into the graph's input buffers, and the graph's outputs into new arrays).

A replayed training step copies a dozen small arrays in and out; as one cudaMemcpyAsync each, the host pays
a driver call per array. `Copier` gathers the copies of one direction and launches `arraystack_copy_many`
once per SEGMENTS of them: each block row (blockIdx.y) copies one segment, its threads striding over it in
8-byte words when the segment's addresses and length allow, else 4-byte words, else bytes. Copies of
LARGE bytes or more stay single cudaMemcpyAsync calls (the driver's copy engine at full bandwidth; the
launch is paid once for much data). The kernel's addresses are its arguments (64-bit integers), so its
source never changes, and it is compiled once per device by the backend's loader (NVRTC and the kernel
cache; the CPU harness on the stand-in).
"""

from __future__ import annotations

import numpy as np

SEGMENTS = 8  # copies per launch: three 64-bit arguments each
LARGE = 1 << 20  # bytes from which a copy is a cudaMemcpyAsync of its own
THREADS = 256
MAX_BLOCKS = 64  # blocks per segment: enough for LARGE bytes in a few passes of 8-byte words

NAME = "arraystack_copy_many"


def _source() -> str:
    params = ",\n    ".join(
        f"unsigned long long d{k}, unsigned long long s{k}, unsigned long long n{k}"
        for k in range(SEGMENTS)
    )
    cases = "\n".join(
        f"        case {k}: dst = d{k}; src = s{k}; n = n{k}; break;" for k in range(SEGMENTS)
    )
    return f"""
template <typename T>
__device__ __forceinline__ void copy_words(unsigned long long dst, unsigned long long src,
                                           unsigned long long n, unsigned long long start,
                                           unsigned long long stride) {{
    T* d = reinterpret_cast<T*>(dst);
    const T* s = reinterpret_cast<const T*>(src);
    for (unsigned long long k = start; k < n / sizeof(T); k += stride) d[k] = s[k];
}}

extern "C" __global__ void {NAME}(
    {params}) {{
    unsigned long long dst = 0, src = 0, n = 0;
    switch (blockIdx.y) {{
{cases}
        default: break;
    }}
    const unsigned long long start = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    const unsigned long long bits = dst | src | n;
    if ((bits & 7) == 0) {{
        copy_words<unsigned long long>(dst, src, n, start, stride);
    }} else if ((bits & 3) == 0) {{
        copy_words<unsigned int>(dst, src, n, start, stride);
    }} else {{
        copy_words<unsigned char>(dst, src, n, start, stride);
    }}
}}
"""


SOURCE = _source()


class Copier:
    """Copies (destination pointer, source pointer, bytes) on the current stream: the small ones in
    launches of `arraystack_copy_many`, the large ones by cudaMemcpyAsync. `load(xp, source, names)` is
    the backend's kernel loader."""

    def __init__(self, xp, load):
        self.xp, self.load = xp, load
        self.functions: dict = {}  # device id -> the loaded kernel

    def _function(self):
        device = self.xp.cuda.runtime.getDevice()
        function = self.functions.get(device)
        if function is None:
            module = self.load(self.xp, SOURCE, (NAME,))
            function = self.functions[device] = module.get_function(NAME)
        return function

    def __call__(self, copies, stream) -> None:
        """Run `copies`, a list of (destination MemoryPointer, source MemoryPointer, bytes)."""
        small = []
        for dst, src, size in copies:
            if size >= LARGE:
                dst.copy_from_device_async(src, size, stream)
            elif size:
                small.append((dst, src, size))
        if len(small) == 1:  # a launch would only add the kernel to the driver's copy
            dst, src, size = small[0]
            dst.copy_from_device_async(src, size, stream)
            return
        for first in range(0, len(small), SEGMENTS):
            batch = small[first : first + SEGMENTS]
            args = []
            for dst, src, size in batch:
                args += [np.uint64(dst.ptr), np.uint64(src.ptr), np.uint64(size)]
            args += [np.uint64(0)] * (3 * (SEGMENTS - len(batch)))
            words = max(size for _, _, size in batch) // 8 + 1
            blocks = min(MAX_BLOCKS, -(-words // THREADS))
            self._function()((blocks, len(batch)), (THREADS,), tuple(args))
