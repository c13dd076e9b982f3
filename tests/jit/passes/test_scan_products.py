"""hoist_scan_products (jit/passes/scan_products.py): input projections and accumulated products of a scan run
as one product outside the loop; results match the loop's (and NumPy's) within rounding."""

from __future__ import annotations

import numpy as np
import pytest

import arraystack as ast
from arraystack.ir import passes
from arraystack.ir.control import scan_p
from arraystack.ir.passes import scan_products
from arraystack.ir.structural import dot_general_p

WITHOUT = [name for name in passes.passes() if name != "hoist_scan_products"]


def _scan_products(f, *args):
    """(products inside scan bodies, products outside) of f's optimized graph."""
    graph = ast.jit(f).lower(*args).optimized
    inside = sum(
        1
        for e in graph.eqns
        if e.prim is scan_p
        for b in e.params["body"].eqns
        if b.prim is dot_general_p
    )
    outside = sum(1 for e in graph.eqns if e.prim is dot_general_p)
    return inside, outside


def _rnn_loss(w, u, xs, h0):
    def cell(h, x):
        h = ast.tanh(x @ w + h @ u)
        return h, h

    h, ys = ast.scan(cell, h0, xs)
    return ast.sum(ys**2) + ast.sum(h)


def _rnn_numpy(w, u, xs, h0):
    h, total = h0, 0.0
    for x in xs:
        h = np.tanh(x @ w + h @ u)
        total += np.sum(h**2)
    return total + np.sum(h)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_reverse_mode_of_an_rnn_moves_input_and_weight_products_out_of_the_loop(dtype):
    """Forward: x_t @ W leaves the loop; backward: the gradients of W and U, accumulated over steps, leave it
    too. What stays: the products with the carry (forward and backward) and the gradient of x_t."""
    rng = np.random.default_rng(0)
    w, u = (rng.standard_normal((4, 6)) * 0.3).astype(dtype), (rng.standard_normal((6, 6)) * 0.3).astype(dtype)
    xs, h0 = rng.standard_normal((9, 5, 4)).astype(dtype), rng.standard_normal((5, 6)).astype(dtype)
    grad = ast.value_and_grad(_rnn_loss, argnums=(0, 1, 2, 3))
    assert _scan_products(grad, w, u, xs, h0) == (3, 3)  # and dx_t = g_t @ W^T
    value, grads = ast.jit(grad)(w, u, xs, h0)
    value_loop, grads_loop = ast.jit(grad, passes=WITHOUT)(w, u, xs, h0)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(float(value), _rnn_numpy(w, u, xs, h0), rtol=rtol)
    np.testing.assert_allclose(float(value), float(value_loop), rtol=rtol)
    for got, want in zip(grads, grads_loop):
        assert np.asarray(got).dtype == dtype
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=rtol * 10, atol=rtol)
    eps = 1e-6
    dw = np.zeros_like(w, dtype=np.float64)
    for i in range(w.shape[0]):  # finite differences in float64 for one row of W
        for j in range(w.shape[1]):
            step = np.zeros(w.shape)
            step[i, j] = eps
            wide = [a.astype(np.float64) for a in (u, xs, h0)]
            dw[i, j] = (_rnn_numpy(w + step, *wide) - _rnn_numpy(w - step, *wide)) / (2 * eps)
    np.testing.assert_allclose(np.asarray(grads[0]), dw, rtol=1e-3 if dtype == np.float32 else 1e-7, atol=1e-4)


def test_projection_with_the_invariant_operand_first():
    """W @ x_t (the slice second): the product over all steps puts time after W's rows; it is moved in front."""
    rng = np.random.default_rng(1)
    w, xs = rng.standard_normal((3, 4)), rng.standard_normal((6, 4, 2))

    def f(w, xs):
        return ast.scan(lambda c, x: (c + ast.sum(w @ x), ast.sin(w @ x)), 0.0, xs)

    assert _scan_products(f, w, xs) == (0, 1)
    total, ys = ast.jit(f)(w, xs)
    want = np.einsum("ij,tjk->tik", w, xs)
    np.testing.assert_allclose(np.asarray(ys), np.sin(want), rtol=1e-13)
    np.testing.assert_allclose(float(total), want.sum(), rtol=1e-12)


