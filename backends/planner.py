"""The execution planner: optimized Graph (read only) + hardware model -> Plan (a device per region, the
transfers between devices, a buffer for every value, an order). Placement is decided by a policy
(policies.py); the Plan records every estimate it saw so plan.explain() can say why each region went where.

plan.run(*args) executes a Plan (engine.py); its buffers come from buffer_assignment.py.

A region is one top-level equation of the optimized graph (a fused kernel, a library call, a loop, a view).
Graph inputs live on the default device unless `inputs` says otherwise, and graph outputs are copied back
to it. A transfer is inserted right before the first region that reads a value on a device without a copy
of it; the copy then stays there for later readers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from arraystack.backends.buffer_assignment import Buffer, assign_buffers
from arraystack.backends.hardware import HardwareModel
from arraystack.backends.policies import Placement, device_key, get_policy, value_bytes
from arraystack.ir.cost_report import graph_cost
from arraystack.ir.ir import Var
from arraystack.ir.printer import RESERVED_NAMES


class PlanError(ValueError):
    """A policy chose a device the plan cannot use (unknown, or unreachable from an operand's copy)."""


def value_names(graph) -> dict:
    """Var -> the name the printer gives it (a, b, ..., in order of definition), so plans read like IR."""
    names, counter = {}, 0
    for var in list(graph.inputs) + [v for eqn in graph.eqns for v in eqn.outputs]:
        while True:
            n, name = counter, ""
            counter += 1
            while True:
                name = "abcdefghijklmnopqrstuvwxyz"[n % 26] + name
                n //= 26
                if n == 0:
                    break
            if name not in RESERVED_NAMES:
                break
        names[var] = name
    return names


@dataclass(frozen=True)
class Estimate:
    """A region's predicted seconds on one device: compute (None when unknown) + transfers in and out."""

    device: str
    compute: float | None
    transfer: float

    @property
    def total(self):
        return None if self.compute is None else self.compute + self.transfer


@dataclass(frozen=True)
class Region:
    index: int  # the equation's position in the optimized graph
    primitive: str
    ops: int
    flops: float | None
    bytes: float | None
    device: str
    inputs: tuple  # value names
    outputs: tuple
    estimates: tuple  # one Estimate per device of the model, in model order
    source: str | None = None

    def estimate(self, device=None) -> Estimate:
        key = self.device if device is None else device_key(device)
        return next(e for e in self.estimates if e.device == key)


@dataclass(frozen=True)
class Transfer:
    value: str
    src: str
    dst: str
    bytes: int
    seconds: float
    consumer: int | None  # the region index that needs it; None: a graph output going home
    link: str = ""


@dataclass(frozen=True)
class Plan:
    graph: object
    model: HardwareModel
    policy: str
    reason: str
    regions: tuple
    transfers: tuple
    order: tuple  # ("run", region index) and ("transfer", transfer index) in execution order
    buffers: tuple
    assignment: dict = field(default_factory=dict)  # (value name, device key) -> buffer index
    # How run() turns the caller's arguments into input buffers and output buffers into results (the
    # frontend's Lowered.plan sets it; None: host arrays in, a list of host arrays out).
    binding: object = field(default=None, compare=False, repr=False)
    runs: dict = field(default_factory=dict, compare=False, repr=False)  # engine.py: engine, report

    @property
    def devices(self) -> tuple:
        """The device key of each region, in graph order (part of a compiled program's cache key)."""
        return tuple(r.device for r in self.regions)

    def device_of(self, region: int) -> str:
        return self.regions[region].device

    def buffer_of(self, value: str, device: str | None = None) -> Buffer:
        device = device or self.model.default.key
        return self.buffers[self.assignment[(value, device)]]

    def predicted_time(self) -> float:
        """Seconds run serially: each region on its device plus every transfer (unknown regions: 0)."""
        compute = sum(r.estimate().compute or 0.0 for r in self.regions)
        return compute + sum(t.seconds for t in self.transfers)

    def memory(self) -> dict:
        """Bytes of the buffers the plan allocates per device (arguments included)."""
        out = {d.key: 0 for d in self.model}
        for b in self.buffers:
            out[b.device] += b.bytes
        return out

    def run(self, *args, workers=None, **kwargs):
        """Execute the plan (backends/engine.py): each region on its device (the host, or a simulated
        accelerator for a preset), the transfers as steps, independent steps on `workers` threads. Raises
        OutOfMemory before running when a step would exceed a device's limit. See `last_run`."""
        from arraystack.backends.engine import run_plan

        if self.binding is None:
            if kwargs:
                raise TypeError(f"a plan's run() takes input buffers, not keywords {sorted(kwargs)}")
            return run_plan(self, list(args), workers)[0]
        buffers = self.binding.buffers(args, kwargs)
        outputs, _ = run_plan(self, buffers, workers, getattr(self.binding, "cache_dir", None))
        return self.binding.results(outputs)

    @property
    def last_run(self):
        """The RunReport of the latest run(): transfers performed, peak bytes per device, threads."""
        return self.runs.get("report")

    def explain(self) -> str:
        text = self._explain_plan()
        report = self.last_run
        return text if report is None else f"{text}\n{report.explain()}"

    def _explain_plan(self) -> str:
        home = self.model.default.key
        on_home = sum(r.estimate(home).compute or 0.0 for r in self.regions)
        moved = sum(t.bytes for t in self.transfers)
        n_unknown = sum(r.estimate().compute is None for r in self.regions)
        unknown = f" + {n_unknown} regions of unknown cost" if n_unknown else ""
        lines = [
            f"# plan: policy {self.policy!r} ({self.reason})",
            (
                f"# devices: {', '.join(d.key for d in self.model)}; predicted "
                f"{_us(self.predicted_time())}{unknown} (everything on {home}: {_us(on_home)}); "
                f"{len(self.transfers)} transfers, {moved} bytes"
            ),
        ]
        by_consumer: dict = {}
        for t in self.transfers:
            by_consumer.setdefault(t.consumer, []).append(t)
        for r in self.regions:
            at = f" at {r.source}" if r.source else ""
            lines.append(
                f"region {r.index} `{r.primitive}` ({r.ops} op{'s' if r.ops != 1 else ''}, {_num(r.flops)} flops, "
                f"{_num(r.bytes)} bytes){at} -> {r.device}: {_why(r)}"
            )
            for e in r.estimates:
                mark = "*" if e.device == r.device else " "
                compute = "unknown" if e.compute is None else _us(e.compute)
                total = "unknown" if e.total is None else _us(e.total)
                lines.append(
                    f"  {mark} {e.device:8s} compute {compute:>12s} + transfers "
                    f"{_us(e.transfer):>12s} = {total}"
                )
            reason, how = self._not_compiled(r)
            if reason:
                lines.append(f"    not compiled ({reason})")
            elif how:
                lines.append(f"    runs as {how}")
            lines += [f"    {_transfer_text(t)}" for t in by_consumer.get(r.index, ())]
        lines += [f"return: {_transfer_text(t)}" for t in by_consumer.get(None, ())]
        return "\n".join(lines)

    def _not_compiled(self, region) -> tuple:
        """(why the backend of the region's device does not compile it (Backend.unsupported), how it runs
        it when it does (Backend.runs_as)); (None, None) when no backend here serves the device (a
        simulated one runs the host's)."""
        from arraystack.backends.registry import BackendUnavailable, for_device

        device = self.model.device(region.device)
        if device.source == "preset":
            device = self.model.default
        try:
            backend = for_device(device)
        except BackendUnavailable:
            return None, None
        eqn = self.graph.eqns[region.index]
        reason = backend.unsupported(eqn)
        if reason:
            return f"{backend.name}: {reason}", None
        return None, backend.runs_as(eqn, self.graph)

    __str__ = explain


def _why(r: Region) -> str:
    known = [e for e in r.estimates if e.total is not None]
    if len(known) < len(r.estimates):
        return "cost unknown (a while loop's trip count depends on data)"
    best = min(known, key=lambda e: e.total)
    chosen = r.estimate()
    if chosen.total <= best.total:
        others = [e for e in known if e.device != r.device]
        runner = min(others, key=lambda e: e.total, default=None)
        if runner is None:
            return "the only device"
        if runner.total == chosen.total:
            return f"tied with {runner.device} at {_us(chosen.total)}"
        return (
            f"lowest predicted time ({_us(chosen.total)} vs {_us(runner.total)} on {runner.device})"
        )
    return f"policy choice; {best.device} is predicted faster ({_us(best.total)} vs {_us(chosen.total)})"


def _transfer_text(t: Transfer) -> str:
    via = f" over {t.link}" if t.link else ""
    return f"copy {t.value} {t.src} -> {t.dst}: {t.bytes} bytes, {_us(t.seconds)}{via}"


def _us(seconds) -> str:
    return "inf" if seconds == math.inf else f"{seconds * 1e6:.4g} us"


def _num(value) -> str:
    return "unknown" if value is None else f"{value:.4g}"


def as_model(devices) -> HardwareModel:
    """A HardwareModel from a model or an iterable of Device records (then without links)."""
    if isinstance(devices, HardwareModel):
        return devices
    devices = tuple(devices)
    if not devices:
        raise ValueError("planning needs at least one device")
    return HardwareModel(devices, ())


def plan_graph(graph, devices, policy="default", inputs=None) -> Plan:
    """Plan `graph` on `devices` (a HardwareModel) with `policy` (a registered name or a policy object).
    inputs: the device key of each graph input (default: all on the default device)."""
    model = as_model(devices)
    chooser = get_policy(policy)
    home = model.default.key
    names = value_names(graph)
    report = graph_cost(graph, model.devices)
    state = Placement(model, graph.outputs, home)
    in_devices = [home] * len(graph.inputs) if inputs is None else [device_key(d) for d in inputs]
    if len(in_devices) != len(graph.inputs):
        raise ValueError(
            f"inputs names {len(in_devices)} devices for {len(graph.inputs)} graph inputs"
        )
    for var, key in zip(graph.inputs, in_devices):
        model.device(key)
        state.copies.setdefault(var, []).append(key)
    regions, transfers, order = [], [], []
    for k, (eqn, row) in enumerate(zip(graph.eqns, report.rows)):
        estimates = tuple(
            Estimate(d.key, row.time(d), state.transfer_in(eqn, d) + state.transfer_out(eqn, d))
            for d in model
        )
        choice = device_key(chooser.place(eqn, row, model, state))
        where = f"region {k} `{eqn.prim.name}`" + (f" at {eqn.source}" if eqn.source else "")
        try:
            model.device(choice)
        except KeyError as e:
            raise PlanError(f"{where}: policy {policy!r} chose {choice!r}: {e.args[0]}") from None
        for var in {id(x): x for x in eqn.inputs if isinstance(x, Var)}.values():
            t = _copy(state, var, choice, names, k, where)
            if t is not None:
                order.append(("transfer", len(transfers)))
                transfers.append(t)
        for var in eqn.outputs:
            state.copies[var] = [choice]
        order.append(("run", k))
        regions.append(
            Region(
                k, eqn.prim.name, row.ops, row.flops, row.bytes, choice,
                tuple(names.get(x, "literal") for x in eqn.inputs),
                tuple(names[v] for v in eqn.outputs), estimates, eqn.source,
            )
        )  # fmt: skip
    for var in {id(x): x for x in graph.outputs if isinstance(x, Var)}.values():
        t = _copy(state, var, home, names, None, "graph output")
        if t is not None:
            order.append(("transfer", len(transfers)))
            transfers.append(t)
    buffers, assignment = assign_buffers(graph, regions, transfers, order, names, in_devices, home)
    return Plan(
        graph, model, getattr(chooser, "name", type(chooser).__name__),
        getattr(chooser, "reason", type(chooser).__name__), tuple(regions), tuple(transfers),
        tuple(order), buffers, assignment,
    )  # fmt: skip


def _copy(state, var, dst, names, consumer, where):
    src, link = state.source(var, dst)
    if src is None:
        held = ", ".join(state.where(var))
        raise PlanError(f"{where}: no link reaches {dst} from {held}, where {names[var]} lives")
    if link is None:
        return None
    state.copies[var].append(dst)
    nbytes = value_bytes(var)
    return Transfer(names[var], src, dst, nbytes, link.transfer_time(nbytes), consumer, link.name)


__all__ = [
    "Buffer",
    "Estimate",
    "Placement",
    "Plan",
    "PlanError",
    "Region",
    "Transfer",
    "plan_graph",
]
