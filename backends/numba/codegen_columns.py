"""Column reductions: a region that reduces adjacent axes and keeps the last (x.sum(axis=0), a bias
gradient, x.max(axis=0), a (B, T, C) sum over (0, 1), a (N, L, C) sum over 1).

The staged loop nest (codegen_staged.py) runs the kept axes outside, so a column sum walks each column
down its stride: one cache line and, for rows of 4 KB or more, one page per element (a (4096, 1024)
float32 sum: 24-27 ms, NumPy 2.1 ms). Here the loops are interchanged per block of bw columns of the
last axis (in parallel over blocks and the other kept axes): rows are read along their length, into
lanes of shape (LANES, bw), one column of lanes per output column. Each column adds in exactly
summation_order.py's order (element i into lane i % LANES along the last reduced axis, row after row of
the reduced axes before it, float32 lanes joining float64 ones every BLOCK_GROUPS groups and at the end,
a partial last group of a row counting as one, folds in halves; rows shorter than LANES add
sequentially in float64; float products alike in float64 lanes, complex products in complex128 lanes
(codegen_complex.py)), so results keep their bits and tier 0's twin. Other reductions (max/min,
NaN-blind with a flag for floats, NumPy's rule for complex values; integer and boolean ones) keep one
accumulator per column and see its elements in row order, as before.

Regions of several passes (x - x.mean(axis=0), a standardization, a column softmax) and with full-size
outputs take this path too: each block runs the passes one after the other, every pass reading the
block's rows along their length; a per-column value (a mean, a maximum) lives in an array as wide as the
block between the loops over columns that make it and the passes that read it. The staged nest walked
every column once per pass (x - x.mean(axis=0) on (4096, 1024) float32: 72 ms, NumPy 6.9 ms). The
flush and the fold are loops over (LANES, width) arrays here, not lanes.py's intrinsics: those take one
column's contiguous lanes, and lanes laid out per column would make the hot loop (along a row) strided.
The laned passes (one group, laned rows, the fold) are in codegen_column_lanes.py.
"""

from __future__ import annotations

import numpy as np

from arraystack.backends.numba.codegen_column_lanes import LanedPasses
from arraystack.backends.numba.codegen_complex import WIDE, is_complex_product
from arraystack.backends.numba.codegen_complex import combine as combine_complex
from arraystack.backends.numba.lowering import cast, literal
from arraystack.backends.numba.summation_order import LANES
from arraystack.ir.ir import Literal

BLOCK = 128  # columns per block, at least
WIDEST = (
    1024  # at most: the float32 and float64 lanes of one float32 sum then take 768 KB, within L2
)


