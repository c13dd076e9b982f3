"""The device runtime of a CUDA device (device_runtime.py's interface): blocks from cupy's memory pool, copies
to and from the host, steps run with the device current, and synchronization.

A block is a cupy uint8 array of the device: running out of device memory (cupy's pool limit, or the
device's) is a MemoryError the engine reports as arraystack.OutOfMemory naming the step. Steps compute into
arrays of their own, which place() copies into their plan buffer. Work is queued on the device's current
stream, so a step's time is read from CUDA events around it (clock()), once the run has synchronized.
"""

from __future__ import annotations

import math
import time

import numpy as np
from arraystack.backends.device_runtime import HostRuntime
from arraystack.backends.memory import DevicePool, out_of_memory


class CupyRuntime(HostRuntime):
    """One CUDA device (`device.index`) of the hardware model, through `xp` (cupy, or its stand-in)."""

    name = "cupy"
    simulated = False

    def __init__(self, device, backend, xp, cache_dir: str | None = None):
        super().__init__(device, backend, cache_dir)
        self.xp = xp
        self.index = device.index
        self.pool = DevicePool(self._new_block, capacity=device.memory or None)

    def _new_block(self, nbytes: int):
        xp = self.xp
        with xp.cuda.Device(self.index):
            return xp.empty(max(nbytes, 1), xp.uint8)

    def _view(self, block, aval):
        nbytes = math.prod(aval.shape) * aval.dtype.itemsize
        return block[:nbytes].view(aval.dtype).reshape(aval.shape)

    def place(self, block, value, aval):
        """A step's result copied into its plan buffer `block` (on this device)."""
        out = self._view(block, aval)
        with self.xp.cuda.Device(self.index):
            out[...] = value
        return out

    def copy_in(self, array, block, aval):
        """A host array into `block` on this device."""
        self._count(in_bytes=array.nbytes)
        out = self._view(block, aval)
        with self.xp.cuda.Device(self.index):
            out.set(np.ascontiguousarray(array, dtype=aval.dtype))
        return out

    def copy_out(self, value) -> np.ndarray:
        """A new host array holding `value` (an array on this device)."""
        self._count(out_bytes=value.nbytes)
        return self.xp.asnumpy(value)

    def prepare(self, eqn, graph):
        """The backend's step for `eqn`, which reports running out of device memory as OutOfMemory naming
        the step's primitive."""
        step, oom = (
            self.backend.step(eqn, graph, self.options),
            self.xp.cuda.memory.OutOfMemoryError,
        )
        index, key = graph.eqns.index(eqn), self.key

        def run(*inputs):
            try:
                return step(*inputs)
            except oom as e:
                what = f"`{eqn.prim.name}`"
                raise out_of_memory(
                    key,
                    index,
                    eqn.prim.name,
                    what,
                    eqn.source,
                    _outputs_bytes(eqn),
                    0,
                    None,
                    "allocator",
                ) from e

        return run

    def run(self, step, inputs, outputs):
        with self.xp.cuda.Device(self.index):
            return super().run(step, inputs, outputs)

    def synchronize(self) -> None:
        """Wait for the work queued on this device."""
        self.xp.cuda.Device(self.index).synchronize()

    def clock(self):
        """A clock of one step on this device: CUDA events recorded on its current stream before and after
        (engine_report.StepClock's interface), read after synchronize()."""
        return EventClock(self.xp, self.index)


class EventClock:
    """CUDA events recorded before and after one step on device `index`; seconds() waits for the stop."""

    def __init__(self, xp, index):
        self.xp, self.index = xp, index

    def __enter__(self):
        self.host_start = time.perf_counter()  # where a profile places the step (profiler.py)
        with self.xp.cuda.Device(self.index):
            self.start = self.xp.cuda.Event()
            self.stop = self.xp.cuda.Event()
            self.start.record()
        return self

    def __exit__(self, *exc):
        with self.xp.cuda.Device(self.index):
            self.stop.record()

    def seconds(self) -> float:
        self.stop.synchronize()
        return self.xp.cuda.get_elapsed_time(self.start, self.stop) / 1e3


def _outputs_bytes(eqn) -> int:
    return sum(math.prod(v.aval.shape) * v.aval.dtype.itemsize for v in eqn.outputs)


__all__ = ["CupyRuntime"]
