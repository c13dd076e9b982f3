"""ONNX lowerings of the structural primitives: shapes, indexing, reductions, scans, contraction, sort.

Same convention as export_elementwise.py: `structural_rules[p](b, eqn, *inputs) -> name(s)`. Sizes are
read through `b.params(eqn)`, where a size that follows a dynamic axis is a dims.Dim, and through
Shape nodes at run time wherever a rule needs an operand's size, so every lowering keeps dynamic axes.
"""

from __future__ import annotations

import numpy as np

from arraystack.ir import linalg as la
from arraystack.ir import primitives as p
from arraystack.ir import sorting as so
from arraystack.ir import structural as s
from arraystack.ir.fft import fft_p
from arraystack.onnx.dims import Unresolved
from arraystack.onnx.errors import ExportError

structural_rules: dict = {}
_I64 = np.int64


def _rank(eqn, i=0) -> int:
    return len(eqn.inputs[i].aval.shape)


def _full(b, eqn, value):
    return b.op("Expand", [value, b.ints(b.params(eqn)["shape"])])


def _iota(b, eqn):
    params = b.params(eqn)
    shape, dim, dtype = params["shape"], params["dimension"], np.dtype(params["dtype"])
    n = b.ints([shape[dim]])
    ramp = b.op("Range", [b.scalar(0, _I64), b.op("Squeeze", [n, b.ints([0])]), b.scalar(1, _I64)])
    others = [a for a in range(len(shape)) if a != dim]
    if others:
        ramp = b.op("Unsqueeze", [ramp, b.ints(others)])
        ramp = b.op("Expand", [ramp, b.ints(shape)])
    return b.cast(ramp, dtype)


def _reshape(b, eqn, x):
    sizes = list(b.params(eqn)["new_sizes"])
    unknown = [i for i, v in enumerate(sizes) if isinstance(v, Unresolved)]
    if len(unknown) == 1:
        sizes[unknown[0]] = -1  # Reshape infers the one size no affine form describes
        return b.op("Reshape", [x, b.ints(sizes)])
    allowzero = int(any(v == 0 for v in sizes if isinstance(v, int)))
    return b.op("Reshape", [x, b.ints(sizes)], allowzero=allowzero)


def _broadcast_in_dim(b, eqn, x):
    params = b.params(eqn)
    shape, dims = params["shape"], params["broadcast_dimensions"]
    missing = [a for a in range(len(shape)) if a not in dims]
    if missing:
        x = b.op("Unsqueeze", [x, b.ints(missing)])
    return b.op("Expand", [x, b.ints(shape)])


def _slice(b, eqn, x):
    params = b.params(eqn)
    n = len(params["start_indices"])
    return b.op(
        "Slice",
        [
            x,
            b.ints(params["start_indices"]),
            b.ints(params["limit_indices"]),
            b.ints(range(n)),
            b.ints(params["strides"]),
        ],
    )


def _rev(b, eqn, x):
    axes = tuple(eqn.params["dimensions"])
    if not axes:
        return b.op("Identity", [x])
    k = len(axes)
    ends = [np.iinfo(np.int64).min] * k
    return b.op("Slice", [x, b.ints([-1] * k), b.ints(ends), b.ints(axes), b.ints([-1] * k)])


def _pad(b, eqn, x, value):
    config = b.params(eqn)["padding_config"]
    if any(interior for _, _, interior in config):
        raise ExportError("pad with interior padding: ONNX Pad has no interior padding")
    pads = [lo for lo, _, _ in config] + [hi for _, hi, _ in config]
    return b.op("Pad", [x, b.ints(pads), value], mode="constant")


