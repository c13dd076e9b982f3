"""The backend interface is enough: a third backend, defined in this file and registered at run time, runs
jit (with donation and the memory limit), a planned graph over two devices and per-device memory limits,
without any code outside this file knowing it. It runs every equation through its reference rule and counts
the calls; its device kind, "counter", exists nowhere else."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from arraystack.backends import registry
from arraystack.backends.device_runtime import SimulatedRuntime
from arraystack.backends.engine import Engine
from arraystack.backends.executable import Executable, alias_safe, interpret
from arraystack.backends.hardware import Device, HardwareModel, Link, host
from arraystack.backends.interface import Backend, CompileOptions
from arraystack.backends.reference import reference_step
from arraystack.ir.control import fusion_p
from arraystack.ir.passes import GENERIC

import arraystack as ast

COUNTER = "counter:0"


class CountingBackend(Backend):
    """Reference rules, counted per primitive; its devices are "counter" devices with a pool of their own."""

    name = "counting"
    device_kinds = ("counter",)
    priority = -5  # never the default

    def __init__(self):
        self.calls = collections.Counter()  # primitive name -> steps run
        self.compiled = []  # the CompileOptions of each compile

    @property
    def fusion(self):
        return GENERIC

    def describe(self):
        return "reference rules, counted"

    def _counted(self, eqn):
        run = reference_step(eqn)
        name, calls = eqn.prim.name, self.calls

        def step(*inputs):
            calls[name] += 1
            return run(*inputs)

        return step

    def compile(self, graph, options):
        """Every equation through the shared interpreter (its buffer lifetimes and memory limit); a donated
        argument of an output's shape and dtype receives that output."""
        self.compiled.append(options)
        steps = [self._counted(eqn) for eqn in graph.eqns]
        run = alias_safe(graph, interpret(graph, steps, donated=options.donate))
        donors = [
            (j, k)
            for k, out in enumerate(graph.outputs)
            for j in sorted(options.donate)
            if graph.inputs[j].aval == out.aval
        ]

        def runner(buffers):
            outs = run(buffers)
            for j, k in donors[:1]:
                np.copyto(buffers[j], outs[k])
                outs[k] = buffers[j]
            return outs

        return Executable(graph, [(e.prim.name, "counted reference") for e in graph.eqns], runner)

    def step(self, eqn, graph, options):
        step = self._counted(eqn)
        return step if eqn.prim.multiple_results else (lambda *inputs: [step(*inputs)])

    def runtime(self, device, cache_dir=None):
        return CountingRuntime(device, cache_dir, backend=self)


class CountingRuntime(SimulatedRuntime):
    """A counter device: its values live in blocks of its own pool (SimulatedRuntime's), its steps are the
    counting backend's."""

    name = "counting"
    simulated = False


class MissingBackend(Backend):
    name = "needs-hardware"
    device_kinds = ("fpga",)

    def unavailable_reason(self):
        return "no FPGA is attached to this machine"


@pytest.fixture
def counting():
    """The counting backend, registered for one test (the registry as it was afterwards)."""
    backend = registry.register(CountingBackend())
    missing = registry.register(MissingBackend())
    try:
        yield backend
    finally:
        registry.unregister(backend.name)
        registry.unregister(missing.name)


def f(x, y):
    return ast.tanh(x * y + 1.0) - ast.sum(x, axis=-1, keepdims=True)


def expected(x, y):
    return np.tanh(x * y + 1.0) - np.sum(x, axis=-1, keepdims=True)


X = np.linspace(-2, 2, 48).reshape(6, 8)
Y = np.linspace(1, 3, 48).reshape(6, 8)


def test_a_registered_backend_is_listed_and_unavailable_ones_say_why(counting):
    rows = {row.name: row for row in registry.available()}
    assert rows["counting"].available and rows["counting"].description == "reference rules, counted"
    assert not rows["needs-hardware"].available
    assert rows["needs-hardware"].reason == "no FPGA is attached to this machine"
    assert ast.backends.available() == registry.available()  # the public name
    with pytest.raises(registry.BackendUnavailable, match="no FPGA is attached"):
        ast.jit(f, backend="needs-hardware")(X, Y)
    with pytest.raises(ValueError, match="unknown backend 'nope'.*counting"):
        ast.jit(f, backend="nope")(X, Y)
    with pytest.raises(ValueError, match="already registered"):
        registry.register(CountingBackend())


