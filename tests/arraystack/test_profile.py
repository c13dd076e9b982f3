"""arraystack.profile: one event per step of a compiled plan (fused kernels, reference steps, transfers), a
compile event on a first call only, events of scheduled runs and of cuda runs on the stand-in, the trace in
the Trace Event Format, and nothing recorded outside a block."""

from __future__ import annotations

import json
import os
import threading

import numpy as np
import pytest
from arraystack.backends import profiler
from arraystack.backends.cupy import standin as cupy_standin
from arraystack.backends.presets import model as preset_model

import arraystack as ast

pytestmark = pytest.mark.numba

HW = preset_model("h100")  # cpu: a preset server CPU (this machine's); cuda:0: a simulated H100


def model(x):
    h = ast.tanh(x * 2.0 + 1.0)  # a fused region
    s = ast.sort(h, axis=0)  # a reference step (numba compiles no sort)
    return ast.exp(s).sum(axis=0)  # another fused region


LINES = {
    "h": model.__code__.co_firstlineno + 1,
    "s": model.__code__.co_firstlineno + 2,
    "sum": model.__code__.co_firstlineno + 3,
}


def operand():
    return np.linspace(-1.0, 1.0, 48, dtype=np.float32).reshape(6, 8)


def expected(x):
    return np.exp(np.sort(np.tanh(x * 2 + 1), axis=0)).sum(0)


def steps_of(prof):
    return [e for e in prof.events if e["cat"] != "compile"]


def compiles_of(prof):
    return [e for e in prof.events if e["cat"] == "compile"]


def test_each_step_is_an_event_with_its_region_and_the_users_line():
    f = ast.jit(model, tiered=False)
    x = operand()
    f(x)  # compiled and cached
    (entry,) = f._cache.values()
    plan = entry.executable.steps
    with ast.profile() as prof:
        got = f(x)
    np.testing.assert_allclose(np.asarray(got), expected(x), rtol=1e-5)
    events = steps_of(prof)
    assert [e["args"]["primitive"] for e in events] == [name for name, _ in plan]
    assert [e["args"]["how"] for e in events] == [how for _, how in plan]
    kernels = [e for e in events if e["cat"] == "kernel"]
    assert len(kernels) == 2 and all(e["name"].startswith("fusion[") for e in kernels)
    assert "tanh" in kernels[0]["name"] and "exp" in kernels[1]["name"]
    (sort,) = [e for e in events if e["cat"] == "reference"]
    assert sort["name"] == "sort"
    here = os.path.basename(__file__)
    sources = [e["args"]["source"] for e in events]
    assert sources == [f"{here}:{LINES['h']}", f"{here}:{LINES['s']}", f"{here}:{LINES['sum']}"]
    assert all(e["dur"] >= 0 and e["ts"] >= 0 for e in events)
    starts = [e["ts"] for e in events]
    assert starts == sorted(starts)
    assert compiles_of(prof) == []  # a cached call compiles nothing


def test_a_first_call_records_its_compile_and_cached_calls_none():
    f = ast.jit(lambda x: ast.sin(x) * 3.0 - ast.cos(x), tiered=False)
    x = operand()
    with ast.profile() as first:
        f(x)
    compiles = compiles_of(first)
    assert [e["name"] for e in compiles if e["args"].get("backend")] == ["compile (numba)"]
    assert len(steps_of(first)) == 1
    with ast.profile() as cached:
        f(x)
        f(x)
    assert compiles_of(cached) == []
    assert len(steps_of(cached)) == 2


def test_nothing_is_recorded_outside_a_block_and_blocks_nest():
    f = ast.jit(lambda x: x * 2.0 + 1.0, tiered=False)
    x = operand()
    f(x)
    f(x)
    assert not profiler.recording
    with ast.profile() as outer:
        f(x)
        with ast.profile() as inner:
            f(x)
        f(x)
    assert not profiler.recording and profiler._events == []
    assert len(steps_of(outer)) == 3 and len(steps_of(inner)) == 1
    f(x)
    assert len(outer.events) == 3 and len(inner.events) == 1
    with ast.profile() as empty:
        pass
    assert empty.events == [] and "0 events" in empty.summary()


def test_a_scheduled_plan_records_its_transfers_and_the_pool_threads():
    class Everything:
        def place(self, eqn, cost, devices, current):
            return "cuda:0"

    f = ast.jit(model, policy=Everything(), devices=HW)
    x = operand()
    f(x)
    with ast.profile() as prof:
        got = f(x)
    want = ast.jit(model, tiered=False)(x)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
    report = f.last_run()
    transfers = [e for e in prof.events if e["cat"] == "transfer"]
    assert len(transfers) == len(report.transfers) >= 2
    assert {(e["args"]["src"], e["args"]["dst"]) for e in transfers} == {
        (src, dst) for _, src, dst, _ in report.transfers
    }
    assert [e["args"]["bytes"] for e in transfers] == [n for *_, n in report.transfers]
    regions = [e for e in prof.events if "step" in e["args"]]
    assert sorted(e["args"]["step"] for e in regions) == sorted(report.threads)
    assert all(e["args"]["device"] == "cuda:0" for e in regions)
    names = {
        m["tid"]: m["args"]["name"]
        for m in prof.trace()["traceEvents"]
        if m["name"] == "thread_name"
    }
    for e in regions:
        assert names[e["tid"]] == report.threads[e["args"]["step"]]


