"""Which values a rows kernel keeps in shared memory between its passes (cuda_codegen_reduce's rows form).

A rows kernel walks its row once per stage (softmax: the max, then the sum of the exps) and once more to
write the full-size outputs. Without a cache every pass reads its inputs from global memory again and
recomputes everything between them and its targets: softmax would compute each exp twice. The plan keeps,
after each pass, the latest values of that pass a later pass needs: softmax keeps the input x from the
max's pass for the sum's pass, then exp(x - max) from the sum's pass for the output pass, so no pass
repeats math an earlier one did, and global memory is read once.

A slot is one array of the row's length in dynamic shared memory holding one value at a time. A value a
pass reads for the last time hands its slot to a value of the same type that pass stores: in every pass
a thread handles the same elements j (it starts at threadIdx.x and steps by blockDim.x), and an element's
cached values are read before its new ones are written, so no barrier separates the two.

Cached values are the registers' own bits (float16 values are kept as the floats they compute in, and
NVRTC contracts no multiply-add: -fmad=false), so the kernel gives the same bits with or without the
cache; rows too long for shared memory run without it (cache_rows = 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from arraystack.backends.cupy.cuda_region import Region
from arraystack.backends.cupy.lowering import register_type
from arraystack.ir import structural as s
from arraystack.ir.ir import Literal


@dataclass
class PassCache:
    """What one pass reads from and writes to the slots: (key, slot) pairs, a key being ("site", k)
    for the input site k or ("value", var) for a computed value."""

    reads: list = field(default_factory=list)
    stores: list = field(default_factory=list)


@dataclass
class RowCache:
    passes: list  # a PassCache per pass, in the kernel's order
    types: list  # the register type of each slot
    sizes: list  # the bytes per element of each slot

    @property
    def row_bytes(self) -> int:
        return sum(self.sizes)

    def layout(self) -> list:
        """The slots in memory order, widest first (every slot's offset is a multiple of its size)."""
        return sorted(range(len(self.sizes)), key=lambda k: (-self.sizes[k], k))


def walk(region: Region, targets, stop) -> tuple[set, set]:
    """The full-level keys computing `targets` reaches: (those in `stop`, where it stops; the others)."""
    hits, computed = set(), set()

    def visit(x, reader):
        if isinstance(x, Literal):
            return
        if x in region.position:
            k = region.site_of[(x, reader)]
            if region.site_scope(k) == "full":
                (hits if ("site", k) in stop else computed).add(("site", k))
            return
        if region.level(x) != "full":
            return  # outer values are computed once per row, before the passes
        e = region.producer[x]
        if e.prim is s.broadcast_in_dim_p or e.prim is s.reshape_p:  # names, not code
            visit(e.inputs[0], e if e.prim is s.broadcast_in_dim_p else None)
            return
        key = ("value", x)
        if key in stop:
            hits.add(key)
        elif key not in computed:
            computed.add(key)
            for y in e.inputs:
                visit(y, None)

    for t in targets:
        visit(t, None)
    return hits, computed


def kind(region: Region, key):
    """(register type, bytes per element) of a key's values."""
    dtype = region.dtype(key[1]) if key[0] == "site" else np.dtype(key[1].aval.dtype)
    return register_type(dtype), 4 if dtype == np.float16 else dtype.itemsize


def passes(region: Region) -> list:
    """The targets of each pass of a rows kernel: the operands of each stage, then the full outputs."""
    stages = sorted(set(region.stage.values()))
    out = [[e.inputs[0] for e in region.reductions if region.stage[e] == st] for st in stages]
    full = [v for v in region.graph.outputs if isinstance(v, Literal) or region.level(v) == "full"]
    return out + [full] if full else out


def plan(region: Region) -> RowCache | None:
    """The cache of a rows kernel, or None when no pass needs anything an earlier one computed."""

    def order(key):
        return (0, key[1]) if key[0] == "site" else (1, int(region.names[key[1]][1:]))

    available: dict = {}  # key -> slot
    types, sizes, free = [], [], []
    out = []
    every = passes(region)
    for q, targets in enumerate(every):
        hits, computed = walk(region, targets, set(available))
        step = PassCache(reads=[(key, available[key]) for key in sorted(hits, key=order)])
        wanted = set()  # what later passes reach first, given this pass's values and the slots
        for later in every[q + 1 :]:
            wanted |= walk(region, later, set(available) | computed)[0]
        free += [slot for key, slot in available.items() if key not in wanted]
        available = {key: slot for key, slot in available.items() if key in wanted}
        for key in sorted(wanted & computed, key=order):
            made = kind(region, key)
            reuse = [slot for slot in free if (types[slot], sizes[slot]) == made]
            if reuse:
                slot = reuse[0]
                free.remove(slot)
            else:
                slot = len(types)
                types.append(made[0])
                sizes.append(made[1])
            available[key] = slot
            step.stores.append((key, slot))
        out.append(step)
    if not types:
        return None
    return RowCache(out, types, sizes)
