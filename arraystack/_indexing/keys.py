"""Index keys: NumPy's normalisation of `x[key]` into a Plan (slice/rev/reshape, gather/scatter).

A Plan's basic stage slices x (positive strides), reverses the negative-step axes and reshapes to
`shape` (integer axes dropped, newaxes inserted, advanced axes kept whole); its `groups` are the
advanced items, which index the leading axes of a transposed view with one gather (or scatter).
"""

from __future__ import annotations

import operator

import numpy as np

from arraystack._core.array import ndarray
from arraystack._core.devices import host_values
from arraystack._core.operands import broadcast_raw, convert_raw, shape_of
from arraystack.ir.core import Tracer, TracerError, bind, namespace_of
from arraystack.ir.structural import nonzero_p, reshape_p, rev_p, slice_p, transpose_p

ONLY_VALID = (
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
    "arrays are valid indices"
)
INTEGER_ARRAYS = "arrays used as indices must be of integer (or boolean) type"


def format_shape(shape) -> str:
    """A shape as NumPy's error messages print it: (2,3), (2,), ()."""
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _sequence(seq):
    """A list/tuple index as an array (NumPy treats it as an index array; an empty one is intp)."""
    try:
        value = np.asarray(seq)
    except TracerError:  # it holds traced arrays: stack them in the trace
        from arraystack._creation.basic import asarray

        return asarray(seq)._value
    if value.size == 0:
        return value.astype(np.intp)
    if value.dtype.kind not in "biu":
        raise IndexError(ONLY_VALID)
    return value


def _classify(item):
    """One item of a key -> (kind, value); kinds: new, ellipsis, slice, int, int0, array, mask."""
    t = type(item)
    if item is None:
        return "new", None
    if item is Ellipsis:
        return "ellipsis", None
    if t is slice:
        return "slice", item
    if t is int:
        return "int", item
    if t is bool or t is np.bool_:
        return "mask", np.asarray(item)
    if isinstance(item, np.integer):
        return "int", int(item)
    if t is ndarray or isinstance(item, ndarray):
        value = item._value
    elif t is Tracer or isinstance(item, np.ndarray):
        value = item
    elif isinstance(item, (list, tuple, range)):  # NumPy takes a range as an integer sequence
        value = _sequence(item)
    elif isinstance(item, (float, complex, str, bytes, np.generic)):
        raise IndexError(ONLY_VALID)
    else:
        try:
            return "int", operator.index(item)
        except TypeError:
            raise IndexError(ONLY_VALID) from None
    kind = value.dtype.kind
    if kind == "b":
        return "mask", value
    if kind not in "iu":
        raise IndexError(INTEGER_ARRAYS)
    if value.ndim == 0 and type(value) is not Tracer:
        # a 0-d integer array indexes like an int, but the result is a copy
        return "int0", int(value)
    return "array", value


class Plan:
    """A normalised key; `groups`: (kind, y_axis, x_axis, value) per advanced item, in order."""

    __slots__ = (
        "adjacent",
        "copy",
        "element",
        "groups",
        "limits",
        "rev",
        "shape",
        "sliced",
        "starts",
        "strides",
        "whole_mask",
    )

    def __init__(self, ndim):
        self.starts = [0] * ndim
        self.limits = [0] * ndim
        self.strides = [1] * ndim
        self.rev = []
        self.sliced = [0] * ndim  # x's shape after slice/rev, before the reshape
        self.shape = []  # the basic stage's result shape
        self.groups = []
        self.adjacent = True
        self.copy = False  # the result is a scalar in NumPy (or a 0-d array indexed): never a view
        self.element = False  # every axis is indexed by an integer: one element
        self.whole_mask = False  # the key is one boolean array of x's shape


