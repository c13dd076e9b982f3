"""Memory, as every device and every runner sees it: the limits (arraystack.config.memory_limit), the one
check that a step's allocations fit (`check`, raising OutOfMemory), the accounting of one run (`RunLedger`),
and the pool abstraction (`DevicePool`) each device has one of.

A run of a plan checks each step before it allocates: the engine from the plan's buffer assignment (the bytes
each device holds at every step, engine.py), a runner of a plan on one device from what the run holds alive
(`RunLedger`, executable.py's straight-line runner, which the backends' executables are). Both go through
`check`, so a limit means the same thing and fails with the same message whichever way a plan runs.
"""

from __future__ import annotations

import threading


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


def active_ledger():
    """The RunLedger of the innermost plan running on this thread, or None."""
    return getattr(_active, "ledger", None)


class RunLedger:
    """The bytes one run of a plan holds alive, counted per owning buffer (a view adds nothing).

    A plan running inside another (a loop body) starts from the enclosing run's bytes in use."""

    def __init__(self, limit: int, device: str = "cpu"):
        self.limit = limit
        self.device = device
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
        what = f"`{primitive}`" + (f" ({detail})" if detail else "")
        check(self.device, step, primitive, what, source, requested, in_use, self.limit, "config")


def check(device, step, primitive, what, source, requested, in_use, limit, which) -> None:
    """Raise OutOfMemory when a step that allocates `requested` bytes on `device`, which holds `in_use`,
    would pass `limit` (which: "config", arraystack.config.memory_limit; "capacity", the device's memory;
    a limit of None with which "allocator": the device's allocator refused). what: the step, as the message
    names it; step: its position in the plan."""
    if limit is not None and in_use + requested <= limit:
        return
    raise out_of_memory(device, step, primitive, what, source, requested, in_use, limit, which)


def out_of_memory(
    device, step, primitive, what, source, requested, in_use, limit, which
) -> OutOfMemory:
    """The OutOfMemory of a step (see check)."""
    where = f" at {source}" if source else ""
    if limit is None:
        bound = f"{device} could not allocate it"
        advice = "Place less on this device, or make the arrays smaller"
    elif which == "config":
        bound = f"the limit for {device} is {format_bytes(limit)} (arraystack.config.memory_limit)"
        advice = "Raise the limit, place less on this device, or make the arrays smaller"
    else:
        bound = f"{device} has {format_bytes(limit)} of memory"
        advice = "Place less on this device, or make the arrays smaller"
    return OutOfMemory(
        f"out of memory on {device} at plan step {step}: {what}{where} needs "
        f"{format_bytes(requested)} for its outputs while the run holds {format_bytes(in_use)} there; "
        f"{bound}. {advice} (e.g. process the batch in chunks).",
        step=step,
        primitive=primitive,
        source=source,
        requested=requested,
        in_use=in_use,
        limit=limit,
        device=device,
    )


# -- the pool abstraction: one per device ----------------------------------------------------------------
MAX_FREE_PER_SIZE = 4  # free blocks a pool keeps per size for later runs


class DevicePool:
    """A device's memory as the engine sees it: blocks handed out by size and taken back for reuse.

    new_block(nbytes) makes a block (device memory, or a placeholder for a device whose kernels allocate
    their outputs themselves). capacity (bytes, None: unbounded) is the device's memory: taking more raises
    MemoryError, as a real device's allocator would. Counters: allocated (fresh blocks), reused, in_use and
    peak (bytes of blocks handed out)."""

    def __init__(self, new_block, capacity: int | None = None):
        self.new_block = new_block
        self.capacity = capacity
        self._free: dict[int, list] = {}
        self._lock = threading.Lock()
        self.allocated = 0
        self.reused = 0
        self.in_use = 0
        self.peak = 0

    def take(self, nbytes: int):
        with self._lock:
            if self.capacity is not None and self.in_use + nbytes > self.capacity:
                raise MemoryError(
                    f"device pool exhausted: {nbytes} bytes requested, {self.in_use} of "
                    f"{self.capacity} in use"
                )
            free = self._free.get(nbytes)
            if free:
                block = free.pop()
                self.reused += 1
            else:
                block = None
            self.in_use += nbytes
            self.peak = max(self.peak, self.in_use)
        if block is None:
            block = self.new_block(nbytes)
            with self._lock:
                self.allocated += 1
        return block

    def give(self, block, nbytes: int) -> None:
        with self._lock:
            self.in_use -= nbytes
            free = self._free.setdefault(nbytes, [])
            if len(free) < MAX_FREE_PER_SIZE:
                free.append(block)

    def clear(self) -> None:
        with self._lock:
            self._free.clear()

    def stats(self) -> dict:
        return {
            "allocated": self.allocated, "reused": self.reused, "in_use": self.in_use,
            "peak": self.peak,
        }  # fmt: skip


__all__ = [
    "DevicePool",
    "Limits",
    "OutOfMemory",
    "RunLedger",
    "buffer_owner",
    "check",
    "format_bytes",
    "limits",
    "out_of_memory",
]
