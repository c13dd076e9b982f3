"""Executing control flow with compiled bodies: the loop or branch runs on the host, each body is a compiled
Executable of the same backend (so the loop is real, never unrolled, and its body runs fused kernels)."""

from __future__ import annotations

import numpy as np

from arraystack.ir.control import scan_p, switch_p, while_p


def control_step(eqn, compile_graph):
    """A step function for a switch/while/scan equation, or None for other primitives."""
    params = eqn.params
    if eqn.prim is switch_p:
        runners = [compile_graph(g).runner for g in params["branches"]]
        last = len(runners) - 1

        def switch_step(index, *operands):
            return runners[min(max(int(index), 0), last)](_arrays(operands))

        return switch_step
    if eqn.prim is while_p:
        cond = compile_graph(params["cond"]).runner
        body = compile_graph(params["body"]).runner
        nc, nb = params["cond_nconsts"], params["body_nconsts"]

        def while_step(*operands):
            operands = _arrays(operands)
            cc = list(operands[:nc])
            bc = list(operands[nc : nc + nb])
            carry = list(operands[nc + nb :])
            while bool(cond(cc + carry)[0]):
                carry = list(body(bc + carry))
            return carry

        return while_step
    if eqn.prim is scan_p:
        body_graph = params["body"]
        body = compile_graph(body_graph).runner
        nconsts, ncarry, length, reverse = (
            params[k] for k in ("nconsts", "ncarry", "length", "reverse")
        )
        y_avals = body_graph.out_avals[ncarry:]

        def scan_step(*operands):
            operands = _arrays(operands)
            consts = list(operands[:nconsts])
            carry = list(operands[nconsts : nconsts + ncarry])
            xs = [np.asarray(x) for x in operands[nconsts + ncarry :]]
            ys = [np.empty((length,) + tuple(a.shape), a.dtype) for a in y_avals]
            for i in range(length - 1, -1, -1) if reverse else range(length):
                out = body(consts + carry + [x[i, ...] for x in xs])  # a 0-d array, never a scalar
                carry = list(out[:ncarry])
                for y, value in zip(ys, out[ncarry:]):
                    y[i] = value
            return carry + ys

        return scan_step
    return None


def _arrays(values) -> list:
    """Operands as arrays: compiled bodies take arrays, while constants folded into the plan and Python
    numbers in a carry arrive as NumPy or Python scalars."""
    return [v if type(v) is np.ndarray else np.asarray(v) for v in values]
