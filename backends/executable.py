"""Executable: a compiled graph that runs on raw buffers. The reference executable evaluates the optimized graph
with the reference rules; compiled backends replace fusion regions with generated kernels.

The interpreter is also where buffer lifetimes are kept: each value is dropped after its last use (so its
memory returns to the pool), and with a memory limit each step is checked before it allocates."""

from __future__ import annotations

import math

import numpy as np
from arraystack.backends import profiler
from arraystack.backends.memory import RunLedger, buffer_owner, limits
from arraystack.ir.ir import Graph, Literal
from arraystack.ir.printer import print_graph


class Executable:
    """run(buffers) -> buffers. `steps` lists (primitive name, how it runs) for .compile() reports."""

    def __init__(self, graph: Graph, steps, runner, source: str = ""):
        self.graph = graph
        self.steps = steps
        self.runner = runner  # runner(list of buffers) -> list of buffers
        self.source = source

    def __call__(self, *buffers):
        return self.runner(list(buffers))

    def as_text(self) -> str:
        lines = ["# plan"]
        lines += [f"#   {name:24s} {how}" for name, how in self.steps]
        lines.append("# optimized graph")
        lines.append(print_graph(self.graph))
        if self.source:
            lines.append("# generated source")
            lines.append(self.source)
        return "\n".join(lines)


def last_uses(graph: Graph) -> dict:
    """The position of the last equation reading each value; len(graph.eqns) for graph outputs (alive to
    the end). A value nothing reads maps to the equation defining it (dead at once), or to -1 for a graph
    input."""
    end = len(graph.eqns)
    last = {v: -1 for v in graph.inputs}
    for k, eqn in enumerate(graph.eqns):
        for x in eqn.inputs:
            if not isinstance(x, Literal):
                last[x] = k
        for v in eqn.outputs:
            last.setdefault(v, k)
    for x in graph.outputs:
        if not isinstance(x, Literal):
            last[x] = end
    return last


def consumers(graph: Graph) -> dict:
    """value -> positions of the equations reading it."""
    readers = {}
    for k, eqn in enumerate(graph.eqns):
        for x in eqn.inputs:
            if not isinstance(x, Literal):
                readers.setdefault(x, []).append(k)
    return readers


def _nbytes(aval) -> int:
    return math.prod(aval.shape) * np.dtype(aval.dtype).itemsize


