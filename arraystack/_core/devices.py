"""Devices: where an array's buffer lives (`x.device`, `to_device`, the `device=` argument of the Array API,
the default device).

A Device is a plain value (kind + index). The buffer type of an eager array tells its device: NumPy arrays
live on the CPU; a backend whose devices hold arrays of their own (Backend.arrays: cupy's) gives its array
types, its devices and the copies in each direction, which `_sync` reads from the registry. Traced values
have no buffer yet and report the default device, where the trace will run unless the planner places it
elsewhere.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from typing import TYPE_CHECKING

import numpy as np

from arraystack.ir.core import (
    Tracer,
    composition_constants,
    device_namespaces,
    placement,
    register_array_namespace,
    unregister_array_namespace,
    user_line,
)

if TYPE_CHECKING:
    from arraystack.backends.hardware import HardwareModel

# DLPack's device type codes (dlpack.h, DLDeviceType) for the kinds arraystack knows by name.
DLPACK_DEVICE_TYPES = {"cpu": 1, "cuda": 2, "cuda_host": 3, "rocm": 10}


class Device:
    """A device: `Device("cpu")`, `Device("cuda", 1)`. Compares equal to its name ("cpu", "cuda:1").

    Note: NumPy's `ndarray.device` is the string "cpu"; equality with that string (and the matching hash)
    keeps NumPy code such as `x.device == "cpu"` working.
    """

    __slots__ = ("_hash", "index", "kind")

    def __init__(self, kind: str, index: int = 0):
        if not isinstance(kind, str) or not kind:
            raise ValueError(f"a device kind must be a non-empty string, got {kind!r}")
        index = int(index)
        if index < 0:
            raise ValueError(f"a device index must be non-negative, got {index}")
        self.kind = kind
        self.index = index
        # the hash of its name: a Device equals its name (`device == "cuda:0"`), so hashes alike
        self._hash = hash(self.name)

    @classmethod
    def parse(cls, spec) -> Device:
        """A Device from a Device, a name ("cpu", "cuda", "cuda:1"), a record of arraystack.devices() or a
        DLPack (type, index) pair."""
        if isinstance(spec, Device):
            return spec
        if isinstance(spec, str):
            kind, _, index = spec.partition(":")
            if index and not index.isdigit():
                raise ValueError(f"device not understood: {spec!r}")
            return cls(kind.lower(), int(index or 0))
        kind, index = getattr(spec, "kind", None), getattr(spec, "index", None)
        if isinstance(kind, str) and isinstance(index, int):
            return cls(kind, index)  # a hardware-model record (arraystack.devices())
        if isinstance(spec, tuple) and len(spec) == 2:
            for kind, code in DLPACK_DEVICE_TYPES.items():
                if code == spec[0]:
                    return cls(kind, spec[1])
            raise ValueError(f"unknown DLPack device type {spec[0]}")
        raise TypeError(
            f"device must be a Device or a string such as 'cpu', got {type(spec).__name__}"
        )

    @property
    def name(self) -> str:
        """The canonical spelling: "cpu" for the (single) host, "<kind>:<index>" otherwise."""
        if self.kind == "cpu" and self.index == 0:
            return "cpu"
        return f"{self.kind}:{self.index}"

    def dlpack_device(self) -> tuple[int, int]:
        """(DLPack device type, device index), as `__dlpack_device__` reports it."""
        try:
            return (DLPACK_DEVICE_TYPES[self.kind], self.index)
        except KeyError:
            raise ValueError(f"device {self.name!r} has no DLPack device type") from None

    def __eq__(self, other):
        if isinstance(other, Device):
            return self.kind == other.kind and self.index == other.index
        if isinstance(other, str):
            try:
                other = Device.parse(other)
            except ValueError:
                return False
            return self.kind == other.kind and self.index == other.index
        return NotImplemented

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"Device({self.name!r})"

    def __str__(self):
        return self.name

    def __reduce__(self):
        return (Device, (self.kind, self.index))


CPU = Device("cpu")

# buffer type -> function(buffer) -> Device: NumPy's, plus the array types of backends with devices of their
# own (Backend.arrays, a DeviceArrays: cupy's), which `_sync` adds from the registry.
buffer_devices: dict[type, object] = {np.ndarray: lambda buffer: CPU}
# (source kind, destination kind) -> function(buffer, destination Device) -> buffer on that device.
transfers: dict[tuple[str, str], object] = {}


def register_buffer_type(buffer_type: type, device_of_buffer) -> None:
    """Teach arraystack which device a buffer type lives on (e.g. cupy.ndarray -> cuda:N)."""
    buffer_devices[buffer_type] = device_of_buffer


def register_transfer(src_kind: str, dst_kind: str, transfer) -> None:
    """`transfer(buffer, device)` copies a buffer of a `src_kind` device to `device` (of `dst_kind`)."""
    transfers[(src_kind, dst_kind)] = transfer


# -- the registry's device kinds ---------------------------------------------------------------------------------
_synced = [-1]  # the registry generation the tables below were built from
_kinds: dict = {}  # kind -> DeviceArrays of an available backend
_missing: dict = {}  # kind -> why its backend cannot run here
_registered: list = []  # (buffer type, transfer keys) added by _sync, removed by the next one


def _device_of_kind(kind: str):
    """index -> the Device (kind, index), one object per index (a cached jitted call keys on it)."""
    made: dict = {}

    def of(index):
        device = made.get(index)
        if device is None:
            device = made[index] = Device(kind, index)
        return device

    return of


def _sync() -> None:
    """Rebuild the device kinds from the registry when it changed: each backend's `arrays` (interface.py,
    DeviceArrays) gives its array types, registered for `x.device`, transfers and eager evaluation."""
    from arraystack.backends import registry

    generation = registry.generation()
    if _synced[0] == generation:
        return
    for buffer_type, keys in _registered:
        buffer_devices.pop(buffer_type, None)
        unregister_array_namespace(buffer_type)
        for key in keys:
            transfers.pop(key, None)
    _registered.clear()
    _kinds.clear()
    _missing.clear()
    for backend in registry.all_backends():
        arrays = backend.arrays
        if arrays is None or arrays.kind in _kinds:
            continue
        reason = backend.unavailable_reason()
        count = 0 if reason else arrays.count()
        if not count:
            _missing.setdefault(arrays.kind, reason or arrays.missing())
            continue
        _missing.pop(arrays.kind, None)
        _kinds[arrays.kind] = arrays
        keys = [("cpu", arrays.kind), (arrays.kind, "cpu"), (arrays.kind, arrays.kind)]
        transfers[keys[0]] = lambda buffer, device, a=arrays: a.from_host(
            np.asarray(buffer), device.index
        )
        transfers[keys[1]] = lambda buffer, device, a=arrays: a.to_host(buffer)
        transfers[keys[2]] = lambda buffer, device, a=arrays: a.move(buffer, device.index)
        for buffer_type in arrays.types():
            of_index = _device_of_kind(arrays.kind)
            buffer_devices[buffer_type] = lambda b, a=arrays, of=of_index: of(a.device_of(b))
            register_array_namespace(buffer_type, arrays.namespace(), arrays.evaluate)
            _registered.append((buffer_type, keys))
    placement[0] = _placement if _kinds else None
    _synced[0] = generation


def kinds() -> dict:
    """The device kinds other than the CPU that hold arrays here: kind -> DeviceArrays."""
    _sync()
    return _kinds


def two_devices(subject: str, first, second, where: str = "") -> ValueError:
    """The error of operands on two devices: "<subject> on two devices, A and B<where>; ..." with how to
    move one."""
    return ValueError(
        f"{subject} on two devices, {first} and {second}{where}; arraystack does not copy between "
        f"devices implicitly. Move one of them first: x.to_device('{first}') or "
        f"arraystack.asarray(x, device='{first}')."
    )


def backend_of_arguments(leaves) -> str | None:
    """The name of the backend that compiles a jitted call whose argument leaves are `leaves`: the one of
    the device their arraystack arrays live on, or None (the default backend) when they live on the CPU.
    Arrays on two devices raise ValueError naming both, as an operation of them does eagerly; NumPy
    arrays, scalars and 0-d host arrays live nowhere in particular (copied to the device, as jax.jit
    copies NumPy arguments)."""
    if not kinds():
        return None
    found = None
    for leaf in leaves:
        value = getattr(leaf, "_value", None)
        if value is None or type(value) is Tracer:
            continue
        if type(value) is np.ndarray:
            device = CPU if value.ndim else None
        else:
            device = device_of_buffer(value)
        if device is None or device == found:
            continue
        if found is not None:
            raise two_devices("jit got arguments", found, device, f" (at {user_line()})")
        found = device
    if found is None or found == CPU:
        return None
    from arraystack.backends import registry

    for backend in registry.all_backends():
        arrays = backend.arrays
        if arrays is not None and arrays.kind == found.kind and not backend.unavailable_reason():
            return backend.name
    return None


def available_devices() -> list[Device]:
    """The devices arraystack can place arrays on: the CPU, plus those of the backends' device kinds."""
    _sync()
    found = [CPU]
    for kind, arrays in sorted(_kinds.items()):
        found += [Device(kind, index) for index in range(arrays.count())]
    return found


