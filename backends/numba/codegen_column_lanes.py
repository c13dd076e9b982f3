"""The laned passes of column kernels (codegen_columns.py): float sums and products over the reduced
axes in summation_order.py's order, one column of lanes per output column of the block.

- one group (rows of LANES to 2 * LANES - 1 elements): each lane made at once from its one or two
  elements; for a plain reduction the fold's first FUSED_LEVELS levels are made with the lanes;
- laned rows (longer): groups of LANES rows into (LANES, width) lane matrices, float32 lanes joining the
  float64 ones every BLOCK_GROUPS groups;
- the fold in halves, each column's result in lane 0.

A mixin of codegen_columns._Columns: it reads the kernel's state (code, region, plans, accs) and its
per-element emitters (_row, _element, _outputs, _load).
"""

from __future__ import annotations

from arraystack.backends.numba.summation_order import BLOCK_GROUPS, LANES

FUSED_LEVELS = 3  # fold levels a one-group column sum makes with its lanes (_folded_group)


class LanedPasses:
    def _one_group(self, p):
        """Rows of LANES to 2 * LANES - 1 elements: each lane's value made at once from its one or two
        elements, as the laned loop would make it (a float32 lane from 0, then the float64 lane from 0),
        without zeroing and flushing lane matrices ((64, 256, 256) float32 over axis 0: 3.0 -> 1.4 ms)."""
        code, n = self.code, f"np.uint64(n{self.region.axes[-1]})"
        if not (self.plans[p][1] or self.plans[p][3]):  # no full outputs, no stash: a plain reduction
            self._folded_group(p, n)
            return
        with code.block(f"for j in range({n} - np.uint64({LANES})):"):
            self._lane_of(p, ("j", f"j + np.uint64({LANES})"))
        with code.block(f"for j in range({n} - np.uint64({LANES}), np.uint64({LANES})):"):
            self._lane_of(p, ("j",))
        self._fold(self.accs[p])

    def _folded_group(self, p, n):
        """_one_group's lanes with the fold's first FUSED_LEVELS levels made at once: lane j (j below
        LANES >> FUSED_LEVELS) becomes its fold with the lanes j + 8m, in the fold's own order
        (lane j + h joins lane j for h = 32, 16, 8), from their elements. The (LANES, width) lane
        matrix was written whole and read back by six fold passes; now an eighth of it is. A lane
        without a second element adds the identity instead (its first element's row is read again),
        which leaves its bits as they were: 0 + x is never -0, so (0 + x) + 0 is 0 + x, and
        (1 * x) * 1 is 1 * x. Only for passes that write nothing of their own (a row may be read
        twice)."""
        code = self.code
        kept = LANES >> FUSED_LEVELS
        parts = LANES // kept
        with code.block(f"for j in range(np.uint64({kept})):"):
            for m in range(parts):
                code.line(f"k{m} = j + np.uint64({kept * m})")
                code.line(f"two{m} = k{m} + np.uint64({LANES}) < {n}")
                code.line(f"second{m} = k{m} + np.uint64({LANES}) if two{m} else k{m}")
            with code.block("for c in range(cw):"):
                code.line(f"{self.col} = c0 + c")
                self._load(self.pass_reads[p])
                for m in range(parts):
                    for r, row in enumerate((f"k{m}", f"second{m}")):
                        code.line(f"{self.row} = {row}")
                        self._element(p)
                        for a in self.accs[p]:
                            t, op = f"{a.name}_t{m}", a.op
                            if a.narrow:
                                x, start = f"np.float32({a.value})", "np.float32(0.0)"
                            else:
                                x = f"np.float64({a.value})"
                                start = "1.0" if a.kind == "prod" else "0.0"
                            if r == 0:
                                code.line(f"{t} = {start} {op} {x}")
                            else:  # read either way: the select then has nothing to guard
                                code.line(f"{a.name}_x = {x}")
                                code.line(f"{t} = {t} {op} ({a.name}_x if two{m} else {start})")
                    for a in self.accs[p]:
                        if a.narrow:
                            code.line(f"{a.name}_t{m} = 0.0 + np.float64({a.name}_t{m})")
                for a in self.accs[p]:
                    level = [f"{a.name}_t{m}" for m in range(parts)]
                    while len(level) > 1:  # lane j + h joins lane j: part m + len/2 joins part m
                        half = len(level) // 2
                        level = [f"({level[m]} {a.op} {level[m + half]})" for m in range(half)]
                    code.line(f"{a.name}_w[j, c] = {level[0]}")
        self._fold(self.accs[p], LANES >> (FUSED_LEVELS + 1))

    def _lane_of(self, p, rows):
        code = self.code
        with code.block("for c in range(cw):"):
            code.line(f"{self.col} = c0 + c")
            self._load(self.pass_reads[p])
            for r, index in enumerate(rows):
                code.line(f"{self.row} = {index}")
                self._element(p)
                for a in self.accs[p]:
                    t = f"{a.name}_t"
                    if a.narrow:
                        code.line(f"{t} = {t if r else 'np.float32(0.0)'} + np.float32({a.value})")
                    else:
                        start = "1.0" if a.kind == "prod" else "0.0"
                        code.line(f"{t} = {t if r else start} {a.op} np.float64({a.value})")
                self._outputs(p)
            for a in self.accs[p]:
                joined = f"0.0 + np.float64({a.name}_t)" if a.narrow else f"{a.name}_t"
                code.line(f"{a.name}_w[j, c] = {joined}")

    def _fold(self, laned, h=LANES // 2):
        """Lanes fold in halves from h down; each column's result is lane 0."""
        code = self.code
        while h:
            for a in laned:
                w = f"{a.name}_w"
                with (
                    code.block(f"for j in range(np.uint64({h})):"),
                    code.block("for c in range(cw):"),
                ):
                    other = f"{w}[j + np.uint64({h}), c]"
                    code.line(f"{w}[j, c] = {a.times(f'{w}[j, c]', other, widen=False)}")
            h //= 2
        for a in laned:
            with code.block("for c in range(cw):"):
                code.line(f"{a.name}_s[c] = {a.name}_w[0, c]")

    def _laned_rows(self, p):
        code = self.code
        laned = [a for a in self.accs[p] if a.laned]
        narrow = [a for a in laned if a.narrow]

        def flush():  # float32 lanes join the float64 ones and restart at 0
            for a in narrow:
                with (
                    code.block(f"for j in range(np.uint64({LANES})):"),
                    code.block("for c in range(cw):"),
                ):
                    code.line(f"{a.name}_w[j, c] = {a.name}_w[j, c] + np.float64({a.name}_f[j, c])")
                    code.line(f"{a.name}_f[j, c] = np.float32(0.0)")

        def count_group():
            if narrow:
                code.line("ngroups += 1")
                with code.block(f"if ngroups == {BLOCK_GROUPS}:"):
                    flush()
                    code.line("ngroups = 0")

        if narrow:
            code.line("ngroups = 0")
        *outer, last = self.region.axes  # reduced axes before the last: rows of rows, in order
        for d in outer:
            code.line(f"for i{d} in range(np.uint64(n{d})):")
            code.depth += 1
        n, row = f"np.uint64(n{last})", self.row
        code.line(f"gend = {n} - {n} % np.uint64({LANES})")
        with code.block(f"for g in range(np.uint64(0), gend, np.uint64({LANES})):"):
            with code.block(f"for j in range(np.uint64({LANES})):"):
                code.line(f"{row} = g + j")
                self._row(p, "j")
            count_group()
        with code.block(f"for j in range({n} - gend):"):  # a partial last group
            code.line(f"{row} = gend + j")
            self._row(p, "j")
        if narrow:  # a partial group counts as one
            with code.block(f"if gend < {n}:"):
                count_group()
        code.depth -= len(outer)
        flush()
        self._fold(laned)
