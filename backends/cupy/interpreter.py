"""How a compiled plan runs on a CUDA device: the interpreter of its steps, and the step launching a
region's kernels.

A cached call is paid for on the host, once per step (a GPU computes an (8,) array in a few microseconds; the
Python around a launch costs as much), so both are laid out when the plan compiles and do the least per call:

- `interpret` numbers the plan's values (inputs, then each step's outputs; literals get slots of their own,
  filled once) and runs the steps as a list of (step, input slots, output slots, slots to drop): no
  dictionaries of values, no per-value tests. The memory ledger and the profiler's events need the
  accounted run, which is taken only while a device limit, the profiler or an enclosing ledger is active.
- `kernel_step` binds a region's launches once per device and argument layout (shapes and strides): the
  kernel functions, grids, blocks, shared memory and an argument list whose sizes and strides are already
  packed; a call allocates the outputs and scratch buffers and places the arrays into copies of the list.
"""

from __future__ import annotations

import importlib

import numpy as np
from arraystack.backends import profiler
from arraystack.backends.memory import (
    RunLedger,
    active_ledger,
    buffer_owner,
    limits,
    out_of_memory,
)
from arraystack.ir.ir import Literal


def _nbytes(aval) -> int:
    return int(np.prod(aval.shape, dtype=np.int64)) * np.dtype(aval.dtype).itemsize


def interpret(graph, steps, xp, how=None):
    """A runner of the steps in graph order, each value dropped after its last use, checking the memory
    limit of the device (arraystack.config.memory_limit for "cuda:N") before each step; running out of
    device memory inside a step is OutOfMemory naming the step. While profiling, each step is timed by
    CUDA events around it (the stand-in's events read the host clock), read once the run synchronized.
    `run.lean(buffers)` runs without the accounting (what CUDA graphs capture)."""
    oom = xp.cuda.memory.OutOfMemoryError
    slot = {v: k for k, v in enumerate(graph.inputs)}
    template: list = [None] * len(graph.inputs)

    def slot_of(x):
        if isinstance(x, Literal):
            template.append(x.value)
            return len(template) - 1
        return slot[x]

    program = []
    last = {}
    for k, eqn in enumerate(graph.eqns):
        ins = tuple(slot_of(x) for x in eqn.inputs)
        for v in eqn.outputs:
            slot[v] = len(template)
            template.append(None)
        program.append([steps[k], ins, tuple(slot[v] for v in eqn.outputs), ()])
        for x in eqn.inputs:
            if not isinstance(x, Literal):
                last[x] = k
    results = tuple(slot_of(x) for x in graph.outputs)
    for x in graph.outputs:
        last.pop(x, None)
    for x, k in last.items():  # each value is dropped after the step that reads it last
        program[k][3] += (slot[x],)
    program = [tuple(p) for p in program]
    output_bytes = [sum(_nbytes(v.aval) for v in eqn.outputs) for eqn in graph.eqns]

    def refused(e, device, k, in_use):
        """The OutOfMemory of step k, whose allocation the device's allocator refused (error e)."""
        eqn = graph.eqns[k]
        what, source, requested = f"`{eqn.prim.name}`", eqn.source, output_bytes[k]
        args = (device, k, eqn.prim.name, what, source, requested, in_use, None, "allocator")
        return out_of_memory(*args)

    def lean(buffers, device=None):
        """Without a memory limit or the profiler: no accounting until a step runs out of memory."""
        values = template.copy()
        values[: len(buffers)] = buffers
        k = 0
        try:
            for step, ins, outs, drops in program:
                made = step(*[values[i] for i in ins])
                for i, value in zip(outs, made):
                    values[i] = value
                for i in drops:
                    values[i] = None
                k += 1
        except oom as e:
            live = {id(o): o for o in map(buffer_owner, values) if o is not None}.values()
            device = device or f"cuda:{xp.cuda.runtime.getDevice()}"
            raise refused(e, device, k, sum(getattr(o, "nbytes", 0) for o in live)) from e
        return [values[i] for i in results]

    if (
        len(program) == 1
        and program[0][1] == tuple(range(len(graph.inputs)))
        and results == program[0][2]
    ):
        step0 = program[0][0]  # one step taking the arguments in order, returning the outputs

        def lean(buffers, device=None):
            try:
                return step0(*buffers)
            except oom as e:
                device = device or f"cuda:{xp.cuda.runtime.getDevice()}"
                in_use = {id(o): o for o in map(buffer_owner, buffers)}.values()
                raise refused(e, device, 0, sum(getattr(o, "nbytes", 0) for o in in_use)) from e

    def run(buffers):
        if not limits.devices and not profiler.recording and active_ledger() is None:
            return lean(buffers)
        device = f"cuda:{xp.cuda.runtime.getDevice()}"
        limit = limits.of(device)
        timed = [] if profiler.recording else None
        values = template.copy()
        values[: len(buffers)] = buffers
        with RunLedger(limit if limit is not None else 1 << 62, device) as ledger:
            for b in buffers:
                ledger.hold(buffer_owner(b))
            for k, (step, ins, outs, drops) in enumerate(program):
                eqn = graph.eqns[k]
                ledger.reserve(output_bytes[k], k, eqn.prim.name, eqn.source)
                try:
                    if timed is None:
                        made = step(*[values[i] for i in ins])
                    else:
                        from arraystack.backends.cupy.runtime import EventClock

                        with EventClock(xp, xp.cuda.Device().id) as clock:
                            made = step(*[values[i] for i in ins])
                        timed.append((k, clock))
                except oom as e:
                    raise refused(e, device, k, ledger.in_use()) from e
                for i, value in zip(outs, made):
                    values[i] = value
                    ledger.hold(value)
                for i in drops:
                    ledger.release(values[i])
                    values[i] = None
            if timed:
                _record_steps(graph, how, timed, device)
            return [values[i] for i in results]

    run.lean = lean
    return run


