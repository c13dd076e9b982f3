"""JVP, VJP and batching rules of scan (the sub-graph plumbing is shared with rules_control.py).

Operands: *consts *init *xs; outputs: *final_carry *stacked_ys; body (*consts, *carry, *x) -> (*carry, *y).
- JVP: one scan whose body is the body's JVP; every inexact carry carries a tangent (zeros where the initial
  one is zero), so the loop's types stay fixed.
- VJP: a forward scan stacks the carry entering each step and the step's products (dot_general results,
  up to KEPT_PRODUCT_BYTES in all), then a scan in the opposite direction runs the body's VJP at each step
  (recomputing the step's other values from the stored carry, reading the stored products): its carry
  holds the carry cotangent and the running sum of the consts' cotangents, its ys are the cotangents of xs.
  The forward scan is the value's own loop run again; the merge_scans pass makes them one loop.
- Batching: a carry is batched if it starts batched or the body makes it so (a fixed point over the body);
  every y is batched. A batched xs leaf enters the scan as (length, size, ...), the batch axis second, so each
  step's slice has the batch axis first; stacked ys are moved back to (size, length, ...).
"""

from __future__ import annotations

import math

from arraystack.ir.ad import ops
from arraystack.ir.ad.batching import batch_rules, move_to_front
from arraystack.ir.ad.forward import jvp_rules
from arraystack.ir.ad.reverse import vjp_rules
from arraystack.ir.ad.rules_control import (
    _avals,
    _batched_carries,
    _batched_eval,
    _diff,
    _inexact,
    _instantiate,
    _jvp_of,
    _placed,
    _split,
    _subgraph,
    _vjp_of,
    _with_batch,
)
from arraystack.ir.control import scan_p
from arraystack.ir.core import bind
from arraystack.ir.ir import Graph


def _slice_avals(xs):
    return [a.update(shape=a.shape[1:]) for a in _avals(xs)]


def _scan_jvp(primals, tangents, out, *, body, nconsts, ncarry, length, reverse):
    consts, init, xs = _split(primals, nconsts, ncarry)
    c_t, k_t, x_t = _split(tangents, nconsts, ncarry)
    nx, ny = len(xs), len(body.outputs) - ncarry
    cnz = [i for i, t in enumerate(c_t) if t is not None]
    xnz = [i for i, t in enumerate(x_t) if t is not None]
    kdiff = _diff(init)
    ydiff = [j for j, a in enumerate(body.out_avals[ncarry:]) if _inexact(a)]

    def step(*a):
        c, ct, k, kt, x, xt = _split(a, nconsts, len(cnz), ncarry, len(kdiff), nx)
        full = _placed(nconsts, cnz, ct) + _placed(ncarry, kdiff, kt) + _placed(nx, xnz, xt)
        want = kdiff + [ncarry + j for j in ydiff]
        outs, touts = _jvp_of(body, c + k + x, full, want)
        return outs[:ncarry] + touts[: len(kdiff)] + outs[ncarry:] + touts[len(kdiff) :]

    c_avals, k_avals, x_avals = _avals(consts), _avals(init), _slice_avals(xs)
    g, gconsts = _subgraph(
        step,
        c_avals
        + [c_avals[i] for i in cnz]
        + k_avals
        + [k_avals[k] for k in kdiff]
        + x_avals
        + [x_avals[i] for i in xnz],
    )
    res = bind(
        scan_p,
        *gconsts,
        *consts,
        *[c_t[i] for i in cnz],
        *init,
        *[_instantiate(k_t[k], init[k]) for k in kdiff],
        *xs,
        *[x_t[i] for i in xnz],
        body=g,
        nconsts=len(gconsts) + nconsts + len(cnz),
        ncarry=ncarry + len(kdiff),
        length=length,
        reverse=reverse,
    )
    _, carry_t, _, ys_t = _split(res, ncarry, len(kdiff), ny)
    return _placed(ncarry, kdiff, carry_t) + _placed(ny, ydiff, ys_t)


