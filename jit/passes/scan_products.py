"""hoist_scan_products: products a scan computes step by step become one product over all steps, outside the
loop, where no carry feeds them.

Two shapes of per-step product leave the loop:

- An input projection: ``dot_general(x_t, W)`` of a step's slice of xs and a loop-invariant operand (a GRU's or
  an LSTM's ``x_t @ W_ih``) is computed once as ``dot_general(xs, W)`` before the loop; the body reads its
  slices as a new xs operand.
- An accumulation: a carry updated only as ``c + dot_general(a_t, b_t)`` or ``c + reduce_sum(v_t)``, where
  nothing else reads it (reverse mode's weight and bias gradients: ``dW += h_t^T @ g_t``), leaves the carries;
  the body stacks the operands it computes (a slice of xs is used as it is) and after the loop one product
  contracts the time axis with the others: ``c_T = c_0 + dot_general(A, B)``.

A step's product of a 32-row batch is a small matrix product, which BLAS runs at a fraction of its speed on
a large one; over all steps it is one large product (and can use every thread). What the loop body returns
as a stacked output that is a slice of xs is that xs operand itself. The values stacked for the products
take at most STACKED_BYTES; beyond that a scan keeps its products. Sums run in another order than the
step-by-step accumulation, so the results can differ in the last bits from the loop's.
"""

from __future__ import annotations

import math

from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.control import scan_p
from arraystack.ir.ir import Eqn, Graph, Literal, Var
from arraystack.ir.passes.dce import eliminate_dead_code
from arraystack.ir.passes.pipeline import count

STACKED_BYTES = 256 * 2**20


def hoist_scan_products(graph: Graph) -> Graph:
    eqns: list = []
    rename: dict = {}
    for e in graph.eqns:
        if rename:
            e = _renamed(e, rename)
        if e.prim is scan_p:
            eqns.extend(_Scan(e).rewrite(rename))
        else:
            eqns.append(e)
    if len(eqns) == len(graph.eqns) and all(a is b for a, b in zip(eqns, graph.eqns)):
        return graph
    outputs = tuple(rename.get(x, x) if isinstance(x, Var) else x for x in graph.outputs)
    return Graph(graph.inputs, tuple(eqns), outputs)


def _renamed(e, rename):
    if not any(isinstance(x, Var) and x in rename for x in e.inputs):
        return e
    inputs = tuple(rename.get(x, x) if isinstance(x, Var) else x for x in e.inputs)
    return Eqn(e.prim, inputs, e.outputs, e.params, e.source)


def _nbytes(aval, length) -> int:
    return length * math.prod(aval.shape) * aval.dtype.itemsize


