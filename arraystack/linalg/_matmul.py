"""matmul and dot as compositions of dot_general with reshape/broadcast/transpose. Shapes, dtypes and
errors follow NumPy: matmul is the gufunc (n?,k),(k,m?)->(n?,m?). The other products live in
_contractions.py (vdot, inner, outer, tensordot, kron, vecdot, matvec, vecmat) and _einsum.py; numpy.linalg
is the package arraystack/linalg/.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray, raw, scalar_result, wrap
from arraystack._core.interop import call_host
from arraystack._core.operands import broadcast_raw, convert_raw, resolution_operand
from arraystack._core.overrides import defers_to_numpy, kind
from arraystack.linalg._gufuncs import as_gufunc
from arraystack._transforms.aliasing import rebind
from arraystack.ir.core import Tracer, active, bind, is_host_dtype, trace_state
from arraystack.ir.structural import dot_general_p, transpose_p

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from arraystack.typing import ArrayLike, DTypeLike, NDArray

_SIGNATURE = "(n?,k),(k,m?)->(n?,m?)"
# dot_general's dimension numbers for matmul of operands with (ndim, ndim) <= 2: no batch axes
_SIMPLE = {(na, nb): (((na - 1,), (max(nb - 2, 0),)), ((), ())) for na in (1, 2) for nb in (1, 2)}
_ndarray_np = np.ndarray


def _shape(x) -> tuple:
    return tuple(getattr(x, "shape", ()))


def _dtype(x) -> np.dtype:
    return x.dtype if hasattr(x, "dtype") else np.asarray(x).dtype


def _dims(shape) -> str:
    """A shape as NumPy's error messages print it: (2,3), (3,)."""
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _contract(a, b, sa, sb):
    """matmul of operands (shapes sa, sb) of one dtype, with NumPy's 1-d promotion and batch broadcasting."""
    na, nb = len(sa), len(sb)
    if na <= 2 and nb <= 2:
        # no batch axes: one contraction, result already in matmul's order (1-d sides included)
        dims = (((na - 1,), (max(nb - 2, 0),)), ((), ()))
        return bind(dot_general_p, a, b, dimension_numbers=dims)
    if na == 1 or nb == 1 or nb == 2:
        # (..., n, k) @ (k,) or (k, m), (k,) @ (..., k, m): a contraction over one axis, no broadcasting
        return bind(
            dot_general_p, a, b, dimension_numbers=(((na - 1,), (max(nb - 2, 0),)), ((), ()))
        )
    batch_a, batch_b = sa[:-2], sb[:-2]
    if batch_a == batch_b:
        batch = tuple(range(na - 2))
        return bind(dot_general_p, a, b, dimension_numbers=(((na - 1,), (nb - 2,)), (batch, batch)))
    if na == 2:  # (n, k) @ (..., k, m) gives (n, ..., m): move n next to m
        out = bind(dot_general_p, a, b, dimension_numbers=(((1,), (nb - 2,)), ((), ())))
        perm = tuple(range(1, nb - 1)) + (0, nb - 1)
        return bind(transpose_p, out, permutation=perm)
    try:
        batch = np.broadcast_shapes(batch_a, batch_b)
    except ValueError:
        raise ValueError(
            "operands could not be broadcast together with remapped shapes [original->remapped]: "
            f"{_dims(sa)}->{_dims(batch_a + ('newaxis', 'newaxis'))} "
            f"{_dims(sb)}->{_dims(batch_b + ('newaxis', 'newaxis'))}  "
            f"and requested shape {_dims((sa[-2], sb[-1]))}"
        ) from None
    a = broadcast_raw(a, batch + sa[-2:])
    b = broadcast_raw(b, batch + sb[-2:])
    nbatch = tuple(range(len(batch)))
    dims = (((len(batch) + 1,), (len(batch),)), (nbatch, nbatch))
    return bind(dot_general_p, a, b, dimension_numbers=dims)


def _check_core(sa, sb):
    """NumPy's errors for matmul operand shapes sa, sb: scalars, then a core (k) mismatch."""
    for i, shape in enumerate((sa, sb)):
        if not shape:
            raise ValueError(
                f"matmul: Input operand {i} does not have enough dimensions (has 0, gufunc core with "
                f"signature {_SIGNATURE} requires 1)"
            )
    ka = sa[-1]
    kb = sb[0] if len(sb) == 1 else sb[-2]
    if ka != kb:
        raise ValueError(
            f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
            f"{_SIGNATURE} (size {kb} is different from {ka})"
        )


