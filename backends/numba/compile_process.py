"""The parent's side of the compile worker (backends/numba/compile_worker.py): one long-lived worker process per
parent process, started on the first job, serving jobs one at a time.

`start(job)` sends a job and its `.result()` waits for the answer (`submit(job)` does both). They raise
WorkerUnavailable when no worker could be started (the caller compiles in-process instead), WorkerCrashed when
the worker died during the job (the next job starts a new worker), and JobFailed when the compile raised in
the worker. The worker is started with `python -m`, never multiprocessing's spawn, which would re-run the
user's __main__ module; it sits in its own session (Ctrl-C in a terminal reaches only the parent) and exits
when its stdin closes, so a parent that exits or dies leaves nothing behind. A process that forked gets its
own worker. A worker idle for IDLE_SECONDS (ARRAYSTACK_WORKER_IDLE_SECONDS, default 300) is retired by the
parent, which knows that no job is in flight, and its memory (numba and LLVM: a few hundred MB) returns to
the system; the next job starts a new one.

Two threads serve a worker: a writer, the only one that touches its stdin (jobs queue for it, so no caller
blocks on a full pipe, and no lock is held while a write waits), and a reader of its answers, which takes
the jobs' lock only to find the job an answer belongs to. Neither waits for the other: a worker blocked
writing an answer is always drained, so it always comes back to read its next job. Exiting never waits on
the pipe either: the writer closes stdin after the jobs queued before it, and a process that exits first
leaves the worker a truncated message, which it reads as the end.
"""

from __future__ import annotations

import atexit
import itertools
import logging
import os
import queue
import subprocess
import sys
import threading

from arraystack.backends.numba.compile_worker import encode, receive

log = logging.getLogger("arraystack.jit")
# argv of the worker; tests point it at a program that exits at once to exercise the fallback
COMMAND = [sys.executable, "-m", "arraystack.backends.numba.compile_worker"]
IDLE_SECONDS = float(os.environ.get("ARRAYSTACK_WORKER_IDLE_SECONDS", "300"))


class WorkerUnavailable(RuntimeError):
    """No compile worker could be started (it exited before saying it was ready)."""


class WorkerCrashed(RuntimeError):
    """The compile worker exited while it held the job."""


class JobFailed(RuntimeError):
    """The compile raised inside the worker; the message carries its traceback."""


class _Retired(RuntimeError):
    """The worker was retired for idleness between worker() and send(): start() takes a new one."""


class Job:
    """A job sent to the worker: `result()` waits for its answer."""

    def __init__(self, pid):
        self.pid = pid
        self.written = False  # the whole job is in the worker's stdin
        self.done = threading.Event()
        self.answer = None
        self.error = None

    def result(self, timeout=None) -> dict:
        """The worker's answer; raises what the job raised (see the module docstring)."""
        global _unavailable
        self.done.wait(timeout)
        if not self.done.is_set():
            raise TimeoutError(f"the compile worker (pid {self.pid}) did not answer in {timeout} s")
        if isinstance(self.error, WorkerUnavailable):
            with _lock:
                _unavailable = str(self.error)
        if self.error is not None:
            raise self.error
        return self.answer


