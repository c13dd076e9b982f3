"""Preparing raw operands for strict IR primitives: dtype conversion and broadcasting.

Eager calls hand NumPy-compatible operands straight to the reference rules, which accept mixed dtypes and
broadcastable shapes. Traced calls must produce IR in which operands of an elementwise primitive share one
dtype and one shape; these functions insert the `convert` and `broadcast_in_dim` equations that make it so.
"""

from __future__ import annotations

import numpy as np

from arraystack.ir.core import Tracer, bind
from arraystack.ir.primitives import convert_p
from arraystack.ir.structural import broadcast_in_dim_p, reshape_p
from arraystack.ir.trace import note_weak_int_cast

_PY_SCALARS = (bool, int, float, complex)


def is_scalar_literal(x) -> bool:
    """Python and NumPy scalars: they become Literals in the IR and broadcast implicitly."""
    return isinstance(x, _PY_SCALARS) or isinstance(x, np.generic)


def array_shape(x) -> tuple | None:
    """An array operand's shape; None for a scalar (see is_scalar_literal)."""
    if type(x) is Tracer:
        return x.var.aval.shape
    if is_scalar_literal(x):
        return None
    return tuple(x.shape)


def shape_of(x) -> tuple:
    if isinstance(x, _PY_SCALARS):
        return ()
    return tuple(x.shape)


def dtype_of(x) -> np.dtype:
    if isinstance(x, _PY_SCALARS):
        return np.asarray(x).dtype
    return np.dtype(x.dtype)


def resolution_operand(x):
    """The operand description numpy's ufunc.resolve_dtypes wants: a dtype, or a Python type if weak."""
    if type(x) is Tracer:
        aval = x.var.aval
        if aval.weak_type:
            return {"i": int, "u": int, "f": float, "c": complex}.get(aval.dtype.kind, aval.dtype)
        return aval.dtype
    if isinstance(x, np.generic):  # strongly typed, though np.float64 subclasses float
        return x.dtype
    if isinstance(x, bool):
        return np.dtype(bool)
    if isinstance(x, _PY_SCALARS):
        return type(x)
    return np.dtype(x.dtype)


def is_weak(x) -> bool:
    """A Python scalar, or the trace of one (a weakly typed value): what is a Python scalar when NumPy
    runs the function (NEP 50 weak scalars)."""
    if type(x) is Tracer:
        return x.var.aval.weak_type
    return isinstance(x, _PY_SCALARS) and not isinstance(x, np.generic)


# The dtype of each Python scalar type, as a weakly typed value holds it
_PYTHON_TYPE = {
    np.dtype(bool): bool,
    np.dtype(np.int64): int,
    np.dtype(np.float64): float,
    np.dtype(np.complex128): complex,
}


def python_type(dtype):
    """bool, int, float or complex: the Python scalar type a weakly typed value of `dtype` stands
    for (None for the dtypes no Python scalar has)."""
    return _PYTHON_TYPE.get(dtype)


def convert_weak(x, dtype):
    """`x`, a Python scalar or a weakly typed trace, as `dtype` and still weakly typed: how Python's
    operators combine Python scalars (5 / 2 is the Python float 2.5, here a weak float64). A dtype no
    Python scalar has gives a strongly typed value, as convert_raw does."""
    dtype = np.dtype(dtype)
    kind = _PYTHON_TYPE.get(dtype)
    if kind is None:
        return convert_raw(x, dtype)
    if type(x) is not Tracer:
        if kind is int:
            convert_raw(x, dtype)  # NumPy's OverflowError for a Python int beyond int64
        return kind(x)
    if x.var.aval.dtype == dtype:
        return x
    if dtype.kind in "iu":
        note_weak_int_cast(x, dtype)  # a weak uint64 (a Python int above int64) as int64: checked
    return bind(convert_p, x, dtype=dtype, weak_type=True)


def convert_raw(x, dtype):
    """`x` as `dtype`: a scalar becomes a NumPy scalar (NumPy's overflow errors included); arrays convert."""
    dtype = np.dtype(dtype)
    if isinstance(x, _PY_SCALARS) or isinstance(x, np.generic):
        if isinstance(x, _PY_SCALARS) and not isinstance(x, bool) and dtype.kind in "iu":
            if isinstance(x, int):
                return np.asarray(x, dtype=dtype)[()]  # raises OverflowError out of range, as NumPy does
        return np.asarray(x).astype(dtype)[()]
    if dtype_of(x) == dtype:
        return x
    if type(x) is Tracer and x.var.aval.weak_type and dtype.kind in "iu":
        note_weak_int_cast(x, dtype)  # a traced Python int: jit checks its range as NumPy does here
    return bind(convert_p, x, dtype=dtype)


def broadcast_raw(x, shape):
    """`x` broadcast to `shape` with broadcast_in_dim (NumPy's trailing-axes rule)."""
    shape = tuple(shape)
    xshape = shape_of(x)
    if xshape == shape:
        return x
    if isinstance(x, _PY_SCALARS):
        x = np.asarray(x)[()]
    lead = len(shape) - len(xshape)
    if lead < 0:
        raise ValueError(f"cannot broadcast an array of shape {xshape} to {shape}")
    for d, target in zip(xshape, shape[lead:]):
        if d != 1 and d != target:
            raise ValueError(
                f"operands could not be broadcast together with remapped shapes "
                f"[original->remapped]: {xshape} and requested shape {shape}"
            )
    # drop size-1 axes that stretch, so broadcast_in_dim sees exact sizes
    keep = [i for i, d in enumerate(xshape) if d == shape[lead + i]]
    if len(keep) != len(xshape):
        x = bind(reshape_p, x, new_sizes=tuple(xshape[i] for i in keep))
    return bind(broadcast_in_dim_p, x, shape=shape, broadcast_dimensions=tuple(lead + i for i in keep))


def elementwise_operands(raws, dtypes):
    """Convert each operand to its loop dtype and broadcast array operands to their common shape.

    Scalars stay scalars (they become rank-0 Literals); returns (operands, broadcast shape).
    """
    shape = np.broadcast_shapes(*(shape_of(x) for x in raws))
    out = []
    for x, dtype in zip(raws, dtypes):
        x = convert_raw(x, dtype)
        if not is_scalar_literal(x):
            x = broadcast_raw(x, shape)
        out.append(x)
    return out, shape
