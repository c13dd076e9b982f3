"""reference_rules: the eager evaluation of every primitive, and the oracle that backends are tested against.

Convention: `reference_rules[p](xp, *operands, **params)`, where `xp` is the array module of the operands
(numpy on the host, cupy on a GPU). Rules are the IR's definition of meaning; they also accept what NumPy
accepts (mixed dtypes, broadcastable shapes), because the eager frontend passes operands straight through.
"""

from __future__ import annotations

import math

import numpy as np

from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.avals import bfloat16

_FLOAT32 = np.dtype(np.float32)

reference_rules: dict = {}


def _ufunc_rule(name):
    host_fn = getattr(np, name)

    def rule(xp, *args):
        if xp is np:
            return host_fn(*args)
        return getattr(xp, name)(*args)

    rule.__name__ = f"reference_{name}"
    return rule


_UFUNC_NAMES = {
    p.neg_p: "negative",
    p.abs_p: "absolute",
    p.sign_p: "sign",
    p.floor_p: "floor",
    p.ceil_p: "ceil",
    p.trunc_p: "trunc",
    p.rint_p: "rint",
    p.exp_p: "exp",
    p.exp2_p: "exp2",
    p.expm1_p: "expm1",
    p.log_p: "log",
    p.log2_p: "log2",
    p.log10_p: "log10",
    p.log1p_p: "log1p",
    p.sqrt_p: "sqrt",
    p.cbrt_p: "cbrt",
    p.sin_p: "sin",
    p.cos_p: "cos",
    p.tan_p: "tan",
    p.asin_p: "arcsin",
    p.acos_p: "arccos",
    p.atan_p: "arctan",
    p.sinh_p: "sinh",
    p.cosh_p: "cosh",
    p.tanh_p: "tanh",
    p.asinh_p: "arcsinh",
    p.acosh_p: "arccosh",
    p.atanh_p: "arctanh",
    p.isnan_p: "isnan",
    p.isinf_p: "isinf",
    p.isfinite_p: "isfinite",
    p.signbit_p: "signbit",
    p.not_p: "invert",
    p.conj_p: "conjugate",
    p.real_p: "real",
    p.imag_p: "imag",
    p.popcount_p: "bitwise_count",
    p.add_p: "add",
    p.sub_p: "subtract",
    p.mul_p: "multiply",
    p.div_p: "true_divide",
    p.floordiv_p: "floor_divide",
    p.rem_p: "remainder",
    p.fmod_p: "fmod",
    p.pow_p: "power",
    p.max_p: "maximum",
    p.min_p: "minimum",
    p.atan2_p: "arctan2",
    p.hypot_p: "hypot",
    p.nextafter_p: "nextafter",
    p.copysign_p: "copysign",
    p.and_p: "bitwise_and",
    p.or_p: "bitwise_or",
    p.xor_p: "bitwise_xor",
    p.shift_left_p: "left_shift",
    p.shift_right_p: "right_shift",
    p.gcd_p: "gcd",
    p.eq_p: "equal",
    p.ne_p: "not_equal",
    p.lt_p: "less",
    p.le_p: "less_equal",
    p.gt_p: "greater",
    p.ge_p: "greater_equal",
    p.ldexp_p: "ldexp",
    p.frexp_p: "frexp",
}
for _prim, _name in _UFUNC_NAMES.items():
    reference_rules[_prim] = _ufunc_rule(_name)

# The host (NumPy) callable behind each ufunc rule, for eager fast paths that already know their operands
# live on the host: calling it is exactly calling reference_rules[p](numpy, ...).
host_rules: dict = {prim: getattr(np, name) for prim, name in _UFUNC_NAMES.items()}


def _logistic(xp, x):
    one = xp.asarray(1, dtype=xp.result_type(x))
    if xp.result_type(x).kind == "c":  # 1 / (1 + exp(-z)), holomorphic; no real-line symmetry to use
        return one / (one + xp.exp(-x))
    # exp of a non-positive argument only, so neither branch overflows
    e = xp.exp(-xp.abs(x))
    return xp.where(x >= 0, one / (one + e), e / (one + e))


