"""Functionalized assignment: the new value of x after `x[key] = v` or `x.real = v` inside a trace.

Basic keys update a window (update_slice, which a plan may run in x's own buffer); advanced keys
scatter into a transposed view of the basic stage's result; a traced boolean mask selects. Every check runs before the caller rebinds x, so an error leaves x unchanged.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from arraystack._core.array import ndarray
from arraystack._indexing.keys import (
    advanced_layout,
    apply_basic,
    format_shape,
    gather_operands,
    index_arrays,
    make_plan,
    transpose_raw,
)
from arraystack._core.operands import broadcast_raw, convert_raw, shape_of
from arraystack.ir.control import barrier_p
from arraystack.ir.core import (
    ShapeDependsOnDataError,
    Tracer,
    TracerError,
    bind,
    concretization_message,
    device_namespaces,
)
from arraystack.ir.primitives import complex_p, copy_p, imag_p, real_p, select_p
from arraystack.ir.structural import (
    broadcast_in_dim_p,
    update_slice_p,
    reshape_p,
    rev_p,
    scatter_p,
)

_SCALARS = (bool, int, float, complex, np.generic)


def cast_value(value, dtype, as_array=False):
    """`value` as a raw operand of `dtype`, converted as NumPy's assignment converts it (or, with
    `as_array`, as the .real/.imag setters do: to an array first, then cast unsafely)."""
    if isinstance(value, ndarray):
        v = value._value
    elif type(value) is Tracer:
        v = value
    elif as_array:
        try:
            v = np.asarray(value)
        except TracerError:
            from arraystack._creation.basic import asarray

            v = asarray(value)._value
    elif isinstance(value, _SCALARS):
        # NumPy's scalar assignment: OverflowError for 300 into int8, ValueError for NaN into ints
        probe = np.empty((), dtype)
        probe[()] = value
        return probe[()]
    elif isinstance(value, np.ndarray) or type(value) in device_namespaces:
        v = value  # a NumPy array, or a device's (cupy's): cast below
    else:
        try:  # sequences convert straight to the target dtype, as in NumPy
            v = np.asarray(value, dtype=dtype)
        except TracerError:
            from arraystack._creation.basic import asarray

            v = asarray(value)._value
    if type(v) is not Tracer:
        return v.astype(dtype, copy=False)  # unsafe casting; NumPy warns for complex -> real
    if v.dtype == dtype:
        return v
    if v.dtype.kind == "c" and dtype.kind != "c":
        warnings.warn(
            "Casting complex values to real discards the imaginary part",
            np.exceptions.ComplexWarning,
            stacklevel=5,
        )
        v = bind(real_p, v)
    return convert_raw(v, dtype)


def _is_sequence(value):
    return isinstance(value, (list, tuple))


def _check_sequence_rank(vshape, rank):
    """NumPy converts a sequence value with at most the target's rank."""
    if len(vshape) > rank:
        raise ValueError(
            "setting an array element with a sequence. The requested array would exceed the "
            f"maximum number of dimension of {rank}."
        )


def broadcast_value(v, target, sequence=False):
    """`v` broadcast to `target` as NumPy's assignment does (leading axes of 1 may be dropped, except
    from a value given as a Python sequence)."""
    target = tuple(target)
    vshape = shape_of(v)
    if sequence:
        _check_sequence_rank(vshape, len(target))
    stripped = vshape
    while len(stripped) > len(target) and stripped[0] == 1:
        stripped = stripped[1:]
    if len(stripped) > len(target) or any(
        d != 1 and d != t for d, t in zip(reversed(stripped), reversed(target))
    ):
        raise ValueError(
            f"could not broadcast input array from shape {format_shape(vshape)} into shape "
            f"{format_shape(target)}"
        )
    if stripped != vshape:
        v = bind(reshape_p, v, new_sizes=stripped)
    return broadcast_raw(v, target)


def updated(xv, key, value):
    """The value of x after `x[key] = value` (x's raw value is `xv`)."""
    shape, dtype = tuple(xv.shape), np.dtype(xv.dtype)
    plan = make_plan(key, shape)
    v = _element_value(value, dtype) if plan.element else cast_value(value, dtype)
    if plan.whole_mask:
        _check_whole_mask_value(shape_of(v), plan.groups[0][3])
    sequence = _is_sequence(value)
    groups = plan.groups
    if not groups:
        new = _update_basic(xv, shape, plan, broadcast_value(v, plan.shape, sequence))
    elif len(groups) == 1 and groups[0][0] == "mask" and type(groups[0][3]) is Tracer:
        new = _update_masked(xv, shape, plan, v, sequence)
    else:
        new = _update_advanced(xv, shape, plan, v, sequence)
    return new if type(new) is Tracer else bind(copy_p, new)


def _check_whole_mask_value(vshape, mask):
    """NumPy's rules for x[mask] = v with one boolean index of x's shape."""
    if len(vshape) > 1:
        raise TypeError(
            "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input "
            f"has {len(vshape)} dimensions"
        )
    if vshape and vshape[0] != 1 and type(mask) is not Tracer:
        selected = int(np.count_nonzero(mask))
        if vshape[0] != selected:
            raise ValueError(
                f"NumPy boolean array indexing assignment cannot assign {vshape[0]} input values to "
                f"the {selected} output values where the mask is true"
            )


