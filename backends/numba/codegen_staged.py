"""Staged reduction loop nests for numba kernels (the softmax/layernorm form; see codegen.py).

Kept axes run outside (in parallel); each reduction stage is one pass over the reduced axes. With no kept
axes the passes run over chunks in parallel and combine partial results. Float max/min reduce NaN-blind
and track NaNs in a flag; float sums and products, and complex products, add into explicit lanes in the
fixed order of summation_order.py (no reassociation: the result depends on neither threads, CPU nor
LLVM, and its NumPy twin reproduces it bit for bit); complex max/min fold NumPy's rule in loop order
(codegen_complex.py); a value a later pass would recompute is stashed in that pass's output buffer.
Column reductions (leading axes reduced, the others kept) read rows along their length instead:
codegen_columns.py.
"""

from __future__ import annotations

import numpy as np

from arraystack.backends.numba import codegen_complex
from arraystack.backends.numba.lowering import cast, literal
from arraystack.backends.numba.summation_order import BLOCK_GROUPS, CHUNKS, LANES
from arraystack.ir.ir import Literal


def _acc_dtype(kind, dtype):
    if kind in ("sum", "prod") and dtype == np.float32:
        return np.dtype(np.float64)  # accumulate float32 sums in float64: NumPy-level accuracy
    return dtype


def _init(kind, dtype):
    if dtype.kind == "c":
        return codegen_complex.identity(kind, dtype)
    if kind == "sum":
        return literal(0, dtype)
    if kind == "prod":
        return literal(1, dtype)
    if kind == "and":
        return "True"
    if kind == "or":
        return "False"
    if dtype.kind == "f":
        return literal(-np.inf if kind == "max" else np.inf, dtype)
    if dtype.kind == "b":
        return "False" if kind == "max" else "True"
    info = np.iinfo(dtype)
    return literal(info.min if kind == "max" else info.max, dtype)


def _combine(kind, acc, value, dtype):
    if dtype.kind == "c":
        return codegen_complex.combine(kind, acc, value)
    if kind == "sum":
        expr = f"{acc} + {value}"
    elif kind == "prod":
        expr = f"{acc} * {value}"
    elif kind == "max":
        return f"maximum({acc}, {value})" if dtype.kind == "f" else f"max({acc}, {value})"
    elif kind == "min":
        return f"minimum({acc}, {value})" if dtype.kind == "f" else f"min({acc}, {value})"
    elif kind == "and":  # operands are boolean (structural.py): & does not branch, so the loop vectorizes
        return f"({acc} & {value})"
    else:
        return f"({acc} | {value})"
    return cast(dtype, expr) if dtype.kind in "iu" else expr


def _stages(region):
    """avail[var]: the reduction pass from which a value can be read; root sets per pass."""
    avail = {}
    for v in region.graph.inputs:
        avail[v] = 0
    for eqn in region.graph.eqns:
        ins = [avail.get(x, 0) for x in eqn.inputs if not isinstance(x, Literal)]
        base = max(ins, default=0)
        avail[eqn.outputs[0]] = base + 1 if eqn.prim in REDUCTION_KINDS else base
    return avail


def _full_closure(region, roots, stop=()):
    """The full-level equations the roots need, in graph order (values in `stop` are loaded, not made)."""
    needed = set()
    stack = [r for r in roots if r in region.producer]
    while stack:
        v = stack.pop()
        if v in stop:
            continue
        eqn = region.producer.get(v)
        if eqn is None or id(eqn) in needed or eqn.prim in REDUCTION_KINDS:
            continue
        if region.level(eqn.outputs[0]) != "full":
            continue
        needed.add(id(eqn))
        stack.extend(x for x in eqn.inputs if not isinstance(x, Literal))
    return [e for e in region.graph.eqns if id(e) in needed]


