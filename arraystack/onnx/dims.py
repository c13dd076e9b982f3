"""Dynamic axes: which sizes in a traced graph follow an input axis that is named in `dynamic_axes`.

The function is traced once at the example shapes, once per dynamic axis with that axis grown, and once
with every dynamic axis grown; the graphs must have one structure. A number of a param (a reshape size,
a slice bound, a scan length) or a literal (the count a mean divides by) that changes between the
traces is fitted by an integer-affine form of the axis sizes, `const + sum(coeff * size)`, or by its
reciprocal, and the last trace checks the fit. Such a number becomes a `Dim`, which the export
computes from the input's shape at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

from arraystack.ir import Graph, Literal
from arraystack.onnx.errors import ExportError


@dataclass(frozen=True)
class Dim:
    """A size that follows dynamic axes: const + sum(coeff * size of axis), or 1 / that."""

    const: int
    coeffs: tuple  # ((axis name, int coefficient), ...)
    reciprocal: bool = False

    def __str__(self):
        terms = [name if c == 1 else f"{c}*{name}" for name, c in self.coeffs]
        if self.const:
            terms.append(str(self.const))
        text = "+".join(terms).replace("+-", "-")
        return f"1/({text})" if self.reciprocal else text


@dataclass(frozen=True)
class Unresolved:
    """A number that changes with the dynamic axes but fits no affine form (a product of two axes)."""

    values: tuple

    def __str__(self):
        return f"<size varying as {self.values}>"


@dataclass(frozen=True)
class Axis:
    name: str
    size: int  # at the example arguments
    grown: int  # in its own trace
    grown_all: int  # in the trace that grows every axis


class DimPlan:
    """Per equation of the example graph: its params with Dims; per literal: its Dim."""

    def __init__(self):
        self._params: dict = {}  # id(eqn) -> (eqn, params)
        self._literals: dict = {}  # id(literal) -> (literal, Dim)

    def params(self, eqn) -> dict:
        hit = self._params.get(id(eqn))
        return eqn.params if hit is None else hit[1]

    def literal(self, lit):
        hit = self._literals.get(id(lit))
        return None if hit is None else hit[1]


def fit(values, axes):
    """The Dim (or Unresolved) for a number seen as values[0] at the example sizes, values[1 + i] with
    axis i grown and values[-1] with all grown; the number itself when it never changed."""
    base = values[0]
    if all(v == base for v in values):
        return base
    for reciprocal in (False, True):
        if reciprocal and any(v == 0 for v in values):
            break
        vs = [1 / v if reciprocal else v for v in values]
        coeffs, ok = [], True
        for i, axis in enumerate(axes):
            c = (vs[1 + i] - vs[0]) / (axis.grown - axis.size)
            if abs(c - round(c)) > 1e-9:
                ok = False
                break
            coeffs.append(round(c))
        if not ok:
            continue
        const = vs[0] - sum(c * a.size for c, a in zip(coeffs, axes))
        if abs(const - round(const)) > 1e-9:
            continue
        const = round(const)
        predicted = const + sum(c * a.grown_all for c, a in zip(coeffs, axes))
        if abs(predicted - vs[-1]) <= 1e-9 * max(1.0, abs(vs[-1])):
            terms = tuple((a.name, c) for c, a in zip(coeffs, axes) if c)
            return Dim(const, terms, reciprocal)
    return Unresolved(tuple(values))


def plan_dims(graphs: list, axes: list) -> DimPlan:
    """Compare the traces (the example's first, one per axis, then all grown) equation by equation."""
    plan = DimPlan()
    _walk(plan, graphs, axes)
    return plan


def _walk(plan, graphs, axes):
    first = graphs[0]
    for g in graphs[1:]:
        if len(g.eqns) != len(first.eqns) or len(g.outputs) != len(first.outputs):
            raise ExportError(
                _structure_message(axes, f"{len(first.eqns)} vs {len(g.eqns)} equations")
            )
    for k, eqn in enumerate(first.eqns):
        others = [g.eqns[k] for g in graphs]
        if any(o.prim is not eqn.prim for o in others):
            names = sorted({o.prim.name for o in others})
            raise ExportError(_structure_message(axes, f"equation {k} is one of {names}", eqn))
        for i, x in enumerate(eqn.inputs):
            if isinstance(x, Literal):
                found = fit([o.inputs[i].value for o in others], axes)
                if isinstance(found, (Dim, Unresolved)):
                    plan._literals[id(x)] = (x, found)
        changed = False
        params = {}
        for key, value in eqn.params.items():
            params[key] = _param(plan, [o.params[key] for o in others], axes, eqn, key)
            changed = changed or params[key] is not value
        if changed:
            plan._params[id(eqn)] = (eqn, params)


def _param(plan, values, axes, eqn, key):
    value = values[0]
    if isinstance(value, Graph):
        _walk(plan, values, axes)
        return value
    if isinstance(value, (tuple, list)):
        if any(not isinstance(v, (tuple, list)) or len(v) != len(value) for v in values):
            raise ExportError(_structure_message(axes, f"param {key} changes length", eqn))
        items = [_param(plan, [v[i] for v in values], axes, eqn, key) for i in range(len(value))]
        if all(a is b for a, b in zip(items, value)):
            return value
        return type(value)(items)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        found = fit(list(values), axes)
        return found if isinstance(found, (Dim, Unresolved)) else value
    if any(v != value for v in values):
        raise ExportError(_structure_message(axes, f"param {key} changes ({values})", eqn))
    return value


def _structure_message(axes, what, eqn=None) -> str:
    names = ", ".join(a.name for a in axes)
    at = ""
    if eqn is not None:
        at = f" (`{eqn.prim.name}`" + (f" at {eqn.source})" if eqn.source else ")")
    return (
        f"ONNX export with dynamic axes ({names}): the traced program changes with their sizes: "
        f"{what}{at}. Python code that branches on a shape cannot be exported with that axis dynamic; "
        "export with fixed sizes or make the branch independent of the axis."
    )


__all__ = ["Axis", "Dim", "DimPlan", "Unresolved", "fit", "plan_dims"]
