"""The export driver: every equation of a traced Graph through its ONNX rule, into a Builder.

`export_rules` joins the three rule tables (elementwise, structural, control; each module documents
its calling convention); `unsupported` gives the reason for each primitive without a rule. A primitive
missing from both is an error too: tests/arraystack/onnx/test_export_coverage.py keeps the tables complete.
"""

from __future__ import annotations

from arraystack.ir import Literal
from arraystack.onnx import export_attention, export_control, export_elementwise, export_structural
from arraystack.onnx.dims import Unresolved
from arraystack.onnx.errors import ExportError

export_rules: dict = {
    **export_elementwise.elementwise_rules,
    **export_structural.structural_rules,
    **export_control.control_rules,
    **export_attention.attention_rules,
}
unsupported: dict = {
    **export_elementwise.unsupported,
    **export_structural.unsupported,
    **export_control.unsupported,
    **export_attention.unsupported,
}


def lower_into(b, graph, operands) -> list:
    """Lower `graph` into builder `b` with its inputs bound to the ONNX names `operands`; returns the
    names of its outputs."""
    for var, name in zip(graph.inputs, operands):
        b.env[var] = name
    for eqn in graph.eqns:
        _lower_eqn(b, eqn)
    return [b.value(x) for x in graph.outputs]


def _lower_eqn(b, eqn):
    rule = export_rules.get(eqn.prim)
    if rule is None:
        reason = unsupported.get(eqn.prim, "no ONNX lowering is written for it")
        raise ExportError(eqn_message(eqn, reason))
    saved, b.eqn = b.eqn, eqn
    try:
        for key, value in b.params(eqn).items():
            if _has_unresolved(value) and eqn.prim.name != "reshape":
                raise ExportError(
                    f"its param {key}={value} follows the dynamic axes but is no affine function "
                    "of their sizes"
                )
        outs = rule(b, eqn, *[b.value(x) for x in eqn.inputs])
    except ExportError as e:
        if str(e).startswith("ONNX export of"):
            raise
        raise ExportError(eqn_message(eqn, str(e))) from None
    finally:
        b.eqn = saved
    outs = list(outs) if eqn.prim.multiple_results else [outs]
    for var, name in zip(eqn.outputs, outs):
        b.env[var] = name


def _has_unresolved(value) -> bool:
    if isinstance(value, Unresolved):
        return True
    return isinstance(value, (tuple, list)) and any(_has_unresolved(v) for v in value)


def eqn_message(eqn, reason: str) -> str:
    operands = ", ".join(
        (f"{x.value!r}:" if isinstance(x, Literal) else "") + x.aval.str_short() for x in eqn.inputs
    )
    at = eqn.source or "a line inside arraystack"
    return f"ONNX export of `{eqn.prim.name}` ({operands}) at {at} is unsupported: {reason}"


__all__ = ["eqn_message", "export_rules", "lower_into", "unsupported"]