def _update_slice(b, eqn, x, v):
    """ScatterND of v at the window's coordinates: per axis a Range of the window's positions,
    broadcast to v's shape, stacked on a last axis."""
    params = b.params(eqn)
    rank = len(params["start_indices"])
    if rank == 0:
        return b.op("Identity", [v])
    window = b.op("Shape", [v])
    zero = b.ints([0])
    columns = []
    for axis, bounds in enumerate(
        zip(params["start_indices"], params["limit_indices"], params["strides"])
    ):
        start, limit, stride = (b.op("Squeeze", [b.ints([n]), zero]) for n in bounds)
        ramp = b.op("Range", [start, limit, stride])
        others = [a for a in range(rank) if a != axis]
        if others:
            ramp = b.op("Unsqueeze", [ramp, b.ints(others)])
        ramp = b.op("Expand", [ramp, window])
        columns.append(b.op("Unsqueeze", [ramp, b.ints([-1])]))
    index = columns[0] if rank == 1 else b.op("Concat", columns, axis=-1)
    return b.op("ScatterND", [x, index, v])


structural_rules[s.full_p] = _full
structural_rules[p.iota_p] = _iota
structural_rules[s.reshape_p] = _reshape
structural_rules[s.broadcast_in_dim_p] = _broadcast_in_dim
structural_rules[s.transpose_p] = lambda b, eqn, x: b.op(
    "Transpose", [x], perm=list(eqn.params["permutation"])
)
structural_rules[s.slice_p] = _slice
structural_rules[s.rev_p] = _rev
structural_rules[s.concatenate_p] = lambda b, eqn, *xs: b.op(
    "Concat", list(xs), axis=eqn.params["dimension"]
)
structural_rules[s.pad_p] = _pad
structural_rules[s.update_slice_p] = _update_slice


def _bitcast(b, eqn, x):
    from onnx import helper

    src, dst = eqn.inputs[0].aval.dtype, eqn.outputs[0].aval.dtype
    if src.itemsize != dst.itemsize:
        raise ExportError(f"bitcast of {src.name} to {dst.name}: ONNX BitCast keeps the bit width")
    if "c" in (src.kind, dst.kind):
        raise ExportError("bitcast to or from complex: ONNX runtimes have no complex tensors")
    return b.op("BitCast", [x], to=helper.np_dtype_to_tensor_dtype(dst))


structural_rules[s.bitcast_p] = _bitcast

# -- indexing -------------------------------------------------------------------------------------


def _index_tuple(b, eqn, x, indices):
    """The int64 (*B, k) index tensor of GatherND/ScatterND, negatives wrapped (clamped for "clip")."""
    mode = eqn.params["mode"]
    columns = []
    for axis, i in enumerate(indices):
        i = b.cast(i, _I64)
        n = b.dim(x, axis)
        i = b.where(b.op("Less", [i, b.scalar(0, _I64)]), b.op("Add", [i, n]), i)
        if mode == "clip":
            top = b.op("Sub", [n, b.scalar(1, _I64)])
            i = b.op("Max", [b.op("Min", [i, top]), b.scalar(0, _I64)])
        columns.append(b.op("Unsqueeze", [i, b.ints([-1])]))
    return columns[0] if len(columns) == 1 else b.op("Concat", columns, axis=-1)


def _gather(b, eqn, x, *indices):
    return b.op("GatherND", [x, _index_tuple(b, eqn, x, indices)])


_REDUCTIONS = {"set": "none", "add": "add", "mul": "mul", "min": "min", "max": "max"}


def _scatter(b, eqn, x, updates, *indices):
    reduction = _REDUCTIONS[eqn.params["update"]]
    return b.op("ScatterND", [x, _index_tuple(b, eqn, x, indices), updates], reduction=reduction)


def _nonzero(b, eqn, x):
    params = b.params(eqn)
    size, fill = params["size"], params["fill_value"]
    if _rank(eqn) == 0:
        x = b.op("Unsqueeze", [x, b.ints([0])])
    found = b.op("NonZero", [x])  # (rank, count)
    rows = max(_rank(eqn), 1)
    filler = b.op("Expand", [b.scalar(fill, _I64), b.ints([rows, size])])
    padded = b.op("Concat", [found, filler], axis=1)
    kept = b.op("Slice", [padded, b.ints([0]), b.ints([size]), b.ints([1])])
    return [
        b.op(
            "Squeeze",
            [b.op("Slice", [kept, b.ints([r]), b.ints([r + 1]), b.ints([0])]), b.ints([0])],
        )
        for r in range(rows)
    ]


