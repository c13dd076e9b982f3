"""Every primitive has a JVP rule, a VJP rule and a batching rule, or an explicit reason it has none."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import arraystack.ir.ad as ad
from arraystack.ir import control, primitives, structural
from arraystack.ir.core import Primitive


def all_primitives():
    prims = []
    for module in (primitives, structural, control):
        prims += [v for v in vars(module).values() if isinstance(v, Primitive)]
    return sorted(set(prims), key=lambda p: p.name)


def not_differentiable():
    reasons = {}
    for info in pkgutil.iter_modules(ad.__path__):
        module = importlib.import_module(f"arraystack.ir.ad.{info.name}")
        reasons.update(getattr(module, "not_differentiable", {}))
    return reasons


REASONS = not_differentiable()


@pytest.mark.parametrize("prim", all_primitives(), ids=lambda p: p.name)
def test_differentiation_rules_or_a_reason(prim):
    if prim in REASONS:
        assert isinstance(REASONS[prim], str) and REASONS[prim], f"{prim}: empty reason"
        return
    assert prim in ad.jvp_rules, f"{prim} has no JVP rule and no not_differentiable entry"
    assert prim in ad.vjp_rules, f"{prim} has no VJP rule and no not_differentiable entry"


@pytest.mark.parametrize("prim", all_primitives(), ids=lambda p: p.name)
def test_batching_rule(prim):
    if prim.name == "iota":  # no operands, so never batched
        return
    assert prim in ad.batch_rules, f"{prim} has no batching rule"