def block_width(n1: int, threads: int, others: int = 1) -> int:
    """Columns per block (the kernel's argument bw): a thread's share of the columns, within [BLOCK,
    WIDEST], a multiple of 16. A block's rows are read bw * itemsize bytes at a time, each from another
    page for rows of 4 KB or more: wider reads find more lines per page. Measured on (4096, 1024)
    float32, bw 128 / 512 / 1024: x - x.mean(axis=0) 6.6 / 3.4 / 4.9 ms at 2 threads, 11.7 / 6.9 / 4.9
    at 1 (NumPy 5.6-7.8); on (1024, 8192), 1024 beat 512 and 2048-8192 at 1 and 2 threads. The width
    changes no result: each column adds in its own fixed order."""
    share = min(n1, -(-n1 * others // max(1, threads)))  # others: blocks of the other kept axes
    return min(WIDEST, max(BLOCK, -(-share // 16) * 16))


_KINDS = ("sum", "prod", "max", "min", "and", "or")
# a column's max/min keeps its value only if it beats the next one (a select LLVM vectorizes across the
# columns; mathlib's maximum, with its NaN test, ran 1.3-1.7x slower); a NaN sets the column's flag
_BEATS = {"max": ">", "min": "<"}


def columns_apply(region, kinds) -> bool:
    """Whether the region takes this path (its kernel then takes bw after the sizes): it reduces adjacent
    axes and keeps the last ((4096, 1024) over axis 0; (B, T, C) over (0, 1); (64, 256, 256) over 1)."""
    reductions = [e for e in region.graph.eqns if e.prim in kinds]
    axes = region.axes
    return (
        bool(axes)
        and axes == tuple(range(axes[0], axes[-1] + 1))
        and axes[-1] < region.rank - 1
        and bool(reductions)
        and all(kinds[e.prim] in _KINDS for e in reductions)
    )


class _Acc:
    """One reduction's accumulators, per column of the block."""

    def __init__(self, region, eqn, kind, value, acc_dtype):
        self.name = f"acc_{region.names[eqn.outputs[0]]}"
        self.out = eqn.outputs[0]
        self.kind = kind
        self.dtype = eqn.outputs[0].aval.dtype
        self.acc_dtype = acc_dtype
        self.value = value
        # float sums and products in lanes (summation_order.py); float32 sums in float32 lanes too;
        # complex products in complex128 lanes (codegen_complex.py)
        self.complex = is_complex_product(kind, self.dtype)
        self.laned = (kind in ("sum", "prod") and self.dtype.kind == "f") or self.complex
        self.narrow = self.laned and kind == "sum" and self.dtype == np.float32
        self.op = "*" if kind == "prod" else "+"
        self.lane_type = "np.complex128" if self.complex else "np.float64"
        self.one = literal(1, WIDE) if self.complex else "1.0"
        self.nan = kind in ("max", "min") and self.dtype.kind == "f"  # plus a flag: NaN results canonical

    def times(self, lane, value, widen=True):
        """lane after value, for a laned accumulator (float64, or complex128 for a complex product);
        widen=False: value is a lane already."""
        if self.complex:
            return f"complex_mul({lane}, {value})"
        return f"{lane} {self.op} {f'np.float64({value})' if widen else value}"

    def total(self):
        """This column's result (inside a loop over c)."""
        total = f"{self.name}_s[c]" if self.laned else f"{self.name}_c[c]"
        if self.nan:
            total = f"({literal(np.nan, self.acc_dtype)} if {self.name}_nan[c] else {total})"
        return cast(self.dtype, total) if self.acc_dtype != self.dtype else total


def _atoms(values):
    return [v for v in values if not isinstance(v, Literal)]


class _Columns(LanedPasses):
    """The kernel of one region: blocks of columns in parallel; in each, loop 0 over the block's columns,
    then per pass p the pass (rows along their length) and loop p + 1. Loop k makes the per-column values
    of stage k: the results of pass k - 1's reductions and the outer equations available from stage k;
    the last loop writes the outer outputs."""

    def __init__(self, code, region, plans, avail, outer_eqns):
        # (codegen_staged imports this module while it loads: its helpers are imported when called)
        from arraystack.backends.numba.codegen import _emit_eqn, _value
        from arraystack.backends.numba.codegen_staged import (
            REDUCTION_KINDS,
            _acc_dtype,
            _combine,
            _init,
        )

        self.code, self.region, self.plans = code, region, plans
        self.emit_eqn, self.value, self.combine, self.init = _emit_eqn, _value, _combine, _init
        r = region.rank
        self.index = ", ".join(f"i{d}" for d in range(r))
        self.outer_index = ", ".join(f"i{d}" for d in region.kept)
        self.col = f"i{r - 1}"  # the column: the last axis, in blocks; the other kept axes outside
        self.row = f"i{region.axes[-1]}"  # the last reduced axis, along which sums run in lanes
        self.accs = []
        for reds, _, _, _ in plans:
            accs = []
            for e in reds:
                kind = REDUCTION_KINDS[e.prim]
                v = _value(region, e.inputs[0], self.index, self.outer_index)
                accs.append(_Acc(region, e, kind, v, _acc_dtype(kind, e.outputs[0].aval.dtype)))
            self.accs.append(accs)
        n = len(plans)
        self.loops = [[e for e in outer_eqns if avail[e.outputs[0]] == k] for k in range(n + 1)]
        made = {}  # per-column value -> the loop that makes it
        for k in range(n + 1):
            for e in self.loops[k]:
                made[e.outputs[0]] = k
            if k:
                for a in self.accs[k - 1]:
                    made[a.out] = k
        self.made = made
        # what each pass and each loop reads of the per-column values
        self.pass_reads = []
        for reds, outs, body, _ in plans:
            used = [x for e in body for x in _atoms(e.inputs)] + _atoms(e.inputs[0] for e in reds)
            used += _atoms(v for _, v in outs)
            self.pass_reads.append(list(dict.fromkeys(v for v in used if v in made)))
        self.loop_reads = []
        for k in range(n + 1):
            used = [x for e in self.loops[k] for x in _atoms(e.inputs)]
            if k == n:
                used += _atoms(v for v in region.graph.outputs if region.level(v) != "full")
            self.loop_reads.append([v for v in dict.fromkeys(used) if v in made and made[v] < k])
        later = [v for reads in self.pass_reads + self.loop_reads for v in reads]
        self.stored = [v for v in made if v in set(later)]

    def emit(self, parallel):
        code, region = self.code, self.region
        loop = "numba.prange" if parallel else "range"
        last = f"n{region.rank - 1}"
        middle = region.kept[:-1]  # kept axes before the last: one block of columns per index
        code.line(f"nblocks = ({last} + bw - 1) // bw")
        count = " * ".join([f"n{d}" for d in middle] + ["nblocks"])
        with code.block(f"for cb in {loop}({count}):"):
            if middle:
                code.line("rest = cb // nblocks")
            for d in reversed(middle):
                code.line(f"i{d} = rest % n{d}")
                code.line(f"rest = rest // n{d}")
            # unsigned indices: numba then drops the negative-index wraparound that keeps loops scalar
            code.line("c0 = np.uint64(cb % nblocks) * np.uint64(bw)")
            code.line(f"cw = min(np.uint64(bw), np.uint64({last}) - c0)")
            code.line(
                "width = np.intp(cw)"
            )  # lanes as wide as the block: a narrow matrix zeroes less
            for v in self.stored:
                code.line(f"{region.names[v]}_col = np.empty(width, {_numpy_type(v.aval.dtype)})")
            self._loop(0)
            for p in range(len(self.plans)):
                self._pass(p)
                self._loop(p + 1)

    def _load(self, values):
        for v in values:
            name = self.region.names[v]
            self.code.line(f"{name} = {name}_col[c]")

    def _loop(self, k):
        code, region = self.code, self.region
        last = k == len(self.plans)
        results = self.accs[k - 1] if k else []
        if not (results or self.loops[k] or last):
            return
        with code.block("for c in range(cw):"):
            code.line(f"{self.col} = c0 + c")
            self._load(self.loop_reads[k])
            for a in results:
                code.line(f"{region.names[a.out]} = {a.total()}")
            for e in self.loops[k]:
                self.emit_eqn(code, region, e, self.index, self.outer_index)
            for v in self.stored:
                if self.made[v] == k:
                    code.line(f"{region.names[v]}_col[c] = {region.names[v]}")
            if last:
                for j, v in enumerate(region.graph.outputs):
                    if region.level(v) != "full":
                        value = self.value(region, v, self.index, self.outer_index)
                        code.line(f"o{j}[{self.outer_index}] = {value}")

    def _pass(self, p):
        code, region = self.code, self.region
        accs = self.accs[p]
        for a in accs:
            if a.laned:
                start = a.one if a.kind == "prod" else "0.0"
                code.line(f"{a.name}_s = np.full(width, {start}, {a.lane_type})")
            else:
                start = self.init(a.kind, a.acc_dtype)
                code.line(f"{a.name}_c = np.full(width, {start}, {_numpy_type(a.acc_dtype)})")
                if a.nan:
                    code.line(f"{a.name}_nan = np.zeros(width, np.bool_)")
        reduced = region.axes
        if any(a.laned for a in accs):  # short rows: one float64 sum (product) per column, in order
            with code.block(f"if n{reduced[-1]} < {LANES}:"):
                self._reduced_loops(reduced, p)
            if len(reduced) == 1 and all(a.laned and not a.complex for a in accs):
                # a lane holds one or two elements
                with code.block(f"elif n{reduced[-1]} < {2 * LANES}:"):
                    for a in accs:
                        code.line(f"{a.name}_w = np.empty(({LANES}, width), np.float64)")
                    self._one_group(p)
            with code.block("else:"):  # the lanes only here: short rows would only zero them
                for a in accs:
                    if a.laned:
                        start = a.one if a.kind == "prod" else "0.0"
                        lanes = f"np.full(({LANES}, width), {start}, {a.lane_type})"
                        code.line(f"{a.name}_w = {lanes}")
                        if a.narrow:
                            code.line(f"{a.name}_f = np.zeros(({LANES}, width), np.float32)")
                self._laned_rows(p)
        else:  # one accumulator per column, in row order
            self._reduced_loops(reduced, p)

    def _reduced_loops(self, axes, p):
        for d in axes:
            self.code.line(f"for i{d} in range(np.uint64(n{d})):")
            self.code.depth += 1
        self._row(p, None)
        self.code.depth -= len(axes)

    def _row(self, p, lane):
        """One row's elements of this block (lane None: a short column's sequential sum)."""
        code = self.code
        with code.block("for c in range(cw):"):
            code.line(f"{self.col} = c0 + c")
            self._load(self.pass_reads[p])
            self._element(p)
            for a in self.accs[p]:
                n, v = a.name, a.value
                if a.laned and lane is None:
                    code.line(f"{n}_s[c] = {a.times(f'{n}_s[c]', v)}")
                elif a.narrow:
                    code.line(f"{n}_f[{lane}, c] = {n}_f[{lane}, c] + np.float32({v})")
                elif a.laned:
                    code.line(f"{n}_w[{lane}, c] = {a.times(f'{n}_w[{lane}, c]', v)}")
                elif a.nan:  # the later of equal values, as NumPy's maximum(acc, value) (extrema.py)
                    value = cast(a.dtype, v)
                    code.line(f"{n}_c[c] = {n}_c[c] if {n}_c[c] {_BEATS[a.kind]} {value} else {value}")
                    code.line(f"{n}_nan[c] |= {v} != {v}")
                elif a.dtype.kind == "c":  # NumPy's complex max/min, vectorized across columns
                    code.line(f"{n}_c[c] = {combine_complex(a.kind, f'{n}_c[c]', v, columns=True)}")
                else:
                    code.line(f"{n}_c[c] = {self.combine(a.kind, f'{n}_c[c]', v, a.acc_dtype)}")
            self._outputs(p)

    def _element(self, p):
        """The pass's values at one element: stashed values read back, then its equations."""
        code, region = self.code, self.region
        _, _, body, loads = self.plans[p]
        for k, u in loads:
            code.line(f"{region.names[u]} = o{k}[{self.index}]")
        for eqn in body:
            self.emit_eqn(code, region, eqn, self.index, self.outer_index)

    def _outputs(self, p):
        """The pass's full-size outputs at one element."""
        for k, v in self.plans[p][1]:
            value = self.value(self.region, v, self.index, self.outer_index)
            self.code.line(f"o{k}[{self.index}] = {value}")

def _numpy_type(dtype):
    return "np.bool_" if dtype == np.bool_ else f"np.{dtype.name}"


def emit_columns(code, region, plans, avail, outer_eqns, parallel):
    _Columns(code, region, plans, avail, outer_eqns).emit(parallel)
