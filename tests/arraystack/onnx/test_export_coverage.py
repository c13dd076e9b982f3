"""Every primitive of the IR either has an ONNX export rule or an `unsupported` entry with its reason,
and an unsupported one raises ExportError naming the primitive."""

from __future__ import annotations

import pytest

pytest.importorskip("onnx")

from arraystack.ir.primitives import abstract_eval_rules

from arraystack.onnx.lowering import export_rules, unsupported


def test_every_primitive_exports_or_says_why_not():
    missing = sorted(
        p.name for p in abstract_eval_rules if p not in export_rules and p not in unsupported
    )
    assert missing == []
    both = sorted(p.name for p in export_rules if p in unsupported)
    assert both == []
    assert all(isinstance(reason, str) and reason for reason in unsupported.values())
