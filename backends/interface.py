"""The backend interface: what arraystack asks of a backend, and all it may assume of one.

A backend turns an optimized graph (arraystack.ir) into something that runs on the devices it serves. The
frontend, the planner and the execution engine reach a backend only through this class and the registry
(registry.py), by name: nothing outside a backend's own folder imports it. A new backend is a folder beside
`backends/numba/` whose `backend.py` holds an instance named `backend` (found by the registry), or a package
that names one in the entry-point group `arraystack.backends`.

What a backend says about itself:
- `name`, `device_kinds` (the hardware kinds it compiles for: "cpu", "cuda"; the hardware model's Device.kind),
  `priority` (the default backend is the available one with the highest priority);
- `unavailable_reason()`: None when it can run here, else why not (a package missing, no device);
- `describe()`: one line for `python -m arraystack info`;
- `fusion`: the FusionPolicy it hands the fuse pass (which equations may join a region, which need a checked
  variant, whether regions may reduce): the optimizer groups only what the backend can lower;
- `unsupported(eqn)`: why it does not compile an equation (a primitive or dtype): it runs the reference rule.

What it does:
- `compile(graph, options) -> Executable`: the whole graph as one runnable (executable.py): a list of buffers
  in, a list out. This is what a default `jit` call runs;
- `step(eqn, graph, options)`: one equation of a plan (a fusion region, a loop, a product, a reference rule)
  as a function of its input values returning the list of its outputs: what the execution engine runs per
  step of a plan placed on this backend's devices;
- `runtime(device, cache_dir)`: the device runtime (device_runtime.py: pool, copies, run, synchronize) of one
  of its devices present on this machine;
- optional `tiers`: an object whose `compile(graph, options, name, stats)` returns an executable that runs at
  once and a `pending` compile, which the frontend starts after the first call (see Tiers). numba's NumPy
  twin and its compile worker live behind this, in numba's folder;
- `configure(**settings)`: settings of arraystack.config it cares about (kernel_cache_size); others ignored;
- `compiled_kernels()`: kernels compiled by this process so far (jit's stats count the difference);
- `cache_entry(name)`, `cache_fallback(cache_dir)`: what it keeps on disk (`python -m arraystack cache`).

What the frontend's devices ask (only a backend whose devices hold arrays of their own, a GPU's):
- optional `arrays`: a `DeviceArrays` (below): the array types of its devices and their namespace (cupy), the
  devices present, copies to and from the host and between its devices, DLPack's device type, and the eager
  evaluation of a primitive on its arrays. `arraystack.devices()`, `x.device`, `to_device`, `device=` and
  `from_dlpack` reach a GPU only through it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CompileOptions:
    """How to compile: where kernels persist, which graph inputs the executable may overwrite, which tier.

    Parameters
    ----------
    cache_dir : str or None
        The directory kernels persist under (None: the backend's default).
    donate : frozenset of int
        Positions of graph inputs whose buffers the executable may overwrite with outputs: a permission,
        not an obligation.
    tier : int
        1 for the compiled code; 0 for a backend's first tier (what runs while it compiles), where it
        has one (see `Tiers`).
    """

    cache_dir: str | None = None
    donate: frozenset = field(default_factory=frozenset)
    tier: int = 1


class Backend:
    """Base class of backends: what arraystack asks of a backend, and all it may assume of one.

    A subclass sets `name`, `device_kinds` and `priority` and overrides `compile` (the whole graph, what
    a `jit` call runs) and `step` (one equation, what the execution engine runs per step of a plan); the
    other methods have working defaults. Register an instance with `arraystack.backends.register`, put it
    in a folder beside `backends/numba/` as `backend.py`'s `backend`, or name it in the entry-point group
    `arraystack.backends`. The documentation's internals page "Backends" describes each method and a
    minimal backend.
    """

    name: str = ""
    """The name `jit(backend=...)`, `ARRAYSTACK_BACKEND` and the registry use."""
    device_kinds: tuple = ()
    """The kinds of hardware it compiles for (`Device.kind` of the hardware model: "cpu", "cuda")."""
    priority: int = 0
    """The default backend is the available one of highest priority (numba 10, the reference backend 0)."""
    tiers = None
    """None (every compile waits for the code), or an object following the `Tiers` protocol that gives the
    first calls something to run while the code compiles."""
    arrays = None
    """None (its devices hold host arrays, or none), or a `DeviceArrays` saying what arrays its devices hold
    and how the frontend creates, moves and evaluates them (a GPU backend's)."""

    @property
    def fusion(self):
        """The FusionPolicy the fuse pass groups by for this backend (default: GENERIC, all it can express)."""
        from arraystack.ir.passes import GENERIC

        return GENERIC

    def unavailable_reason(self) -> str | None:
        """None when this backend can compile and run on this machine, else a sentence saying why not."""
        return None

    def describe(self) -> str:
        """One line: what this backend is (version, what it compiles to)."""
        return self.name

    def unsupported(self, eqn) -> str | None:
        """Why `eqn` (an equation or a fusion region) runs its reference rule here; None if compiled."""
        return None

    def runs_as(self, eqn, graph) -> str | None:
        """How a compiled step of `eqn` runs here, for plan.explain() ("cuda kernel (rows)"); None when
        the backend does not say."""
        return None

    def compile(self, graph, options: CompileOptions):
        """The optimized graph as an Executable (backends/executable.py): called with the list of the
        graph's input buffers, it returns the list of its outputs. What a `jit` call without a placement
        policy runs."""
        raise NotImplementedError(f"backend {self.name!r} does not implement compile()")

    def step(self, eqn, graph, options: CompileOptions):
        """Equation `eqn` of `graph` (a fusion region, a loop, a product, any other primitive) as a
        function of its input values returning the list of its outputs: what the execution engine runs
        for a step of a plan placed on one of this backend's devices."""
        raise NotImplementedError(f"backend {self.name!r} does not implement step()")

    def runtime(self, device, cache_dir: str | None = None):
        """The runtime of `device`, one of this backend's kinds present on this machine. Host backends get
        the host runtime, which runs `step` on host memory."""
        from arraystack.backends.device_runtime import HostRuntime

        if device.kind != "cpu":
            raise NotImplementedError(
                f"backend {self.name!r} has no runtime for {device.kind} devices; a backend for another "
                "kind of device overrides runtime()"
            )
        return HostRuntime(device, self, cache_dir)

    def configure(self, **settings) -> None:
        """Take the settings of arraystack.config this backend uses; ignore the others. Called with every
        setting at import and with each setting assigned afterwards."""

    def compiled_kernels(self) -> int:
        """How many kernels this process has compiled for this backend so far."""
        return 0

    def cache_entry(self, name: str) -> str | None:
        """What the entry `name` of the cache directory (arraystack.config.cache_dir) holds when it is this
        backend's (`python -m arraystack cache` lists and clears such entries), else None."""
        return None

    def cache_fallback(self, cache_dir: str) -> dict | None:
        """Where this backend caches instead when `cache_dir` cannot be written, when that is in use or
        exists: {"root": the directory, "why": why cache_dir cannot be written (None: not in use),
        "private": whether it is this user's alone (else never used nor cleared)}; None otherwise."""
        return None

    def __repr__(self):
        return f"<arraystack backend {self.name!r}>"


class DeviceArrays:
    """What the frontend asks of a backend whose devices hold arrays of their own (`Backend.arrays`): how
    `x.device`, `to_device`, `device=`, DLPack and eager evaluation reach them. The defaults describe a kind
    with no device present; a GPU backend overrides each (backends/cupy/arrays.py is the example).

    Devices are named by their index among the devices of `kind` ("cuda:1" is index 1). Every method but
    `types`, `count` and `missing` is called only when `count()` is positive.
    """

    kind: str = ""
    """The device kind its arrays live on ("cuda"): the `Device.kind` of arraystack and of the hardware
    model."""
    dlpack_device_type: int | None = None
    """DLPack's code for that kind (dlpack.h's DLDeviceType; kDLCUDA is 2), which `__dlpack_device__`
    reports and `from_dlpack` recognizes."""

    def types(self) -> tuple:
        """The array types living on these devices (empty while none can exist here); cheap to ask."""
        return ()

    def count(self) -> int:
        """How many devices of `kind` are present and usable here (0: none)."""
        return 0

    def missing(self) -> str:
        """Why no device of `kind` can be used here and how to get one (a package or a device missing)."""
        return f"no {self.kind} device is present"

    def namespace(self):
        """The array module that evaluates these arrays (cupy): reference rules run with it as `xp`."""
        return None

    def device_of(self, array) -> int:
        """The index of the device holding `array`."""
        return 0

    def evaluate(self, prim, args, params, device: int | None = None):
        """Primitive `prim` applied eagerly to `args` (with `params`): its rule with `xp` = `namespace()`, on
        the device of the operands (`device` when none is an array of these devices: scalars only; an index,
        or an array whose device it is). Operands on another device, the host's arrays included, raise
        ValueError naming both devices."""
        raise NotImplementedError(f"no eager evaluation on {self.kind} devices")

    def from_host(self, array, device: int):
        """A copy of the NumPy array `array` on device `device`."""
        raise NotImplementedError(f"no copies to {self.kind} devices")

    def to_host(self, array):
        """A NumPy copy of `array` (one of these devices' arrays) in host memory."""
        raise NotImplementedError(f"no copies from {self.kind} devices")

    def move(self, array, device: int):
        """`array` copied to another device `device` of this kind."""
        raise NotImplementedError(f"no copies between {self.kind} devices")

    def adopt(self, obj):
        """`obj` as one of these arrays without a copy, when it is one or shares device memory through the
        kind's own protocol (`__cuda_array_interface__`); None when it does not."""
        return None

    def from_dlpack(self, obj, device: int | None = None, copy: bool | None = None):
        """An array sharing the memory of the DLPack producer `obj`, whose memory is on a device of this
        kind: copied when `copy` is true, or to reach `device` when that is another one (BufferError then
        if `copy` is False)."""
        raise NotImplementedError(f"no DLPack import on {self.kind} devices")


class Tiers:
    """What a backend with tiers gives the frontend (documentation of the protocol; numba's is
    backends/numba/tiering.py).

    `compile(graph, options, name, stats)` returns `(executable, pending)`: an executable that answers at
    once (compiling nothing), and a `pending` object with `start(buffers, consts, snapshot, switch)` (compile
    for these argument types, in the background; once, later calls do nothing), `wait(timeout) -> bool` and
    the attributes `started` and `error`. When the compiled executable is ready the backend calls
    `switch(executable)`: the frontend's cache entry runs it from then on. `snapshot(buffers)`, called on a
    cache miss before tracing, may copy what the background compile needs while the call traces; its result
    is handed to `start`. `stats.compiles` counts the kernels compiled. `name` names the function in logs."""

    def snapshot(self, buffers):  # pragma: no cover - protocol documentation
        return None

    def compile(self, graph, options, name, stats):  # pragma: no cover - protocol documentation
        raise NotImplementedError


__all__ = ["Backend", "CompileOptions", "DeviceArrays", "Tiers"]
