"""The reduction driver shared by the reductions family: NumPy's `ufunc.reduce` semantics (axes, dtype,
where=, initial=, keepdims, out=) around one reduce primitive, on raw operands (NumPy buffers or Tracers).

Every helper emits strict IR when tracing (one dtype and one shape per elementwise operand); eagerly the same
primitives run through their NumPy reference rules, so both modes compute the same values and dtypes.
"""

from __future__ import annotations

import operator
import warnings

import numpy as np

from arraystack._transforms.aliasing import has_aliases, rebind
from arraystack._core.array import ndarray, raw, wrap, wrap_scalar
from arraystack._creation.basic import asarray
from arraystack._core.dtypes import check_supported, holds_host
from arraystack._core.interop import call_host
from arraystack._core.shapes import normalize_axis
from arraystack._core.operands import broadcast_raw, convert_raw
from arraystack.ir.core import Tracer, active, bind, trace_state
from arraystack.ir.primitives import convert_p, div_p, select_p
from arraystack.ir.structural import full_p, reduce_sum_p, reshape_p

NoValue = np._NoValue


def keepdims_flag(keepdims) -> bool:
    """A reduction's `keepdims` as NumPy reads it: an integer (bool included), else TypeError."""
    if keepdims is NoValue:
        return False
    if type(keepdims) is bool:
        return keepdims
    if isinstance(keepdims, float):
        raise TypeError("integer argument expected, got float")
    return operator.index(keepdims) != 0
BOOL = np.dtype(bool)
INT64 = np.dtype(np.int64)  # numpy.intp: counts and indices
FLOAT64 = np.dtype(np.float64)

# add/multiply reductions and accumulations promote small integers (and bool) to the platform integer
SUM_DTYPES = {np.dtype(t): np.dtype(np.int_) for t in ("bool", "int8", "int16", "int32")}
SUM_DTYPES.update({np.dtype(t): np.dtype(np.uint) for t in ("uint8", "uint16", "uint32")})

_PY_SCALARS = (bool, int, float, complex)
_PY_SCALAR_TYPES = frozenset(_PY_SCALARS)
_divide_loops: dict = {}
_out_loops: dict = {}


def tracing() -> bool:
    return bool(active.n) and trace_state.top is not None


def as_array(a) -> ndarray:
    return a if type(a) is ndarray else asarray(a)


def is_concrete(x) -> bool:
    return type(x) is not Tracer


def as_dtype(x, dtype):
    """Raw `x` cast to `dtype` (NumPy's unsafe astype); scalars become NumPy scalars (IR Literals)."""
    if type(x) in _PY_SCALAR_TYPES:
        return convert_raw(x, dtype)
    if x.dtype == dtype:
        return x
    if isinstance(x, np.generic):
        return x.astype(dtype)
    return bind(convert_p, x, dtype=dtype)


def _shape(x) -> tuple:
    return () if type(x) in _PY_SCALAR_TYPES else x.shape


def _broadcast_together(operands):
    if not active.n or trace_state.top is None:
        return operands  # eager: NumPy broadcasts
    shapes = {_shape(x) for x in operands} - {()}
    if len(shapes) <= 1:
        return operands  # rank-0 operands broadcast implicitly in the IR
    shape = np.broadcast_shapes(*shapes)
    return [x if _shape(x) == () else broadcast_raw(x, shape) for x in operands]


def binary(prim, x, y, dtype):
    """prim(x, y) with both raw operands cast to `dtype` and broadcast together."""
    x, y = _broadcast_together([as_dtype(x, dtype), as_dtype(y, dtype)])
    return bind(prim, x, y)


def select(mask, on_true, on_false):
    """select(mask, on_true, on_false); a Python scalar branch takes the dtype of the other branch."""
    if type(on_true) in _PY_SCALAR_TYPES:
        on_true = as_dtype(on_true, on_false.dtype)
    else:
        on_false = as_dtype(on_false, on_true.dtype)
    mask, on_true, on_false = _broadcast_together([mask, on_true, on_false])
    return bind(select_p, mask, on_true, on_false)


