"""Every function that mirrors an elementwise NumPy ufunc (not the generalized ones: matmul, vecdot, ...)
reads as one: its operands positional only, `out` also
positional, `where`/`casting`/`order`/`dtype`/`subok` keyword only; calls NumPy rejects are rejected."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import arraystack

UFUNCS = sorted(
    name
    for name in arraystack.__all__
    if isinstance(getattr(np, name, None), np.ufunc) and getattr(np, name).signature is None
)
P = inspect.Parameter


@pytest.mark.parametrize("name", UFUNCS)
def test_signature_reads_as_the_ufuncs(name):
    ufunc = getattr(np, name)
    params = list(inspect.signature(getattr(arraystack, name)).parameters.values())
    operands, out, keywords = params[: ufunc.nin], params[ufunc.nin], params[ufunc.nin + 1 :]
    assert [p.kind for p in operands] == [P.POSITIONAL_ONLY] * ufunc.nin
    assert (out.name, out.kind, out.default) == ("out", P.POSITIONAL_OR_KEYWORD, None)
    assert {p.name for p in keywords} >= {"where", "casting", "order", "dtype", "subok"}
    assert all(p.kind is P.KEYWORD_ONLY for p in keywords)


@pytest.mark.parametrize("name", ["square", "logaddexp", "modf", "sin", "add"])
def test_where_given_by_position_is_rejected_as_numpy_does(name):
    ufunc = getattr(np, name)
    operands = [np.ones(2)] * ufunc.nin
    extra = [None] * ufunc.nout + [True]
    with pytest.raises(TypeError):
        ufunc(*operands, *extra)
    with pytest.raises(TypeError):
        getattr(arraystack, name)(*[arraystack.asarray(x) for x in operands], *extra)