def _emit_staged(code, region, parallel):
    avail = _stages(region)
    graph = region.graph
    reductions = [e for e in graph.eqns if e.prim in REDUCTION_KINDS]
    stage_of = {id(e): avail[e.inputs[0]] for e in reductions}
    full_outputs = [(k, v) for k, v in enumerate(graph.outputs) if region.level(v) == "full"]
    passes = max(
        [stage_of[id(e)] + 1 for e in reductions] + [avail[v] + 1 for _, v in full_outputs]
    )
    outer_eqns = [
        e
        for e in graph.eqns
        if e.prim not in REDUCTION_KINDS and region.level(e.outputs[0]) != "full"
    ]
    plans = []
    for p in range(passes):
        reds = [e for e in reductions if stage_of[id(e)] == p]
        outs = [(k, v) for k, v in full_outputs if avail[v] == p]
        body = _full_closure(region, [e.inputs[0] for e in reds] + [v for _, v in outs])
        plans.append([reds, outs, body, []])
    _stash(region, plans)
    if region.columns:
        emit_columns(code, region, plans, avail, outer_eqns, parallel)
        return
    index = ", ".join(f"i{d}" for d in range(region.rank))
    outer_index = ", ".join(f"i{d}" for d in region.kept)
    loop = "numba.prange" if parallel else "range"
    total = not region.kept

    for depth, d in enumerate(region.kept):
        code.line(f"for i{d} in {loop if depth == 0 else 'range'}(n{d}):")
        code.depth += 1
        if depth == 0 and region.wide:  # inside the loop: a parallel loop's body is its own function
            code.line("prefer_wide_vectors()")
    prefetch = prefetched_rows(region, plans, total)
    streamed = streamed_inputs(region, plans, total)
    divisions, checks = exact_divisions(region, plans, total)
    for p, (reds, outs, body, loads) in enumerate(plans):
        for e in outer_eqns:
            if avail[e.outputs[0]] == p:
                _emit_eqn(code, region, e, index, outer_index)
        args = (code, region, reds, outs, body, index, outer_index, total, loop, loads)
        extra = {"prefetch": prefetch.get(p, ()), "streamed": streamed}
        if p in divisions:  # the pass twice: dividing by reciprocals where the flags allow, else dividing
            inner = [d for d in range(region.rank) if d in region.axes]
            emit_dividend_checks(code, region, checks[p], loads, inner)
            cond = " and ".join(
                sorted({f"{flag} and divisor_in_range({d})" for _, flag, d in divisions[p]})
            )
            with code.block(f"if {cond}:"):
                _emit_pass(*args, exact={id(e) for e, _, _ in divisions[p]}, **extra)
            with code.block("else:"):
                _emit_pass(*args, **extra)
        else:
            _emit_pass(*args, **extra)
    for e in outer_eqns:
        if avail[e.outputs[0]] == passes:
            _emit_eqn(code, region, e, index, outer_index)
    for k, v in enumerate(graph.outputs):
        if region.level(v) != "full":
            code.line(f"o{k}[{outer_index or '0'}] = {_value(region, v, index, outer_index)}")
    code.depth -= len(region.kept)


def _stash(region, plans):
    """Reuse work across passes: a full value that a later pass recomputes (softmax's exp) is written into
    that pass's output buffer by the earlier pass and read back, element by element, before the buffer's
    own element is written. Picks the latest such value per output, so the most work is saved."""
    for p in range(1, len(plans)):
        reds, outs, body, loads = plans[p]
        for k, v in list(outs):
            earlier = {}
            for q in range(p):
                for eqn in plans[q][2]:
                    earlier[eqn.outputs[0]] = q
            made_here = [e.outputs[0] for e in body]
            candidates = [
                u for u in made_here if u in earlier and u.aval.dtype == v.aval.dtype and u is not v
            ]
            if not candidates:
                continue
            u = candidates[-1]
            q = earlier[u]
            plans[q][1].append((k, u))
            loads.append((k, u))
            stop = {u for _, u in loads}
            plans[p][2] = body = _full_closure(
                region, [e.inputs[0] for e in reds] + [w for _, w in outs], stop
            )