structural_rules[s.gather_p] = _gather
structural_rules[s.scatter_p] = _scatter
structural_rules[s.nonzero_p] = _nonzero

# -- reductions and scans -------------------------------------------------------------------------


def _reduce(op_type, bool_op=None):
    def rule(b, eqn, x):
        axes = list(eqn.params["axes"])
        dtype = eqn.inputs[0].aval.dtype
        if not axes:
            return b.op("Identity", [x])
        if dtype.kind == "b":  # any/all: the max/min of 0/1 values
            out = b.op(bool_op, [b.cast(x, np.int32), b.ints(axes)], keepdims=0)
            return b.cast(out, dtype)
        work = x
        if dtype.itemsize < 4 and dtype.kind in "iu":  # onnxruntime: 32/64-bit integer kernels
            work = b.cast(x, np.int64 if dtype.kind == "i" else np.uint32)
        out = b.op(op_type, [work, b.ints(axes)], keepdims=0)
        if work is not x:
            out = b.cast(out, dtype)
        if dtype.kind == "f" and op_type in ("ReduceMax", "ReduceMin"):  # NaN propagates
            nan = b.op(
                "ReduceMax", [b.cast(b.op("IsNaN", [x]), np.int32), b.ints(axes)], keepdims=0
            )
            out = b.where(b.cast(nan, np.bool_), b.scalar(np.nan, dtype), out)
        return out

    return rule


structural_rules[s.reduce_sum_p] = _reduce("ReduceSum", "ReduceMax")
structural_rules[s.reduce_prod_p] = _reduce("ReduceProd", "ReduceMin")
structural_rules[s.reduce_max_p] = _reduce("ReduceMax", "ReduceMax")
structural_rules[s.reduce_min_p] = _reduce("ReduceMin", "ReduceMin")
structural_rules[s.reduce_or_p] = _reduce(None, "ReduceMax")
structural_rules[s.reduce_and_p] = _reduce(None, "ReduceMin")


def _arg(op_type):
    def rule(b, eqn, x):
        axis = eqn.params["axis"]
        dtype = eqn.inputs[0].aval.dtype
        if dtype.kind == "b" or (dtype.kind in "iu" and dtype.itemsize < 4):
            x = b.cast(x, np.int32)
        out = b.op(op_type, [x], axis=axis, keepdims=0)
        if dtype.kind != "f":
            return out
        # NumPy: the first NaN wins
        nan = b.cast(b.op("IsNaN", [x]), np.int32)
        first_nan = b.op("ArgMax", [nan], axis=axis, keepdims=0)
        any_nan = b.cast(b.op("ReduceMax", [nan, b.ints([axis])], keepdims=0), np.bool_)
        return b.where(any_nan, first_nan, out)

    return rule


structural_rules[s.argmax_p] = _arg("ArgMax")
structural_rules[s.argmin_p] = _arg("ArgMin")


def _cumsum(b, eqn, x):
    axis, reverse = eqn.params["axis"], eqn.params.get("reverse", False)
    dtype = eqn.inputs[0].aval.dtype
    work = b.cast(x, np.int64) if dtype.kind in "biu" and dtype.itemsize < 4 else x
    out = b.op("CumSum", [work, b.scalar(axis, _I64)], reverse=int(bool(reverse)))
    return out if work is x else b.cast(out, dtype)


