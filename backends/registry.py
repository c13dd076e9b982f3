"""The backend registry: every backend arraystack can use, by name.

Backends come from three places, found on first use:
- the reference backend (reference.py), always present: each equation runs its reference rule (NumPy);
- the folders beside it: a sub-package of arraystack.backends with a module `backend.py` holding an
  instance named `backend` (backends/numba/backend.py);
- installed packages naming a Backend (an instance, or a class or function making one) in the entry-point
  group `arraystack.backends`, e.g. in their pyproject.toml:

      [project.entry-points."arraystack.backends"]
      mybackend = "mypackage.arraystack_backend:backend"

and from `register(backend)` at run time. A backend whose module fails to import is listed as unavailable,
with the error as its reason; nothing is imported beyond the backend modules themselves (numba and cupy are
imported by their backends when they first compile).

`available()` lists them all with whether each can run here and why not; `get(name)` returns one (raising
for an unknown or unavailable name); `default_name()` is the available backend of highest priority;
`for_device(device)` the backend that compiles for a hardware device.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import threading
from dataclasses import dataclass

from arraystack.backends.interface import Backend

ENTRY_POINT_GROUP = "arraystack.backends"

_backends: dict = {}  # name -> Backend
_broken: dict = {}  # name -> why its module could not be loaded
_lock = threading.RLock()
_discovered = [False]
_settings: dict = {}  # every setting configure() handed out, for backends registered afterwards
_generation = [0]  # counts the changes to the registry and to the devices its backends serve


class BackendUnavailable(RuntimeError):
    """A backend that is registered but cannot run on this machine (its message says why: a package or
    a device missing, or the error its module raised when it was loaded). A RuntimeError, importable from
    `arraystack.errors` too."""


@dataclass(frozen=True)
class BackendInfo:
    """One row of `available()`: a backend's name, whether it can run here and why not, what it is.

    Parameters
    ----------
    name : str
        The backend's name, as `jit(backend=...)` takes it.
    available : bool
        Whether it can compile and run on this machine.
    reason : str
        Why it cannot ("" when it can): its `unavailable_reason()`, or the error its module raised.
    description : str
        Its `describe()` line when available, else "".
    priority : int
        Its priority (the default backend is the available one of highest priority); -1 for a backend
        whose module failed to load.
    device_kinds : tuple of str
        The kinds of hardware it compiles for ("cpu", "cuda", ...).
    """

    name: str
    available: bool
    reason: str  # why it is unavailable; "" when available
    description: str
    priority: int
    device_kinds: tuple


def register(backend: Backend, replace: bool = False) -> Backend:
    """Add `backend` to the registry under its name, for `jit(backend=...)`, `available()` and the
    planner's devices of its kinds.

    Parameters
    ----------
    backend : Backend
        The backend instance.
    replace : bool
        Whether it may take the place of another backend of the same name.

    Returns
    -------
    Backend
        `backend` itself.

    Raises
    ------
    TypeError
        `backend` is not a Backend instance.
    ValueError
        Its name is empty, or taken by another backend and `replace` is false.
    """
    if not isinstance(backend, Backend):
        raise TypeError(
            f"register() takes a Backend instance (arraystack.backends.interface.Backend), got "
            f"{type(backend).__name__}"
        )
    name = backend.name
    if not isinstance(name, str) or not name:
        raise ValueError(f"a backend's name must be a non-empty string, got {name!r}")
    with _lock:
        _discover()
        if name in _backends and _backends[name] is not backend and not replace:
            raise ValueError(f"a backend named {name!r} is already registered; pass replace=True")
        _backends[name] = backend
        _broken.pop(name, None)
        _generation[0] += 1
        settings = dict(_settings)
    if settings:  # what arraystack.config has handed the backends so far
        backend.configure(**settings)
    return backend


def unregister(name: str) -> Backend:
    """Remove the backend `name` from the registry and return it; KeyError when none has that name."""
    with _lock:
        _discover()
        if name not in _backends:
            raise KeyError(f"no backend named {name!r} is registered; registered: {_names()}")
        _generation[0] += 1
        return _backends.pop(name)


def names() -> list[str]:
    """The names of every registered backend (available or not), highest priority first."""
    with _lock:
        _discover()
        return _names()


def get(name: str) -> Backend:
    """The registered backend `name`.

    Raises
    ------
    ValueError
        No backend has that name (the message lists the available ones).
    BackendUnavailable
        The backend cannot run on this machine, or its module failed to load (the message says why).
    """
    with _lock:
        _discover()
        backend = _backends.get(name)
        if backend is None:
            if name in _broken:
                raise BackendUnavailable(f"backend {name!r} failed to load: {_broken[name]}")
            raise ValueError(
                f"unknown backend {name!r}; available: {', '.join(_usable()) or 'none'}"
            )
    reason = backend.unavailable_reason()
    if reason:
        raise BackendUnavailable(f"backend {name!r} is not available: {reason}")
    return backend


def available() -> list[BackendInfo]:
    """Every backend, highest priority first, as `BackendInfo` rows: whether it can run here, what it is,
    and the reason when it cannot (a backend whose module failed to load included).
    `python -m arraystack info` prints these rows."""
    with _lock:
        _discover()
        backends = dict(_backends)
        broken = dict(_broken)
    rows = []
    for name, backend in backends.items():
        reason = backend.unavailable_reason() or ""
        description = backend.describe() if not reason else ""
        rows.append(
            BackendInfo(
                name, not reason, reason, description, backend.priority, tuple(backend.device_kinds)
            )
        )
    rows += [BackendInfo(name, False, why, "", -1, ()) for name, why in broken.items()]
    return sorted(rows, key=lambda r: (-r.priority, r.name))


def default_name() -> str:
    """The name of the available backend of highest priority (the reference backend at least)."""
    for row in available():
        if row.available:
            return row.name
    return "reference"  # pragma: no cover - the reference backend is always available


def for_device(device) -> Backend:
    """The backend that compiles for `device` (a hardware model Device): the one it names (Device.backend)
    when that is registered and available, else the available backend of highest priority serving its kind.
    BackendUnavailable when none does."""
    named = getattr(device, "backend", None)
    with _lock:
        _discover()
        backends = dict(_backends)
    if named in backends and not backends[named].unavailable_reason():
        return backends[named]
    serving = [
        b for b in backends.values() if device.kind in b.device_kinds and not b.unavailable_reason()
    ]
    if not serving:
        kinds = {b.name: tuple(b.device_kinds) for b in backends.values()}
        raise BackendUnavailable(
            f"no available backend compiles for {device.key} ({device.kind}"
            + (f", backend {named!r}" if named else "")
            + f"); registered backends and their device kinds: {kinds}"
        )
    return max(serving, key=lambda b: b.priority)


def all_backends() -> list[Backend]:
    """Every registered backend, available or not, highest priority first."""
    with _lock:
        _discover()
        return [_backends[n] for n in _names()]


def configure(**settings) -> None:
    """Hand settings of arraystack.config to every registered backend (each takes the ones it uses); a
    backend registered later receives every setting handed out so far."""
    with _lock:
        _discover()
        _settings.update(settings)
        backends = list(_backends.values())
    for backend in backends:
        backend.configure(**settings)


def compiled_kernels() -> int:
    """Kernels compiled by this process so far, over every backend."""
    with _lock:
        _discover()
        backends = list(_backends.values())
    return sum(b.compiled_kernels() for b in backends)


def generation() -> int:
    """A number that changes whenever a backend is registered or removed, or a backend's devices change
    (`changed()`): what the frontend's device tables (arraystack/_core/devices.py) are rebuilt on."""
    return _generation[0]


