"""Float max/min reductions in generated kernels: which of equal values they return, and a NumPy twin.

A kernel's float max (min) over the reduced axes is the left fold of NumPy's binary maximum (minimum)
in the kernel's loop order (row-major over the reduced axes): of equal values (0.0 and -0.0) the later
one, as np.maximum(acc, value) keeps; a NaN anywhere gives the quiet NaN np.nan (its payload and sign
are not kept). That is NumPy's result whenever its reduction loop runs in order: short rows, column
reductions (np.max(x, axis=0)), whole-array reductions of up to 16 float32 or 8 float64 elements.
# Note: longer contiguous rows run through NumPy's SIMD loop, whose lanes and final tree may keep another
# zero (on AVX-512, np.max of 17 float32 zeros keeps element 4's sign), and NaNs there are canonical too.

Row reductions vectorize NaN-blind with `nsz` (intrinsics.reduce_max): the value is right but a zero's
sign is not, so a zero result takes the sign of the last zero among the reduced values, found by one
more (vectorized) pass that runs only for zero results (`emit_last_zero`). Column reductions update each column
in row order keeping the later of equal values themselves (codegen_columns.py), NaNs in a flag.

Only NumPy here: tier 0 imports this module without numba.
"""

from __future__ import annotations

import numpy as np


def kernel_extremum(kind: str, x, axes: tuple) -> np.ndarray:
    """reduce_max/reduce_min of float `x` over `axes`, bit for bit as a generated kernel computes it."""
    x = np.asarray(x)
    reduce = np.maximum.reduce if kind == "max" else np.minimum.reduce
    axes = tuple(sorted({int(a) % x.ndim for a in axes})) if x.ndim else ()
    result = np.asarray(reduce(x, axis=axes))
    if x.dtype.kind != "f" or not axes or x.size == 0:
        return result
    zero = result == 0
    if zero.any():
        kept = [d for d in range(x.ndim) if d not in axes]
        values = np.transpose(x, kept + list(axes)).reshape(result.shape + (-1,))
        from_end = np.argmax(values[..., ::-1] == 0, axis=-1)  # the last zero of each row
        last = values.shape[-1] - 1 - from_end
        picked = np.take_along_axis(values, last[..., None], axis=-1)[..., 0]
        result = np.where(zero, picked, result)
    nan = np.isnan(result)
    if nan.any():
        result = np.where(nan, np.array(np.nan, x.dtype), result)
    return np.asarray(result, x.dtype)


def emit_last_zero(code, region, eqn, acc, loads, inner, total):
    """After a pass's loops: if the NaN-blind reduction `acc` of `eqn` (reduce_max/reduce_min, float) is
    zero, the last zero among its values over the reduced axes `inner` (a full reduction's chunk: the
    first axis from lo to hi). The last value, if it is a zero (a relu's rows); else one more pass,
    which vectorizes: the last position of a zero, an integer max reduction (a scan from the end that
    stopped at the first zero took 12x the reduction where that zero was a row's first value). Values
    stashed by earlier passes are read back (`loads`); the others are recomputed from the region's
    equations."""
    first = inner[0]
    extents = {d: f"np.int64(n{d})" for d in inner}
    if total:
        extents[first] = "(np.int64(hi) - np.int64(lo))"
    with code.block(f"if {acc} == 0 and not {acc}_nan:"):
        code.line(f"zlast = {' * '.join(extents[d] for d in inner)} - 1")
        _emit_value_at(code, region, eqn, loads, inner, total, extents, "zlast")
        with code.block("if zv != 0:"):
            # zk: the position over the reduced axes, in the kernel's order
            code.line("zk = np.int64(0)")
            code.line("zlast = np.int64(-1)")
            for d in inner:
                code.line(f"for i{d} in range({'lo, hi' if (total and d == first) else f'n{d}'}):")
                code.depth += 1
            _emit_value(code, region, eqn, loads)
            code.line("zlast = max(zlast, zk if zv == 0 else np.int64(-1))")
            code.line("zk += 1")
            code.depth -= len(inner)
            _emit_value_at(code, region, eqn, loads, inner, total, extents, "zlast")
        code.line(f"{acc} = zv")


def _emit_value_at(code, region, eqn, loads, inner, total, extents, position):
    """zv: the value entering the reduction at a position over the reduced axes."""
    code.line(f"zr = {position}")
    for d in reversed(inner):
        if d == inner[0]:
            code.line(f"i{d} = {'np.int64(lo) + ' if total else ''}zr")
        else:
            code.line(f"i{d} = zr % {extents[d]}")
            code.line(f"zr = zr // {extents[d]}")
    _emit_value(code, region, eqn, loads)


def _emit_value(code, region, eqn, loads):
    from arraystack.backends.numba.codegen import _emit_eqn, _value
    from arraystack.backends.numba.codegen_staged import _full_closure
    from arraystack.backends.numba.lowering import cast

    index = ", ".join(f"i{d}" for d in range(region.rank))
    outer_index = ", ".join(f"i{d}" for d in region.kept)
    value = eqn.inputs[0]
    for k, u in loads:
        code.line(f"{region.names[u]} = o{k}[{index}]")
    for e in _full_closure(region, [value], stop={u for _, u in loads}):
        _emit_eqn(code, region, e, index, outer_index)
    code.line(f"zv = {cast(eqn.outputs[0].aval.dtype, _value(region, value, index, outer_index))}")