def device_of_buffer(buffer) -> Device:
    """The device of a raw value: a buffer's own device; the default device for traced values."""
    t = type(buffer)
    if t is np.ndarray:
        return CPU
    if t is Tracer:
        return current_default()
    device_of = buffer_devices.get(t)
    if device_of is not None:
        return device_of(buffer)
    if isinstance(buffer, (np.generic, bool, int, float, complex)):
        return CPU
    _sync()
    for buffer_type, device_of in buffer_devices.items():
        if isinstance(buffer, buffer_type):
            return device_of(buffer)
    raise TypeError(f"arraystack does not know the device of a {t.__name__}")


def check_device(device) -> Device | None:
    """Validate a `device=` argument: None (no preference) or a device arraystack can place arrays on; a
    ValueError saying what is missing (a package, a driver, a device) and how to get it otherwise."""
    if device is None:
        return None
    device = Device.parse(device)
    if device == CPU:
        return device
    _sync()
    arrays = _kinds.get(device.kind)
    if arrays is not None and device.index < arrays.count():
        return device
    names = ", ".join(repr(d.name) for d in available_devices())
    if arrays is not None:
        why = f"there are {arrays.count()} {device.kind} device(s) here"
    elif device.kind in _missing:
        why = _missing[device.kind]
    elif device.kind == "cuda":
        why = "no backend serves CUDA devices (arraystack.backends.available() lists them)"
    else:
        why = f"no backend serves {device.kind!r} devices"
    raise ValueError(
        f"unsupported device {device.name!r} (at {user_line()}): {why}. arraystack can use: {names}; "
        "leave device= out to use the default device (`python -m arraystack info` lists backends)."
    )