reference_rules[p.logistic_p] = _logistic

_erf_object = np.frompyfunc(math.erf, 1, 1)


def _erf(xp, x):
    host = np.asarray(x if xp is np else xp.asnumpy(x))
    out = np.asarray(_erf_object(host)).astype(host.dtype)  # frompyfunc gives a bare float for 0-d input
    return out if xp is np else xp.asarray(out)


reference_rules[p.erf_p] = _erf
reference_rules[p.stop_gradient_p] = lambda xp, x: x
reference_rules[p.checkpoint_name_p] = lambda xp, x, name=None: x
reference_rules[p.copy_p] = lambda xp, x: xp.array(x, copy=True)
reference_rules[p.select_p] = lambda xp, pred, on_true, on_false: xp.where(pred, on_true, on_false)


def _convert(xp, x, *, dtype, weak_type=False):
    if isinstance(x, (bool, int, float, complex)):
        return xp.asarray(x).astype(dtype)
    return x.astype(dtype, copy=False)


reference_rules[p.convert_p] = _convert


def _iota(xp, *, dtype, shape, dimension):
    ramp = xp.arange(shape[dimension], dtype=dtype)
    if len(shape) == 1:
        return ramp
    out = xp.empty(shape, dtype)
    out[...] = ramp.reshape(tuple(n if i == dimension else 1 for i, n in enumerate(shape)))
    return out


reference_rules[p.iota_p] = _iota


def _full(xp, value, *, shape, dtype):
    if type(value) is int:  # the common zeros()/ones() fill, first
        return xp.zeros(shape, dtype) if value == 0 else xp.full(shape, value, dtype)
    if not isinstance(value, (bool, int, float, complex)):
        value = value[()] if getattr(value, "ndim", 0) == 0 else value
    zero = isinstance(value, (bool, int, float)) and value == 0
    if zero and not (isinstance(value, float) and math.copysign(1.0, value) < 0):  # -0.0: full()
        return xp.zeros(shape, dtype)
    return xp.full(shape, value, dtype)


reference_rules[s.full_p] = _full

# -- shape ----------------------------------------------------------------------------------------------------

def _reshape(xp, x, *, new_sizes):
    # the method skips NumPy's function dispatch (a few microseconds per eager call)
    return x.reshape(new_sizes) if type(x) is np.ndarray else xp.reshape(x, new_sizes)


reference_rules[s.reshape_p] = _reshape


def _broadcast_in_dim(xp, x, *, shape, broadcast_dimensions):
    x = xp.asarray(x)
    expanded = [1] * len(shape)
    for i, d in enumerate(broadcast_dimensions):
        expanded[d] = x.shape[i]
    return xp.broadcast_to(x.reshape(expanded), shape)


reference_rules[s.broadcast_in_dim_p] = _broadcast_in_dim
def _transpose(xp, x, *, permutation):
    return x.transpose(permutation) if type(x) is np.ndarray else xp.transpose(x, permutation)


reference_rules[s.transpose_p] = _transpose


def _slice(xp, x, *, start_indices, limit_indices, strides):
    return x[tuple(slice(lo, hi, st) for lo, hi, st in zip(start_indices, limit_indices, strides))]


reference_rules[s.slice_p] = _slice


def _update_slice(xp, x, v, *, start_indices, limit_indices, strides):
    out = xp.asarray(x).copy()
    out[tuple(slice(lo, hi, st) for lo, hi, st in zip(start_indices, limit_indices, strides))] = v
    return out


reference_rules[s.update_slice_p] = _update_slice


