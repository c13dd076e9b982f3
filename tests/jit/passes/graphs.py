"""Graphs for the pass tests: a function traced into the IR, the primitives left outside fusion regions and
those inside each, and a user-written pass."""

from __future__ import annotations

import numpy as np
from arraystack.ir import Eqn, Graph, Literal, ShapedArray
from arraystack.ir.control import fusion_p
from arraystack.ir.primitives import mul_p, pow_p

import arraystack as ast


def graph_of(fn, *args):
    return ast.make_graph(fn)(*[ast.asarray(a) for a in args])


def outside(graph):
    """The primitives left outside regions, in order."""
    return [e.prim.name for e in graph.eqns if e.prim is not fusion_p]


def inside(graph):
    """The primitives of each region, one list per region."""
    return [[x.prim.name for x in e.params["graph"].eqns] for e in graph.eqns if e.prim is fusion_p]


def square_to_pow(graph):
    """A user-written pass: x * x -> pow(x, 2)."""
    eqns = []
    for eqn in graph.eqns:
        if eqn.prim is mul_p and eqn.inputs[0] is eqn.inputs[1]:
            x = eqn.inputs[0]
            two = Literal(np.asarray(2, x.aval.dtype)[()], ShapedArray((), x.aval.dtype))
            eqn = Eqn(pow_p, (x, two), eqn.outputs, {}, eqn.source)
        eqns.append(eqn)
    return Graph(graph.inputs, tuple(eqns), graph.outputs)
