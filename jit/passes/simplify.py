"""simplify: algebraic rewrites as a table of local rules keyed by primitive.

Rule convention: `simplify_rules[p](eqn, ctx) -> replacement or None`. `ctx.producer(atom)` is the (already
simplified) equation that computes a Var, or None (`ctx(atom)` too); `ctx.uses(var)` counts the var's uses in
the input graph; `ctx.order_key(atom)` orders atoms by definition (Literals last). A replacement is an atom
(the equation's single output becomes that Var/Literal), a new Eqn with the same outputs, or a list of Eqns
whose last one has the same outputs (the others define fresh Vars). New equations are simplified again.
Rules report what fired with manager.count(), which PassReport shows.

Every rule keeps results bit-identical to the unoptimized graph: algebra.py tabulates the arithmetic rewrites,
why each is exact and which ones were rejected (x + 0.0, x - x for floats, exp(log x), ...); layout.py the
layout ones (scalar broadcasts, transpose/reshape/broadcast sinking). Here: the structural rules.
"""

from __future__ import annotations

from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.avals import ShapedArray, kind_of
from arraystack.ir.ir import Eqn, Graph, Literal
from arraystack.ir.passes import algebra, layout
from arraystack.ir.passes.pipeline import count, visit

simplify_rules: dict = {}
_MAX_DEPTH = 16  # rewrites of rewrites of one equation


def _reshape(eqn, ctx):
    (x,) = eqn.inputs
    if tuple(eqn.params["new_sizes"]) == tuple(x.aval.shape):
        count("reshape_noop")
        return x
    inner = ctx.producer(x)
    if inner is not None and inner.prim is s.reshape_p:  # reshape of reshape
        source = inner.inputs[0]
        count("reshape_chain")
        if tuple(eqn.params["new_sizes"]) == tuple(source.aval.shape):
            return source
        return Eqn(s.reshape_p, (source,), eqn.outputs, eqn.params, eqn.source)
    return None


def _transpose(eqn, ctx):
    (x,) = eqn.inputs
    perm = tuple(eqn.params["permutation"])
    if perm == tuple(range(len(perm))):
        count("transpose_noop")
        return x
    inner = ctx.producer(x)
    if inner is not None and inner.prim is s.transpose_p:  # transpose of transpose
        first = tuple(inner.params["permutation"])
        composed = tuple(first[i] for i in perm)
        source = inner.inputs[0]
        count("transpose_of_transpose")
        if composed == tuple(range(len(composed))):
            return source
        return Eqn(s.transpose_p, (source,), eqn.outputs, {"permutation": composed}, eqn.source)
    return None


def _convert(eqn, ctx):
    (x,) = eqn.inputs
    return x if x.aval == eqn.outputs[0].aval else None


def _stop_gradient(eqn, ctx):
    return eqn.inputs[0]  # only transformations, which run before any pass, give it a meaning


def _broadcast(eqn, ctx):
    (x,) = eqn.inputs
    if tuple(x.aval.shape) == tuple(eqn.params["shape"]) and tuple(
        eqn.params["broadcast_dimensions"]
    ) == tuple(range(x.aval.ndim)):
        count("broadcast_noop")
        return x
    return layout.broadcast_of_broadcast(eqn, ctx)


def _copy(eqn, ctx):
    """copy(x) -> x where the function does not return the copy: traced values are never written in place
    (an update makes a new value), so a copy matters only where the caller receives it, which must not
    share a buffer with an argument or another result. `x.astype(x.dtype)`, `x.copy()`, `array(x)` under
    jit no longer cost a memory pass, nor split the kernels around them."""
    if ctx.is_output(eqn.outputs[0]):
        return None
    count("copy_of_internal_value")
    return eqn.inputs[0]


def _reduce_nothing(eqn, ctx):
    """A reduction over no axes is its operand, except a float sum: NumPy's adds each element to the
    identity +0.0, so np.sum(np.array(-0.0)) is 0.0; it becomes `x + 0.0` (which algebra keeps)."""
    if eqn.params["axes"]:
        return None
    x = eqn.inputs[0]
    dtype = x.aval.dtype
    if eqn.prim is s.reduce_sum_p and kind_of(dtype) in "fc":
        zero = Literal(dtype.type(0), ShapedArray((), dtype))
        return Eqn(p.add_p, (x, zero), eqn.outputs, {}, eqn.source)
    return x


def _chain(first, second):
    def rule(eqn, ctx):
        result = first(eqn, ctx)
        return result if result is not None else second(eqn, ctx)

    rule.__name__ = f"{first.__name__}_then_{second.__name__}"
    return rule