def _bitcast(xp, x, *, dtype):
    dtype = np.dtype(dtype)
    x = xp.asarray(x)
    have, want = x.dtype.itemsize, dtype.itemsize
    if have == want:
        return x.view(dtype)
    if have > want:  # each element becomes a last axis of have // want narrower ones
        return xp.ascontiguousarray(x).reshape(x.shape + (1,)).view(dtype)
    return xp.ascontiguousarray(x).view(dtype).reshape(x.shape[:-1])


reference_rules[s.bitcast_p] = _bitcast
reference_rules[s.rev_p] = lambda xp, x, *, dimensions: xp.flip(x, dimensions) if dimensions else x
reference_rules[s.concatenate_p] = lambda xp, *xs, dimension: xp.concatenate(xs, axis=dimension)


def _pad(xp, x, value, *, padding_config):
    x = xp.asarray(x)
    shape = tuple(
        lo + hi + d + max(d - 1, 0) * interior for d, (lo, hi, interior) in zip(x.shape, padding_config)
    )
    out = xp.full(shape, value, dtype=x.dtype)
    window = tuple(
        slice(lo, lo + d + max(d - 1, 0) * interior, interior + 1)
        for d, (lo, hi, interior) in zip(x.shape, padding_config)
    )
    out[window] = x
    return out


reference_rules[s.pad_p] = _pad

# -- indexing -------------------------------------------------------------------------------------------------


def _out_of_bounds(xp, x, indices, mode, axes):
    """The error for the first index outside its axis (axis by axis, then in C order, as NumPy reports),
    or None when every index lies inside."""
    for k, i in enumerate(indices):
        n = x.shape[k]
        i = xp.asarray(i)
        bad = (i < (0 if mode in s.RANGE_ERRORS else -n)) | (i >= n)
        if bool(bad.any()):
            if mode in s.RANGE_ERRORS:
                return ValueError(s.RANGE_ERRORS[mode])
            first = int(i.ravel()[int(bad.ravel().argmax())])
            axis = k if axes is None else axes[k]
            return IndexError(f"index {first} is out of bounds for axis {axis} with size {n}")
    return None


def _checked(xp, x, indices, mode, axes):
    """The index tuple for NumPy's indexing of `x` under `mode` (see structural.py). A bounds check that
    NumPy's indexing does not do itself (choose's and sorter's range, or any on a device array module)
    is one min/max per index array."""
    if mode == "clip":
        out = []
        for axis, i in enumerate(indices):
            n = x.shape[axis]
            i = xp.where(i < 0, i + n, i)
            out.append(xp.clip(i, 0, max(n - 1, 0)))
        return tuple(out)
    if mode in s.RANGE_ERRORS or xp is not np:
        for axis, i in enumerate(indices):
            n = x.shape[axis]
            low = 0 if mode in s.RANGE_ERRORS else -n
            if i.size and (int(i.min()) < low or int(i.max()) >= n):
                raise _out_of_bounds(xp, x, indices, mode, axes)
    return tuple(indices)


def _indexed(xp, x, indices, mode, axes, action):
    """`action(index)` on NumPy's index tuple. With mode "raise" on the host NumPy checks the bounds as it
    indexes; its IndexError is re-raised naming the user's axis (`axes`) instead of the operand's."""
    index = _checked(xp, x, indices, mode, axes)
    try:
        return action(index)
    except IndexError as e:
        error = _out_of_bounds(xp, x, indices, mode, axes)
        if error is None:
            raise
        raise error from None


def _gather(xp, x, *indices, mode, axes=None):
    return _indexed(xp, x, indices, mode, axes, lambda index: x[index])


reference_rules[s.gather_p] = _gather

_SCATTER_UFUNCS = {"add": "add", "mul": "multiply", "min": "minimum", "max": "maximum"}


def scatter_into(xp, out, updates, *indices, mode, update, axes=None):
    """The scatter written into `out`: the operand's copy (the reference rule), or the operand itself
    where a plan may overwrite it."""

    def write(index):
        if update == "set":
            out[index] = updates
        else:
            getattr(xp, _SCATTER_UFUNCS[update]).at(out, index, updates)

    _indexed(xp, out, indices, mode, axes, write)
    return out


