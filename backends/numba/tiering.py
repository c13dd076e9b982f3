"""Tiered compilation: the first calls of a jitted function never wait for numba.

On a cache miss the optimized graph runs at once through the numba backend's NumPy twin (tier 0,
backends/numba/twin.py: the compiled plan's steps, each region's equations as NumPy calls that compute what
the kernel computes), and numba compiles it in the background. When that finishes the cache entry switches to the compiled
executable (tier 1); calls already running finish on tier 0. Failures in the background leave the entry on
tier 0 and are logged, never raised into a later call. `jit(f, tiered=False)` or `config.tiered = False`
(ARRAYSTACK_TIERED=0) compiles before the first call returns, as JAX does.

Where the background compile runs: `config.tier_compile` (ARRAYSTACK_TIER_COMPILE; the backend receives it
through NumbaBackend.configure), read when it starts.
- "process" (default): a compile worker, one long-lived process per parent started on the first miss
  (backends/numba/compile_process.py), compiles the graph for the first call's exact argument types (values,
  dtypes, layouts, writeability) and writes numba's on-disk cache under config.cache_dir; this process then
  builds the same plan, loads each kernel from that cache (a numba cache hit, no compile:
  backends/numba/disk_cache.py) and runs the plan once on copies of the first call's buffers, so that
  nothing is left to compile in a caller's call. numba's compiler holds the GIL, so a thread compiling here
  would slow every tier-0 call made meanwhile; the worker does not (loading still takes the GIL, for much
  less time than compiling). A parent that exits leaves the worker to finish the jobs it was sent (they warm
  the disk cache for the next run) and exit. If the worker cannot start (then not retried in this
  process), the cache directory is not writable, or the graph's IR text does not parse back to itself, the
  compile falls back to a thread. If the worker crashes or the compile raises there, the entry stays on tier 0
  (the same compile could bring this process down) and the next miss starts a new worker.
  When every kernel of the plan is already in numba's disk cache (or loaded in this process), no job is
  sent: the kernels load in a background thread (mode "disk").
- "thread": numba compiles in a background thread of this process, as a fallback and for comparison.
`Tier.mode` says which ran ("process", "disk" or "thread"), `Tier.report` what the load did (kernels loaded
or compiled, numba compiles seen meanwhile and in the run before the switch) and `Tier.timeline` when.

The tiers give identical results, bit for bit: where a kernel computes differently from NumPy's own function
(mathlib's exp/expm1/log/tanh/logistic, within 4 ulp of NumPy's; float sums and products in the kernels'
fixed order), tier 0 computes the kernel's result (backends/numba/mathlib/twins.py, summation_order.py);
everything else a kernel computes rounds as NumPy does. Tier 0 warns as NumPy does on overflow or invalid
values where the kernels are silent. tests/backends/numba/test_tier_identity.py checks the identity on the
math functions over special values, on sums in every reduction form, on softmax/layernorm and on training
steps.
"""

from __future__ import annotations

import _thread
import logging
import os
import queue
import sys
import threading
import time
import weakref

# What a first call needs, loaded with the backend rather than inside the first call (which it would delay by
# milliseconds of imports): tier 0's backend, and what a tier hands to its compile worker
from arraystack.backends import profiler
from arraystack.backends import reference as _reference  # noqa: F401
from arraystack.backends.interface import CompileOptions, Tiers
from arraystack.backends.numba import compile_worker as _compile_worker
from arraystack.backends.numba import twin as _twin  # noqa: F401

log = logging.getLogger("arraystack.jit")
MODES = ("process", "thread")


class ArgumentCopies:
    """Copies of a first call's argument buffers (values, layout, writeability: what the compile's warm-up
    run needs), made in a background thread while the call traces and optimizes. NumPy copies without the
    GIL, so the copy (and the page faults of its fresh memory: 1-1.5 ms for an MLP step's 2.4 MB) runs on
    another core instead of in the call; with short GIL turns meanwhile (below) it is done before the
    tier-0 run starts, whose BLAS threads it would slow. The call waits for it before it returns
    (`result()`), so the copies hold the values the call was made with, as a copy made in the call would:
    no write by the caller after the call can reach them."""

    def __init__(self, buffers):
        self._buffers = list(buffers)
        self._described = None
        self._error = None
        self._done = threading.Event()
        _short_gil_turns(+1)
        try:
            _thread.start_new_thread(self._copy, ())
        except BaseException:
            _short_gil_turns(-1)
            raise

    def _copy(self):
        try:
            self._described = [_compile_worker.describe_buffer(b) for b in self._buffers]
        except BaseException as e:  # noqa: BLE001  (re-raised in the call, by result())
            self._error = e
        finally:
            self._buffers = None
            _short_gil_turns(-1)
            self._done.set()

    def result(self) -> list:
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self._described


