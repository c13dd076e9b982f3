"""The reference backend: every equation runs through its reference rule (NumPy on the host)."""

from __future__ import annotations

import functools

import numpy as np

from arraystack.backends.executable import Executable, alias_safe, interpret
from arraystack.ir.reference import dot_general_is_matmul, reference_rules
from arraystack.ir.structural import dot_general_p


def reference_step(eqn, xp=np):
    if eqn.prim is dot_general_p and dot_general_is_matmul(eqn):
        return xp.matmul  # what the rule would call, minus its per-call layout test
    rule = reference_rules[eqn.prim]
    if eqn.params:
        return functools.partial(rule, xp, **eqn.params)
    return functools.partial(rule, xp)


def compile_reference(graph) -> Executable:
    steps = [reference_step(eqn) for eqn in graph.eqns]
    return Executable(
        graph, [(eqn.prim.name, "reference") for eqn in graph.eqns], alias_safe(graph, interpret(graph, steps))
    )