def make_plan(key, shape) -> Plan:
    """Normalise `key` for an array of `shape` as NumPy does, raising NumPy's errors."""
    items = key if type(key) is tuple else (key,)
    ndim = len(shape)
    if len(items) <= ndim:
        plan = _ints_and_slices(items, shape)
        if plan is not None:
            return plan
    classified = []
    consumed = 0
    ellipsis = False
    zero_d_int = False
    for item in items:
        kind, value = _classify(item)
        if kind == "ellipsis":
            if ellipsis:
                raise IndexError("an index can only have a single ellipsis ('...')")
            ellipsis = True
        elif kind == "int0":
            kind = "int"
            zero_d_int = True
        if kind == "int" or kind == "slice" or kind == "array":
            consumed += 1
        elif kind == "mask":
            consumed += value.ndim
        classified.append((kind, value))
    if consumed > ndim:
        raise IndexError(
            f"too many indices for array: array is {ndim}-dimensional, but {consumed} were indexed"
        )
    full_integer = not ellipsis and consumed == ndim and all(k == "int" for k, _ in classified)
    if not ellipsis:
        classified.append(("ellipsis", None))  # trailing axes are taken whole
    advanced = any(kind == "array" or kind == "mask" for kind, _ in classified)
    plan = Plan(ndim)
    plan.limits = list(shape)
    plan.sliced = list(shape)
    positions = []
    axis = 0
    for position, (kind, value) in enumerate(classified):
        if kind == "slice":
            _slice_axis(plan, axis, value, shape[axis])
            axis += 1
        elif kind == "int":
            n = shape[axis]
            if not -n <= value < n:
                raise IndexError(f"index {value} is out of bounds for axis {axis} with size {n}")
            value %= n
            if advanced:
                positions.append(position)
                plan.groups.append(("int", len(plan.shape), axis, value))
                plan.shape.append(n)
            else:
                plan.starts[axis], plan.limits[axis], plan.sliced[axis] = value, value + 1, 1
            axis += 1
        elif kind == "new":
            plan.shape.append(1)
        elif kind == "array":
            positions.append(position)
            plan.groups.append(("array", len(plan.shape), axis, value))
            plan.shape.append(shape[axis])
            axis += 1
        elif kind == "mask":
            positions.append(position)
            k = value.ndim
            for j, m in enumerate(value.shape):
                # NumPy skips the check for empty boolean axes
                if m and m != shape[axis + j]:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {axis + j}; size of "
                        f"axis is {shape[axis + j]} but size of corresponding boolean axis is {m}"
                    )
            plan.groups.append(("mask", len(plan.shape), axis, value))
            plan.shape.extend(shape[axis : axis + k] if k else (1,))  # a 0-d mask adds an axis of 1
            axis += k
        elif kind == "ellipsis":
            for _ in range(ndim - consumed):
                plan.shape.append(shape[axis])
                axis += 1
    plan.adjacent = not positions or positions[-1] - positions[0] == len(positions) - 1
    plan.copy = full_integer or (zero_d_int and not advanced)
    plan.element = full_integer
    first = classified[0]
    plan.whole_mask = len(items) == 1 and first[0] == "mask" and first[1].shape == tuple(shape)
    return plan


def _ints_and_slices(items, shape):
    """The common key made only of ints and slices, planned without classification; else None."""
    plan = Plan(len(shape))
    plan.limits = list(shape)
    plan.sliced = list(shape)
    axis = 0
    for item in items:
        t = type(item)
        if t is int:
            n = shape[axis]
            if not -n <= item < n:
                raise IndexError(f"index {item} is out of bounds for axis {axis} with size {n}")
            item %= n
            plan.starts[axis], plan.limits[axis], plan.sliced[axis] = item, item + 1, 1
        elif t is slice:
            _slice_axis(plan, axis, item, shape[axis])
        else:
            return None
        axis += 1
    plan.shape.extend(shape[axis:])
    plan.copy = plan.element = plan.shape == [] and len(items) == len(shape)
    return plan


def _slice_axis(plan, axis, item, n):
    start, stop, step = item.indices(n)
    count = len(range(start, stop, step))
    if count == 0:
        lo, hi, stride = 0, 0, 1
    else:
        stride = abs(step)
        lo = start if step > 0 else start + (count - 1) * step
        hi = lo + (count - 1) * stride + 1
        if step < 0 and count > 1:
            plan.rev.append(axis)
    plan.starts[axis], plan.limits[axis], plan.strides[axis] = lo, hi, stride
    plan.sliced[axis] = count
    plan.shape.append(count)


def apply_basic(value, shape, plan):
    """The basic stage: one slice, one rev, one reshape (each skipped when it would change nothing).

    In eager mode the reference rules return NumPy views: the result aliases `value` as in NumPy."""
    if plan.sliced != list(shape) or any(plan.starts):
        value = bind(
            slice_p,
            value,
            start_indices=tuple(plan.starts),
            limit_indices=tuple(plan.limits),
            strides=tuple(plan.strides),
        )
    if plan.rev:
        value = bind(rev_p, value, dimensions=tuple(plan.rev))
    if plan.shape != plan.sliced:
        value = bind(reshape_p, value, new_sizes=tuple(plan.shape))
    return value