def _record_steps(graph, how, timed, device):
    """The profiler's events of one run's steps: each lasts what its CUDA events measured, placed at the
    host time its launch began."""
    for k, clock in timed:
        seconds = clock.seconds()  # waits for the step's work
        name, category, args = profiler.step_info(graph.eqns[k], how[k] if how else "cupy rule")
        args = dict(args, device=device)
        profiler.record(name, category, clock.host_start, clock.host_start + seconds, args)


def kernel_step(kernels, eqn, xp, codegen_module: str, load_module):
    """A step launching a KernelSource's kernels: its outputs and scratch buffers are new arrays of the
    current device; the module is loaded on the first launch (load_module), each kernel's function looked
    up once, and the launches bound once per device and argument layout (`_bind`)."""
    outputs = [(tuple(v.aval.shape), v.aval.dtype) for v in eqn.outputs]
    loaded: dict = {}  # (device id, narrow variant) -> {kernel name: function}
    bound: dict = {}  # (device id, the inputs' shapes and strides) -> _Bound
    codegen = importlib.import_module(codegen_module)
    get_device, empty = xp.cuda.runtime.getDevice, xp.empty

    def functions_of(device, narrow):
        functions = loaded.get((device, narrow))
        if functions is None:
            source = codegen.narrow(kernels.source) if narrow else kernels.source
            module = load_module(xp, source, kernels.kernels)
            functions = {n: module.get_function(n) for n in kernels.kernels}
            loaded[device, narrow] = functions
        return functions

    def bind(key, device, inputs):
        scratch = kernels.scratch(inputs)
        outs = [empty(shape, dtype) for shape, dtype in outputs]  # for their strides: C order
        plan = _Bound(kernels, inputs, outs, functions_of, device, scratch)
        if len(bound) > 64:
            bound.clear()
        bound[key] = plan
        return plan

    def step(*inputs):
        device = get_device()
        key = (device, *[(a.shape, a.strides) for a in inputs])
        plan = bound.get(key) or bind(key, device, inputs)
        pool = [*inputs, *[empty(shape, dtype) for shape, dtype in outputs]]
        for shape, dtype in plan.scratch:
            pool.append(empty(shape, dtype))
        for k in plan.aligned:
            check_aligned(pool[k])
        for function, grid, block, shared, args, fills in plan.launches:
            args = args.copy()
            for position, k in fills:
                args[position] = pool[k]
            function(grid, block, tuple(args), shared_mem=shared)
        return pool[len(inputs) : len(inputs) + len(outputs)]

    check_aligned = codegen.check_aligned
    return step


class _Bound:
    """A region's launches for one device and argument layout: per launch (function, grid, block, shared
    memory bytes, argument list, fills), where each fill (position, k) puts array k of the call's pool
    (its inputs, then outputs, then scratch buffers) at that position of the list; `aligned`: the pool
    positions of complex128 arrays, whose alignment each call checks."""

    def __init__(self, kernels, inputs, outputs, functions_of, device, scratch):
        self.scratch = list(scratch)
        self.aligned = tuple(kernels.complex128(inputs, outputs))
        self.launches = []
        for kernel, grid, block, shared, layout, narrow in kernels.layout(inputs, outputs):
            function = functions_of(device, narrow)[kernel]
            args = [None if k is None else a for a, k in layout]
            fills = tuple((p, a) for p, (a, k) in enumerate(layout) if k is None)
            self.launches.append((function, grid, block, shared, args, fills))
