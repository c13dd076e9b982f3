"""Host buffers for compiled plans: a pool that reuses large output buffers, and the memory limit.

A fresh 40 MB buffer costs 5-30 ms of page faults on these VMs, as much as the computation. The pool keeps
every large buffer it hands out; a buffer is free again when nothing but the pool refers to it (its reference
count says so: the caller's arrays and every view of them hold references to it). A plan therefore frees a
buffer by dropping its last reference (the interpreter drops each value after its last use), and the next
allocation of that size takes it back.

The memory limit (`limits.host`, set through arraystack.config.memory_limit) is checked by each run of a
plan before a step allocates: a `RunLedger` counts the bytes the run holds alive (its arguments and the live
values), and a step whose outputs would exceed the limit raises OutOfMemory instead of allocating. Limits of
other devices (`limits.devices`, from a dict memory_limit) are checked by the execution engine (engine.py).
"""

from __future__ import annotations

import math
import sys
import threading

import numpy as np

MIN_POOLED_BYTES = 1 << 20  # smaller buffers come from the allocator directly
MAX_PER_SIZE = 4
_FREE_REFCOUNT = 3  # the pool's list, the loop variable, getrefcount's argument


class BufferPool:
    def __init__(self, max_bytes: int = 1 << 30):
        self.max_bytes = max_bytes
        self._by_size: dict[int, list[np.ndarray]] = {}
        self._bytes = 0
        self._lock = threading.Lock()
        self.reused = 0
        self.allocated = 0

    def empty(self, shape, dtype, nbytes=None) -> np.ndarray:
        if nbytes is None:
            nbytes = math.prod(shape) * np.dtype(dtype).itemsize
        if nbytes < MIN_POOLED_BYTES:
            return np.empty(shape, dtype)
        with self._lock:
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
        with self._lock:
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
        with self._lock:
            return sum(
                n
                for n, entries in self._by_size.items()
                for buf in entries
                if sys.getrefcount(buf) == _FREE_REFCOUNT
            )

    def clear(self) -> None:
        with self._lock:
            self._by_size.clear()
            self._bytes = 0


host_pool = BufferPool()


class OutOfMemory(MemoryError):
    """A plan step would exceed the memory limit (arraystack.config.memory_limit); raised before allocating.

    Attributes: step (its position in the plan), primitive, source (the user's file:line), requested,
    in_use and limit (bytes), device (the key of the device whose memory ran out)."""

    def __init__(self, message, *, step, primitive, source, requested, in_use, limit, device="cpu"):
        super().__init__(message)
        self.device = device
        self.step = step
        self.primitive = primitive
        self.source = source
        self.requested = requested
        self.in_use = in_use
        self.limit = limit


class Limits:
    """Per-device memory limits in bytes (None: unlimited). `host` is the host's ("cpu"), which the numba
    executables check; `devices` maps device keys to limits, which the execution engine checks."""

    def __init__(self):
        self.host: int | None = None
        self.devices: dict = {}

    def set(self, value) -> None:
        """From arraystack.config.memory_limit: bytes (the host's limit), a dict device key -> bytes, or
        None."""
        if isinstance(value, dict):
            self.devices = dict(value)
            self.host = self.devices.get("cpu")
        else:
            self.devices = {} if value is None else {"cpu": value}
            self.host = value

    def of(self, device: str) -> int | None:
        return self.devices.get(device)


limits = Limits()
_active = threading.local()  # the RunLedger of the innermost plan running on this thread


def format_bytes(n: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit} ({n} bytes)"
    return f"{n} bytes"


def buffer_owner(x):
    """The object owning x's memory (views count against their base once)."""
    base = getattr(x, "base", None)
    while base is not None:
        x = base
        base = getattr(x, "base", None)
    return x


class RunLedger:
    """The bytes one run of a plan holds alive, counted per owning buffer (a view adds nothing).

    A plan running inside another (a loop body) starts from the enclosing run's bytes in use."""

    def __init__(self, limit: int):
        self.limit = limit
        self.parent = getattr(_active, "ledger", None)
        self.base = self.parent.in_use() if self.parent is not None else 0
        self.live = 0
        self._counts: dict[int, list] = {}  # id(root) -> [root, references]

    def __enter__(self):
        _active.ledger = self
        return self

    def __exit__(self, *exc):
        _active.ledger = self.parent

    def in_use(self) -> int:
        return self.base + self.live

    def hold(self, value) -> None:
        root = buffer_owner(value)
        entry = self._counts.get(id(root))
        if entry is None:
            self._counts[id(root)] = [root, 1]
            self.live += getattr(root, "nbytes", 0)
        else:
            entry[1] += 1

    def release(self, value) -> None:
        root = buffer_owner(value)
        entry = self._counts.get(id(root))
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] == 0:
            del self._counts[id(root)]
            self.live -= getattr(root, "nbytes", 0)

    def reserve(self, requested: int, step: int, primitive: str, source, detail: str = "") -> None:
        in_use = self.in_use()
        if in_use + requested <= self.limit:
            return
        where = f" at {source}" if source else ""
        what = f" ({detail})" if detail else ""
        raise OutOfMemory(
            f"out of memory at plan step {step}: `{primitive}`{what}{where} needs "
            f"{format_bytes(requested)} for its outputs while the run holds {format_bytes(in_use)}; "
            f"the limit is {format_bytes(self.limit)} (arraystack.config.memory_limit). Raise the "
            "limit, or make the arrays smaller (e.g. process the batch in chunks).",
            step=step,
            primitive=primitive,
            source=source,
            requested=requested,
            in_use=in_use,
            limit=self.limit,
        )
