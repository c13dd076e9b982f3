"""Structural primitives: shape, indexing, reductions, scans and contraction, each declared once.

Same table and convention as primitives.py. Params are plain hashable data (ints, tuples, dtypes, strings).
Their results are strongly typed: NumPy's functions that reshape, index, reduce or join make a
Python scalar an array first (np.sum(5) is an np.int64, np.reshape(5, 1) an int64 array), so no weak
type survives them.
"""

from __future__ import annotations

import numpy as np

from arraystack.ir.avals import ShapedArray, kind_of
from arraystack.ir.core import Primitive, ShapeDependsOnDataError, concretization_message
from arraystack.ir.primitives import abstract_eval_rules


def _check_axes(name, aval, axes):
    ndim = len(aval.shape)
    for ax in axes:
        if not 0 <= ax < ndim:
            raise ValueError(f"{name}: axis {ax} out of range for operand {aval.str_short()}")
    if len(set(axes)) != len(axes):
        raise ValueError(f"{name}: repeated axis in {axes}")


def _strong(x):
    """x's aval without a weak type (see the module docstring)."""
    return ShapedArray(x.shape, x.dtype) if x.weak_type else x


full_p = Primitive("full")  # full[shape, dtype] value: a new array filled with the scalar operand


def _full_rule(value, *, shape, dtype):
    if value.shape != ():
        raise ValueError(f"full needs a scalar fill value, got {value.str_short()}")
    return ShapedArray(tuple(shape), np.dtype(dtype))


abstract_eval_rules[full_p] = _full_rule

# -- shape ----------------------------------------------------------------------------------------------------

reshape_p = Primitive("reshape")  # reshape[new_sizes]: row-major (C order)


def _reshape_rule(x, *, new_sizes):
    n = 1
    negative = False
    for d in new_sizes:
        n *= d
        negative = negative or d < 0
    if negative or n != x.size:
        raise ValueError(f"cannot reshape array of size {x.size} into shape {tuple(new_sizes)}")
    return ShapedArray(tuple(new_sizes), x.dtype)


abstract_eval_rules[reshape_p] = _reshape_rule

broadcast_in_dim_p = Primitive("broadcast_in_dim")  # operand dim i -> result dim broadcast_dimensions[i]


def _broadcast_in_dim_rule(x, *, shape, broadcast_dimensions):
    xshape = x.shape
    if len(broadcast_dimensions) != len(xshape):
        raise ValueError(f"broadcast_in_dim: {x.str_short()} needs {x.ndim} broadcast_dimensions")
    rank = len(shape)
    increasing, previous = True, -1
    for i, d in enumerate(broadcast_dimensions):
        if not 0 <= d < rank or xshape[i] not in (1, shape[d]):
            raise ValueError(f"operand {x.str_short()} cannot be broadcast to shape {tuple(shape)}")
        increasing = increasing and d >= previous  # as list(dims) == sorted(dims)
        previous = d
    if not increasing:
        raise ValueError("broadcast_in_dim: broadcast_dimensions must be increasing")
    return ShapedArray(tuple(shape), x.dtype)


abstract_eval_rules[broadcast_in_dim_p] = _broadcast_in_dim_rule

transpose_p = Primitive("transpose")  # transpose[permutation]


