"""Derivatives of the structural primitives (jit/structural.py), through the public frontend that emits them.

Each case is checked against float64 finite differences in forward and reverse mode (check_grads); some also
under jit and to second order. Points of non-differentiability (ties, zeros) get exact expected values.
"""

from __future__ import annotations

import numpy
import pytest
from arraystack.ir import structural as s
from arraystack.ir.ad import (
    jvp_rules,
    rules_elementwise,
    rules_indexing,
    rules_structural,
    vjp_rules,
)

import arraystack as ast
from arraystack._core.array import raw, wrap

rng = numpy.random.default_rng(42)
A = rng.standard_normal((3, 4))
B = rng.standard_normal((4, 5))
V = rng.standard_normal(6)
C = rng.standard_normal((2, 3, 4))
P = rng.uniform(0.5, 1.5, (3, 4)) * numpy.where(rng.random((3, 4)) < 0.5, -1, 1)  # away from zero


def _bind(prim, *args, **params):
    return wrap(prim.bind(*[raw(a) for a in args], **params))


def _close(got, want, **kw):
    numpy.testing.assert_allclose(numpy.asarray(got), numpy.asarray(want), **kw)


def _set(x, key, v):
    y = x.copy()
    y[key] = v
    return y


def _scatter(update, mode="clip"):
    return lambda x, u, idx: _bind(s.scatter_p, x, u, idx, mode=mode, update=update)


IDX = numpy.array([2, 0, 2, 3])  # duplicate 2