def _scan_vjp(ct, out, needs, *operands, body, nconsts, ncarry, length, reverse):
    consts, init, xs = _split(operands, nconsts, ncarry)
    nx, ny = len(xs), len(body.outputs) - ncarry
    cdiff = [i for i in _diff(consts) if needs[i]]
    kdiff = _diff(init)
    xdiff = [i for i in _diff(xs) if needs[nconsts + ncarry + i]]
    ydiff = [j for j, a in enumerate(body.out_avals[ncarry:]) if _inexact(a)]
    if not (cdiff or xdiff or any(needs[nconsts + k] for k in kdiff)):
        return [None] * len(operands)
    # forward again, stacking the carry that enters each step (every carry: the step is recomputed from
    # it) and the products of the step (kept, not recomputed: see _kept_products)
    carry_in = body.inputs[nconsts : nconsts + ncarry]
    kept = _kept_products(body, length)
    products = tuple(body.eqns[k].outputs[0] for k in kept)
    store = Graph(body.inputs, body.eqns, tuple(body.outputs[:ncarry]) + tuple(carry_in) + products)
    stored = bind(
        scan_p,
        *operands,
        body=store,
        nconsts=nconsts,
        ncarry=ncarry,
        length=length,
        reverse=reverse,
    )[ncarry:]
    diff = cdiff + [nconsts + k for k in kdiff] + [nconsts + ncarry + i for i in xdiff]

    def step(*a):
        c, acc, kct, k, x, p, yct = _split(a, nconsts, len(cdiff), len(kdiff), ncarry, nx, len(kept))
        cts = _placed(ncarry, kdiff, kct) + _placed(ny, ydiff, yct)
        given = dict(zip(kept, p))
        g_c, g_k, g_x = _split(_vjp_of(body, c + k + x, diff, cts, given), len(cdiff), len(kdiff))
        return [ops.add(s, g) for s, g in zip(acc, g_c)] + g_k + g_x

    c_avals, k_avals = _avals(consts), _avals(init)
    y_avals = body.out_avals[ncarry:]
    g, gconsts = _subgraph(
        step,
        c_avals
        + [c_avals[i] for i in cdiff]
        + [k_avals[k] for k in kdiff]
        + k_avals
        + _slice_avals(xs)
        + [v.aval for v in products]
        + [y_avals[j] for j in ydiff],
    )
    res = bind(
        scan_p,
        *gconsts,
        *consts,
        *[ops.zeros_like(consts[i]) for i in cdiff],
        *[ct[k] for k in kdiff],
        *stored[:ncarry],
        *xs,
        *stored[ncarry:],
        *[ct[ncarry + j] for j in ydiff],
        body=g,
        nconsts=len(gconsts) + nconsts,
        ncarry=len(cdiff) + len(kdiff),
        length=length,
        reverse=not reverse,
    )
    ct_c, ct_k, ct_x = _split(res, len(cdiff), len(kdiff))
    ct_k = [v if needs[nconsts + k] else None for k, v in zip(kdiff, ct_k)]
    return _placed(nconsts, cdiff, ct_c) + _placed(ncarry, kdiff, ct_k) + _placed(nx, xdiff, ct_x)


# Products a step computes are stacked by the forward loop for the backward one when all of them together
# take at most this many bytes over the whole loop; beyond it they are recomputed from the stored carries.
KEPT_PRODUCT_BYTES = 256 << 20


def _kept_products(body, length) -> list:
    """Positions of the body's top-level products (dot_general of floats) whose per-step results the
    forward loop stacks, so that the backward loop reads them instead of computing them again (the
    operands' cotangents still flow through each product's rule): a GRU or LSTM step's two products."""
    kept, total = [], 0
    for k, eqn in enumerate(body.eqns):
        if eqn.prim.name != "dot_general" or not _inexact(eqn.outputs[0].aval):
            continue
        aval = eqn.outputs[0].aval
        size = length * aval.dtype.itemsize * math.prod(aval.shape)
        if total + size <= KEPT_PRODUCT_BYTES:
            kept.append(k)
            total += size
    return kept


def _swap_leading(x):
    return ops.transpose(x, (1, 0) + tuple(range(2, len(ops.shape(x)))))


def _scan_batch(size, args, batched, *, body, nconsts, ncarry, length, reverse):
    consts, init, xs = _split(args, nconsts, ncarry)
    cb, kb0, xb = _split(batched, nconsts, ncarry)
    xs = [_swap_leading(x) if b else x for x, b in zip(xs, xb)]
    examples = [a.update(shape=a.shape[1:]) if b else a for a, b in zip(_avals(init), kb0)]
    fixed = _avals(consts), _slice_avals(xs)

    def inputs(flags):
        carry = [_with_batch(a, b, size) for a, b in zip(examples, flags)]
        return fixed[0] + carry + fixed[1], cb + flags + xb

    kb = _batched_carries(body, kb0, inputs, size)
    init = [move_to_front(v, b0, size) if b else v for v, b0, b in zip(init, kb0, kb)]
    ny = len(body.outputs) - ncarry
    force = [k for k, b in enumerate(kb) if b] + list(range(ncarry, ncarry + ny))

    def step(*a):
        return _batched_eval(body, a, cb + kb + xb, size, force)[0]

    g, gconsts = _subgraph(step, inputs(kb)[0])
    res = bind(
        scan_p,
        *gconsts,
        *consts,
        *init,
        *xs,
        body=g,
        nconsts=len(gconsts) + nconsts,
        ncarry=ncarry,
        length=length,
        reverse=reverse,
    )
    carry = [move_to_front(v, b, size) for v, b in zip(res[:ncarry], kb)]
    return carry + [_swap_leading(y) for y in res[ncarry:]]


jvp_rules[scan_p] = _scan_jvp
vjp_rules[scan_p] = _scan_vjp
batch_rules[scan_p] = _scan_batch
