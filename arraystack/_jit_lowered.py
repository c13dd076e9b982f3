"""The inspection side of arraystack.jit: Lowered (`f.lower(*args)`: the IR as traced and after the passes,
its pass report, compiled plan, cost and placement) and Stats (`f.stats()`: calls, traces, compiles, hits)."""

from __future__ import annotations

from arraystack._config import config


class Stats:
    def __init__(self):
        self.calls = 0
        self.traces = 0
        self.compiles = 0
        self.cache_hits = 0
        self.retrace_reasons: list[str] = []

    def as_dict(self):
        return dict(
            calls=self.cache_hits + self.traces,
            traces=self.traces,
            compiles=self.compiles,
            cache_hits=self.cache_hits,
        )

    def __repr__(self):
        return f"Stats({self.as_dict()})"


class Lowered:
    """A traced and optimized function: `.as_text()` shows the IR as traced and after the passes."""

    def __init__(self, traced, optimized, report, backend):
        self.traced = traced
        self.optimized = optimized
        self.report = report
        self.backend = backend

    def as_text(self) -> str:
        return f"# traced\n{self.traced}\n# after passes\n{self.optimized}"

    def draw(self, after_passes=True, placement=None):
        """A picture of the IR after the passes (or as traced): an arraystack.ir.Drawing, which shows
        itself in notebooks. `placement=self.plan()` colours the regions by device."""
        from arraystack.ir.drawing import draw

        return draw(self.optimized if after_passes else self.traced, placement)

    def pass_report(self):
        return self.report

    def compile(self):
        from arraystack.backends import compile_graph

        return compile_graph(self.optimized, self.backend, cache_dir=config.cache_dir)

    def cost(self, devices=None):
        """Flops, bytes and kernels of the optimized graph, per region and in total, with a predicted time
        on each device of `devices` (default: arraystack.devices()); see arraystack.ir.cost."""
        from arraystack._devices import devices as detected
        from arraystack.ir.cost_report import graph_cost

        return graph_cost(self.optimized, tuple(detected() if devices is None else devices))

    def plan(self, policy="default", devices=None, inputs=None):
        """Where each region would run: a Plan (arraystack.backends.planner), see plan.explain()."""
        from arraystack._devices import devices as detected
        from arraystack.backends.planner import plan_graph

        return plan_graph(self.optimized, detected() if devices is None else devices, policy, inputs)
