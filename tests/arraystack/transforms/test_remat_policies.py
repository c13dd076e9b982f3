"""checkpoint(fun, policy=...) with arraystack.checkpoint_policies (JAX's): the derivatives of the
function without checkpoint, eagerly, under jit and to second order; under jit the saved operations
are computed once and the others again in the backward pass."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast

cp = ast.checkpoint_policies
RNG = numpy.random.default_rng(0)
W1, W2, X = RNG.standard_normal((4, 5)), RNG.standard_normal((5, 3)), RNG.standard_normal((6, 4))


def net(w1, w2, x):
    h = ast.tanh(x @ w1)
    return ast.sum(ast.sin(h @ w2) ** 2)


POLICIES = [
    cp.nothing_saveable,
    cp.everything_saveable,
    cp.dots_saveable,
    cp.checkpoint_dots,
    cp.dots_with_no_batch_dims_saveable,
    cp.save_from_both_policies(cp.dots_saveable, lambda prim, *a, **k: prim.name == "tanh"),
    lambda prim, *avals, **params: prim.name == "sin",
]


def _assert_net_derivatives(f):
    """f's gradient, eagerly and under jit, is net's."""
    expected = ast.grad(net, argnums=(0, 1))(W1, W2, X)
    for grad in (ast.grad(f, argnums=(0, 1)), ast.jit(ast.grad(f, argnums=(0, 1)))):
        for g, e in zip(grad(W1, W2, X), expected):
            numpy.testing.assert_allclose(numpy.asarray(g), numpy.asarray(e), rtol=1e-12)


@pytest.mark.parametrize("policy", POLICIES)
def test_derivatives_are_the_functions(policy):
    f = ast.checkpoint(net, policy=policy)
    _assert_net_derivatives(f)
    value, _ = ast.value_and_grad(f)(W1, W2, X)
    assert float(value) == pytest.approx(float(net(W1, W2, X)), rel=1e-14)


@pytest.mark.parametrize("policy", [None, cp.dots_saveable])
def test_second_derivatives(policy):
    def g(x):
        return ast.checkpoint(lambda v: ast.sum(ast.tanh(v @ W1) ** 2), policy=policy)(x)

    expected = ast.hessian(lambda v: ast.sum(ast.tanh(v @ W1) ** 2))(X[0])
    numpy.testing.assert_allclose(numpy.asarray(ast.hessian(g)(X[0])), expected, rtol=1e-10)


def _counts(policy):
    grad = ast.jit(ast.value_and_grad(ast.checkpoint(net, policy=policy), argnums=(0, 1)))
    optimized = grad.lower(W1, W2, X).as_text().split("# after passes")[1]
    return optimized.count("dot_general"), optimized.count("tanh")


def test_under_jit_saved_products_are_not_recomputed():
    # forward 2 products, backward 3; without a policy the backward pass recomputes the forward's 2
    assert _counts(None) == (7, 2)
    assert _counts(cp.dots_saveable) == (5, 2)  # the products saved, tanh recomputed from them
    assert _counts(cp.everything_saveable) == (5, 1)


def test_batched_products_are_not_saved_by_the_no_batch_dims_policy():
    a, b = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((2, 4, 5))

    def f(a, b):
        return ast.sum(ast.tanh(a @ b))

    for policy in (cp.dots_saveable, cp.dots_with_no_batch_dims_saveable):
        got = ast.jit(ast.grad(ast.checkpoint(f, policy=policy)))(a, b)
        numpy.testing.assert_allclose(numpy.asarray(got), ast.grad(f)(a, b), rtol=1e-12)
    saved = cp.dots_with_no_batch_dims_saveable
    assert not saved(
        ast.ir.structural.dot_general_p, dimension_numbers=(((2,), (1,)), ((0,), (0,)))
    )
    assert saved(ast.ir.structural.dot_general_p, dimension_numbers=(((1,), (0,)), ((), ())))


def named_net(w1, w2, x):
    z = ast.checkpoint_name(x @ w1, "z")
    h = ast.checkpoint_name(ast.tanh(z), "h")
    return ast.sum(ast.sin(h @ w2) ** 2)


@pytest.mark.parametrize(
    "policy",
    [
        cp.save_only_these_names("z"),
        cp.save_only_these_names("z", "h"),
        cp.save_any_names_but_these("h"),
        cp.save_anything_except_these_names("z"),
    ],
)
def test_named_values(policy):
    _assert_net_derivatives(ast.checkpoint(named_net, policy=policy))


def test_a_saved_name_keeps_its_product():
    def counts(policy):
        grad = ast.jit(ast.value_and_grad(ast.checkpoint(named_net, policy=policy), argnums=(0, 1)))
        return grad.lower(W1, W2, X).as_text().split("# after passes")[1].count("dot_general")

    assert counts(None) == 7
    assert counts(cp.save_only_these_names("z")) == 6  # x @ w1 kept, h @ w2 computed again


def test_checkpoint_name_outside_a_transformation_is_the_value():
    x = ast.asarray([1.0, 2.0])
    assert ast.checkpoint_name(x, "x") is x
    with pytest.raises(TypeError, match="must be a str"):
        ast.checkpoint_name(x, 3)
    assert (
        ast.jit(lambda v: ast.checkpoint_name(v, "v") * 2)
        .lower(x)
        .as_text()
        .count("checkpoint_name")
        == 1
    )