def to_device(buffer, device):
    """`buffer` on `device`: the buffer itself if it already lives there, else a copy moved there."""
    device = check_device(device)
    if device is None or type(buffer) is Tracer:
        # Note: traced values are placed by the planner, so to_device is the identity while tracing.
        return buffer
    src = device_of_buffer(buffer)
    if src == device:
        return buffer
    if isinstance(buffer, np.generic):
        buffer = np.asarray(buffer)
    transfer = transfers.get((src.kind, device.kind))
    if transfer is None:
        raise ValueError(f"arraystack has no transfer from {src.name!r} to {device.name!r}")
    return transfer(buffer, device)


def adopt(obj):
    """`obj` as the buffer of an array of a device of its own (a cupy array, an object exporting
    `__cuda_array_interface__`), sharing its memory; None when it is not one."""
    if isinstance(obj, (np.ndarray, list, tuple, int, float, complex, bool, np.generic)):
        return None
    for arrays in kinds().values():
        buffer = arrays.adopt(obj)
        if buffer is not None:
            return buffer
    return None


# -- the default device ------------------------------------------------------------------------------------------
# .stack: the default_device contexts of this thread; .placing: inside create_on
_local = threading.local()
_configured = [None]  # arraystack.config.default_device, a Device or None (the CPU)
# whether any default (config or a context) may be other than the CPU: creation checks
elsewhere = [False]
_contexts = [0]  # default_device contexts open in any thread


def current_default() -> Device:
    """The default device: the innermost `default_device` context of this thread, else
    arraystack.config.default_device, else the CPU."""
    stack = getattr(_local, "stack", None)
    if stack:
        return stack[-1]
    return _configured[0] or CPU


def set_configured(device) -> Device | None:
    """arraystack.config.default_device = device (validated; None or "cpu": the CPU)."""
    device = check_device(device)
    _configured[0] = None if device == CPU else device
    elsewhere[0] = _configured[0] is not None or _contexts[0] > 0
    return device


