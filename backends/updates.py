"""update_slice (`x[i] = v` under a trace) and scatter (`x[idx] = v`, `x.at[i].set(v)`) as plan steps that
write into x's own buffer where the plan may: x dies at the write, and no other value still alive can see
x's memory. Otherwise the step copies x first (the reference rule). A loop of row writes
`out[i] = f(x[i])` then costs each write its row, not the whole array (128 rows of 256 float64: 12 ms a
call as pads and selects, which copy the array per row).

Every plan that owns buffers uses it: the numba plan (backends/numba/__init__.py), its NumPy twin
(twin.py), the cupy plan (backends/cupy/backend.py), and host loops handing a written carry to a body
(control.py).
"""

from __future__ import annotations

import functools

import numpy as np
from arraystack.backends.reference import reference_step
from arraystack.ir.ir import Literal
from arraystack.ir.reference import scatter_into

# Equations writing into their first operand (x.at[i].set(v), x[a:b] = v)
WRITES = frozenset({"update_slice", "scatter"})

# Reference rules that always return fresh memory, never their operand or a view of it. Their outputs are
# buffers the plan owns, and reading a buffer with them leaves no alias behind that an in-place write would
# change (reshape, slice, stop_gradient, convert to the same dtype, ... may return the operand itself).
# update_slice gives a copy, or its dying operand's buffer, which nothing alive can see.
FRESH_PRIMS = frozenset(
    {"cumsum", "cumprod", "cummax", "cummin", "dot_general", "concatenate", "pad", "full", "copy"}
    | WRITES
    | {"reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and", "reduce_or"}
    | {"argmax", "argmin"}
)


def overwritable(graph, k, fresh, clean, last, readers) -> bool:
    """Whether equation k, an update_slice or scatter, may write into its operand x's buffer.

    fresh: values in a buffer made for them alone (a kernel's output, a donated argument); clean: positions
    of steps whose results never share memory with their operands. x must be fresh, read last at k and not
    also as the written value, and every value that may view x's memory (what a step outside `clean` made
    from x, and from those in turn) must be dead by k: the write then changes nothing anyone reads later.
    A value read at k itself may overlap the window (`x[1:] = x[:-1]`): NumPy's assignment copies it first.
    """
    eqn = graph.eqns[k]
    x = eqn.inputs[0]
    if isinstance(x, Literal) or x not in fresh or last.get(x) != k or eqn.inputs.count(x) != 1:
        return False
    views, seen = [x], {x}
    while views:
        value = views.pop()
        for j in readers.get(value, ()):
            if j == k or j in clean:
                continue
            for out in graph.eqns[j].outputs:
                if last.get(out, len(graph.eqns)) > k:
                    return False
                if out not in seen:
                    seen.add(out)
                    views.append(out)
    return True


def write_step(eqn, in_place: bool, xp=np, run=None):
    """The step running the update_slice or scatter `eqn`: into x's buffer when `in_place` (see
    overwritable) and x is a writeable array of `xp`, else into a copy (`run`, by default the reference
    rule with xp = NumPy)."""
    copying = reference_step(eqn) if run is None else run
    if not in_place:
        return copying
    array = xp.ndarray
    if xp is np:

        def writeable(x):
            return type(x) is array and x.flags.writeable

    else:  # device arrays (cupy) have no read-only flag

        def writeable(x):
            return type(x) is array

    p = eqn.params
    if eqn.prim.name == "scatter":
        into = functools.partial(scatter_into, xp, **p)

        def scatter(x, updates, *indices):
            if not writeable(x):
                return copying(x, updates, *indices)
            return into(x, updates, *indices)

        return scatter
    bounds = zip(p["start_indices"], p["limit_indices"], p["strides"])
    window = tuple(slice(lo, hi, st) for lo, hi, st in bounds)

    def step(x, v):
        if not writeable(x):
            return copying(x, v)
        x[window] = v
        return x

    return step


def describe(in_place: bool) -> str:
    """How an update_slice or scatter step runs, for .compile()."""
    if in_place:
        return "writes into its operand's buffer (the operand dies here)"
    return "reference: a copy of its operand, written"
