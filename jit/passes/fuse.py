"""fuse_elementwise: group elementwise chains, their broadcasts and reductions into `fusion` regions.

A region has one iteration shape S and at most one set of reduced axes R. Its equations produce either
full values (shape S) or outer values (shape S without R): reductions over R turn full values into outer
values, and broadcast_in_dim over R turns outer values back into full ones (the softmax/layernorm pattern).
A backend compiles a region into one loop nest: outer axes in parallel, a pass over R per reduction stage.
Equations join a region only if that keeps the graph acyclic once the region becomes one equation.
What a region can hold and its layout are the region model's (arraystack.ir.regions); which of that a
backend compiles well is its FusionPolicy (fusion_policy.py), an argument: the pass knows no backend.
Each region's layout is recorded against its sub-graph (regions.region_layout reads it back).
"""

from __future__ import annotations

import heapq

from arraystack.ir import structural as s
from arraystack.ir.control import fusion_p
from arraystack.ir.ir import Eqn, Graph, Var
from arraystack.ir.passes.fusion_policy import GENERIC, FusionPolicy
from arraystack.ir.passes.pipeline import running_fusion_policy, visit
from arraystack.ir.regions import ELEMENTWISE, REDUCTIONS, RegionLayout, record_layout

__all__ = ["ELEMENTWISE", "GENERIC", "REDUCTIONS", "FusionPolicy", "fuse_elementwise"]


class _Region:
    """A region being built: its members and its layout (replaced when the first reduction joins)."""

    def __init__(self, shape):
        self.shape = shape
        self.layout = RegionLayout(shape)
        self.members: list = []  # (position in the input graph, eqn), in the order they joined
        self.checked = False  # holds an equation FusionPolicy.checked names: never reduces

    def set_axes(self, axes):
        if axes != self.layout.axes:  # every reduction in a region reduces the same axes
            self.layout = RegionLayout(self.shape, axes)


def _depends_on(node, target, deps):
    """Whether `node` (transitively) depends on `target` in the node dependency graph."""
    stack, seen = [node], set()
    while stack:
        n = stack.pop()
        if n is target:
            return True
        if n in seen:
            continue
        seen.add(n)
        stack.extend(deps.get(n, ()))
    return False


def _can_join(region, eqn, inputs_from, producer, deps, checked):
    # A Var is the region's own value when the region produces it (producer maps each value to its live
    # node). Joining adds the edges region -> inputs_from (the producers of eqn's inputs); it must not
    # close a cycle. `checked`: the policy checks eqn (FusionPolicy.checked).
    for node in inputs_from:
        if node is not region and _depends_on(node, region, deps):
            return False
    layout = region.layout
    if checked and layout.axes:
        return False
    if eqn.prim in REDUCTIONS:
        axes = tuple(eqn.params["axes"])
        if region.checked or eqn.inputs[0].aval.shape != region.shape or not axes:
            return False
        return not layout.axes or layout.axes == axes
    if eqn.prim is s.reshape_p:  # only between outer values of a reducing region (keepdims)
        x = eqn.inputs[0]
        return (
            producer.get(x) is region
            and layout.level(x.aval.shape) == "outer"
            and layout.level(eqn.outputs[0].aval.shape) == "outer"
        )
    if eqn.prim is s.broadcast_in_dim_p:
        if eqn.outputs[0].aval.shape != region.shape:
            return False
        x = eqn.inputs[0]
        if producer.get(x) is region:  # an outer value broadcast back over the reduced axes
            return (
                bool(layout.axes)
                and tuple(eqn.params["broadcast_dimensions"]) == layout.kept
                and x.aval.shape == layout.outer_shape
            )
        return True
    if layout.level(eqn.outputs[0].aval.shape) is None:
        return False
    for x in eqn.inputs:
        if producer.get(x) is region and layout.level(x.aval.shape) is None:
            return False
    return True