def test_a_cuda_run_on_the_standin_records_its_steps():
    cupy_standin.install(devices=2)
    try:
        f = ast.jit(model)
        x = operand()
        on_device = ast.asarray(x, device="cuda:1")
        with ast.profile() as prof:
            got = f(on_device)
            again = f(on_device)
        assert got.device == "cuda:1"
        np.testing.assert_allclose(np.asarray(again.to_device("cpu")), expected(x), rtol=1e-5)
        steps = steps_of(prof)
        assert len(steps) == 2 * 3 and all(e["args"]["device"] == "cuda:1" for e in steps)
        assert [e["args"]["primitive"] for e in steps[:3]] == ["fusion", "sort", "fusion"]
        lines = {e["args"]["source"].rsplit(":", 1)[1] for e in steps}
        assert lines == {str(n) for n in LINES.values()}
        assert [e["name"] for e in compiles_of(prof)] == ["compile (cupy)"]
    finally:
        cupy_standin.uninstall()


def test_the_trace_file_follows_the_trace_event_format(tmp_path):
    f = ast.jit(model, tiered=False)
    x = operand()
    path = tmp_path / "trace.json"
    with ast.profile(path) as prof:
        f(x)
        caller = threading.Thread(target=f, args=(x,), name="second caller")
        caller.start()
        caller.join()
        f(x)
    trace = json.loads(path.read_text())
    assert set(trace) == {"traceEvents", "displayTimeUnit"}
    complete = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    meta = [e for e in trace["traceEvents"] if e["ph"] == "M"]
    assert complete and len(complete) == len(prof.events)
    for e in complete:
        assert set(e) == {"name", "cat", "ph", "ts", "dur", "pid", "tid", "args"}
        assert isinstance(e["ts"], float) and isinstance(e["dur"], float) and e["dur"] >= 0
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int)
    named = {e["tid"] for e in meta if e["name"] == "thread_name"}
    assert {e["tid"] for e in complete if e["pid"] == os.getpid()} <= named
    threads = {e["args"]["name"] for e in meta if e["name"] == "thread_name"}
    assert threads == {"MainThread", "second caller"}  # a thread that ended keeps its name
    assert any(e["name"] == "process_name" for e in meta)
    table = prof.summary()
    assert "# steps:" in table and "# compiles:" in table
    assert f"({os.path.basename(__file__)}:{LINES['s']})" in table
    prof.save(tmp_path / "again.json")
    assert json.loads((tmp_path / "again.json").read_text()) == trace


def test_a_step_that_raises_leaves_the_recorder_off():
    f = ast.jit(model, tiered=False)
    with pytest.raises(ZeroDivisionError), ast.profile():
        f(operand())
        raise ZeroDivisionError
    assert not profiler.recording and profiler._events == []


def test_the_compile_workers_compile_is_an_event_of_its_process(tmp_path, monkeypatch):
    from arraystack.backends.numba import compile_process

    monkeypatch.setattr(
        ast.config, "cache_dir", str(tmp_path)
    )  # nothing on disk: the worker compiles
    compile_process.reset()
    try:
        f = ast.jit(lambda a: ast.tanh(a * 0.40625) - a, tiered=True)  # a kernel new to this run
        with ast.profile() as prof:
            f(operand())
            assert f.wait_compiled(timeout=300)
            worker = compile_process.worker_pid()
        (entry,) = f._cache.values()
        assert entry.pending.mode == "process"
        (event,) = [e for e in prof.events if e["name"] == "compile (worker)"]
        assert event["pid"] == worker != os.getpid() and event["cat"] == "compile"
        assert event["dur"] / 1e6 == pytest.approx(entry.pending.report["worker_seconds"])
        timeline = entry.pending.timeline
        start = event["ts"] / 1e6 + prof._handle[1]  # back to perf_counter() seconds
        assert timeline["started"] <= start and start + event["dur"] / 1e6 <= timeline["answered"]
        twin = [e for e in prof.events if e["cat"] == "twin"]
        assert twin and twin[0]["name"].startswith("fusion[")
        names = [e["name"] for e in compiles_of(prof)]
        assert "compile tier 0 (numba twin)" in names and "compile (numba)" in names
    finally:
        compile_process.reset()


def test_a_compiled_loop_is_one_event():
    def loop(x):
        return ast.fori_loop(0, 3, lambda i, c: ast.sin(c) * 2.0 + 1.0, x)

    f = ast.jit(loop, tiered=False)
    x = operand()
    f(x)
    with ast.profile() as prof:
        f(x)
    (event,) = prof.events
    assert event["cat"] == "loop" and event["args"]["how"].startswith("compiled loop (numba)")


def test_a_host_loops_body_steps_are_inside_its_event_and_the_summary_counts_self_time():
    def loop(x):  # sort has no compiled-loop lowering: the loop runs on the host
        return ast.fori_loop(0, 3, lambda i, c: ast.sort(ast.sin(c) * 2.0 + 1.0), x)

    f = ast.jit(loop, tiered=False)
    x = operand()
    f(x)
    with ast.profile() as prof:
        f(x)
    (outer,) = [e for e in prof.events if e["cat"] == "loop"]
    inner = [e for e in prof.events if e is not outer]
    assert sum(e["cat"] == "kernel" for e in inner) >= 3  # the body's kernel, once an iteration
    for e in inner:
        assert e["tid"] == outer["tid"]
        assert outer["ts"] <= e["ts"] and e["ts"] + e["dur"] <= outer["ts"] + outer["dur"]
    header = prof.summary().splitlines()[0]
    total_ms = float(header.rsplit(", ", 1)[1].split()[0])
    assert total_ms == pytest.approx(
        outer["dur"] / 1e3, abs=2e-3
    )  # self times add up to the loop's
