"""Kernels over transposes: a region whose full operands all come in Fortran order (x.T * 2 + b, a row
reduction of x.T) runs as the same region with every value's axes reversed, over the operands'
transposes, which are in C order; its results come back transposed, in Fortran order, as NumPy's ufuncs
give them. The loops then walk memory in order instead of across it: x.T - x.T.mean(axis=1,
keepdims=True) on a (4096, 1024) float32 x took 28 ms (NumPy 6 ms), x.T * 2 + x[:1].T 23 ms (NumPy 6.8).

The reversed region computes the same values in the same order: elementwise operations do not see
axes, a broadcast indexes the same elements, and a reduction over one axis adds its elements in the same
order whichever axes surround it (summation_order.py). Regions it would change are left as they are:
reductions over several axes (reversing them swaps the order of their float sums) and reshapes that do
more than add or drop unit axes.
"""

from __future__ import annotations

import atexit
import math
import threading

import numpy as np

from arraystack.ir import structural as s
from arraystack.ir.ir import Eqn, Graph, Literal, Var
from arraystack.ir.regions import ELEMENTWISE, REDUCTIONS, region_layout


def reversed_region(graph):
    """The region with every value's axes reversed, or None (see the module's docstring)."""

    def params_of(e):
        params = e.params
        if e.prim is s.broadcast_in_dim_p:
            q, r = e.inputs[0].aval.ndim, e.outputs[0].aval.ndim
            dims = tuple(params["broadcast_dimensions"])
            return {
                **params,
                "shape": tuple(reversed(params["shape"])),
                "broadcast_dimensions": tuple(r - 1 - dims[q - 1 - i] for i in range(q)),
            }
        if e.prim in REDUCTIONS:
            axes, r = tuple(params["axes"]), e.inputs[0].aval.ndim
            if len(axes) > 1:
                raise _Refused
            return {**params, "axes": tuple(r - 1 - a for a in axes)}
        if e.prim is s.reshape_p:
            before = [d for d in e.inputs[0].aval.shape if d != 1]
            if before != [d for d in params["new_sizes"] if d != 1]:
                raise _Refused
            return {**params, "new_sizes": tuple(reversed(params["new_sizes"]))}
        if e.prim not in ELEMENTWISE:
            raise _Refused
        return params

    return _remapped(graph, lambda shape: tuple(reversed(shape)), params_of)


def _remapped(graph, shape_of, params_of):
    """The graph with new Vars of the shapes shape_of gives and the params params_of gives, or None
    where either raises _Refused."""
    new = {}

    def var(v):
        if isinstance(v, Literal):
            return v
        if v not in new:
            new[v] = Var(v.aval.update(shape=shape_of(tuple(v.aval.shape))))
        return new[v]

    try:
        eqns = []
        for e in graph.eqns:
            params = params_of(e)
            ins, outs = tuple(var(x) for x in e.inputs), tuple(var(v) for v in e.outputs)
            eqns.append(Eqn(e.prim, ins, outs, params, e.source))
        ins, outs = tuple(var(v) for v in graph.inputs), tuple(var(v) for v in graph.outputs)
    except _Refused:
        return None
    return Graph(ins, tuple(eqns), outs)


class _Refused(Exception):
    """The rewrite would change what the region computes (or cannot express it)."""


def all_fortran(arrays, full) -> bool:
    """Whether the full operands are all in Fortran order and not all in C order (a vector is both)."""
    flags = [arrays[k].flags for k in full]
    return all(f.f_contiguous for f in flags) and not all(f.c_contiguous for f in flags)


class LazyKernel:
    """A kernel made on first need, in a background thread: until it is ready, get() gives None and the
    caller takes its other path (correct, slower), so a call with strided or transposed operands never
    waits for numba to compile (the CNN training step's first compiled calls would have waited for two).
    A kernel that fails to build stays None."""

    def __init__(self, make):
        self.make, self.value, self.started = make, None, False

    def get(self):
        if self.value is None and not self.started:
            with _lock:
                if not self.started:
                    self.started = True
                    thread = threading.Thread(target=self._build, daemon=True, name="layout-kernel")
                    _pending.append(thread)
                    thread.start()
        return self.value

    def _build(self):
        try:
            self.value = self.make()
        except Exception:  # noqa: BLE001 - the caller's other path stays, as before the kernel existed
            self.value = None


_lock = threading.Lock()
_pending: list = []


def wait_layout_kernels(timeout=None) -> None:
    """Block until the layout kernels started so far are built (for tests and benchmarks)."""
    while _pending:
        _pending.pop().join(timeout)


atexit.register(wait_layout_kernels, 60)  # no compile cut off by the interpreter's exit


def kernel_arguments(arrays, kinds, outer_shape, shapes=None):
    """The operands as a staged or nested kernel takes them: scalars as 1-d arrays, per-row (outer)
    values in the outer shape, the others in `shapes` when given (the inputs of a merged region,
    collapsed_region: views of C-order operands)."""
    args = []
    for k, (x, kind) in enumerate(zip(arrays, kinds)):
        if kind == "outer" and x.shape != outer_shape:  # a 0-d one too: the kernel indexes it per row
            x = x.reshape(outer_shape)
        elif kind == "scalar" or x.ndim == 0:
            x = x.reshape(-1)
        elif shapes is not None and x.shape != shapes[k]:
            x = x.reshape(shapes[k])
        args.append(x)
    return args


