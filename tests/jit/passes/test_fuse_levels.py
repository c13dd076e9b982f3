"""Fusion keeps every value at its level: a reduction's result broadcast back along another axis than the
one it reduced is never read as the region's outer value (a + a.sum(axis=-1) once gave a + a.sum(axis=-1)
[:, None] in compiled kernels whenever the two axes had equal sizes). Compiled results against NumPy's."""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir.control import fusion_p
from arraystack.ir.structural import broadcast_in_dim_p

import arraystack as ast

PROGRAMS = {
    "sum, last axis, broadcast along the first": lambda xp, a: a + a.sum(axis=-1),
    "sum, first axis, [:, None]": lambda xp, a: a + a.sum(axis=0)[:, None],
    "mean, [None]": lambda xp, a: a * a.mean(axis=1)[None],
    "max, [..., None]": lambda xp, a: a - a.max(axis=0)[..., None],
    "min, .T": lambda xp, a: (a.T - a.min(axis=1)).T + a,
    "prod": lambda xp, a: a + a.prod(axis=1),
    "keepdims and not": lambda xp, a: a + a.sum(axis=1, keepdims=True) * a.sum(axis=1),
    "3-d, middle": lambda xp, a: xp.reshape(a, (3, 3, -1)) + a.reshape(3, 3, -1).sum(axis=-1)[:, None],
    "softmax along the other axis": lambda xp, a: xp.exp(a - a.max(axis=1)) / xp.exp(a).sum(axis=0),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_reduce_then_broadcast_along_another_axis(name, dtype):
    program = PROGRAMS[name]
    if dtype == "int64" and "softmax" in name:
        pytest.skip("exp of integers is float: covered by float64")
    a = numpy.arange(9 * (3 if "3-d" in name else 1), dtype=dtype).reshape(-1, 3) % 7 - 3
    if "3-d" not in name:
        a = a.reshape(3, 3)
    expected = program(numpy, a)
    for fn in (ast.jit(lambda x: program(ast, x)), ast.jit(lambda x: program(ast, x), backend="reference")):
        got = numpy.asarray(fn(a))
        assert got.dtype == expected.dtype
        numpy.testing.assert_allclose(got, expected, rtol=1e-12)


def _regions(graph):
    return [e for e in graph.eqns if e.prim is fusion_p]


def test_a_broadcast_along_the_reduced_axis_stays_out_of_the_reducing_region():
    lowered = ast.jit(lambda a: a + a.sum(axis=-1)).lower(numpy.ones((3, 3)))
    for region in _regions(lowered.optimized):
        sub = region.params["graph"]
        reduces = [e for e in sub.eqns if e.prim.name == "reduce_sum"]
        produced = {v for e in reduces for v in e.outputs}
        for e in sub.eqns:
            if e.prim is broadcast_in_dim_p and e.inputs[0] in produced:
                # inside the region, an outer value broadcasts back over the reduced axis only
                assert tuple(e.params["broadcast_dimensions"]) == (0,)


def test_the_gradient_of_a_row_normalisation_matches_finite_differences():
    # autodiff emits reduce-then-broadcast along the other axis by itself
    def loss(w):
        z = w / w.sum(axis=0)
        return (z * z.sum(axis=1)).sum()

    w = numpy.arange(1.0, 10.0).reshape(3, 3)
    got = numpy.asarray(ast.jit(ast.grad(loss))(w))
    eps = 1e-6
    fd = numpy.zeros_like(w)
    for i in numpy.ndindex(w.shape):
        d = numpy.zeros_like(w)
        d[i] = eps
        fd[i] = (float(loss(ast.asarray(w + d))) - float(loss(ast.asarray(w - d)))) / (2 * eps)
    numpy.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-8)