def interpret(graph: Graph, step_fns, describe=None, reused=None, donated=(), last=None):
    """A runner that walks the graph's equations, calling step_fns[k](*inputs) for equation k.

    Each value is dropped right after its last use, so the buffer pool can hand its memory to a later
    step. describe[k]: how step k runs (for OutOfMemory messages); reused[k]: output positions of step k
    written into a donated input buffer (they allocate nothing); donated: positions of graph inputs the
    plan may overwrite (one passed twice, or sharing memory with another argument, is copied first);
    last: last_uses(graph), if the caller has it."""
    eqns = graph.eqns
    outputs = graph.outputs
    inputs = graph.inputs
    if last is None:
        last = last_uses(graph)
    drops = [[] for _ in eqns]
    for v, k in last.items():
        if 0 <= k < len(eqns):
            drops[k].append(v)
    unused_inputs = tuple(v for v in inputs if last[v] == -1)
    plan = [
        (
            fn,
            tuple((True, x.value) if isinstance(x, Literal) else (False, x) for x in eqn.inputs),
            eqn.prim.multiple_results,
            eqn.outputs if eqn.prim.multiple_results else eqn.outputs[0],
            tuple(drops[k]),
        )
        for k, (fn, eqn) in enumerate(zip(step_fns, eqns))
    ]
    checks = []  # per step (bytes it allocates, primitive, source, how): made on the first limited run

    def make_checks():
        checks[:] = [
            (
                0
                if eqn.prim.name in _VIEW_PRIMS
                else sum(
                    _nbytes(v.aval)
                    for j, v in enumerate(eqn.outputs)
                    if j not in (reused[k] if reused else ())
                ),
                eqn.prim.name,
                _source_of(eqn),
                describe[k] if describe else "",
            )
            for k, eqn in enumerate(eqns)
        ]

    donated = tuple(sorted(donated))

    straight = _straight_line(plan, inputs, unused_inputs, outputs)
    timed = []  # [step infos, the straight line timing each step]: made on the first profiled run

    def run_profiled(buffers):
        if not timed:
            how = describe or ["reference"] * len(eqns)
            infos = [profiler.step_info(eqn, h) for eqn, h in zip(eqns, how)]
            timed[:] = [infos, _straight_line(plan, inputs, unused_inputs, outputs, infos)]
        if limits.host is not None:
            return run_limited(buffers, timed[0])
        if donated:
            buffers = unshare_donated(buffers, donated)
        return timed[1](buffers)

    def run_limited(buffers, infos=None):
        if len(checks) != len(plan):
            make_checks()
        if donated:
            buffers = unshare_donated(buffers, donated)
        with RunLedger(limits.host) as ledger:
            env = {}
            for v, b in zip(inputs, buffers):
                env[v] = b
                ledger.hold(b)
            for k, b in enumerate(buffers):  # the caller keeps its arguments alive through the run
                if k not in donated:
                    ledger.hold(b)
            for v in unused_inputs:
                ledger.release(env.pop(v))
            for k, ((fn, ins, multi, outs, drop), check) in enumerate(zip(plan, checks)):
                ledger.reserve(check[0], k, *check[1:])
                start = profiler.clock()
                result = fn(*[v if lit else env[v] for lit, v in ins])
                if infos is not None:
                    profiler.record(*infos[k][:2], start, profiler.clock(), infos[k][2])
                for v, value in zip(outs, result) if multi else ((outs, result),):
                    env[v] = value
                    ledger.hold(value)
                result = None
                for v in drop:
                    ledger.release(env.pop(v))
            return [x.value if isinstance(x, Literal) else env[x] for x in outputs]

    def run(buffers):
        if profiler.recording:
            return run_profiled(buffers)
        if limits.host is not None:
            return run_limited(buffers)
        if donated:
            buffers = unshare_donated(buffers, donated)
        return straight(buffers)

    return run


def _straight_line(plan, inputs, unused_inputs, outputs, infos=None):
    """The plan as one generated Python function: a local per value, a call per step, `del` after each
    value's last use. Per step that is a call and a store, where walking the plan through a dict cost
    about a microsecond more (a two-step plan on (64, 64) float32: 8 us of its 28).

    infos: each step's (name, category, args) to time it for the profiler (profiler.py): the clock read
    before and after the step, and one append of the event."""
    names, namespace, lines = {}, {}, []
    if infos is not None:
        namespace.update(clock=profiler.clock, note=profiler.note, ident=profiler.thread_ident)
        lines.append("t = ident()")

    def constant(value):
        key = f"c{len(namespace)}"
        namespace[key] = value
        return key

    def name(x):
        return constant(x.value) if isinstance(x, Literal) else names[x]

    for k, v in enumerate(inputs):
        names[v] = f"i{k}"
        if v not in unused_inputs:
            lines.append(f"i{k} = buffers[{k}]")
    namespace["ndarray"] = np.ndarray
    for k, (fn, ins, multi, outs, drop) in enumerate(plan):
        namespace[f"f{k}"] = fn
        args = ", ".join(constant(v) if lit else names[v] for lit, v in ins)
        if infos is not None:
            lines.append("s = clock()")
        inline = getattr(fn, "inline", None)
        if multi and inline is not None and len(inline[3]) == len(outs):
            lines += _inlined_kernel(k, inline, ins, outs, names, constant, args)
        elif multi:
            lines.append(f"r = f{k}({args})")
            for j, v in enumerate(outs):
                names[v] = f"v{len(names)}"
                lines.append(f"{names[v]} = r[{j}]")
            lines.append("del r")
        else:
            names[outs] = f"v{len(names)}"
            lines.append(f"{names[outs]} = f{k}({args})")
        if infos is not None:
            lines.append(f"note(({constant(infos[k])}, s, clock(), t))")
        lines += [f"del {names[v]}" for v in drop]
    lines.append(f"return [{', '.join(name(x) for x in outputs)}]")
    source = "def straight(buffers):\n" + "\n".join("    " + line for line in lines) + "\n"
    exec(compile(source, "<arraystack plan>", "exec"), namespace)  # noqa: S102 (our own plan, no user text)
    return namespace["straight"]