def _scatter(xp, x, updates, *indices, **params):
    return scatter_into(xp, xp.array(x, copy=True), updates, *indices, **params)  # x as it was on error


reference_rules[s.scatter_p] = _scatter


def _nonzero(xp, x, *, size=None, fill_value=0):
    found = xp.nonzero(xp.atleast_1d(x))
    if size is None:
        return found
    out = []
    for idx in found:
        padded = xp.full((size,), fill_value, dtype=np.int64)
        n = min(size, idx.shape[0])
        padded[:n] = idx[:n]
        out.append(padded)
    return tuple(out)


reference_rules[s.nonzero_p] = _nonzero

# -- reductions and scans -------------------------------------------------------------------------------------


_REDUCE_UFUNCS = {"sum": "add", "prod": "multiply", "max": "maximum", "min": "minimum"}
_REDUCE_UFUNCS.update({"all": "logical_and", "any": "logical_or"})


def _reduction_rule(name):
    # ufunc.reduce in the operand's own dtype (the frontend casts first); skips numpy.sum's wrapper
    host_reduce = getattr(np, _REDUCE_UFUNCS[name]).reduce

    def rule(xp, x, *, axes):
        axes = axes if type(axes) is tuple else tuple(axes)
        if xp is np:
            if type(x) is not np.ndarray:
                x = np.asarray(x)
            dtype = x.dtype
            if dtype == bfloat16 and name in ("sum", "prod"):
                # accumulated in float32 and rounded once (NumPy with ml_dtypes accumulates in
                # bfloat16, where a sum of more than 256 ones stays 256), as JAX does
                return host_reduce(x, axis=axes, dtype=_FLOAT32).astype(bfloat16)
            # NumPy takes no dtype= with a unit or a length (datetime64[D], <U3): those reduce in
            # their own dtype (or raise NumPy's error)
            return host_reduce(x, axis=axes, dtype=dtype if dtype.kind not in "mMUS" else None)
        x = xp.asarray(x)
        return getattr(xp, name)(x, axis=axes, **({"dtype": x.dtype} if name in ("sum", "prod") else {}))

    return rule


reference_rules[s.reduce_sum_p] = _reduction_rule("sum")
reference_rules[s.reduce_prod_p] = _reduction_rule("prod")
reference_rules[s.reduce_max_p] = _reduction_rule("max")
reference_rules[s.reduce_min_p] = _reduction_rule("min")
reference_rules[s.reduce_and_p] = _reduction_rule("all")
reference_rules[s.reduce_or_p] = _reduction_rule("any")
reference_rules[s.argmax_p] = lambda xp, x, *, axis: xp.asarray(x).argmax(axis=axis)
reference_rules[s.argmin_p] = lambda xp, x, *, axis: xp.asarray(x).argmin(axis=axis)


def _cumulative_rule(accumulate):
    def rule(xp, x, *, axis, reverse=False):
        x = xp.asarray(x)
        if reverse:
            x = xp.flip(x, axis)
        out = accumulate(xp, x, axis)
        return xp.flip(out, axis) if reverse else out

    return rule



def _accumulate(host_accumulate, name):
    def accumulate(xp, x, axis):
        if x.dtype == bfloat16:  # accumulated in float32, each result rounded once (see sum)
            return host_accumulate(x, axis, dtype=_FLOAT32).astype(bfloat16)
        return (host_accumulate if xp is np else getattr(xp, name))(x, axis, dtype=x.dtype)

    return accumulate


reference_rules[s.cumsum_p] = _cumulative_rule(_accumulate(np.add.accumulate, "cumsum"))
reference_rules[s.cumprod_p] = _cumulative_rule(_accumulate(np.multiply.accumulate, "cumprod"))
reference_rules[s.cummax_p] = _cumulative_rule(lambda xp, x, axis: xp.maximum.accumulate(x, axis))
reference_rules[s.cummin_p] = _cumulative_rule(lambda xp, x, axis: xp.minimum.accumulate(x, axis))