def test_jit_runs_on_the_registered_backend(counting):
    g = ast.jit(f, backend="counting")
    np.testing.assert_allclose(np.asarray(g(X, Y)), expected(X, Y), rtol=1e-12)
    assert counting.calls["fusion"] >= 1  # the regions the fuse pass made, run by this backend
    before = sum(counting.calls.values())
    g(X, Y)  # a cached call: the same executable again
    assert sum(counting.calls.values()) == 2 * before and len(counting.compiled) == 1
    text = g.lower(X, Y).compile().as_text()
    assert "counted reference" in text


def test_donation_reaches_the_backend(counting):
    x = X.copy()
    g = ast.jit(lambda a, b: a * b + 1.0, backend="counting", donate_argnums=0)
    out = g(ast.asarray(x), Y)
    assert counting.compiled[-1].donate == frozenset({0})
    np.testing.assert_array_equal(np.asarray(out), X * Y + 1.0)
    assert np.shares_memory(
        np.asarray(out), x
    )  # the backend wrote the result into the donated buffer


def test_the_memory_limit_holds_on_the_registered_backend(counting, monkeypatch):
    """One check, one message, whichever way the plan runs: straight through (a jit call) or scheduled."""
    monkeypatch.setattr(ast.config, "memory_limit", 1000)
    g = ast.jit(lambda a, b: ast.tanh(a * b) + ast.exp(a), backend="counting")
    message = (
        r"out of memory on cpu at plan step 0: .* needs 32.0 KiB .* the limit for cpu is 1000 bytes"
    )
    with pytest.raises(ast.OutOfMemory, match=message):
        g(np.ones(4096), np.ones(4096))
    graph = g.lower(np.ones(4096), np.ones(4096)).optimized
    engine = Engine.on_one_device(graph, host("counting"), CompileOptions())
    with pytest.raises(ast.OutOfMemory, match=message):
        engine.run([np.ones(4096), np.ones(4096)])
    assert counting.calls["fusion"] == 0  # checked before anything ran, both ways


def test_a_default_call_runs_its_trivial_placement_through_the_engine(counting):
    """jit's default placement is a plan with every region on the host: the engine runs it straight through
    (runner: the backend's executable) or scheduled (run, with a report); both give the same values."""
    graph = ast.jit(f, backend="counting").lower(X, Y).optimized
    engine = Engine.on_one_device(graph, host("counting"), CompileOptions())
    straight = engine.runner([X, Y])
    assert (
        engine.runner == engine.executable.runner and counting.compiled
    )  # the backend's own runner
    scheduled, report = engine.run([X, Y])
    np.testing.assert_array_equal(straight[0], scheduled[0])
    np.testing.assert_allclose(straight[0], expected(X, Y), rtol=1e-12)
    assert set(engine.plan.devices) == {"cpu"} and engine.plan.transfers == ()
    assert report.runtimes == {"cpu": "counting"} and report.transfers == ()


def hardware():
    cpu = ast.devices()["cpu"]
    counter = Device(
        kind="counter", name="a counting device", memory=1 << 20, backend="counting",
        source="registered", peak_flops=(("float64", 1e15),), bandwidth=1e13,
    )  # fmt: skip
    links = (Link("cpu", COUNTER, 1e10, 1e-6), Link(COUNTER, "cpu", 1e10, 1e-6))
    return HardwareModel((cpu, counter), links)


class RegionsOnTheCounter:
    """A placement policy: fusion regions on the counter device, everything else on the host."""

    def place(self, eqn, cost, devices, current):
        return COUNTER if eqn.prim is fusion_p else "cpu"