# While copies are made, the tracing thread hands over the GIL after SHORT_TURN seconds instead of
# sys.getswitchinterval() (5 ms by default): the copying thread needs it for a few microseconds before
# and between copies, and would otherwise wait 5 ms each time, until the copies ran into the tier-0 run
# (measured: they began 5 ms into an MLP step's first call and ended inside its tier-0 run). The interval
# is restored when the last copies in flight are done.
SHORT_TURN = 0.0002
_turns_lock = threading.Lock()
_turns = [0, None]  # copies in flight, the interval to restore


def _short_gil_turns(change):
    with _turns_lock:
        if change > 0 and _turns[0] == 0:
            _turns[1] = sys.getswitchinterval()
            sys.setswitchinterval(min(SHORT_TURN, _turns[1]))
        _turns[0] += change
        if _turns[0] == 0:
            sys.setswitchinterval(_turns[1])


# Background compiles run on at most COMPILE_THREADS threads fed by one queue: a program that makes jitted
# functions faster than they compile queues them instead of holding a thread (and a stack) per compile
# (two threads making jitted functions in a loop once reached thousands). More threads would not compile
# sooner: the worker serves one job at a time, and numba compiles and loads under one lock. Two let this
# process load one plan while the worker compiles the next. The threads are bare threads, which
# threading.Thread.start() would wait for until they run (on a loaded machine that handshake cost a first
# call 3-11 ms); like daemon threads, they do not delay exit. The queue holds its compiles weakly: one whose
# jitted function is gone by its turn (made and dropped in a loop, say) is skipped, and its argument copies
# go with it.
COMPILE_THREADS = 2
_compiles = queue.SimpleQueue()  # weak references to Tiers whose `queued` holds (described buffers, mode)
_compile_threads = [0]  # started in this process
_compile_threads_lock = threading.Lock()


def _ensure_compile_threads():
    with _compile_threads_lock:
        if _compile_threads[0] < COMPILE_THREADS:
            _thread.start_new_thread(_serve_compiles, ())
            _compile_threads[0] += 1


def _serve_compiles():
    while True:
        tier = _compiles.get()()
        if tier is not None:
            queued, tier.queued = tier.queued, None
            tier._compile(*queued)
        del tier


def _forget_compile_threads():
    """In a forked child only the forking thread runs: its compiles start threads of their own."""
    global _compiles, _compile_threads_lock
    _compiles = queue.SimpleQueue()
    _compile_threads[0] = 0
    _compile_threads_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_compile_threads)


class NumbaTiers(Tiers):
    """numba's tiers (backends/interface.py, Tiers): the NumPy twin at once, the kernels in the background."""

    def __init__(self, backend):
        self.backend = backend

    def snapshot(self, buffers):
        return ArgumentCopies(buffers)

    def compile(self, graph, options, name, stats):
        first = self.backend.compile(graph, CompileOptions(options.cache_dir, options.donate, tier=0))
        return first, Tier(graph, self.backend, options, stats, name)