# -- contraction ----------------------------------------------------------------------------------------------


def _is_matmul_layout(nx, ny, lc, rc, lb, rb) -> bool:
    """Whether dot_general is exactly xp.matmul(x, y): leading batch axes, or matmul's 1-d promotion."""
    if len(lc) != 1 or len(rc) != 1:
        return False
    if not lb and not rb:
        if nx == 1:
            return lc[0] == 0 and rc[0] == max(ny - 2, 0)
        return lc[0] == nx - 1 and rc[0] == 0 and (ny == 1 or (nx == 2 and ny == 2))
    nb = len(lb)
    return (
        nx == ny == nb + 2
        and lc[0] == nx - 1
        and rc[0] == nb
        and tuple(lb) == tuple(rb) == tuple(range(nb))
    )


def _dot_general(xp, x, y, *, dimension_numbers):
    (lc, rc), (lb, rb) = dimension_numbers
    if _is_matmul_layout(x.ndim, y.ndim, lc, rc, lb, rb):  # the common case, without transposes
        out = xp.matmul(x, y)
        if not hasattr(out, "dtype"):  # object arrays: NumPy's 0-d result is the Python object
            return xp.asarray(out, dtype=object)
        if out.dtype is not x.dtype and x.dtype == bfloat16:
            out = out.astype(bfloat16)  # ml_dtypes' matmul is float32's: rounded once, as in JAX
        return out if out.ndim else xp.asarray(out)
    if not lb and x.ndim == y.ndim == 2 and len(lc) == 1:  # a transposed operand: matmul of .T views
        a, b = (x.T if lc[0] == 0 else x), (y.T if rc[0] == 1 else y)
        out = xp.matmul(a, b)
        return out.astype(bfloat16) if out.dtype is not x.dtype and x.dtype == bfloat16 else out
    lfree = [i for i in range(x.ndim) if i not in lc and i not in lb]
    rfree = [i for i in range(y.ndim) if i not in rc and i not in rb]
    batch = [x.shape[i] for i in lb]
    m = math.prod(x.shape[i] for i in lfree)
    k = math.prod(x.shape[i] for i in lc)
    n = math.prod(y.shape[i] for i in rfree)
    a = xp.transpose(x, list(lb) + lfree + list(lc)).reshape(batch + [m, k])
    b = xp.transpose(y, list(rb) + list(rc) + rfree).reshape(batch + [k, n])
    out = xp.matmul(a, b)
    if out.dtype is not x.dtype and x.dtype == bfloat16:
        out = out.astype(bfloat16)  # see above
    return out.reshape(batch + [x.shape[i] for i in lfree] + [y.shape[i] for i in rfree])


reference_rules[s.dot_general_p] = _dot_general


def dot_general_is_matmul(eqn) -> bool:
    """Whether this dot_general equation is exactly xp.matmul of its operands, with an array result (a
    plan may then call matmul itself: no layout test per call). Not for bfloat16, whose matmul NumPy
    with ml_dtypes computes as float32's."""
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    nx, ny = (len(x.aval.shape) for x in eqn.inputs)
    if eqn.outputs[0].aval.dtype == bfloat16:
        return False
    return bool(eqn.outputs[0].aval.shape) and _is_matmul_layout(nx, ny, lc, rc, lb, rb)


def _complex(xp, re, im):
    real_dtype = xp.result_type(re, im)
    dtype = xp.complex64 if real_dtype in (xp.float16, xp.float32) else xp.complex128
    out = xp.empty(xp.broadcast_shapes(xp.shape(re), xp.shape(im)), dtype)
    out.real = re
    out.imag = im
    return out


reference_rules[p.complex_p] = _complex