def _cumulative(combine, identity):
    """cumprod/cummax/cummin: a Scan along the axis whose body combines the carry with each slice;
    the carry starts as the operation's identity (1, the lowest value, the highest value)."""

    def rule(b, eqn, x):
        from onnx import helper

        axis, reverse = eqn.params["axis"], int(bool(eqn.params.get("reverse", False)))
        dtype = eqn.inputs[0].aval.dtype
        elem = helper.np_dtype_to_tensor_dtype(dtype)
        first = b.op("Slice", [x, b.ints([0]), b.ints([1]), b.ints([axis])])
        slice_shape = b.op("Shape", [b.op("Squeeze", [first, b.ints([axis])])])
        init = b.op("Expand", [b.scalar(identity(dtype), dtype), slice_shape])
        body = b.sub()
        carry_in, item = body.names.fresh("carry"), body.names.fresh("item")
        combined = combine(body, carry_in, item, dtype)
        carry_out = body.op("Identity", [combined])
        y = body.op("Identity", [combined])
        shape = [None] * (len(eqn.inputs[0].aval.shape) - 1)

        def info(name):
            return helper.make_tensor_value_info(name, elem, shape)

        graph = helper.make_graph(
            body.nodes,
            body.names.fresh("cumulative"),
            [info(carry_in), info(item)],
            [info(carry_out), info(y)],
        )
        _, out = b.op(
            "Scan",
            [init, x],
            outputs=2,
            body=graph,
            num_scan_inputs=1,
            scan_input_axes=[axis],
            scan_output_axes=[axis],
            scan_input_directions=[reverse],
            scan_output_directions=[reverse],
        )
        return out

    return rule


def _mul(b, carry, item, dtype):
    if dtype.kind == "b":
        return b.op("And", [carry, item])
    return b.op("Mul", [carry, item])


def _nan_extreme(op_type, bool_op):
    def combine(b, carry, item, dtype):
        if dtype.kind == "b":
            return b.op(bool_op, [carry, item])
        work = [carry, item]
        if dtype.kind in "iu" and dtype.itemsize == 2:  # onnxruntime has no 16-bit Max/Min
            work = [b.cast(n, np.int32) for n in work]
        out = b.op(op_type, work)
        if work[0] is not carry:
            out = b.cast(out, dtype)
        if dtype.kind == "f":
            nan = b.op("Or", [b.op("IsNaN", [carry]), b.op("IsNaN", [item])])
            out = b.where(nan, b.op("Add", [carry, item]), out)
        return out

    return combine


def _lowest(dtype):
    if dtype.kind == "b":
        return False
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _highest(dtype):
    if dtype.kind == "b":
        return True
    return np.inf if dtype.kind == "f" else np.iinfo(dtype).max


structural_rules[s.cumsum_p] = _cumsum
structural_rules[s.cumprod_p] = _cumulative(_mul, lambda dtype: 1)
structural_rules[s.cummax_p] = _cumulative(_nan_extreme("Max", "Or"), _lowest)
structural_rules[s.cummin_p] = _cumulative(_nan_extreme("Min", "And"), _highest)

# -- contraction ----------------------------------------------------------------------------------

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _dot_general(b, eqn, x, y):
    from arraystack.ir.reference import dot_general_is_matmul

    if dot_general_is_matmul(eqn):
        return b.op("MatMul", [x, y])
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    nx, ny = _rank(eqn, 0), _rank(eqn, 1)
    xs = list(_LETTERS[:nx])
    ys = list(_LETTERS[nx : nx + ny])
    for a, c in zip(lc, rc):
        ys[c] = xs[a]
    for a, c in zip(lb, rb):
        ys[c] = xs[a]
    batch = [xs[a] for a in lb]
    xfree = [xs[a] for a in range(nx) if a not in lc and a not in lb]
    yfree = [ys[a] for a in range(ny) if a not in rc and a not in rb]
    equation = f"{''.join(xs)},{''.join(ys)}->{''.join(batch + xfree + yfree)}"
    return b.op("Einsum", [x, y], equation=equation)


