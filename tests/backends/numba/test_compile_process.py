"""The compile worker's pipes and threads: no send or close waits on a worker that is not reading, no cycle
of waits between the writer, the reader and the worker, and a bounded number of threads however many
jitted functions a program makes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading

import pytest
from arraystack.backends.numba import compile_process
from arraystack.backends.numba.compile_process import CompileWorker

# A stand-in worker: says ready, then answers each job twice with ~1 MB (the second answer for a job id
# nobody waits for), so its answers fill the pipe to the parent while the parent still writes jobs.
CHATTY = """
import os, sys
from arraystack.backends.numba.compile_worker import receive, send
out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
send(out, ("ready", os.getpid()))
while (job := receive(sys.stdin.buffer)) is not None:
    send(out, ("done", job["id"], {"echo": len(job["blob"]), "pad": b"a" * 1_000_000}))
    send(out, ("done", -1, {"pad": b"b" * 1_000_000}))
"""

# A stand-in worker that says ready and never reads a job.
DEAF = """
import os, sys, time
from arraystack.backends.numba.compile_worker import send
send(os.fdopen(os.dup(sys.stdout.fileno()), "wb"), ("ready", os.getpid()))
time.sleep(120)
"""


def stand_in(code):
    return CompileWorker([sys.executable, "-c", textwrap.dedent(code)])


def within(seconds, fn):
    """fn()'s result, run in a daemon thread: a wait that never ends fails the test instead of hanging it."""
    result = []
    thread = threading.Thread(target=lambda: result.append(fn()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert result, f"still waiting after {seconds} s"
    return result[0]


def test_large_jobs_and_large_answers_cross_without_a_deadlock():
    worker = stand_in(CHATTY)
    try:
        assert worker.ready.wait(60)
        jobs = within(30, lambda: [worker.send({"blob": bytes(1_500_000)}) for _ in range(4)])
        answers = within(30, lambda: [job.result() for job in jobs])
        assert [a["echo"] for a in answers] == [1_500_000] * 4
    finally:
        worker.process.kill()
        within(30, lambda: worker.close(5))


def test_send_and_close_return_while_the_worker_reads_nothing():
    worker = stand_in(DEAF)
    try:
        assert worker.ready.wait(60)
        job = within(30, lambda: worker.send({"blob": bytes(4_000_000)}))  # more than a pipe holds
        within(30, lambda: worker.close(None))  # as at exit: never waits on the pipe
        assert not job.written
    finally:
        worker.process.kill()
        within(30, lambda: worker.close(5))
    assert not worker._writer.is_alive() and not worker._reader.is_alive()
    with pytest.raises(compile_process.WorkerCrashed):
        job.result(0)


# Two threads make and call jitted functions, each with a new kernel, faster than they compile.
MAKERS = """
import os, sys, threading, time
import numpy
import arraystack as np

def os_threads():
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()

peak = {"python": 0, "os": 0}
x = np.asarray(numpy.arange(8.0))

def make(tag):
    end = time.monotonic() + float(sys.argv[1])
    i = 0
    while time.monotonic() < end:
        i += 1
        c = tag * 100000.0 + i
        f = np.jit(lambda a: a * c + 1.0)
        assert numpy.asarray(f(x)).tolist() == [k * c + 1.0 for k in range(8)]
        peak["python"] = max(peak["python"], threading.active_count())
        peak["os"] = max(peak["os"], os_threads())

threads = [threading.Thread(target=make, args=(k,)) for k in (1, 2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("done", peak["python"], peak["os"], flush=True)
"""


@pytest.mark.numba
def test_two_threads_making_jitted_functions_exit_with_few_threads(tmp_path):
    env = dict(os.environ, ARRAYSTACK_CACHE_DIR=str(tmp_path), ARRAYSTACK_TIER_COMPILE="process")
    try:
        out = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(MAKERS), "6"],
            env=env, capture_output=True, text=True, timeout=120, check=False,
        )
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the program did not exit; it printed {e.stdout!r}")
    assert out.returncode == 0, out.stderr[-3000:]
    word, python_threads, os_threads = out.stdout.split()
    assert word == "done"
    # main, the two makers, two compile threads, the worker's reader and writer, an idle timer, the
    # argument copies of first calls in flight; the OS also counts the BLAS's and numba's own threads
    assert int(python_threads) <= 16
    assert int(os_threads) <= 24 + 2 * (os.cpu_count() or 1)


def test_a_queued_compile_whose_function_is_gone_is_dropped(monkeypatch):
    import gc
    import weakref

    import numpy

    import arraystack as ast
    import arraystack.backends.numba.tiering as tiering

    gate, ran = threading.Event(), []

    def held(self, described, how):  # stands in for a compile: holds its thread until the gate opens
        gate.wait(60)
        ran.append(self)
        self.done.set()

    monkeypatch.setattr(tiering.Tier, "_compile", held)
    x = ast.asarray(numpy.arange(4.0))
    kept = [ast.jit(lambda a, c=c: a * c + 0.5, tiered=True) for c in (1.5, 2.5, 3.5)]
    for f in kept:  # more than COMPILE_THREADS: every compile thread waits at the gate
        f(x)
    dropped = ast.jit(lambda a: a * 7.25 - 1.0, tiered=True)
    dropped(x)
    (entry,) = dropped._cache.values()
    tier = weakref.ref(entry.pending)
    del dropped, entry
    gc.collect()
    try:
        assert tier() is None  # the queue does not keep it (nor its argument copies) alive
    finally:
        gate.set()
    for f in kept:
        (entry,) = f._cache.values()
        assert entry.pending.done.wait(60) and entry.pending in ran