# name: (function, arguments[, flags]); flags "jit" / "order2" add the case to the jit / second-order tests
CASES = {
    # shape
    "reshape": (lambda x: ast.reshape(x, (2, 6)) * x.reshape(-1)[:2, None], [A], "jit order2"),
    "ravel": (lambda x: ast.ravel(x.T) ** 2, [A]),
    "transpose": (lambda x: ast.transpose(x, (2, 0, 1)) * 3.0, [C]),
    "swapaxes": (lambda x: ast.swapaxes(x, 0, 2), [C]),
    "broadcast_to": (lambda x: ast.broadcast_to(x[:, :1], (2, 3, 4)) * 1.5, [A]),
    "full_like_fill": (lambda x: ast.full((2, 3), ast.sum(x)) * x[:2, :3], [A]),
    # slicing
    "slice_step": (lambda x: x[1:5:2] * x[0:4:2], [V], "jit order2"),
    "slice_2d": (lambda x: x[1:, ::3], [A]),
    "slice_empty": (lambda x: ast.sum(x[3:3]) + x[0], [V]),
    "rev": (lambda x: x[::-1] * x, [V]),
    "rev_2d": (lambda x: x[::-1, ::-2], [A], "jit"),
    "flip": (lambda x: ast.flip(x, axis=(0, 2)), [C]),
    "concatenate": (
        lambda x, y: ast.concatenate([x, y[:1], x * y[0]], axis=0),
        [B[:2], B[2:4]],
        "jit order2",
    ),
    "concatenate_axis1": (lambda x: ast.concatenate([x, x**2], axis=1), [A]),
    "stack": (lambda x, y: ast.stack([x, y], axis=1), [V, V[::-1].copy()]),
    "pad_constant": (lambda x: ast.pad(x, ((1, 2), (0, 3))) * 2.0, [A], "jit order2"),
    # gathers (duplicate indices accumulate cotangents)
    "gather_dup": (lambda x: x[numpy.array([0, 2, 2, 5, 0])], [V], "jit order2"),
    "gather_2d": (lambda x: x[numpy.array([[1, 0], [2, 2]])], [A]),
    "gather_two_axes": (lambda x: x[numpy.array([0, 2, 2]), numpy.array([1, 3, 3])], [A]),
    "gather_inner_axis": (lambda x: x[:, numpy.array([3, 0, 3])], [A]),
    "gather_negative": (lambda x: x[numpy.array([-1, -6, 3])], [V]),
    # updates through x[idx] = v
    "set_basic": (lambda x, v: _set(x, slice(1, 4), v), [V, V[:3] * 2]),
    "set_strided": (lambda x, v: _set(x, (slice(None), slice(0, 4, 2)), v), [A, A[:, :2] + 1]),
    "set_scalar_value": (lambda x, v: _set(x, 2, v[0] * v[1]), [V, V[:2]]),
    "set_fancy": (lambda x, v: _set(x, numpy.array([4, 1]), v), [V, V[:2] + 3]),
    "set_fancy_dup": (
        lambda x, v: _set(x, numpy.array([4, 1, 4]), v),
        [V, V[:3] + 3],
        "jit order2",
    ),
    "set_fancy_rows": (lambda x, v: _set(x, numpy.array([2, 0, 2]), v), [A, B[:3, :4]]),
    "set_mask": (lambda x: _set(x, numpy.array([True, False] * 3), x[:3] * 2), [V], "jit"),
    # scatter with every update mode (duplicate index 2)
    "scatter_add": (lambda x, u: _scatter("add")(x, u, IDX), [V, V[:4] + 1], "order2"),
    "scatter_set": (lambda x, u: _scatter("set")(x, u, IDX), [V, V[:4] + 1], "jit"),
    "scatter_mul": (lambda x, u: _scatter("mul")(x, u, IDX), [V, V[:4] + 1], "jit order2"),
    "scatter_max": (lambda x, u: _scatter("max")(x, u, IDX), [V, V[2:6] * 2], "jit"),
    "scatter_min": (lambda x, u: _scatter("min")(x, u, IDX), [V, V[2:6] * 2]),
    "scatter_add_rows": (
        lambda x, u: _bind(s.scatter_p, x, u, numpy.array([1, 1, 0]), mode="raise", update="add"),
        [A, B[:3, :4]],
    ),
    # reductions
    "sum_axis": (lambda x: ast.sum(x * x, axis=1), [A]),
    "prod_all": (lambda x: ast.prod(x), [P], "order2"),
    "prod_axis": (lambda x: ast.prod(x, axis=0), [P], "jit"),
    "prod_axes": (lambda x: ast.prod(x, axis=(0, 2)), [C], "order2"),
    "max_axis": (lambda x: ast.max(x, axis=1), [A], "jit order2"),
    "min_all": (lambda x: ast.min(x), [A]),
    "amax_keepdims": (lambda x: ast.amax(x, axis=(0, 2), keepdims=True), [C]),
    "mean_var": (lambda x: ast.mean(x, axis=0) + ast.var(x, axis=0), [A]),
    # scans
    "cumsum": (lambda x: ast.cumsum(x, axis=1), [A], "order2"),
    "cumsum_flat": (lambda x: ast.cumsum(x * x), [A]),
    "cumprod": (lambda x: ast.cumprod(x, axis=0), [P], "jit order2"),
    "cumprod_1d": (lambda x: ast.cumprod(x), [V]),
    # no frontend function emits cummax/cummin yet
    "cummax": (lambda x: _bind(s.cummax_p, x, axis=0), [V], "jit order2"),
    "cummin_axis": (lambda x: _bind(s.cummin_p, x, axis=1), [A]),
    # contraction
    "matmul": (lambda x, y: x @ y, [A, B], "order2"),
    "matvec": (lambda x, y: ast.matmul(x, y), [A, B[:, 0].copy()]),
    "vecmat": (lambda x, y: ast.matmul(x, y), [B[:, 0].copy(), B]),
    "dot_1d": (lambda x, y: ast.dot(x, y), [V, V[::-1].copy()]),
    "matmul_batch": (lambda x, y: x @ y, [C, rng.standard_normal((2, 4, 3))], "jit order2"),
    "matmul_bcast": (lambda x, y: x @ y, [C, B]),
    "matmul_left2d": (lambda x, y: x @ y, [A[:, :3], C], "order2"),
    "matmul_bcast_batch": (lambda x, y: x @ y, [C[:1], rng.standard_normal((3, 4, 2))]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_grads(check_grads, name):
    f, args = CASES[name][:2]
    check_grads(f, args)


JIT_CASES = [name for name, case in CASES.items() if "jit" in " ".join(case[2:])]


@pytest.mark.parametrize("name", JIT_CASES)
def test_grads_jit(check_grads, name):
    f, args = CASES[name][:2]
    check_grads(f, args, jit=True)


@pytest.mark.parametrize("name", JIT_CASES)
def test_derivatives_traced_by_jit(name):
    """The rules' computations recorded and compiled by jit (jit of jvp and of vjp) match eager ones."""
    f, args = CASES[name][:2]
    r = numpy.random.default_rng(3)
    xs = tuple(ast.asarray(a) for a in args)
    ts = tuple(ast.asarray(r.standard_normal(numpy.shape(a))) for a in args)
    u = ast.asarray(r.standard_normal(numpy.shape(f(*xs))))

    def tangent(xs, ts):
        return ast.jvp(f, xs, ts)[1]

    def cotangents(xs, u):
        return ast.vjp(f, *xs)[1](u)

    _close(ast.jit(tangent)(xs, ts), tangent(xs, ts))
    for got, want in zip(ast.jit(cotangents)(xs, u), cotangents(xs, u)):
        _close(got, want, rtol=1e-12, atol=1e-12)


ORDER2_CASES = [name for name, case in CASES.items() if "order2" in " ".join(case[2:])]


@pytest.mark.parametrize("name", ORDER2_CASES)
def test_grads_order2(check_grads, name):
    f, args = CASES[name][:2]
    check_grads(f, args, order=2)


# -- dot_general with general dimension numbers, bound directly ---------------------------------------------------

DOT_CASES = [
    # (lhs shape, rhs shape, ((lc, rc), (lb, rb)))
    ((3, 4), (4, 5), (((1,), (0,)), ((), ()))),
    ((4, 3), (5, 4), (((0,), (1,)), ((), ()))),
    ((2, 3, 4), (4, 2, 5), (((2,), (0,)), ((0,), (1,)))),
    ((3, 2, 4), (2, 4, 3), (((2, 0), (1, 2)), ((1,), (0,)))),
    ((2, 3), (4,), (((), ()), ((), ()))),  # outer product
    ((2, 3, 4, 5), (5, 2, 3), (((3, 1), (0, 2)), ((0,), (1,)))),
    ((3,), (3,), (((0,), (0,)), ((), ()))),
]


@pytest.mark.parametrize("case", range(len(DOT_CASES)))
def test_dot_general_dimension_numbers(check_grads, case):
    xs, ys, dims = DOT_CASES[case]
    r = numpy.random.default_rng(case)
    f = lambda x, y: _bind(s.dot_general_p, x, y, dimension_numbers=dims)
    check_grads(f, [r.standard_normal(xs), r.standard_normal(ys)], order=2 if case == 3 else 1)


def test_dot_general_complex(check_grads):
    r = numpy.random.default_rng(1)
    x = r.standard_normal((2, 3)) + 1j * r.standard_normal((2, 3))
    y = r.standard_normal((3, 2)) + 1j * r.standard_normal((3, 2))
    check_grads(lambda x, y: x @ y, [x, y])


def test_dot_general_skips_constant_operand():
    calls = []
    rule = vjp_rules[s.dot_general_p]

    def spy(ct, out, needs, *primals, **params):
        cts = rule(ct, out, needs, *primals, **params)
        calls.append([c is None for c in cts])
        return cts

    vjp_rules[s.dot_general_p] = spy
    try:
        w = ast.asarray(B)
        g = ast.grad(lambda x: ast.sum(x @ w))(ast.asarray(A))
    finally:
        vjp_rules[s.dot_general_p] = rule
    assert calls == [[False, True]]
    _close(g, numpy.broadcast_to(B.sum(1), (3, 4)))


# -- cumulative ops with reverse=True (bound directly) -------------------------------------------------------------


@pytest.mark.parametrize("prim", [s.cumsum_p, s.cumprod_p, s.cummax_p, s.cummin_p])
def test_cumulative_reverse(check_grads, prim):
    x = P.copy()
    check_grads(lambda x: _bind(prim, x, axis=1, reverse=True), [x])
    check_grads(lambda x: _bind(prim, x, axis=0, reverse=True), [x], jit=True)


def test_pad_interior_and_value(check_grads):
    f = lambda x, v: _bind(s.pad_p, x, v[0], padding_config=((1, 0, 2), (0, 2, 1)))
    check_grads(f, [A[:2, :3], numpy.array([0.7])])
    check_grads(f, [A[:2, :3], numpy.array([0.7])], order=2)


def test_full_fill_value(check_grads):
    check_grads(
        lambda v: _bind(s.full_p, ast.sum(v), shape=(2, 3), dtype=numpy.dtype("f8")) * 2.0, [V[:2]]
    )


# -- exact values at ties and zeros --------------------------------------------------------------------------------


def _grad(f, x):
    return numpy.asarray(ast.grad(lambda x: ast.sum(f(x)))(ast.asarray(x)))


def _jvp(f, x, t):
    return numpy.asarray(ast.jvp(f, (ast.asarray(x),), (ast.asarray(t),))[1])


def test_max_ties_split_evenly():
    x = numpy.array([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0]])
    g = _grad(lambda x: ast.max(x, axis=1), x)
    _close(g, [[0, 0.5, 0.5, 0], [0.25] * 4])
    t = numpy.array([[9.0, 1.0, 2.0, 9.0], [1.0, 2.0, 3.0, 4.0]])
    _close(_jvp(lambda x: ast.max(x, axis=1), x, t), [1.5, 2.5])
    _close(_grad(ast.min, -x), [[0, 0.5, 0.5, 0], [0] * 4])


def test_prod_with_zeros():
    x = numpy.array([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0], [1.0, 2.0, 4.0]])
    # d prod / d x_j is the product of the others: a single zero gets the rest, two zeros give 0 everywhere
    _close(_grad(lambda x: ast.prod(x, axis=1), x), [[0, 6, 0], [0, 0, 0], [8, 4, 2]])
    t = numpy.arange(9.0).reshape(3, 3)
    _close(_jvp(lambda x: ast.prod(x, axis=1), x, t), [6, 0, 8 * 6 + 4 * 7 + 2 * 8])


