"""Tiered compilation: the first call runs the reference path while numba compiles in the background, in a
compile worker process (config.tier_compile = "process", the default) or a thread."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy
import pytest
from arraystack.backends import compile_graph
from arraystack.backends import get as get_backend
from arraystack.backends.numba import compile_process
from arraystack.backends.numba.compile_worker import describe_buffer, rebuild_buffer
from arraystack.backends.numba.kernels import compile_counts

import arraystack as ast
import arraystack.backends.numba.tiering as tiering

X = numpy.linspace(-2, 2, 4096).astype(numpy.float32)


@pytest.fixture(autouse=True, scope="module")
def _stop_the_worker():
    compile_process.reset()
    yield
    compile_process.reset()


@pytest.fixture
def fresh_worker():
    """A worker started for this test (and forgotten after it), whatever an earlier test left."""
    compile_process.reset()
    yield
    compile_process.reset()


@pytest.fixture
def cold(tmp_path, monkeypatch):
    """An empty cache directory: kernels new to this process (a literal unique to the test) compile."""
    monkeypatch.setattr(ast.config, "cache_dir", str(tmp_path))
    return tmp_path


@pytest.fixture
def held(monkeypatch):
    """Background compiles wait until the test sets this event, so it sees tier 0 whatever the timing."""
    gate = threading.Event()
    compile_now = tiering.Tier._compile

    def wait_then_compile(self, *args):
        gate.wait(300)
        return compile_now(self, *args)

    monkeypatch.setattr(tiering.Tier, "_compile", wait_then_compile)
    yield gate
    gate.set()


def chain(a, b, c=1.0):
    return ast.tanh(a * b + c) * 0.5 + ast.exp(-a * a)


def expected(a, b, c=1.0):
    return numpy.tanh(a * b + numpy.float32(c)) * numpy.float32(0.5) + numpy.exp(-a * a)


def entry_of(f):
    (entry,) = f._cache.values()
    return entry


def runs_kernels(entry):
    return any("numba kernel" in how for _, how in entry.executable.steps)


@pytest.mark.parametrize("mode, c", [("process", 1.0625), ("thread", 1.125)])
def test_first_call_runs_the_reference_tier_then_switches_to_compiled_code(mode, c, monkeypatch, held, cold):
    monkeypatch.setattr(ast.config, "tier_compile", mode)
    f = ast.jit(lambda a, b: chain(a, b, c), tiered=True)
    first = f(ast.asarray(X), ast.asarray(X))
    entry = entry_of(f)
    assert entry.tier == 0 and not runs_kernels(entry)
    graph = entry.lowered.optimized
    reference = compile_graph(graph, "numba", tier=0)(X, X)[0]
    numpy.testing.assert_array_equal(numpy.asarray(first), reference)  # tier 0 is the NumPy twin
    again = f(ast.asarray(X), ast.asarray(X))  # still tier 0 while the compile waits
    numpy.testing.assert_array_equal(numpy.asarray(again), reference)
    held.set()
    assert f.wait_compiled(timeout=300)
    assert entry.tier == 1 and runs_kernels(entry)
    assert entry.pending.mode == mode and entry.pending.fallback is None
    second = f(ast.asarray(X), ast.asarray(X))
    numpy.testing.assert_allclose(numpy.asarray(second), expected(X, X, c), rtol=4e-6, atol=1e-7)
    assert numpy.asarray(second).tobytes() == numpy.asarray(first).tobytes()  # the tiers agree bit for bit
    assert f.stats()["traces"] == 1


def test_the_worker_compiles_and_this_process_only_loads_from_the_disk_cache(cold):
    tmp_path = cold
    f = ast.jit(lambda a, b: ast.tanh(a * b - 0.8125) + a * 3.5, tiered=True)  # a kernel new to this run
    f(ast.asarray(X), ast.asarray(X))
    assert f.wait_compiled(timeout=300)
    pending = entry_of(f).pending
    assert pending.mode == "process"
    assert pending.report["worker_compiles"] >= 1  # numba compiled in the worker
    assert pending.report["loaded"] >= 1  # ... and this process loaded the result from disk
    assert pending.report["compiled"] == 0 and pending.report["numba_compiles"] == 0
    assert pending.report["unknown"] == 0 and pending.report["warmup_compiles"] == 0
    assert any(name.endswith(".nbi") for _, _, files in os.walk(tmp_path) for name in files)
    before = compile_counts()
    f(ast.asarray(X), ast.asarray(X))  # tier 1 runs the loaded kernels for the types they were loaded for
    assert compile_counts()["numba_compiles"] == before["numba_compiles"]
    assert f.stats()["compiles"] == 1
    g = ast.jit(lambda a, b: ast.tanh(a * b - 0.8125) + a * 3.5, tiered=True)  # the same kernel: no job
    g(ast.asarray(X), ast.asarray(X))
    assert g.wait_compiled(timeout=300) and entry_of(g).pending.mode == "disk"
    assert entry_of(g).pending.report["warmup_compiles"] == 0


def test_untiered_functions_run_compiled_code_from_the_first_call():
    f = ast.jit(chain, tiered=False)
    f(ast.asarray(X), ast.asarray(X))
    entry = entry_of(f)
    assert entry.tier == 1 and entry.pending is None and runs_kernels(entry)
    assert f.wait_compiled() is True  # nothing to wait for


def test_config_decides_when_jit_does_not(monkeypatch):
    monkeypatch.setattr(ast.config, "tiered", True)
    f = ast.jit(chain)
    f(ast.asarray(X), ast.asarray(X))
    assert entry_of(f).pending is not None
    assert f.wait_compiled(timeout=300)
    monkeypatch.setattr(ast.config, "tiered", False)
    g = ast.jit(chain)
    g(ast.asarray(X), ast.asarray(X))
    assert entry_of(g).pending is None


def test_an_unknown_compile_mode_is_an_error(monkeypatch):
    monkeypatch.setattr(ast.config, "tier_compile", "gpu")
    f = ast.jit(chain, tiered=True)
    with pytest.raises(ValueError, match="tier_compile"):
        f(ast.asarray(X), ast.asarray(X))


def test_the_reference_backend_is_never_tiered():
    f = ast.jit(chain, tiered=True, backend="reference")
    f(ast.asarray(X), ast.asarray(X))
    assert entry_of(f).pending is None


def test_a_worker_that_cannot_start_falls_back_to_a_thread(fresh_worker, monkeypatch, cold):
    monkeypatch.setattr(compile_process, "COMMAND", [sys.executable, "-c", "raise SystemExit(3)"])
    f = ast.jit(lambda a: a * 2.0 - 0.4375, tiered=True)
    f(ast.asarray(X))
    assert f.wait_compiled(timeout=300)
    pending = entry_of(f).pending
    assert pending.mode == "thread" and "exited with code 3" in pending.fallback
    g = ast.jit(lambda a: a * 2.0 - 0.3125, tiered=True)  # not tried again in this process
    g(ast.asarray(X))
    assert g.wait_compiled(timeout=300) and entry_of(g).pending.mode == "thread"
    assert compile_process.worker_pid() is None


def test_an_unwritable_cache_directory_falls_back_to_a_thread(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setattr(ast.config, "cache_dir", str(blocker / "cache"))
    f = ast.jit(lambda a: a * 2.0 - 0.1875, tiered=True)
    f(ast.asarray(X))
    assert f.wait_compiled(timeout=300)
    pending = entry_of(f).pending
    assert pending.mode == "thread" and "not writable" in pending.fallback


CRASHING_WORKER = (
    "import os; from arraystack.backends.numba import compile_worker as w; "
    "w.run_job = lambda job: os._exit(7); w.main()"
)


def test_a_worker_crash_leaves_the_entry_on_tier_0_and_the_next_compile_starts_a_new_worker(
    fresh_worker, monkeypatch, caplog, cold
):
    command = list(compile_process.COMMAND)
    monkeypatch.setattr(compile_process, "COMMAND", [sys.executable, "-c", CRASHING_WORKER])
    f = ast.jit(lambda a: a * 2.0 - 0.0625, tiered=True)
    out = f(ast.asarray(X))
    assert f.wait_compiled(timeout=300) is False
    entry = entry_of(f)
    assert isinstance(entry.pending.error, compile_process.WorkerCrashed)
    assert "exited with code 7" in str(entry.pending.error)
    assert entry.tier == 0 and "staying on the reference path" in caplog.text
    numpy.testing.assert_array_equal(numpy.asarray(f(ast.asarray(X))), numpy.asarray(out))
    monkeypatch.setattr(compile_process, "COMMAND", command)
    g = ast.jit(lambda a: a * 2.0 - 0.0625, tiered=True)
    g(ast.asarray(X))
    assert g.wait_compiled(timeout=300) and entry_of(g).pending.mode == "process"


def test_an_idle_worker_is_retired_and_the_next_compile_starts_a_new_one(fresh_worker, monkeypatch, cold):
    monkeypatch.setattr(compile_process, "IDLE_SECONDS", 0.3)
    f = ast.jit(lambda a: a * 2.0 - 0.03125, tiered=True)
    f(ast.asarray(X))
    assert f.wait_compiled(timeout=300) and entry_of(f).pending.mode == "process"
    first = compile_process._worker
    deadline = time.monotonic() + 60
    while compile_process.worker_pid() is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert compile_process.worker_pid() is None and first.retired
    assert first.process.wait(timeout=60) == 0  # it exited cleanly when the parent closed its stdin
    g = ast.jit(lambda a: a * 2.0 - 0.046875, tiered=True)
    out = g(ast.asarray(X))
    assert g.wait_compiled(timeout=300) and entry_of(g).pending.mode == "process"
    assert compile_process._worker is not first
    numpy.testing.assert_array_equal(numpy.asarray(g(ast.asarray(X))), numpy.asarray(out))


def test_a_job_sent_while_a_worker_is_busy_keeps_it_alive(fresh_worker, monkeypatch):
    monkeypatch.setattr(compile_process, "IDLE_SECONDS", 0.3)
    worker = compile_process.worker()
    with worker._lock:  # a job in flight: the timer that fires finds it and does nothing
        worker._jobs[-1] = compile_process.Job(worker.pid)
        worker._idle_timer = threading.Timer(0, lambda: None)
    worker._retire_if_idle()
    assert not worker.retired and compile_process.worker_pid() == worker.pid
    with worker._lock:
        del worker._jobs[-1]
    worker._retire_if_idle()
    assert worker.retired and compile_process.worker_pid() is None


def test_a_failed_background_compile_keeps_serving_the_reference_tier(monkeypatch, caplog):
    numba_backend = get_backend("numba")
    compile_now = type(numba_backend).compile

    def broken(self, graph, options):
        if options.tier == 1:
            raise RuntimeError("no compiler today")
        return compile_now(self, graph, options)

    monkeypatch.setattr(type(numba_backend), "compile", broken)
    monkeypatch.setattr(ast.config, "tier_compile", "thread")
    f = ast.jit(lambda a: a * 2.0 + 1.0, tiered=True)
    out = f(ast.asarray(X))
    assert f.wait_compiled(timeout=60) is False
    assert isinstance(entry_of(f).pending.error, RuntimeError)
    assert "staying on the reference path" in caplog.text
    numpy.testing.assert_array_equal(numpy.asarray(f(ast.asarray(X))), numpy.asarray(out))


@pytest.mark.parametrize("mode", ["process", "thread"])
def test_background_warm_up_never_writes_into_donated_arguments(mode, monkeypatch):
    monkeypatch.setattr(ast.config, "tier_compile", mode)
    a = ast.asarray(X.copy())
    f = ast.jit(lambda a, b: a * 2.0 + b, donate_argnums=0, tiered=True)
    f(a, ast.asarray(X))
    assert f.wait_compiled(timeout=300)
    numpy.testing.assert_array_equal(numpy.asarray(a), X)  # the warm-up ran on copies


def test_the_compile_gets_the_values_of_the_call_whatever_the_caller_writes_afterwards(monkeypatch, held):
    """The arguments are copied in a background thread while the first call traces: the call waits for the
    copies, so writes made after it returns never reach them (a data-dependent loop in the warm-up run
    must see the values it was traced for)."""
    seen = []
    compile_when_released = tiering.Tier._compile  # the `held` fixture's: waits for the gate

    def record(self, described, how):
        seen.append(described)
        return compile_when_released(self, described, how)

    monkeypatch.setattr(tiering.Tier, "_compile", record)
    a, b = ast.asarray(X.copy()), X[::-1].copy()
    f = ast.jit(lambda a, b: a * b + 3.0, tiered=True)
    f(a, b)
    a[...] = 0.0
    b[...] = 0.0
    held.set()
    assert f.wait_compiled(timeout=300)
    (described,) = seen
    numpy.testing.assert_array_equal(described[0][0], X)
    numpy.testing.assert_array_equal(described[1][0], X[::-1])


def test_copies_shorten_the_gil_turns_only_while_they_run():
    import sys

    before = sys.getswitchinterval()
    gate = threading.Event()

    class Slow:  # holds its copy until the test has looked
        def __array__(self, dtype=None, copy=None):
            gate.wait(60)
            return X

    first, second = tiering.ArgumentCopies([Slow()]), tiering.ArgumentCopies([Slow()])
    assert sys.getswitchinterval() == pytest.approx(min(tiering.SHORT_TURN, before))
    gate.set()
    first.result()
    second.result()
    assert sys.getswitchinterval() == before
    failed = tiering.ArgumentCopies([object.__new__(type("Broken", (), {"__array__": None}))])
    with pytest.raises(TypeError):
        failed.result()
    assert sys.getswitchinterval() == before


def test_a_failed_argument_copy_is_raised_by_whoever_waits_for_it():
    class Unreadable:
        def __array__(self, dtype=None, copy=None):
            raise MemoryError("no room for the copy")

    copies = tiering.ArgumentCopies([X, Unreadable()])
    with pytest.raises(MemoryError, match="no room"):
        copies.result()
    numpy.testing.assert_array_equal(tiering.ArgumentCopies([X[::2]]).result()[0][0], X[::2])


@pytest.mark.parametrize("n", [0, 1, 7])
def test_tiers_agree_on_small_and_empty_inputs(n):
    f = ast.jit(lambda a: ast.sum(a * a, axis=-1), tiered=True)
    x = ast.asarray(numpy.arange(2 * n, dtype=numpy.float64).reshape(2, n))
    first = numpy.asarray(f(x))
    assert f.wait_compiled(timeout=300)
    numpy.testing.assert_allclose(numpy.asarray(f(x)), first, rtol=1e-13)


def test_the_worker_sees_the_argument_types_this_process_passes():
    import numba

    base = numpy.arange(24, dtype=numpy.float32).reshape(4, 6)
    readonly = base.copy()
    readonly.setflags(write=False)
    for x in (base, base.T, base[:, ::2], readonly, numpy.float64(2.5) * base[0, :1]):
        rebuilt = rebuild_buffer(describe_buffer(x))
        assert numba.typeof(rebuilt) == numba.typeof(x)
        numpy.testing.assert_array_equal(rebuilt, x)


def _specials(dtype, n=1037):
    x = numpy.random.default_rng(1).standard_normal(n).astype(dtype) * 10
    info = numpy.finfo(dtype)
    x[:8] = [0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, info.tiny / 4, info.max, -info.smallest_normal]
    return x


def float_arithmetic(a, b):
    """IEEE-exact operations: each rounds once in NumPy and in a kernel compiled without fast-math."""
    return (
        (a * b + 1.5) / (b - 0.25) - a,
        ast.where(a > b, a, b * 2.0),
        ast.maximum(a, b) + ast.minimum(a, 0.0),
        -ast.abs(a) * ast.sign(b),
        ast.sqrt(ast.abs(a)) + 1.0,
        (a != b) | (a <= 0.5),
        ast.max((ast.abs(b) + a)[8:].reshape(-1, 7), axis=1),
    )


def libm_functions(a, b):
    """Functions numba would call as scalar libm routines: plan steps running NumPy's own loops, so the
    tiers agree bit for bit (sin and cos are fused, mathlib_trig's: its twins give tier 0 the same bits)."""
    return (
        ast.sin(a) * 2.0 + ast.cos(b),
        ast.arctan(a) - ast.arctan2(a, b),
        ast.abs(a) ** 1.7 + ast.hypot(a, b),
        ast.log10(ast.abs(a) + 1.0) * ast.sinh(b / 100.0),
        ast.log1p(ast.abs(b)) + ast.exp2(a / 100.0),
    )


def integer_work(a, b):
    return (
        a * b + a - b * 3,
        (a & b) | (a ^ 7),
        ast.where(a < b, a, b),
        ast.sum(a * 3),
        ast.max(ast.maximum(a, b)),
        ast.sum((a * b).reshape(-1, 5), axis=0),
    )


def structural(a, b):
    return (
        ast.concatenate([a.T[:, 1:] * 2.0, a.T[:, :1]], axis=1),
        a + b[None, :],
        ast.pad(a[::-1] * 2.0, 1),
        (a > 0) & ~(a.T.T < 0.5),
    )


def dense_relu_sgd(w, b, x, g):
    """A layer and an SGD update: matmul (the same BLAS call on both tiers) and exact elementwise work."""
    h = ast.maximum(x @ w + b, 0.0)
    return h, w - 0.1 * g, ast.where(h > 0, 1.0, 0.0) * h


def _cases():
    rng = numpy.random.default_rng(2)
    cases = []
    for dtype in (numpy.float32, numpy.float64):
        cases.append((f"float_arithmetic-{dtype.__name__}", float_arithmetic,
                      (_specials(dtype), _specials(dtype)[::-1].copy())))
        cases.append((f"libm_functions-{dtype.__name__}", libm_functions,
                      (_specials(dtype), _specials(dtype)[::-1].copy())))
    for dtype in (numpy.int32, numpy.int64, numpy.uint8):
        low = 0 if dtype == numpy.uint8 else -100
        cases.append((f"integer_work-{dtype.__name__}", integer_work,
                      (rng.integers(low, 100, 1030).astype(dtype), rng.integers(1, 50, 1030).astype(dtype))))
    a = rng.standard_normal((64, 33)).astype(numpy.float32)
    cases.append(("structural", structural, (a, a[0].copy())))
    w = rng.standard_normal((784, 128)).astype(numpy.float32) * 0.05
    cases.append(("dense_relu_sgd", dense_relu_sgd, (
        w, rng.standard_normal(128).astype(numpy.float32),
        rng.standard_normal((64, 784)).astype(numpy.float32), rng.standard_normal(w.shape).astype(numpy.float32),
    )))
    return cases


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # tier 0 warns as NumPy does; kernels do not
@pytest.mark.parametrize("name, fun, args", _cases(), ids=[c[0] for c in _cases()])
def test_tiers_are_bit_identical_on_exact_work(name, fun, args, held):
    """Where neither tier approximates (no transcendental functions, no float sums), tier 0 (NumPy on the
    optimized graph) and tier 1 (numba kernels) give the same bits, NaNs, signed zeros and infinities
    included. Transcendentals and float sums differ by a few ulp (see backends/numba/tiering.py)."""
    f = ast.jit(fun, tiered=True)
    tier0 = [numpy.asarray(o) for o in f(*[ast.asarray(a) for a in args])]
    assert entry_of(f).tier == 0
    held.set()
    assert f.wait_compiled(timeout=300)
    entry = entry_of(f)
    assert entry.tier == 1 and runs_kernels(entry)
    tier1 = [numpy.asarray(o) for o in f(*[ast.asarray(a) for a in args])]
    for k, (x, y) in enumerate(zip(tier0, tier1)):
        assert x.dtype == y.dtype and x.shape == y.shape, k
        assert x.tobytes() == y.tobytes(), f"output {k} differs: {x} vs {y}"


def test_tier_module_documents_modes_and_the_accuracy_contract():
    assert "bit for bit" in tiering.__doc__ and "test_tier_identity" in tiering.__doc__
    assert '"process"' in tiering.__doc__ and '"thread"' in tiering.__doc__
    assert "ARRAYSTACK_TIER_COMPILE" in tiering.__doc__


PARENT_EXITS = """
import numpy as np
import arraystack as ast
from arraystack.backends.numba import compile_process
f = ast.jit(lambda a: ast.exp(a) * 0.71875 + a, tiered=True)
f(ast.asarray(np.linspace(0, 1, 1000)))
import time
while compile_process.jobs_in_flight() == 0:  # the job reached the worker's stdin: exit now
    time.sleep(0.01)
print(compile_process.worker_pid())
"""


SECOND_RUN = """
import numpy as np
import arraystack as ast
f = ast.jit(lambda a: ast.exp(a) * 0.71875 + a, tiered=True)
f(ast.asarray(np.linspace(0, 1, 1000)))
assert f.wait_compiled(300)
(entry,) = f._cache.values()
print(entry.pending.mode, entry.pending.report["warmup_compiles"])
"""


def _finished(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] in "ZX"
    except OSError:
        return True


@pytest.mark.slow
def test_a_parent_that_exits_at_once_leaves_the_worker_to_finish_and_the_next_run_loads(tmp_path):
    env = dict(os.environ, ARRAYSTACK_CACHE_DIR=str(tmp_path), ARRAYSTACK_TIER_COMPILE="process")
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(PARENT_EXITS)], env=env, capture_output=True,
        text=True, timeout=300, check=False,
    )
    assert out.returncode == 0, out.stderr
    pid = int(out.stdout.split()[-1])
    for _ in range(3000):  # the worker finishes its job, then sees its stdin closed and exits
        if _finished(pid):
            break
        time.sleep(0.1)
    assert _finished(pid)
    assert any(name.endswith(".nbi") for _, _, files in os.walk(tmp_path) for name in files)
    again = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SECOND_RUN)], env=env, capture_output=True,
        text=True, timeout=300, check=False,
    )
    assert again.returncode == 0, again.stderr
    assert again.stdout.split() == ["disk", "0"]  # loaded from the disk cache, no worker, no compile