def _transpose_rule(x, *, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise ValueError(f"transpose: {permutation} is not a permutation of the axes of {x.str_short()}")
    return ShapedArray(tuple(x.shape[p] for p in permutation), x.dtype)


abstract_eval_rules[transpose_p] = _transpose_rule

slice_p = Primitive("slice")  # slice[start_indices, limit_indices, strides]: positive strides only


def _slice_rule(x, *, start_indices, limit_indices, strides):
    if not len(start_indices) == len(limit_indices) == len(strides) == x.ndim:
        raise ValueError(f"slice of {x.str_short()} needs one start/limit/stride per axis")
    shape = []
    for d, lo, hi, st in zip(x.shape, start_indices, limit_indices, strides):
        if not (0 <= lo <= hi <= d) or st < 1:
            raise ValueError(f"slice [{lo}:{hi}:{st}] out of range for axis of size {d}")
        shape.append(max(0, -(-(hi - lo) // st)))
    return ShapedArray(tuple(shape), x.dtype)


abstract_eval_rules[slice_p] = _slice_rule

# update_slice[start_indices, limit_indices, strides] x v: x with x[start:limit:stride] = v, the slice's
# window (as slice_p's) replaced by v of the window's shape and x's dtype. A basic-index write under a
# trace (`x[i] = v`); the numba plan writes into x's buffer where x dies there (backends/updates.py).
update_slice_p = Primitive("update_slice")


def _update_slice_rule(x, v, *, start_indices, limit_indices, strides):
    window = _slice_rule(x, start_indices=start_indices, limit_indices=limit_indices, strides=strides)
    if v.dtype != x.dtype or tuple(v.shape) != tuple(window.shape):
        raise TypeError(
            f"update_slice of {x.str_short()} needs a value of the window's shape and dtype "
            f"{window.str_short()}, got {v.str_short()}"
        )
    return _strong(x)


abstract_eval_rules[update_slice_p] = _update_slice_rule

# bitcast[dtype] x: x's bits read as `dtype` (NumPy's view as another dtype). A narrower dtype adds a last
# axis of itemsize ratio r (x's shape + (r,)); a wider one takes x's last axis, which must be r, away.
bitcast_p = Primitive("bitcast")


def _bitcast_rule(x, *, dtype):
    dtype = np.dtype(dtype)
    have, want = x.dtype.itemsize, dtype.itemsize
    if dtype.kind not in "biufc" or x.dtype.kind not in "biufcV":
        raise TypeError(f"bitcast of {x.str_short()} to {dtype.name}: only numeric and bool values")
    if have == want:
        return ShapedArray(tuple(x.shape), dtype)
    if have > want:
        if have % want:
            raise ValueError(f"bitcast of {x.str_short()} to {dtype.name}: {have} bytes are not whole {want}s")
        return ShapedArray(tuple(x.shape) + (have // want,), dtype)
    if want % have or not x.shape or x.shape[-1] != want // have:
        raise ValueError(
            f"bitcast of {x.str_short()} to {dtype.name} needs a last axis of {want // max(have, 1)} elements"
        )
    return ShapedArray(tuple(x.shape[:-1]), dtype)


abstract_eval_rules[bitcast_p] = _bitcast_rule

rev_p = Primitive("rev")  # rev[dimensions]: reverse the order along those axes


def _rev_rule(x, *, dimensions):
    _check_axes("rev", x, dimensions)
    return _strong(x)


abstract_eval_rules[rev_p] = _rev_rule

concatenate_p = Primitive("concatenate")  # concatenate[dimension] *operands


def _concatenate_rule(*xs, dimension):
    if not xs:
        raise ValueError("need at least one array to concatenate")
    first = xs[0]
    for x in xs:
        if x.dtype != first.dtype or x.ndim != first.ndim:
            raise TypeError(f"concatenate operands differ: {first.str_short()} vs {x.str_short()}")
        for ax, (a, b) in enumerate(zip(first.shape, x.shape)):
            if ax != dimension and a != b:
                raise ValueError(
                    "all the input array dimensions except for the concatenation axis must match "
                    f"exactly, but along dimension {ax} they are {a} and {b}"
                )
    if not 0 <= dimension < first.ndim:
        raise ValueError(f"concatenate: axis {dimension} out of range for {first.str_short()}")
    shape = list(first.shape)
    shape[dimension] = sum(x.shape[dimension] for x in xs)
    return ShapedArray(tuple(shape), first.dtype)


abstract_eval_rules[concatenate_p] = _concatenate_rule

pad_p = Primitive("pad")  # pad[padding_config=((lo, hi, interior), ...)] operand padding_value; lo/hi >= 0


def _pad_rule(x, value, *, padding_config):
    if value.shape != () or value.dtype != x.dtype:
        raise TypeError(f"pad value must be a scalar of {x.dtype.name}, got {value.str_short()}")
    if len(padding_config) != x.ndim:
        raise ValueError(f"pad of {x.str_short()} needs one (lo, hi, interior) per axis")
    shape = []
    for d, (lo, hi, interior) in zip(x.shape, padding_config):
        if lo < 0 or hi < 0 or interior < 0:
            raise ValueError("pad widths must be non-negative")
        shape.append(lo + hi + d + max(d - 1, 0) * interior)
    return ShapedArray(tuple(shape), x.dtype)


abstract_eval_rules[pad_p] = _pad_rule

# -- indexing -------------------------------------------------------------------------------------------------
# NumPy advanced indexing on the leading axes: `gather(x, i0, ..., ik-1)` is x[i0, ..., ik-1] with index arrays
# of one shape B, so the result is B + x.shape[k:]. The frontend moves indexed axes to the front.
# mode (what an index outside its axis does; no mode is silent unless asked for):
#   "raise"   NumPy's indexing: negatives wrap once, an index outside [-n, n) raises IndexError("index 7 is out
#             of bounds for axis 1 with size 5") when the equation runs, eager or compiled (the default);
#   "choose"  numpy.choose's check: an index outside [0, n) raises ValueError("invalid entry in choice array");
#   "sorter"  numpy.searchsorted's check of sorter=: the same with ValueError("Sorter index out of range.");
#   "bincount" numpy.bincount's check: the same with ValueError("'list' argument must have no negative
#             elements") (the frontend sends values past the last bin to an extra one);
#   "clip"    negatives wrap once, then the index is clamped into [0, n): for indices in range by construction,
#             or a caller that asked for clamping (take(..., mode="clip") clips in the frontend first).
# axes (optional): for each index array, the axis of the user's array it indexes, which the error names (the
# frontend transposes indexed axes to the front); None for an index that cannot fail (vmap's batch iota).
# Without it the error names the operand's own axis.
RANGE_ERRORS = {  # the modes that check [0, n), each with the ValueError message NumPy raises
    "choose": "invalid entry in choice array",
    "sorter": "Sorter index out of range.",
    "bincount": "'list' argument must have no negative elements",
}
GATHER_MODES = ("raise", *RANGE_ERRORS, "clip")


def _index_shape(name, x, indices, mode, axes):
    if not indices or len(indices) > x.ndim:
        raise IndexError(f"{name}: {len(indices)} index arrays for operand {x.str_short()}")
    if mode not in GATHER_MODES:
        raise ValueError(f"{name} mode must be one of {GATHER_MODES}, got {mode!r}")
    if axes is not None and len(axes) != len(indices):
        raise ValueError(f"{name}: axes {axes} name {len(axes)} axes for {len(indices)} index arrays")
    shapes = {i.shape for i in indices}
    for i in indices:
        if i.dtype.kind not in "iu":
            raise IndexError(f"{name}: index arrays must be integers, got {i.str_short()}")
    if len(shapes) != 1:
        raise ValueError(f"{name}: index arrays must share one shape, got {sorted(shapes)}")
    return shapes.pop() + x.shape[len(indices) :]


gather_p = Primitive("gather")  # gather[mode, axes?] x *indices


def _gather_rule(x, *indices, mode, axes=None):
    return ShapedArray(_index_shape("gather", x, indices, mode, axes), x.dtype)


abstract_eval_rules[gather_p] = _gather_rule

scatter_p = Primitive("scatter")  # scatter[update, mode, axes?] x updates *indices; update: SCATTER_UPDATES
SCATTER_UPDATES = ("set", "add", "mul", "min", "max")


def _scatter_rule(x, updates, *indices, mode, update, axes=None):
    if update not in SCATTER_UPDATES:
        raise ValueError(f"scatter update must be one of {SCATTER_UPDATES}, got {update!r}")
    shape = _index_shape("scatter", x, indices, mode, axes)
    if updates.shape != shape or updates.dtype != x.dtype:
        raise ValueError(f"scatter updates {updates.str_short()} do not match {shape} of {x.dtype.name}")
    return _strong(x)


abstract_eval_rules[scatter_p] = _scatter_rule

nonzero_p = Primitive("nonzero", multiple_results=True)  # one int64 index array per axis


def _nonzero_rule(x, *, size=None, fill_value=0):
    if size is None:
        raise ShapeDependsOnDataError(
            concretization_message(
                "nonzero (or boolean-mask indexing) was called on",
                x,
                "Its output shape depends on the data. Pass size= (arraystack.nonzero(x, size=n)) or "
                "use arraystack.where(mask, x, other) to keep the shape fixed.",
            )
        )
    return tuple(ShapedArray((size,), np.dtype(np.int64)) for _ in range(max(x.ndim, 1)))


abstract_eval_rules[nonzero_p] = _nonzero_rule

# -- reductions and scans -------------------------------------------------------------------------------------


def _reduction(name, kinds):
    prim = Primitive(name)

    def rule(x, *, axes):
        if kind_of(x.dtype) not in kinds:
            raise TypeError(f"{name} does not accept dtype {x.dtype.name}")
        _check_axes(name, x, axes)
        shape = tuple([d for i, d in enumerate(x.shape) if i not in axes])
        return ShapedArray(shape, x.dtype)

    abstract_eval_rules[prim] = rule
    return prim


reduce_sum_p = _reduction("reduce_sum", "biufc")
reduce_prod_p = _reduction("reduce_prod", "biufc")
reduce_max_p = _reduction("reduce_max", "biufc")
reduce_min_p = _reduction("reduce_min", "biufc")
reduce_and_p = _reduction("reduce_and", "b")
reduce_or_p = _reduction("reduce_or", "b")


def _arg_reduction(name):
    prim = Primitive(name)

    def rule(x, *, axis):
        _check_axes(name, x, (axis,))
        return ShapedArray(x.shape[:axis] + x.shape[axis + 1 :], np.dtype(np.int64))

    abstract_eval_rules[prim] = rule
    return prim


argmax_p = _arg_reduction("argmax")  # first occurrence; a NaN counts as the maximum, as in NumPy
argmin_p = _arg_reduction("argmin")


def _cumulative(name):
    prim = Primitive(name)

    def rule(x, *, axis, reverse=False):
        _check_axes(name, x, (axis,))
        return _strong(x)

    abstract_eval_rules[prim] = rule
    return prim


cumsum_p = _cumulative("cumsum")
cumprod_p = _cumulative("cumprod")
cummax_p = _cumulative("cummax")
cummin_p = _cumulative("cummin")

# -- contraction ----------------------------------------------------------------------------------------------

dot_general_p = Primitive("dot_general")
# dot_general[dimension_numbers=((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))] lhs rhs
# result dims: batch, lhs free, rhs free (JAX's convention). Operands share one dtype.


def _dot_general_rule(x, y, *, dimension_numbers):
    (lc, rc), (lb, rb) = dimension_numbers
    if x.dtype != y.dtype:
        raise TypeError(f"dot_general operands differ in dtype: {x.str_short()} vs {y.str_short()}")
    if len(lc) != len(rc) or len(lb) != len(rb):
        raise ValueError(f"dot_general: mismatched dimension_numbers {dimension_numbers}")
    x_axes, y_axes = tuple(lc) + tuple(lb), tuple(rc) + tuple(rb)  # contracted or batch
    _check_axes("dot_general", x, x_axes)
    _check_axes("dot_general", y, y_axes)
    xshape, yshape = x.shape, y.shape
    for a, b in zip(x_axes, y_axes):
        if xshape[a] != yshape[b]:
            raise ValueError(
                f"dot_general: size mismatch {x.str_short()} axis {a} vs {y.str_short()} axis {b}"
            )
    batch = tuple([xshape[a] for a in lb])
    lfree = tuple([d for i, d in enumerate(xshape) if i not in x_axes])
    rfree = tuple([d for i, d in enumerate(yshape) if i not in y_axes])
    return ShapedArray(batch + lfree + rfree, x.dtype)


abstract_eval_rules[dot_general_p] = _dot_general_rule
