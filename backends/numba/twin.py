"""The numba backend's NumPy twin: what tiered compilation runs while the kernels compile (tier 0).

It runs the same plan as `compile_numba` (the same regions, the same reference steps outside them), but
each region's equations run as NumPy calls instead of a generated loop. Where a kernel computes differently
from NumPy's own function, the twin computes what the kernel computes, bit for bit:
- exp, expm1, log, tanh, logistic on float32/float64: mathlib's polynomials with the kernel's exact FMAs
  (mathlib_numpy.py: a C loop, the optional extension _mathlib_twin, about as fast as NumPy's own exp;
  without it an exact NumPy emulation, 20-500x slower);
- float sums and products: the kernel's fixed summation order (summation_order.py), not NumPy's pairwise one.
Everything else a kernel computes (arithmetic, comparisons, selects, casts, min/max, sqrt, float64 sin/cos
through the same libm) already rounds as NumPy does. So both tiers give identical results
(tests/arraystack/test_tier_identity.py).

Nothing here imports numba: the first call of a jitted function must not wait for it.
"""

from __future__ import annotations

import functools

import numpy as np

from arraystack.backends.control import control_step
from arraystack.backends.numba import _reference_region_step, _region_problem
from arraystack.backends.executable import Executable, alias_safe, interpret
from arraystack.backends.numba.mathlib_numpy import numpy_twin
from arraystack.backends.numba.summation_order import kernel_reduce
from arraystack.backends.reference import reference_step
from arraystack.ir.control import fusion_p


def _region_steps(sub):
    return [_twin_step(eqn) for eqn in sub.eqns]


def _twin_step(eqn):
    """The step computing this region equation's kernel bits with NumPy."""
    dtype = eqn.outputs[0].aval.dtype
    name = eqn.prim.name
    if dtype.kind == "f" and name in ("reduce_sum", "reduce_prod"):
        kind = "sum" if name == "reduce_sum" else "prod"
        return functools.partial(kernel_reduce, kind, axes=tuple(eqn.params["axes"]))
    twin = numpy_twin(name, dtype) if dtype.kind == "f" else None
    if twin is not None:
        return lambda x: twin(np.asarray(x, dtype))
    return reference_step(eqn)


def _region_step(eqn):
    sub = eqn.params["graph"]
    runner = interpret(sub, _region_steps(sub))
    return lambda *inputs: runner(list(inputs))


def compile_numba_twin(graph) -> Executable:
    """The tier-0 executable of `graph` for the numba backend (see the module docstring)."""
    steps, plan = [], []
    for eqn in graph.eqns:
        if eqn.prim is fusion_p:
            problem = _region_problem(eqn.params["graph"])
            if problem is None:
                steps.append(_region_step(eqn))
                plan.append(("fusion", "tier 0: NumPy twin of its compiled loop"))
            else:
                steps.append(_reference_region_step(eqn))
                plan.append(("fusion", f"reference: {problem}"))
            continue
        step = control_step(eqn, compile_numba_twin)
        if step is not None:
            steps.append(step)
            plan.append((eqn.prim.name, "host loop/branch over NumPy-twin bodies (tier 0)"))
            continue
        steps.append(reference_step(eqn))
        plan.append((eqn.prim.name, "numpy BLAS" if eqn.prim.name == "dot_general" else "reference"))
    runner = interpret(graph, steps, [how for _, how in plan])
    return Executable(graph, plan, alias_safe(graph, runner))

