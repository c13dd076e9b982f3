"""The numba backend: fusion regions become generated loop nests; everything else runs its reference rule.

numba is imported lazily (on the first compile), so `import arraystack` works without it.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from arraystack.backends import profiler
from arraystack.backends.memory import limits
from arraystack.backends.numba.attention import attention_step
from arraystack.backends.numba.host_pool import MIN_POOLED_BYTES, host_pool
from arraystack.backends.control import control_step
from arraystack.backends.executable import (
    Executable,
    alias_safe,
    consumers,
    interpret,
    last_uses,
)
from arraystack.backends.numba.layouts import (
    FortranKernel,
    LazyKernel,
    all_fortran,
    collapsed_region,
    kernel_arguments,
    reversed_region,
    storage_bits,
)
from arraystack.backends.numba.one_step import direct_runner, staged_runner
from arraystack.backends.numba.scatter import scatter_add_step
from arraystack.backends.reference import reference_step
from arraystack.backends.updates import FRESH_PRIMS, WRITES, overwritable, write_step
from arraystack.backends.updates import describe as describe_update
from arraystack.ir.control import fusion_p
from arraystack.ir.ir import Literal
from arraystack.ir.structural import broadcast_in_dim_p, reshape_p

# code generation and lowering tables are plain Python (numba is imported only to compile a kernel): tier 0
# asks them which regions a kernel would run, so they load with the backend, not during a first call
from arraystack.backends.numba.codegen import REDUCTIONS  # noqa: E402
from arraystack.backends.numba.lowering import unsupported_reason  # noqa: E402
from arraystack.backends.numba.codegen_widen import widen_region  # noqa: E402

_host_array = np.ndarray
np_empty = np.empty
PARALLEL_THRESHOLD = 1 << 18  # elements; smaller loops run on one thread (no fork/join cost)
# In a plan that also calls BLAS, OpenBLAS's worker threads keep spinning for a while after each product, so a
# parallel kernel right after one fights them for the cores (measured: an MLP step's 0.1-0.4 M-element kernels
# ran 3-5x slower with 2 numba threads than with 1). Such plans parallelize only loops that are much larger.
PARALLEL_THRESHOLD_WITH_BLAS = 1 << 22


def _region_problem(graph):
    """Why the region `graph` cannot run as a kernel, or None. Asked of the region as its kernel computes
    it (float16/bfloat16 in float32, complex sums as float sums: codegen_widen.py; every reduction
    lowers, complex products and extrema by codegen_complex.py)."""
    for eqn in widen_region(graph).eqns:
        if eqn.prim in (broadcast_in_dim_p, reshape_p) or eqn.prim in _reduction_prims():
            continue
        reason = unsupported_reason(eqn)
        if reason:
            return reason
    return None


def _reduction_prims():
    return REDUCTIONS


def _sizes(spec, parallel):
    """The kernel's size arguments: the iteration shape (flat: its size), then a column kernel's bw."""
    sizes = (int(np.prod(spec.shape, dtype=np.int64)),) if spec.flat else tuple(spec.shape)
    if spec.column_blocks:
        import numba

        from arraystack.backends.numba.codegen_columns import block_width

        threads = numba.get_num_threads() if parallel else 1
        kept = spec.outer_shape  # blocks of the last axis, one set per index of the other kept axes
        sizes += (block_width(sizes[-1], threads, math.prod(kept[:-1])),)
    return sizes


def _kernel_step(eqn, cache_dir, donors=(), direct=False, threshold=PARALLEL_THRESHOLD):
    """donors: (input position, output position, argument?) triples: that input's buffer may receive that
    output (an intermediate's only when the pool has no free buffer of its size: see _donated);
    loops of `threshold` elements or more run in parallel."""
    from arraystack.backends.numba.codegen import generate
    from arraystack.backends.numba.kernels import load_kernel

    sub = eqn.params["graph"]
    size = max([int(np.prod(v.aval.shape, dtype=np.int64)) for v in sub.inputs + sub.outputs] + [1])
    collapsed = collapsed_region(sub)  # trailing kept axes merged: wider column blocks
    spec = generate(collapsed or sub, parallel=size >= threshold)
    kernel, fresh = load_kernel(spec.source, cache_dir=cache_dir)
    kernel = storage_bits(kernel, sub)  # float16/bfloat16 arrays as uint16 views
    if size < threshold:
        # a loop on one thread whose output is its input does not vectorize (LLVM's overlap check
        # fails and its scalar loop runs): tanh(x) + 1 on 4096 float32 took 37 us in place, 5.5 us
        # into another buffer. Dying intermediates then give way to a fresh buffer; donated
        # arguments are still reused, as promised
        donors = tuple(d for d in donors if d[2])
    sizes = _sizes(spec, size >= threshold)
    kinds = spec.input_kinds
    outputs = spec.outputs
    flat = spec.flat
    outer_shape = getattr(spec, "outer_shape", None) or (1,)
    empty = host_pool.empty
    allocs = [(alloc, dtype, math.prod(alloc) * dtype.itemsize) for alloc, dtype, _, _ in outputs]

    if flat:
        n = sizes[0]
        donated = {out: (inp, arg) for inp, out, arg in donors}  # element i is read before written
        if direct and len(outputs) == 1 and allocs[0][2] < MIN_POOLED_BYTES and not donated:
            shape0, dtype0 = outputs[0][2], outputs[0][1]

            def step(
                *inputs,
            ):  # lean: graph inputs (always arrays), one small output, one flat loop
                out = np_empty(shape0, dtype0)
                kernel(n, *inputs, out)
                return [out]

            def run(buffers):  # a whole-graph runner (no interpreter, no unpacking frame)
                if limits.host is not None or profiler.recording:
                    return step.checked(buffers)
                out = np_empty(shape0, dtype0)
                kernel(n, *buffers, out)
                return [out]

            step.runner = run
            step.donated_outputs = ()
            return step, spec.source, fresh

        full = [k for k, kind in enumerate(kinds) if kind == "full"]
        rank = len(spec.shape)
        parallel = size >= threshold
        strided = LazyKernel(  # loops per axis for strided operands, built on first need
            lambda: storage_bits(
                load_kernel(
                    generate(sub, parallel=parallel, flat_ok=False).source, cache_dir=cache_dir
                )[0],
                sub,
            )
        )

        c_strides = [(k, _c_strides(sub.inputs[k].aval)) for k in full]
        new_outs = [(final, dt, size) for (_, dt, final, _), (_, _, size) in zip(outputs, allocs)]

        def step(*inputs):
            arrays = [x if type(x) is _host_array else np.asarray(x) for x in inputs]
            if c_strides and not donated and not _c_ordered(arrays, c_strides):
                if rank > 1 and all_fortran(arrays, full):
                    # operands all in Fortran order (x.T * 2): the loop runs in memory order, over
                    # the transposes, and the results take the operands' order, as NumPy's do (the
                    # flat loop raveled x.T into a copy: (1024, 4096) float32 48 ms; NumPy 7 ms)
                    outs = [
                        empty(final[::-1], dtype, nbytes).T
                        for (_, dtype, final, _), (_, _, nbytes) in zip(outputs, allocs)
                    ]
                    ins = [x.T if k in full else x for k, x in enumerate(arrays)]
                    kernel(n, *ins, *[o.T for o in outs])
                    return outs
                # strided operands (x[:, 1:] - x[:, :-1]): raveling copies them; loops per axis
                # read them in place ((4096, 1024) float32: 10.5 -> 2.4 ms; NumPy 5.1 ms) once
                # their kernel is built; the flat loop meanwhile
                nested = strided.get()
                if nested is not None:
                    outs = [
                        empty(final, dtype, nbytes)
                        for (_, dtype, final, _), (_, _, nbytes) in zip(outputs, allocs)
                    ]
                    nested(*spec.shape, *kernel_arguments(arrays, kinds, None), *outs)
                    return outs
            if donated:
                outs = [
                    empty(final, dtype, nbytes)
                    if k not in donated
                    else _donated(inputs[donated[k][0]], final, dtype, nbytes, donated[k][1])
                    for k, ((_, dtype, final, _), (_, _, nbytes)) in enumerate(zip(outputs, allocs))
                ]
            else:
                outs = [empty(*args) for args in new_outs]
            kernel(n, *arrays, *outs)
            return outs

        step.donated_outputs = tuple(donated)
        # the plan calls the kernel itself when its guards hold (executable._inlined_kernel)
        step.inline = None if donated else (kernel, n, dict(c_strides), new_outs, empty)
        return step, spec.source, fresh

    full = [k for k, kind in enumerate(kinds) if kind == "full"]
    reversed_graph = reversed_region(sub) if len(spec.shape) > 1 and full else None
    fortran = None
    if reversed_graph is not None:
        fortran = FortranKernel(reversed_graph, size >= threshold, cache_dir, _sizes)

    shapes = None if collapsed is None else [tuple(v.aval.shape) for v in collapsed.inputs]
    finals = [tuple(v.aval.shape) for v in sub.outputs]

    def step(*inputs):
        arrays = [x if type(x) is _host_array else np.asarray(x) for x in inputs]
        if (
            fortran is not None
            and not arrays[full[0]].flags.c_contiguous
            and all_fortran(arrays, full)
        ):
            outs = fortran(arrays)  # operands in Fortran order: the loops over their transposes
            if outs is not None:  # (None while its kernel compiles: the loops below meanwhile)
                return outs
        args = kernel_arguments(arrays, kinds, outer_shape, shapes)
        outs = [empty(alloc, dtype, nbytes) for alloc, dtype, nbytes in allocs]
        kernel(*sizes, *args, *outs)
        return [o.reshape(final) if o.shape != final else o for o, final in zip(outs, finals)]

    step.donated_outputs = ()  # nested and staged loops allocate every output
    runner = direct and staged_runner(step, kernel, sizes, kinds, full, fortran, allocs, finals)
    if runner and shapes is None:  # (a merged region's kernel reads its operands reshaped)
        step.runner = runner
    return step, spec.source, fresh


def _c_strides(aval):
    shape, size = aval.shape, np.dtype(aval.dtype).itemsize
    return tuple(size * math.prod(shape[d + 1 :]) for d in range(len(shape)))


def _c_ordered(arrays, c_strides):  # C strides spare the slower flags test
    return all(arrays[k].strides == cs or arrays[k].flags.c_contiguous for k, cs in c_strides)


def _donated(x, shape, dtype, nbytes, argument):
    """The donated input as the output buffer, when it fits; a fresh buffer otherwise. A dying
    intermediate gives way to a free pooled buffer of its size: that memory is held anyway, while the
    intermediate, when not reused, returns to the allocator (donated arguments are reused as promised)."""
    if not argument and nbytes >= MIN_POOLED_BYTES:
        free = host_pool.free_buffer(shape, dtype, nbytes)
        if free is not None:
            return free
    if (
        type(x) is _host_array
        and x.shape == shape
        and x.dtype == dtype
        and x.flags.c_contiguous
        and x.flags.writeable
    ):
        return x
    return host_pool.empty(shape, dtype, nbytes)


def _owning_steps(graph, kernels):
    """Positions of the equations whose outputs are fresh buffers and that keep no alias of their inputs:
    compiled kernels and the reference rules of FRESH_PRIMS (backends/updates.py)."""
    fresh = {k for k, eqn in enumerate(graph.eqns) if eqn.prim.name in FRESH_PRIMS}
    return set(kernels) | fresh


def _donors(eqn, k, owned, owning, last, readers):
    """(fusion input position, output position, argument?) for equation k, a compiled kernel: an input whose
    buffer may receive an output of the same shape and dtype, because the region is its last use and the
    plan owns the buffer (owned: value -> whether it is a donated argument, else an owning step's output).
    Every reader of the input must be an owning step: another may have returned a view of it, which would
    see the overwrite."""
    sub = eqn.params["graph"]
    pairs, used = [], set()
    for i, x in enumerate(eqn.inputs):
        if isinstance(x, Literal) or last.get(x) != k or eqn.inputs.index(x) != i:
            continue
        if x not in owned or any(j not in owning for j in readers[x]):
            continue
        places = [j for j, y in enumerate(eqn.inputs) if y is x]
        if any(sub.inputs[j] in sub.outputs for j in places):
            continue  # passed through to an output: it would be read after the write
        for o, v in enumerate(eqn.outputs):
            if o not in used and v.aval.shape == x.aval.shape and v.aval.dtype == x.aval.dtype:
                pairs.append((i, o, owned[x]))
                used.add(o)
                break
    return tuple(pairs)


def _reference_region_step(eqn):
    """A fusion region without a numba lowering, run through its equations' reference rules by the
    interpreter, which drops each intermediate after its last use (the region's own reference rule keeps
    every intermediate to the end: a 20-op chain would hold 20 temporaries)."""
    sub = eqn.params["graph"]
    steps = [reference_step(e) for e in sub.eqns]
    checked = interpret(sub, steps)
    runner = direct_runner(sub, steps, checked) or checked  # one equation: no interpreter
    return lambda *inputs: runner(list(inputs))


def _calls_blas(graph) -> bool:
    return any(
        eqn.prim.name == "dot_general" or any(_calls_blas(g) for g in _subgraphs(eqn.params))
        for eqn in graph.eqns
    )


def _subgraphs(params):
    for value in params.values():
        if isinstance(value, (tuple, list)):
            yield from (v for v in value if hasattr(v, "eqns"))
        elif hasattr(value, "eqns"):
            yield value


def _loop_step(eqn, cache_dir, compile_body):
    """A while/scan equation compiled whole (loops.py): (step, source, fresh, how), or None for other
    equations; a loop that cannot be compiled whole is a host loop over compiled bodies, and says why."""
    if eqn.prim.name not in ("while", "scan"):
        return None
    from arraystack.backends.numba.loop_source import Unsupported
    from arraystack.backends.numba.loops import compile_loop

    try:
        return compile_loop(eqn, cache_dir, lambda: control_step(eqn, compile_body))
    except Unsupported as e:
        step = control_step(eqn, compile_body)
        return step, "", False, f"host loop over compiled bodies: {e}"


def compile_numba(graph, cache_dir=None, donate=frozenset(), blas=None) -> Executable:
    steps, plan, sources, reused = [], [], [], []
    new_kernels = 0
    blas = _calls_blas(graph) if blas is None else blas
    threshold = PARALLEL_THRESHOLD_WITH_BLAS if blas else PARALLEL_THRESHOLD
    problems = {
        k: _region_problem(eqn.params["graph"])
        for k, eqn in enumerate(graph.eqns)
        if eqn.prim is fusion_p
    }
    kernels = {k for k, problem in problems.items() if problem is None}
    last, readers = last_uses(graph), consumers(graph)
    owning = _owning_steps(graph, kernels)
    owned = {v: False for j in owning for v in graph.eqns[j].outputs}
    owned.update({graph.inputs[i]: True for i in donate})
    for k, eqn in enumerate(graph.eqns):
        reused.append(())
        if k in kernels:
            donors = _donors(eqn, k, owned, owning, last, readers)
            direct = len(graph.eqns) == 1
            step, source, fresh = _kernel_step(eqn, cache_dir, donors, direct, threshold)
            steps.append(step)
            reused[-1] = step.donated_outputs
            how = f"numba kernel ({len(eqn.params['graph'].eqns)} eqns)"
            if step.donated_outputs:
                how += f", may write into dying input {', '.join(str(i) for i, _, _ in donors)}"
            plan.append(("fusion", how))
            sources.append(source)
            new_kernels += int(fresh)
            continue
        if k in problems:
            plan.append(("fusion", f"reference: {problems[k]}"))
            steps.append(_reference_region_step(eqn))
            continue
        attention = attention_step(eqn, cache_dir)
        if attention is not None:  # hand-written tiled kernels (attention.py)
            step, kernel_sources = attention
            steps.append(step)
            plan.append((eqn.prim.name, "numba attention kernels (score tiles, online softmax)"))
            sources.extend(kernel_sources)
            continue
        scatter = scatter_add_step(eqn, cache_dir)
        if scatter is not None:  # rows added in the order of their indices, as numpy.add.at
            steps.append(scatter[0])
            plan.append((eqn.prim.name, "numba scatter-add kernel"))
            sources.append(scatter[1])
            continue
        if eqn.prim.name in WRITES:  # the scatter-add kernel's scatters are above
            in_place = overwritable(graph, k, owned, owning, last, readers)
            steps.append(write_step(eqn, in_place))
            reused[-1] = (0,) if in_place else ()
            plan.append((eqn.prim.name, describe_update(in_place)))
            continue
        compile_body = functools.partial(compile_numba, cache_dir=cache_dir, blas=blas)
        loop = _loop_step(eqn, cache_dir, compile_body)
        if loop is not None:
            step, source, fresh, how = loop
            steps.append(step)
            plan.append((eqn.prim.name, how))
            if source:
                sources.append(source)
            new_kernels += int(fresh)
            continue
        step = control_step(eqn, compile_body)
        if step is not None:
            steps.append(step)
            plan.append((eqn.prim.name, "host loop/branch over compiled bodies"))
            continue
        how = "numpy BLAS" if eqn.prim.name == "dot_general" else "reference"
        plan.append((eqn.prim.name, how))
        steps.append(reference_step(eqn))
    checked = interpret(graph, steps, [how for _, how in plan], reused, donate)
    runner = alias_safe(graph, direct_runner(graph, steps, checked) or checked)
    executable = Executable(graph, plan, runner, "\n".join(sources))
    executable.new_kernels = new_kernels
    executable.kernel_sources = tuple(sources)  # tiering asks the disk cache about these
    return executable