def _inlined_kernel(k, inline, ins, outs, names, constant, args):
    """A flat kernel step's common case written into the plan: when its operands are NumPy arrays and
    the full ones C-ordered (their strides), fresh outputs and the kernel call; else the step itself.
    inline: (kernel, size, {operand position: C strides}, [(shape, dtype, bytes) per output], alloc)."""
    kernel, size, strides, allocs, alloc = inline
    kern, n, new = constant(kernel), constant(size), constant(alloc)
    operands, guards = [], []
    for pos, (lit, v) in enumerate(ins):
        if lit:
            operands.append(constant(np.asarray(v)))  # what the step's np.asarray makes of it
            continue
        operands.append(names[v])
        guards.append(f"type({names[v]}) is ndarray")
        if pos in strides:
            guards.append(f"{names[v]}.strides == {constant(strides[pos])}")
    results = []
    for v in outs:
        names[v] = f"v{len(names)}"
        results.append(names[v])
    lines = [f"if {' and '.join(guards) or 'True'}:"]
    for result, (shape, dtype, nbytes) in zip(results, allocs):
        lines.append(f"    {result} = {new}({constant(shape)}, {constant(dtype)}, {nbytes})")
    lines.append(f"    {kern}({n}, {', '.join(operands + results)})")
    lines.append("else:")
    lines.append(f"    r = f{k}({args})")
    lines += [f"    {result} = r[{j}]" for j, result in enumerate(results)]
    lines.append("    del r")
    return lines


def _source_of(eqn):
    if eqn.source:
        return eqn.source
    sub = eqn.params.get("graph")
    lines = [e.source for e in getattr(sub, "eqns", ()) if e.source]
    return lines[0] if lines else None


def unshare_donated(buffers, donated):
    """A donated argument whose memory another argument shares is copied: overwriting it would change
    what the plan reads through the other one."""
    roots = [buffer_owner(b) for b in buffers]
    buffers = list(buffers)
    for k in donated:
        if any(r is roots[k] for j, r in enumerate(roots) if j != k):
            buffers[k] = buffers[k].copy(order="K")
            roots[k] = buffers[k]
    return buffers


# Primitives whose reference rule may return a view of (or the very) operand buffer.
_VIEW_PRIMS = frozenset(
    {"reshape", "transpose", "slice", "rev", "broadcast_in_dim", "real", "imag", "bitcast"}
)


def alias_safe(graph: Graph, runner):
    """Wrap `runner` so no output shares memory with a graph input: a jitted function returns new arrays,
    never a view of its arguments (eager NumPy code may then write to them without surprises)."""
    may_alias = set(graph.inputs)
    for eqn in graph.eqns:
        if eqn.prim.name in _VIEW_PRIMS and any(x in may_alias for x in eqn.inputs):
            may_alias.update(eqn.outputs)
    flagged = [k for k, x in enumerate(graph.outputs) if x in may_alias]
    if not flagged:
        return runner

    def run(buffers):
        outs = list(runner(buffers))
        for k in flagged:
            outs[k] = outs[k].copy(order="K")  # a transpose stays one: a copy in memory order
        return outs

    return run