def _element_value(value, dtype):
    """The value for a single-element assignment (every axis indexed by an integer)."""
    concrete = value._value if isinstance(value, ndarray) else value
    if type(concrete) is not Tracer:
        try:
            probe = np.empty((), dtype)
            probe[()] = concrete  # NumPy's own element assignment, with its per-dtype rules
            return probe[()]
        except TracerError:  # a sequence holding traced values
            pass
    v = cast_value(value, dtype)
    vshape = shape_of(v)
    if vshape == ():
        return v
    if dtype.kind == "c":  # NumPy's rules, as the probe above applies them to concrete values
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    if dtype.kind == "b" and math.prod(vshape) == 1:  # the truth value of a one-element array
        return bind(reshape_p, v, new_sizes=())
    raise ValueError("setting an array element with a sequence.")


def _update_basic(xv, shape, plan, v):
    """x with the basic stage's result (`v`, of shape plan.shape) written into its window."""
    sliced = plan.sliced
    if 0 in sliced:  # nothing written, but x was written to (a read-only x still refuses it, as NumPy)
        return bind(copy_p, xv)
    if plan.shape != sliced:
        v = bind(reshape_p, v, new_sizes=tuple(sliced))
    if plan.rev:
        v = bind(rev_p, v, dimensions=tuple(plan.rev))
    if sliced == list(shape) and not any(plan.starts):
        return v
    return bind(
        update_slice_p,
        xv,
        v,
        start_indices=tuple(plan.starts),
        limit_indices=tuple(plan.limits),
        strides=tuple(plan.strides),
    )


def _inverse(perm):
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return inverse


def _update_advanced(xv, shape, plan, v, sequence):
    y = apply_basic(xv, shape, plan)
    axes, x_axes, arrays, broadcast = index_arrays(plan, shape, True)
    indices, params = gather_operands(arrays, x_axes, broadcast, True)
    perm, back = advanced_layout(plan, axes, broadcast)
    layout = tuple(broadcast) + tuple(plan.shape[a] for a in perm[len(axes) :])
    v = broadcast_value(v, tuple(layout[i] for i in back) if back else layout, sequence)
    if 0 in broadcast:  # no index to write (nor to check, as in NumPy), but still a write: a new
        return bind(copy_p, xv)  # value, so jit refuses a read-only argument as NumPy does
    if back:
        v = transpose_raw(v, _inverse(back))
    # Note: with repeated indices the last update wins, as in NumPy (and the reference rule);
    # a backend that scatters in parallel must keep that order to match.
    y = bind(scatter_p, transpose_raw(y, perm), v, *indices, update="set", **params)
    if 0 in plan.sliced:
        # nothing is written, but NumPy still checks the indices: the barrier keeps the scatter (and
        # its check) alive, where a result that does not read it would let dead-code elimination drop it
        return bind(barrier_p, xv, y)[0]
    return _update_basic(xv, shape, plan, transpose_raw(y, _inverse(perm)))


def _update_masked(xv, shape, plan, v, sequence):
    """x[..., mask, ...] = v with a traced mask: select(mask, v, x), when v does not need the number
    of selected elements (a scalar, or a value broadcasting along the masked axes)."""
    _, y_axis, _, mask = plan.groups[0]
    span = max(mask.ndim, 1)  # a 0-d mask occupies one inserted axis of size 1
    before, after = plan.shape[:y_axis], plan.shape[y_axis + span :]
    vshape = shape_of(v)
    rank = len(before) + 1 + len(after)
    if sequence:
        _check_sequence_rank(vshape, rank)
    stripped = vshape
    while len(stripped) > rank and stripped[0] == 1:
        stripped = stripped[1:]
    full = (1,) * (rank - len(stripped)) + tuple(stripped)
    if len(full) != rank or full[len(before)] != 1:
        raise ShapeDependsOnDataError(
            concretization_message(
                f"boolean-mask assignment of a value of shape {format_shape(vshape)} was made with",
                mask.aval,
                "The number of selected elements depends on the data, so the value must broadcast "
                "without it (e.g. a scalar); or use arraystack.where(mask, value, x).",
            )
        )
    v = bind(reshape_p, v, new_sizes=full[: len(before)] + (1,) * span + full[len(before) + 1 :])
    v = broadcast_value(v, plan.shape)
    if mask.ndim == 0:
        mask = bind(reshape_p, mask, new_sizes=(1,))
    dims = tuple(range(y_axis, y_axis + span))
    mask = bind(broadcast_in_dim_p, mask, shape=tuple(plan.shape), broadcast_dimensions=dims)
    y = bind(select_p, mask, v, apply_basic(xv, shape, plan))
    return _update_basic(xv, shape, plan, y)


# -- .real / .imag setters -------------------------------------------------------------------------


def updated_part(xv, part, value):
    """The value of x after `x.real = value` or `x.imag = value`."""
    dtype = np.dtype(xv.dtype)
    if part not in ("real", "imag"):
        raise ValueError(f"part must be 'real' or 'imag', got {part!r}")
    if dtype.kind != "c":
        if part == "imag":
            raise TypeError("array does not have imaginary part to set")
        new = broadcast_value(cast_value(value, dtype, as_array=True), xv.shape)
        return new if type(new) is Tracer else bind(copy_p, new)
    part_dtype = np.dtype(np.float32 if dtype == np.complex64 else np.float64)
    v = broadcast_value(cast_value(value, part_dtype, as_array=True), xv.shape)
    if part == "real":
        return bind(complex_p, v, bind(imag_p, xv))
    return bind(complex_p, bind(real_p, xv), v)
