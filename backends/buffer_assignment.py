"""The planner's buffer assignment (planner.py): a buffer for every value on every device that holds it, a
dead buffer reused for a later value of the same size on the same device, views sharing their operand's.

A buffer is reused only by a step that depends, through the values it reads, on every step that touched the
buffer's previous value (its producer and its readers). The assignment then holds in any order that respects
the data dependencies, so the engine (engine.py) can run ready steps concurrently without extra ordering;
independent branches of a graph do not share buffers, which costs memory only where steps could overlap.
"""

from __future__ import annotations

from dataclasses import dataclass

from arraystack.backends.policies import value_bytes
from arraystack.ir.ir import Var


@dataclass(frozen=True)
class Buffer:
    """One allocation on one device; `values` are the (name, and for views, aliased) values it holds in
    turn. kind: "argument" (a caller's input, never reused), "output" (returned) or "temporary"."""

    index: int
    device: str
    bytes: int
    values: tuple
    kind: str


def assign_buffers(graph, regions, transfers, order, names, in_devices, home):
    """A buffer per (value, device), reusing on each device a buffer of the same size whose values are all
    dead (read for the last time at an earlier step; never in place) and whose steps the new value's
    producer depends on (see the module docstring). A view (a region of zero cost: reshape, transpose,
    ...) shares its operand's buffer. Returns (buffers, {(name, device): buffer index})."""
    graph_eqns = graph.eqns
    root: dict = {}  # (name, device) -> (name, device) owning the memory
    born: dict = {}  # root -> (position, nbytes, kind)
    last: dict = {}  # root -> position of the last read
    producer: dict = {}  # (name, device) -> position of the step that makes it
    ancestors: dict = {}  # position -> bit set of the positions it depends on
    touched: dict = {}  # root -> bit set of the positions making or reading it
    for var, key in zip(graph.inputs, in_devices):
        root[(names[var], key)] = (names[var], key)
        born[(names[var], key)] = (-1, value_bytes(var), "argument")
    for p, (what, i) in enumerate(order):
        if what == "transfer":
            t = transfers[i]
            read_keys = [(t.value, t.src)]
            made = [((t.value, t.dst), t.bytes, False)]
        else:
            region, eqn = regions[i], graph_eqns[i]
            read_keys = [(names[x], region.device) for x in eqn.inputs if isinstance(x, Var)]
            view = region.flops == 0 and region.bytes == 0 and bool(read_keys)
            made = [((names[v], region.device), value_bytes(v), view) for v in eqn.outputs]
        reads = [root[k] for k in read_keys]
        mask = 0
        for k in read_keys:
            if k in producer:
                mask |= ancestors[producer[k]] | (1 << producer[k])
        ancestors[p] = mask
        for r in reads:
            last[r] = p
            touched[r] = touched.get(r, 0) | (1 << p)
        for j, (mine, nbytes, view) in enumerate(made):
            producer[mine] = p
            if view:
                root[mine] = reads[j] if len(reads) == len(made) else reads[0]
            else:
                root[mine] = mine
                born[mine] = (p, nbytes, "temporary")
                last.setdefault(mine, p)
                touched[mine] = touched.get(mine, 0) | (1 << p)
    end = len(order)
    for var in graph.outputs:
        if isinstance(var, Var):
            r = root[(names[var], home)]
            last[r] = end
            if born[r][2] == "temporary":
                born[r] = born[r][:2] + ("output",)
    return _linear_scan(root, born, last, end, ancestors, touched)


def _linear_scan(root, born, last, end, ancestors, touched):
    slots: list = []  # [device, nbytes, [value names], kind]
    slot_of: dict = {}  # root -> slot index
    holder: dict = {}  # slot index -> the root it held last
    free: dict = {}  # (device, nbytes) -> slot indices free for reuse
    dying: dict = {}  # position -> roots read for the last time there
    for r, p in last.items():
        dying.setdefault(p, []).append(r)
    by_birth: dict = {}
    for r, (p, nbytes, kind) in born.items():
        by_birth.setdefault(p, []).append(r)
    for p in range(-1, end + 1):
        for r in by_birth.get(p, ()):
            _, nbytes, kind = born[r]
            reusable = free.get((r[1], nbytes), [])
            after = ancestors.get(p, 0)
            ordered = [k for k in reusable if touched.get(holder[k], 0) & ~after == 0]
            if kind != "argument" and ordered:
                index = ordered[-1]
                reusable.remove(index)
                slots[index][2].append(r[0])
                slots[index][3] = kind if kind == "output" else slots[index][3]
            else:
                index = len(slots)
                slots.append([r[1], nbytes, [r[0]], kind])
            slot_of[r] = index
            holder[index] = r
        for r in dying.get(p, ()):
            if born[r][2] == "temporary" and last[r] < end:
                free.setdefault((r[1], born[r][1]), []).append(slot_of[r])
    buffers = tuple(Buffer(i, d, n, tuple(v), k) for i, (d, n, v, k) in enumerate(slots))
    assignment = {key: slot_of[r] for key, r in root.items()}
    return buffers, assignment