def test_prod_with_zeros_second_order():
    x = numpy.array([0.0, 2.0, 3.0])
    hess_row = ast.grad(lambda x: ast.grad(lambda y: ast.prod(y))(x)[0])(ast.asarray(x))
    _close(hess_row, [0, 3, 2])


def test_cumprod_with_zeros(check_grads):
    x = numpy.array([2.0, 0.0, 3.0, 0.0, 5.0])
    expected = numpy.zeros((5, 5))  # jacobian d y_i / d x_j = prod_{k <= i, k != j} x_k
    for i in range(5):
        for j in range(i + 1):
            expected[i, j] = numpy.prod(numpy.delete(x[: i + 1], j))
    jac_fwd = numpy.stack([_jvp(ast.cumprod, x, e) for e in numpy.eye(5)], axis=1)
    jac_rev = numpy.stack(
        [
            numpy.asarray(ast.vjp(ast.cumprod, ast.asarray(x))[1](ast.asarray(e))[0])
            for e in numpy.eye(5)
        ]
    )
    _close(jac_fwd, expected)
    _close(jac_rev, expected)
    check_grads(ast.cumprod, [numpy.array([1.5, 0.0, 0.7, -1.2])])  # differentiable there too


def test_cummax_ties_go_to_latest():
    x = numpy.array([1.0, 3.0, 2.0, 3.0, 0.0])
    g = _grad(lambda x: _bind(s.cummax_p, x, axis=0), x)
    _close(g, [1, 2, 0, 2, 0])


