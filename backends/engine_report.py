"""What a run of a plan did (engine.py): the transfers performed, bytes held per device, which thread ran each
region, each step's measured time beside the plan's prediction; and the OutOfMemory error a step raises when
it would exceed a device's limit."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from arraystack.backends import memory
from arraystack.backends.memory import OutOfMemory, format_bytes


@dataclass(frozen=True)
class RunReport:
    """transfers: (value, src, dst, bytes copied) per transfer performed, in plan order; peak: device key ->
    the most bytes the run held there (the host's arguments included); predicted_peak: the same figure the
    plan's buffer assignment implies when its steps run in plan order (a concurrent run never exceeds it);
    threads: region index -> the name of the thread that ran it; runtimes: device key -> runtime kind;
    measured: ("region" or "transfer", index) -> the seconds the step took on its device (StepClock)."""

    plan: object
    transfers: tuple
    peak: dict
    predicted_peak: dict
    threads: dict
    runtimes: dict
    measured: dict = field(default_factory=dict)

    def transferred_bytes(self) -> int:
        return sum(t[3] for t in self.transfers)

    def explain(self) -> str:
        threads = len(set(self.threads.values()))
        lines = [
            f"# run: {len(self.transfers)} transfers performed, {self.transferred_bytes()} bytes; "
            + f"{threads} thread(s) ran {len(self.threads)} regions"
        ]
        for device, peak in self.peak.items():
            lines.append(
                f"#   {device:8s} ({self.runtimes.get(device, '?')}) peak {format_bytes(peak)}, "
                f"plan predicts {format_bytes(self.predicted_peak.get(device, 0))}"
            )
        lines += [f"#   copied {v} {src} -> {dst}: {n} bytes" for v, src, dst, n in self.transfers]
        return "\n".join(lines + self._times())

    def _times(self) -> list:
        """A line per step with its predicted and measured times (a region's compute, a transfer's copy)."""
        if not self.measured:
            return []
        lines = [f"#   {'step':36s} {'predicted':>12s} {'measured':>12s}"]
        for what, index in self.plan.order:
            kind = "transfer" if what == "transfer" else "region"
            seconds = self.measured.get((kind, index))
            if seconds is None:
                continue
            if kind == "region":
                r = self.plan.regions[index]
                what = f"region {index} `{r.primitive}` on {r.device}"
                predicted = r.estimate().compute
            else:
                t = self.plan.transfers[index]
                what, predicted = f"copy {t.value} {t.src} -> {t.dst}", t.seconds
            lines.append(f"#   {what:36s} {_us(predicted):>12s} {_us(seconds):>12s}")
        return lines

    __str__ = explain


def _us(seconds) -> str:
    return "unknown" if seconds is None else f"{seconds * 1e6:.4g} us"


class StepClock:
    """The host's clock around one step (`with clock: ...`; `seconds()` after). A device runtime whose steps
    run asynchronously gives its own (Runtime.clock(), e.g. CUDA events), read after it synchronized."""

    start = stop = 0.0

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.stop = time.perf_counter()

    def seconds(self) -> float:
        return self.stop - self.start


def step_clock(runtime):
    """A clock for one step on `runtime`: its own where it has one, else the host's."""
    clock = getattr(runtime, "clock", None)
    return StepClock() if clock is None else clock()


def describe_step(schedule, position: int) -> tuple:
    """(primitive, what, source) of the step at `position`: a region or a transfer."""
    node = schedule.nodes[position]
    plan_region = None if node.transfer is not None else schedule.regions[node.index]
    if plan_region is None:
        t = node.transfer
        return "transfer", f"copy of {t.value} {t.src} -> {t.dst}", None
    what = f"region {plan_region.index} `{plan_region.primitive}`"
    return plan_region.primitive, what, plan_region.source


def out_of_memory(schedule, position, device, requested, in_use, limit, which) -> OutOfMemory:
    """The OutOfMemory of the step at `position` (memory.out_of_memory, the one message of every runner)."""
    primitive, what, source = describe_step(schedule, position)
    return memory.out_of_memory(
        device, position, primitive, what, source, requested, in_use, limit, which
    )
