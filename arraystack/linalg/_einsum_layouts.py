"""The memory layout of numpy.einsum's result: a view of its operand where no label is summed, else a
new array in the operands' memory order.

NumPy's einsum (c_einsum, numpy/_core/src/multiarray/einsum.c) returns a writeable view of a single
operand whose labels all appear in the output: a transposition, or a diagonal where a label repeats
(its stride is the sum of the repeated axes' strides). Otherwise it allocates the result with an
iterator in order 'K' over the operands, whose axes are the output labels and then the summed ones
in the order of their characters; an operand lacking a label is broadcast along it. Under `jit`,
`grad` and `vmap` the view is recorded as one (writes through it reach the operand, and back), and
the new array's order is recorded as NumPy's, which decides whether a later reshape views or copies.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from arraystack._core.array import wrap
from arraystack._transforms import result_layouts
from arraystack._transforms.aliasing import layout_of, link, view_of
from arraystack.ir.core import Tracer, is_tracing
from arraystack.ir.structural import reshape_p, transpose_p


def is_view(arrays, labels, out_labels, out, dtype) -> bool:
    """Whether NumPy's einsum returns a view of its one operand: no label summed, no `out`, no cast."""
    return (
        out is None
        and len(arrays) == 1
        and set(labels[0]) == set(out_labels)
        and dtype == arrays[0].dtype
    )


def _combined(shape, strides, lab, out_labels):
    """The shape and strides of the operand's view along `out_labels` (a repeated label's stride is
    the sum of its axes' strides)."""
    sizes = [shape[lab.index(x)] for x in out_labels]
    steps = [sum(s for s, y in zip(strides, lab) if y == x) for x in out_labels]
    return tuple(sizes), tuple(steps)


def view(x, lab, out_labels, lower):
    """NumPy's einsum view of `x` (labels `lab`) along `out_labels`, or None where the composition of
    primitives serves (an array on a device); `lower(raw)`: the result's raw value from x's."""
    value = x._value
    if len(set(lab)) == len(lab):  # a transposition: a view like any other
        perm = tuple(lab.index(y) for y in out_labels)
        if perm == tuple(range(len(perm))):
            return view_of(x, reshape_p, new_sizes=tuple(value.shape))
        return view_of(x, transpose_p, permutation=perm)
    if type(value) is np.ndarray and not is_tracing():
        shape, strides = _combined(value.shape, value.strides, lab, out_labels)
        return wrap(as_strided(value, shape, strides, subok=False))
    if type(value) is not Tracer:
        return None
    from arraystack._indexing.updates import updated

    result = wrap(lower(value))
    base = layout_of(x)
    shape, strides = _combined(base.shape, base.strides, lab, out_labels)
    key = []  # x's positions of the view's elements: an index array per axis of x
    for y, n in zip(lab, value.shape):
        where = out_labels.index(y)
        key.append(np.arange(n).reshape([n if i == where else 1 for i in range(len(out_labels))]))
    key = tuple(key)
    layout = as_strided(base, shape, strides, writeable=False)
    link(result, x, lower, lambda b, v: updated(b, key, v), layout)
    return result


def in_operands_order(arrays, labels, out_labels, sizes, result):
    """`result`, a new array, in the memory order NumPy's einsum iterator allocates it (`sizes`: each
    label's length): eagerly in a buffer of that order, while tracing recorded."""
    value = result._value
    if len(out_labels) < 2 or 0 in value.shape:
        return result
    axes = list(out_labels) + sorted({y for lab in labels for y in lab if y not in out_labels})
    pairs = []  # each operand of two or more axes votes, along the iterator's axes
    for x, lab in zip(arrays, labels):
        if x.ndim < 2:
            continue
        layout = layout_of(x)
        present = [y for y in axes if y in lab]
        shape, strides = _combined(layout.shape, layout.strides, lab, present)
        pairs.append(
            (
                tuple(shape[present.index(y)] if y in lab else 1 for y in axes),
                tuple(strides[present.index(y)] if y in lab else 0 for y in axes),
            )
        )
    itemsize = np.dtype(value.dtype).itemsize
    full = result_layouts.k_order_strides(pairs, tuple(sizes[y] for y in axes), itemsize)
    order = sorted(range(len(out_labels)), key=lambda k: full[k])  # the fastest axis first
    shape = tuple(value.shape)
    strides = tuple(int(s) for s in result_layouts.contiguous_strides(order, shape, itemsize))
    return result_layouts.in_strides(result, shape, strides)