class Tier:
    """The background compilation of one cache entry: `start` queues it; when the compiled executable has
    run once it replaces tier 0 through the `switch` given to `start`."""

    def __init__(self, graph, backend, options, stats, name):
        self.graph = graph
        self.backend = backend
        self.options = CompileOptions(options.cache_dir, frozenset(options.donate))
        self.cache_dir = options.cache_dir
        self.donate = frozenset(options.donate)
        self.stats = stats
        self.name = name
        self.started = False  # start() ran: the compile is queued for a compile thread (or ran)
        self.error = None
        self.mode = None  # "process", "disk" or "thread": where the compiled tier came from
        self.fallback = None  # why a process compile fell back to a thread
        self.report: dict = {}
        self.timeline: dict = {}  # perf_counter() when the compile started, the worker answered, tier 1 began
        self.done = threading.Event()
        self.queued = None  # (described buffers, mode) while waiting for a compile thread
        self.switch = None  # switch(executable): the caller's entry runs the compiled code from then on
        self.switched = False
        self._lock = threading.Lock()

    def start(self, buffers, consts, copies=None, switch=None):
        """Start compiling (once), for the types and layouts of these buffers (`copies`: an ArgumentCopies
        of `buffers` made meanwhile, used instead of copying them here); `switch(executable)` installs
        the compiled executable."""
        from arraystack.backends.numba.compile_worker import describe_buffer

        with self._lock:
            if self.started:
                return
            how = self.backend.tier_compile
            if how not in MODES:
                raise ValueError(f"arraystack.config.tier_compile must be one of {MODES}, got {how!r}")
            # copies (donation may write into them) that keep each buffer's layout and writeability
            described = copies.result() if copies is not None else [describe_buffer(b) for b in buffers]
            described += [describe_buffer(b) for b in consts]
            self.switch = switch
            self.started = True
        self.queued = (described, how)
        _compiles.put(weakref.ref(self))
        _ensure_compile_threads()

    def _compile(self, described, how):
        # Let the calling thread take the GIL back and return its tier-0 result first: the imports below
        # compile source and hold the GIL for milliseconds.
        time.sleep(0.001)
        self.timeline["started"] = time.perf_counter()
        try:
            # The BLAS keeps its thread count (its products' bits depend on it); the worker compiles at the
            # lowest priority instead (backends/numba/blas_threads.py).
            executable = self._compile_in_worker(described) if how == "process" else None
            if executable is None:
                executable = self._compile_here(described)
            self.stats.compiles += getattr(executable, "new_kernels", 0)
            if self.switch is not None:
                self.switch(executable)
            self.switched = True
            self.timeline["switched"] = time.perf_counter()
        except Exception as e:  # noqa: BLE001  (tier 0 keeps serving; the error is kept and logged)
            self.error = e
            log.warning(
                "arraystack.jit: background compile of %s failed, staying on the reference path: %s: %s",
                self.name, type(e).__name__, e,
            )
        finally:
            self.done.set()

    def _compile_here(self, described):
        from arraystack.backends.numba.compile_worker import rebuild_buffer

        self.mode = "thread"
        executable = self.backend.compile(self.graph, self.options)
        executable(*[rebuild_buffer(b) for b in described])  # numba compiles (or loads) each kernel
        return executable

    def _compile_in_worker(self, described):
        """Compile in the worker process and load the result from disk; None: use a thread instead."""
        from arraystack.backends.numba import compile_process
        from arraystack.ir.parser import IRParseError, parse_graph
        from arraystack.ir.printer import print_graph

        if not _writable(self.cache_dir):
            self._fall_back(f"the cache directory {self.cache_dir!r} is not writable")
            return None
        text, problem = print_graph(self.graph, sources=False), "it prints differently"
        try:
            same = print_graph(parse_graph(text), sources=False) == text
        except (IRParseError, ValueError, TypeError, KeyError) as e:
            same, problem = False, f"{type(e).__name__}: {e}"
        if not same:
            self._fall_back(f"the graph's IR text does not parse back to the same graph ({problem})")
            return None
        from arraystack.backends.numba.compile_worker import rebuild_buffer
        from arraystack.backends.numba.disk_cache import load_signatures, on_disk, prepare
        from arraystack.backends.numba.kernels import compile_counts

        # The plan here first: its kernel files are then written before the worker reads them (a file
        # rewritten after numba indexed it would make the index stale), and may all be on disk already.
        executable = self.backend.compile(self.graph, self.options)
        if on_disk(getattr(executable, "kernel_sources", ())):
            self.mode = "disk"  # e.g. a second run of a script: numba loads every kernel, nothing compiles
        else:
            job = {"graph": text, "buffers": described, "cache_dir": self.cache_dir, "donate": self.donate}
            try:
                pending = compile_process.start(job)
                prepare()  # numba's one-time set-up here, while the worker compiles
                answer = pending.result()
            except compile_process.WorkerUnavailable as e:
                self._fall_back(str(e))
                return None
            self.timeline["answered"] = time.perf_counter()
            self._record_worker_compile(answer, pending)
            self.report = dict(
                load_signatures(answer["signatures"]),
                worker_compiles=answer["compiles"],
                worker_seconds=answer["seconds"],
            )
            self.mode = "process"
        # One run here before the switch: a kernel the worker's plan lacked (its code differs from this
        # process's, say after an upgrade) or typed differently compiles now, never in a caller's call.
        before = compile_counts()["numba_compiles"]
        executable(*[rebuild_buffer(b) for b in described])
        self.report["warmup_compiles"] = compile_counts()["numba_compiles"] - before
        return executable

    def _record_worker_compile(self, answer, pending):
        """The worker's compile as a profiler event in the worker's process: its start as the worker's
        perf_counter() read it (the system's monotonic clock, shared by both processes on Linux, macOS
        and Windows) and the duration it reported."""
        if not profiler.recording or "started" not in answer:
            return
        start = answer["started"]
        args = {"function": self.name, "compiles": answer["compiles"], "mode": "process"}
        worker = ("process", getattr(pending, "pid", None), "numba compile worker")
        profiler.record("compile (worker)", "compile", start, start + answer["seconds"], args, worker)

    def _fall_back(self, reason):
        self.fallback = reason
        log.info("arraystack.jit: compiling %s in a thread: %s", self.name, reason)

    def wait(self, timeout=None) -> bool:
        """Block until the compiled tier is in place (or failed); True when it is in place."""
        if not self.started:
            return False
        self.done.wait(timeout)
        return self.switched


def _writable(cache_dir) -> bool:
    if not cache_dir:
        from arraystack.backends.numba.kernels import default_cache_dir

        cache_dir = default_cache_dir()
    try:
        os.makedirs(cache_dir, exist_ok=True)
    except OSError:
        return False
    return os.path.isdir(cache_dir) and os.access(cache_dir, os.W_OK | os.X_OK)


__all__ = ["MODES", "ArgumentCopies", "NumbaTiers", "Tier"]
