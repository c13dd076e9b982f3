"""The execution engine: runs a Plan (planner.py) end to end. Each region runs on its device's runtime
(device_runtime.py), its outputs in blocks allocated from that device's pool as the plan's buffer assignment
says (a buffer whose values are all dead is reused for a later value on the same device); the plan's
transfers are explicit steps; steps whose inputs are ready run concurrently on a small thread pool.

Memory is checked before anything runs: the plan's buffers give each device's bytes in use at every step,
and a step that would exceed a device's limit (arraystack.config.memory_limit, or a simulated device's
capacity) raises OutOfMemory naming the step, its region and the sizes. On a device whose limit is below the
plan's buffers there, a step that allocates also waits for the steps that free memory before it in plan
order, so a concurrent run never holds more than the plan predicts. Results do not depend on the
scheduling: every value is computed by the same step from the same inputs.

Threads overlap because the generated numba kernels are compiled nogil=True and NumPy/BLAS release the GIL;
parallel kernels (and loops, which may hold them) take every core and run one at a time.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import numpy as np
from arraystack.backends import profiler
from arraystack.backends.device_runtime import runtime_for
from arraystack.backends.engine_report import RunReport, out_of_memory, step_clock
from arraystack.backends.engine_schedule import Schedule, used_devices
from arraystack.backends.memory import buffer_owner, limits

DEFAULT_WORKERS = max(2, min(4, os.cpu_count() or 1))
_executors: dict = {}
_executors_lock = threading.Lock()


def _executor(workers: int) -> ThreadPoolExecutor:
    """A thread pool shared by every run, one per worker count. A forked child makes its own: the
    parent's threads do not exist there."""
    key = (workers, os.getpid())
    with _executors_lock:
        pool = _executors.get(key)
        if pool is None:
            pool = _executors[key] = ThreadPoolExecutor(workers, "arraystack-engine")
        return pool