def scalar(value, dtype):
    """A scalar operand (initial=, fills) as a NumPy scalar of `dtype`, converted the way NumPy converts
    Python objects: floats truncate into integer dtypes, out-of-range integers raise OverflowError."""
    if isinstance(value, ndarray):
        value = raw(value)
    if type(value) is Tracer:
        if value.shape != ():
            raise ValueError(f"expected a scalar, got an array of shape {value.shape}")
        return as_dtype(value, dtype)
    if not isinstance(value, _PY_SCALARS):
        value = np.asarray(value)
        if value.shape != ():
            raise ValueError(f"expected a scalar, got an array of shape {value.shape}")
        value = value[()]
    if dtype.kind in "iu" and isinstance(value, (float, np.floating)):
        value = int(value)
    return convert_raw(value, dtype)


def axes_of(axis, ndim) -> tuple:
    """`axis=` of a reduction as ufunc.reduce reads it (np.sum, np.max, np.mean, ...): None for all
    axes, an integer or a tuple of integers, each in range and none twice. Anything else is NumPy's
    TypeError: "'float' object cannot be interpreted as an integer" for 1.0, the same for a list,
    "an integer is required" for a bool."""
    if axis is None:
        return tuple(range(ndim))
    axes = []
    for ax in axis if type(axis) is tuple else (axis,):
        if isinstance(ax, (bool, np.bool_)):
            raise TypeError("an integer is required")
        axes.append(normalize_axis(operator.index(ax), ndim))  # operator.index: NumPy's TypeError
    if len(set(axes)) != len(axes):
        raise ValueError("duplicate value in 'axis'")
    return tuple(axes)


def arg_axis(axis, ndim) -> int:
    """One axis of an array; a 0-d array counts as 1-d, as NumPy's argmax/cumsum do."""
    return normalize_axis(axis, ndim if ndim else 1)


def reduced_size(shape, axes) -> int:
    n = 1
    for ax in axes:
        n *= shape[ax]
    return n


def kept_shape(shape, axes) -> tuple:
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def reduced_shape(shape, axes) -> tuple:
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def where_mask(where, shape):
    """The where= operand as a raw bool array broadcast to `shape` (NumPy's 'safe' cast to bool)."""
    w = raw(where) if isinstance(where, ndarray) else where
    if type(w) is Tracer or isinstance(w, (np.ndarray, np.generic)):
        if w.dtype != BOOL:
            raise TypeError(
                f"Cannot cast array data from dtype('{w.dtype}') to dtype('bool') according to the "
                "rule 'safe'"
            )
        if isinstance(w, np.generic):
            w = np.asarray(w)
    else:
        w = np.asarray(w, dtype=bool)
    if len(w.shape) > len(shape):
        raise ValueError("input operand has more dimensions than allowed by the axis remapping")
    return broadcast_raw(w, shape)


def reduce_raw(prim, name, x, axes, keepdims, initial, where, identity, combine):
    """NumPy's `ufunc.reduce` of raw `x` over `axes`.

    identity: the fill for masked-out elements, or None for reductions without one (maximum, minimum);
    combine: the binary primitive that folds `initial` into the result.
    """
    shape = x.shape
    empty = reduced_size(shape, axes) == 0
    if identity is None and initial is NoValue:
        if where is not True:
            raise ValueError(
                f"reduction operation '{name}' does not have an identity, so to use a where mask one "
                "has to specify 'initial'"
            )
        if empty:
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
    if where is not True:
        fill = identity if identity is not None else initial
        x = select(where_mask(where, shape), x, scalar(fill, x.dtype))
    if identity is None and empty:
        r = bind(full_p, scalar(initial, x.dtype), shape=reduced_shape(shape, axes), dtype=x.dtype)
    else:
        r = bind(prim, x, axes=axes)
    if initial is not NoValue:
        r = binary(combine, r, scalar(initial, x.dtype), x.dtype)
    if keepdims:
        r = bind(reshape_p, r, new_sizes=kept_shape(shape, axes))
    return r


