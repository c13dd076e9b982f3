"""Column reductions: a rank-2 region that reduces axis 0 and keeps axis 1 (x.sum(axis=0), a bias gradient,
x.max(axis=0)).

The staged loop nest (codegen_staged.py) keeps the kept axis outside, so a column sum walks each column
down its stride: one cache line and, for rows of 4 KB or more, one page per element (a (4096, 1024)
float32 sum: 24-27 ms, NumPy 2.1 ms). Here the loops are interchanged per block of BLOCK columns (in
parallel over blocks): rows are read along their length, into lanes of shape (LANES, BLOCK), one
column of lanes per output column. Each column adds in exactly summation_order.py's order (element i0
into lane i0 % LANES, float32 lanes joining float64 ones every BLOCK_GROUPS groups and at the end, a
partial last group counting as one, folds in halves; columns shorter than LANES add sequentially in
float64; float products alike in float64 lanes), so results keep their bits and tier 0's twin. Other
reductions (max/min, NaN-blind with a flag for floats; integer and boolean ones) keep one accumulator per
column and see its elements in row order, as before.

Regions whose reductions run in one pass, with no full-size outputs, take this path. The flush and the
fold are loops over (LANES, width) arrays here, not lanes.py's intrinsics: those take one column's
contiguous lanes, and lanes laid out per column would make the hot loop (along a row) strided.
"""

from __future__ import annotations

import numpy as np

from arraystack.backends.numba.lowering import cast, literal
from arraystack.backends.numba.summation_order import BLOCK_GROUPS, LANES

BLOCK = 128  # columns per block: float32 and float64 lanes of one float32 sum take 96 KB, within L2
_KINDS = ("sum", "prod", "max", "min", "and", "or")


def column_reductions_apply(region, reductions, kinds, passes, full_outputs) -> bool:
    return (
        region.rank == 2
        and region.axes == (0,)
        and passes == 1
        and not full_outputs
        and bool(reductions)
        and all(kinds[e.prim] in _KINDS for e in reductions)
    )


class _Acc:
    """One reduction's accumulators, per column of the block."""

    def __init__(self, region, eqn, kind, value, acc_dtype):
        self.name = f"acc_{region.names[eqn.outputs[0]]}"
        self.out = region.names[eqn.outputs[0]]
        self.kind = kind
        self.dtype = eqn.outputs[0].aval.dtype
        self.acc_dtype = acc_dtype
        self.value = value
        # float sums and products in lanes (summation_order.py); float32 sums in float32 lanes too
        self.laned = kind in ("sum", "prod") and self.dtype.kind == "f"
        self.narrow = self.laned and kind == "sum" and self.dtype == np.float32
        self.op = "*" if kind == "prod" else "+"
        self.nan = kind in ("max", "min") and self.dtype.kind == "f"  # NaN-blind, plus a flag


