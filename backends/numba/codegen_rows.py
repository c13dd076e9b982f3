"""Per-row additions to staged kernels (codegen_staged.py) that keep rows and reduce along them.

- prefetched_rows: the passes after a row's first run from L1 and ask nothing of memory; laned
  passes prefetch the next row meanwhile (inputs for reading in the first, outputs for writing in
  the first after pass 0), so the next row's passes find it in the caches.
- streamed_inputs: a full reduction's laned passes stream whole arrays; each group prefetches the
  lines STREAM_AHEAD_BYTES ahead of it.
- exact_divisions: a division by a per-row value (softmax's e / sum, layernorm's d / std) runs as
  exact_quotient (a reciprocal and two FMAs, the bits of the division) where a check of the row's
  dividends just before the dividing pass finds them all in range; the dividing pass is emitted twice,
  the division kept for other rows.
"""

from __future__ import annotations

import numpy as np

from arraystack.backends.numba.codegen import REDUCTIONS
from arraystack.ir import structural as s
from arraystack.ir.ir import Literal
from arraystack.ir.primitives import div_p


def _laned(reds):
    return any(
        REDUCTIONS[e.prim] in ("sum", "prod") and e.outputs[0].aval.dtype.kind == "f" for e in reds
    )


def prefetched_rows(region, plans, total):
    """{pass: [(array, elements per 64-byte line, for write, rows ahead)]}: in its groups, a pass
    loads lines of a later row (i0 + ahead) into the caches: of each full input for reading in the
    first laned pass, of each full output for writing (owned: its stores then skip the
    read-for-ownership) in the first laned pass after the first pass (softmax: both in the exp
    pass; layernorm: inputs in the mean pass, outputs in the variance pass). None without a laned
    pass after the first. The passes after the first run from L1 and request nothing from memory;
    without it the next row's first pass waits for memory (softmax (4096, 1024) float32:
    1.15-1.25x, the outputs' another ~4% at 1 thread). Spreading the requests over two passes keeps
    fewer of them waiting at once (layernorm (4096, 1024): 1.6-1.9% at 1 thread, none measurable
    at 2); fewer requests (one per group, or the row's first lines only, leaving the rest to the
    hardware prefetcher) were 10-30% slower; the next row's inputs two rows ahead instead, 4-7%.
    Where the first pass is laned and a last pass of three or more has no reduction (layernorm's
    scaling), that pass would leave memory idle too: it reads the inputs of the row after next
    (layernorm (4096, 1024) float32: -5-9% at 2 threads and at 1, interleaved in one process).
    Softmax's last pass does not (its first pass, the max, is not laned): there it was 13-17%
    slower. Where the first laned pass is not the first (softmax's exp pass, after the max), it
    prefetches the inputs two rows ahead: issued there, the next row's lines had too little time
    before the next row's max pass wanted them (a 2-core AMD EPYC VM, (4096, 1024) float32, two
    interleaved runs: 0.663 -> 0.579 ms at 2 threads, 1.283 -> 1.092 ms at 1, where layernorm's
    inputs two rows ahead changed nothing measurable). Rank 2 with rows kept; correct for any
    layout (the address comes from the strides), useful for C order."""
    if total or region.rank != 2 or region.kept != (0,):
        return {}
    laned = [p for p in range(len(plans)) if _laned(plans[p][0])]
    later = [p for p in laned if p >= 1]
    if not later:
        return {}
    inputs = [
        (region.names[v], max(1, 64 // v.aval.dtype.itemsize), False)
        for v in region.graph.inputs
        if region.level(v) == "full"
    ]
    outputs = [
        (f"o{k}", max(1, 64 // v.aval.dtype.itemsize), True)
        for k, v in enumerate(region.graph.outputs)
        if region.level(v) == "full"
    ]
    rows = {}
    ahead = 1 if laned[0] == 0 else 2
    rows.setdefault(laned[0], []).extend((name, step, write, ahead) for name, step, write in inputs)
    rows.setdefault(later[0], []).extend((name, step, write, 1) for name, step, write in outputs)
    last = len(plans) - 1
    if laned[0] == 0 and last >= 2 and last not in laned:
        # the last pass asks nothing of memory either: it reads the inputs of the row after next
        rows[last] = [(name, step, write, 2) for name, step, write in inputs]
    return {p: r for p, r in rows.items() if r}


# How far ahead a streaming pass prefetches. A sum of squares over 1e7 float32 (a parallel kernel,
# interleaved with NumPy and a copy): none 1.23 / 1.17 ms at one / two threads, 2 KB ahead 1.06 / 0.90,
# 4 KB 0.98 / 0.80, 8 KB 0.91-1.05 / 0.75-0.89, 16 KB 1.04 / 0.74, 32 KB 1.02 / 0.71 ms: the hardware
# prefetcher alone keeps too few lines in flight on these VMs (a plain fastmath loop 0.93 / 0.65 ms).
STREAM_AHEAD_BYTES = 16384


def streamed_inputs(region, plans, total):
    """[(array, elements per 64-byte line, elements ahead)]: the full inputs a full reduction's laned
    passes prefetch, STREAM_AHEAD_BYTES ahead of each group along the last axis (an address past a row's
    end is the next row's, in C order; past the array's end, a dropped hint). Empty for other
    regions, and for regions without laned passes."""
    if not total or not any(_laned(plan[0]) for plan in plans):
        return []
    return [
        (region.names[v], max(1, 64 // v.aval.dtype.itemsize), STREAM_AHEAD_BYTES // v.aval.dtype.itemsize)
        for v in region.graph.inputs
        if region.level(v) == "full"
    ]


def exact_divisions(region, plans, total):
    """Divisions by a per-row value (softmax's e / sum, layernorm's d / std) that may run as
    exact_quotient (a reciprocal and two FMAs, the bits of the division): {pass: [(eqn, flag, divisor)]}
    and the dividends to check before each such pass, {pass: [(flag, dividend)]}. The dividend is made
    by an earlier pass (stashed in an output, or recomputed from the inputs), so just before the
    dividing pass a loop over the row reads or recomputes each dividend, folds its magnitude into two
    unsigned reductions (magnitude_max, nonzero_magnitude_min: no compares, one vector instruction
    each) and sets the flag (dividends_in_range); the dividing pass runs in two versions. Checked inside
    the producing pass instead, the flag cost softmax's exp pass a third of its time. The check reads or
    recomputes the very value the dividing pass divides: same inputs, same operations, no fast-math, so
    the same bits; it runs before the dividing pass writes anything, so outputs that share a buffer
    with an input (or hold a stash) are still as the earlier passes left them."""
    divisions, checks = {}, {}
    if total:
        return divisions, checks
    made_in = {}
    for q, plan in enumerate(plans):
        for eqn in plan[2]:
            made_in.setdefault(eqn.outputs[0], q)
    for p in range(1, len(plans)):
        for eqn in plans[p][2]:
            if eqn.prim is not div_p or eqn.outputs[0].aval.dtype not in (np.float32, np.float64):
                continue
            x, y = eqn.inputs
            divisor = _row_value(region, y)
            if divisor is None or isinstance(x, Literal) or made_in.get(x, p) >= p:
                continue
            if not x.aval.dtype == y.aval.dtype == eqn.outputs[0].aval.dtype:
                continue
            flag = f"ok_{region.names[x]}"
            divisions.setdefault(p, []).append((eqn, flag, divisor))
            if (flag, x) not in checks.setdefault(p, []):
                checks[p].append((flag, x))
    return divisions, checks


def emit_dividend_checks(code, region, checks, loads, inner):
    """The loop that sets each flag of `checks` ([(flag, dividend)]) for this row: the dividends made
    again from the pass's stash loads and the region's inputs, their magnitudes folded, then tested."""
    dividends = [x for _, x in checks]
    stop = {u for _, u in loads}
    closure = _full_closure(region, dividends, stop)
    used = set(dividends) | {x for e in closure for x in e.inputs}
    bits = {np.dtype(np.float32): "np.uint32", np.dtype(np.float64): "np.uint64"}
    for flag, x in checks:
        kind = bits[x.aval.dtype]
        code.line(f"hi_{flag} = {kind}(0)")
        code.line(f"lo_{flag} = {kind}({(1 << (8 * x.aval.dtype.itemsize)) - 1})")
    index = ", ".join(f"i{d}" for d in range(region.rank))
    outer_index = ", ".join(f"i{d}" for d in region.kept)
    for d in inner:
        code.line(f"for i{d} in range(n{d}):")
        code.depth += 1
    for k, u in loads:
        if u in used:
            code.line(f"{region.names[u]} = o{k}[{index}]")
    for eqn in closure:
        _emit_eqn(code, region, eqn, index, outer_index)
    for flag, x in checks:
        name = region.names[x]
        code.line(f"hi_{flag} = magnitude_max(hi_{flag}, {name})")
        code.line(f"lo_{flag} = nonzero_magnitude_min(lo_{flag}, {name})")
    code.depth -= len(inner)
    for flag, _ in checks:
        code.line(f"{flag} = dividends_in_range(hi_{flag}, lo_{flag})")


def _row_value(region, var):
    """The name of the per-row value var broadcasts (None if it is not one)."""
    if isinstance(var, Literal):
        return None
    eqn = region.producer.get(var)
    if eqn is None or eqn.prim is not s.broadcast_in_dim_p:
        return None
    x = eqn.inputs[0]
    if isinstance(x, Literal) or x in region.inputs or region.level(x) != "outer":
        return None
    return region.names[x]


from arraystack.backends.numba.codegen import _emit_eqn  # noqa: E402
from arraystack.backends.numba.codegen_staged import _full_closure  # noqa: E402