def item_count(shape, axes, where, keepdims):
    """How many elements each reduction sees: a Python int, or an int64 array under a where= mask."""
    if where is True:
        return reduced_size(shape, axes)
    mask = as_dtype(where_mask(where, shape), INT64)
    count = bind(reduce_sum_p, mask, axes=axes)
    if keepdims:
        count = bind(reshape_p, count, new_sizes=kept_shape(shape, axes))
    return count


def out_loop(ufunc, dtype, out):
    """The loop dtype of `ufunc.reduce` into `out` when no dtype= is given: NumPy resolves it from out's
    dtype and the operand's (float32 data summed into a float64 out accumulates in float64)."""
    key = (ufunc, dtype, out.dtype)
    loop = _out_loops.get(key)
    if loop is None:
        operands = (out.dtype, dtype, None)
        loop = ufunc.resolve_dtypes(operands, reduction=True, casting="unsafe")[2]
        _out_loops[key] = loop
    return loop


def _divide_loop(num, den):
    key = (num, den)
    loop = _divide_loops.get(key)
    if loop is None:
        loop = _divide_loops[key] = np.true_divide.resolve_dtypes((num, den, None))[2]
    return loop


def divide_count(r, count):
    """r / count as NumPy's `true_divide(r, count, out=r, casting='unsafe')`: computed in the ufunc's loop
    dtype, cast back to r's dtype. `count` is a Python int, a NumPy number or a raw array."""
    rdtype = getattr(r, "dtype", None)
    if rdtype is None:  # the sum of an object array: a Python object, divided as NumPy's object loop does
        return r / count
    if type(count) is int:
        loop = _divide_loop(rdtype, INT64)
        count = loop.type(count)
    else:
        loop = _divide_loop(rdtype, count.dtype)
    return as_dtype(binary(div_p, r, count, loop), rdtype)


def ufunc_output_error(ufunc, dtype, out_dtype) -> TypeError:
    """NumPy's own exception (a TypeError subclass) for a `dtype` result of `ufunc` that cannot be
    cast into an `out_dtype` array under 'same_kind'; raised before any array is written."""
    try:
        ufunc(*[np.zeros(1, dtype)] * ufunc.nin, out=np.zeros(1, out_dtype))
    except TypeError as error:
        return error
    return TypeError(f"cannot cast ufunc '{ufunc.__name__}' output from {dtype} to {out_dtype}")


def warn(message, stacklevel=4):
    warnings.warn(message, RuntimeWarning, stacklevel=stacklevel)


def unpack_out(out):
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("return arrays must be of ArrayType (an arraystack.ndarray)")
    return out


def store(r, out, name="add"):
    """The raw result as an ndarray, or written into `out` (NumPy casts reduction results unsafely)."""
    if out is None:
        return wrap_scalar(r)
    out = unpack_out(out)
    shape = tuple(r.shape)
    if out.ndim != len(shape):
        raise ValueError(
            f"output parameter for reduction operation {name} has the wrong number of dimensions: "
            f"Found {out.ndim} but expected {len(shape)}"
        )
    if tuple(out.shape) != shape:
        raise ValueError(
            f"output parameter for reduction operation {name} has shape {tuple(out.shape)}, "
            f"expected {shape}"
        )
    return write(out, r)


def write(out, r):
    """Eager: copy `r` into out's buffer; traced: rebind `out` to `r` cast to its dtype."""
    target = out._value
    if type(target) is not Tracer and type(r) is not Tracer and not (active.n and has_aliases(out)):
        np.copyto(target, r, casting="unsafe")
    else:
        rebind(out, as_dtype(r, out.dtype), "a reduction's out=")
    return out


def result_dtype(dtype, default):
    return default if dtype is None else check_supported(dtype)


# -- the drivers behind the public reductions -------------------------------------------------------