class CompileWorker:
    """One worker process and the thread that reads its answers."""

    def __init__(self, command=None):
        self.process = subprocess.Popen(
            list(command or COMMAND),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            env=_worker_environment(),
        )
        self.pid = self.process.pid
        self.ready = threading.Event()
        self.alive = True
        self.retired = False  # closed by the parent after IDLE_SECONDS without a job
        self._idle_timer = None
        self._jobs: dict[int, Job] = {}
        self._ids = itertools.count()
        self._lock = threading.Lock()  # guards _jobs, alive, retired, the idle timer; never held for I/O
        self._outbox = queue.SimpleQueue()  # (Job, bytes) for the writer; None: close stdin
        self._reader = threading.Thread(
            target=self._read, name="arraystack-compile-worker-reader", daemon=True
        )
        self._writer = threading.Thread(
            target=self._write, name="arraystack-compile-worker-writer", daemon=True
        )
        self._reader.start()
        self._writer.start()

    def _write(self):
        stdin = self.process.stdin  # unbuffered: no buffer lock for a close at exit to wait on
        broken = False
        while (item := self._outbox.get()) is not None:
            if broken:
                continue  # the worker is gone: the reader fails the job
            pending, data = item
            view = memoryview(data)
            try:
                while view:
                    view = view[stdin.write(view) :]
                pending.written = True
            except OSError:  # BrokenPipeError: the worker exited; the reader sees it and fails the job
                broken = True
        try:
            stdin.close()
        except OSError:
            pass

    def _read(self):
        stream = self.process.stdout
        try:
            while True:
                message = receive(stream)
                if message is None:
                    break
                if message[0] == "ready":
                    self.ready.set()
                    continue
                kind, job_id, payload = message
                with self._lock:
                    job = self._jobs.pop(job_id, None)
                    if not self._jobs:
                        self._arm_idle_timer()
                if job is not None:
                    job.answer, job.error = payload, (JobFailed(payload) if kind == "failed" else None)
                    job.done.set()
        except Exception as e:  # noqa: BLE001  (a garbled stream counts as a dead worker)
            log.debug("arraystack: reading the compile worker's answers failed: %s", e)
        with self._lock:
            self.alive = False
            jobs, self._jobs = list(self._jobs.values()), {}
        code = self.process.wait()
        for job in jobs:
            kind = WorkerCrashed if self.ready.is_set() else WorkerUnavailable
            job.error = kind(f"the compile worker (pid {self.pid}) exited with code {code}")
            job.done.set()

    def send(self, job: dict) -> Job:
        """Queue a job for the worker; never blocks on the pipe (the writer thread writes it)."""
        pending = Job(self.pid)
        with self._lock:
            if self.retired:
                raise _Retired(self.pid)
            if not self.alive:
                raise WorkerCrashed(f"the compile worker (pid {self.pid}) has exited")
            if self._idle_timer is not None:
                self._idle_timer.cancel()
                self._idle_timer = None
            job_id = next(self._ids)
            self._jobs[job_id] = pending
        self._outbox.put((pending, encode(dict(job, id=job_id))))
        return pending

    def _arm_idle_timer(self):
        """(Holding self._lock, no job in flight.) Retire the worker if no job comes for IDLE_SECONDS."""
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        timer = self._idle_timer = threading.Timer(IDLE_SECONDS, self._retire_if_idle)
        timer.daemon = True
        timer.start()

    def _retire_if_idle(self):
        global _worker
        with _lock, self._lock:
            if self._jobs or self.retired or self._idle_timer is None:
                return  # a job came (and cancelled the timer) or the worker is gone already
            self._idle_timer = None
            self.retired = True
            if _worker is self:
                _worker = None
        log.info("arraystack: the compile worker (pid %s) was idle for %s s: stopping it", self.pid,
                 IDLE_SECONDS)
        self.close(None)  # no job in flight: it exits at once

    def close(self, timeout=5.0) -> None:
        """Close the worker's stdin once the jobs queued before are written (it exits after them); kill it
        after `timeout` seconds (None: return at once and leave it to finish its jobs, whose kernels then
        land in the disk cache for the next run)."""
        self._outbox.put(None)
        if timeout is None:
            return
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(timeout)
        self._writer.join(timeout)


def _worker_environment() -> dict:
    """The parent's environment, with its import path (a script may have extended sys.path, and the worker
    must import the same arraystack) and one BLAS thread (the worker runs a plan once, and must not compete
    for the cores that the parent's calls use meanwhile)."""
    path = [os.path.abspath(p) if p else os.getcwd() for p in sys.path if isinstance(p, str)]
    return dict(
        os.environ, PYTHONPATH=os.pathsep.join(path), OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1"
    )


_lock = threading.Lock()
_worker: CompileWorker | None = None
_owner_pid = None
_unavailable: str | None = None  # why process compilation was given up in this process


def worker() -> CompileWorker:
    """This process's worker, started on first use (and again after a crash)."""
    global _worker, _owner_pid
    with _lock:
        if _unavailable is not None:
            raise WorkerUnavailable(_unavailable)
        if _worker is None or not _worker.alive or _worker.retired or _owner_pid != os.getpid():
            if _worker is not None and _owner_pid == os.getpid():
                _worker.close(0)
            try:
                _worker = CompileWorker()
            except OSError as e:
                raise WorkerUnavailable(f"cannot start the compile worker: {e}") from e
            _owner_pid = os.getpid()
        return _worker


def start(job: dict) -> Job:
    """Send a job (see backends/numba/compile_worker.py) to this process's worker, starting one if needed. A
    worker that cannot start is not tried again in this process (`reset()` forgets that)."""
    global _unavailable
    try:
        try:
            return worker().send(job)
        except _Retired:  # retired for idleness just now: the next worker() starts a new one
            return worker().send(job)
    except WorkerUnavailable as e:
        with _lock:
            _unavailable = str(e)
        raise


def submit(job: dict, timeout=None) -> dict:
    """Run a job in this process's worker and return its answer; blocks the calling thread."""
    return start(job).result(timeout)


def jobs_in_flight() -> int:
    """Jobs written to this process's worker (wholly in its stdin) and not answered yet."""
    current = _worker
    if current is None or _owner_pid != os.getpid():
        return 0
    with current._lock:
        return sum(job.written for job in current._jobs.values())


def worker_pid() -> int | None:
    """The pid of this process's running worker, if any."""
    current = _worker
    if current is None or not current.alive or current.retired or _owner_pid != os.getpid():
        return None
    return current.pid


def shutdown(timeout=5.0) -> None:
    """Stop this process's worker, if any; the next job starts a new one."""
    global _worker
    with _lock:
        current, _worker = _worker, None
    if current is not None and _owner_pid == os.getpid():
        current.close(timeout)


def reset() -> None:
    """Stop the worker and forget that one could not be started: the next job tries again."""
    global _unavailable
    shutdown()
    with _lock:
        _unavailable = None


atexit.register(shutdown, None)  # never delays the exit; the worker finishes alone

__all__ = [
    "COMMAND", "Job", "JobFailed", "WorkerCrashed", "WorkerUnavailable", "jobs_in_flight", "reset", "shutdown",
    "start", "submit", "worker_pid",
]