def storage_bits(kernel, graph):
    """`kernel`, or for a region with float16/bfloat16 inputs or outputs a function calling it with those
    arrays as uint16 views: numba types neither dtype, and the kernel converts their bits itself
    (codegen_widen.py, mathlib/half.py)."""
    from arraystack.backends.numba.codegen_widen import is_storage

    if not any(is_storage(v.aval.dtype) for v in graph.inputs + graph.outputs):
        return kernel
    ndarray, bits = np.ndarray, np.dtype(np.uint16)

    def call(*args):
        return kernel(
            *[
                a.view(bits)
                if type(a) is ndarray and a.dtype.itemsize == 2 and a.dtype.kind in "fV"
                else a
                for a in args
            ]
        )

    return call


class FortranKernel:
    """The kernel of a reversed region (reversed_region), built on first use (LazyKernel); call() runs it
    on the operands' transposes and returns the results transposed back, or None while it is not ready."""

    def __init__(self, graph, parallel, cache_dir, sizes_of):
        self.graph, self.parallel, self.cache_dir, self.sizes_of = (
            graph,
            parallel,
            cache_dir,
            sizes_of,
        )
        self.lazy = LazyKernel(self._load)

    def _load(self):
        from arraystack.backends.numba.host_pool import host_pool
        from arraystack.backends.numba.codegen import generate
        from arraystack.backends.numba.kernels import load_kernel

        spec = generate(self.graph, parallel=self.parallel)
        kernel, _ = load_kernel(spec.source, cache_dir=self.cache_dir)
        kernel = storage_bits(kernel, self.graph)
        outer = spec.outer_shape or (1,)
        outs = [
            (alloc, dtype, final, math.prod(alloc) * dtype.itemsize)
            for alloc, dtype, final, _ in spec.outputs
        ]
        sizes = self.sizes_of(spec, self.parallel)
        return (kernel, sizes, spec.input_kinds, outer, outs, host_pool.empty)

    def __call__(self, arrays):
        ready = self.lazy.get()
        if ready is None:
            return None
        kernel, sizes, kinds, outer, outs, empty = ready
        args = kernel_arguments([x.T for x in arrays], kinds, outer)
        buffers = [empty(alloc, dtype, nbytes) for alloc, dtype, _, nbytes in outs]
        kernel(*sizes, *args, *buffers)
        return [o.reshape(final).T for o, (_, _, final, _) in zip(buffers, outs)]


def collapsed_region(graph):
    """The region with its trailing kept axes merged into one, or None: a region reducing adjacent axes
    and keeping two or more after them ((64, 256, 256) summed over axis 0 keeps (256, 256)) becomes one
    of shape (64, 65536), whose column kernel (codegen_columns.py) reads blocks as wide as a thread's
    share, not as the last axis: (1000, 64, 8) float32 summed over axis 0 0.40 -> 0.11 ms, (4096, 16,
    16) 0.61 -> 0.23 ms (NumPy 0.09-0.11 and 0.30).
    The values and their order do not change: the reductions keep their axes, and every value with the
    trailing axes has them merged the same way (a view of a C-order operand). None where a value has
    only some of those axes (a per-channel vector broadcast along the last axis) or a reshape or a
    broadcast moves them."""
    layout = region_layout(graph)
    shape, axes = layout.shape, layout.axes
    if not axes or axes != tuple(range(axes[0], axes[-1] + 1)):
        return None
    tail = shape[axes[-1] + 1 :]
    if len(tail) < 2:
        return None
    t, merged = len(tail), math.prod(tail)

    def shape_of(dims):
        if dims == ():
            return dims
        if len(dims) >= t and dims[-t:] == tail:
            return dims[:-t] + (merged,)
        raise _Refused  # a value with some of the trailing axes only

    def params_of(e):
        params = e.params
        if e.prim is s.broadcast_in_dim_p:
            q, r = e.inputs[0].aval.ndim, e.outputs[0].aval.ndim
            dims = tuple(params["broadcast_dimensions"])
            if q:  # an operand with the tail: its tail goes to the result's
                if q < t or dims[-t:] != tuple(range(r - t, r)):
                    raise _Refused
                dims = dims[:-t] + (r - t,)
            shape = tuple(params["shape"])[:-t] + (merged,)
            return {**params, "shape": shape, "broadcast_dimensions": dims}
        if e.prim in REDUCTIONS:
            if tuple(params["axes"]) != axes:
                raise _Refused
            return params
        if e.prim is s.reshape_p:
            return {**params, "new_sizes": tuple(params["new_sizes"])[:-t] + (merged,)}
        if e.prim not in ELEMENTWISE:
            raise _Refused
        return params

    return _remapped(graph, shape_of, params_of)
