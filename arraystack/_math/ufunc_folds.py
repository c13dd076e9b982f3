"""The ufunc methods as compositions of primitives: what `reduce`, `accumulate`, `reduceat` and `at`
run when tracing (jit, grad, vmap) or on a device (ufunc_methods.py runs NumPy's own on host buffers).

The loop dtypes are NumPy's (`ufunc.resolve_dtypes(..., reduction=True)`). A ufunc with a primitive
for the job lowers to it (add.reduce -> reduce_sum, maximum.accumulate -> cummax, add.at -> scatter
add); every other ufunc folds with a `scan` whose body calls the function itself, element by element
in NumPy's order, so the values are exactly NumPy's.
"""

from __future__ import annotations

import operator

import numpy as np

import arraystack as anp
from arraystack._core.array import ndarray, wrap
from arraystack._core.shapes import normalize_axis
from arraystack._math.cumulative import store_scan
from arraystack._math.reduce import (
    NoValue,
    as_dtype,
    axes_of,
    kept_shape,
    reduce_raw,
    reduced_size,
    scalar,
    store,
    unpack_out,
    where_mask,
)
from arraystack._transforms.aliasing import rebind
from arraystack.ir.avals import kind_of
from arraystack.ir import primitives as p
from arraystack.ir.core import ConcretizationError, Tracer, bind, concretization_message
from arraystack.ir.structural import (
    cummax_p,
    cummin_p,
    cumprod_p,
    cumsum_p,
    full_p,
    gather_p,
    reduce_and_p,
    reduce_max_p,
    reduce_min_p,
    reduce_or_p,
    reduce_prod_p,
    reduce_sum_p,
    reshape_p,
    scatter_p,
)

# ufunc -> (reduce primitive, the binary primitive folding initial= in, the loop dtype kinds it takes)
REDUCTIONS = {
    np.add: (reduce_sum_p, p.add_p, "iufc"),
    np.multiply: (reduce_prod_p, p.mul_p, "iufc"),
    np.maximum: (reduce_max_p, p.max_p, "biufc"),
    np.minimum: (reduce_min_p, p.min_p, "biufc"),
    np.logical_and: (reduce_and_p, p.and_p, "b"),
    np.logical_or: (reduce_or_p, p.or_p, "b"),
    np.bitwise_and: (reduce_and_p, p.and_p, "b"),
    np.bitwise_or: (reduce_or_p, p.or_p, "b"),
}
# ufunc -> (cumulative primitive, the loop dtype kinds it takes): on bools, and is min and or is max
SCANS = {
    np.add: (cumsum_p, "iufc"),
    np.multiply: (cumprod_p, "iufc"),
    np.maximum: (cummax_p, "biufc"),
    np.minimum: (cummin_p, "biufc"),
    np.logical_and: (cummin_p, "b"),
    np.logical_or: (cummax_p, "b"),
    np.bitwise_and: (cummin_p, "b"),
    np.bitwise_or: (cummax_p, "b"),
}
# ufunc -> scatter update, for loops on the array's own dtype (subtract scatters the negated values:
# a - b is a + (-b) exactly, in floats and in wrapping integers)
SCATTERS = {
    np.add: "add",
    np.subtract: "add",
    np.multiply: "mul",
    np.maximum: "max",
    np.minimum: "min",
}

_loops: dict = {}
_reorderable: dict = {}


def loop_dtypes(ufunc, dtype, requested, out):
    """NumPy's loop dtypes (result, operand, result) of a reduction-like method, or its exception."""
    requested = None if requested is None else np.dtype(requested)
    pinned = None if out is None else out.dtype
    key = (ufunc, dtype, requested, pinned)
    dtypes = _loops.get(key)
    if dtypes is None:
        options = {} if requested is None else {"signature": (requested, requested, None)}
        dtypes = ufunc.resolve_dtypes(
            (pinned, dtype, None), reduction=True, casting="unsafe", **options
        )
        _loops[key] = dtypes
    return dtypes


def reorderable(ufunc) -> bool:
    """Whether NumPy reduces `ufunc` over several axes at once (an identity, or maximum-like)."""
    known = _reorderable.get(ufunc)
    if known is None:
        known = ufunc.identity is not None
        if not known:
            probe = np.ones((1, 1), np.dtype(ufunc.types[0][0]))
            try:
                with np.errstate(all="ignore"):
                    ufunc.reduce(probe, axis=(0, 1))
                known = True
            except ValueError:
                known = False
            except TypeError:
                known = True  # NumPy's own TypeError for the operand comes first
        _reorderable[ufunc] = known
    return known