def _emit_pass(
    code, region, reds, outs, body, index, outer_index, total, loop, loads=(), *, prefetch=(), exact=(),
    streamed=(),
):
    accs = []
    for e in reds:
        kind = REDUCTION_KINDS[e.prim]
        dtype = e.outputs[0].aval.dtype
        accs.append((e, kind, dtype, _acc_dtype(kind, dtype), f"acc_{region.names[e.outputs[0]]}"))
    inner = [d for d in range(region.rank) if d in region.axes]
    first = inner[0]
    if total:
        code.line(f"nch = min(n{first}, {CHUNKS})")
        for e, kind, dtype, acc_dtype, acc in accs:
            code.line(f"part_{acc} = np.empty(nch, np.{acc_dtype.name})")
        code.line(f"for c in {loop}(nch):")
        code.depth += 1
        if region.wide:
            code.line("prefer_wide_vectors()")
        # unsigned bounds: numba then knows indices are non-negative and drops the wraparound code
        # that otherwise keeps the loop from vectorizing (5x on a sum of squares)
        code.line(f"lo = np.uint64(c * n{first} // nch)")
        code.line(f"hi = np.uint64((c + 1) * n{first} // nch)")
    # float sums and products, and complex products, add into lanes in a fixed order
    # (summation_order.py, codegen_complex.py)
    laned = [a for a in accs if _laned(a[1], a[2])]
    scalar = [a for a in accs if a not in laned]
    for e, kind, dtype, acc_dtype, acc in scalar:
        code.line(f"{acc} = {_init(kind, acc_dtype)}")
    # float max/min: a NaN-blind vector reduction plus a NaN flag (a NaN-propagating select chain does
    # not vectorize)
    nan_tracked = {
        acc
        for e, kind, dtype, acc_dtype, acc in accs
        if kind in ("max", "min") and dtype.kind == "f"
    }
    for acc in sorted(nan_tracked):
        code.line(f"{acc}_nan = False")

    def emit_body(lane, tail=False):
        for k, u in loads:
            code.line(f"{region.names[u]} = o{k}[{index}]")
        for eqn in body:
            if id(eqn) in exact:
                x, y = (_value(region, v, index, outer_index) for v in eqn.inputs)
                code.line(f"{region.names[eqn.outputs[0]]} = exact_quotient({x}, {y})")
            else:
                _emit_eqn(code, region, eqn, index, outer_index)
        for e, kind, dtype, acc_dtype, acc in accs:
            value = _value(region, e.inputs[0], index, outer_index)
            if lane is not None and (e, kind, dtype, acc_dtype, acc) in laned:
                if tail:  # the tail loop also runs whole short rows: one sequential float64 sum
                    with code.block("if short:"):
                        code.line(f"{acc}_s = {_sequential(kind, dtype, f'{acc}_s', value)}")
                    code.line("else:")
                    code.depth += 1
                _lane_update(code, kind, dtype, acc, lane, value)
                if tail:
                    code.depth -= 1
            elif acc in nan_tracked:
                code.line(f"{acc} = reduce_{kind}({acc}, {cast(dtype, value)})")
                code.line(f"{acc}_nan |= {value} != {value}")
            else:
                code.line(f"{acc} = {_combine(kind, acc, value, acc_dtype)}")
        for k, v in outs:
            code.line(f"o{k}[{index}] = {_value(region, v, index, outer_index)}")

    if laned:
        _emit_laned_loops(code, region, laned, inner, total, emit_body, prefetch, streamed)
    elif prefetch:  # rows kept (rank 2): groups of LANES elements, each prefetching under it
        lanes = f"np.uint64({LANES})"
        code.line(f"gend = np.uint64(n1) - np.uint64(n1) % {lanes}")
        with code.block(f"for g in range(np.uint64(0), gend, {lanes}):"):
            _emit_prefetch(code, prefetch, lanes)
            with code.block(f"for j in range({lanes}):"):
                code.line("i1 = g + j")
                emit_body(None)
        with code.block("for j in range(np.uint64(n1) - gend):"):
            code.line("i1 = gend + j")
            emit_body(None)
    else:
        for d in inner:
            bounds = "lo, hi" if (total and d == first) else f"n{d}"
            code.line(f"for i{d} in range({bounds}):")
            code.depth += 1
        emit_body(None)
        code.depth -= len(inner)
    for e, kind, dtype, acc_dtype, acc in accs:
        if acc in nan_tracked:  # the later of equal values, a canonical NaN (extrema.py)
            emit_last_zero(code, region, e, acc, loads, inner, total)
            code.line(f"{acc} = {literal(np.nan, acc_dtype)} if {acc}_nan else {acc}")
    if total:
        for e, kind, dtype, acc_dtype, acc in accs:
            code.line(f"part_{acc}[c] = {acc}")
        code.depth -= 1
        for e, kind, dtype, acc_dtype, acc in accs:
            code.line(f"{acc} = {_init(kind, acc_dtype)}")
            with code.block("for c in range(nch):"):  # in order: the chunks' results, one by one
                code.line(f"{acc} = {_combine(kind, acc, f'part_{acc}[c]', acc_dtype)}")
    for e, kind, dtype, acc_dtype, acc in accs:
        value = cast(dtype, acc) if acc_dtype != dtype else acc
        code.line(f"{region.names[e.outputs[0]]} = {value}")