class Engine:
    """A plan prepared to run.

    Any plan runs scheduled (`run`): a runtime per device, a step per region (its backend's Backend.step,
    prepared once), the transfers as steps, independent steps concurrently, and a RunReport of what the run
    did. A plan whose regions all run on one device, with nothing to transfer, also runs straight through
    (`runner`, the engine's way of running such a plan, and what a jitted call with the default placement
    runs): the device's backend compiles the whole graph into one executable (Backend.compile), which runs
    its steps in plan order, drops each value after its last use and checks the memory limit before each step
    allocates; a call then costs the steps and nothing more (executable.py's straight-line runner).
    `runner(buffers)` -> output buffers is the fastest way to run the plan; `run` also reports.

    runtimes: device key -> runtime, overriding device_runtime.runtime_for (e.g. instrumented runtimes)."""

    def __init__(self, plan, runtimes=None, cache_dir: str | None = None):
        self._plan = plan
        self.cache_dir = cache_dir
        self.executable = None  # a one-device engine's executable (on_one_device)
        self.pending = None  # ... and its backend's compile in the background, if tiered
        self.runner = self._outputs
        self._prepare(runtimes)

    @classmethod
    def on_one_device(cls, graph, device, options, tiered=None) -> Engine:
        """The engine of `graph`'s trivial placement: every region on `device` (a hardware Device record,
        whose `backend` names the backend; hardware.host(name) for the host), run straight through. The plan
        itself is made when asked for (`plan`, `run`). options: CompileOptions; tiered: (name, stats) to
        compile with the backend's tiers where it has them: `executable` then answers at once and `pending`
        compiles in the background (the frontend starts it; backends/interface.py, Tiers)."""
        from arraystack.backends.registry import for_device

        engine = cls.__new__(cls)
        engine._plan, engine._graph, engine._device = None, graph, device
        engine.cache_dir, engine.pending, engine.runtimes = options.cache_dir, None, None
        backend = for_device(device)
        tiers = backend.tiers if tiered is not None else None
        if tiers is not None:
            engine.executable, engine.pending = tiers.compile(graph, options, *tiered)
        else:
            engine.executable = backend.compile(graph, options)
        engine.runner = engine.executable.runner
        return engine

    @property
    def plan(self):
        if self._plan is None:  # the trivial placement of a one-device engine, made on first use
            from arraystack.backends.hardware import HardwareModel
            from arraystack.backends.planner import plan_graph

            self._plan = plan_graph(self._graph, HardwareModel((self._device,)), "default")
        return self._plan

    def _prepare(self, runtimes=None):
        """The runtimes, the schedule and a step per region, for scheduled runs."""
        plan = self.plan
        home = plan.model.default
        given = dict(runtimes or {})
        self.runtimes = {
            d.key: given[d.key] if d.key in given else runtime_for(d, home, self.cache_dir)
            for d in plan.model
            if d.key in used_devices(plan)
        }
        self.schedule = Schedule(plan)
        graph = plan.graph
        self.steps = {
            r.index: self.runtimes[r.device].prepare(graph.eqns[r.index], graph)
            for r in plan.regions
        }

    def step_info(self, index: int) -> tuple:
        """The profiler's (name, category, args) of region `index`, made once per engine."""
        infos = self.__dict__.setdefault("_step_infos", {})
        info = infos.get(index)
        if info is None:
            region = next(r for r in self.plan.regions if r.index == index)
            eqn = self.plan.graph.eqns[index]
            backend = getattr(self.runtimes[region.device], "backend", None)
            why = backend.unsupported(eqn) if backend is not None else "reference"
            if why is None:
                loop = eqn.prim.name in ("while", "scan", "switch")
                why = "host loop over compiled bodies" if loop else f"{backend.name} kernel"
            name, category, args = profiler.step_info(eqn, why)
            info = infos[index] = (name, category, dict(args, device=region.device, step=index))
        return info

    def _outputs(self, buffers):
        return self.run(list(buffers))[0]

    def limit(self, device: str):
        """(bytes, which) of the tighter of the configured limit and the device's capacity, or None."""
        configured = limits.of(device)
        capacity = self.runtimes[device].capacity
        found = [(n, "config") for n in (configured,) if n is not None]
        found += [(n, "capacity") for n in (capacity,) if n is not None]
        return min(found) if found else None

    def check_memory(self) -> frozenset:
        """Raise OutOfMemory at the first step whose allocations would exceed a device's limit. Returns
        the devices whose limit is below the plan's buffers there (a run keeps plan order's memory)."""
        schedule = self.schedule
        checked = {d: self.limit(d) for d in schedule.devices}
        for p, device, requested, in_use in schedule.profile:
            bound = checked[device]
            if bound is not None and in_use + requested > bound[0]:
                raise out_of_memory(schedule, p, device, requested, in_use, *bound)
        return frozenset(
            d
            for d, bound in checked.items()
            if bound is not None and bound[0] < schedule.total.get(d, 0) + schedule.held(d)
        )

    def run(self, buffers, workers: int | None = None, pick=None):
        """Run the plan on host arrays `buffers` (one per graph input); returns (outputs, RunReport).

        pick(ready step positions) -> one of them: run on this thread, one step at a time in the order
        `pick` makes among the steps ready (tests use it to play an adversarial scheduler)."""
        if self.runtimes is None:  # a one-device engine's first scheduled run
            self._prepare()
        schedule = self.schedule
        if len(buffers) != len(schedule.arguments):
            raise TypeError(f"the plan takes {len(schedule.arguments)} inputs, got {len(buffers)}")
        buffers = [np.asarray(b) for b in buffers]
        for k, ((key, _), b) in enumerate(zip(schedule.arguments, buffers)):
            aval = schedule.avals[key]
            if b.shape != tuple(aval.shape) or b.dtype != aval.dtype:
                raise TypeError(
                    f"input {k} of the plan is {aval.str_short()}, got {b.dtype}{list(b.shape)}"
                )
        waits, successors, serial = schedule.order(self.check_memory())
        state = _Run(self, buffers)
        try:
            state.load()
            workers = DEFAULT_WORKERS if workers is None else int(workers)
            if pick is not None:
                state.run_picked(pick, dict(waits), successors)
            elif workers <= 1 or serial:
                for node in schedule.nodes:
                    state.start(node)
                    state.execute(node)
                    state.finish(node)
            else:
                state.run_concurrently(_executor(workers), dict(waits), successors)
            for runtime in self.runtimes.values():
                runtime.synchronize()
            if state.marks is not None:
                state.record_steps()
            outputs = state.outputs()
        finally:
            state.release_all()
        return outputs, state.report()


