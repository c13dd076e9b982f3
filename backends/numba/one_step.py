"""Plans of one step, called without the interpreter: the step itself (a one-equation graph over its
inputs), or for a staged or column kernel a leaner call of the kernel (small reductions). While a memory
limit is set, the checked plan runs instead (the interpreter checks each step's allocations)."""

from __future__ import annotations

import numpy as np
from arraystack.backends import profiler
from arraystack.backends.memory import limits
from arraystack.backends.numba.host_pool import MIN_POOLED_BYTES

_host_array = np.ndarray
np_empty = np.empty


def staged_runner(step, kernel, sizes, kinds, full, fortran, allocs, finals):
    """A one-step plan's staged or column kernel, called without the step's general path when its operands
    are NumPy arrays of the region's shape, read as they are (no kernel_arguments), in C order if the region
    has a Fortran-order kernel, with small outputs (plain np.empty; no reshape): a small reduction's
    call, (32, 256) float32 summed over axis 0, spent 5.4 us in the step around a 4 us kernel call
    (measured piece by piece). Anything else runs the step."""
    first = full[0] if full else None
    if not (
        first is not None
        and all(k == "full" for k in kinds)
        and all(nbytes < MIN_POOLED_BYTES for _, _, nbytes in allocs)
        and all(tuple(alloc) == final for (alloc, _, _), final in zip(allocs, finals))
    ):
        return None
    outputs = [(alloc, dtype) for alloc, dtype, _ in allocs]
    layout = fortran is not None  # Fortran-order operands take the step's other kernel

    def run(buffers):
        if limits.host is not None or profiler.recording:
            return step.checked(buffers)
        for x in buffers:
            if type(x) is not _host_array:
                return step(*buffers)
        if layout and not buffers[first].flags.c_contiguous:
            return step(*buffers)
        outs = [np_empty(alloc, dtype) for alloc, dtype in outputs]
        kernel(*sizes, *buffers, *outs)
        return outs

    return run


def direct_runner(graph, steps, checked):
    """For a graph that is one equation over graph inputs: call its step without the interpreter (or
    through `checked`, the interpreter, while a memory limit is set)."""
    if len(graph.eqns) != 1:
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
    if not eqn.prim.multiple_results:  # a reference rule's one result (a product, a sort, ...)
        if take == tuple(range(len(graph.inputs))) and give == (0,):

            def run_one(buffers):
                if limits.host is not None or profiler.recording:
                    return checked(buffers)
                return [step(*buffers)]

            return run_one
        plain = step
        step = lambda *inputs: [plain(*inputs)]
    elif take == tuple(range(len(graph.inputs))) and give == tuple(range(len(eqn.outputs))):
        if hasattr(step, "runner"):
            step.checked = checked
            return step.runner

        def run_all(buffers):
            if limits.host is not None or profiler.recording:
                return checked(buffers)
            return step(*buffers)

        return run_all

    def run(buffers):
        if limits.host is not None or profiler.recording:
            return checked(buffers)
        outs = step(*[buffers[k] for k in take])
        return [outs[k] for k in give]

    return run