def _try_merge(target, other, producer, deps, joining=None):
    """Merge region `other` into `target` when they iterate alike and no outside node lies between them.
    The live nodes are the keys of `deps`; `joining` is an equation about to join `target`."""
    if other.shape != target.shape or other not in deps:
        return False
    if other.layout.axes and target.layout.axes and other.layout.axes != target.layout.axes:
        return False
    if (other.checked and target.layout.axes) or (target.checked and other.layout.axes):
        return False
    for a, b in ((target, other), (other, target)):
        for d in deps[a]:
            if d is not b and _depends_on(d, b, deps):
                return False
    if not _merged_levels_hold(target, other, producer, joining):
        return False
    if not target.layout.axes and other.layout.axes:
        target.set_axes(other.layout.axes)
    target.checked = target.checked or other.checked
    target.members.extend(other.members)
    for _, eqn in other.members:
        for v in eqn.outputs:
            producer[v] = target
    target_deps = deps[target]
    target_deps.update(deps.pop(other))
    for node_deps in deps.values():
        if other in node_deps:
            node_deps.discard(other)
            node_deps.add(target)
    target_deps.discard(target)
    return True


def _merged_levels_hold(target, other, producer, joining):
    """Whether every equation of the two regions still reads the merged region's own values at their
    level. An equation joined its region seeing some inputs as outside values, which any layout can
    broadcast or reshape; once the regions merge, such an input may become an outer value of the merged
    region, which the kernel indexes by the kept axes only. a + a.sum(axis=-1) on a (3, 3) array: the
    broadcast of the row sums along axis 0 joined a region of its own (it cannot join the sum's region,
    whose kept axis is 0), and merging the two regions would have read the sums along the kept axis,
    as a + a.sum(axis=-1)[:, None], when the reduced and the broadcast axes had equal sizes. `joining`,
    an equation about to join `target`, is checked too."""
    axes = target.layout.axes or other.layout.axes
    if not axes:
        return True  # no outer values: every value is full
    merged = RegionLayout(target.shape, axes)
    owners = (target, other)
    eqns = [eqn for region in owners for _, eqn in region.members]
    for eqn in eqns + ([joining] if joining is not None else []):
        own = [x for x in eqn.inputs if isinstance(x, Var) and producer.get(x) in owners]
        if not own:
            continue
        if eqn.prim is s.broadcast_in_dim_p:
            x = eqn.inputs[0]
            if not (
                tuple(eqn.params["broadcast_dimensions"]) == merged.kept
                and x.aval.shape == merged.outer_shape
            ):
                return False
        elif any(merged.level(x.aval.shape) is None for x in own):
            return False
    return True


def _iteration_shape(eqn, policy):
    """The shape a region computing eqn iterates over, or None when eqn does not fuse."""
    prim = eqn.prim
    if prim in REDUCTIONS:
        if not eqn.params["axes"]:
            return None  # a reduction over no axes is a copy; simplify removes it
        if not policy.reducing_regions or not policy.reduction(eqn):
            return None
        return eqn.inputs[0].aval.shape
    out = eqn.outputs[0].aval
    if prim is s.broadcast_in_dim_p or prim is s.reshape_p:
        return out.shape
    if prim not in ELEMENTWISE or not policy.elementwise(eqn):
        return None
    return None if 0 in out.shape else out.shape  # no empty arrays


def _choose_region(eqn, shape, inputs_from, producer, deps, checked):
    """The first region among the producers of eqn's inputs that can take it (iterating over `shape`), or
    None."""
    out_shape = eqn.outputs[0].aval.shape
    for node in inputs_from:
        if (
            isinstance(node, _Region)
            and (node.shape == shape or node.layout.level(out_shape))
            and _can_join(node, eqn, inputs_from, producer, deps, checked)
        ):
            return node
    return None


