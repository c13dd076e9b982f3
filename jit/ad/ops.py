"""Typed builders over bind() for writing transformation rules.

Rules of grad, jvp and vmap compute with the same primitives as user code, through bind(), so what they emit
is recorded by whatever trace is below (eager, jit, or another transformation) and can be differentiated
again. Operands are raw values: NumPy arrays and scalars, Tracers, Python scalars. The IR is strict (one dtype,
one shape or a rank-0 operand per elementwise primitive), so these helpers make constants of the operand's
dtype: `mul(g, const(x, 2))`, never `mul(g, 2.0)`.
"""

from __future__ import annotations

import numpy as np
from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.avals import ShapedArray, aval_of_concrete, kind_of
from arraystack.ir.core import Tracer, bind, device_evaluators


def aval(x) -> ShapedArray:
    return x.var.aval if type(x) is Tracer else aval_of_concrete(x)  # x.aval, without the property


def shape(x) -> tuple:
    return x.var.aval.shape if type(x) is Tracer else aval_of_concrete(x).shape  # aval(x).shape


def dtype(x) -> np.dtype:
    return x.var.aval.dtype if type(x) is Tracer else aval_of_concrete(x).dtype


def const(like, value):
    """A rank-0 constant of `like`'s dtype (`like` is a value or a dtype); a Literal when traced."""
    if type(like) is Tracer:  # the common case first: isinstance(like, np.dtype) costs ~150 ns
        dt = like.var.aval.dtype
    else:
        dt = like if isinstance(like, np.dtype) else dtype(like)
    return dt.type(value)


def is_inexact(x) -> bool:
    return kind_of(dtype(x)) in "fc"


def full(shape_, dt, value, like=None):
    """A constant array; on `like`'s device when that is an array of a device other than the host (a
    cupy array), so cotangents and tangents are made where the values they meet live."""
    dt = np.dtype(dt)
    evaluate = device_evaluators.get(type(like)) if device_evaluators else None
    if evaluate is not None:
        return evaluate(s.full_p, (dt.type(value),), {"shape": tuple(shape_), "dtype": dt}, like)
    return bind(s.full_p, dt.type(value), shape=tuple(shape_), dtype=dt)


def zeros_like(x):
    a = aval(x)
    return full(a.shape, a.dtype, 0, like=x)


def ones_like(x):
    a = aval(x)
    return full(a.shape, a.dtype, 1, like=x)


# -- elementwise (operands share a dtype; a rank-0 operand broadcasts) -----------------------------------------


def add(x, y):
    return bind(p.add_p, x, y)


def sub(x, y):
    return bind(p.sub_p, x, y)


def mul(x, y):
    return bind(p.mul_p, x, y)


def div(x, y):
    return bind(p.div_p, x, y)


def neg(x):
    return bind(p.neg_p, x)


def square(x):
    return bind(p.mul_p, x, x)


def select(pred, on_true, on_false):
    return bind(p.select_p, pred, on_true, on_false)


def convert(x, dt):
    dt = np.dtype(dt)
    return x if dtype(x) == dt else bind(p.convert_p, x, dtype=dt)


def conj(x):
    return bind(p.conj_p, x) if dtype(x).kind == "c" else x


def real(x):
    return bind(p.real_p, x) if dtype(x).kind == "c" else x


def eq(x, y):
    return bind(p.eq_p, x, y)


def unop(prim, x):
    return bind(prim, x)


def binop(prim, x, y):
    return bind(prim, x, y)


# -- structure --------------------------------------------------------------------------------------------------


def reshape(x, new_shape):
    new_shape = tuple(new_shape)
    return x if shape(x) == new_shape else bind(s.reshape_p, x, new_sizes=new_shape)


def broadcast_in_dim(x, shape_, dims):
    shape_, dims = tuple(shape_), tuple(dims)
    if shape(x) == shape_ and dims == tuple(range(len(shape_))):
        return x
    return bind(s.broadcast_in_dim_p, x, shape=shape_, broadcast_dimensions=dims)


def broadcast_to(x, shape_):
    """NumPy trailing-axis broadcasting of `x` to `shape_`."""
    xs = shape(x)
    lead = len(shape_) - len(xs)
    return broadcast_in_dim(x, shape_, tuple(range(lead, len(shape_))))


def transpose(x, perm):
    perm = tuple(perm)
    return x if perm == tuple(range(len(perm))) else bind(s.transpose_p, x, permutation=perm)


def reduce_sum(x, axes):
    axes = tuple(sorted(axes))
    return x if not axes else bind(s.reduce_sum_p, x, axes=axes)


def sum_to_shape(ct, target_shape):
    """Undo an implicit broadcast: the cotangent of a rank-0 operand of an elementwise primitive is summed."""
    cs = shape(ct)
    if cs == tuple(target_shape):
        return ct
    if target_shape == ():
        return reduce_sum(ct, range(len(cs)))
    raise ValueError(f"cannot sum a cotangent of shape {cs} to {tuple(target_shape)}")


def expand_like(x, target_shape):
    """Broadcast `x` (shape () or `target_shape`) to `target_shape`: the inverse of sum_to_shape."""
    return x if shape(x) == tuple(target_shape) else broadcast_in_dim(x, target_shape, ())


def dot_general(x, y, dimension_numbers):
    return bind(s.dot_general_p, x, y, dimension_numbers=dimension_numbers)


def iota(dt, shape_, dimension):
    return bind(p.iota_p, dtype=np.dtype(dt), shape=tuple(shape_), dimension=dimension)


def zero_tangent(x):
    """The zero cotangent/tangent of a primal `x`: zeros of its shape and dtype."""
    return zeros_like(x)
