"""The host's pool: the numba backend's kernels take their large output buffers from it, and the execution
engine accounts the host's plan buffers in it (the pool abstraction, memory.DevicePool: one per device).

A fresh 40 MB buffer costs 5-30 ms of page faults on these VMs, as much as the computation. The pool keeps
every large buffer it hands out; a buffer is free again when nothing but the pool refers to it (its reference
count says so: the caller's arrays and every view of them hold references to it). A plan therefore frees a
buffer by dropping its last reference (the runner drops each value after its last use), and the next
allocation of that size takes it back.
"""

from __future__ import annotations

import math
import sys
import threading

import numpy as np
from arraystack.backends.memory import DevicePool

MIN_POOLED_BYTES = 1 << 20  # smaller buffers come from the allocator directly
MAX_PER_SIZE = 4
_FREE_REFCOUNT = 3  # the pool's list, the loop variable, getrefcount's argument


class BufferPool(DevicePool):
    """Host memory. `empty()` hands kernels output buffers (pooled from MIN_POOLED_BYTES up, reused once
    nothing refers to them); take()/give() account the engine's plan buffers, which the kernels fill with
    arrays of their own, so a block is only a count (None). Counters: allocated and reused (pooled buffers
    made and handed out again), in_use and peak (bytes of plan buffers taken)."""

    def __init__(self, max_bytes: int = 1 << 30):
        super().__init__(lambda nbytes: None)
        self.max_bytes = max_bytes
        self._by_size: dict[int, list[np.ndarray]] = {}
        self._bytes = 0
        self._buffers_lock = threading.Lock()

    def take(self, nbytes: int):
        with self._lock:
            if self.capacity is not None and self.in_use + nbytes > self.capacity:
                raise MemoryError(
                    f"host pool exhausted: {nbytes} bytes requested, {self.in_use} of "
                    f"{self.capacity} in use"
                )
            self.in_use += nbytes
            self.peak = max(self.peak, self.in_use)

    def give(self, block, nbytes: int) -> None:
        with self._lock:
            self.in_use -= nbytes

    def empty(self, shape, dtype, nbytes=None) -> np.ndarray:
        if nbytes is None:
            nbytes = math.prod(shape) * np.dtype(dtype).itemsize
        if nbytes < MIN_POOLED_BYTES:
            return np.empty(shape, dtype)
        with self._buffers_lock:
            entries = self._by_size.setdefault(nbytes, [])
            for buf in entries:
                if sys.getrefcount(buf) == _FREE_REFCOUNT:
                    self.reused += 1
                    return buf.view(dtype).reshape(shape)
            buf = np.empty(nbytes, np.uint8)
            self.allocated += 1
            if len(entries) < MAX_PER_SIZE and self._bytes + nbytes <= self.max_bytes:
                entries.append(buf)
                self._bytes += nbytes
        return buf.view(dtype).reshape(shape)

    def free_buffer(self, shape, dtype, nbytes):
        """A pooled buffer of nbytes nothing else refers to, as an array of shape/dtype; None if none."""
        with self._buffers_lock:
            for buf in self._by_size.get(nbytes, ()):
                if sys.getrefcount(buf) == _FREE_REFCOUNT:
                    self.reused += 1
                    return buf.view(dtype).reshape(shape)
        return None

    def held_bytes(self) -> int:
        """Bytes of the buffers the pool keeps (in use by arrays or free for reuse)."""
        return self._bytes

    def free_bytes(self) -> int:
        """Bytes of pooled buffers nothing but the pool refers to (reusable now)."""
        with self._buffers_lock:
            return sum(
                n
                for n, entries in self._by_size.items()
                for buf in entries
                if sys.getrefcount(buf) == _FREE_REFCOUNT
            )

    def clear(self) -> None:
        with self._buffers_lock:
            self._by_size.clear()
            self._bytes = 0

    def stats(self) -> dict:
        return dict(super().stats(), held=self._bytes)


host_pool = BufferPool()

__all__ = ["MIN_POOLED_BYTES", "BufferPool", "host_pool"]
