"""The reference backend: every equation runs through its reference rule (NumPy on the host).

Its steps are also what a compiled backend runs for the equations it does not compile (reference_step)."""

from __future__ import annotations

import functools
import operator

import numpy as np
from arraystack.backends.executable import Executable, alias_safe, interpret
from arraystack.backends.interface import Backend, CompileOptions
from arraystack.ir.reference import dot_general_is_matmul, reference_rules
from arraystack.ir.structural import dot_general_p, slice_p


def reference_step(eqn, xp=np):
    if eqn.prim is dot_general_p and dot_general_is_matmul(eqn):
        return xp.matmul  # what the rule would call, minus its per-call layout test
    if eqn.prim is slice_p:  # the rule's indexing with its key made once (a row of a loop: 1 us less)
        p = eqn.params
        bounds = zip(p["start_indices"], p["limit_indices"], p["strides"])
        return operator.itemgetter(tuple(slice(lo, hi, st) for lo, hi, st in bounds))
    rule = reference_rules[eqn.prim]
    if eqn.params:
        return functools.partial(rule, xp, **eqn.params)
    return functools.partial(rule, xp)


def compile_reference(graph) -> Executable:
    steps = [reference_step(eqn) for eqn in graph.eqns]
    return Executable(
        graph, [(eqn.prim.name, "reference") for eqn in graph.eqns], alias_safe(graph, interpret(graph, steps))
    )


class ReferenceBackend(Backend):
    """NumPy on the host: every equation, fusion regions included, runs its reference rule. Always available;
    the oracle the compiled backends are tested against."""

    name = "reference"
    device_kinds = ("cpu",)
    priority = 0

    def describe(self) -> str:
        return f"NumPy {np.__version__}: each primitive's reference rule (always)"

    def unsupported(self, eqn) -> str | None:
        return "the reference backend runs every equation's reference rule"

    def compile(self, graph, options: CompileOptions) -> Executable:
        return compile_reference(graph)

    def step(self, eqn, graph, options: CompileOptions):
        run = reference_step(eqn)
        if eqn.prim.multiple_results:
            return run
        return lambda *inputs: [run(*inputs)]


backend = ReferenceBackend()