class default_device:
    """Context manager: arrays created without ``device=`` inside it are placed on `device`.

    Mirrors ``jax.default_device``. Creation functions (``zeros``, ``arange``, ``asarray`` of host data,
    ...) place their result on the default device; computations stay on the device of their operands.

    Parameters
    ----------
    device : str, Device or None
        The device ("cpu", "cuda", "cuda:1", a Device); None restores arraystack.config.default_device.

    Raises
    ------
    ValueError
        The device cannot be used here (the message says what is missing and how to get it).

    See Also
    --------
    devices, ndarray.to_device, config

    Notes
    -----
    arraystack-specific: NumPy has no devices. The setting is per thread;
    ``arraystack.config.default_device`` sets it for every thread.
    """

    def __init__(self, device: object | None) -> None:
        self.device = _configured[0] or CPU if device is None else check_device(device)

    def __enter__(self) -> Device:
        stack = getattr(_local, "stack", None)
        if stack is None:
            stack = _local.stack = []
        stack.append(self.device)
        _contexts[0] += 1
        elsewhere[0] = True
        return self.device

    def __exit__(self, *exc) -> None:
        _local.stack.pop()
        _contexts[0] -= 1
        elsewhere[0] = _configured[0] is not None or _contexts[0] > 0


def creation_device(device, like=None) -> Device | None:
    """Where a creation function must place its result, when that takes more than the host path: the
    given device, else `like`'s (an array's, for *_like and asarray of an array), else the default;
    None when the result belongs on the CPU and nothing else is placing (the common case)."""
    if device is None and getattr(_local, "placing", None) is not None:
        return None  # inside create_on: the placement hook puts what it binds on the device
    if device is not None:
        target = check_device(device)
    elif like is not None:
        target = device_of_buffer(like)
    else:
        target = current_default()
    if target == CPU and not elsewhere[0]:
        return None
    return target


def create_on(target: Device, create, *args, **kwargs):
    """`create(*args, **kwargs)` (a creation function) with its result on `target`: what it binds without
    operands is evaluated there, and the result is moved there if it is not (a composition's host steps)."""
    from arraystack._core.array import wrap

    saved = getattr(_local, "placing", None)
    _local.placing = target
    try:
        out = create(*args, **kwargs)
    finally:
        _local.placing = saved
    value = out._value
    if type(value) is Tracer or device_of_buffer(value) == target:
        return out
    return wrap(to_device(value, target))


def read_on_default(out):
    """An array a reader made on the host (load, loadtxt, fromfile, frombuffer, fromiter, ...) moved to
    the default device when that is not the CPU, as the creation functions place theirs; arrays of host
    dtypes (strings, dates, objects, records), which no other device holds, and anything that is not an
    arraystack array stay as they are."""
    if not elsewhere[0]:
        return out
    from arraystack._core.array import wrap
    from arraystack._core.dtypes import is_host

    value = getattr(out, "_value", None)
    if type(value) is not np.ndarray or is_host(value.dtype):
        return out
    target = creation_device(None)
    if target is None or target == CPU:
        return out

    return wrap(to_device(value, target))


def host_values(buffer) -> np.ndarray:
    """A raw value's elements as a NumPy array, for a check of its values (indices in bounds) or a result
    whose shape depends on them: a device buffer is read back (an explicit copy), a host one is itself.
    An arraystack array is taken by its raw value."""
    if type(buffer) is np.ndarray:
        return buffer
    buffer = getattr(buffer, "_value", buffer)
    if type(buffer) in device_namespaces:
        return to_device(buffer, CPU)
    return np.asarray(buffer)


def constants_on_operand_device(fn=None, *, checked: int | None = None):
    """Decorator: while `fn` runs, the operand-less binds of its composition (an iota, a full) and the host
    NumPy operands of its primitives evaluate on the device of its array arguments (constants_beside), so an
    eager composition's constants meet its operands there, and its host results move there; arrays on two
    devices raise first, except host arrays inside an enclosing composition that places on a device (its
    own constants, passed on to this function). `checked=k`: only the first k positional arguments place
    the call (indexing: index arrays and values on the host follow the indexed array, as cupy and PyTorch
    take them). Without devices it is a plain call."""
    if fn is None:
        return functools.partial(constants_on_operand_device, checked=checked)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if device_namespaces:
            found = {}  # device -> a raw value on it
            placing = (*args, *kwargs.values()) if checked is None else args[:checked]
            for a in placing:
                for item in a if isinstance(a, (list, tuple)) else (a,):
                    value = getattr(item, "_value", None)
                    if (
                        value is not None
                        and type(value) is not Tracer
                        and getattr(value, "ndim", 0)
                    ):
                        found.setdefault(device_of_buffer(value), value)
            enclosing = getattr(_local, "placing", None)
            if enclosing is not None and enclosing != CPU:
                # inside a composition placing on a device: its host arrays are that composition's
                # constants (the caller's own arrays were checked by the outermost call), moved there
                found.pop(CPU, None)
            devices = [d for d in found if d != CPU] + ([CPU] if CPU in found else [])
            if len(devices) > 1:
                first, second = devices[:2]
                raise two_devices(f"`{fn.__name__}` got arrays", first, second)
            if devices and devices[0] != CPU:
                with constants_beside(found[devices[0]]):
                    return _results_on(fn(*args, **kwargs), devices[0])
        return fn(*args, **kwargs)

    return wrapper


