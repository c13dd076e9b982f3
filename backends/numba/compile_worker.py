"""The compile worker: a process that compiles plans with numba so that another process need not.

`python -m arraystack.backends.numba.compile_worker` reads jobs from stdin and answers on stdout, each message a
pickle behind an 8-byte length. A job holds a graph as IR text, the buffers of one call (their values, dtypes
and layouts, so numba sees exactly the argument types the parent will pass), the cache directory and the
donated inputs. The worker compiles the graph for the numba backend and runs it once on those buffers: numba
compiles each kernel for those types and writes its on-disk cache, and the answer lists, per kernel key, the
types compiled, for the parent to load from disk (backends/numba/disk_cache.py). The worker exits when stdin
closes (its parent exited or shut it down). It runs at the lowest scheduling priority
(backends/numba/blas_threads.py). backends/numba/compile_process.py is the parent's side.
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
import time
import traceback

import numpy as np

_HEADER = struct.Struct("<Q")


def encode(message) -> bytes:
    """A message as it travels: a pickle behind its 8-byte length."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


def send(stream, message) -> None:
    stream.write(encode(message))
    stream.flush()


def receive(stream):
    """The next message, or None at the end of the stream (a truncated message counts as the end)."""
    header = _read_exactly(stream, _HEADER.size)
    if header is None:
        return None
    data = _read_exactly(stream, _HEADER.unpack(header)[0])
    return None if data is None else pickle.loads(data)


def _read_exactly(stream, n):
    chunks, left = [], n
    while left:
        chunk = stream.read(left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def describe_buffer(buffer) -> tuple:
    """What a worker needs to rebuild an argument numba types the same way: values, layout, writeability."""
    x = np.asarray(buffer)
    layout = "C" if x.flags.c_contiguous else "F" if x.flags.f_contiguous else "A"
    return np.array(x, copy=True, order="F" if layout == "F" else "C"), layout, bool(x.flags.writeable)


def rebuild_buffer(described) -> np.ndarray:
    values, layout, writeable = described
    if layout == "A":  # any strided view: numba types it as layout 'A'
        values = np.stack([values, values], axis=-1)[..., 0]
    elif layout == "F":
        values = np.asfortranarray(values)
    else:
        values = np.ascontiguousarray(values)
    if not writeable:
        values.setflags(write=False)
    return values


def run_job(job) -> dict:
    """Compile the job's graph for numba, run it on the job's buffers, report the kernels' signatures."""
    from arraystack.backends.interface import CompileOptions
    from arraystack.backends.numba.backend import backend
    from arraystack.backends.numba.disk_cache import kernel_signatures
    from arraystack.backends.numba.kernels import compile_counts
    from arraystack.ir.parser import parse_graph
    from arraystack.ir.printer import print_graph

    start = time.perf_counter()
    graph = parse_graph(job["graph"])
    if print_graph(graph, sources=False) != job["graph"]:
        raise ValueError("the graph's IR text does not parse back to itself; it cannot be compiled here")
    before = compile_counts()["numba_compiles"]
    executable = backend.compile(graph, CompileOptions(job["cache_dir"], frozenset(job["donate"])))
    executable(*[rebuild_buffer(b) for b in job["buffers"]])
    return {
        "signatures": kernel_signatures(),
        "compiles": compile_counts()["numba_compiles"] - before,
        "seconds": time.perf_counter() - start,
        "started": start,  # the system's monotonic clock: the parent's profiler places the compile by it
    }


def main() -> int:
    from arraystack.backends.numba.blas_threads import lower_priority

    # The parent's threads (its BLAS's above all) take a core from the worker whenever they need one; the
    # parent never changes its BLAS thread count, whose products would change their bits (blas_threads.py).
    lower_priority()
    # Answers go to the original stdout; anything else printed (numba warnings, debug output) to stderr.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    jobs = sys.stdin.buffer
    import numba  # noqa: F401  (loaded before saying ready: the parent times jobs, not start-up)

    _answer(answers, ("ready", os.getpid()))
    while True:  # jobs already sent still run after the parent has gone: they warm the disk cache
        job = receive(jobs)
        if job is None:
            return 0
        try:
            answer = ("done", job["id"], run_job(job))
        except Exception as e:  # noqa: BLE001  (reported to the parent, which keeps serving tier 0)
            text = "".join(traceback.format_exception_only(type(e), e)).strip()
            answer = ("failed", job["id"], f"{text}\n{traceback.format_exc(limit=-3)}")
        _answer(answers, answer)


def _answer(stream, message):
    try:
        send(stream, message)
    except OSError:  # the parent is gone (BrokenPipeError); the job still warmed the disk cache
        pass


if __name__ == "__main__":
    sys.exit(main())
