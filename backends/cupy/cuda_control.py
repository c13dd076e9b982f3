"""Control flow on a CUDA device: `switch`, `while` and `scan` as loops on the host over compiled bodies.

Each body or branch is an Executable of the cupy backend (its fusion regions are CUDA kernels, the rest
cupy rules), so the loop is real, never unrolled. The host reads what it decides by (a branch index, a
while condition) back from the device each step: one small copy and a synchronization per step, the
price of a host-driven loop (docs/internals/cuda.md says what a loop on the device would need).
"""

from __future__ import annotations

from arraystack.ir.control import scan_p, switch_p, while_p

CONTROL = (switch_p, while_p, scan_p)


def control_step(eqn, compile_graph, xp):
    """A step function running `eqn` (switch, while or scan) with bodies compiled by
    `compile_graph(graph) -> Executable`, on arrays of `xp` (cupy or its stand-in)."""
    params = eqn.params
    if eqn.prim is switch_p:
        runners = [compile_graph(g).runner for g in params["branches"]]
        last = len(runners) - 1

        def switch_step(index, *operands):
            return runners[min(max(int(index), 0), last)](_device(operands, xp))

        return switch_step
    if eqn.prim is while_p:
        cond = compile_graph(params["cond"]).runner
        body = compile_graph(params["body"]).runner
        nc, nb = params["cond_nconsts"], params["body_nconsts"]

        def while_step(*operands):
            operands = _device(operands, xp)
            cc, bc, carry = operands[:nc], operands[nc : nc + nb], operands[nc + nb :]
            while bool(cond(cc + carry)[0]):
                carry = list(body(bc + carry))
            return carry

        return while_step
    body_graph = params["body"]
    body = compile_graph(body_graph).runner
    nconsts, ncarry, length, reverse = (
        params[k] for k in ("nconsts", "ncarry", "length", "reverse")
    )
    y_avals = body_graph.out_avals[ncarry:]

    def scan_step(*operands):
        operands = _device(operands, xp)
        consts = operands[:nconsts]
        carry = operands[nconsts : nconsts + ncarry]
        xs = operands[nconsts + ncarry :]
        ys = [xp.empty((length, *a.shape), a.dtype) for a in y_avals]
        for i in range(length - 1, -1, -1) if reverse else range(length):
            out = body(consts + carry + [x[i] for x in xs])
            carry = list(out[:ncarry])
            for y, value in zip(ys, out[ncarry:]):
                y[i] = value
        return carry + ys

    return scan_step


def _device(values, xp) -> list:
    """Operands as device arrays: constants folded into the plan and Python numbers in a carry arrive
    as NumPy or Python scalars."""
    return [v if isinstance(v, xp.ndarray) else xp.asarray(v) for v in values]