def test_gather_duplicates_accumulate():
    g = _grad(lambda x: x[numpy.array([0, 2, 2, 2, 5])], V)
    _close(g, [1, 0, 3, 0, 0, 1])
    g = _grad(lambda x: x[numpy.array([1, 1]), numpy.array([2, 2])] * 2.0, A)
    expected = numpy.zeros_like(A)
    expected[1, 2] = 4
    _close(g, expected)


def test_scatter_add_duplicates():
    u = numpy.array([1.0, 2.0, 3.0, 4.0])
    out, vjp_fn = ast.vjp(_scatter("add"), ast.asarray(V), ast.asarray(u), IDX)
    expected = V.copy()
    numpy.add.at(expected, IDX, u)
    _close(out, expected)
    ct = numpy.arange(6.0)
    gx, gu, _ = vjp_fn(ast.asarray(ct))
    _close(gx, ct)
    _close(gu, ct[IDX])


def test_scatter_set_last_write_wins():
    u = numpy.array([10.0, 20.0, 30.0, 40.0])
    ct = numpy.arange(1.0, 7.0)

    def run(x, u, ct):
        out, vjp_fn = ast.vjp(lambda x, u: _scatter("set")(x, u, IDX), x, u)
        return (out,) + vjp_fn(ct)

    for fn in (run, ast.jit(run)):
        out, gx, gu = fn(ast.asarray(V), ast.asarray(u), ast.asarray(ct))
        assert numpy.asarray(out)[2] == 30.0
        _close(gu, [0, 1, 3, 4])  # update 0 lost to update 2 at x[2]
        _close(gx, [0, 2, 0, 0, 5, 6])
    t = numpy.array([1.0, 2.0, 3.0, 4.0])
    _, tout = ast.jvp(
        lambda u: _scatter("set")(ast.asarray(V), u, IDX), (ast.asarray(u),), (ast.asarray(t),)
    )
    _close(tout, [2, 0, 3, 4, 0, 0])