class _Run:
    """One execution: the values (by (name, device) key), the blocks held, the bytes per device."""

    def __init__(self, engine, buffers):
        self.engine = engine
        self.schedule = schedule = engine.schedule
        self.env = {}
        self.blocks = {}  # plan buffer index -> block
        self.readers = dict(schedule.readers)  # key -> reads left
        self.touches = dict(schedule.touches)  # buffer index -> steps left that touch it
        self.in_use = dict.fromkeys(schedule.devices, 0)
        self.peak = dict.fromkeys(schedule.devices, 0)
        self.transfers = {}
        self.threads = {}
        self.clocks = {}  # ("region" or "transfer", index) -> the StepClock of its step
        self.arguments = buffers
        self.marks = {} if profiler.recording else None  # clock key -> (host start, thread) to profile
        self._lock = threading.Lock()

    def load(self):
        """Bind the arguments; one the plan keeps on another device is copied there (the caller hands a
        host array)."""
        schedule, engine = self.schedule, self.engine
        for (key, buffer), value, nbytes in zip(
            schedule.arguments, self.arguments, schedule.argument_bytes
        ):
            device = key[1]
            runtime = engine.runtimes[device]
            if device == schedule.home:
                self.env[key] = value
            else:
                self.blocks[buffer] = block = runtime.allocate(nbytes)
                self.env[key] = runtime.copy_in(value, block, schedule.avals[key])
            self.in_use[device] += nbytes
            self.peak[device] = max(self.peak[device], self.in_use[device])

    def start(self, node):
        """Allocate the buffers `node` is the first to write (in the calling thread). In plan order that
        is the step the plan allocates them at; where a reused buffer orders nothing, the first of its
        writers to start."""
        runtime, schedule = self.engine.runtimes[node.device], self.schedule
        for write in node.writes:
            buffer = write.buffer
            if buffer in self.blocks or buffer not in schedule.allocated:
                continue
            nbytes = schedule.buffer_place[buffer][1]
            try:
                block = runtime.allocate(nbytes)
            except MemoryError as e:
                bound = (runtime.capacity, "capacity")
                used = self.in_use[node.device]
                raise out_of_memory(
                    self.schedule, node.position, node.device, nbytes, used, *bound
                ) from e
            with self._lock:
                self.blocks[buffer] = block
                self.in_use[node.device] += nbytes
                self.peak[node.device] = max(self.peak[node.device], self.in_use[node.device])

    def execute(self, node):
        engine, env, blocks = self.engine, self.env, self.blocks
        runtime = engine.runtimes[node.device]
        if node.transfer is not None:
            t = node.transfer
            value = env[(t.value, t.src)]
            block = blocks[node.writes[0].buffer]
            aval = node.writes[0].aval
            if self.marks is not None:
                self.marks[("transfer", node.index)] = (profiler.clock(), profiler.thread_ident())
            with step_clock(runtime) as self.clocks[("transfer", node.index)]:
                env[(t.value, t.dst)] = runtime.transfer(value, engine.runtimes[t.src], block, aval)
            self.transfers[node.index] = (t.value, t.src, t.dst, int(value.nbytes))
            return
        inputs = [env[x] if isinstance(x, tuple) else x.value for x in node.inputs]
        outputs = [None if w.view else (blocks[w.buffer], w.aval) for w in node.writes]
        if self.marks is not None:
            self.marks[("region", node.index)] = (profiler.clock(), profiler.thread_ident())
        with step_clock(runtime) as self.clocks[("region", node.index)]:
            results = runtime.run(engine.steps[node.index], inputs, outputs)
        for write, value in zip(node.writes, results):
            env[write.key] = value
        self.threads[node.index] = threading.current_thread().name

    def record_steps(self):
        """The profiler's events of the steps run (after the devices synchronized: a device clock's
        time is read then): each starts where the host began it and lasts what its clock measured."""
        plan = self.engine.plan
        for (kind, index), (start, thread) in self.marks.items():
            seconds = self.clocks[(kind, index)].seconds()
            if kind == "transfer":
                t = plan.transfers[index]
                args = {"value": str(t.value), "src": t.src, "dst": t.dst}
                args["bytes"] = self.transfers[index][3]
                name = f"copy {t.src} -> {t.dst}"
                profiler.record(name, "transfer", start, start + seconds, args, thread)
                continue
            name, category, args = self.engine.step_info(index)
            profiler.record(name, category, start, start + seconds, args, thread)

    def finish(self, node):
        """Drop the values `node` read for the last time; free buffers no later step touches."""
        schedule, env = self.schedule, self.env
        with self._lock:
            for key in node.reads:
                self.readers[key] -= 1
                if self.readers[key] == 0:
                    env.pop(key, None)
            for write in node.writes:
                if self.readers[write.key] == 0:
                    env.pop(write.key, None)
            for buffer in node.buffers:
                self.touches[buffer] -= 1
                if self.touches[buffer] == 0 and buffer in schedule.temporary:
                    self._free(buffer)

    def _free(self, buffer):
        device, nbytes = self.schedule.buffer_place[buffer]
        self.engine.runtimes[device].free(self.blocks.pop(buffer), nbytes)
        self.in_use[device] -= nbytes

    def run_picked(self, pick, waiting, successors):
        ready = [p for p, n in waiting.items() if n == 0]
        while ready:
            position = pick(tuple(ready))
            ready.remove(position)
            node = self.schedule.nodes[position]
            self.start(node)
            self.execute(node)
            self.finish(node)
            for q in successors[position]:
                waiting[q] -= 1
                if waiting[q] == 0:
                    ready.append(q)

    def run_concurrently(self, executor, waiting, successors):
        schedule = self.schedule
        futures = {}

        def submit(node):
            self.start(node)
            futures[executor.submit(self.execute, node)] = node

        try:
            for node in schedule.nodes:
                if waiting[node.position] == 0:
                    submit(node)
            while futures:
                done, _ = wait(futures, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: futures[f].position):
                    node = futures.pop(future)
                    future.result()
                    self.finish(node)
                    for q in successors[node.position]:
                        waiting[q] -= 1
                        if waiting[q] == 0:
                            submit(schedule.nodes[q])
        finally:
            if futures:  # an error: let running steps end before their buffers are released
                wait(futures)

    def outputs(self):
        """The graph's outputs (the plan brings each to the host), never sharing an argument's memory."""
        argument_roots = [buffer_owner(a) for a in self.arguments]
        outs = []
        for x in self.schedule.outputs:
            if not isinstance(x, tuple):
                outs.append(x.value)
                continue
            value = self.env[x]
            if any(buffer_owner(value) is r for r in argument_roots):
                value = value.copy(order="K")  # never an argument's memory; in memory order
            outs.append(value)
        return outs

    def release_all(self):
        for buffer in list(self.blocks):
            device, nbytes = self.schedule.buffer_place[buffer]
            self.engine.runtimes[device].free(self.blocks.pop(buffer), nbytes)
        self.env.clear()

    def report(self) -> RunReport:
        order = sorted(self.transfers)
        return RunReport(
            plan=self.engine.plan,
            transfers=tuple(self.transfers[i] for i in order),
            peak=dict(self.peak),
            predicted_peak=dict(self.schedule.predicted_peak),
            threads=dict(self.threads),
            runtimes={d: r.name for d, r in self.engine.runtimes.items()},
            measured={key: clock.seconds() for key, clock in self.clocks.items()},
        )


def engine_for(plan, cache_dir: str | None = None) -> Engine:
    """The plan's Engine, built on first use and kept with the plan."""
    engine = plan.runs.get("engine")
    if engine is None:
        engine = plan.runs["engine"] = Engine(plan, cache_dir=cache_dir)
    return engine


def run_plan(plan, buffers, workers: int | None = None, cache_dir: str | None = None):
    """Run `plan` on host arrays (one per graph input): (outputs as host arrays, RunReport)."""
    outputs, report = engine_for(plan, cache_dir).run(buffers, workers)
    plan.runs["report"] = report
    return outputs, report


__all__ = ["Engine", "RunReport", "engine_for", "run_plan"]
