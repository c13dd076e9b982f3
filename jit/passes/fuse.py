"""fuse_elementwise: group elementwise chains, their broadcasts and reductions into `fusion` regions.

A region has one iteration shape S and at most one set of reduced axes R. Its equations produce either
full values (shape S) or outer values (shape S without R): reductions over R turn full values into outer
values, and broadcast_in_dim over R turns outer values back into full ones (the softmax/layernorm pattern).
A backend compiles a region into one loop nest: outer axes in parallel, a pass over R per reduction stage.
Equations join a region only if that keeps the graph acyclic once the region becomes one equation.
"""

from __future__ import annotations

from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.control import fusion_p
from arraystack.ir.ir import Eqn, Graph, Var
from arraystack.ir.passes.pipeline import visit

ELEMENTWISE = frozenset(
    prim
    for prim in p.abstract_eval_rules
    if prim.name
    in {
        "neg", "abs", "sign", "floor", "ceil", "trunc", "rint", "exp", "exp2", "expm1", "log", "log2",
        "log10", "log1p", "sqrt", "cbrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
        "tanh", "asinh", "acosh", "atanh", "erf", "logistic", "isnan", "isinf", "isfinite", "signbit",
        "not", "conj", "real", "imag", "add", "sub", "mul", "div", "floordiv", "rem", "fmod", "pow",
        "max", "min", "atan2", "hypot", "copysign", "and", "or", "xor", "eq", "ne", "lt", "le", "gt",
        "ge", "select", "convert",
    }
)  # fmt: skip
REDUCTIONS = frozenset(
    {s.reduce_sum_p, s.reduce_prod_p, s.reduce_max_p, s.reduce_min_p, s.reduce_and_p, s.reduce_or_p}
)
# Float functions a generated CPU loop can only compute by calling scalar libm routines, which do not
# vectorize: NumPy's own whole-array loops are 2-7x faster (float32 sin(x)*2+1 on 1e6 elements: 9.6 ms
# fused, 1.9 ms as a NumPy step then a fused *2+1) and their bits are the reference tier's. They stay out of
# regions, so the rest of a chain still fuses. float64 sin and cos are the exception: NumPy calls the same
# scalar libm for them, and the fused loop is faster (13.7 vs 26.3 ms).
WHOLE_ARRAY_FLOAT = frozenset(
    prim
    for prim in p.abstract_eval_rules
    if prim.name
    in {
        "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "log1p",
        "log2", "log10", "exp2", "atan2", "hypot", "pow",
    }
)  # fmt: skip
FUSED_FLOAT64 = frozenset(prim for prim in WHOLE_ARRAY_FLOAT if prim.name in {"sin", "cos"})


class _Region:
    def __init__(self, rid, shape):
        self.rid = rid
        self.shape = shape
        self.axes = None  # reduced axes, once a reduction joins
        self.eqns: list[Eqn] = []
        self.vars: set = set()
        self.position: dict = {}  # id(eqn) -> index in the input graph
        self._squeezed_outer = (None, None)  # (axes, the outer shape without unit axes) for level()

    def outer_shape(self):
        return tuple(d for i, d in enumerate(self.shape) if i not in self.axes)

    def level(self, aval_shape):
        """'full' or 'outer' for a value of this shape inside the region, None if it cannot live here."""
        if aval_shape == self.shape:
            return "full"
        if self.axes is None:
            return None
        axes, outer = self._squeezed_outer
        if axes is not self.axes:
            outer = _squeezed(self.outer_shape())
            self._squeezed_outer = (self.axes, outer)
        if _squeezed(aval_shape) == outer:
            return "outer"  # outer values may carry unit axes (keepdims): same elements, same order
        return None


def _squeezed(shape):
    return tuple(d for d in shape if d != 1)


def _iteration_shape(eqn):
    if eqn.prim in REDUCTIONS:
        return eqn.inputs[0].aval.shape
    return eqn.outputs[0].aval.shape


def _depends_on(node, target, deps):
    """Whether `node` (transitively) depends on `target` in the node dependency graph."""
    stack, seen = [node], set()
    while stack:
        n = stack.pop()
        if n is target:
            return True
        if id(n) in seen:
            continue
        seen.add(id(n))
        stack.extend(deps.get(id(n), ()))
    return False


def _can_join(region, eqn, producer, deps):
    # joining adds the edges region -> producer(x); it must not close a cycle
    for x in eqn.inputs:
        if isinstance(x, Var) and x not in region.vars and x in producer:
            if _depends_on(producer[x], region, deps):
                return False
    if eqn.prim in REDUCTIONS:
        axes = tuple(eqn.params["axes"])
        if eqn.inputs[0].aval.shape != region.shape or not axes:
            return False
        return region.axes is None or region.axes == axes
    if eqn.prim is s.reshape_p:  # only between outer values of a reducing region (keepdims)
        x = eqn.inputs[0]
        return (
            isinstance(x, Var)
            and x in region.vars
            and region.level(x.aval.shape) == "outer"
            and region.level(eqn.outputs[0].aval.shape) == "outer"
        )
    if eqn.prim is s.broadcast_in_dim_p:
        if eqn.outputs[0].aval.shape != region.shape:
            return False
        x = eqn.inputs[0]
        if (
            isinstance(x, Var) and x in region.vars
        ):  # an outer value broadcast back over the reduced axes
            kept = tuple(
                i for i in range(len(region.shape)) if region.axes is None or i not in region.axes
            )
            return (
                region.axes is not None
                and tuple(eqn.params["broadcast_dimensions"]) == kept
                and (x.aval.shape == region.outer_shape())
            )
        return True
    return region.level(eqn.outputs[0].aval.shape) is not None and all(
        not isinstance(x, Var) or x not in region.vars or region.level(x.aval.shape) is not None
        for x in eqn.inputs
    )