structural_rules[s.dot_general_p] = _dot_general
structural_rules[la.det_p] = lambda b, eqn, a: b.op("Det", [a])

# -- sorting --------------------------------------------------------------------------------------


def _sort_order(b, key, axis, dtype):
    """int64 indices that sort `key` along `axis`, ties in index order (TopK is stable), NaNs last."""
    work = key
    if dtype.kind == "b" or (dtype.kind in "iu" and dtype.itemsize < 4):
        work = b.cast(key, np.int32)
    elif dtype.kind == "u":
        work = b.cast(key, np.float64) if dtype.itemsize == 4 else key
    n = b.dim(key, axis)
    if dtype.kind == "f":  # NumPy sorts NaNs last: rank them by a second, stable pass
        _, order = b.op("TopK", [work, n], outputs=2, axis=axis, largest=0, sorted=1)
        nan = b.cast(b.op("GatherElements", [b.op("IsNaN", [key]), order], axis=axis), np.int32)
        _, again = b.op("TopK", [nan, n], outputs=2, axis=axis, largest=0, sorted=1)
        return b.op("GatherElements", [order, again], axis=axis)
    _, order = b.op("TopK", [work, n], outputs=2, axis=axis, largest=0, sorted=1)
    return order


def _sort(b, eqn, *operands):
    axis, num_keys = eqn.params["dimension"], eqn.params["num_keys"]
    avals = [x.aval for x in eqn.inputs]
    order = None  # lexicographic: stable sorts from the last key to the first
    for k in range(num_keys - 1, -1, -1):
        key = (
            operands[k]
            if order is None
            else b.op("GatherElements", [operands[k], order], axis=axis)
        )
        step = _sort_order(b, key, axis, avals[k].dtype)
        order = step if order is None else b.op("GatherElements", [order, step], axis=axis)
    return [b.op("GatherElements", [x, order], axis=axis) for x in operands]


def _searchsorted(b, eqn, a, v):
    # the count of a's elements ordered before each v (NumPy's order: NaNs last)
    dtype = eqn.inputs[0].aval.dtype
    rank = _rank(eqn, 1)
    column = b.op("Reshape", [a, b.ints([-1] + [1] * rank)])
    before = "Less" if eqn.params["side"] == "left" else "LessOrEqual"
    ordered = b.op(before, [column, v])
    if dtype.kind == "f":
        v_nan, a_nan = b.op("IsNaN", [v]), b.op("IsNaN", [column])
        if eqn.params["side"] == "left":
            ordered = b.op("Or", [ordered, b.op("And", [v_nan, b.op("Not", [a_nan])])])
        else:
            ordered = b.op("Or", [ordered, v_nan])
    return b.op("ReduceSum", [b.cast(ordered, _I64), b.ints([0])], keepdims=0)


structural_rules[so.sort_p] = _sort
structural_rules[so.searchsorted_p] = _searchsorted

unsupported = {
    so.partition_p: "NumPy's introselect order inside each part has no ONNX counterpart",
    so.argpartition_p: "NumPy's introselect order inside each part has no ONNX counterpart",
    fft_p: "the lowering to ONNX DFT is not written (and onnxruntime has no complex tensors)",
    la.cholesky_p: "ONNX has no Cholesky operator",
    la.solve_p: "ONNX has no linear-solve operator",
    la.slogdet_p: "ONNX has no slogdet operator",
    la.eigh_p: "ONNX has no eigendecomposition operator",
    la.eigvalsh_p: "ONNX has no eigendecomposition operator",
    la.eig_p: "ONNX has no eigendecomposition operator",
    la.eigvals_p: "ONNX has no eigendecomposition operator",
    la.svd_p: "ONNX has no SVD operator",
    la.svdvals_p: "ONNX has no SVD operator",
    la.qr_p: "ONNX has no QR operator",
    la.lstsq_p: "ONNX has no least-squares operator",
}

__all__ = ["structural_rules", "unsupported"]
