"""Devices: where an array's buffer lives (`x.device`, `to_device`, the `device=` argument of the Array API).

A Device is a plain value (kind + index). The buffer type of an eager array tells its device: NumPy arrays
live on the CPU; a GPU backend registers its array type (e.g. cupy.ndarray) and a transfer in each direction.
Traced values have no buffer yet and report the default device, where the trace will run unless the
planner places it elsewhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack.ir.core import Tracer, user_line

if TYPE_CHECKING:
    from arraystack.backends.hardware import HardwareModel

# DLPack's device type codes (dlpack.h, DLDeviceType) for the kinds arraystack knows by name.
DLPACK_DEVICE_TYPES = {"cpu": 1, "cuda": 2, "cuda_host": 3, "rocm": 10}


class Device:
    """A device: `Device("cpu")`, `Device("cuda", 1)`. Compares equal to its name ("cpu", "cuda:1").

    Note: NumPy's `ndarray.device` is the string "cpu"; equality with that string (and the matching hash)
    keeps NumPy code such as `x.device == "cpu"` working.
    """

    __slots__ = ("index", "kind")

    def __init__(self, kind: str, index: int = 0):
        if not isinstance(kind, str) or not kind:
            raise ValueError(f"a device kind must be a non-empty string, got {kind!r}")
        index = int(index)
        if index < 0:
            raise ValueError(f"a device index must be non-negative, got {index}")
        self.kind = kind
        self.index = index

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
        return hash(self.name)

    def __repr__(self):
        return f"Device({self.name!r})"

    def __str__(self):
        return self.name

    def __reduce__(self):
        return (Device, (self.kind, self.index))


CPU = Device("cpu")

# buffer type -> function(buffer) -> Device. A GPU backend adds its array type here.
buffer_devices: dict[type, object] = {np.ndarray: lambda buffer: CPU}
# (source kind, destination kind) -> function(buffer, destination Device) -> buffer on that device.
transfers: dict[tuple[str, str], object] = {}


def register_buffer_type(buffer_type: type, device_of_buffer) -> None:
    """Teach arraystack which device a backend's buffer type lives on (e.g. cupy.ndarray -> cuda:N)."""
    buffer_devices[buffer_type] = device_of_buffer


def register_transfer(src_kind: str, dst_kind: str, transfer) -> None:
    """`transfer(buffer, device)` copies a buffer of a `src_kind` device to `device` (of `dst_kind`)."""
    transfers[(src_kind, dst_kind)] = transfer


def available_devices() -> list[Device]:
    """The devices arraystack can place arrays on: the CPU, plus those of registered backends."""
    kinds = {"cpu"} | {dst for (_, dst) in transfers} | {src for (src, _) in transfers}
    return [CPU] + [Device(kind) for kind in sorted(kinds - {"cpu"})]


def default_device() -> Device:
    return CPU


def device_of_buffer(buffer) -> Device:
    """The device of a raw value: a buffer's own device; the default device for traced values."""
    t = type(buffer)
    if t is np.ndarray:
        return CPU
    if t is Tracer:
        return default_device()
    for buffer_type, device_of in buffer_devices.items():
        if isinstance(buffer, buffer_type):
            return device_of(buffer)
    if isinstance(buffer, (np.generic, bool, int, float, complex)):
        return CPU
    raise TypeError(f"arraystack does not know the device of a {t.__name__}")


def check_device(device) -> Device | None:
    """Validate a `device=` argument: None (no preference) or a device arraystack can place arrays on."""
    if device is None:
        return None
    device = Device.parse(device)
    if device == CPU or any(device.kind == d.kind for d in available_devices()[1:]):
        return device
    names = ", ".join(repr(d.name) for d in available_devices())
    raise ValueError(
        f"unsupported device {device.name!r} (at {user_line()}); arraystack can use: {names}. "
        "A GPU needs CuPy (pip install cupy-cuda12x) and a CUDA device (`python -m arraystack info` "
        "says which backends are available); leave device= out to use the CPU."
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
    transfer = transfers.get((src.kind, device.kind))
    if transfer is None:
        raise ValueError(f"arraystack has no transfer from {src.name!r} to {device.name!r}")
    return transfer(buffer, device)


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


__all__ = ["devices"]
