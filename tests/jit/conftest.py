"""Fixtures of the middle-end's tests."""

from __future__ import annotations

import pytest
from arraystack.ir import Primitive
from arraystack.ir.primitives import abstract_eval_rules


@pytest.fixture
def call_p(monkeypatch):
    """A test-only primitive holding a closed sub-graph (as control flow will) and arbitrary params."""
    prim = Primitive("test_call", multiple_results=True)

    def rule(*avals, body, **params):
        if tuple(avals) != body.in_avals:
            raise TypeError(
                f"test_call operands {avals} do not match the body inputs {body.in_avals}"
            )
        return body.out_avals

    monkeypatch.setitem(abstract_eval_rules, prim, rule)
    return prim
