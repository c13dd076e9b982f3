"""The numba backend: fusion regions become generated loop nests; everything else runs its reference rule.

numba is imported lazily (on the first compile), so `import arraystack` works without it.
"""

from __future__ import annotations

import math

import numpy as np

from arraystack.backends.buffers import MIN_POOLED_BYTES, host_pool
from arraystack.backends.control import control_step
from arraystack.backends.executable import Executable, alias_safe, interpret
from arraystack.backends.reference import reference_step
from arraystack.ir.control import fusion_p

_host_array = np.ndarray
np_empty = np.empty
PARALLEL_THRESHOLD = 1 << 18  # elements; smaller loops run on one thread (no fork/join cost)
# In a plan that also calls BLAS, OpenBLAS's worker threads keep spinning for a while after each product, so a
# parallel kernel right after one fights them for the cores (measured: an MLP step's 0.1-0.4 M-element kernels
# ran 3-5x slower with 2 numba threads than with 1). Such plans parallelize only loops that are much larger.
PARALLEL_THRESHOLD_WITH_BLAS = 1 << 22


def _region_problem(graph):
    from arraystack.backends.numba.lowering import unsupported_reason
    from arraystack.ir.structural import broadcast_in_dim_p, reshape_p

    for eqn in graph.eqns:
        if eqn.prim in (broadcast_in_dim_p, reshape_p) or eqn.prim in _reduction_prims():
            dt = eqn.outputs[0].aval.dtype
            if dt.kind == "c" or dt == np.float16:
                return f"{eqn.prim.name} on {dt.name} runs on the reference path"
            continue
        reason = unsupported_reason(eqn)
        if reason:
            return reason
    return None


def _reduction_prims():
    from arraystack.backends.numba.codegen import REDUCTIONS

    return REDUCTIONS


def _kernel_step(eqn, cache_dir, donors=(), direct=False, threshold=PARALLEL_THRESHOLD):
    """donors: (input position, output position) pairs whose input buffer may receive that output;
    loops of `threshold` elements or more run in parallel."""
    from arraystack.backends.numba.codegen import generate
    from arraystack.backends.numba.kernels import load_kernel

    sub = eqn.params["graph"]
    size = max([int(np.prod(v.aval.shape, dtype=np.int64)) for v in sub.inputs + sub.outputs] + [1])
    spec = generate(sub, parallel=size >= threshold)
    kernel, fresh = load_kernel(spec.source, cache_dir=cache_dir)
    sizes = (int(np.prod(spec.shape, dtype=np.int64)),) if spec.flat else tuple(spec.shape)
    kinds = spec.input_kinds
    outputs = spec.outputs
    flat = spec.flat
    outer_shape = getattr(spec, "outer_shape", None) or (1,)
    empty = host_pool.empty
    allocs = [(alloc, dtype, math.prod(alloc) * dtype.itemsize) for alloc, dtype, _, _ in outputs]

    if flat:
        n = sizes[0]
        donated = {out: inp for inp, out in donors}  # a flat loop reads element i before writing it
        if direct and len(outputs) == 1 and allocs[0][2] < MIN_POOLED_BYTES and not donated:
            shape0, dtype0 = outputs[0][2], outputs[0][1]

            def step(
                *inputs,
            ):  # lean: graph inputs (always arrays), one small output, one flat loop
                out = np_empty(shape0, dtype0)
                kernel(n, *inputs, out)
                return [out]

            def run(
                buffers,
            ):  # the same as a whole-graph runner (no interpreter, no unpacking frame)
                out = np_empty(shape0, dtype0)
                kernel(n, *buffers, out)
                return [out]

            step.runner = run
            return step, spec.source, fresh

        def step(*inputs):
            outs = [
                empty(final, dtype, nbytes)
                if k not in donated
                else _donated(inputs[donated[k]], final, dtype, nbytes)
                for k, ((_, dtype, final, _), (_, _, nbytes)) in enumerate(zip(outputs, allocs))
            ]
            kernel(n, *[x if type(x) is _host_array else np.asarray(x) for x in inputs], *outs)
            return outs

        return step, spec.source, fresh

    def step(*inputs):
        args = []
        for x, kind in zip(inputs, kinds):
            if type(x) is not _host_array:
                x = np.asarray(x)
            if kind == "scalar" or x.ndim == 0:
                x = x.reshape(-1)
            elif kind == "outer" and x.shape != outer_shape:
                x = x.reshape(outer_shape)
            args.append(x)
        outs = [empty(alloc, dtype, nbytes) for alloc, dtype, nbytes in allocs]
        kernel(*sizes, *args, *outs)
        return [
            o.reshape(final) if o.shape != final else o
            for o, (_, _, final, _) in zip(outs, outputs)
        ]

    return step, spec.source, fresh