def _try_merge(target, other, producer, deps, nodes):
    """Merge region `other` into `target` when they iterate alike and no outside node lies between them."""
    if other.shape != target.shape or other not in nodes:
        return
    if other.axes is not None and target.axes is not None and other.axes != target.axes:
        return
    for a, b in ((target, other), (other, target)):
        for d in deps[id(a)]:
            if d is not b and _depends_on(d, b, deps):
                return
    target.axes = target.axes if target.axes is not None else other.axes
    target.eqns.extend(other.eqns)
    target.position.update(other.position)
    target.vars.update(other.vars)
    for v in other.vars:
        producer[v] = target
    deps[id(target)].update(d for d in deps.pop(id(other)) if d is not target)
    deps[id(target)].discard(other)
    for node_deps in deps.values():
        if other in node_deps:
            node_deps.discard(other)
            node_deps.add(target)
    deps[id(target)].discard(target)
    nodes.remove(other)


def _fusible(eqn):
    if eqn.prim in REDUCTIONS and not eqn.params["axes"]:
        return False  # a reduction over no axes is a copy; simplify removes it
    if eqn.prim in REDUCTIONS:
        return eqn.inputs[0].aval.dtype.kind != "c" or eqn.prim is s.reduce_sum_p
    if eqn.prim in (s.broadcast_in_dim_p, s.reshape_p):
        return True
    if eqn.prim not in ELEMENTWISE:
        return False
    if eqn.prim in WHOLE_ARRAY_FLOAT:
        out = eqn.outputs[0].aval.dtype
        if out.kind == "f" and not (out.itemsize == 8 and eqn.prim in FUSED_FLOAT64):
            return False
    return (
        all(x.aval.dtype.kind != "c" for x in eqn.inputs + eqn.outputs)
        and eqn.outputs[0].aval.size != 0
    )


def _choose_region(eqn, inputs_from, producer, deps):
    """The first region among the producers of eqn's inputs that can take it, or None."""
    for node in inputs_from:
        if isinstance(node, _Region) and (
            node.shape == _iteration_shape(eqn) or node.level(eqn.outputs[0].aval.shape)
        ):
            if _can_join(node, eqn, producer, deps):
                return node
    return None


def fuse_elementwise(graph: Graph) -> Graph:
    regions: list[_Region] = []
    producer: dict = {}  # var -> the node (an Eqn or a _Region) computing it
    deps: dict = {}  # id(node) -> nodes it reads from
    nodes: list = []  # Eqns and regions, in creation order
    first: dict = {}  # id(node) -> position of its first eqn in the input graph

    for n, eqn in enumerate(graph.eqns):
        visit(n, eqn)
        inputs_from = [producer[x] for x in eqn.inputs if x in producer]  # Literals never are
        fusible = _fusible(eqn)
        target = _choose_region(eqn, inputs_from, producer, deps) if fusible else None
        if target is None and fusible and eqn.prim is not s.reshape_p:
            target = _Region(
                len(regions), _iteration_shape(eqn)
            )  # reshapes only ever join a region
            regions.append(target)
            nodes.append(target)
            deps[id(target)] = set()
            first[id(target)] = n
        if target is not None:
            if eqn.prim in REDUCTIONS:
                target.axes = tuple(eqn.params["axes"])
            deps[id(target)].update(d for d in inputs_from if d is not target)
            for other in inputs_from:
                if isinstance(other, _Region) and other is not target:
                    _try_merge(target, other, producer, deps, nodes)
            inputs_from = [producer[x] for x in eqn.inputs if x in producer]
            target.eqns.append(eqn)
            target.position[id(eqn)] = n
            target.vars.update(eqn.outputs)
            node = target
        else:
            node = eqn
            nodes.append(eqn)
            deps[id(eqn)] = set()
            first[id(eqn)] = n
        deps[id(node)].update(d for d in inputs_from if d is not node)
        for v in eqn.outputs:
            producer[v] = node
    if not regions:
        return graph
    return _rebuild(graph, nodes, producer, deps, first)


def _rebuild(graph, nodes, producer, deps, first):
    used_outside: dict = {x: True for x in graph.outputs if isinstance(x, Var)}
    for node in nodes:
        members = node.eqns if isinstance(node, _Region) else [node]
        for eqn in members:
            for x in eqn.inputs:
                if isinstance(x, Var) and producer.get(x) is not node:
                    used_outside[x] = True
    # topological order (Kahn), earliest original position first
    import heapq

    users: dict = {id(n): [] for n in nodes}
    indegree = {id(n): len(deps[id(n)]) for n in nodes}
    for n in nodes:
        for d in deps[id(n)]:
            users[id(d)].append(n)
    ready = [(first[id(n)], k, n) for k, n in enumerate(nodes) if indegree[id(n)] == 0]
    heapq.heapify(ready)
    index = {id(n): k for k, n in enumerate(nodes)}
    out = []
    while ready:
        _, _, node = heapq.heappop(ready)
        out.append(_region_eqn(node, used_outside) if isinstance(node, _Region) else node)
        for user in users[id(node)]:
            indegree[id(user)] -= 1
            if indegree[id(user)] == 0:
                heapq.heappush(ready, (first[id(user)], index[id(user)], user))
    if len(out) != len(nodes):
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
    for e in sorted(region.eqns, key=lambda e: region.position[id(e)]):
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
    results = tuple(v for e in region.eqns for v in e.outputs if used_outside.get(v))
    sub = Graph(tuple(sub_inputs), tuple(sub_eqns), tuple(rename[v] for v in results))
    return Eqn(fusion_p, tuple(outer_inputs), results, {"graph": sub}, region.eqns[-1].source)