def _laned(kind, dtype):
    if dtype.kind == "c":
        return codegen_complex.is_complex_product(kind, dtype)
    return kind in ("sum", "prod") and dtype.kind == "f"


def _sequential(kind, dtype, acc, value):
    """acc after value, for a sequential accumulator (float64; complex128 for complex products)."""
    if dtype.kind == "c":
        return codegen_complex.combine(kind, acc, value)
    return f"{acc} {'+' if kind == 'sum' else '*'} np.float64({value})"


def _lane_update(code, kind, dtype, acc, lane, value):
    if dtype.kind == "c":
        codegen_complex.emit_lane_update(code, acc, lane, value)
    elif kind == "sum" and dtype == np.float32:
        code.line(f"{acc}_f[{lane}] = {acc}_f[{lane}] + np.float32({value})")
    else:
        op = "+" if kind == "sum" else "*"
        code.line(f"{acc}_w[{lane}] = {acc}_w[{lane}] {op} np.float64({value})")


def _emit_prefetch(code, prefetch, lanes):
    """The lines of later rows under this group (codegen_rows.py: prefetched_rows)."""
    for ahead in sorted({entry[3] for entry in prefetch}):
        with code.block(f"if i0 + {ahead} < n0:"):
            for name, step, write, _ in (e for e in prefetch if e[3] == ahead):
                call = "prefetch_for_write" if write else "prefetch"
                with code.block(f"for pf in range(g, g + {lanes}, np.uint64({step})):"):
                    code.line(f"{call}({name}, (i0 + {ahead}, pf))")