def _donated(x, shape, dtype, nbytes):
    """The donated input as the output buffer, when it fits; a fresh buffer otherwise."""
    if (
        type(x) is _host_array
        and x.shape == shape
        and x.dtype == dtype
        and x.flags.c_contiguous
        and x.flags.writeable
    ):
        return x
    return host_pool.empty(shape, dtype, nbytes)


def _donors(graph, eqn, donate):
    """(fusion input position, output position) pairs for donated graph inputs of a one-region graph."""
    if not donate or len(graph.eqns) != 1:
        return ()
    pairs, used = [], set()
    for i, x in enumerate(eqn.inputs):
        if x not in graph.inputs or graph.inputs.index(x) not in donate:
            continue
        for k, v in enumerate(eqn.outputs):
            if k not in used and v.aval.shape == x.aval.shape and v.aval.dtype == x.aval.dtype:
                pairs.append((i, k))
                used.add(k)
                break
    return tuple(pairs)


def _calls_blas(graph) -> bool:
    return any(
        eqn.prim.name == "dot_general"
        or any(_calls_blas(g) for g in _subgraphs(eqn.params))
        for eqn in graph.eqns
    )


def _subgraphs(params):
    for value in params.values():
        if isinstance(value, (tuple, list)):
            yield from (v for v in value if hasattr(v, "eqns"))
        elif hasattr(value, "eqns"):
            yield value


def compile_numba(graph, cache_dir=None, donate=frozenset(), blas=None) -> Executable:
    steps, plan, sources = [], [], []
    new_kernels = 0
    blas = _calls_blas(graph) if blas is None else blas
    threshold = PARALLEL_THRESHOLD_WITH_BLAS if blas else PARALLEL_THRESHOLD
    for eqn in graph.eqns:
        if eqn.prim is fusion_p:
            problem = _region_problem(eqn.params["graph"])
            if problem is None:
                direct = len(graph.eqns) == 1
                step, source, fresh = _kernel_step(
                    eqn, cache_dir, _donors(graph, eqn, donate), direct, threshold
                )
                steps.append(step)
                plan.append(("fusion", f"numba kernel ({len(eqn.params['graph'].eqns)} eqns)"))
                sources.append(source)
                new_kernels += int(fresh)
                continue
            plan.append(("fusion", f"reference: {problem}"))
        else:
            step = control_step(eqn, lambda g: compile_numba(g, cache_dir, blas=blas))
            if step is not None:
                steps.append(step)
                plan.append((eqn.prim.name, "host loop/branch over compiled bodies"))
                continue
            how = "numpy BLAS" if eqn.prim.name == "dot_general" else "reference"
            plan.append((eqn.prim.name, how))
        steps.append(reference_step(eqn))
    runner = alias_safe(graph, _direct_runner(graph, steps) or interpret(graph, steps))
    executable = Executable(graph, plan, runner, "\n".join(sources))
    executable.new_kernels = new_kernels
    return executable


def _direct_runner(graph, steps):
    """For a graph that is one equation over graph inputs: call its step without the interpreter."""
    if len(graph.eqns) != 1 or not graph.eqns[0].prim.multiple_results:
        return None
    eqn = graph.eqns[0]
    position = {v: k for k, v in enumerate(graph.inputs)}
    if any(x not in position for x in eqn.inputs):
        return None
    out_position = {v: k for k, v in enumerate(eqn.outputs)}
    if any(x not in out_position for x in graph.outputs):
        return None
    take = tuple(position[x] for x in eqn.inputs)
    give = tuple(out_position[x] for x in graph.outputs)
    step = steps[0]
    if take == tuple(range(len(graph.inputs))) and give == tuple(range(len(eqn.outputs))):
        if hasattr(step, "runner"):
            return step.runner
        return lambda buffers: step(*buffers)  # noqa: E731

    def run(buffers):
        outs = step(*[buffers[k] for k in take])
        return [outs[k] for k in give]

    return run
