"""Transformations and control flow of arrays on a CUDA device (the stand-in for cupy), eagerly and under
jit: their results stay on the device and equal the CPU's. The Jacobians' basis vectors, the rules'
constants and a loop's device predicate or bounds meet the arguments on their device."""

from __future__ import annotations

import numpy as np
import pytest

import arraystack as ast

HOST = np.array([0.5, -1.0, 2.0])


def _loss(v):
    return ast.sum(ast.sin(v) * v**2) + ast.max(v) * v[0]


def _written_view(v):
    w = ast.maximum(v, -v)
    view = w[::2]
    view[None] = 2.0  # a write into a view, traced by grad
    return ast.sum(w * v)


CASES = {
    "grad through a write into a view": lambda a: ast.grad(_written_view)(a),
    "jacfwd": lambda a: ast.jacfwd(lambda v: ast.sin(v) * v[::-1])(a),
    "jacrev": lambda a: ast.jacrev(lambda v: ast.sin(v) * v[::-1])(a),
    "hessian": lambda a: ast.hessian(_loss)(a),
    "checkpoint": lambda a: ast.grad(
        lambda v: ast.sum(ast.checkpoint(lambda u: ast.sin(u) ** 2)(v))
    )(a),
    "scan": lambda a: ast.scan(lambda c, x: (c + x, c * x), 0.0, a)[1],
    "grad of scan": lambda a: ast.grad(
        lambda v: ast.sum(ast.scan(lambda c, x: (c * x + 1, c), 1.0, v)[1])
    )(a),
    "fori_loop": lambda a: ast.fori_loop(0, 3, lambda i, c: c * 2 + i, a),
    "fori_loop, device bounds": lambda a: ast.fori_loop(
        ast.asarray(0, device=a.device), ast.asarray(3, device=a.device), lambda i, c: c * 2 + i, a
    ),
    "cond": lambda a: ast.cond(a[0] > 0, lambda v: v * 2, lambda v: v - 1, a),
    "switch, device index": lambda a: ast.switch(
        ast.asarray(1, device=a.device), [lambda v: v * 2, lambda v: v - 1], a
    ),
    "while_loop": lambda a: ast.while_loop(
        lambda c: ast.sum(c) < 20.0, lambda c: c * 2.0, ast.abs(a)
    ),
    "vmap of grad": lambda a: ast.vmap(ast.grad(lambda v: ast.sum(ast.sin(v) * v)))(
        ast.stack([a, a * 2])
    ),
}


@pytest.mark.parametrize("jitted", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_a_transformation_on_a_device_equals_the_cpus(standin, name, jitted):
    f = ast.jit(CASES[name]) if jitted else CASES[name]
    got = f(ast.asarray(HOST, device="cuda:1"))
    want = CASES[name](ast.asarray(HOST))
    assert got.device == "cuda:1"
    np.testing.assert_allclose(got.to_device("cpu"), want, rtol=1e-12, atol=1e-12)
