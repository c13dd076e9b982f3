"""The user-facing transformations: argument handling, pytrees, errors, and composition."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast
from arraystack.ir.ad.reverse import NotDifferentiableError


def close(a, b, rtol=1e-7, atol=1e-9):
    numpy.testing.assert_allclose(numpy.asarray(a), numpy.asarray(b), rtol=rtol, atol=atol)


def loss(params, x):
    h = ast.tanh(x * params["w"] + params["b"])
    return ast.sum(h * h)


def loss_grad_numpy(params, x):
    h = numpy.tanh(x * params["w"] + params["b"])
    dh = 2 * h * (1 - h * h)
    return {"w": numpy.sum(dh * x, axis=0) if params["w"].ndim else numpy.sum(dh * x), "b": numpy.sum(dh)}


X = numpy.linspace(-1.0, 1.0, 6)
PARAMS = {"w": numpy.float64(0.7), "b": numpy.float64(-0.2)}


def test_grad_of_a_dict_of_parameters():
    g = ast.grad(loss)(PARAMS, X)
    assert set(g) == {"w", "b"}
    expected = loss_grad_numpy(PARAMS, X)
    close(g["w"], expected["w"])
    close(g["b"], expected["b"])


def test_value_and_grad_argnums_and_aux():
    def f(a, b, c):
        return ast.sum(a * b * c), a + b

    (value, aux), grads = ast.value_and_grad(f, argnums=(0, 2), has_aux=True)(2.0, 3.0, 4.0)
    close(value, 24.0)
    close(aux, 5.0)
    close(grads[0], 12.0)
    close(grads[1], 6.0)
    g, aux = ast.grad(f, argnums=1, has_aux=True)(2.0, 3.0, 4.0)
    close(g, 8.0)


@pytest.mark.parametrize(
    "fn, args, error, match",
    [
        (lambda x: x * 2, (numpy.ones(3),), TypeError, "scalar"),
        (lambda x: x * 2, (3,), TypeError, "floating"),
        (lambda x: (x, x), (1.0,), TypeError, "scalar"),
        (lambda x: x * 1j, (1.0,), TypeError, "holomorphic"),
    ],
)
def test_grad_rejects_bad_functions(fn, args, error, match):
    with pytest.raises(error, match=match):
        ast.grad(fn)(*args)


def test_grad_argnums_out_of_range():
    with pytest.raises(ValueError, match="argnums"):
        ast.grad(lambda x: x, argnums=3)(1.0)


def test_python_control_flow_on_concrete_values_in_eager_grad():
    def f(x):
        if x > 0:
            return x * x
        return -x

    close(ast.grad(f)(3.0), 6.0)
    close(ast.grad(f)(-3.0), -1.0)
    with pytest.raises(ast.ir.ConcretizationError, match="cond"):
        ast.jit(ast.grad(f))(3.0)


def test_numpy_functions_on_traced_values_are_differentiated():
    def f(x):
        return numpy.sum(numpy.sin(x) * numpy.exp(x))

    x = numpy.linspace(0, 1, 5)
    expected = numpy.cos(x) * numpy.exp(x) + numpy.sin(x) * numpy.exp(x)
    close(ast.grad(f)(ast.asarray(x)), expected)


def test_higher_order_third_derivative_of_sin():
    d3 = ast.grad(ast.grad(ast.grad(ast.sin)))
    for x in (0.0, 0.5, 2.0):
        close(d3(x), -numpy.cos(x))


def test_compositions_with_jit_agree():
    f = lambda x: ast.sum(ast.sin(x) * ast.cos(2.0 * x))  # noqa: E731
    x = ast.asarray(numpy.linspace(-1, 1, 7))
    eager = ast.grad(f)(x)
    close(ast.jit(ast.grad(f))(x), eager)
    close(ast.grad(ast.jit(f))(x), eager)
    close(ast.jit(ast.grad(ast.jit(f)))(x), eager)
    second = ast.grad(lambda x: ast.sum(ast.grad(f)(x)))(x)
    close(ast.jit(ast.grad(lambda x: ast.sum(ast.grad(f)(x))))(x), second)


def test_jit_of_grad_rereads_captured_arrays():
    global W_CAPTURED
    W_CAPTURED = ast.asarray([1.0, 2.0])
    g = ast.jit(ast.grad(lambda x: ast.sum(W_CAPTURED * ast.sin(x))))
    close(g(ast.zeros(2)), [1.0, 2.0])
    W_CAPTURED = ast.asarray([3.0, 5.0])
    close(g(ast.zeros(2)), [3.0, 5.0])


def test_vjp_and_jvp_and_linearize_agree():
    f = lambda x, y: (ast.sin(x) * y, ast.exp(x) + y)  # noqa: E731
    x, y = numpy.array([0.1, 0.5]), numpy.array([2.0, -1.0])
    tx, ty = numpy.array([1.0, 0.3]), numpy.array([-0.5, 2.0])
    out, tout = ast.jvp(f, (x, y), (tx, ty))
    _, f_jvp = ast.linearize(f, x, y)
    lin = f_jvp(tx, ty)
    for a, b in zip(tout, lin):
        close(a, b)
    expected0 = numpy.cos(x) * y * tx + numpy.sin(x) * ty
    close(tout[0], expected0)
    out2, vjp_fn = ast.vjp(f, x, y)
    gx, gy = vjp_fn((ast.ones(2), ast.zeros(2)))
    close(gx, numpy.cos(x) * y)
    close(gy, numpy.sin(x))


def test_vjp_checks_cotangent_structure():
    _, vjp_fn = ast.vjp(lambda x: (x, x), 1.0)
    with pytest.raises(TypeError, match="structure"):
        vjp_fn(1.0)


def test_jvp_checks_tangent_dtype():
    with pytest.raises(TypeError, match="dtype"):
        ast.jvp(ast.sin, (numpy.ones(2),), (numpy.ones(2, numpy.float32),))


def test_stop_gradient():
    close(ast.grad(lambda x: ast.stop_gradient(x) * x)(3.0), 3.0)
    close(ast.jit(ast.grad(lambda x: ast.stop_gradient(x * x) + x))(3.0), 1.0)
    close(ast.stop_gradient(ast.asarray([1.0, 2.0])), [1.0, 2.0])


def test_custom_vjp_rule_is_used():
    @ast.custom_vjp
    def f(x):
        return ast.sin(x)

    f.defvjp(lambda x: (ast.sin(x), ast.cos(x)), lambda c, g: (g * c * 10,))
    close(f(1.0), numpy.sin(1.0))
    close(ast.grad(f)(1.0), 10 * numpy.cos(1.0))
    close(ast.jit(ast.grad(f))(1.0), 10 * numpy.cos(1.0))
    # forward mode differentiates the body
    close(ast.jvp(f, (1.0,), (1.0,))[1], numpy.cos(1.0))


def test_custom_jvp_rule_serves_both_modes():
    @ast.custom_jvp
    def f(x):
        return ast.exp(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        return ast.exp(primals[0]), tangents[0] * 7.0

    close(ast.jvp(f, (1.0,), (2.0,))[1], 14.0)
    close(ast.grad(f)(1.0), 7.0)


def test_checkpoint_recomputes_and_matches():
    f = lambda x: ast.sum(ast.sin(ast.sin(x)))  # noqa: E731
    x = numpy.linspace(0, 1, 4)
    close(ast.grad(ast.checkpoint(f))(x), ast.grad(f)(x))
    close(ast.grad(ast.grad(lambda y: ast.checkpoint(f)(y * 1.0)))(0.3), ast.grad(ast.grad(f))(0.3))


def test_checkpoint_static_argnums_and_prevent_cse():
    """JAX's keywords: a static argument is passed through (the function branches on it); without
    prevent_cse the jitted backward pass has no barrier."""

    def f(x, mode):
        return ast.sum(ast.sin(x) * 2.0) if mode == "double" else ast.sum(ast.cos(x))

    x = numpy.linspace(0, 1, 4)
    for mode in ("double", "plain"):
        g = ast.checkpoint(f, static_argnums=1)
        close(ast.grad(lambda y: g(y, mode))(x), ast.grad(lambda y: f(y, mode))(x))
        close(ast.jit(ast.grad(lambda y: g(y, mode)))(x), ast.grad(lambda y: f(y, mode))(x))
    h = lambda x: ast.sin(ast.sin(x))  # noqa: E731
    for prevent_cse in (True, False):
        grad = ast.jit(ast.grad(ast.checkpoint(h, prevent_cse=prevent_cse)))
        close(grad(1.0), ast.grad(h)(1.0))
        assert ("barrier" in grad.lower(1.0).as_text()) == prevent_cse
    with pytest.raises(TypeError, match="policy must be callable"):
        ast.checkpoint(h, policy="dots")
    with pytest.raises(ValueError, match="out of range"):
        ast.grad(lambda y: ast.checkpoint(f, static_argnums=3)(y, "double"))(x)


def test_while_loop_reverse_mode_is_a_clear_error_or_works_forward():
    def f(x):
        return ast.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2.0), (0, x))[1]

    close(ast.jvp(f, (1.5,), (1.0,))[1], 8.0)
    with pytest.raises((TypeError, NotDifferentiableError), match="scan|fori_loop"):
        ast.grad(f)(1.5)


def test_vmap_axes_and_errors():
    x = numpy.arange(12.0).reshape(3, 4)
    close(ast.vmap(lambda r: ast.sin(r) * 2)(x), numpy.sin(x) * 2)
    close(ast.vmap(lambda c: c * 2, in_axes=1, out_axes=1)(x), x * 2)
    close(ast.vmap(lambda r, s: r * s, in_axes=(0, None))(x, 3.0), x * 3)
    close(ast.vmap(lambda d: d["a"] + d["b"], in_axes=({"a": 0, "b": None},))({"a": x, "b": 1.0}), x + 1)
    with pytest.raises(ValueError, match="inconsistent"):
        ast.vmap(lambda a, b: a + b)(numpy.ones(3), numpy.ones(4))
    with pytest.raises(ValueError, match="0-d"):
        ast.vmap(lambda a: a)(1.0)


def test_vmap_of_grad_matches_a_loop():
    f = lambda x: ast.sum(ast.sin(x) ** 2)  # noqa: E731
    xs = numpy.linspace(-1, 1, 12).reshape(4, 3)
    batched = ast.vmap(ast.grad(f))(xs)
    for row, got in zip(xs, numpy.asarray(batched)):
        close(got, ast.grad(f)(row))
    close(ast.jit(ast.vmap(ast.grad(f)))(xs), batched)


def test_grad_with_respect_to_an_integer_input_is_a_clear_error():
    with pytest.raises(TypeError, match="integer|floating"):
        ast.grad(lambda x: x * 1.0)(numpy.arange(3))


def test_jacobians_and_hessian():
    A = numpy.random.default_rng(1).standard_normal((3, 3))
    Q = A + A.T
    quad = lambda v: v @ (ast.asarray(Q) @ v)  # noqa: E731
    v = numpy.array([0.3, -0.2, 0.9])
    close(ast.hessian(quad)(v), 2 * Q)
    f = lambda x: ast.sin(x) * ast.sum(x)  # noqa: E731
    x = numpy.array([0.1, 0.7, -0.4])
    expected = numpy.diag(numpy.cos(x) * numpy.sum(x)) + numpy.sin(x)[:, None]
    close(ast.jacfwd(f)(x), expected)
    close(ast.jacrev(f)(x), expected)
    close(ast.jit(ast.jacrev(f))(x), expected)
    close(ast.jacfwd(ast.jacrev(lambda x: ast.sum(ast.sin(x))))(x), numpy.diag(-numpy.sin(x)))


def test_jacobian_shapes_and_pytrees():
    def f(p):
        return {"y": p["a"][:, None] * p["b"][None, :]}

    p = {"a": numpy.ones(2), "b": numpy.arange(3.0)}
    for jac in (ast.jacfwd, ast.jacrev):
        J = jac(f)(p)
        assert J["y"]["a"].shape == (2, 3, 2)
        assert J["y"]["b"].shape == (2, 3, 3)
        close(J["y"]["a"][1, 2, 1], 2.0)
        close(J["y"]["b"][0, 2, 2], 1.0)


def test_linearize_records_only_the_tangent_computation():
    x = numpy.linspace(0.1, 1.0, 4)
    out, f_jvp = ast.linearize(lambda x: ast.exp(ast.sin(x)), x)
    close(out, numpy.exp(numpy.sin(x)))
    close(f_jvp(numpy.ones(4)), numpy.exp(numpy.sin(x)) * numpy.cos(x))