def _move_core(x, axes_entry, ncore, operand):
    """Move the core axes named by one entry of matmul's `axes=` to the end of operand `x`."""
    from arraystack._core.shapes import normalize_axis

    entry = (axes_entry,) if isinstance(axes_entry, int) else tuple(axes_entry)
    if len(entry) != ncore:
        raise np.exceptions.AxisError(
            f"matmul: operand {operand} has {ncore} core dimensions, but {len(entry)} dimensions are "
            "specified by axes tuple."
        )
    ndim = len(_shape(x))
    core = tuple(normalize_axis(ax, ndim) for ax in entry)
    perm = tuple(i for i in range(ndim) if i not in core) + core
    return x if perm == tuple(range(ndim)) else bind(transpose_p, x, permutation=perm)


def _matmul_axes(a, b, axes):
    """matmul with `axes=`: core axes moved to the end, multiplied, then moved to the output's place."""
    na, nb = len(_shape(a)), len(_shape(b))
    nout = (na >= 2) + (nb >= 2)
    if len(axes) != 3:  # the signature's output (n?,m?) has core axes, so it is never omitted
        raise ValueError(
            "axes should be a list with an entry for all 3 inputs and outputs; entries for outputs can "
            "only be omitted if none of them has core axes."
        )
    a = _move_core(a, axes[0], min(na, 2), 0)
    b = _move_core(b, axes[1], min(nb, 2), 1)
    sa, sb = _shape(a), _shape(b)
    _check_core(sa, sb)
    out = _contract(a, b, sa, sb)
    entry = (axes[2],) if isinstance(axes[2], int) else tuple(axes[2])
    if len(entry) != nout:
        raise np.exceptions.AxisError(
            f"matmul: operand 2 has {nout} core dimensions, but {len(entry)} dimensions are specified "
            "by axes tuple."
        )
    from arraystack._core.shapes import normalize_axis

    ndim = len(_shape(out))
    core = [normalize_axis(ax, ndim) for ax in entry]
    rest = iter(range(ndim - nout))
    ends = iter(range(ndim - nout, ndim))
    perm = [None] * ndim
    for pos in core:
        perm[pos] = next(ends)
    perm = tuple(p if p is not None else next(rest) for p in perm)
    return out if perm == tuple(range(ndim)) else bind(transpose_p, out, permutation=perm)


def matmul(
    x1: ArrayLike,
    x2: ArrayLike,
    /,
    out: NDArray | None = None,
    *,
    casting: str = "same_kind",
    order: str = "K",
    dtype: DTypeLike = None,
    subok: bool = True,
    signature: Any = None,
    axes: Sequence[Any] | None = None,
) -> NDArray:
    """Matrix product of two arrays (the ``@`` operator).

    Parameters
    ----------
    x1 : array_like
        Input array; a 1-D input is promoted to a matrix by prepending a 1 to its dimensions.
    x2 : array_like
        Input array; a 1-D input is promoted to a matrix by appending a 1 to its dimensions.
    out : ndarray, optional
        A location into which the result is stored.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        The casting allowed, as for ufuncs.
    order : {'K', 'C', 'F', 'A'}, optional
        Accepted for compatibility and ignored.
    dtype : data-type, optional
        Overrides the dtype of the calculation and output.
    subok : bool, optional
        Accepted for compatibility and ignored.
    signature : tuple of dtypes, optional
        The loop dtypes, as for ufuncs; cannot be given with `dtype`.
    axes : list of tuples of ints, optional
        The core axes of each operand and of the output, as for generalized ufuncs.

    Returns
    -------
    y : ndarray
        The matrix product of the inputs; the stacked (batch) dimensions broadcast.

    See Also
    --------
    numpy.matmul : The NumPy function this mirrors.
    dot, vecdot, matvec, vecmat, einsum, tensordot

    Notes
    -----
    A contraction through the dot_general primitive, so it traces, differentiates and vmaps.
    """
    if (type(x1) is not ndarray and kind(x1) is not None) or (
        type(x2) is not ndarray and kind(x2) is not None
    ):  # an object overriding NumPy (numpy.matrix, a pandas Series): NumPy's ufunc dispatches to it
        given = {"out": out, "dtype": dtype, "signature": signature, "axes": axes}
        given = {k: v for k, v in given.items() if v is not None}
        return np.matmul(x1, x2, casting=casting, order=order, subok=subok, **given)
    a = x1._value if type(x1) is ndarray else raw(x1)
    b = x2._value if type(x2) is ndarray else raw(x2)
    if (
        type(a) is _ndarray_np
        and type(b) is _ndarray_np
        and out is None
        and dtype is None
        and signature is None
        and axes is None
        and (not active.n or trace_state.top is None)
    ):
        sa, sb = a.shape, b.shape
        if sa and sb and (a.dtype is b.dtype or a.dtype == b.dtype):  # eager, one dtype
            na, nb = len(sa), len(sb)
            if na <= 2 and nb <= 2 and sa[-1] == sb[nb - 2]:
                result = wrap(bind(dot_general_p, a, b, dimension_numbers=_SIMPLE[na, nb]))
                return scalar_result(result)  # two 1-d operands: NumPy's scalar
            _check_core(sa, sb)
            return wrap(_contract(a, b, sa, sb))
    if dtype is not None and signature is not None:
        raise TypeError("cannot specify both 'signature' and 'dtype'")
    if dtype is not None:
        signature = (None, None, np.dtype(dtype))
    if signature is None and _dtype(a) == _dtype(b):
        dt = _dtype(a)
    else:
        operands = (resolution_operand(a), resolution_operand(b), None)
        extra = {} if signature is None else {"signature": signature}
        dt = np.matmul.resolve_dtypes(operands, casting=casting, **extra)[2]
    a, b = convert_raw(a, dt), convert_raw(b, dt)
    if axes is not None:
        result = wrap(_matmul_axes(a, b, axes))
    else:
        sa, sb = _shape(a), _shape(b)
        _check_core(sa, sb)
        result = wrap(_contract(a, b, sa, sb))
    if out is None:
        return scalar_result(result)
    from arraystack._math.elementwise import store_results

    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    return store_results([result], out, True, casting, 1)


