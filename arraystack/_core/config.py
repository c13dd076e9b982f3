"""arraystack.config: run-time settings, each readable from an environment variable at import.

disable_jit (ARRAYSTACK_DISABLE_JIT=1): jitted functions run eagerly, for debugging.
default_backend (ARRAYSTACK_BACKEND): the name of a registered backend (arraystack.backends.available()):
    "numba" (compiled), "reference" (the reference rules, NumPy), ...; default: the available backend of
    highest priority (numba where it is installed).
cache_dir (ARRAYSTACK_CACHE_DIR): where compiled kernels persist; default under the user's cache directory.
log_compiles (ARRAYSTACK_LOG_COMPILES=1): log every trace and compile with its reason.
tiered (ARRAYSTACK_TIERED, default on): a jitted function's first calls run on the reference path while numba
    compiles in the background; off: the first call waits for the compiled code.
tier_compile (ARRAYSTACK_TIER_COMPILE): where that background compile runs: "process" (default; a compile
    worker process writes numba's disk cache, this process loads it) or "thread" (backends/numba/tiering.py).
memory_limit (ARRAYSTACK_MEMORY_LIMIT, bytes; suffixes K, M, G as powers of 1024): compiled plans raise
    arraystack.OutOfMemory before a step would hold more than this on the host; None (default): no limit.
    A dict {"cpu": ..., "cuda:0": ...} sets a limit per device, which plan.run() checks per device.
jit_cache_size (ARRAYSTACK_JIT_CACHE_SIZE, default 256): the compiled specializations (argument shapes,
    dtypes, static values) each jitted function keeps in memory; the least recently used is evicted first
    and traced again when called again (f.stats()["evictions"] counts them).
kernel_cache_size (ARRAYSTACK_KERNEL_CACHE_SIZE, default 1024): the compiled kernels the process keeps
    loaded in memory, least recently used evicted first (an evicted kernel reloads from the disk cache).
default_device (ARRAYSTACK_DEFAULT_DEVICE, default the CPU): where creation functions place arrays made
    without `device=` ("cpu", "cuda", "cuda:1"); the context manager arraystack.default_device overrides it
    in one thread. Computations stay on the device of their operands.
cuda_graphs (ARRAYSTACK_CUDA_GRAPHS=1, default off): a compiled plan on a CUDA device is captured as a CUDA
    graph on its second call with the same argument shapes and replayed from then on (one launch instead
    of one per step; backends/cupy/graphs.py); plans that cannot be captured run step by step.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from arraystack.backends import registry
from arraystack.backends.memory import OutOfMemory, limits

__all__ = ["OutOfMemory", "config"]


def _flag(name, default=False):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() not in ("", "0", "false", "no", "off")


def _parse_bytes(text, where="ARRAYSTACK_MEMORY_LIMIT"):
    text = str(text).strip().upper().removesuffix("B").removesuffix("I")
    if text in ("", "NONE"):
        return None
    scale = 1
    for suffix, factor in (("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30), ("T", 1 << 40)):
        if text.endswith(suffix):
            text, scale = text[:-1], factor
            break
    try:
        return int(float(text) * scale)
    except ValueError:
        message = f"{where} must be a number of bytes such as 2G or 500M, got {text!r}"
        raise ValueError(message) from None


def _memory_limit(value):
    if isinstance(value, dict):  # device key ("cpu", "cuda:0") -> bytes, checked by the plan engine
        limits = {}
        for device, nbytes in value.items():
            if not isinstance(device, str) or not device:
                message = (
                    f"arraystack.config.memory_limit keys must be device names, got {device!r}"
                )
                raise ValueError(message)
            limits[device] = _memory_limit(nbytes)
        return limits
    if value is None:
        return None
    if isinstance(value, str):
        value = _parse_bytes(value, "arraystack.config.memory_limit")
        if value is None:
            return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        message = f"arraystack.config.memory_limit must be bytes (>= 0) or None, got {value!r}"
        raise ValueError(message)
    return int(value)


def _cache_size(name, value):
    if isinstance(value, str):
        value = value.strip()
        value = int(value) if value.isdigit() else value
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"arraystack.config.{name} must be an integer >= 1, got {value!r}")
    return value


def _default_cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "arraystack")


@dataclass
class Config:
    disable_jit: bool = field(default_factory=lambda: _flag("ARRAYSTACK_DISABLE_JIT"))
    default_backend: str = field(
        default_factory=lambda: os.environ.get("ARRAYSTACK_BACKEND") or registry.default_name()
    )
    cache_dir: str = field(
        default_factory=lambda: os.environ.get("ARRAYSTACK_CACHE_DIR") or _default_cache_dir()
    )
    log_compiles: bool = field(default_factory=lambda: _flag("ARRAYSTACK_LOG_COMPILES"))
    memory_limit: int | dict | None = field(
        default_factory=lambda: _parse_bytes(os.environ.get("ARRAYSTACK_MEMORY_LIMIT", ""))
    )
    tiered: bool = field(default_factory=lambda: _flag("ARRAYSTACK_TIERED", True))
    tier_compile: str = field(
        default_factory=lambda: os.environ.get("ARRAYSTACK_TIER_COMPILE", "process").strip().lower()
    )
    jit_cache_size: int = field(
        default_factory=lambda: os.environ.get("ARRAYSTACK_JIT_CACHE_SIZE", "256")
    )
    kernel_cache_size: int = field(
        default_factory=lambda: os.environ.get("ARRAYSTACK_KERNEL_CACHE_SIZE", "1024")
    )
    default_device: object = field(
        default_factory=lambda: os.environ.get("ARRAYSTACK_DEFAULT_DEVICE", "").strip() or None
    )
    cuda_graphs: bool = field(default_factory=lambda: _flag("ARRAYSTACK_CUDA_GRAPHS"))

    def __setattr__(self, name, value):
        if name == "memory_limit":
            value = _memory_limit(value)
            # compiled plans read the limit from the backend, which cannot import this module
            if self is config:
                limits.set(value)
        elif name in ("jit_cache_size", "kernel_cache_size"):
            value = _cache_size(name, value)
        elif name == "default_device" and self is config:
            from arraystack._core.devices import set_configured

            value = set_configured(value)
        object.__setattr__(self, name, value)
        if (
            self is config
        ):  # each backend takes the settings it uses (kernel_cache_size, tier_compile, ...)
            registry.configure(**{name: value})

    def update(self, **settings):
        for name, value in settings.items():
            if not hasattr(self, name):
                raise AttributeError(f"arraystack.config has no setting {name!r}")
            setattr(self, name, value)


# While the one Config is built its fields stay local; after that, every setting reaches the backends.
config = None
config = Config()
limits.set(config.memory_limit)
if (
    config.default_device is not None
):  # from ARRAYSTACK_DEFAULT_DEVICE: checked once the config exists
    config.default_device = config.default_device
registry.configure(**vars(config))
