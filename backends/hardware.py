"""The hardware model: which devices exist and what work costs on them, as plain frozen records.

detect() describes this machine: its CPU with figures measured by short micro-benchmarks (calibration.py,
cached on disk), plus the devices of every registered kind (a CUDA device's figures measured and cached the
same way, backends/cupy/calibration.py) (register_device_kind, or a package entry point in
the `arraystack.devices` group), plus simulated presets (presets.py). The planner and the cost model read
these records; nothing queries a device after detection.
"""

from __future__ import annotations

import inspect
import logging
import warnings
from dataclasses import asdict, dataclass, field, replace

import numpy as np

log = logging.getLogger("arraystack.hardware")

ENTRY_POINT_GROUP = "arraystack.devices"


@dataclass(frozen=True)
class Device:
    """One device's figures. `key` ("cpu", "cuda:0") is the name arraystack.Device and to_device accept.

    peak_flops holds (dtype name, flop/s) pairs; peak(dtype) looks one up. bandwidth is the device memory's
    bandwidth in bytes/s; launch_latency the fixed cost of one kernel launch (or compiled-step call) in s.
    source says where the figures come from: "measured", "preset", "estimated", "registered", or
    "host" (a bare record of this machine's CPU, hardware.host).
    """

    kind: str
    index: int = 0
    name: str = ""
    cores: int = 1
    memory: int = 0
    peak_flops: tuple = ()
    bandwidth: float = 0.0
    launch_latency: float = 0.0
    backend: str = ""  # the backend compiling for it; "": the registry's for its kind (registry.for_device)
    source: str = "registered"

    @property
    def key(self) -> str:
        return "cpu" if self.kind == "cpu" and self.index == 0 else f"{self.kind}:{self.index}"

    def peak(self, dtype) -> float:
        """Peak flop/s for arithmetic in `dtype`: complex counts as its real component; a dtype without a
        figure of its own (integers, bool, float16 on a CPU) uses the float32 figure, else the largest."""
        table = dict(self.peak_flops)
        if not table:
            return 0.0
        name = np.dtype(dtype).name if dtype is not None else "float32"
        name = {"complex64": "float32", "complex128": "float64"}.get(name, name)
        return table.get(name) or table.get("float32") or max(table.values())

    def as_dict(self) -> dict:
        data = asdict(self)
        data["peak_flops"] = {name: flops for name, flops in self.peak_flops}
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Device:
        data = dict(data)
        data["peak_flops"] = tuple(
            (str(name), float(flops)) for name, flops in data.get("peak_flops", {}).items()
        )
        return cls(**data)

    def describe(self) -> str:
        flops = ", ".join(f"{name} {_si(value)}FLOP/s" for name, value in self.peak_flops)
        return (
            f"{self.key:8s} {self.name or self.kind} ({self.source}, backend {self.backend or 'by kind'}): "
            f"{self.cores} cores, {self.memory / 2**30:.3g} GiB memory, {_si(self.bandwidth)}B/s, "
            f"peak {flops or 'unknown'}, launch {self.launch_latency * 1e6:.2f} us"
        )


@dataclass(frozen=True)
class Link:
    """A one-way copy path between two devices (by key), e.g. host to GPU over PCIe."""

    src: str
    dst: str
    bandwidth: float
    latency: float
    name: str = ""

    def transfer_time(self, nbytes: float) -> float:
        return self.latency + nbytes / self.bandwidth

    def describe(self) -> str:
        name = f" ({self.name})" if self.name else ""
        return (
            f"{self.src} -> {self.dst}{name}: {_si(self.bandwidth)}B/s, "
            f"latency {self.latency * 1e6:.1f} us"
        )


@dataclass(frozen=True)
class HardwareModel:
    """Devices and the links between them. Iterates over devices; model[0] or model["cuda:0"] picks one;
    the first device is the default (the host)."""

    devices: tuple = ()
    links: tuple = field(default=())

    def __iter__(self):
        return iter(self.devices)

    def __len__(self):
        return len(self.devices)

    def __getitem__(self, which) -> Device:
        if isinstance(which, str):
            return self.device(which)
        return self.devices[which]

    @property
    def default(self) -> Device:
        return self.devices[0]

    def device(self, key: str) -> Device:
        for device in self.devices:
            if device.key == key:
                return device
        known = ", ".join(d.key for d in self.devices)
        raise KeyError(f"no device {key!r} in the hardware model (it has {known})")

    def link(self, src: str, dst: str) -> Link | None:
        """The link from src to dst; None when src is dst (no copy needed). KeyError when unconnected."""
        if src == dst:
            return None
        for link in self.links:
            if link.src == src and link.dst == dst:
                return link
        raise KeyError(f"the hardware model has no link from {src!r} to {dst!r}")

    def with_devices(self, devices=(), links=()) -> HardwareModel:
        return HardwareModel(self.devices + tuple(devices), self.links + tuple(links))

    def describe(self) -> str:
        lines = [device.describe() for device in self.devices]
        lines += [link.describe() for link in self.links]
        return "\n".join(lines)

    __str__ = describe


