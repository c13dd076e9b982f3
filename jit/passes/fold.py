"""fold_constants: an equation whose inputs are all Literals and whose result is a scalar is evaluated now
(through its reference rule, so folding cannot change a result) and replaced by a Literal. An elementwise
equation whose array inputs are all one scalar Literal broadcast to its shape (a "splat", as the gradient
of a mean makes) is computed on the scalars the same way and becomes a splat of the result: the constant
is then no array computation of its own (no kernel on a device), only a broadcast."""

from __future__ import annotations

import numpy as np
from arraystack.ir import structural as s
from arraystack.ir.avals import ShapedArray
from arraystack.ir.ir import Eqn, Graph, Literal, Var
from arraystack.ir.passes.pipeline import count, visit
from arraystack.ir.reference import reference_rules
from arraystack.ir.regions import ELEMENTWISE


def _fold(eqn):
    """The Literal an equation computes, or None. Called with np.errstate(all="ignore") on."""
    if eqn.prim.multiple_results or len(eqn.outputs) != 1 or eqn.outputs[0].aval.shape != ():
        return None
    if not eqn.inputs or not all(isinstance(x, Literal) for x in eqn.inputs):
        return None
    if any(
        not isinstance(v, (int, float, bool, complex, str, tuple, np.dtype))
        for v in eqn.params.values()
    ):
        return None
    aval = eqn.outputs[0].aval
    value = reference_rules[eqn.prim](
        np, *[np.asarray(x.value, x.aval.dtype) for x in eqn.inputs], **eqn.params
    )
    value = np.asarray(value)
    if value.shape != () or value.dtype != aval.dtype:
        return None
    return Literal(value[()], aval)


def _splat(eqn, splats):
    """This equation with its splat operands (a scalar Literal broadcast to a shape) made scalars: a
    broadcast of a splat is a splat of the new shape; an elementwise equation of splats and scalars is
    computed on the scalars and becomes a splat of the result; one that also reads an array of its
    shape reads the scalars in place of the splats (elementwise equations take scalar Literals). None
    when nothing changes."""
    out = eqn.outputs[0]
    if eqn.prim is s.broadcast_in_dim_p:
        x = eqn.inputs[0]
        if x not in splats:
            return None
        params = dict(eqn.params, broadcast_dimensions=())
        return Eqn(eqn.prim, (splats[x][0],), eqn.outputs, params, eqn.source)
    if eqn.prim not in ELEMENTWISE or len(eqn.outputs) != 1:
        return None
    scalars, template, arrays = [], None, False
    for x in eqn.inputs:
        if isinstance(x, Literal) and x.aval.shape == ():
            scalars.append(x)
        elif x in splats and splats[x][1].outputs[0].aval.shape == out.aval.shape:
            scalars.append(splats[x][0])
            template = splats[x][1]
        elif x.aval.shape == out.aval.shape:
            scalars.append(x)
            arrays = True
        else:
            return None
    if template is None:
        return None
    if arrays:  # an array of the output's shape keeps the shape: the splats become scalars
        return Eqn(eqn.prim, tuple(scalars), eqn.outputs, eqn.params, eqn.source)
    scalar = Eqn(eqn.prim, tuple(scalars), (Var(ShapedArray((), out.aval.dtype)),), eqn.params)
    literal = _fold(scalar)
    if literal is None:
        return None
    return Eqn(template.prim, (literal,), eqn.outputs, template.params, eqn.source)


def fold_constants(graph: Graph) -> Graph:
    replace: dict = {}
    splats: dict = {}  # Var -> (the scalar Literal, the broadcast_in_dim equation making it)
    eqns = []
    with np.errstate(all="ignore"):
        for index, eqn in enumerate(graph.eqns):
            inputs = eqn.inputs
            if replace and not replace.keys().isdisjoint(inputs):
                inputs = tuple(replace.get(x, x) for x in inputs)  # Literals are never replaced
                eqn = Eqn(eqn.prim, inputs, eqn.outputs, eqn.params, eqn.source)
            if splats and not splats.keys().isdisjoint(inputs):
                try:
                    folded = _splat(eqn, splats)
                except Exception:
                    visit(index, eqn)
                    raise
                if folded is not None:
                    count("folded")
                    eqn, inputs = folded, folded.inputs
            if (
                eqn.prim is s.broadcast_in_dim_p
                and isinstance(eqn.inputs[0], Literal)
                and eqn.inputs[0].aval.shape == ()
            ):
                splats[eqn.outputs[0]] = (eqn.inputs[0], eqn)
            # only equations that read nothing but Literals fold: most read a Var first
            if inputs and isinstance(inputs[0], Literal):
                try:
                    literal = _fold(eqn)
                except Exception:
                    visit(index, eqn)
                    raise
                if literal is not None:
                    replace[eqn.outputs[0]] = literal
                    count("folded")
                    continue
            eqns.append(eqn)
    if not replace and all(a is b for a, b in zip(eqns, graph.eqns)):
        return graph
    outputs = tuple(replace.get(x, x) for x in graph.outputs)
    return Graph(graph.inputs, tuple(eqns), outputs)