def _leading(x, axes, n):
    """Raw `x` with `axes` (in order) moved to the front and merged into one axis of size `n`."""
    rest = [i for i in range(x.ndim) if i not in axes]
    moved = anp.transpose(wrap(x), list(axes) + rest)
    return anp.reshape(moved, (n,) + tuple(x.shape[i] for i in rest))


def _step(function, dtype):
    """The scan body folding one element into the carry (skipping it where the mask is false)."""

    def body(carry, item):
        if type(item) is tuple:
            value, keep = item
            new = anp.where(keep, function(carry, value), carry)
        else:
            new = function(carry, item)
        new = anp.astype(new, dtype, copy=False)
        return new, new

    return body


def reduce(function, ufunc, array, axis, dtype, out, keepdims, initial, where):
    """ufunc.reduce (see ufunc_methods.reduce) as primitives."""
    name = ufunc.__name__
    x = anp.asarray(array)._value
    if x.ndim == 0:
        if axis is not None and axis != ():
            axes_of(axis, 1)  # NumPy takes axis 0 (or -1) of a 0-d array as no axis
        axes = ()
    else:
        axes = tuple(range(x.ndim)) if axis is None else axes_of(axis, x.ndim)
    if len(axes) > 1 and not reorderable(ufunc):
        raise ValueError(
            f"reduction operation '{name}' is not reorderable, so at most one axis may be specified"
        )
    out = unpack_out(out)
    dtypes = loop_dtypes(ufunc, x.dtype, dtype, out)
    x = as_dtype(x, dtypes[1])
    identity = ufunc.identity
    if initial is None:  # NumPy: start from the first element, as for a ufunc without identity
        identity, initial = None, NoValue
    keepdims = bool(keepdims)
    entry = REDUCTIONS.get(ufunc)
    if entry is not None and kind_of(x.dtype) in entry[2]:
        r = reduce_raw(entry[0], name, x, axes, keepdims, initial, where, identity, entry[1])
    else:
        r = _fold(function, name, x, axes, keepdims, initial, where, identity, dtypes[0])
    return store(as_dtype(r, dtypes[0]), out, name)


def _fold(function, name, x, axes, keepdims, initial, where, identity, dtype):
    """The reduction of raw `x` over `axes` by a scan calling `function`, in NumPy's order (the
    reduced axes in C order)."""
    shape = x.shape
    axes = tuple(sorted(axes))
    n = reduced_size(shape, axes)
    rest = tuple(d for i, d in enumerate(shape) if i not in axes)
    xs = _leading(x, axes, n)
    mask = None
    if where is not True:
        mask = _leading(where_mask(where, shape), axes, n)
        if initial is NoValue:
            if identity is None:
                raise ValueError(
                    f"reduction operation '{name}' does not have an identity, so to use a where "
                    "mask one has to specify 'initial'"
                )
            initial = identity
    if initial is NoValue and n == 0:
        if identity is None:
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        initial = identity
    if initial is NoValue:
        carry, xs = anp.astype(xs[0], dtype, copy=False), xs[1:]
        mask = None if mask is None else mask[1:]
    else:
        carry = wrap(bind(full_p, scalar(initial, dtype), shape=rest, dtype=dtype))
    if n > (initial is NoValue):
        carry = anp.scan(_step(function, dtype), carry, xs if mask is None else (xs, mask))[0]
    r = anp.astype(carry, dtype, copy=False)._value
    if keepdims:
        r = bind(reshape_p, r, new_sizes=kept_shape(shape, axes))
    return r


def accumulate(function, ufunc, array, axis, dtype, out):
    """ufunc.accumulate (see ufunc_methods.accumulate) as primitives."""
    name = ufunc.__name__
    source = anp.asarray(array)
    x = source._value
    if x.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    if type(axis) is tuple:
        if len(axis) != 1:
            raise ValueError("accumulate does not allow multiple axes")
        axis = axis[0]
    if axis is None:
        if x.ndim != 1:
            raise ValueError("accumulate does not allow multiple axes")
        axis = 0
    ax = normalize_axis(axis, x.ndim)
    out = unpack_out(out)
    dtypes = loop_dtypes(ufunc, x.dtype, dtype, out)
    if dtypes[0] != dtypes[1]:
        raise TypeError(
            f"ufunc '{name}' not supported for the input types, and the inputs could not be safely "
            "coerced to any supported types according to the casting rule ''safe''"
        )
    x = as_dtype(x, dtypes[1])
    entry = SCANS.get(ufunc)
    if entry is not None and kind_of(x.dtype) in entry[1]:
        r = bind(entry[0], x, axis=ax)
    elif x.shape[ax] <= 1:
        r = x
    else:
        xs = anp.moveaxis(wrap(x), ax, 0)
        ys = anp.scan(_step(function, dtypes[0]), xs[0], xs[1:])[1]
        r = anp.moveaxis(anp.concatenate([xs[:1], ys]), 0, ax)._value
    return store_scan(r, out, source)  # an accumulation keeps its operand's memory order