def accumulating_reduce(
    prim, name, identity, combine, a, axis, dtype, out, keepdims, initial, where
):
    """sum and prod: small integers accumulate in the platform integer unless dtype= says otherwise."""
    if type(a) is not ndarray:
        a = asarray(a)
    if holds_host(a):
        options = {"dtype": dtype, "out": out, "keepdims": keepdims, "initial": initial, "where": where}
        return _host_reduction(name, a, axis, options)
    x = a._value
    axes = tuple(range(x.ndim)) if axis is None else axes_of(axis, x.ndim)
    if dtype is not None:
        x = as_dtype(x, check_supported(dtype))
    elif out is not None:
        out = unpack_out(out)
        x = as_dtype(x, out_loop(getattr(np, name), x.dtype, out))
    else:
        acc = SUM_DTYPES.get(x.dtype)
        if acc is not None:
            x = bind(convert_p, x, dtype=acc)
        if where is True and initial is NoValue and keepdims is False:
            return wrap_scalar(bind(prim, x, axes=axes))
    keepdims = keepdims_flag(keepdims)
    where = True if where is NoValue else where
    return store(
        reduce_raw(prim, name, x, axes, keepdims, initial, where, identity, combine), out, name
    )


def extreme_reduce(prim, name, combine, a, axis, out, keepdims, initial, where):
    """max and min: no identity, so empty reductions and where= need initial=."""
    if type(a) is not ndarray:
        a = asarray(a)
    if holds_host(a):
        options = {"out": out, "keepdims": keepdims, "initial": initial, "where": where}
        return _host_reduction(name, a, axis, options)
    x = a._value
    axes = tuple(range(x.ndim)) if axis is None else axes_of(axis, x.ndim)
    keepdims = keepdims_flag(keepdims)
    where = True if where is NoValue else where
    return store(
        reduce_raw(prim, name, x, axes, keepdims, initial, where, None, combine), out, name
    )


_HOST_REDUCTIONS = {"add": np.sum, "multiply": np.prod, "maximum": np.max, "minimum": np.min}


def _host_reduction(name, a, axis, options):
    """NumPy's own reduction of an array of a host dtype (objects: Fractions, Decimals, None; datetimes),
    eagerly: its result is NumPy's (an object array reduces to the Python object itself)."""
    given = {k: v for k, v in options.items() if v is not None and v is not NoValue}
    if given.get("where") is True:
        del given["where"]
    if given.get("keepdims") is False:
        del given["keepdims"]
    function = _HOST_REDUCTIONS[name]
    return call_host(function, (a, axis), given, f"numpy.{function.__name__}")


def arg_reduce(prim, name, a, axis, out, keepdims):
    """argmax/argmin: the first index of the extreme along one axis (of the flattened array if None)."""
    if type(a) is not ndarray:
        a = asarray(a)
    x = a._value
    shape = x.shape
    if axis is None:
        if len(shape) != 1:
            x = bind(reshape_p, x, new_sizes=(a.size,))
        ax = 0
        kshape = (1,) * len(shape)
    else:
        ax = arg_axis(axis, len(shape))
        if not shape:
            x = bind(reshape_p, x, new_sizes=(1,))
        kshape = kept_shape(shape, (ax,))
    if x.shape[ax] == 0:
        raise ValueError(f"attempt to get {name} of an empty sequence")
    r = bind(prim, x, axis=ax)
    if keepdims is not NoValue and keepdims:
        r = bind(reshape_p, r, new_sizes=kshape)
    if out is None:
        return wrap_scalar(r)
    out = unpack_out(out)
    check_arg_out(name, out, tuple(r.shape))
    return write(out, r)


def check_arg_out(name, out, shape) -> None:
    """NumPy's checks of argmax's (argmin's) `out`: the result's shape, an integer dtype."""
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"output array does not match result of np.{name}.")
    if out.dtype.kind not in "iu":
        raise TypeError(
            f"Cannot cast array data from dtype('{out.dtype}') to dtype('int64') according to the "
            "rule 'safe'"
        )
