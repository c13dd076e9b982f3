"""The profiler's recorder: while a profile is open (arraystack.profile), the runners note each step they
run (a kernel, a reference step, a transfer) and the backends each compile, as (what, start, stop, thread).

Off, a runner pays one read of `recording` per call and runs its usual code. On, it runs an instrumented
twin of that code whose cost per step is two clock reads and one list append (`note`, atomic under the GIL,
so the engine's pool threads and background compile threads record without a lock). The recorder is
process-wide: a profile opened in one thread also sees steps run by other threads meanwhile. Profiles nest;
each sees the events noted between its opening and its closing.

An event is (info, start, stop, thread): info = (name, category, args dict) shared by every run of a step,
start/stop in perf_counter() seconds, thread = threading.get_ident(), or ("process", pid, label) for work
another process reported (the numba compile worker)."""

from __future__ import annotations

import sys
import threading
import time

recording = False
clock = time.perf_counter
_get_ident = threading.get_ident
_names: dict = {}  # ident -> name of each thread that noted an event (it may have ended by the trace)
_events: list = []  # cleared in place (runners hold `note`) when the last open profile closes
note = _events.append
_open: list = []  # [first event index] per open profile
_lock = threading.Lock()


def record(name: str, category: str, start: float, stop: float, args=None, thread=None) -> None:
    """Note one event (for work timed outside a runner's generated code: compiles, device clocks)."""
    note(((name, category, args or {}), start, stop, thread_ident() if thread is None else thread))


def thread_ident() -> int:
    """threading.get_ident(), its thread's name kept for the trace (a runner asks once per run)."""
    ident = _get_ident()
    if ident not in _names:
        _names[ident] = threading.current_thread().name
    return ident


def open_profile() -> list:
    """Start recording (if not already); returns the profile's handle for close_profile/events_of."""
    global recording
    with _lock:
        handle = [len(_events), clock(), None]
        _open.append(handle)
        recording = True
    listen_numba()
    return handle


def close_profile(handle) -> list:
    """Stop this profile; its events (those noted since it opened). Recording ends with the last one."""
    global recording
    with _lock:
        handle[2] = _events[handle[0] :]
        _open.remove(handle)
        if not _open:
            recording = False
            _events.clear()
            _names.clear()
            _stop_listening_numba()
    return handle[2]


def events_of(handle) -> list:
    """The events of a profile: so far while it is open, all of them once closed."""
    return handle[2] if handle[2] is not None else _events[handle[0] :]


def thread_names() -> dict:
    """threading ident -> name of the threads that noted events, and of those alive now."""
    return {**_names, **{t.ident: t.name for t in threading.enumerate()}}


# numba reports each compile of a dispatcher (a kernel, or a function it calls) as a "numba:compile" event; a
# listener turns the outermost of each thread into a compile event while recording. Kernels numba loads from
# its disk cache report none.
_listener = [None]


def listen_numba() -> None:
    """Listen to numba's compiles, if numba is loaded (a backend's compile calls this again once it is)."""
    if _listener[0] is not None or "numba" not in sys.modules or not recording:
        return
    from numba.core import event

    class CompileListener(event.Listener):
        def __init__(self):
            self.starts = threading.local()

        def on_start(self, ev):
            stack = getattr(self.starts, "stack", None)
            if stack is None:
                stack = self.starts.stack = []
            stack.append(clock())

        def on_end(self, ev):
            stack = getattr(self.starts, "stack", None)
            if not stack:
                return
            start = stack.pop()
            if stack:  # a function the outer compile calls: part of its event
                return
            function = getattr((ev.data or {}).get("dispatcher"), "py_func", None)
            module = getattr(function, "__module__", "") or ""
            name = f"{module.rpartition('.')[2]}.{getattr(function, '__qualname__', 'function')}"
            args = {"compiler": "numba", "function": f"{module}.{name}"}
            record(f"numba compile {name}", "compile", start, clock(), args)

    with _lock:
        if _listener[0] is None and recording:
            _listener[0] = CompileListener()
            event.register("numba:compile", _listener[0])


def _stop_listening_numba() -> None:
    listener, _listener[0] = _listener[0], None
    if listener is not None:
        from numba.core import event

        event.unregister("numba:compile", listener)


def step_info(eqn, how: str) -> tuple:
    """(name, category, args) of a step running `eqn` as `how` says (a plan's description of the step)."""
    name = region_name(eqn)
    args = {"primitive": eqn.prim.name, "how": how}
    source = source_of(eqn)
    if source:
        args["source"] = source
    return name, category_of(how), args


def category_of(how: str) -> str:
    """kernel (compiled), loop (a compiled loop, or a host loop or branch over compiled bodies), twin (tier
    0's NumPy twin of a kernel) or reference (a NumPy call: a reference rule, BLAS, a cupy rule)."""
    if how.startswith("compiled loop") or "host loop" in how or "branch" in how:
        return "loop"
    if "tier 0" in how:
        return "twin"
    if "kernel" in how:
        return "kernel"
    return "reference"


def region_name(eqn) -> str:
    """A fusion region's primitives in order (the first few), else the primitive's name."""
    sub = eqn.params.get("graph") if eqn.prim.name == "fusion" else None
    if sub is None:
        return eqn.prim.name
    names = [e.prim.name for e in sub.eqns]
    shown = ", ".join(names[:4]) + (f", ... ({len(names)} eqns)" if len(names) > 4 else "")
    return f"fusion[{shown}]"


def source_of(eqn):
    """The user's file:line of an equation, or of the first equation of its region that has one."""
    if eqn.source:
        return eqn.source
    for value in eqn.params.values():
        for e in getattr(value, "eqns", ()):
            if e.source:
                return e.source
    return None