def _results_on(out, device):
    """A composition's results (an array, or a tuple or list of them) with those its host steps left on the
    CPU moved to `device`, where its operands live."""
    from arraystack._core.array import ndarray, wrap
    from arraystack._core.dtypes import is_host

    if isinstance(out, (tuple, list)):
        moved = [_results_on(o, device) for o in out]
        return type(out)(*moved) if hasattr(out, "_fields") else type(out)(moved)
    if isinstance(out, ndarray):
        value = out._value  # an array, or a scalar result: a 0-d array on the device, as its reductions
        if isinstance(value, (np.ndarray, np.generic)) and not is_host(value.dtype):
            return wrap(to_device(np.asarray(value), device))
    return out


@contextlib.contextmanager
def constants_beside(like):
    """Inside: operand-less binds (an iota, a full) evaluate on the device of the raw value `like` when that
    is not the CPU, so an eager composition's constants meet its operands on their device."""
    if type(like) in (np.ndarray, Tracer) or isinstance(
        like, (np.generic, bool, int, float, complex)
    ):
        yield
        return
    target = device_of_buffer(like)
    if target == CPU:
        yield
        return
    saved = getattr(_local, "placing", None)
    _local.placing = target
    try:
        yield
    finally:
        _local.placing = saved


def beside_arguments(*trees):
    """constants_beside the first array of a device other than the CPU among the leaves of `trees` (a
    transformation's arguments: grad, vjp, jvp, linearize and vmap run their rules eagerly, and the
    constants those make, and the host NumPy constants of the function, meet the arguments on their
    device, as they do under jit); a plain context without one."""
    if device_namespaces:
        from arraystack.ir import tree

        for leaf in tree.flatten(list(trees))[0]:
            value = getattr(leaf, "_value", leaf)
            if type(value) in device_namespaces:
                return constants_beside(value)
    return contextlib.nullcontext()


def runs_beside_arguments(fn):
    """Decorator: `fn` (a transformed function: a gradient, a Jacobian, a batched function) runs inside
    beside_arguments of its arguments."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with beside_arguments(args, kwargs):
            return fn(*args, **kwargs)

    return wrapper


def _composition_constant(x):
    """A host NumPy operand met inside constants_beside (or create_on): moved to that device."""
    target = getattr(_local, "placing", None)
    return x if target is None else to_device(x, target)


composition_constants[0] = _composition_constant


def _placement():
    """The evaluate of the device operand-less primitives go to (jit/core.py `placement`), or None for the
    CPU."""
    target = getattr(_local, "placing", None) or current_default()
    if target == CPU:
        return None
    arrays = _kinds.get(target.kind)
    return None if arrays is None else functools.partial(arrays.evaluate, device=target.index)


def devices(*presets: str, recalibrate: bool = False) -> HardwareModel:
    """The hardware model: this machine's devices with measured figures and the links between them.

    Each device record gives its kind, name, cores, memory, peak flops per dtype, memory bandwidth
    and launch latency. Figures are calibrated on first use and cached under
    ``arraystack.config.cache_dir``.

    Parameters
    ----------
    *presets : str
        Names of simulated devices to add ("h100", "a100", "server-cpu-64", ...; see
        ``arraystack.backends.presets``).
    recalibrate : bool, optional
        If True, measure the figures again instead of reading the cache.

    Returns
    -------
    model : HardwareModel
        Iterate over it or index it (``devices()[0]``, ``devices()["cpu"]``); ``.links`` lists the
        host-device links. A record's `key` ("cpu", "cuda:0") names the placement
        `ndarray.to_device` accepts.

    See Also
    --------
    ndarray.to_device, config

    Notes
    -----
    arraystack-specific: NumPy has no equivalent (the Array API's
    ``__array_namespace_info__().devices()`` lists device names only).
    """
    from arraystack._core.config import config
    from arraystack.backends.hardware import detect

    return detect(config.cache_dir, recalibrate=recalibrate, presets=presets)


__all__ = ["default_device", "devices"]