class _Scan:
    """A scan equation taken apart: outer operands and outputs, the body's parts; rewrite() puts it back
    together with the equations that run before and after it."""

    def __init__(self, eqn):
        self.eqn = eqn
        pr = eqn.params
        self.length, nconsts, ncarry = pr["length"], pr["nconsts"], pr["ncarry"]
        body = pr["body"]
        ins, outs = list(eqn.inputs), list(eqn.outputs)
        self.consts = list(zip(body.inputs[:nconsts], ins[:nconsts]))  # (body input, outer operand)
        self.carries = list(
            zip(body.inputs[nconsts : nconsts + ncarry], ins[nconsts : nconsts + ncarry],
                body.outputs[:ncarry], outs[:ncarry])
        )  # (body input, outer init, body output, outer final)
        self.xs = list(zip(body.inputs[nconsts + ncarry :], ins[nconsts + ncarry :]))
        self.ys = list(zip(body.outputs[ncarry:], outs[ncarry:]))  # (body output, outer stacked)
        self.eqns = list(body.eqns)
        self.before: list = []
        self.after: list = []
        self.stacked = 0  # bytes of the values this rewrite stacks

    def rewrite(self, rename) -> list:
        changed = self._hoist_projections()
        changed |= self._hoist_accumulations()
        changed |= self._forward_xs(rename)
        if not changed:
            return [self.eqn]
        body = eliminate_dead_code(Graph(
            tuple(b for b, _ in self.consts) + tuple(c[0] for c in self.carries) + tuple(b for b, _ in self.xs),
            tuple(self.eqns),
            tuple(c[2] for c in self.carries) + tuple(b for b, _ in self.ys),
        ))
        params = {**self.eqn.params, "body": body, "ncarry": len(self.carries)}
        inputs = tuple(o for _, o in self.consts) + tuple(c[1] for c in self.carries) + tuple(o for _, o in self.xs)
        outputs = tuple(c[3] for c in self.carries) + tuple(o for _, o in self.ys)
        return [*self.before, Eqn(scan_p, inputs, outputs, params, self.eqn.source), *self.after]

    def _fits(self, nbytes) -> bool:
        if self.stacked + nbytes > STACKED_BYTES:
            return False
        self.stacked += nbytes
        return True

    def _hoist_projections(self) -> bool:
        """dot_general(x_t, W) (either order, no batch dimensions) -> a slice of dot_general(xs, W)."""
        consts = dict(self.consts)
        xs = dict(self.xs)
        changed = False
        for e in list(self.eqns):
            if e.prim is not s.dot_general_p:
                continue
            (lc, rc), (lb, _) = e.params["dimension_numbers"]
            a, b = e.inputs
            if lb or not (a in xs and b in consts or a in consts and b in xs):
                continue
            if isinstance(consts.get(a, consts.get(b)), Literal):
                continue
            out = e.outputs[0]
            if not self._fits(_nbytes(out.aval, self.length)):
                continue
            if a in xs:
                dims = ((tuple(i + 1 for i in lc), tuple(rc)), ((), ()))
                stacked = Var(out.aval.update(shape=(self.length, *out.aval.shape)))
                self.before.append(Eqn(s.dot_general_p, (xs[a], consts[b]), (stacked,),
                                       {"dimension_numbers": dims}, e.source))
            else:  # the time axis lands after W's free axes: move it in front
                dims = ((tuple(lc), tuple(i + 1 for i in rc)), ((), ()))
                nfree = a.aval.ndim - len(lc)
                shape = out.aval.shape
                product = Var(out.aval.update(shape=(*shape[:nfree], self.length, *shape[nfree:])))
                self.before.append(Eqn(s.dot_general_p, (consts[a], xs[b]), (product,),
                                       {"dimension_numbers": dims}, e.source))
                stacked = Var(out.aval.update(shape=(self.length, *shape)))
                perm = (nfree, *range(nfree), *range(nfree + 1, len(shape) + 1))
                self.before.append(Eqn(s.transpose_p, (product,), (stacked,), {"permutation": perm}, e.source))
            self.eqns.remove(e)
            self.xs.append((out, stacked))  # the body reads the product's slice where it computed it
            count("input products hoisted")
            changed = True
        return changed

    def _hoist_accumulations(self) -> bool:
        changed = False
        for carry in list(self.carries):
            if self._accumulation(carry):
                count("accumulated products hoisted")
                changed = True
        return changed

    def _uses(self, v) -> int:
        n = sum(1 for e in self.eqns for x in e.inputs if x is v)
        n += sum(1 for c in self.carries if c[2] is v) + sum(1 for y, _ in self.ys if y is v)
        return n

    def _producer(self, v):
        return next((e for e in self.eqns if v in e.outputs), None)

    def _invariant(self) -> set:
        """The body's values that are the same every step: its consts and what only they compute."""
        invariant = {b for b, _ in self.consts}
        for e in self.eqns:
            if all(isinstance(x, Literal) or x in invariant for x in e.inputs):
                invariant.update(e.outputs)
        return invariant

    def _accumulation(self, carry) -> bool:
        c_in, c0, c_out, final = carry
        add = self._producer(c_out)
        if add is None or add.prim is not p.add_p or c_in not in add.inputs or self._uses(c_in) != 1:
            return False
        if self._uses(c_out) != 1:
            return False
        r = add.inputs[1] if add.inputs[0] is c_in else add.inputs[0]
        term = self._producer(r) if isinstance(r, Var) else None
        if term is None or self._uses(r) != 1 or (r.aval.shape, r.aval.dtype) != (c_in.aval.shape, c_in.aval.dtype):
            return False
        if term.prim not in (s.dot_general_p, s.reduce_sum_p):
            return False
        invariant = self._invariant()
        if any(isinstance(x, Literal) or x in invariant or x is c_in for x in term.inputs):
            return False
        xs = dict(self.xs)
        stacked_ys = {b: o for b, o in self.ys}
        new = [x for x in dict.fromkeys(term.inputs) if x not in xs and x not in stacked_ys]
        if not self._fits(sum(_nbytes(x.aval, self.length) for x in new)):
            return False
        for x in new:
            stacked_ys[x] = Var(x.aval.update(shape=(self.length, *x.aval.shape)))
            self.ys.append((x, stacked_ys[x]))
        operands = tuple(xs.get(x) or stacked_ys[x] for x in term.inputs)
        total = Var(r.aval)
        if term.prim is s.dot_general_p:
            (lc, rc), (lb, rb) = term.params["dimension_numbers"]
            shift = lambda axes: tuple(i + 1 for i in axes)  # noqa: E731
            dims = (((0, *shift(lc)), (0, *shift(rc))), (shift(lb), shift(rb)))
            params = {"dimension_numbers": dims}
        else:
            params = {**term.params, "axes": (0, *(i + 1 for i in term.params["axes"]))}
        self.after.append(Eqn(term.prim, operands, (total,), params, term.source))
        pair = (c0, total) if add.inputs[0] is c_in else (total, c0)
        self.after.append(Eqn(p.add_p, pair, (final,), add.params, add.source))
        self.eqns.remove(add)
        self.eqns.remove(term)
        self.carries.remove(carry)
        return True

    def _forward_xs(self, rename) -> bool:
        """A stacked output that is a slice of xs is that xs operand."""
        xs = dict(self.xs)
        kept = []
        for y, outer in self.ys:
            if y in xs and y.aval.dtype == xs[y].aval.dtype:
                rename[outer] = xs[y]
                count("stacked slices forwarded")
            else:
                kept.append((y, outer))
        changed = len(kept) != len(self.ys)
        self.ys = kept
        return changed