algebra.register(simplify_rules)
for _prim in layout.EXACT_OPS:
    _rule = simplify_rules.get(_prim)
    simplify_rules[_prim] = (
        layout.layout_rules if _rule is None else _chain(_rule, layout.layout_rules)
    )
simplify_rules[s.reshape_p] = _reshape
for _prim in (
    s.reduce_sum_p,
    s.reduce_prod_p,
    s.reduce_max_p,
    s.reduce_min_p,
    s.reduce_and_p,
    s.reduce_or_p,
):
    simplify_rules[_prim] = _chain(_reduce_nothing, layout.reduce_of_transpose)
simplify_rules[s.transpose_p] = _transpose
simplify_rules[p.convert_p] = _chain(_convert, layout.layout_rules)
simplify_rules[s.broadcast_in_dim_p] = _broadcast
simplify_rules[p.stop_gradient_p] = _stop_gradient
simplify_rules[p.checkpoint_name_p] = _stop_gradient  # checkpoint's policies read names before any pass
simplify_rules[p.copy_p] = _copy


class _Context:
    def __init__(self, graph):
        self.made_by: dict = {}
        self.producer = self.made_by.get  # Literals hash by identity and are never keys: None
        self.order: dict = {v: i for i, v in enumerate(graph.inputs)}
        self._graph = graph
        self._uses = None  # atom -> its uses in the graph, outputs included; counted on first ask
        self._consumers = None  # Var -> the equations reading it, once per use; built on first ask
        self._outputs = None  # the graph's output Vars, on first ask

    def __call__(self, x):
        return self.made_by.get(x)

    def uses(self, x):
        if self._uses is None:
            uses: dict = {}
            for eqn in self._graph.eqns:
                for y in eqn.inputs:
                    uses[y] = uses.get(y, 0) + 1
            for y in self._graph.outputs:
                uses[y] = uses.get(y, 0) + 1
            self._uses = uses
        return self._uses.get(x, 0)

    def users(self, x):
        """The equations of the input graph that read x (none when x is also a graph output)."""
        if self._consumers is None:
            consumers: dict = {}
            for eqn in self._graph.eqns:
                for y in eqn.inputs:
                    consumers.setdefault(y, []).append(eqn)
            self._consumers = consumers
        return [] if x in self._graph.outputs else self._consumers.get(x, [])

    def is_output(self, x) -> bool:
        if self._outputs is None:
            self._outputs = {y for y in self._graph.outputs if not isinstance(y, Literal)}
        return x in self._outputs

    def order_key(self, x):
        if isinstance(x, Literal):
            return (1, 0)
        return (0, self.order.get(x, -1))


def _retyped(atom, eqn):
    """convert: `atom` as eqn's output, whose aval differs from atom's only in its weak type."""
    aval = eqn.outputs[0].aval
    params = {"dtype": aval.dtype, "weak_type": True} if aval.weak_type else {"dtype": aval.dtype}
    return Eqn(p.convert_p, (atom,), eqn.outputs, params, eqn.source)


def simplify(graph: Graph) -> Graph:
    ctx = _Context(graph)
    made_by = ctx.made_by
    order = ctx.order
    replace: dict = {}
    eqns = []

    def sub(x):
        while x in replace:  # Literals hash by identity and are never keys
            x = replace[x]
        return x

    def emit(eqn, depth):
        if replace and not replace.keys().isdisjoint(eqn.inputs):
            eqn = Eqn(eqn.prim, tuple(map(sub, eqn.inputs)), eqn.outputs, eqn.params, eqn.source)
        rule = simplify_rules.get(eqn.prim)
        result = rule(eqn, ctx) if rule is not None and depth < _MAX_DEPTH else None
        if result is None:
            eqns.append(eqn)
            for v in eqn.outputs:
                made_by[v] = eqn
                order[v] = len(order)
        elif isinstance(result, Eqn):
            emit(result, depth + 1)
        elif isinstance(result, list):
            for new in result:
                emit(new, depth + 1)
        elif result.aval != eqn.outputs[0].aval:
            # the output's values with another weak type (a structural rule's result is strongly
            # typed, its operand may be weak): a convert keeps each consumer's aval
            emit(_retyped(result, eqn), depth + 1)
        else:
            replace[eqn.outputs[0]] = result

    for index, eqn in enumerate(graph.eqns):
        try:
            emit(eqn, 0)
        except Exception:
            visit(index, eqn)
            raise
    if (
        not replace
        and len(eqns) == len(graph.eqns)
        and all(a is b for a, b in zip(eqns, graph.eqns))
    ):
        return graph
    return Graph(graph.inputs, tuple(eqns), tuple(sub(x) for x in graph.outputs))
