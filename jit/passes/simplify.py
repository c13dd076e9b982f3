"""simplify: algebraic rewrites as a table of local rules keyed by primitive.

Rule convention: `simplify_rules[p](eqn, producer) -> replacement or None`, where `producer(atom)` is the
(already simplified) equation that computes a Var, or None. A replacement is an atom (the equation's single
output becomes that Var/Literal) or a new Eqn with the same outputs. Every rule keeps results bit-identical
(so no x + 0.0 -> x: -0.0 + 0.0 is 0.0).
"""

from __future__ import annotations

from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.ir import Eqn, Graph, Literal, Var

simplify_rules: dict = {}


def _reshape(eqn, producer):
    (x,) = eqn.inputs
    if tuple(eqn.params["new_sizes"]) == tuple(x.aval.shape):
        return x
    inner = producer(x)
    if inner is not None and inner.prim is s.reshape_p:  # reshape of reshape
        source = inner.inputs[0]
        if tuple(eqn.params["new_sizes"]) == tuple(source.aval.shape):
            return source
        return Eqn(s.reshape_p, (source,), eqn.outputs, eqn.params, eqn.source)
    return None


def _transpose(eqn, producer):
    (x,) = eqn.inputs
    perm = tuple(eqn.params["permutation"])
    if perm == tuple(range(len(perm))):
        return x
    inner = producer(x)
    if inner is not None and inner.prim is s.transpose_p:  # transpose of transpose
        first = tuple(inner.params["permutation"])
        composed = tuple(first[i] for i in perm)
        source = inner.inputs[0]
        if composed == tuple(range(len(composed))):
            return source
        return Eqn(s.transpose_p, (source,), eqn.outputs, {"permutation": composed}, eqn.source)
    return None


def _convert(eqn, producer):
    (x,) = eqn.inputs
    return x if x.aval == eqn.outputs[0].aval else None


def _stop_gradient(eqn, producer):
    return eqn.inputs[0]  # only transformations, which run before any pass, give it a meaning


def _broadcast(eqn, producer):
    (x,) = eqn.inputs
    if tuple(x.aval.shape) == tuple(eqn.params["shape"]) and tuple(
        eqn.params["broadcast_dimensions"]
    ) == tuple(range(x.aval.ndim)):
        return x
    return None


def _neg(eqn, producer):
    inner = producer(eqn.inputs[0])
    if inner is not None and inner.prim is p.neg_p:
        return inner.inputs[0]
    return None


def _is_literal(x, value):
    return isinstance(x, Literal) and x.value == value and not isinstance(x.value, complex)


def _mul(eqn, producer):
    a, b = eqn.inputs
    out = eqn.outputs[0].aval
    if out.dtype.kind == "c":
        return None  # complex (inf+0j) * (1+0j) is inf+nanj: not an identity
    for x, other in ((a, b), (b, a)):
        if _is_literal(other, 1) and isinstance(x, Var) and x.aval == out:
            return x  # x * 1 is x for every value, NaN and -0.0 included
    return None


def _add(eqn, producer):
    a, b = eqn.inputs
    out = eqn.outputs[0].aval
    if out.dtype.kind not in "iu":
        return None  # -0.0 + 0.0 == +0.0: not an identity for floats
    for x, other in ((a, b), (b, a)):
        if _is_literal(other, 0) and isinstance(x, Var) and x.aval == out:
            return x
    return None


def _reduce_nothing(eqn, producer):
    return eqn.inputs[0] if not eqn.params["axes"] else None  # a reduction over no axes


simplify_rules[s.reshape_p] = _reshape
for _prim in (s.reduce_sum_p, s.reduce_prod_p, s.reduce_max_p, s.reduce_min_p, s.reduce_and_p,
              s.reduce_or_p):
    simplify_rules[_prim] = _reduce_nothing
simplify_rules[s.transpose_p] = _transpose
simplify_rules[p.convert_p] = _convert
simplify_rules[s.broadcast_in_dim_p] = _broadcast
simplify_rules[p.neg_p] = _neg
simplify_rules[p.mul_p] = _mul
simplify_rules[p.add_p] = _add
simplify_rules[p.stop_gradient_p] = _stop_gradient


def simplify(graph: Graph) -> Graph:
    replace: dict = {}
    made_by: dict = {}
    eqns = []

    def sub(x):
        while isinstance(x, Var) and x in replace:
            x = replace[x]
        return x

    for eqn in graph.eqns:
        inputs = tuple(sub(x) for x in eqn.inputs)
        if inputs != eqn.inputs:
            eqn = Eqn(eqn.prim, inputs, eqn.outputs, eqn.params, eqn.source)
        rule = simplify_rules.get(eqn.prim)
        result = rule(eqn, made_by.get) if rule is not None else None
        if result is not None and not isinstance(result, Eqn):
            replace[eqn.outputs[0]] = result
            continue
        if isinstance(result, Eqn):
            eqn = result
        eqns.append(eqn)
        for v in eqn.outputs:
            made_by[v] = eqn
    if (
        not replace
        and len(eqns) == len(graph.eqns)
        and all(a is b for a, b in zip(eqns, graph.eqns))
    ):
        return graph
    return Graph(graph.inputs, tuple(eqns), tuple(sub(x) for x in graph.outputs))
