"""The engine's view of a Plan (engine.py): one Node per step of plan.order with the values it reads and writes
(keyed by (value name, device key)), the plan buffers it allocates and touches, and the steps it must wait for;
plus the memory profile the plan implies (bytes in use per device before each allocating step).

A step waits for: the producers of what it reads; every earlier step touching a buffer it writes (the buffer
holds a dead value that those steps read: write after read); and, on a device short of memory (see order()),
when it allocates, every step touching a temporary buffer of its device that plan order frees before it (so
memory is never held earlier than the plan holds it, and a concurrent run stays within the plan's peak).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from arraystack.ir.ir import Var


@dataclass(frozen=True)
class Write:
    key: tuple  # (value name, device key)
    buffer: int  # the plan buffer holding it
    aval: object
    view: bool  # shares its operand's buffer: nothing is written


@dataclass
class Node:
    position: int  # in plan.order
    index: int  # region or transfer index
    device: str  # where it runs (a transfer: its destination)
    transfer: object  # the plan's Transfer, or None for a region
    inputs: tuple  # per equation input: a key, or a Literal
    reads: tuple  # distinct keys read
    writes: tuple  # Write records
    allocates: list = field(default_factory=list)  # (buffer, bytes) this step is the first to write
    buffers: set = field(default_factory=set)  # plan buffers it reads or writes
    after: set = field(default_factory=set)  # positions it waits for
    reuse_after: set = field(default_factory=set)  # earlier steps touching a buffer it writes again
    memory_after: set = field(default_factory=set)  # earlier steps freeing memory of its device


def used_devices(plan) -> tuple:
    """The keys of the devices a run of `plan` touches: the default device, then those holding buffers."""
    home = plan.model.default.key
    return tuple(dict.fromkeys([home] + [b.device for b in plan.buffers]))


class Schedule:
    def __init__(self, plan):
        from arraystack.backends.planner import value_names

        graph, assignment = plan.graph, plan.assignment
        names = value_names(graph)
        self.home = home = plan.model.default.key
        self.regions = plan.regions
        avals = {name: var.aval for var, name in names.items()}
        where = {b.values[0]: b.device for b in plan.buffers if b.kind == "argument"}
        argument_keys = [(names[v], where[names[v]]) for v in graph.inputs]
        self.arguments = [(key, assignment[key]) for key in argument_keys]  # (key, buffer)
        self.argument_bytes = [plan.buffers[b].bytes for _, b in self.arguments]
        self.buffer_place = {b.index: (b.device, b.bytes) for b in plan.buffers}
        self.temporary = {b.index for b in plan.buffers if b.kind == "temporary"}
        self.allocated = {b.index for b in plan.buffers if b.kind != "argument"}
        self.assignment = assignment
        self.devices = used_devices(plan)
        self.nodes = nodes = []
        for p, (what, i) in enumerate(plan.order):
            if what == "transfer":
                t = plan.transfers[i]
                dst = (t.value, t.dst)
                write = Write(dst, assignment[dst], avals[t.value], False)
                nodes.append(Node(p, i, t.dst, t, (), ((t.value, t.src),), (write,)))
                continue
            region, eqn = plan.regions[i], graph.eqns[i]
            device = region.device
            inputs = tuple((names[x], device) if isinstance(x, Var) else x for x in eqn.inputs)
            reads = tuple(dict.fromkeys(x for x in inputs if isinstance(x, tuple)))
            view = region.flops == 0 and region.bytes == 0 and bool(reads)
            writes = tuple(
                Write((names[v], device), assignment[(names[v], device)], v.aval, view)
                for v in eqn.outputs
            )
            nodes.append(Node(p, i, device, None, inputs, reads, writes))
        self.avals = {(name, d): avals[name] for (name, d) in assignment}
        self.outputs = [(names[x], home) if isinstance(x, Var) else x for x in graph.outputs]
        self._link()
        self._profile()

    def _link(self):
        producer, touched, first = {}, {}, {}
        self.readers = {}
        for node in self.nodes:
            p = node.position
            for key in node.reads:
                if key in producer:
                    node.after.add(producer[key])
                self.readers[key] = self.readers.get(key, 0) + 1
            node.buffers.update(self.assignment[key] for key in node.reads)
            for write in node.writes:
                b = write.buffer
                if not write.view:
                    node.reuse_after.update(touched.get(b, ()))
                if b not in first and b in self.allocated:
                    first[b] = p
                    node.allocates.append((b, self.buffer_place[b][1]))
                node.buffers.add(b)
                producer[write.key] = p
                self.readers.setdefault(write.key, 0)
            for b in node.buffers:
                touched.setdefault(b, []).append(p)
        for key in self.outputs:
            if isinstance(key, tuple):
                self.readers[key] = self.readers.get(key, 0) + 1
        self.touches = {b: len(ps) for b, ps in touched.items()}
        self.last = {b: ps[-1] for b, ps in touched.items()}
        freed = sorted(  # (position of the last touch, buffer) of the temporaries, in plan order
            (self.last[b], b) for b in touched if b in self.temporary
        )
        for node in self.nodes:
            if node.allocates:
                device = node.device
                for last, b in freed:
                    if last >= node.position:
                        break
                    if self.buffer_place[b][0] == device:
                        node.memory_after.update(touched[b])
            node.after.discard(node.position)
            node.reuse_after -= node.after | {node.position}
            node.memory_after -= node.after | node.reuse_after | {node.position}
        self.total = {}  # device -> bytes of the plan buffers a run allocates there
        for b in self.allocated:
            device, nbytes = self.buffer_place[b]
            self.total[device] = self.total.get(device, 0) + nbytes
        self._orders = {}

    def held(self, device: str) -> int:
        """Bytes of the arguments on `device` (held through the run)."""
        return sum(n for ((_, d), _), n in zip(self.arguments, self.argument_bytes) if d == device)

    def order(self, strict=frozenset()):
        """(waits, successors, serial) for a run. Every step waits for its inputs and for the steps
        touching a buffer it reuses (the planner's assignment implies those: buffer_assignment.py); on
        a device of `strict`, also for the memory the plan frees before it there. Elsewhere ready steps
        run as soon as their inputs are: each plan buffer is allocated once per run, so a device never
        holds more than the plan's buffers there (`total`), and only a device whose limit is below that
        needs plan order's memory."""
        found = self._orders.get(strict)
        if found is None:
            waits, successors = {}, {node.position: [] for node in self.nodes}
            for node in self.nodes:
                after = node.after | node.reuse_after
                if node.device in strict:
                    after = after | node.memory_after
                waits[node.position] = len(after)
                for q in sorted(after):
                    successors[q].append(node.position)
            serial = all(n.position in successors[n.position - 1] for n in self.nodes[1:])
            found = self._orders[strict] = (waits, successors, serial)
        return found

    def _profile(self):
        """Bytes in use per device before each allocating step, run in plan order: `profile` lists
        (position, device, requested, in use), `predicted_peak` the maximum per device."""
        in_use = dict.fromkeys(self.devices, 0)
        for ((_, device), _), nbytes in zip(self.arguments, self.argument_bytes):
            in_use[device] += nbytes
        peak = dict(in_use)
        self.profile = []
        for node in self.nodes:
            requested = sum(n for _, n in node.allocates)
            if requested:
                self.profile.append((node.position, node.device, requested, in_use[node.device]))
                in_use[node.device] += requested
                peak[node.device] = max(peak[node.device], in_use[node.device])
            for b in node.buffers:
                if self.last[b] == node.position and b in self.temporary:
                    device, nbytes = self.buffer_place[b]
                    in_use[device] -= nbytes
        self.predicted_peak = peak
