"""The stand-in's `cupy.cuda`: devices, streams and events, the runtime API's queries, the memory pool with
its limit, and RawModule/RawKernel, whose launches run the kernel's CUDA C++ on the CPU (cpu_harness.py).

Device memory is host memory: a block of the pool only accounts for the bytes an array holds, so that
limits, usage and out-of-memory errors behave as cupy's do (allocations rounded up to 512 bytes, freed blocks
cached until `free_all_blocks`, a limit per device). The figures of the devices are stated, not measured.
"""

from __future__ import annotations

import contextlib
import threading
import time
import types

# cupy's allocation unit (cupy/cuda/memory.pyx): every block is a multiple of it
ALLOCATION_UNIT = 512


class CUDARuntimeError(RuntimeError):
    """A failed CUDA runtime call (cupy_backends.cuda.api.runtime.CUDARuntimeError)."""


class OutOfMemoryError(MemoryError):
    """cupy.cuda.memory.OutOfMemoryError: the pool could not give `size` bytes, with cupy's message."""

    def __init__(self, size, total, limit=0):
        self._size, self._total, self._limit = size, total, limit
        if limit == 0:
            message = (
                f"Out of memory allocating {size:,} bytes (allocated so far: {total:,} bytes)."
            )
        else:
            message = (
                f"Out of memory allocating {size:,} bytes (allocated so far: {total:,} bytes, "
                f"limit set to: {limit:,} bytes)."
            )
        super().__init__(message)

    def __reduce__(self):
        return (type(self), (self._size, self._total, self._limit))


class _Machine:
    """The simulated machine: how many devices, their memory, the current device and stream per thread."""

    def __init__(self, count=1, memory=16 << 30):
        self.count = count
        self.memory = memory
        self.local = threading.local()

    @property
    def current(self) -> int:
        return getattr(self.local, "device", 0)

    @current.setter
    def current(self, index: int) -> None:
        self.local.device = index


machine = _Machine()


def _check_ordinal(index: int) -> int:
    index = int(index)
    if not 0 <= index < machine.count:
        raise CUDARuntimeError("cudaErrorInvalidDevice: invalid device ordinal")
    return index


class Device:
    """cupy.cuda.Device: a device by ordinal (None: the current one); `with Device(1):` makes it current."""

    def __init__(self, device=None):
        self.id = machine.current if device is None else _check_ordinal(device)
        self._saved = []

    def __enter__(self):
        self._saved.append(machine.current)
        machine.current = self.id
        return self

    def __exit__(self, *exc):
        machine.current = self._saved.pop()

    def use(self):
        machine.current = self.id

    def synchronize(self):
        """Work on the stand-in runs synchronously; nothing to wait for."""

    @property
    def compute_capability(self) -> str:
        return "90"

    @property
    def mem_info(self) -> tuple[int, int]:
        used = default_memory_pool.total_bytes(self.id)
        return (machine.memory - used, machine.memory)

    def __int__(self):
        return self.id

    def __index__(self):
        return self.id

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("cuda", self.id))

    def __repr__(self):
        return f"<CUDA Device {self.id}>"


# -- the runtime API's queries ----------------------------------------------------------------------------------
def _properties(index):
    index = _check_ordinal(index)
    return {
        "name": b"arraystack CUDA stand-in (host memory)",
        "totalGlobalMem": machine.memory,
        "multiProcessorCount": 132,
        "clockRate": 1_980_000,  # kHz
        "memoryClockRate": 2_619_000,  # kHz
        "memoryBusWidth": 5120,  # bits
        "major": 9,
        "minor": 0,
        "warpSize": 32,
        "maxThreadsPerBlock": 1024,
        "sharedMemPerBlock": 48 << 10,
        "pciBusID": index,
    }


def _memory_info():
    return (machine.memory - default_memory_pool.total_bytes(machine.current), machine.memory)


def _set_device(index):
    machine.current = _check_ordinal(index)


runtime = types.SimpleNamespace(
    CUDARuntimeError=CUDARuntimeError,
    getDeviceCount=lambda: machine.count,
    getDeviceProperties=_properties,
    getDevice=lambda: machine.current,
    setDevice=_set_device,
    deviceSynchronize=lambda: None,
    memGetInfo=_memory_info,
    runtimeGetVersion=lambda: 12080,
    driverGetVersion=lambda: 12080,
    is_hip=False,
)


