"""Conversion rules of lax's shape, reduction, contraction, sorting and windowed primitives
(convention: interpreter.py).
"""

from __future__ import annotations

import numpy

from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.core import bind
from arraystack.ir.sorting import sort_p
from arraystack.jax_import.interpreter import JaxConversionError
from arraystack.jax_import.rules_math import const, convert, dtype_of

structural_rules: dict = {}


def broadcast(x, shape, dims):
    return bind(s.broadcast_in_dim_p, x, shape=tuple(shape), broadcast_dimensions=tuple(dims))


def reshape(x, shape):
    shape = tuple(int(d) for d in shape)
    return x if tuple(x.shape) == shape else bind(s.reshape_p, x, new_sizes=shape)


def transpose(x, permutation):
    permutation = tuple(int(a) for a in permutation)
    if permutation == tuple(range(len(permutation))):
        return x
    return bind(s.transpose_p, x, permutation=permutation)


def slice_axis(x, axis, start, stop, stride=1):
    starts = [0] * len(x.shape)
    limits = list(x.shape)
    strides = [1] * len(x.shape)
    starts[axis], limits[axis], strides[axis] = start, stop, stride
    return bind(
        s.slice_p,
        x,
        start_indices=tuple(starts),
        limit_indices=tuple(limits),
        strides=tuple(strides),
    )


structural_rules["broadcast_in_dim"] = lambda site, x, *dyn, shape, broadcast_dimensions, **k: (
    broadcast(x, shape, broadcast_dimensions)
)


def _reshape(site, x, *dyn, new_sizes, dimensions=None, **params):
    if dimensions is not None:
        x = transpose(x, dimensions)
    return reshape(x, new_sizes)


structural_rules["reshape"] = _reshape
structural_rules["squeeze"] = lambda site, x, **params: reshape(x, site.out_avals[0].shape)
structural_rules["transpose"] = lambda site, x, *, permutation, **params: transpose(x, permutation)
structural_rules["rev"] = lambda site, x, *, dimensions, **params: bind(
    s.rev_p, x, dimensions=tuple(dimensions)
)


def _slice(site, x, *, start_indices, limit_indices, strides=None, **params):
    strides = tuple(strides) if strides is not None else (1,) * len(start_indices)
    return bind(
        s.slice_p,
        x,
        start_indices=tuple(start_indices),
        limit_indices=tuple(limit_indices),
        strides=strides,
    )


structural_rules["slice"] = _slice


def _pad(site, x, value, *, padding_config, **params):
    """lax.pad allows negative low/high padding (cropping): pad with the non-negative parts, then
    slice the negative ones off."""
    config = [(max(lo, 0), max(hi, 0), interior) for lo, hi, interior in padding_config]
    x = bind(s.pad_p, x, value, padding_config=tuple(config))
    if any(lo < 0 or hi < 0 for lo, hi, _ in padding_config):
        starts = tuple(-min(lo, 0) for lo, _, _ in padding_config)
        limits = tuple(d + min(hi, 0) for d, (_, hi, _) in zip(x.shape, padding_config))
        x = bind(
            s.slice_p, x, start_indices=starts, limit_indices=limits, strides=(1,) * len(starts)
        )
    return x


structural_rules["pad"] = _pad
structural_rules["concatenate"] = lambda site, *xs, dimension, **params: bind(
    s.concatenate_p, *xs, dimension=dimension
)


def _split(site, x, *, sizes, axis, **params):
    outs, start = [], 0
    for size in sizes:
        outs.append(slice_axis(x, axis, start, start + int(size)))
        start += int(size)
    return outs


structural_rules["split"] = _split


def _tile(site, x, *, reps, **params):
    shape = tuple(x.shape)
    # (r0, d0, r1, d1, ...) repeats each axis whole, then merges the pairs
    grown = tuple(v for r, d in zip(reps, shape) for v in (int(r), d))
    dims = tuple(2 * k + 1 for k in range(len(shape)))
    return reshape(broadcast(x, grown, dims), site.out_avals[0].shape)


structural_rules["tile"] = _tile


def _reduction(prim, bool_only=False):
    def rule(site, x, *, axes, **params):
        if bool_only and dtype_of(x) != numpy.bool_:
            raise site.error(
                f"{site.name} of {dtype_of(x).name} (a bitwise reduction) has no arraystack "
                "primitive; only booleans reduce",
                JaxConversionError,
            )
        return bind(prim, x, axes=tuple(axes))

    return rule


structural_rules["reduce_sum"] = _reduction(s.reduce_sum_p)
structural_rules["reduce_prod"] = _reduction(s.reduce_prod_p)
structural_rules["reduce_max"] = _reduction(s.reduce_max_p)
structural_rules["reduce_min"] = _reduction(s.reduce_min_p)
structural_rules["reduce_and"] = _reduction(s.reduce_and_p, bool_only=True)
structural_rules["reduce_or"] = _reduction(s.reduce_or_p, bool_only=True)