def changed() -> None:
    """Say that the devices of a registered backend appeared or went (a device library installed or a
    stand-in swapped in); the frontend then asks the backends again which arrays and devices they have."""
    with _lock:
        _generation[0] += 1


def _names():
    return [n for n, _ in sorted(_backends.items(), key=lambda kv: (-kv[1].priority, kv[0]))]


def _usable():
    return [n for n in _names() if not _backends[n].unavailable_reason()]


def _discover() -> None:
    """Find the backends (once): the reference backend, the folders beside it, the entry points."""
    if _discovered[0]:
        return
    _discovered[0] = True
    from arraystack.backends.reference import backend as reference

    _backends.setdefault(reference.name, reference)
    import arraystack.backends as package

    for module in pkgutil.iter_modules(package.__path__):
        if module.ispkg:
            _load(module.name, f"{package.__name__}.{module.name}.backend", folder=True)
    for entry in _entry_points():
        _load(entry.name, entry.value, entry=entry)


def _entry_points():
    from importlib.metadata import entry_points

    try:
        return list(entry_points(group=ENTRY_POINT_GROUP))
    except Exception:  # noqa: BLE001 - broken metadata of some installed package: no plug-ins
        return []


def _load(name, target, folder=False, entry=None):
    try:
        if folder:
            if importlib.util.find_spec(target) is None:
                return  # a sub-package that is not a backend (none today)
            found = importlib.import_module(target).backend
        else:
            found = entry.load()
        backend = found if isinstance(found, Backend) else found()
        if not isinstance(backend, Backend):
            raise TypeError(f"{target} gave a {type(backend).__name__}, not a Backend")
    except Exception as e:  # noqa: BLE001 - listed as unavailable, with the error
        _broken.setdefault(name, f"{target}: {type(e).__name__}: {e}")
        return
    if (
        backend.name in _backends
    ):  # the first one found keeps the name; the other is listed, with why
        _broken.setdefault(
            f"{name} ({target})",
            f"its name {backend.name!r} is taken by {_backends[backend.name]!r}",
        )
        return
    _backends[backend.name] = backend


__all__ = [
    "ENTRY_POINT_GROUP",
    "BackendInfo",
    "BackendUnavailable",
    "all_backends",
    "available",
    "changed",
    "compiled_kernels",
    "configure",
    "default_name",
    "for_device",
    "generation",
    "get",
    "names",
    "register",
    "unregister",
]