# -- streams and events ----------------------------------------------------------------------------------------
class Stream:
    """cupy.cuda.Stream: work on the stand-in runs at once, so a stream only orders what already happened.
    A capturing stream (begin_capture) also records each operation issued on it, as a function re-running
    it on the same buffers, and end_capture returns them as a Graph."""

    null = None  # the default stream, set below

    def __init__(self, null=False, non_blocking=False, ptr=0):
        self.ptr = 0 if null else id(self)
        self.device_id = machine.current
        self._saved = []
        self._capture = None  # the operations recorded while capturing, else None
        self._invalid = False  # an operation a capture cannot hold was issued

    def wait_event(self, event):
        """Recorded work has finished already."""

    def begin_capture(self, mode=None):
        if self.ptr == 0:
            raise RuntimeError("cannot capture on the default (legacy) stream")
        if self._capture is not None:
            raise CUDARuntimeError("cudaErrorIllegalState: the stream is capturing already")
        self._capture, self._invalid = [], False

    def end_capture(self):
        ops, self._capture = self._capture, None
        if ops is None:
            raise CUDARuntimeError("cudaErrorIllegalState: the stream is not capturing")
        if self._invalid:
            raise CUDARuntimeError("cudaErrorStreamCaptureInvalidated: operation failed due to a "
                                   "previous error during capture")  # fmt: skip
        return Graph(ops)

    def is_capturing(self) -> bool:
        return self._capture is not None

    @property
    def done(self) -> bool:
        return True

    def synchronize(self):
        """Nothing is pending on the stand-in."""

    def use(self):
        machine.local.stream = self
        return self

    def __enter__(self):
        self._saved.append(get_current_stream())
        return self.use()

    def __exit__(self, *exc):
        machine.local.stream = self._saved.pop()

    def record(self, event=None):
        event = Event() if event is None else event
        event.record(self)
        return event

    def __repr__(self):
        return f"<Stream {self.ptr} (device {self.device_id})>"


Stream.null = Stream(null=True)


class Graph:
    """cupy.cuda.graph.Graph: the operations a capture recorded, run again in order by each launch."""

    def __init__(self, ops):
        self._ops = tuple(ops)

    def launch(self, stream=None):
        for op in self._ops:
            op()

    def upload(self, stream=None):
        """Nothing to upload on the stand-in."""


def record(op) -> None:
    """While the current stream captures, keep `op` (re-running an operation on the same buffers)."""
    stream = get_current_stream()
    if stream._capture is not None:
        stream._capture.append(op)


def refuse_while_capturing(what: str) -> None:
    """A transfer to or from the host waits for the device, which a capturing stream refuses (and the
    capture is invalidated), as CUDA does."""
    stream = get_current_stream()
    if stream._capture is not None:
        stream._invalid = True
        raise CUDARuntimeError(
            "cudaErrorStreamCaptureUnsupported: operation not permitted when stream is capturing "
            f"({what})"
        )


@contextlib.contextmanager
def using_allocator(allocator=None):
    """cupy.cuda.using_allocator: `allocator(nbytes)` gives this thread's device memory in the block."""
    saved = getattr(machine.local, "allocator", None)
    machine.local.allocator = allocator
    try:
        yield
    finally:
        machine.local.allocator = saved


def allocate(nbytes: int):
    """Device memory from this thread's allocator (using_allocator), else the default pool."""
    allocator = getattr(machine.local, "allocator", None)
    return (allocator or default_memory_pool.malloc)(nbytes)


def get_current_stream(device_id=None):
    return getattr(machine.local, "stream", None) or Stream.null


class Event:
    """cupy.cuda.Event: a time stamp taken when recorded (work is synchronous)."""

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self.time = None

    def record(self, stream=None):
        self.time = time.perf_counter()

    def synchronize(self):
        """Recorded work has finished already."""

    @property
    def done(self) -> bool:
        return True


def get_elapsed_time(start_event, end_event) -> float:
    """Milliseconds between two recorded events (cupy.cuda.get_elapsed_time)."""
    return (end_event.time - start_event.time) * 1e3


# -- the memory pool -------------------------------------------------------------------------------------------
class Block:
    """A block of device memory handed out by the pool; its array gives it back when it is collected."""

    __slots__ = ("device", "freed", "pool", "size")

    def __init__(self, device, size, pool):
        self.device, self.size, self.pool, self.freed = device, size, pool, False

    @property
    def ptr(self) -> int:
        return id(self)

    def free(self):
        if not self.freed:
            self.freed = True
            self.pool._give(self)