def _reduce_xor(site, x, *, axes, **params):
    if dtype_of(x) != numpy.bool_:
        raise site.error(
            f"reduce_xor of {dtype_of(x).name} (a bitwise reduction) has no arraystack primitive; "
            "only booleans reduce",
            JaxConversionError,
        )
    count = bind(s.reduce_sum_p, convert(x, numpy.int64), axes=tuple(axes))
    return convert(bind(p.and_p, count, const(1, numpy.int64)), numpy.bool_)


structural_rules["reduce_xor"] = _reduce_xor

_MONOIDS = {  # the body's primitive -> (reduction, the binary primitive applying the init value)
    "add": (s.reduce_sum_p, p.add_p),
    "mul": (s.reduce_prod_p, p.mul_p),
    "max": (s.reduce_max_p, p.max_p),
    "min": (s.reduce_min_p, p.min_p),
    "and": (s.reduce_and_p, p.and_p),
    "or": (s.reduce_or_p, p.or_p),
}


def _reduce(site, *operands, computation=None, jaxpr, dimensions, **params):
    """lax.reduce with a body of one known monoid (add, mul, max, min, and, or) on one operand."""
    body = getattr(jaxpr, "jaxpr", jaxpr)
    name = body.eqns[0].primitive.name if len(body.eqns) == 1 else None
    if len(operands) != 2 or name not in _MONOIDS:
        raise site.error(
            "only single-operand reductions whose body is one add, mul, max, min, and or or convert",
            JaxConversionError,
        )
    reduction, combine = _MONOIDS[name]
    if name in ("and", "or") and dtype_of(operands[0]) != numpy.bool_:
        raise site.error(
            f"a bitwise `{name}` reduction has no arraystack primitive", JaxConversionError
        )
    x, init = operands
    return bind(combine, bind(reduction, x, axes=tuple(dimensions)), init)


structural_rules["reduce"] = _reduce


def _arg_reduction(prim):
    def rule(site, x, *, axes, index_dtype, **params):
        return convert(bind(prim, x, axis=int(axes[0])), index_dtype)

    return rule


structural_rules["argmax"] = _arg_reduction(s.argmax_p)
structural_rules["argmin"] = _arg_reduction(s.argmin_p)


def _cumulative(prim):
    return lambda site, x, *, axis, reverse=False, **params: bind(
        prim, x, axis=axis, reverse=bool(reverse)
    )


structural_rules["cumsum"] = _cumulative(s.cumsum_p)
structural_rules["cumprod"] = _cumulative(s.cumprod_p)
structural_rules["cummax"] = _cumulative(s.cummax_p)
structural_rules["cummin"] = _cumulative(s.cummin_p)


def _cumlogsumexp(site, x, *, axis, reverse=False, **params):
    """A running log-add-exp carried by arraystack.scan along the axis (exact at every step)."""
    import arraystack
    from arraystack._core.array import raw, wrap

    moved = transpose(x, [axis] + [a for a in range(len(x.shape)) if a != axis])

    def step(carry, value):
        top = arraystack.maximum(carry, value)
        safe = arraystack.where(arraystack.isinf(top), arraystack.zeros_like(top), top)
        total = arraystack.exp(carry - safe) + arraystack.exp(value - safe)
        out = arraystack.log(total) + safe
        return out, out

    start = arraystack.full(tuple(x.shape[:axis] + x.shape[axis + 1 :]), -numpy.inf, x.dtype)
    _, ys = arraystack.scan(step, start, wrap(moved), reverse=bool(reverse))
    back = list(range(1, len(x.shape)))
    back.insert(axis, 0)
    return transpose(raw(ys), back)


structural_rules["cumlogsumexp"] = _cumlogsumexp


def _dot_general(site, x, y, *, dimension_numbers, preferred_element_type=None, **params):
    out = numpy.dtype(site.out_avals[0].dtype)
    dtype = numpy.dtype(preferred_element_type) if preferred_element_type is not None else out
    (lc, rc), (lb, rb) = dimension_numbers
    numbers = ((tuple(lc), tuple(rc)), (tuple(lb), tuple(rb)))
    return bind(s.dot_general_p, convert(x, dtype), convert(y, dtype), dimension_numbers=numbers)


structural_rules["dot_general"] = _dot_general


def _sort(site, *operands, dimension, is_stable=True, num_keys=1, **params):
    # Note: NumPy's order (NaNs last, -0.0 equal to 0.0, ties stable) is lax's except that lax puts
    # -0.0 before 0.0.
    return bind(sort_p, *operands, dimension=dimension, num_keys=num_keys, kind="stable")


structural_rules["sort"] = _sort


def _top_k(site, x, *, k, axis=-1, **params):
    axis = axis % len(x.shape)
    index = bind(p.iota_p, dtype=numpy.dtype(numpy.int32), shape=tuple(x.shape), dimension=axis)
    # ascending by (value, -index) and then reversed: descending values, ties by lower index
    values, _, order = bind(
        sort_p, x, bind(p.neg_p, index), index, dimension=axis, num_keys=2, kind="stable"
    )
    values = slice_axis(bind(s.rev_p, values, dimensions=(axis,)), axis, 0, k)
    order = slice_axis(bind(s.rev_p, order, dimensions=(axis,)), axis, 0, k)
    return values, order