def host(backend: str) -> Device:
    """This machine's CPU as a bare record (no measured figures: nothing is calibrated) compiled for by
    `backend`: the device of a jitted function's default placement (engine.Engine.on_one_device)."""
    return Device(kind="cpu", name="this machine's CPU", backend=backend, source="host")


def _si(value: float) -> str:
    for prefix in ("", "K", "M", "G", "T"):
        if abs(value) < 999.5:
            return f"{value:.3g} {prefix}"
        value /= 1000
    return f"{value:.3g} P"


# -- device kinds --------------------------------------------------------------------------------------------
# kind -> detect() returning an iterable of Device and Link records for the devices of that kind present here
# (none on a machine without them). The CPU is built in and measured; see detect().
device_kinds: dict[str, object] = {}
_backends: dict[str, str] = {}
_entry_points_loaded = False


def register_device_kind(kind: str, detect, backend: str | None = None) -> None:
    """Register a device kind: `detect()` returns its Device (with cost figures) and Link records;
    `backend`, if given, names the backend that compiles for it (it overrides the records' own)."""
    if not isinstance(kind, str) or not kind or kind == "cpu":
        raise ValueError(f"a device kind must be a non-empty string other than 'cpu', got {kind!r}")
    if not callable(detect):
        raise TypeError(f"detect for device kind {kind!r} must be callable, got {detect!r}")
    device_kinds[kind] = detect
    if backend is not None:
        _backends[kind] = backend
    _detected.clear()


def _load_entry_points() -> None:
    """Register the kinds packages declare in the `arraystack.devices` entry point group (name = kind,
    object = its detect function). A broken entry point warns; it never stops detection."""
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in device_kinds:
            continue
        try:
            register_device_kind(ep.name, ep.load())
        except Exception as e:  # noqa: BLE001 - a third-party plugin must not break import
            warnings.warn(f"arraystack: device entry point {ep.value!r} failed: {e}", stacklevel=2)


def _detect_kind(kind: str, detect, cache_dir=None, recalibrate=False) -> tuple[list, list]:
    """The records of one kind. A detect function taking `cache_dir` (and `recalibrate`) keywords measures
    its devices and caches their figures there, as the CPU's (backends/cupy/calibration.py)."""
    try:
        parameters = inspect.signature(detect).parameters
    except (TypeError, ValueError):
        parameters = {}
    keywords = {"cache_dir": cache_dir} if "cache_dir" in parameters else {}
    if "recalibrate" in parameters:
        keywords["recalibrate"] = recalibrate
    try:
        records = list(detect(**keywords))
    except Exception as e:  # noqa: BLE001 - one kind's failure leaves the others usable
        warnings.warn(f"arraystack: detecting {kind!r} devices failed: {e}", stacklevel=3)
        return [], []
    devices = [r for r in records if isinstance(r, Device)]
    links = [r for r in records if isinstance(r, Link)]
    if kind in _backends:
        devices = [replace(d, backend=_backends[kind]) for d in devices]
    return devices, links


def _load_backends() -> None:
    """Find the backends (registry.py): a backend's folder registers the device kinds it serves (cupy's,
    "cuda", backends/cupy/backend.py)."""
    from arraystack.backends import registry

    registry.names()


def forget_detected() -> None:
    """Drop the detected models, so the next detect() looks again (devices appeared or went)."""
    _detected.clear()


# -- detection -----------------------------------------------------------------------------------------------
_detected: dict = {}  # (cache_dir, presets) -> HardwareModel, so devices() is cheap after the first call


def detect(cache_dir: str | None = None, recalibrate: bool = False, presets=()) -> HardwareModel:
    """This machine's hardware model: the CPU (figures calibrated once, then read from
    <cache_dir>/hardware/cpu.json; recalibrate=True measures again), registered kinds (those whose detect
    takes cache_dir measure and cache alike), and simulated
    presets (names from presets.DEVICE_PRESETS, added after the real devices with links to the host)."""
    from arraystack.backends.calibration import cpu_device
    from arraystack.backends.presets import simulated

    key = (cache_dir, tuple(presets))
    if not recalibrate and key in _detected:
        return _detected[key]
    _load_backends()
    _load_entry_points()
    devices, links = [cpu_device(cache_dir, recalibrate)], []
    for kind, detect_fn in list(device_kinds.items()):
        found, found_links = _detect_kind(kind, detect_fn, cache_dir, recalibrate)
        devices += found
        links += found_links
    model = HardwareModel(tuple(devices), tuple(links))
    for name in presets:
        model = simulated(model, name)
    if recalibrate:
        _detected.clear()
    _detected[key] = model
    return model