class MemoryPool:
    """cupy.cuda.MemoryPool: blocks per device rounded to 512 bytes, freed blocks cached for reuse, a limit
    per device (`set_limit`) checked against what the pool holds (used and cached), which is freed once
    before it gives up with OutOfMemoryError."""

    def __init__(self, allocator=None):
        self._lock = threading.Lock()
        self._used: dict[int, int] = {}
        self._cached: dict[int, list] = {}  # device -> sizes of freed blocks kept for reuse
        self._limits: dict[int, int] = {}

    def malloc(self, size: int) -> Block | None:
        """A block of at least `size` bytes on the current device (None for 0 bytes)."""
        if size <= 0:
            return None
        size = -(-int(size) // ALLOCATION_UNIT) * ALLOCATION_UNIT
        device = machine.current
        with self._lock:
            cached = self._cached.setdefault(device, [])
            if size in cached:
                cached.remove(size)
            else:
                limit = self._limits.get(device, 0)
                if self._over(device, size, limit):
                    cached.clear()  # cupy frees the cached blocks once, then retries
                    if self._over(device, size, limit):
                        raise OutOfMemoryError(size, self._total(device), limit)
            self._used[device] = self._used.get(device, 0) + size
        return Block(device, size, self)

    def _over(self, device, size, limit):
        total = self._total(device) + size
        return total > machine.memory or (limit and total > limit)

    def _total(self, device):
        return self._used.get(device, 0) + sum(self._cached.get(device, ()))

    def _give(self, block):
        with self._lock:
            self._used[block.device] -= block.size
            self._cached.setdefault(block.device, []).append(block.size)

    def used_bytes(self, device=None) -> int:
        with self._lock:
            return self._used.get(machine.current if device is None else device, 0)

    def free_bytes(self, device=None) -> int:
        with self._lock:
            return sum(self._cached.get(machine.current if device is None else device, ()))

    def total_bytes(self, device=None) -> int:
        with self._lock:
            return self._total(machine.current if device is None else device)

    def n_free_blocks(self) -> int:
        with self._lock:
            return len(self._cached.get(machine.current, ()))

    def free_all_blocks(self, stream=None) -> None:
        with self._lock:
            self._cached.get(machine.current, []).clear()

    def set_limit(self, size=None, fraction=None) -> None:
        """Limit the current device's pool to `size` bytes or `fraction` of its memory (0 or None: none)."""
        if size is not None and fraction is not None:
            raise ValueError("size and fraction cannot be specified at the same time")
        if fraction is not None:
            if not 0 <= fraction <= 1:
                raise ValueError(f"memory limit fraction out of range: {fraction}")
            size = int(machine.memory * fraction)
        with self._lock:
            self._limits[machine.current] = int(size or 0)

    def get_limit(self) -> int:
        with self._lock:
            return self._limits.get(machine.current, 0)


default_memory_pool = MemoryPool()

memory = types.SimpleNamespace(
    OutOfMemoryError=OutOfMemoryError, MemoryPool=MemoryPool, ALLOCATION_UNIT=ALLOCATION_UNIT
)


# -- kernels ---------------------------------------------------------------------------------------------------
class RawKernel:
    """cupy.RawKernel: `kernel(grid, block, args, shared_mem=0)` runs the CUDA C++ kernel `name` of `code`
    on the CPU (cpu_harness.load), with the host buffers of the stand-in's arrays as its pointers."""

    def __init__(
        self, code, name, options=(), backend="nvrtc", translate_cucomplex=False, **kwargs
    ):
        self.code, self.name, self.options, self.backend = code, name, tuple(options), backend
        self._kernel = None

    @property
    def kernel(self):
        if self._kernel is None:
            from arraystack.backends.cupy import cpu_harness

            self._kernel = cpu_harness.load(self.code, self.name)
        return self._kernel

    def compile(self, log_stream=None):
        return self.kernel

    def __call__(self, grid, block, args, *, shared_mem=0, enable_cooperative_groups=False):
        from arraystack.backends.cupy.standin_array import host_buffer

        grid = tuple(grid) if isinstance(grid, tuple) else (grid,)
        block = tuple(block) if isinstance(block, tuple) else (block,)
        buffers = tuple(host_buffer(a) for a in args)
        self.kernel(grid, block, buffers, shared_mem=shared_mem)
        record(lambda: self.kernel(grid, block, buffers, shared_mem=shared_mem))


class RawModule:
    """cupy.RawModule: CUDA C++ source whose kernels `get_function(name)` returns as RawKernels."""

    def __init__(self, *, code=None, path=None, options=(), backend="nvrtc", **kwargs):
        if (code is None) == (path is None):
            raise TypeError("Exactly one of `code` and `path` keyword arguments must be given.")
        if path is not None:
            with open(path) as source:
                code = source.read()
        self.code, self.options, self.backend = code, tuple(options), backend
        self._kernels: dict = {}

    def get_function(self, name: str) -> RawKernel:
        kernel = self._kernels.get(name)
        if kernel is None:
            kernel = self._kernels[name] = RawKernel(self.code, name, self.options, self.backend)
        return kernel

    def compile(self, log_stream=None):
        """Compilation happens per kernel, when it is first launched."""


def is_available() -> bool:
    return machine.count > 0


__all__ = [
    "Device",
    "Event",
    "Graph",
    "MemoryPool",
    "OutOfMemoryError",
    "RawKernel",
    "RawModule",
    "Stream",
    "default_memory_pool",
    "get_current_stream",
    "get_elapsed_time",
    "machine",
    "memory",
    "runtime",
    "using_allocator",
]