@defers_to_numpy
def dot(a: ArrayLike, b: ArrayLike, out: NDArray | None = None) -> NDArray:
    """Dot product of two arrays.

    For 0-d operands, the product; otherwise a sum product over the last axis of `a` and the
    second-to-last of `b` (the last, if `b` is 1-D).

    Parameters
    ----------
    a : array_like
        First argument.
    b : array_like
        Second argument.
    out : ndarray, optional
        Output argument; it must have the dtype and shape that ``dot(a, b)`` would return.

    Returns
    -------
    output : ndarray
        Returns the dot product of `a` and `b`.

    See Also
    --------
    numpy.dot : The NumPy function this mirrors.
    matmul, vdot, inner, tensordot, einsum, ndarray.dot
    """
    from arraystack._creation.basic import asarray

    a, b = asarray(a), asarray(b)  # (a Python scalar is an array: np.dot(int8_array, 5) is int64)
    av, bv = a._value, b._value
    if is_host_dtype(av.dtype) or is_host_dtype(bv.dtype):  # NumPy's (and its errors)
        return call_host(np.dot, (a, b, out), {})
    na, nb = len(av.shape), len(bv.shape)
    if na == 0 or nb == 0:
        from arraystack._math.elementwise import add, multiply

        result = multiply(a, b)
        if result.dtype.kind in "fc":  # NumPy's dot sums products from +0.0: a -0.0 product is +0.0
            result = add(result, 0.0)
    else:
        kb_axis = max(nb - 2, 0)
        if av.shape[-1] != bv.shape[kb_axis]:
            raise ValueError(
                f"shapes {_dims(av.shape)} and {_dims(bv.shape)} not aligned: "
                f"{av.shape[-1]} (dim {na - 1}) != {bv.shape[kb_axis]} (dim {kb_axis})"
            )
        if av.dtype != bv.dtype:
            dt = np.promote_types(av.dtype, bv.dtype)
            av, bv = convert_raw(av, dt), convert_raw(bv, dt)
        dims = (((na - 1,), (kb_axis,)), ((), ()))
        result = wrap(bind(dot_general_p, av, bv, dimension_numbers=dims))
    if out is None:
        return scalar_result(result)  # NumPy's dot of two 1-d arrays is a scalar
    return _dot_out(result, out)


def _dot_out(result, out):
    """numpy.dot's out=: exactly the result's dtype and shape, C-contiguous; written (eager) or rebound."""
    if not isinstance(out, ndarray):
        raise TypeError("'out' must be an arraystack array")
    value = out._value
    if out.shape != result.shape and out.ndim == result.ndim:
        raise ValueError("output array has wrong dimensions")
    if (
        out.dtype != result.dtype
        or out.ndim != result.ndim
        or (type(value) is not Tracer and not value.flags.c_contiguous)
    ):
        raise ValueError(
            "output array is not acceptable (must have the right datatype, number of dimensions, and be "
            "a C-Array)"
        )
    if type(value) is Tracer or type(result._value) is Tracer:
        rebind(out, result._value, "matmul(..., out=...)")
    else:
        np.copyto(value, result._value)
    return out


__all__ = ["dot", "matmul"]


as_gufunc(matmul, np.matmul)
