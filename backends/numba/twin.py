"""The numba backend's NumPy twin: what tiered compilation runs while the kernels compile (tier 0).

It runs the same plan as `compile_numba` (the same regions, the same reference steps outside them), but
each region's equations run as NumPy calls instead of a generated loop. Where a kernel computes differently
from NumPy's own function, the twin computes what the kernel computes, bit for bit:
- exp, expm1, log, log1p, tanh, logistic, erf, sin, cos, tan on float32/float64: mathlib's polynomials
  with the kernel's exact FMAs (mathlib/twins.py: a C loop, the optional extension mathlib/_twin, about
  as fast as NumPy's own exp; without it an exact NumPy emulation, 20-200x slower);
- float32 x ** 3 and x ** 4: computed in float64 and rounded once, as lowering.py does;
- float sums and products: the kernel's fixed summation order (summation_order.py), not NumPy's pairwise one;
- float max/min reductions: the later of equal values (0.0, -0.0) and a canonical NaN (extrema.py), where
  NumPy's SIMD loop may keep another zero;
- complex products: the kernel's lanes (summation_order.py); complex max/min: NumPy's rule in the
  kernel's row-major order (codegen_complex.py), where NumPy walks several axes in memory order.
Everything else a kernel computes (arithmetic, comparisons, selects, casts, min/max, sqrt) already rounds
as NumPy does. So both tiers give identical results
(tests/backends/numba/test_tier_identity.py).

A first call runs this plan once, so its costs are a first call's: selects run branch-free on the values'
bits (select_bits), broadcasts stay compact (NumPy broadcasts them in the steps reading them), and
elementwise steps write into buffers that die with them, a product's or region's result included
(fewer new buffers: fewer page faults). An MLP step: 1750 -> 830 page faults, 8.0 -> 6.3 ms warm
(tests/backends/numba/test_twin_steps.py checks that none of it changes a bit).

Nothing here imports numba: the first call of a jitted function must not wait for it.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from arraystack.backends.control import control_step
from arraystack.backends.executable import (
    Executable,
    alias_safe,
    consumers,
    interpret,
    last_uses,
)
from arraystack.backends.numba import _reference_region_step, _region_problem
from arraystack.backends.numba.codegen_widen import widen_region
from arraystack.backends.numba.extrema import kernel_extremum
from arraystack.backends.numba.fusion_policy import float32_integer_power
from arraystack.backends.numba.mathlib.twins import numpy_twin
from arraystack.backends.numba.summation_order import kernel_reduce
from arraystack.backends.reference import reference_step
from arraystack.backends.updates import WRITES, overwritable, write_step
from arraystack.backends.updates import describe as describe_update
from arraystack.ir.control import fusion_p
from arraystack.ir.ir import Literal
from arraystack.ir.regions import ELEMENTWISE

# Region primitives whose twin is this NumPy ufunc applied to operands of the output's dtype (the
# reference rule): they can write into a dying operand's buffer (`out=`) instead of a new one.
_UFUNCS = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.true_divide,
    "max": np.maximum,
    "min": np.minimum,
}
# Readers whose result never shares memory with an operand: a buffer only they read is the region's own.
_FRESH_READERS = frozenset(_UFUNCS) | {"select", "gt", "ge", "lt", "le", "eq", "ne"}


def _region_steps(sub, donated=frozenset(), last=None):
    """(the twin steps of a region's equations, the output positions each writes into an operand's
    buffer, the values left in buffers of the region's own, the values whose arrays may be compact).

    In place: an elementwise step whose operand dies with it, in a buffer the region allocated or was
    donated (`donated`: inputs in buffers nothing else holds, dead after the region), writes its result
    there: fewer new buffers, so fewer page faults on a first call (a 1.6 MB buffer's first touch costs
    about as much as the arithmetic on it). (Handing also the buffer of a value that died earlier to a
    later step made more page faults, not fewer: malloc then has fewer freed buffers to reuse.)

    Compact: a broadcast_in_dim only reshapes its operand, size-1 axes where it broadcasts, and NumPy
    broadcasts it in the elementwise steps reading it (so do their results, also compact); any other
    step gets its operands broadcast to their full shapes, as does the region for its outputs (copies).
    A broadcast view costs 4-7 us to make and makes an elementwise step reading it up to 2x slower (and
    np.add(a, view, out=a) copies the view, NumPy's overlap check)."""
    last = last_uses(sub) if last is None else last
    owned = set(donated)  # values in a buffer only this region holds, seen by no view
    compact = set()  # values whose array may have size-1 axes where their aval broadcasts
    steps, reused = [], []
    for k, eqn in enumerate(sub.eqns):
        operands = [x for x in eqn.inputs if not isinstance(x, Literal)]
        if eqn.prim.name not in _FRESH_READERS:
            owned.difference_update(operands)  # its result may be a view of them
        if eqn.prim.name == "broadcast_in_dim" and not compact.intersection(operands):
            steps.append(_expand_step(eqn))
            reused.append(())
            compact.add(eqn.outputs[0])
            continue
        step, fresh = _inplace_step(eqn, k, owned, last, compact)
        reused.append((0,) if step is not None else ())
        if step is None:
            step = _twin_step(eqn)
            if compact.intersection(operands):
                if eqn.prim not in ELEMENTWISE:
                    step = _broadcasting(step, eqn)
                elif not any(  # no full operand gives the result its full shape
                    x not in compact and x.aval.shape == eqn.outputs[0].aval.shape for x in operands
                ):
                    compact.update(eqn.outputs)
        steps.append(step)
        if fresh:
            owned.add(eqn.outputs[0])
    return steps, reused, owned, compact


def _expand_step(eqn):
    """broadcast_in_dim as a reshape: the operand's axes where the result's are, size 1 elsewhere."""
    expanded = [1] * len(eqn.params["shape"])
    for axis, size in zip(eqn.params["broadcast_dimensions"], eqn.inputs[0].aval.shape):
        expanded[axis] = size
    expanded = tuple(expanded)
    return lambda x: np.reshape(x, expanded)


def _broadcasting(step, eqn):
    """`step`, its compact operands broadcast to their full shapes first."""
    shapes = [None if isinstance(x, Literal) else x.aval.shape for x in eqn.inputs]

    def run(*operands):
        return step(*[
            x if shape is None or np.shape(x) == shape else np.broadcast_to(x, shape)
            for x, shape in zip(operands, shapes)
        ])

    return run


def _inplace_step(eqn, k, owned, last, compact=frozenset()):
    """(a step writing into a dying owned operand or None, whether the result is a new buffer of its own)."""
    name = eqn.prim.name
    out = eqn.outputs[0].aval
    if len(eqn.outputs) != 1 or not out.shape:  # 0-d: NumPy returns scalars, not buffers
        return None, False
    if name == "select":
        if not (out.dtype.kind in "fiu" and out.dtype.itemsize in _BITS):
            return None, False
        candidates = eqn.inputs[1:]
        offset = 1
    elif name in _UFUNCS:
        if any(x.aval.dtype != out.dtype for x in eqn.inputs):
            return None, False
        if name == "mul" and out.dtype.kind == "c" and math.prod(out.shape) == 1:
            # NumPy runs an in-place product of one element through its reduce loop, which rounds
            # all four products: a new array keeps its array loop's bits, complex_mul's
            return None, True
        candidates, offset = eqn.inputs, 0
    else:
        return None, False
    for j, x in enumerate(candidates, offset):
        if (
            not isinstance(x, Literal)
            and x in owned
            and x not in compact
            and last[x] == k
            and x.aval.shape == out.shape
            and x.aval.dtype == out.dtype
        ):
            if name == "select":
                return functools.partial(_select_into, out.dtype, j), True
            return functools.partial(_ufunc_into, _UFUNCS[name], j), True
    return None, True


def _ufunc_into(ufunc, j, *operands):
    return ufunc(*operands, out=operands[j])


def _select_into(dtype, j, pred, on_true, on_false):
    return select_bits(dtype, pred, on_true, on_false, out=(pred, on_true, on_false)[j])


def _twin_step(eqn):
    """The step computing this region equation's kernel bits with NumPy."""
    dtype = eqn.outputs[0].aval.dtype
    name = eqn.prim.name
    if dtype.kind == "f" and name in ("reduce_sum", "reduce_prod"):
        kind = "sum" if name == "reduce_sum" else "prod"
        return functools.partial(kernel_reduce, kind, axes=tuple(eqn.params["axes"]))
    if dtype.kind == "f" and name in ("reduce_max", "reduce_min"):
        return functools.partial(kernel_extremum, name[-3:], axes=tuple(eqn.params["axes"]))
    if dtype.kind == "c" and name == "reduce_prod":  # complex128: codegen_widen.py widens complex64
        return functools.partial(kernel_reduce, "prod", axes=tuple(eqn.params["axes"]))
    if dtype.kind == "c" and name in ("reduce_max", "reduce_min"):
        return functools.partial(_complex_extremum, name[-3:], axes=tuple(eqn.params["axes"]))
    if name == "select" and dtype.kind in "fiu" and dtype.itemsize in _BITS:
        return functools.partial(select_bits, dtype)
    power = float32_integer_power(eqn)
    if power is not None:
        return functools.partial(_float32_power, power)
    twin = numpy_twin(name, dtype) if dtype.kind == "f" else None
    if twin is not None:
        return lambda x: twin(np.asarray(x, dtype))
    return reference_step(eqn)


def _complex_extremum(kind, x, axes):
    """A kernel's complex reduce_max/reduce_min: NumPy's rule over the reduced axes in row-major
    order, which is NumPy's own order along one axis (codegen_complex.py)."""
    x = np.asarray(x)
    axes = sorted({int(a) % x.ndim for a in axes}) if x.ndim else []
    if not axes:
        return x.copy()
    kept = [d for d in range(x.ndim) if d not in axes]
    shape = tuple(x.shape[d] for d in kept) + (math.prod(x.shape[d] for d in axes),)
    rows = np.transpose(x, kept + axes).reshape(shape)
    reduce = np.maximum.reduce if kind == "max" else np.minimum.reduce
    with np.errstate(invalid="ignore"):  # NumPy's comparisons of NaNs warn; the kernel's do not
        return np.asarray(reduce(rows, axis=-1))


def _float32_power(n, x, _exponent):
    """lowering.py's float32 x ** 3 and x ** 4: in float64 (x * x exact), rounded to float32 once."""
    w = np.asarray(x, np.float64)
    with np.errstate(over="ignore"):
        return (w * w * w if n == 3 else (w * w) * (w * w)).astype(np.float32)


_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def select_bits(dtype, pred, on_true, on_false, out=None):
    """np.where(pred, on_true, on_false) of `dtype`, bit for bit, without its branch per element: on a
    random predicate (a relu's mask) np.where costs ~6 ns an element, this 3 branch-free passes (~5x
    less). On the values' bits as unsigned integers (wrapping): a + m * (b - a) is b where m is 1 and a
    where m is 0. `out`: on_true or on_false, of the result's shape and dtype, to write the result into
    (with no other new buffer than a bool mask)."""
    dtype = np.dtype(dtype)
    bits = _BITS[dtype.itemsize]
    true = np.asarray(on_true, dtype).view(bits)
    false = np.asarray(on_false, dtype).view(bits)
    if out is None:
        shape = np.broadcast_shapes(np.shape(pred), true.shape, false.shape)
        if not shape:  # all scalars
            return np.asarray(np.where(pred, on_true, on_false)).astype(dtype, copy=False)
        result = np.asarray(np.subtract(true, false))  # b - a: a new array (or a scalar)
        if result.shape == shape:
            np.multiply(result, pred, out=result)
        else:
            result = np.multiply(pred, result, dtype=bits)
        np.add(result, false, out=result)
        return result.view(dtype)
    if on_true is on_false:  # select(p, v, v) is v, already in `out`
        return out
    if out is on_true:  # the buffer holds b = on_true: a = on_false, m = pred
        a, mask, result = false, pred, true
    else:  # the buffer holds b = on_false: a = on_true, m = not pred
        a, mask, result = true, np.logical_not(pred), false
    np.subtract(result, a, out=result)
    np.multiply(result, mask, out=result)
    np.add(result, a, out=result)
    return out


def _region_step(eqn, donated=frozenset()):
    """(the step running a fusion region's twin, which of its outputs are in new buffers of their own)."""
    sub = widen_region(eqn.params["graph"])  # as its kernel computes it
    last = last_uses(sub)
    steps, reused, owned, compact = _region_steps(sub, donated, last)
    runner = interpret(sub, steps, reused=reused, last=last)
    full = [
        (k, x.aval.shape) for k, x in enumerate(sub.outputs) if x in compact
    ]  # outputs to broadcast: copies, as a kernel's outputs
    fresh = [
        (x in owned or x in compact) and sub.outputs.count(x) == 1 for x in sub.outputs
    ]
    # NumPy's ufuncs give a scalar for 0-d operands; a kernel's outputs are arrays (a loop feeds them
    # back into kernels, which take arrays only)
    scalars = [k for k, x in enumerate(sub.outputs) if not x.aval.shape]
    if not full and not scalars:
        return (lambda *inputs: runner(list(inputs))), fresh

    def run(*inputs):
        outs = runner(list(inputs))
        for k, shape in full:
            outs[k] = np.array(np.broadcast_to(outs[k], shape))
        for k in scalars:
            if type(outs[k]) is not np.ndarray:
                outs[k] = np.asarray(outs[k])
        return outs

    return run, fresh


def _donations(eqn, k, last, readers, exclusive, clean):
    """The inputs of the region eqn k (its sub-graph's input Vars) it may overwrite: top-level values in a
    buffer made for them alone (`exclusive`), dead after it, passed once, and read before only by steps
    whose results never alias their operands (`clean`)."""
    sub = eqn.params["graph"]
    donated = set()
    for x, inner in zip(eqn.inputs, sub.inputs):
        if (
            not isinstance(x, Literal)
            and x in exclusive
            and last[x] == k
            and eqn.inputs.count(x) == 1
            and all(r in clean for r in readers[x] if r != k)
        ):
            donated.add(inner)
    return donated


def compile_numba_twin(graph, donate=frozenset()) -> Executable:
    """The tier-0 executable of `graph` for the numba backend (see the module docstring); `donate`: the
    positions of inputs it may overwrite."""
    steps, plan = [], []
    last, readers = last_uses(graph), consumers(graph)
    exclusive = {graph.inputs[i] for i in donate}  # values in a buffer made for them alone
    clean = set()  # positions of steps whose results never share memory with their operands
    for k, eqn in enumerate(graph.eqns):
        if eqn.prim is fusion_p:
            problem = _region_problem(eqn.params["graph"])
            if problem is None:
                step, fresh = _region_step(eqn, _donations(eqn, k, last, readers, exclusive, clean))
                exclusive.update(v for v, new in zip(eqn.outputs, fresh) if new)
                if all(fresh):
                    clean.add(k)
                steps.append(step)
                plan.append(("fusion", "tier 0: NumPy twin of its compiled loop"))
            else:
                steps.append(_reference_region_step(eqn))
                plan.append(("fusion", f"reference: {problem}"))
            continue
        step = control_step(eqn, compile_numba_twin)
        if step is not None:
            steps.append(step)
            plan.append((eqn.prim.name, "host loop/branch over NumPy-twin bodies (tier 0)"))
            continue
        if eqn.prim.name in WRITES:  # into its dying operand's buffer, else a copy
            in_place = overwritable(graph, k, exclusive, clean, last, readers)
            steps.append(write_step(eqn, in_place))
            plan.append((eqn.prim.name, describe_update(in_place)))
            exclusive.update(eqn.outputs)
            clean.add(k)
            continue
        if eqn.prim.name == "dot_general":  # np.matmul's new array (or a reshaped view of it)
            exclusive.update(eqn.outputs)
            clean.add(k)
        steps.append(reference_step(eqn))
        plan.append((eqn.prim.name, "numpy BLAS" if eqn.prim.name == "dot_general" else "reference"))
    runner = interpret(graph, steps, [how for _, how in plan], donated=donate, last=last)
    return Executable(graph, plan, alias_safe(graph, runner))
