"""fuse_elementwise: group elementwise chains, their broadcasts and reductions into `fusion` regions.

A region has one iteration shape S and at most one set of reduced axes R. Its equations produce either
full values (shape S) or outer values (shape S without R): reductions over R turn full values into outer
values, and broadcast_in_dim over R turns outer values back into full ones (the softmax/layernorm pattern).
A backend compiles a region into one loop nest: outer axes in parallel, a pass over R per reduction stage.
Equations join a region only if that keeps the graph acyclic once the region becomes one equation.
"""

from __future__ import annotations

import heapq

from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.control import fusion_p
from arraystack.ir.ir import Eqn, Graph, Literal, Var
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
# vectorize: NumPy's own whole-array loops are 2-7x faster (float32 sin(x)*2+1 on 1e6 elements, with libm's
# sin: 9.6 ms fused, 1.9 ms as a NumPy step then a fused *2+1) and their bits are the reference tier's. They stay out of
# regions, so the rest of a chain still fuses. (sin, cos, tan and log1p have vectorized versions: numba's
# mathlib/trig.py and mathlib/log1p.py.)
WHOLE_ARRAY_FLOAT = frozenset(
    prim
    for prim in p.abstract_eval_rules
    if prim.name
    in {
        "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "log2", "log10", "exp2",
        "atan2", "hypot", "pow",
    }
)  # fmt: skip
# float32 sin, cos and tan join elementwise regions only, never one that reduces: a backend's fast float32
# version holds below 2**20, and an elementwise loop can check each block's arguments and take it (the
# numba backend: 0.6 ns an element, NumPy's loop 0.4 plus a memory pass), where a reducing loop's passes
# would run the full range's version (1.4 ns, with table gathers)
CHECKED_FLOAT32 = frozenset(
    prim for prim in p.abstract_eval_rules if prim.name in {"sin", "cos", "tan"}
)


def float32_integer_power(eqn):
    """n for a float32 x ** n with a literal n of 3 or 4, else None. Those fuse: a backend computes them in
    float64 and rounds once, 0.3 ns an element (NumPy's float32 power: 0.95 ns for positive bases, a scalar
    loop of 45-86 ns for negative ones, which split GELU's tanh approximation around it). x ** 2 is x * x
    already (passes/algebra.py). A general float32 pow, exp(y log|x|) in float64, took 3.5 ns: slower than
    NumPy's SIMD loop on positive bases, so other exponents keep NumPy's loop."""
    if eqn.prim is not p.pow_p or eqn.outputs[0].aval.dtype != "float32":
        return None
    x, e = eqn.inputs
    if x.aval.dtype != "float32" or not isinstance(e, Literal):
        return None
    value = float(e.value)
    return int(value) if value in (3.0, 4.0) else None


def _checked_float32(eqn) -> bool:
    return eqn.prim in CHECKED_FLOAT32 and eqn.outputs[0].aval.dtype == "float32"


class _Region:
    def __init__(self, shape):
        self.shape = shape
        self.axes = None  # reduced axes, once a reduction joins (set_axes)
        self.members: list = []  # (position in the input graph, eqn), in the order they joined
        self.outer_shape = None  # the shape without the reduced axes
        self._squeezed_outer = None  # the same without unit axes
        self.checked_float32 = False  # holds a float32 sin, cos or tan: never reduces

    def set_axes(self, axes):
        if axes == self.axes:
            return  # every reduction in a region reduces the same axes
        self.axes = axes
        self.outer_shape = tuple(d for i, d in enumerate(self.shape) if i not in axes)
        self._squeezed_outer = _squeezed(self.outer_shape)

    def level(self, aval_shape):
        """'full' or 'outer' for a value of this shape inside the region, None if it cannot live here."""
        if aval_shape == self.shape:
            return "full"
        if self.axes is None:
            return None
        if aval_shape == self.outer_shape:
            return "outer"
        squeezed = _squeezed(aval_shape) if 1 in aval_shape else aval_shape
        if squeezed == self._squeezed_outer:
            return "outer"  # outer values may carry unit axes (keepdims): same elements, same order
        return None


def _squeezed(shape):
    return tuple(d for d in shape if d != 1)


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


def _can_join(region, eqn, inputs_from, producer, deps):
    # A Var is the region's own value when the region produces it (producer maps each value to its live
    # node). Joining adds the edges region -> inputs_from (the producers of eqn's inputs); it must not
    # close a cycle.
    for node in inputs_from:
        if node is not region and _depends_on(node, region, deps):
            return False
    if _checked_float32(eqn) and region.axes is not None:
        return False
    if eqn.prim in REDUCTIONS:
        axes = tuple(eqn.params["axes"])
        if region.checked_float32 or eqn.inputs[0].aval.shape != region.shape or not axes:
            return False
        return region.axes is None or region.axes == axes
    if eqn.prim is s.reshape_p:  # only between outer values of a reducing region (keepdims)
        x = eqn.inputs[0]
        return (
            producer.get(x) is region
            and region.level(x.aval.shape) == "outer"
            and region.level(eqn.outputs[0].aval.shape) == "outer"
        )
    if eqn.prim is s.broadcast_in_dim_p:
        if eqn.outputs[0].aval.shape != region.shape:
            return False
        x = eqn.inputs[0]
        if producer.get(x) is region:  # an outer value broadcast back over the reduced axes
            kept = tuple(
                i for i in range(len(region.shape)) if region.axes is None or i not in region.axes
            )
            return (
                region.axes is not None
                and tuple(eqn.params["broadcast_dimensions"]) == kept
                and (x.aval.shape == region.outer_shape)
            )
        return True
    if region.level(eqn.outputs[0].aval.shape) is None:
        return False
    for x in eqn.inputs:
        if producer.get(x) is region and region.level(x.aval.shape) is None:
            return False
    return True