def fuse_elementwise(graph: Graph, policy: FusionPolicy | None = None) -> Graph:
    """Group the graph's elementwise chains, broadcasts and reductions into fusion regions, as far as
    `policy` allows (default: the running pipeline's, else GENERIC)."""
    if policy is None:
        policy = running_fusion_policy() or GENERIC
    producer: dict = {}  # var -> the live node (an Eqn or a _Region) computing it
    deps: dict = {}  # live node -> the nodes it reads from; its keys are the nodes in creation order
    first: dict = {}  # node -> position of its first eqn in the input graph
    any_region = False

    for n, eqn in enumerate(graph.eqns):
        try:
            # the nodes computing eqn's inputs (Literals and graph inputs have none; nodes are truthy)
            inputs_from = list(filter(None, map(producer.get, eqn.inputs)))
            shape = _iteration_shape(eqn, policy)
            target = None
            checked = False
            if shape is not None:
                checked = policy.checked(eqn)
                target = _choose_region(eqn, shape, inputs_from, producer, deps, checked)
            if target is None and shape is not None and eqn.prim is not s.reshape_p:
                target = _Region(shape)  # reshapes only ever join a region
                any_region = True
                deps[target] = set()
                first[target] = n
            if target is not None:
                if eqn.prim in REDUCTIONS:
                    target.set_axes(tuple(eqn.params["axes"]))
                target.checked = target.checked or checked
                target_deps = deps[target]  # never holds target itself
                target_deps.update(inputs_from)
                target_deps.discard(target)
                merged = False
                for other in inputs_from:
                    if isinstance(other, _Region) and other is not target:
                        merged = _try_merge(target, other, producer, deps, eqn) or merged
                if merged:  # the inputs' producers changed
                    target_deps.update(producer[x] for x in eqn.inputs if x in producer)
                    target_deps.discard(target)
                target.members.append((n, eqn))
                node = target
            else:
                node = eqn
                deps[eqn] = set(inputs_from)
                first[eqn] = n
            for v in eqn.outputs:
                producer[v] = node
        except Exception:
            visit(n, eqn)
            raise
    if not any_region:
        return graph
    return _rebuild(graph, producer, deps, first)


def _rebuild(graph, producer, deps, first):
    # the values read outside the node that computes them (Literals among them are harmless)
    used_outside = {x for x in graph.outputs if isinstance(x, Var)}
    for node in deps:
        if isinstance(node, _Region):
            for _, eqn in node.members:
                for x in eqn.inputs:
                    if producer.get(x) is not node:
                        used_outside.add(x)
        else:
            used_outside.update(node.inputs)
    # topological order (Kahn), earliest original position first: each node has its own first position
    users: dict = {node: [] for node in deps}
    indegree = {}
    for node, node_deps in deps.items():
        indegree[node] = len(node_deps)
        for d in node_deps:
            users[d].append(node)
    at = {first[node]: node for node in deps}
    ready = [position for position, node in at.items() if not indegree[node]]
    heapq.heapify(ready)
    out = []
    while ready:
        node = at[heapq.heappop(ready)]
        out.append(_region_eqn(node, used_outside) if isinstance(node, _Region) else node)
        for user in users[node]:
            indegree[user] -= 1
            if not indegree[user]:
                heapq.heappush(ready, first[user])
    if len(out) != len(deps):
        raise RuntimeError("fusion produced a cyclic graph")
    return Graph(graph.inputs, tuple(out), graph.outputs)


def _region_eqn(region, used_outside):
    """The fusion equation of a region. Its sub-graph is a closed scope: one fresh Var per outside value it
    reads (its inputs, in order of first use) and per value it defines; the region's results keep their
    own Vars outside."""
    rename: dict = {}  # Var of the input graph -> its Var in the sub-graph
    sub_inputs = []
    outer_inputs = []
    sub_eqns = []
    for _, e in sorted(region.members):  # positions are unique: equations are never compared
        inputs = []
        for x in e.inputs:
            if isinstance(x, Var):
                inner = rename.get(x)
                if inner is None:  # the region's own values are defined before use (input order)
                    inner = rename[x] = Var(x.aval)
                    sub_inputs.append(inner)
                    outer_inputs.append(x)
                x = inner
            inputs.append(x)
        outputs = []
        for v in e.outputs:
            inner = rename[v] = Var(v.aval)
            outputs.append(inner)
        sub_eqns.append(Eqn(e.prim, tuple(inputs), tuple(outputs), e.params, e.source))
    results = []
    sub_outputs = []
    for _, e in region.members:
        for v in e.outputs:
            if v in used_outside:
                results.append(v)
                sub_outputs.append(rename[v])
    sub = Graph(tuple(sub_inputs), tuple(sub_eqns), tuple(sub_outputs))
    record_layout(sub, region.layout)
    last = region.members[-1][1]
    return Eqn(fusion_p, tuple(outer_inputs), tuple(results), {"graph": sub}, last.source)