def emit_column_reductions(code, region, reductions, body, outer_eqns, parallel):
    """The kernel body: blocks of columns, then per column the outer equations and output writes."""
    # (codegen_staged imports this module while it loads: its helpers are imported when called)
    from arraystack.backends.numba.codegen import _emit_eqn, _value
    from arraystack.backends.numba.codegen_staged import REDUCTION_KINDS, _acc_dtype, _combine, _init

    loop = "numba.prange" if parallel else "range"
    index, outer_index = "i0, i1", "i1"
    accs = []
    for e in reductions:
        kind = REDUCTION_KINDS[e.prim]
        v = _value(region, e.inputs[0], index, outer_index)
        accs.append(_Acc(region, e, kind, v, _acc_dtype(kind, e.outputs[0].aval.dtype)))
    laned = [a for a in accs if a.laned]
    narrow = [a for a in accs if a.narrow]

    def add(lane):  # one row's elements of this block (lane None: a short column's sequential sum)
        with code.block("for c in range(cw):"):
            code.line("i1 = c0 + c")
            for eqn in body:
                _emit_eqn(code, region, eqn, index, outer_index)
            for a in accs:
                n, v = a.name, a.value
                if a.laned and lane is None:
                    code.line(f"{n}_s[c] = {n}_s[c] {a.op} np.float64({v})")
                elif a.narrow:
                    code.line(f"{n}_f[{lane}, c] = {n}_f[{lane}, c] + np.float32({v})")
                elif a.laned:
                    code.line(f"{n}_w[{lane}, c] = {n}_w[{lane}, c] {a.op} np.float64({v})")
                elif a.nan:
                    code.line(f"{n}_c[c] = reduce_{a.kind}({n}_c[c], {cast(a.dtype, v)})")
                    code.line(f"{n}_nan[c] |= {v} != {v}")
                else:
                    code.line(f"{n}_c[c] = {_combine(a.kind, f'{n}_c[c]', v, a.acc_dtype)}")

    def flush():  # float32 lanes join the float64 ones and restart at 0
        for a in narrow:
            with code.block(f"for j in range(np.uint64({LANES})):"), code.block("for c in range(cw):"):
                code.line(f"{a.name}_w[j, c] = {a.name}_w[j, c] + np.float64({a.name}_f[j, c])")
                code.line(f"{a.name}_f[j, c] = np.float32(0.0)")

    def count_group():
        if narrow:
            code.line("ngroups += 1")
            with code.block(f"if ngroups == {BLOCK_GROUPS}:"):
                flush()
                code.line("ngroups = 0")

    def laned_rows():
        if narrow:
            code.line("ngroups = 0")
        code.line(f"gend = np.uint64(n0) - np.uint64(n0) % np.uint64({LANES})")
        with code.block(f"for g in range(np.uint64(0), gend, np.uint64({LANES})):"):
            with code.block(f"for j in range(np.uint64({LANES})):"):
                code.line("i0 = g + j")
                add("j")
            count_group()
        with code.block("for j in range(np.uint64(n0) - gend):"):  # a partial last group
            code.line("i0 = gend + j")
            add("j")
        if narrow:  # a partial group counts as one
            with code.block("if gend < np.uint64(n0):"):
                count_group()
        flush()
        h = LANES // 2
        while h:  # the fold in halves
            for a in laned:
                w = f"{a.name}_w"
                with code.block(f"for j in range(np.uint64({h})):"), code.block("for c in range(cw):"):
                    code.line(f"{w}[j, c] = {w}[j, c] {a.op} {w}[j + np.uint64({h}), c]")
            h //= 2
        for a in laned:
            with code.block("for c in range(cw):"):
                code.line(f"{a.name}_s[c] = {a.name}_w[0, c]")

    with code.block(f"for cb in {loop}((n1 + {BLOCK - 1}) // {BLOCK}):"):
        # unsigned indices: numba then drops the negative-index wraparound that keeps loops scalar
        code.line(f"c0 = np.uint64(cb) * np.uint64({BLOCK})")
        code.line(f"cw = min(np.uint64({BLOCK}), np.uint64(n1) - c0)")
        code.line("width = np.intp(cw)")  # lanes as wide as the block: a narrow matrix zeroes less
        for a in accs:
            if a.laned:
                start = "1.0" if a.kind == "prod" else "0.0"
                code.line(f"{a.name}_s = np.full(width, {start}, np.float64)")
                code.line(f"{a.name}_w = np.full(({LANES}, width), {start}, np.float64)")
                if a.narrow:
                    code.line(f"{a.name}_f = np.zeros(({LANES}, width), np.float32)")
            else:
                numpy_type = "np.bool_" if a.acc_dtype == np.bool_ else f"np.{a.acc_dtype.name}"
                code.line(f"{a.name}_c = np.full(width, {_init(a.kind, a.acc_dtype)}, {numpy_type})")
                if a.nan:
                    code.line(f"{a.name}_nan = np.zeros(width, np.bool_)")
        if laned:  # short columns: one float64 sum (product) each, in row order; others in lanes
            with code.block(f"if n0 < {LANES}:"), code.block("for i0 in range(np.uint64(n0)):"):
                add(None)
            with code.block("else:"):
                laned_rows()
        else:  # one accumulator per column, in row order
            with code.block("for i0 in range(np.uint64(n0)):"):
                add(None)
        with code.block("for c in range(cw):"):
            code.line("i1 = c0 + c")
            for a in accs:
                total = f"{a.name}_s[c]" if a.laned else f"{a.name}_c[c]"
                if a.nan:
                    total = f"({literal(np.nan, a.acc_dtype)} if {a.name}_nan[c] else {total})"
                if a.acc_dtype != a.dtype:
                    total = cast(a.dtype, total)
                code.line(f"{a.out} = {total}")
            for e in outer_eqns:
                _emit_eqn(code, region, e, index, outer_index)
            for k, v in enumerate(region.graph.outputs):
                code.line(f"o{k}[i1] = {_value(region, v, index, outer_index)}")