@pytest.mark.parametrize("reverse", [False, True])
def test_accumulated_products_and_sums_over_steps(reverse):
    """acc += a_t^T @ b_t and s += sum(b_t, axis 0), with b_t computed in the body from the carry's neighbour:
    after the loop, one product and one sum over the stacked b_t."""
    rng = np.random.default_rng(2)
    xs, h0 = rng.standard_normal((7, 5, 3)), rng.standard_normal((5, 4))

    def f(xs, h0):
        def body(carry, x):
            h, acc, s = carry
            b = ast.tanh(h) * 2.0
            return (h * 0.5 + 1.0, acc + x.T @ b, s + ast.sum(b, axis=0)), x

        return ast.scan(body, (h0, np.zeros((3, 4)), np.ones(4)), xs, reverse=reverse)

    assert _scan_products(f, xs, h0) == (0, 1)
    (h, acc, s), ys = ast.jit(f)(xs, h0)
    hh, want_acc, want_s = h0, np.zeros((3, 4)), np.ones(4)
    for x in xs[::-1] if reverse else xs:
        b = np.tanh(hh) * 2.0
        hh, want_acc, want_s = hh * 0.5 + 1.0, want_acc + x.T @ b, want_s + b.sum(0)
    np.testing.assert_allclose(np.asarray(h), hh, rtol=1e-14)
    np.testing.assert_allclose(np.asarray(acc), want_acc, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(s), want_s, rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(ys), xs)  # a stacked slice of xs is xs


def test_accumulations_that_are_read_otherwise_stay_in_the_loop():
    rng = np.random.default_rng(3)
    xs, w = rng.standard_normal((4, 2, 3)), rng.standard_normal((2, 3))

    def read_elsewhere(xs):  # the carry is also a stacked output
        return ast.scan(lambda acc, x: (acc + x.T @ x, acc), np.zeros((3, 3)), xs)

    def invariant_operand(xs, w):  # w is the same every step: sum_t w^T x_t is another algebra
        return ast.scan(lambda acc, x: (acc + w.T @ ast.sin(x), None), np.zeros((3, 3)), xs)

    assert _scan_products(read_elsewhere, xs) == (1, 0)
    assert _scan_products(invariant_operand, xs, w) == (1, 0)
    acc, seen = ast.jit(read_elsewhere)(xs)
    partial = np.cumsum(np.einsum("tij,tik->tjk", xs, xs), axis=0)
    np.testing.assert_allclose(np.asarray(acc), partial[-1], rtol=1e-13)
    np.testing.assert_allclose(np.asarray(seen)[1:], partial[:-1], rtol=1e-13)
    acc, _ = ast.jit(invariant_operand)(xs, w)
    np.testing.assert_allclose(np.asarray(acc), sum(w.T @ np.sin(x) for x in xs), rtol=1e-13)


def test_stacking_is_bounded(monkeypatch):
    monkeypatch.setattr(scan_products, "STACKED_BYTES", 100)  # less than one stacked product
    rng = np.random.default_rng(4)
    w, u = rng.standard_normal((4, 6)) * 0.3, rng.standard_normal((6, 6)) * 0.3
    xs, h0 = rng.standard_normal((9, 5, 4)), rng.standard_normal((5, 6))
    grad = ast.grad(_rnn_loss, argnums=(0, 1))
    assert _scan_products(grad, w, u, xs, h0) == (5, 0)
    got = ast.jit(grad)(w, u, xs, h0)
    want = grad(w, u, xs, h0)
    for a, b in zip(got, want):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12)


def test_an_empty_scan_gives_the_initial_accumulator():
    xs = np.zeros((0, 2, 3))

    def f(xs):
        return ast.scan(lambda acc, x: (acc + x.T @ ast.cos(x), None), np.full((3, 3), 2.0), xs)

    assert _scan_products(f, xs) == (0, 1)
    acc, _ = ast.jit(f)(xs)
    np.testing.assert_array_equal(np.asarray(acc), np.full((3, 3), 2.0))