def test_a_planned_graph_runs_on_the_host_and_the_registered_device(counting):
    g = ast.jit(f, policy=RegionsOnTheCounter(), devices=hardware())
    np.testing.assert_allclose(np.asarray(g(X, Y)), expected(X, Y), rtol=1e-12)
    report = g.last_run()
    assert report.runtimes[COUNTER] == "counting" and report.runtimes["cpu"] == "host"
    assert counting.calls["fusion"] >= 1
    assert any(dst == COUNTER for _, _, dst, _ in report.transfers)  # operands moved to the device
    assert any(src == COUNTER and dst == "cpu" for _, src, dst, _ in report.transfers)


def test_a_memory_limit_of_the_registered_device_is_checked(counting, monkeypatch):
    monkeypatch.setattr(ast.config, "memory_limit", {COUNTER: 256})
    g = ast.jit(f, policy=RegionsOnTheCounter(), devices=hardware())
    with pytest.raises(ast.OutOfMemory, match=COUNTER):
        g(X, Y)
    assert counting.calls["fusion"] == 0  # checked before anything ran


def test_an_entry_point_adds_a_backend(monkeypatch):
    """A package names its backend in the entry-point group `arraystack.backends`; a broken one is listed
    with its error."""

    class Point:  # what importlib.metadata.entry_points(group=...) yields
        def __init__(self, name, load):
            self.name, self.value, self.load = name, f"plugin_package:{name}", load

    made = CountingBackend()
    made.name = "from-entry-point"

    def broken():
        raise ImportError("plugin_package needs a newer driver")

    points = [Point("from-entry-point", lambda: made), Point("broken-plugin", broken)]
    monkeypatch.setattr(registry, "_entry_points", lambda: points)
    monkeypatch.setattr(registry, "_backends", {})
    monkeypatch.setattr(registry, "_broken", {})
    monkeypatch.setattr(registry, "_discovered", [False])
    rows = {row.name: row for row in registry.available()}
    assert rows["from-entry-point"].available and registry.get("from-entry-point") is made
    assert (
        not rows["broken-plugin"].available
        and "needs a newer driver" in rows["broken-plugin"].reason
    )
    assert (
        rows["numba"].available and rows["reference"].available
    )  # the folders are found as before
    assert registry.ENTRY_POINT_GROUP == "arraystack.backends"


def test_a_backend_registered_later_receives_the_settings_and_a_taken_name_is_reported(monkeypatch):
    class Configurable(CountingBackend):
        def configure(self, **settings):
            self.settings = dict(getattr(self, "settings", {}), **settings)

    late = Configurable()
    late.name = "configured-late"
    registry.register(late)
    try:
        assert late.settings["jit_cache_size"] == ast.config.jit_cache_size  # handed out before
        monkeypatch.setattr(ast.config, "kernel_cache_size", 77)
        assert late.settings["kernel_cache_size"] == 77  # and after
    finally:
        registry.unregister("configured-late")

    class Point:
        name, value = "second-reference", "plugin_package:backend"

        @staticmethod
        def load():
            return registry.get("reference")  # a backend whose name is already taken

    monkeypatch.setattr(registry, "_entry_points", lambda: [Point()])
    monkeypatch.setattr(registry, "_backends", {})
    monkeypatch.setattr(registry, "_broken", {})
    monkeypatch.setattr(registry, "_discovered", [False])
    rows = {row.name: row for row in registry.available()}
    taken = [row for name, row in rows.items() if name.startswith("second-reference")]
    assert len(taken) == 1 and not taken[0].available and "is taken by" in taken[0].reason


def test_the_plan_says_which_regions_the_backend_does_not_compile(counting, monkeypatch):
    def unsupported(eqn):
        return "no tanh here" if eqn.prim.name == "tanh" else None

    monkeypatch.setattr(counting, "unsupported", unsupported)
    g = ast.jit(lambda a: ast.tanh(a @ a) + 1.0, backend="counting", passes=["simplify"])
    text = g.lower(X[:6, :6]).plan(devices=HardwareModel((host("counting"),))).explain()
    tanh = text.split("`tanh`", 1)[1].split("region", 1)[0]
    assert "not compiled (counting: no tanh here)" in tanh
    assert text.count("not compiled") == 1