def test_scatter_max_ties_split():
    x = numpy.array([1.0, 5.0, 2.0])
    u = numpy.array([5.0, 5.0, 0.0])
    out, vjp_fn = ast.vjp(_scatter("max"), ast.asarray(x), ast.asarray(u), numpy.array([1, 1, 2]))
    _close(out, [1, 5, 2])
    gx, gu, _ = vjp_fn(ast.asarray(numpy.array([1.0, 3.0, 1.0])))
    _close(gx, [1, 1, 1])
    _close(gu, [1, 1, 0])


def test_scatter_mul_with_zero():
    x = numpy.array([2.0, 3.0])
    u = numpy.array([0.0, 4.0, 5.0])
    idx = numpy.array([0, 0, 1])
    _, vjp_fn = ast.vjp(_scatter("mul"), ast.asarray(x), ast.asarray(u), idx)
    gx, gu, _ = vjp_fn(ast.asarray(numpy.ones(2)))
    _close(gx, [0, 5])
    _close(gu, [8, 0, 3])


def test_integer_results_have_no_gradient():
    x = ast.asarray(A)
    g = ast.grad(lambda x: ast.sum(x[ast.argmax(x, axis=0), numpy.arange(4)]))(x)
    expected = numpy.zeros_like(A)
    expected[A.argmax(0), numpy.arange(4)] = 1
    _close(g, expected)
    g = ast.grad(lambda x: ast.sum(x[ast.nonzero(x > 0.5, size=4, fill_value=1)]))(ast.asarray(V))
    found = list(numpy.nonzero(V > 0.5)[0][:4])
    expected = numpy.zeros_like(V)
    numpy.add.at(expected, found + [1] * (4 - len(found)), 1)
    _close(g, expected)


def test_every_structural_primitive_has_rules():
    not_differentiable = {
        **rules_structural.not_differentiable,
        **rules_indexing.not_differentiable,
    }
    declared = [v for v in vars(s).values() if isinstance(v, type(s.reshape_p))]
    assert len(declared) >= 24
    for prim in declared:
        if prim in not_differentiable:
            assert prim not in vjp_rules, prim.name
            continue
        assert prim in jvp_rules and prim in vjp_rules, prim.name
    assert not set(rules_elementwise.not_differentiable) & set(not_differentiable)