def _try_merge(target, other, producer, deps, joining=None):
    """Merge region `other` into `target` when they iterate alike and no outside node lies between them.
    The live nodes are the keys of `deps`; `joining` is an equation about to join `target`."""
    if other.shape != target.shape or other not in deps:
        return False
    if other.axes is not None and target.axes is not None and other.axes != target.axes:
        return False
    if (other.checked_float32 and target.axes is not None) or (
        target.checked_float32 and other.axes is not None
    ):
        return False
    for a, b in ((target, other), (other, target)):
        for d in deps[a]:
            if d is not b and _depends_on(d, b, deps):
                return False
    if not _merged_levels_hold(target, other, producer, joining):
        return False
    if target.axes is None and other.axes is not None:
        target.set_axes(other.axes)
    target.checked_float32 = target.checked_float32 or other.checked_float32
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
    axes = target.axes if target.axes is not None else other.axes
    if axes is None:
        return True  # no outer values: every value is full
    merged = _Region(target.shape)
    merged.set_axes(axes)
    owners = (target, other)
    kept = tuple(i for i in range(len(merged.shape)) if i not in axes)
    eqns = [eqn for region in owners for _, eqn in region.members]
    for eqn in eqns + ([joining] if joining is not None else []):
        own = [x for x in eqn.inputs if isinstance(x, Var) and producer.get(x) in owners]
        if not own:
            continue
        if eqn.prim is s.broadcast_in_dim_p:
            x = eqn.inputs[0]
            if not (
                tuple(eqn.params["broadcast_dimensions"]) == kept
                and x.aval.shape == merged.outer_shape
            ):
                return False
        elif any(merged.level(x.aval.shape) is None for x in own):
            return False
    return True


def _iteration_shape(eqn):
    """The shape a region computing eqn iterates over, or None when eqn does not fuse."""
    prim = eqn.prim
    if prim in REDUCTIONS:
        if not eqn.params["axes"]:
            return None  # a reduction over no axes is a copy; simplify removes it
        x = eqn.inputs[0].aval
        return x.shape if x.dtype.kind != "c" or prim is s.reduce_sum_p else None
    out = eqn.outputs[0].aval
    if prim is s.broadcast_in_dim_p or prim is s.reshape_p:
        return out.shape
    if prim not in ELEMENTWISE:
        return None
    if prim in WHOLE_ARRAY_FLOAT and out.dtype.kind == "f" and float32_integer_power(eqn) is None:
        return None
    for x in eqn.inputs:
        if x.aval.dtype.kind == "c":
            return None
    for v in eqn.outputs:
        if v.aval.dtype.kind == "c":
            return None
    return None if 0 in out.shape else out.shape  # no empty arrays


def _choose_region(eqn, shape, inputs_from, producer, deps):
    """The first region among the producers of eqn's inputs that can take it (iterating over `shape`), or
    None."""
    out_shape = eqn.outputs[0].aval.shape
    for node in inputs_from:
        if (
            isinstance(node, _Region)
            and (node.shape == shape or node.level(out_shape))
            and _can_join(node, eqn, inputs_from, producer, deps)
        ):
            return node
    return None


def fuse_elementwise(graph: Graph) -> Graph:
    producer: dict = {}  # var -> the live node (an Eqn or a _Region) computing it
    deps: dict = {}  # live node -> the nodes it reads from; its keys are the nodes in creation order
    first: dict = {}  # node -> position of its first eqn in the input graph
    any_region = False

    for n, eqn in enumerate(graph.eqns):
        try:
            # the nodes computing eqn's inputs (Literals and graph inputs have none; nodes are truthy)
            inputs_from = list(filter(None, map(producer.get, eqn.inputs)))
            shape = _iteration_shape(eqn)
            target = None
            if shape is not None:
                target = _choose_region(eqn, shape, inputs_from, producer, deps)
            if target is None and shape is not None and eqn.prim is not s.reshape_p:
                target = _Region(shape)  # reshapes only ever join a region
                any_region = True
                deps[target] = set()
                first[target] = n
            if target is not None:
                if eqn.prim in REDUCTIONS:
                    target.set_axes(tuple(eqn.params["axes"]))
                target.checked_float32 = target.checked_float32 or _checked_float32(eqn)
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
    last = region.members[-1][1]
    return Eqn(fusion_p, tuple(outer_inputs), tuple(results), {"graph": sub}, last.source)
