"""jit through the execution planner and engine: `jit(f, policy=..., devices=...)`.

A jitted function with a placement policy (or a hardware model of its own) is planned on each cache miss
(backends/planner.py: a device per region, the transfers, the buffers) and every call runs that plan on the
execution engine (backends/engine.py: per-device pools, transfers as steps, independent steps concurrently,
memory limits per device). With the default policy and the detected devices there is nothing to decide:
every region runs on the host, in graph order, and the default backend's executable is that plan's serial host
runner (the same steps, the same buffer pool, the host memory limit), without the engine's per-call
scheduling; that path also serves tiered compilation.

A placed function compiles before its first call returns (the engine prepares a step per region; no tier 0)
and does not overwrite donated arguments (donation permits reuse, it does not require it). Under an error
state that asks for an action (np.errstate(all="raise")) a call runs the reference rules instead of the
plan, as the default placement does (backends/floating_point_errors.py). `f.last_run()`
gives the engine's report of the latest call (transfers, peak bytes per device, threads).
"""

from __future__ import annotations

import itertools
import threading

_runs = itertools.count()


class Placement:
    """What a jitted function asked for: a policy (a registered name or an object with place()) and a
    hardware model (given, or arraystack.devices() on first use: detecting it may calibrate this machine,
    which a decorator must not do at import). key: its part of the cache key (the policy, the devices)."""

    def __init__(self, policy, model=None):
        self.policy = policy
        self._model = model
        self._key = None

    @property
    def model(self):
        if self._model is None:
            from arraystack._core.devices import devices as detected

            self._model = detected()
        return self._model

    @property
    def key(self):
        if self._key is None:
            policy = self.policy if isinstance(self.policy, str) else ("policy", id(self.policy))
            self._key = (policy, tuple(d.key for d in self.model))
        return self._key


def resolve_placement(policy, devices):
    """None for the default placement on the detected devices (the backend's executable runs it), else a
    Placement. Unknown policy names and malformed device lists raise here, when jit() is called."""
    if policy is None and devices is None:
        return None
    from arraystack.backends.planner import as_model
    from arraystack.backends.policies import get_policy

    policy = "default" if policy is None else policy
    get_policy(policy)
    if devices is None:
        return None if policy == "default" else Placement(policy)
    if isinstance(devices, str):
        raise TypeError(
            "jit(devices=...) takes a hardware model (arraystack.devices('h100')) or device records, "
            f"not the string {devices!r}"
        )
    return Placement(policy, as_model(devices))


class PlacedExecutable:
    """One specialization of a placed function: its Plan and the Engine that runs it. Called like a
    backend's Executable (`runner(buffers)` -> output buffers)."""

    def __init__(self, graph, placement: Placement, cache_dir: str | None, stats=None):
        from arraystack.backends.engine import Engine
        from arraystack.backends.floating_point_errors import honour_error_state
        from arraystack.backends.planner import plan_graph

        self.graph = graph
        self.plan = plan_graph(graph, placement.model, placement.policy)
        self.engine = Engine(self.plan, cache_dir=cache_dir)
        self.stats = stats  # the function's counters: the first run adds the kernels numba compiled
        self.new_kernels = 0
        self.last_report = None
        self._first = threading.Lock()
        self._ran = False
        # NumPy's error state at call time, as the default placement's executable (compile_graph): where
        # it asks to raise, call, print or log, a call runs the graph through the reference rules
        honour_error_state(self)

    def runner(self, buffers):
        return self._run(buffers) if self._ran else self._first_run(buffers)

    def _run(self, buffers):
        outputs, report = self.engine.run(list(buffers))
        self.last_report = (next(_runs), report)
        self.plan.runs["report"] = report
        return outputs

    def _first_run(self, buffers):
        """The steps compile their kernels when they first run: count them (backends count compiles
        process-wide, so the first run holds a lock and other functions' compiles meanwhile may be counted
        too)."""
        from arraystack.backends.registry import compiled_kernels

        with self._first:
            if self._ran:
                return self._run(buffers)
            before = compiled_kernels()
            outputs = self._run(buffers)
            self.new_kernels = compiled_kernels() - before
            if self.stats is not None:
                self.stats.compiles += self.new_kernels
            self._ran = True
            return outputs

    def __call__(self, *buffers):
        return self.runner(buffers)

    def as_text(self) -> str:
        return self.plan.explain()

