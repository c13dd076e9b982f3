"""The memory order NumPy gives a new array while tracing, where it is not C's.

Whether `y.reshape(...)` is a view of `y` depends on y's strides (aliasing.layout_of). NumPy's ufuncs
allocate their result in the memory order of their operands: `x.T * 2` is Fortran-ordered, so
`(x.T * 2).reshape(-1)` is a copy, and a write through it does not reach the product. A traced root
counts as C-contiguous unless its layout is recorded here (aliasing.set_layout). NumPy has a few
rules, each implemented here and called by the functions that follow it:
- nditer's order 'K' (`k_order_strides`, numpy/_core/src/multiarray/nditer_constr.c): an iterator
  over the broadcast operands sorts its axes from the smallest stride to the largest by a stable
  insertion sort in which, for two axes, each operand with a non-zero stride on both votes, the first
  vote decides and a vote for C's order overrides it; the result is allocated contiguous in that
  order. Elementwise functions (`elementwise`), reductions (reduced_layouts.py: the kept axes),
  generalized ufuncs' loop axes (reduced_layouts.py);
- a new array like another (`like_strides`, PyArray_NewLikeArray): copies, casts, the `*_like`
  functions, fft results (`copied`, `like`);
- concatenate's sort over all operands (`multi_sorted_strides`, `joined`);
- advanced indexing (`gathered`, mapping.c);
- Fortran's order for a Fortran-ordered operand, else C's (`by_source_order`: pad, insert, delete,
  round), and C's (`c_ordered`: take, choose, quantile).
The arguments of grad, vjp, jvp and vmap keep their strides (`argument`); jit keys its entries by them
where a write shows them (jit_arguments.layout_key). Strides of axes of length 1 may differ from
NumPy's: nothing reads them (NumPy's reshape and contiguity ignore them).
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.lib.stride_tricks import as_strided

from arraystack._transforms.aliasing import (
    has_aliases,
    layout_of,
    other_layout,
    set_layout,
)
from arraystack.ir.core import Tracer


def _sorted_axes(axes, swap) -> list:
    """NumPy's stable insertion sort of axes (nditer's and concatenate's): `swap(moving, other)` is
    the operands' vote on moving an axis before one placed earlier: None when no operand compares the
    two, which passes over `other`."""
    order = list(axes)
    for i0 in range(1, len(order)):
        moving, place = order[i0], i0
        for i1 in range(i0 - 1, -1, -1):
            vote = swap(moving, order[i1])
            if vote is None:
                continue
            if not vote:
                break
            place = i1
        if place != i0:
            order[place + 1 : i0 + 1] = order[place:i0]
            order[place] = moving
    return order


def _vote(keeps) -> bool | None:
    """The operands' vote from whether each comparing operand keeps the order: the first decides,
    and any keeping one overrides a swap (C's order wins a conflict). None: no operand compared."""
    decided, swap = False, False
    for keep in keeps:
        if keep:
            swap = False
        elif not decided:
            swap = True
        decided = True
    return swap if decided else None


def contiguous_strides(axes, shape, itemsize) -> tuple:
    """The strides of a new array laid out with `axes` from the fastest to the slowest."""
    strides, step = [0] * len(shape), itemsize
    for axis in axes:
        strides[axis] = step
        step *= shape[axis]
    return tuple(strides)


def k_order_strides(operands, shape, itemsize) -> tuple:
    """The strides of NumPy's result of `shape`, `itemsize` bytes per element, of an elementwise
    operation (order='K') on operands given as (shape, strides) pairs, each broadcastable to `shape`."""
    ndim = len(shape)
    table = {}  # per axis: each operand's stride (0: broadcast)
    for axis in range(ndim):
        row = []
        for op_shape, op_strides in operands:
            k = axis - (ndim - len(op_shape))
            row.append(0 if k < 0 or op_shape[k] == 1 else op_strides[k])
        table[axis] = row

    def swap(moving, other):
        pairs = zip(table[moving], table[other])
        return _vote(abs(b) <= abs(a) for a, b in pairs if a != 0 and b != 0)

    # the iterator's axes run from the last array axis, sorted from the smallest stride up
    return contiguous_strides(_sorted_axes(range(ndim - 1, -1, -1), swap), shape, itemsize)


def operand_layout(x):
    """x's layout where it may be in another order than C (an array of two or more axes), else None."""
    from arraystack._core.array import ndarray

    if type(x) is ndarray:
        layout = other_layout(x)
    elif type(x) is np.ndarray:
        layout = x
    else:
        return None
    return layout if layout is not None and layout.ndim >= 2 else None


def _voters(operands, layouts) -> list:
    """The (shape, strides) of each operand of two or more axes (`layouts`: theirs from `operand_layout`), a
    C-ordered one too: all vote in nditer's sort (C's order wins a tie)."""
    pairs = []
    for layout, a in zip(layouts, operands):
        if layout is not None:
            pairs.append((layout.shape, layout.strides))
        elif not isinstance(a, (bool, int, float, complex)) and np.ndim(a) >= 2:
            pairs.append(_c_pair(a if hasattr(a, "dtype") else np.asarray(a)))
    return pairs


def elementwise(operands, results) -> None:
    """Record NumPy's memory order for `results` (arrays made while tracing by an elementwise operation
    on `operands`) where it is not C's."""
    layouts = [operand_layout(a) for a in operands]
    if all(layout is None or layout.flags.c_contiguous for layout in layouts):
        return
    pairs = _voters(operands, layouts)
    for result in results:
        value = getattr(result, "_value", None)
        if type(value) is not Tracer or len(value.shape) < 2:
            continue
        shape, dtype = tuple(value.shape), np.dtype(value.dtype)
        if 0 in shape:
            continue
        strides = k_order_strides(pairs, shape, dtype.itemsize)
        layout = as_strided(np.zeros(1, dtype), shape, strides, writeable=False)
        if not layout.flags.c_contiguous:
            set_layout(result, layout)


def argument(wrapped, given, axis=None) -> None:
    """Record the memory order of `given` (an argument of grad, vjp, jvp or vmap) for `wrapped`, the
    traced array standing for it; `axis`: the axis vmap maps over (each example is given[i])."""
    layout = given if type(given) is np.ndarray else operand_layout(given)
    if layout is None or type(getattr(wrapped, "_value", None)) is not Tracer:
        return
    if axis is not None:
        if layout.shape[axis] == 0:
            return
        layout = np.moveaxis(layout, axis, 0)[0]
    if layout.ndim >= 2 and not layout.flags.c_contiguous:
        set_layout(wrapped, layout)


def copied(source, result, order="K") -> None:
    """Record NumPy's memory order for `result`, a copy (or cast) of `source` made while tracing in
    `order` (np.copy, astype, sort's copy, *_like), or a new array with as many axes
    (`empty_like(source, shape=...)`, as numpy.fft allocates): 'K' keeps source's order, by NumPy's
    rule for a new array like another (`like_strides`), 'F' and 'A' (source Fortran-contiguous)
    give Fortran's."""
    if order == "F":
        fortran(result)
        return
    layout = operand_layout(source) if order != "C" else None
    if layout is None or layout.flags.c_contiguous:
        return
    if layout.flags.f_contiguous:
        fortran(result)
    elif order == "K":
        value = getattr(result, "_value", None)
        shape = tuple(getattr(value, "shape", ()))
        if type(value) is Tracer and len(shape) == layout.ndim and 0 not in shape:
            dtype = np.dtype(value.dtype)
            strides = like_strides(layout.strides, shape, dtype.itemsize)
            set_layout(result, as_strided(np.zeros(1, dtype), shape, strides, writeable=False))


def like_strides(strides, shape, itemsize) -> tuple:
    """The strides of NumPy's copy in order 'K' (np.copy, astype, empty_like: PyArray_NewLikeArray) of
    an array with `strides` that is neither C- nor Fortran-contiguous: its axes from the largest
    |stride| to the smallest (a broadcast axis, stride 0, last), ties in axis order."""
    order = sorted(range(len(shape)), key=lambda i: -abs(strides[i]))
    out, step = [0] * len(shape), itemsize
    for i in reversed(order):
        out[i] = step
        step *= shape[i]
    return tuple(out)


def fortran(result) -> None:
    """Record Fortran's order for `result`, an array made while tracing (np.zeros(..., order="F"))."""
    value = getattr(result, "_value", None)
    if type(value) is not Tracer or len(value.shape) < 2 or 0 in value.shape:
        return
    strides, step = [], np.dtype(value.dtype).itemsize
    for d in value.shape:
        strides.append(step)
        step *= d
    zero = np.zeros(1, np.dtype(value.dtype))
    set_layout(result, as_strided(zero, tuple(value.shape), tuple(strides), writeable=False))


def like(source, result, order="K"):
    """`result`, a new array of source's shape or number of axes (a *_like function's, nan_to_num's,
    an fft's), in the memory order NumPy gives a new array like `source`: eagerly in a buffer of
    that order, while tracing recorded (`copied`)."""
    from arraystack._core.array import ndarray, wrap

    value = result._value
    given = source._value if type(source) is ndarray else source
    if type(value) is Tracer:
        copied(source, result, order)
        return result
    if (
        type(value) is np.ndarray
        and type(given) is np.ndarray
        and order in ("K", "A")
        and value.ndim == given.ndim >= 2
        and not given.flags.c_contiguous
    ):
        out = np.empty_like(given, dtype=value.dtype, order=order, shape=value.shape)
        if out.strides == value.strides:
            return result
        out[...] = value
        return wrap(out)
    return result


def joined(operands, result) -> None:
    """Record NumPy's memory order for `result`, the concatenation of `operands` made while tracing:
    concatenate sorts the axes by all operands' strides (`multi_sorted_strides`)."""
    layouts = [operand_layout(a) for a in operands]
    if all(layout is None or layout.flags.c_contiguous for layout in layouts):
        return
    value = getattr(result, "_value", None)
    if type(value) is not Tracer or 0 in value.shape:
        return
    pairs = [
        (layout.shape, layout.strides) if layout is not None else _c_pair(a)
        for layout, a in zip(layouts, operands)
    ]
    dtype = np.dtype(value.dtype)
    strides = multi_sorted_strides(pairs, tuple(value.shape), dtype.itemsize)
    layout = as_strided(np.zeros(1, dtype), tuple(value.shape), strides, writeable=False)
    if not layout.flags.c_contiguous:
        set_layout(result, layout)


def _c_pair(a) -> tuple:
    shape, step, strides = tuple(a.shape), np.dtype(a.dtype).itemsize, []
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return shape, tuple(reversed(strides))


def multi_sorted_strides(operands, shape, itemsize) -> tuple:
    """The strides of NumPy's concatenation of `shape` (PyArray_CreateMultiSortedStridePerm): the axes
    from the largest stride to the smallest by the same sort, where each operand longer than 1 on both
    axes votes."""

    def swap(moving, other):
        return _vote(
            abs(st[moving]) <= abs(st[other])
            for sh, st in operands
            if sh[moving] != 1 and sh[other] != 1
        )

    order = _sorted_axes(range(len(shape)), swap)
    return contiguous_strides(reversed(order), shape, itemsize)


def expanded(source, result, axis: int) -> None:
    """Record for `result` (source with a new axis of length 1 at `axis`, made while tracing) source's
    layout with that axis, as NumPy's stack sees its operands."""
    layout = operand_layout(source) if getattr(source, "ndim", 0) >= 2 else None
    if layout is not None and not layout.flags.c_contiguous:
        set_layout(result, np.expand_dims(layout, axis))


def gathered(x, key, broadcast, back, result) -> None:
    """Record NumPy's memory order for `result`, x[key] with index arrays, made while tracing
    (`broadcast`: the index arrays' broadcast shape; `back`: the permutation that moves the indexed
    axes to where the index stood, or None). NumPy (mapping.c, PyArray_MapIterNew) allocates the
    indexed axes outermost and the rest innermost, then moves the indexed block: the indexed axes in
    C's order, or nditer's order of the index arrays where the rest holds one element; the rest in
    the order of x's strides (largest first), as the view x[key] with each index replaced by 0 has
    them. Where this is C's order nothing is recorded."""
    from arraystack._indexing.keys import _classify

    value = getattr(result, "_value", None)
    if type(value) is not Tracer or len(value.shape) < 2 or 0 in value.shape:
        return
    key0, pairs = [], []  # x's key with each index as 0 (the rest as a view); the arrays' layouts
    for item in key if type(key) is tuple else (key,):
        kind, index = _classify(item)
        if kind in ("new", "ellipsis", "slice"):
            key0.append(item)
        elif kind == "mask":  # its nonzero() arrays are one-dimensional: they do not vote
            if index.ndim == 0:
                return
            key0.extend([0] * index.ndim)
        else:
            key0.append(0)
            if kind == "array" and index.ndim >= 2:
                layout = operand_layout(item)
                pairs.append(
                    (layout.shape, layout.strides) if layout is not None else _c_pair(index)
                )
    rest = layout_of(x)[tuple(key0)]
    itemsize = np.dtype(value.dtype).itemsize
    if rest.size == 1:
        outer = k_order_strides(pairs, tuple(broadcast), itemsize)
    else:
        outer = contiguous_strides(
            range(len(broadcast) - 1, -1, -1), broadcast, itemsize * rest.size
        )
    shape = tuple(broadcast) + rest.shape
    strides = outer + like_strides(rest.strides, rest.shape, itemsize)
    if back is not None:
        shape, strides = tuple(shape[i] for i in back), tuple(strides[i] for i in back)
    if shape != tuple(value.shape):
        return
    layout = as_strided(np.zeros(1, value.dtype), shape, strides, writeable=False)
    if not layout.flags.c_contiguous:
        set_layout(result, layout)


def c_ordered(result):
    """`result`, a new array that NumPy allocates in C's order where the composition that made it
    need not be (take and choose are gathers, meshgrid's copies are ndarray.copy): eagerly its buffer
    made C-contiguous (copied only where it is not); while tracing a fresh array of its value, with
    no order or view recorded."""
    from arraystack._core.array import wrap

    value = result._value
    if type(value) is Tracer:
        return wrap(value) if has_aliases(result) else result
    if type(value) is np.ndarray and value.ndim >= 2 and not value.flags.c_contiguous:
        return wrap(np.ascontiguousarray(value))
    return result


def by_source_order(source, result):
    """`result` in Fortran's order where `source` is Fortran- and not C-contiguous, else in C's:
    NumPy's insert and delete allocate with `order='F' if arr.flags.fnc else 'C'`."""
    layout = operand_layout(source)
    if layout is None or not layout.flags.f_contiguous or layout.flags.c_contiguous:
        return c_ordered(result)
    return fortran_ordered(result)


def allocates_c_order(function):
    """Decorate a function whose result NumPy allocates in C's order (quantile: a gather by take),
    where the composition that computes it need not give that order (`c_ordered`); a result
    written into an array given is left as it is."""

    @functools.wraps(function)
    def allocating(*args, **kwargs):
        result = function(*args, **kwargs)
        if any(result is v for v in args) or any(result is v for v in kwargs.values()):
            return result
        return c_ordered(result) if hasattr(result, "_value") else result

    return allocating


def in_strides(result, shape, strides):
    """`result`, a new array of `shape`, with `strides` (NumPy's for it): while tracing recorded
    where they are not C's; eagerly its buffer copied into them where it is in another order."""
    from arraystack._core.array import wrap

    value = result._value
    if type(value) is Tracer:
        layout = as_strided(np.zeros(1, value.dtype), shape, strides, writeable=False)
        if not layout.flags.c_contiguous:
            set_layout(result, layout)
    elif type(value) is np.ndarray and any(
        n != 1 and value.strides[k] != strides[k] for k, n in enumerate(shape)
    ):
        ordered = as_strided(np.empty(value.size, value.dtype), shape, strides)
        ordered[...] = value
        return wrap(ordered)
    return result


def elementwise_result(operands, result):
    """`result`, a new array of an elementwise operation on `operands` (NumPy's iterator in order
    'K', a where= mask among them), in NumPy's memory order: eagerly its buffer reordered where it
    is in another, while tracing recorded."""
    value = getattr(result, "_value", None)
    shape = tuple(getattr(value, "shape", ()))
    if len(shape) < 2 or 0 in shape:
        return result
    pairs = _voters(operands, [operand_layout(a) for a in operands])
    strides = k_order_strides(pairs, shape, np.dtype(value.dtype).itemsize)
    return in_strides(result, shape, strides)


def in_order(result, order: str, operands):
    """A ufunc's new result(s) in the memory order its `order=` asks: 'C', 'F', or 'A' (Fortran's
    where every array operand is Fortran-contiguous, else C's); 'K' leaves them as they are."""
    order = order.upper()
    if order == "K":
        return result
    if order == "A":
        arrays = [a for a in operands if np.ndim(a) >= 1 and hasattr(a, "dtype")]
        fortran = all(
            (layout_of(a) if hasattr(a, "_value") else a).flags.f_contiguous for a in arrays
        )
        order = "F" if arrays and fortran else "C"
    results = result if isinstance(result, tuple) else (result,)
    if order == "F":
        fixed = tuple(fortran_ordered(r) for r in results)
    else:
        fixed = tuple(c_ordered(r) for r in results)
    return fixed if isinstance(result, tuple) else fixed[0]


def fortran_ordered(result):
    """`result`, a new array, in Fortran's order: eagerly copied where it is not, while tracing
    recorded."""
    from arraystack._core.array import wrap

    value = result._value
    if type(value) is Tracer:
        result = c_ordered(result)
        fortran(result)
    elif type(value) is np.ndarray and not value.flags.f_contiguous:
        result = wrap(np.asfortranarray(value))
    return result
