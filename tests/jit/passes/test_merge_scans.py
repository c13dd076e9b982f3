"""merge_scans (jit/passes/loops.py): scans over the same operands that compute the same carries run once."""

from __future__ import annotations

import numpy as np

import arraystack as ast
from arraystack.ir.control import scan_p


def _scans(f, *args, passes=None):
    return [e for e in ast.jit(f, passes=passes).lower(*args).optimized.eqns if e.prim is scan_p]


def _cell(h, x):
    h = ast.tanh(h * 0.9 + x)
    return h, h * 2.0


def test_reverse_mode_runs_the_forward_loop_once():
    def loss(h0, xs):
        h, ys = ast.scan(_cell, h0, xs)
        return ast.sum(ys**2) + ast.sum(h)

    h0, xs = np.ones(3), np.random.default_rng(0).standard_normal((7, 3))
    grad = ast.value_and_grad(loss, argnums=(0, 1))
    assert len(_scans(grad, h0, xs)) == 2  # one forward (value and stored carries), one backward
    value, (gh, gx) = ast.jit(grad)(h0, xs)
    value_e, (gh_e, gx_e) = grad(h0, xs)  # eager: no passes
    np.testing.assert_allclose(float(value), float(value_e), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(gh), np.asarray(gh_e), rtol=1e-13)
    np.testing.assert_allclose(np.asarray(gx), np.asarray(gx_e), rtol=1e-13)


def test_scans_with_the_same_carries_and_different_ys_merge():
    def f(h0, xs):
        a = ast.scan(_cell, h0, xs)
        b = ast.scan(lambda h, x: (ast.tanh(h * 0.9 + x), ast.sin(h)), h0, xs)
        return a, b

    h0, xs = np.ones(3), np.random.default_rng(1).standard_normal((5, 3))
    assert len(_scans(f, h0, xs)) == 1
    (ha, ya), (hb, yb) = ast.jit(f)(h0, xs)
    h, want_a, want_b = h0, [], []
    for x in xs:
        want_b.append(np.sin(h))
        h = np.tanh(h * 0.9 + x)
        want_a.append(h * 2.0)
    np.testing.assert_allclose(np.asarray(ha), h, rtol=1e-14)
    np.testing.assert_array_equal(np.asarray(hb), np.asarray(ha))
    np.testing.assert_allclose(np.asarray(ya), want_a, rtol=1e-14)
    np.testing.assert_allclose(np.asarray(yb), want_b, rtol=1e-14)


def test_scans_with_different_carries_or_operands_stay_apart():
    def f(h0, xs):
        a = ast.scan(_cell, h0, xs)
        b = ast.scan(lambda h, x: (ast.tanh(h * 0.8 + x), h), h0, xs)  # another carry
        c = ast.scan(_cell, h0 + 1.0, xs)  # other operands
        return a, b, c

    h0, xs = np.ones(3), np.random.default_rng(2).standard_normal((4, 3))
    assert len(_scans(f, h0, xs)) == 3
    got = ast.jit(f)(h0, xs)
    want = f(h0, xs)
    for g, w in zip(ast.tree_util.leaves(got), ast.tree_util.leaves(want)):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-14)


def _products_per_scan(f, *args):
    """Products in each scan body, without hoist_scan_products (which moves the input and weight products
    out of the loops: tests/jit/passes/test_scan_products.py)."""
    from arraystack.ir import passes
    from arraystack.ir.structural import dot_general_p

    names = [name for name in passes.passes() if name != "hoist_scan_products"]
    return [
        sum(e.prim is dot_general_p for e in s.params["body"].eqns) for s in _scans(f, *args, passes=names)
    ]


def test_the_backward_loop_reads_the_forward_products_instead_of_computing_them(monkeypatch):
    from arraystack.ir.ad import rules_scan

    rng = np.random.default_rng(3)
    w, u = rng.standard_normal((4, 4)) / 2, rng.standard_normal((3, 4)) / 2

    def loss(h0, xs, w, u):
        def cell(h, x):
            h = ast.tanh(h @ w + x @ u)
            return h, h

        return ast.sum(ast.scan(cell, h0, xs)[1] ** 2)

    args = (np.ones((2, 4)) / 3, rng.standard_normal((6, 2, 3)), w, u)
    grad = ast.value_and_grad(loss, argnums=(0, 1, 2, 3))
    # forward: 2 products a step, stacked; backward: 4 products of the operands' cotangents, none again
    assert _products_per_scan(grad, *args) == [2, 4]
    kept = ast.jit(grad)(*args)
    monkeypatch.setattr(rules_scan, "KEPT_PRODUCT_BYTES", 0)  # over the budget: recomputed
    assert _products_per_scan(grad, *args) == [2, 6]
    recomputed = ast.jit(grad)(*args)
    eager = grad(*args)
    for a, b, c in zip(ast.tree_util.leaves(kept), ast.tree_util.leaves(recomputed), ast.tree_util.leaves(eager)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(c), rtol=1e-12)
        np.testing.assert_allclose(np.asarray(b), np.asarray(c), rtol=1e-12)
    # and against finite differences on one entry of w
    eps, bumped = 1e-6, []
    for sign in (1, -1):
        w2 = w.copy()
        w2[1, 2] += sign * eps
        bumped.append(float(loss(args[0], args[1], w2, u)))
    np.testing.assert_allclose(np.asarray(kept[1][2])[1, 2], (bumped[0] - bumped[1]) / (2 * eps), rtol=1e-6)