def _concrete_indices(indices, name):
    value = indices._value if isinstance(indices, ndarray) else indices
    if type(value) is Tracer:
        raise ConcretizationError(
            concretization_message(
                f"{name}.reduceat was called on",
                value.var.aval,
                "Its indices decide the shapes of the slices it reduces: pass them as a concrete "
                "(NumPy or Python) array, or mark the argument static (static_argnums).",
            )
        )
    idx = np.asarray(value)
    if idx.ndim != 1:
        idx = np.asarray(value, dtype=np.intp).reshape(-1)  # NumPy's own error for a nested list
    return idx.astype(np.intp)


def reduceat(function, ufunc, array, indices, axis, dtype, out):
    """ufunc.reduceat (see ufunc_methods.reduceat) as primitives: one reduction per slice."""
    name = ufunc.__name__
    x = anp.asarray(array)._value
    idx = _concrete_indices(indices, name)
    ax = normalize_axis(operator.index(axis), max(x.ndim, 1))
    n = x.shape[ax] if x.ndim else 1
    for i in idx:
        if not 0 <= i < n:
            raise IndexError(f"index {i} out-of-bounds in {name}.reduceat [0, {n})")
    out = unpack_out(out)
    dtypes = loop_dtypes(ufunc, x.dtype, dtype, out)
    if dtypes[0] != dtypes[1]:
        raise TypeError(
            f"the resolved dtypes are not compatible with {name}.reduceat. Resolved {dtypes}"
        )
    xa = wrap(as_dtype(x, dtypes[1]))
    before = (slice(None),) * ax
    pieces = []
    for k, start in enumerate(idx.tolist()):
        end = idx[k + 1] if k + 1 < len(idx) else n
        if end > start + 1:
            part = xa[before + (slice(start, end),)]
            pieces.append(reduce(function, ufunc, part, ax, None, None, True, NoValue, True))
        else:
            pieces.append(xa[before + (slice(start, start + 1),)])
    if pieces:
        r = anp.concatenate(pieces, axis=ax)._value
    else:
        r = xa[before + (slice(0, 0),)]._value
    return store_scan(r, out)


def at(function, ufunc, a, indices, b):
    """ufunc.at (see ufunc_methods.at) as primitives: `a` is rebound to its updated value."""
    positions = anp.reshape(anp.arange(a.size), a.shape)[indices]  # the indexed elements' shape
    flat = anp.ravel(a)._value
    if b is None:
        dtypes = ufunc.resolve_dtypes((a.dtype, None))
        positions = anp.ravel(positions)
        items = positions
    else:
        values = anp.asarray(b)  # NumPy converts b to an array first: no weak Python scalar
        dtypes = ufunc.resolve_dtypes((a.dtype, values.dtype, None))
        try:
            values = anp.broadcast_to(values, positions.shape)
        except ValueError:
            raise ValueError("array is not broadcastable to correct shape") from None
        positions, values = anp.ravel(positions), anp.ravel(values)
        items = (positions, values)
    update = SCATTERS.get(ufunc)
    if update is not None and kind_of(a.dtype) in "iufc" and all(d == a.dtype for d in dtypes):
        v = as_dtype(values._value, a.dtype)
        if ufunc is np.subtract:
            v = bind(p.neg_p, v)
        new = bind(scatter_p, flat, v, positions._value, mode="clip", update=update)
    elif positions.size:
        new = anp.scan(_update_one(function, a.dtype), wrap(flat), items)[0]._value
    else:
        new = flat
    rebind(a, bind(reshape_p, new, new_sizes=tuple(a.shape)), f"{ufunc.__name__}.at")


def _update_one(function, dtype):
    """The scan body of ufunc.at: one element of the flat array updated (unbuffered, in order)."""

    def body(flat, item):
        position, value = item if type(item) is tuple else (item, None)
        old = wrap(bind(gather_p, flat._value, position._value, mode="clip"))
        new = function(old) if value is None else function(old, value)
        new = anp.astype(new, dtype)._value
        flat = bind(scatter_p, flat._value, new, position._value, mode="clip", update="set")
        return wrap(flat), None

    return body
