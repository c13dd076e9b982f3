"""Device runtimes: what the execution engine (engine.py) asks of one device, so that the engine itself never
assumes host memory. A runtime allocates and frees blocks of its device's pool, copies arrays in from the host,
out to the host and across from another device, prepares (compiles) a region for its device, runs it, and
synchronizes. Implemented here for the host CPU (numba kernels and NumPy) and for a *simulated accelerator*,
which stands in for a device that is absent (a preset such as "h100"): it runs the host's kernels on host
memory, but its values live in blocks of its own pool, under its own limit, and it counts what it copies, the
way numba's CUDA simulator stands in for a GPU. A real device kind plugs in through its backend (Backend.runtime,
backends/interface.py); a GPU runtime enqueues work on a stream in run() and waits in synchronize().
"""

from __future__ import annotations

import functools
import math
import threading

import numpy as np
from arraystack.backends.interface import CompileOptions
from arraystack.backends.memory import DevicePool


class HostRuntime:
    """The host CPU, running the steps of a host backend (Backend.step: fused kernels, BLAS, reference
    rules), which allocate their own outputs; so a block of this runtime's pool only accounts for a plan
    buffer, and place() adopts the array a region returned."""

    name = "host"
    simulated = False

    def __init__(self, device, backend, cache_dir: str | None = None, pool=None):
        self.device = device
        self.key = device.key
        self.backend = backend
        self.options = CompileOptions(cache_dir)
        self.cache_dir = cache_dir
        # the device's pool (memory.DevicePool); a backend whose steps allocate from a pool of its own
        # hands that one (numba: its host buffer pool), so the device has one
        self.pool = DevicePool(lambda nbytes: None) if pool is None else pool
        self.copies_in = self.bytes_in = self.copies_out = self.bytes_out = 0
        self._lock = threading.Lock()

    @property
    def capacity(self):
        return self.pool.capacity

    def allocate(self, nbytes: int):
        return self.pool.take(nbytes)

    def free(self, block, nbytes: int) -> None:
        self.pool.give(block, nbytes)

    def place(self, block, value, aval):
        """A region's output (already on this device) as the value of its buffer `block`."""
        return value if type(value) is np.ndarray else np.asarray(value)

    def copy_in(self, array, block, aval):
        """A host array onto this device, into `block`."""
        self._count(in_bytes=array.nbytes)
        return self.place(block, array, aval)

    def copy_out(self, value) -> np.ndarray:
        """A new host array holding `value` (a value on this device)."""
        self._count(out_bytes=value.nbytes)
        return np.array(value, copy=True)

    def transfer(self, value, src, block, aval):
        """`value`, which lives on the device of runtime `src`, onto this device into `block` (staged
        through the host; a runtime with a direct path between two devices overrides this)."""
        if src.key == self.key:
            return value
        return self.copy_in(src.copy_out(value), block, aval)

    def prepare(self, eqn, graph):
        """A step for region `eqn` of `graph` on this device (the backend's, returning a list of outputs);
        run() calls it."""
        return self.backend.step(eqn, graph, self.options)

    def run(self, step, inputs, outputs):
        """Run a prepared step on values of this device. outputs: per result, (block, aval) of the plan
        buffer it goes to, or None for a view of an input. Returns the results, as values of this
        device (a runtime whose kernels take output buffers writes into the blocks directly)."""
        results = step(*inputs)
        return [
            value if out is None else self.place(out[0], value, out[1])
            for value, out in zip(results, outputs)
        ]

    def synchronize(self) -> None:
        """Wait for the work run() started (host work is synchronous)."""

    def stats(self) -> dict:
        return dict(
            self.pool.stats(), copies_in=self.copies_in, bytes_in=self.bytes_in,
            copies_out=self.copies_out, bytes_out=self.bytes_out,
        )  # fmt: skip

    def _count(self, in_bytes=None, out_bytes=None):
        with self._lock:
            if in_bytes is not None:
                self.copies_in += 1
                self.bytes_in += int(in_bytes)
            if out_bytes is not None:
                self.copies_out += 1
                self.bytes_out += int(out_bytes)


class SimulatedRuntime(HostRuntime):
    """A simulated accelerator (a preset device absent from this machine). Its values live in blocks of its
    own pool (NumPy byte buffers standing in for device memory, capacity = the preset's memory); a region
    runs the host's kernel and its outputs are copied into their blocks; copies in and out are counted.
    Numerics are the host's: a simulation checks placement, transfers and memory, not the device's
    arithmetic."""

    name = "simulated"
    simulated = True

    def __init__(self, device, cache_dir: str | None = None, backend=None):
        super().__init__(device, backend, cache_dir)
        self.pool = DevicePool(_new_block, capacity=device.memory or None)

    def place(self, block, value, aval):
        out = _view(block, aval)
        np.copyto(out, value, casting="unsafe")
        return out


def _new_block(nbytes: int) -> np.ndarray:
    return np.empty(max(nbytes, 1), np.uint8)


def _view(block, aval):
    nbytes = math.prod(aval.shape) * aval.dtype.itemsize
    return block[:nbytes].view(aval.dtype).reshape(aval.shape)


# -- which runtime runs a device --------------------------------------------------------------------------
_runtimes: dict = {}  # (device record, role, cache_dir) -> runtime: one pool per device, shared by every plan
_runtimes_lock = threading.Lock()


class RuntimeMissing(RuntimeError):
    """No runtime can execute a device of the plan (a device present here that no available backend serves)."""


def runtime_for(device, home, cache_dir: str | None = None):
    """The runtime of `device` in a plan whose default device is `home` (the host): the host backend's
    runtime for the host, a simulated accelerator running the host backend's steps for a preset, else the
    runtime of the backend compiling for the device (registry.for_device)."""
    from arraystack.backends.registry import BackendUnavailable, for_device

    if home.kind != "cpu":
        raise RuntimeMissing(f"the default device {home.key} is not a CPU; the host must be one")
    try:
        host_backend = for_device(home)
        backend = host_backend if device.source == "preset" else for_device(device)
    except BackendUnavailable as e:
        named = f", backend {device.backend!r}" if device.backend else ""
        raise RuntimeMissing(
            f"no runtime executes {device.key} ({device.name or device.kind}{named}): {e}. Install the "
            "backend's package, or plan on presets (simulated devices)"
        ) from e
    if device.key == home.key:
        role, make = f"host:{backend.name}", backend.runtime
    elif device.source == "preset":
        role, make = f"simulated:{backend.name}", functools.partial(SimulatedRuntime, backend=backend)
    else:
        role, make = backend.name, backend.runtime
    with _runtimes_lock:
        key = (device, role, cache_dir)
        runtime = _runtimes.get(key)
        if runtime is None:
            runtime = _runtimes[key] = make(device, cache_dir=cache_dir)
        return runtime


__all__ = [
    "DevicePool",
    "HostRuntime",
    "RuntimeMissing",
    "SimulatedRuntime",
    "runtime_for",
]