structural_rules["top_k"] = _top_k


def _conv_general_dilated(
    site,
    lhs,
    rhs,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    dimension_numbers,
    feature_group_count=1,
    batch_group_count=1,
    preferred_element_type=None,
    **params,
):
    from arraystack._core.array import raw, wrap
    from arraystack.nn.conv import conv

    if batch_group_count != 1:
        raise site.error("batch_group_count > 1 has no arraystack conv", JaxConversionError)
    if any(lo < 0 or hi < 0 for lo, hi in padding):
        raise site.error(f"negative padding {padding} has no arraystack conv", JaxConversionError)
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    lhs = transpose(lhs, lhs_spec)  # (N, C, *spatial)
    rhs = transpose(rhs, rhs_spec)  # (O, I, *spatial)
    if any(d != 1 for d in lhs_dilation):
        zero = const(0, lhs.dtype)
        config = ((0, 0, 0), (0, 0, 0)) + tuple((0, 0, d - 1) for d in lhs_dilation)
        lhs = bind(s.pad_p, lhs, zero, padding_config=config)
    y = conv(
        wrap(lhs),
        wrap(rhs),
        strides=tuple(window_strides),
        padding=[tuple(q) for q in padding],
        dilation=tuple(rhs_dilation),
        groups=feature_group_count,
    )
    return transpose(raw(y), numpy.argsort(out_spec))


structural_rules["conv_general_dilated"] = _conv_general_dilated


def _reduce_window(prim, pad_value):
    def rule(
        site,
        x,
        *,
        window_dimensions,
        window_strides,
        padding,
        base_dilation=None,
        window_dilation=None,
        **params,
    ):
        ndim = len(x.shape)
        base = tuple(base_dilation or (1,) * ndim)
        dilation = tuple(window_dilation or (1,) * ndim)
        fill = const(pad_value(dtype_of(x)), x.dtype)
        config = tuple((lo, hi, b - 1) for (lo, hi), b in zip(padding, base))
        x = _pad(site, x, fill, padding_config=config)
        out_shape = tuple(site.out_avals[0].shape)
        acc = None
        for offsets in numpy.ndindex(*window_dimensions):
            starts = tuple(o * d for o, d in zip(offsets, dilation))
            limits = tuple(
                st + (n - 1) * w + 1 for st, n, w in zip(starts, out_shape, window_strides)
            )
            view = bind(
                s.slice_p,
                x,
                start_indices=starts,
                limit_indices=limits,
                strides=tuple(window_strides),
            )
            acc = view if acc is None else bind(prim, acc, view)
        return acc

    return rule


def _lowest(dtype):
    return (
        -numpy.inf if dtype.kind == "f" else numpy.iinfo(dtype).min if dtype.kind in "iu" else False
    )


def _highest(dtype):
    return (
        numpy.inf if dtype.kind == "f" else numpy.iinfo(dtype).max if dtype.kind in "iu" else True
    )


structural_rules["reduce_window_sum"] = _reduce_window(p.add_p, lambda dtype: 0)
structural_rules["reduce_window_max"] = _reduce_window(p.max_p, _lowest)
structural_rules["reduce_window_min"] = _reduce_window(p.min_p, _highest)


def _fft(site, x, *, fft_type, fft_lengths, **params):
    from arraystack.ir.fft import fft_p

    kind = str(getattr(fft_type, "name", fft_type)).lower().split(".")[-1]
    lengths = tuple(int(n) for n in fft_lengths)
    axes = tuple(range(len(x.shape) - len(lengths), len(x.shape)))
    # lax's inverse transforms divide by n, as NumPy's "backward" norm does
    return bind(fft_p, x, fft_type=kind, axes=axes, lengths=lengths, norm="backward")


structural_rules["fft"] = _fft


def _stack(site, *xs, axis, **params):
    shape = tuple(site.out_avals[0].shape)
    one = shape[:axis] + (1,) + shape[axis + 1 :]
    return bind(s.concatenate_p, *(reshape(x, one) for x in xs), dimension=axis)


def _unstack(site, x, *, axis, **params):
    return [
        reshape(slice_axis(x, axis, k, k + 1), aval.shape) for k, aval in enumerate(site.out_avals)
    ]


structural_rules["stack"] = _stack
structural_rules["unstack"] = _unstack


def _optimization_barrier(site, *xs, **params):
    from arraystack.ir.control import barrier_p

    return bind(barrier_p, *xs)


structural_rules["optimization_barrier"] = _optimization_barrier


def _cholesky(site, a, **params):
    from arraystack.ir.linalg import cholesky_p

    # Note: NumPy's factorization raises on a matrix that is not positive definite, where lax's
    # returns NaNs.
    return bind(cholesky_p, a, upper=False)


structural_rules["cholesky"] = _cholesky
