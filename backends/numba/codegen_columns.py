"""Column sums: a rank-2 region that sums along axis 0 and keeps axis 1 (x.sum(axis=0), a bias gradient).

The staged loop nest (codegen_staged.py) keeps the kept axis outside, so a column sum walks each column
down its stride: one cache line and, for rows of 4 KB or more, one page per element ((4096, 1024)
float32: 24-27 ms, NumPy 2.1 ms). Here the loops are interchanged per block of BLOCK columns (in
parallel over blocks): rows are read along their length, into lanes of shape (LANES, BLOCK), one
column of lanes per output column. Each column adds in exactly summation_order.py's order (element i0
into lane i0 % LANES, float32 lanes joining float64 ones every BLOCK_GROUPS groups and at the end, a
partial last group counting as one, folds in halves; columns shorter than LANES add sequentially in
float64), so results keep their bits and tier 0's twin.

Only regions whose reductions are all float sums, in one pass with no full-size outputs, take this path.
"""

from __future__ import annotations

import numpy as np
from arraystack.backends.numba.summation_order import BLOCK_GROUPS, LANES

BLOCK = 128  # columns per block: float32 and float64 lanes of one sum take 96 KB, within L2


def column_sums_apply(region, reductions, kinds, passes, full_outputs) -> bool:
    return (
        region.rank == 2
        and region.axes == (0,)
        and passes == 1
        and not full_outputs
        and bool(reductions)
        and all(
            kinds[e.prim] == "sum" and e.outputs[0].aval.dtype in (np.float32, np.float64)
            for e in reductions
        )
    )


def emit_column_sums(code, region, reductions, body, outer_eqns, parallel, emit_eqn, value):
    """The kernel body: blocks of columns, then per column the outer equations and output writes."""
    loop = "numba.prange" if parallel else "range"
    index, outer_index = "i0, i1", "i1"
    accs = []
    for e in reductions:
        acc = f"acc_{region.names[e.outputs[0]]}"
        accs.append((acc, e.outputs[0].aval.dtype == np.float32, value(region, e.inputs[0], index, "i1")))

    def add(lane):  # one row's elements of this block into their lanes (lane None: the short sum)
        with code.block("for c in range(cw):"):
            code.line("i1 = c0 + c")
            for eqn in body:
                emit_eqn(code, region, eqn, index, outer_index)
            for acc, narrow, v in accs:
                if lane is None:
                    code.line(f"{acc}_s[c] = {acc}_s[c] + np.float64({v})")
                elif narrow:
                    code.line(f"{acc}_f[{lane}, c] = {acc}_f[{lane}, c] + np.float32({v})")
                else:
                    code.line(f"{acc}_w[{lane}, c] = {acc}_w[{lane}, c] + np.float64({v})")

    def flush():
        for acc, narrow, _ in accs:
            if narrow:
                with (
                    code.block(f"for j in range(np.uint64({LANES})):"),
                    code.block("for c in range(cw):"),
                ):
                    code.line(f"{acc}_w[j, c] = {acc}_w[j, c] + np.float64({acc}_f[j, c])")
                    code.line(f"{acc}_f[j, c] = np.float32(0.0)")

    def count_group():
        code.line("ngroups += 1")
        with code.block(f"if ngroups == {BLOCK_GROUPS}:"):
            flush()
            code.line("ngroups = 0")

    with code.block(f"for cb in {loop}((n1 + {BLOCK - 1}) // {BLOCK}):"):
        # unsigned indices: numba then drops the negative-index wraparound that keeps loops scalar
        code.line(f"c0 = np.uint64(cb) * np.uint64({BLOCK})")
        code.line(f"cw = min(np.uint64({BLOCK}), np.uint64(n1) - c0)")
        code.line("width = np.intp(cw)")  # lanes as wide as the block: a narrow matrix zeroes less
        for acc, narrow, _ in accs:
            code.line(f"{acc}_s = np.zeros(width, np.float64)")
            code.line(f"{acc}_w = np.zeros(({LANES}, width), np.float64)")
            if narrow:
                code.line(f"{acc}_f = np.zeros(({LANES}, width), np.float32)")
        # short columns: one float64 sum each, in row order
        with code.block(f"if n0 < {LANES}:"), code.block("for i0 in range(np.uint64(n0)):"):
            add(None)
        with code.block("else:"):
            code.line("ngroups = 0")
            code.line(f"gend = np.uint64(n0) - np.uint64(n0) % np.uint64({LANES})")
            with code.block(f"for g in range(np.uint64(0), gend, np.uint64({LANES})):"):
                with code.block(f"for j in range(np.uint64({LANES})):"):
                    code.line("i0 = g + j")
                    add("j")
                count_group()
            with code.block("for j in range(np.uint64(n0) - gend):"):
                code.line("i0 = gend + j")
                add("j")
            with code.block("if gend < np.uint64(n0):"):
                count_group()
            flush()
            h = LANES // 2
            while h:
                for acc, _, _ in accs:
                    with (
                        code.block(f"for j in range(np.uint64({h})):"),
                        code.block("for c in range(cw):"),
                    ):
                        code.line(f"{acc}_w[j, c] = {acc}_w[j, c] + {acc}_w[j + np.uint64({h}), c]")
                h //= 2
            for acc, _, _ in accs:
                with code.block("for c in range(cw):"):
                    code.line(f"{acc}_s[c] = {acc}_w[0, c]")
        with code.block("for c in range(cw):"):
            code.line("i1 = c0 + c")
            for e, (acc, narrow, _) in zip(reductions, accs):
                total = f"np.float32({acc}_s[c])" if narrow else f"{acc}_s[c]"
                code.line(f"{region.names[e.outputs[0]]} = {total}")
            for e in outer_eqns:
                emit_eqn(code, region, e, index, outer_index)
            for k, v in enumerate(region.graph.outputs):
                code.line(f"o{k}[i1] = {value(region, v, index, outer_index)}")