def _emit_laned_loops(code, region, laned, inner, total, emit_body, prefetch=(), streamed=()):
    """The reduced loops of a pass with float sums/products, in summation_order.py's order: lanes on the
    stack (float64, plus float32 ones for float32 sums), groups of LANES along the last reduced axis (a
    constant-count loop LLVM vectorizes without reassociating anything), a short tail group per row,
    float32 lanes joining the float64 ones every BLOCK_GROUPS groups, then a fold of the lanes in halves.
    Loops over all lanes have a constant count: LLVM unrolls them into a few vector instructions. Rows
    shorter than LANES run through the tail loop alone, into one sequential float64 accumulator (lanes
    would cost more than these rows' own work)."""
    first, last = inner[0], inner[-1]
    blocked = [a for a in laned if a[1] == "sum" and a[2] == np.float32]
    lo, hi = ("lo", "hi") if (total and last == first) else ("np.uint64(0)", f"np.uint64(n{last})")
    lanes = f"np.uint64({LANES})"
    for e, kind, dtype, acc_dtype, acc in laned:
        if dtype.kind == "c":  # complex products: two float64 lanes per lane (codegen_complex.py)
            codegen_complex.emit_stack_lanes(code, acc)
            continue
        code.line(f"{acc}_w = stack_lanes(np.float64(0.0), {LANES})")
        if (e, kind, dtype, acc_dtype, acc) in blocked:
            code.line(f"{acc}_f = stack_lanes(np.float32(0.0), {LANES})")
    # rows shorter than LANES (`short`) add sequentially into one float64 accumulator instead
    code.line(f"short = {hi} - {lo} < {lanes}")
    for e, kind, dtype, acc_dtype, acc in laned:
        start = _init(kind, acc_dtype if dtype.kind == "c" else np.dtype(np.float64))
        code.line(f"{acc}_s = {start}")

    def flush():  # lanes.py: the same loops, compiled once and inlined by LLVM
        for e, kind, dtype, acc_dtype, acc in blocked:
            code.line(f"lanes_flush({acc}_w, {acc}_f)")

    with code.block("if not short:"):
        for e, kind, dtype, acc_dtype, acc in laned:
            if dtype.kind == "c":
                codegen_complex.emit_fill(code, acc)
                continue
            code.line(f"lanes_fill({acc}_w, {_init(kind, np.dtype(np.float64))})")
            if (e, kind, dtype, acc_dtype, acc) in blocked:
                code.line(f"lanes_fill({acc}_f, np.float32(0.0))")

    # full groups: no other access to the lanes in this loop, so LLVM keeps them in registers
    def groups(start, stop):
        with code.block(f"for g in range({start}, {stop}, {lanes}):"):
            if prefetch:  # the next row's lines under this group (codegen_rows.py)
                _emit_prefetch(code, prefetch, lanes)
            for name, step, ahead in streamed:  # lines further along the stream (codegen_rows.py)
                line = f"g + np.uint64({ahead})"
                with code.block(f"for pf in range({line}, {line} + {lanes}, np.uint64({step})):"):
                    index = ", ".join([f"i{d}" for d in range(region.rank - 1)] + ["pf"])
                    code.line(f"prefetch({name}, ({index},))")
            with code.block(f"for j in range({lanes}):"):
                code.line(f"i{last} = g + j")
                emit_body("j")

    def full_block():
        with code.block(f"if ngroups == np.uint64({BLOCK_GROUPS}):"):
            flush()
            code.line("ngroups = np.uint64(0)")

    if blocked:
        code.line("ngroups = np.uint64(0)")
    for d in inner[:-1]:
        bounds = "lo, hi" if (total and d == first) else f"n{d}"
        code.line(f"for i{d} in range({bounds}):")
        code.depth += 1
    code.line(f"gend = {hi} - ({hi} - {lo}) % {lanes}")
    if blocked:  # runs of groups up to the next block boundary, then the join into float64
        code.line(f"gpos = {lo}")
        with code.block("while gpos < gend:"):
            code.line(f"gstop = min(gend, gpos + (np.uint64({BLOCK_GROUPS}) - ngroups) * {lanes})")
            groups("gpos", "gstop")
            code.line(f"ngroups += (gstop - gpos) // {lanes}")
            code.line("gpos = gstop")
            full_block()
    else:
        groups(lo, "gend")
    with code.block(f"for j in range({hi} - gend):"):
        code.line(f"i{last} = gend + j")
        emit_body("j", tail=True)
    if blocked:
        with code.block(f"if gend < {hi} and not short:"):
            code.line("ngroups += np.uint64(1)")
            full_block()
    code.depth -= len(inner) - 1
    with code.block("if not short:"):
        if blocked:
            flush()
        for e, kind, dtype, acc_dtype, acc in laned:
            if dtype.kind == "c":
                codegen_complex.emit_fold(code, acc, f"{acc}_s")
            else:
                code.line(f"{acc}_s = lanes_fold({acc}_w, {kind == 'prod'})")
    for e, kind, dtype, acc_dtype, acc in laned:
        code.line(f"{acc} = {acc}_s")


from arraystack.backends.numba.codegen import REDUCTIONS as REDUCTION_KINDS  # noqa: E402
from arraystack.backends.numba.codegen import _emit_eqn, _value  # noqa: E402
from arraystack.backends.numba.codegen_columns import columns_apply, emit_columns  # noqa: E402
from arraystack.backends.numba.extrema import emit_last_zero  # noqa: E402
from arraystack.backends.numba.codegen_rows import (  # noqa: E402
    emit_dividend_checks,
    exact_divisions,
    prefetched_rows,
    streamed_inputs,
)
