"""The inspection side of arraystack.jit: Lowered (`f.lower(*args)`: the IR as traced and after the passes,
its pass report, compiled plan, cost and placement) and Stats (`f.stats()`: calls, traces, compiles, hits,
evictions, and why it retraced)."""

from __future__ import annotations

from collections import deque

from arraystack._core.config import config


class Stats:
    def __init__(self):
        self.calls = 0
        self.traces = 0
        self.compiles = 0
        self.cache_hits = 0
        self.evictions = 0  # specializations dropped from the cache (config.jit_cache_size)
        self.retrace_reasons: deque[str] = deque(maxlen=32)  # why the latest traces happened

    def as_dict(self, served=0):
        """served: cached calls counted elsewhere (the C fast path of jitted calls)."""
        return {
            "calls": self.cache_hits + served + self.traces,
            "traces": self.traces,
            "compiles": self.compiles,
            "cache_hits": self.cache_hits + served,
            "evictions": self.evictions,
            "retrace_reasons": list(self.retrace_reasons),
        }

    def __repr__(self):
        return f"Stats({self.as_dict()})"


class Lowered:
    """A traced and optimized function: `.as_text()` shows the IR as traced and after the passes."""

    def __init__(self, traced, optimized, report, backend, call=None):
        self.traced = traced
        self.optimized = optimized
        self.report = report
        self.backend = backend
        self.call = call  # (jit function, captured constants, output tree): lets plans run

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
        """The executable a call with the default placement runs (its backend's compiled tier)."""
        from arraystack.backends import CompileOptions
        from arraystack.backends.engine import Engine
        from arraystack.backends.hardware import host

        options = CompileOptions(config.cache_dir)
        return Engine.on_one_device(self.optimized, host(self.backend), options).executable

    def cost(self, devices=None):
        """Flops, bytes and kernels of the optimized graph, per region and in total, with a predicted time
        on each device of `devices` (default: arraystack.devices()); see arraystack.ir.cost."""
        from arraystack._core.devices import devices as detected
        from arraystack.ir.cost_report import graph_cost

        return graph_cost(self.optimized, tuple(detected() if devices is None else devices))

    def plan(self, policy=None, devices=None, inputs=None):
        """Where each region would run: a Plan (arraystack.backends.planner), see plan.explain().
        `plan.run(*args)` executes it on the arguments lower() saw (same shapes and dtypes) and returns
        what the function returns; `plan.last_run` reports the transfers and memory of that run.
        policy/devices default to the jitted function's own (jit(f, policy=..., devices=...)), else
        "default" on arraystack.devices()."""
        from dataclasses import replace

        from arraystack._core.devices import devices as detected
        from arraystack.backends.planner import plan_graph

        placement = getattr(self.call[0], "placement", None) if self.call is not None else None
        if policy is None:
            policy = placement.policy if placement is not None else "default"
        if devices is None:
            devices = placement.model if placement is not None else detected()
        plan = plan_graph(self.optimized, devices, policy, inputs)
        return plan if self.call is None else replace(plan, binding=_PlanBinding(self))


class _PlanBinding:
    """Arguments -> the plan's input buffers (the dynamic leaves, then the captured constants), and output
    buffers -> the function's result structure, the way a call of the jitted function does it."""

    def __init__(self, lowered):
        self.function, self.consts, self.out_tree = lowered.call
        self.in_avals = tuple(v.aval for v in lowered.optimized.inputs)
        self.cache_dir = config.cache_dir  # where the plan's kernels persist, as for a call

    def buffers(self, args, kwargs):
        from arraystack._transforms.jit_arguments import _leaf_buffer

        key, leaves = self.function._key(args, kwargs)
        avals = key[2]
        expected = self.in_avals[: len(avals)]
        if len(avals) + len(self.consts) != len(self.in_avals) or any(
            (a.shape, a.dtype) != (b.shape, b.dtype) for a, b in zip(avals, expected)
        ):
            got = ", ".join(a.str_short() for a in avals)
            want = ", ".join(a.str_short() for a in expected)
            raise TypeError(f"this plan was made for arguments ({want}); got ({got}): lower again")
        for k, leaf in enumerate(leaves):
            device = getattr(leaf, "device", None)
            if device is not None and str(device) != "cpu":
                raise ValueError(
                    f"plan.run: argument leaf {k} is on {device}, and a plan reads its arguments from the "
                    "host (its transfers move them where its regions run): pass x.to_device('cpu'), or call "
                    "the jitted function itself, which runs where its arguments are"
                )
        return [_leaf_buffer(leaf, aval) for leaf, aval in zip(leaves, avals)] + [
            c._value if hasattr(c, "_value") else c for c in self.consts
        ]

    def results(self, outputs):
        from arraystack._core.array import wrap_array as wrap
        from arraystack.ir import tree

        return tree.unflatten(self.out_tree, [wrap(o) for o in outputs])