# -- advanced items --------------------------------------------------------------------------------


def _mask_indices(mask, traced):
    if traced and type(mask) is not Tracer:
        return np.nonzero(np.atleast_1d(mask))
    # eager: NumPy's nonzero; traced mask: nonzero_p's shape rule raises ShapeDependsOnDataError
    return bind(nonzero_p, mask)


def index_arrays(plan, shape, traced):
    """The advanced items as index arrays, one per indexed axis of the basic stage's result.

    Returns (axes, x_axes, arrays, broadcast shape): the axes of the basic stage's result and of x
    that each array indexes. Booleans become nonzero() arrays; concrete indices are bounds-checked
    here (NumPy's IndexError, naming x's axis), so nothing is written on error; traced ones are
    checked when the gather or scatter runs."""
    axes, x_axes, arrays, checks = [], [], [], []
    for kind, y_axis, x_axis, value in plan.groups:
        if kind == "mask":
            for j, part in enumerate(_mask_indices(value, traced)):
                axes.append(y_axis + j)
                x_axes.append(x_axis + j)
                arrays.append(part)
        else:
            axes.append(y_axis)
            x_axes.append(x_axis)
            arrays.append(value)
            if kind == "array" and type(value) is not Tracer:
                checks.append((value, x_axis))
    shapes = [shape_of(a) for a in arrays]
    try:
        broadcast = shapes[0] if len(set(shapes)) == 1 else np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError(
            "shape mismatch: indexing arrays could not be broadcast together with shapes "
            + " ".join(format_shape(s) for s in shapes)
        ) from None
    if 0 not in broadcast:
        for value, x_axis in checks:
            _check_bounds(value, x_axis, shape[x_axis])
    return axes, x_axes, arrays, broadcast


def _check_bounds(index, axis, n):
    """IndexError naming the first index outside [-n, n) (`index`: a NumPy array, or a device array read
    back to check it, as eager NumPy-style indexing must)."""
    index = host_values(index)
    if index.size == 0 or (index.min() >= -n and index.max() < n):
        return
    bad = index.ravel()
    first = bad[np.argmax((bad < -n) | (bad >= n))]
    raise IndexError(f"index {first} is out of bounds for axis {axis} with size {n}")


def gather_operands(arrays, x_axes, broadcast, traced, mode="raise"):
    """Index operands of one shape for gather/scatter, and its params.

    Mode "raise" (NumPy's: negatives wrap once, an index outside [-n, n) is an IndexError), eager
    and traced: a traced index is checked when the gather or scatter runs, and the error names x's
    axis (`axes`, given when it differs from the operand's own after the transpose)."""
    if not traced:
        return [
            a if shape_of(a) == broadcast else namespace_of((a,)).broadcast_to(a, broadcast)
            for a in arrays
        ], {"mode": mode}
    out = []
    for a in arrays:
        if type(a) is Tracer:
            a = convert_raw(a, np.int64)
        else:
            a = np.asarray(a, dtype=np.int64)
            a = a[()] if a.ndim == 0 else a
        out.append(broadcast_raw(a, broadcast))
    params = {"mode": mode}
    if list(x_axes) != list(range(len(x_axes))):
        params["axes"] = tuple(x_axes)
    return out, params


def advanced_layout(plan, axes, broadcast):
    """(perm, back): `perm` moves the indexed axes to the front for gather/scatter; `back` permutes
    the gathered (broadcast + rest) result into NumPy's order (None when it already is)."""
    rank = len(plan.shape)
    rest = [a for a in range(rank) if a not in axes]
    perm = axes + rest
    pre = axes[0]
    nb = len(broadcast)
    back = None
    if plan.adjacent and pre:
        back = (
            [nb + j for j in range(pre)] + list(range(nb)) + [nb + j for j in range(pre, len(rest))]
        )
    return perm, back


def transpose_raw(value, perm):
    if perm is None or list(perm) == list(range(len(perm))):
        return value
    return bind(transpose_p, value, permutation=tuple(perm))
