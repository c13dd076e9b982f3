"""Executing control flow with compiled bodies: the loop or branch runs on the host, each body is a compiled
Executable of the same backend (so the loop is real, never unrolled, and its body runs fused kernels).
The same loops drive host bodies (NumPy arrays) and device bodies (cupy's: backends/cupy/backend.py):
the host reads what it decides by (a branch index, a while condition) from the body's results."""

from __future__ import annotations

import numpy as np
from arraystack.backends.updates import WRITES
from arraystack.ir.control import scan_p, switch_p, while_p


def control_step(eqn, compile_graph, xp=np):
    """A step function for a switch/while/scan equation, or None for other primitives.

    compile_graph(graph, donate=frozenset()) -> Executable compiles a body or branch; `xp` is the array
    module the bodies run on (NumPy, cupy or its stand-in)."""
    params = eqn.params
    _arrays = _host_arrays if xp is np else _arrays_of(xp)
    if eqn.prim is switch_p:
        runners = [compile_graph(g).runner for g in params["branches"]]
        last = len(runners) - 1

        def switch_step(index, *operands):
            return runners[min(max(int(index), 0), last)](_arrays(operands))

        return switch_step
    if eqn.prim is while_p:
        cond = compile_graph(params["cond"]).runner
        nc, nb = params["cond_nconsts"], params["body_nconsts"]
        body, owned = _body(compile_graph, params["body"], nb, len(eqn.inputs) - nc - nb)

        def while_step(*operands):
            operands = _arrays(operands)
            cc = list(operands[:nc])
            bc = list(operands[nc : nc + nb])
            carry = _own(operands[nc + nb :], owned, xp)
            while bool(cond(cc + carry)[0]):
                carry = _arrays(body(bc + carry))  # a region run by reference rules gives scalars
            return carry

        return while_step
    if eqn.prim is scan_p:
        body_graph = params["body"]
        nconsts, ncarry, length, reverse = (
            params[k] for k in ("nconsts", "ncarry", "length", "reverse")
        )
        body, owned = _body(compile_graph, body_graph, nconsts, ncarry)
        y_avals = body_graph.out_avals[ncarry:]

        def scan_step(*operands):
            operands = _arrays(operands)
            consts = list(operands[:nconsts])
            carry = _own(operands[nconsts : nconsts + ncarry], owned, xp)
            xs = operands[nconsts + ncarry :]
            ys = [xp.empty((length,) + tuple(a.shape), a.dtype) for a in y_avals]
            for i in range(length - 1, -1, -1) if reverse else range(length):
                out = body(consts + carry + [x[i, ...] for x in xs])  # x[i, ...]: 0-d, an array
                carry = _arrays(out[:ncarry])  # a region run by reference rules gives scalars
                for y, value in zip(ys, out[ncarry:]):
                    y[i] = value
            return carry + ys

        return scan_step
    return None


def _body(compile_graph, body, first, ncarry):
    """(the body's runner, the carries it writes into). A carry the body writes (`x.at[i].set(v)`,
    `x[a:b] = v`) is donated to the body's plan, which may then write it in place (a window per write,
    not a copy of the array); the loop hands the body its own copy of such a carry on the first
    iteration and the body's results after it (executable.alias_safe: never a view of a body input), so
    it never writes its operands."""
    carries = body.inputs[first : first + ncarry]
    owned = sorted(
        {
            carries.index(e.inputs[0])
            for e in body.eqns
            if e.prim.name in WRITES and e.inputs[0] in carries
        }
    )
    if not owned:
        return compile_graph(body).runner, ()
    return compile_graph(body, donate=frozenset(first + c for c in owned)).runner, tuple(owned)


def _own(carry, owned, xp) -> list:
    carry = list(carry)
    for c in owned:
        carry[c] = xp.array(carry[c], copy=True)
    return carry


def _host_arrays(values) -> list:
    """Operands as arrays: compiled bodies take arrays, while constants folded into the plan and Python
    numbers in a carry arrive as NumPy or Python scalars."""
    return [v if type(v) is np.ndarray else np.asarray(v) for v in values]


def _arrays_of(xp):
    """Operands as arrays of the device module `xp` (constants and numbers arrive as NumPy's or Python's)."""
    array, asarray = xp.ndarray, xp.asarray
    return lambda values: [v if isinstance(v, array) else asarray(v) for v in values]
