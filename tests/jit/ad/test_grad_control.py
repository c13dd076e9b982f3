"""Derivatives and batching of control flow: cond, switch, while_loop, fori_loop, scan (and fusion).

Eagerly, cond/switch with a concrete predicate run a Python branch; the switch rules are reached when the
predicate is traced, so those are checked inside jit (`check_traced`: jvp and vjp of f traced into one
program) and under vmap with a per-example predicate. Batching is compared with a Python loop.
"""

import numpy
import pytest
from arraystack.ir.ad.reverse import NotDifferentiableError
from arraystack.ir.avals import aval_of_concrete
from arraystack.ir.control import fusion_p
from arraystack.ir.core import bind
from arraystack.ir.trace import make_graph

import arraystack as ast
from arraystack._core.array import wrap

# -- functions under test ----------------------------------------------------------------------------------------


def f_cond(x, y):
    return ast.cond(ast.sum(x) > 0, lambda a, b: ast.sin(a) * b, lambda a, b: a * a - b, x, y)


def f_switch(x, y):
    k = ast.astype(ast.floor(ast.sum(x) * 2 + 0.25), ast.int32)  # X * s picks floor(s + 0.25)
    branches = [lambda a, b: a * b, lambda a, b: ast.exp(a) + b, lambda a, b: ast.cos(a * b)]
    return ast.switch(k, branches, x, y)


def f_scan(x, y):
    def step(c, xy):
        a, b = xy
        c = c * ast.sin(a) + b * x[0]  # x[0]: a captured const
        return c, c * a

    c, ys = ast.scan(step, y[0], (x, y))
    return ast.sum(ys) + c


def f_scan_reverse(x, y):
    def step(c, a):
        return ast.tanh(c + a * y), c * a

    c, ys = ast.scan(step, x, x * 0.5, reverse=True)
    return c + ys


def f_fori(x, y):
    return ast.fori_loop(0, 4, lambda i, v: ast.sin(v) * y + ast.astype(i, v.dtype), x)


def f_while(x, y):
    def body(state):
        i, v = state
        return i + 1, v * ast.cos(v) + y

    return ast.while_loop(lambda s: s[0] < 3, body, (0, x))[1]


X = numpy.array([0.3, -0.2, 0.4])
Y = numpy.array([0.7, 0.1, -0.5])

# -- traced checks: jvp and vjp inside jit, against central differences -----------------------------------------


def _fd(f, xs, ts, eps=1e-6):
    plus = numpy.asarray(f(*[ast.asarray(x + eps * t) for x, t in zip(xs, ts)]))
    minus = numpy.asarray(f(*[ast.asarray(x - eps * t) for x, t in zip(xs, ts)]))
    return (plus - minus) / (2 * eps)


def check_traced(f, args, order=1, seed=0, rtol=1e-5):
    rng = numpy.random.default_rng(seed)
    xs = [numpy.asarray(a) for a in args]
    n = len(xs)
    ts = [rng.standard_normal(x.shape) for x in xs]
    fd = _fd(f, xs, ts)
    jvp_fn = ast.jit(lambda *a: ast.jvp(f, tuple(a[:n]), tuple(a[n:]))[1])
    numpy.testing.assert_allclose(jvp_fn(*xs, *ts), fd, rtol=rtol, atol=rtol * 1e-2)
    u = rng.standard_normal(numpy.shape(fd))
    vjp_fn = ast.jit(lambda *a: ast.vjp(f, *a[:n])[1](a[n]))
    grads = vjp_fn(*xs, u)
    lhs = numpy.sum(u * fd)
    rhs = sum(numpy.sum(numpy.asarray(g) * t) for g, t in zip(grads, ts))
    assert abs(lhs - rhs) <= rtol * max(1.0, abs(lhs)), (lhs, rhs)
    if order >= 2:
        fixed = tuple(ast.asarray(t) for t in ts)
        check_traced(lambda *a: ast.jvp(f, a, fixed)[1], args, order - 1, seed + 1, rtol * 100)


@pytest.mark.parametrize("x", [X, -X])
def test_cond_traced(x):
    check_traced(f_cond, [x, Y], order=2)


@pytest.mark.parametrize("x", [X * -1.5, X * 0.4, X * 1.4, X * 2.4, X * 4.4])
def test_switch_traced(x):
    check_traced(f_switch, [x, Y])


def test_cond_grad_of_grad_traced():
    def f(x):
        return ast.cond(x > 0, lambda v: v**3, lambda v: ast.sin(v), x)

    g2 = ast.jit(ast.grad(ast.grad(f)))
    numpy.testing.assert_allclose(g2(0.5), 6 * 0.5)
    numpy.testing.assert_allclose(g2(-0.5), -numpy.sin(-0.5))


@pytest.mark.parametrize("f", [f_scan, f_scan_reverse, f_fori])
def test_loops_traced(f):
    check_traced(f, [X, Y], order=2 if f is f_scan else 1)


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("f", [f_cond, f_switch])
def test_branches_eager(check_grads, f, jit):
    check_grads(f, [X, Y], order=2, jit=jit)


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("f", [f_scan, f_scan_reverse, f_fori])
def test_loops_eager(check_grads, f, jit):
    check_grads(f, [X, Y], order=2 if f is f_scan else 1, jit=jit)


def test_scan_int_carry_and_length0(check_grads):
    def f(x):
        def step(c, a):
            i, v = c
            return (i + 1, v * a + ast.astype(i, a.dtype)), v

        (_, v), ys = ast.scan(step, (0, x[0]), x)
        return v + ast.sum(ys)

    check_grads(f, [X], order=2)
    empty = lambda x: ast.scan(lambda c, a: (c * a, c), x[0], x[:0])[0] + x[1]
    check_grads(empty, [X])


def _fd_jacobian(g, x, eps=1e-5):
    rows = [
        (numpy.asarray(g(ast.asarray(x + eps * e))) - numpy.asarray(g(ast.asarray(x - eps * e))))
        / (2 * eps)
        for e in numpy.eye(x.size)
    ]
    return numpy.stack(rows, axis=-1)


def test_scan_hessian():
    def f(x):
        c, ys = ast.scan(lambda c, a: (ast.sin(c * a), c * c), x[0], x)
        return c + ast.sum(ys)

    want = _fd_jacobian(ast.grad(f), X)
    numpy.testing.assert_allclose(ast.hessian(f)(ast.asarray(X)), want, rtol=1e-6, atol=1e-8)
    hess = ast.jit(ast.hessian(f))
    numpy.testing.assert_allclose(hess(ast.asarray(X)), want, rtol=1e-6, atol=1e-8)


def test_while_forward_over_forward():
    f = lambda x: f_while(x, Y)
    want = _fd_jacobian(ast.jacfwd(f), X)
    numpy.testing.assert_allclose(
        ast.jacfwd(ast.jacfwd(f))(ast.asarray(X)), want, rtol=1e-6, atol=1e-8
    )


@pytest.mark.parametrize("jit", [False, True])
def test_while_forward_only(check_grads, jit):
    check_grads(f_while, [X, Y], modes=("fwd",), jit=jit)
    check_traced_fwd = ast.jit(lambda x, t: ast.jvp(lambda v: f_while(v, Y), (x,), (t,))[1])
    t = numpy.ones_like(X)
    numpy.testing.assert_allclose(
        check_traced_fwd(X, t), _fd(lambda v: f_while(v, Y), [X], [t]), rtol=1e-6
    )


def test_while_reverse_raises():
    with pytest.raises(NotDifferentiableError, match="fori_loop with static"):
        ast.grad(lambda x: ast.sum(f_while(x, Y)))(ast.asarray(X))


def test_fori_loop_traced_bounds():
    # traced bounds lower to while: forward mode works, reverse mode names the fix
    def f(x, n):
        return ast.fori_loop(0, n, lambda i, v: v * ast.sin(v), x)

    jvp = ast.jit(lambda x, t, n: ast.jvp(lambda v: f(v, n), (x,), (t,))[1])
    t = numpy.ones_like(X)
    numpy.testing.assert_allclose(jvp(X, t, 3), _fd(lambda v: f(v, 3), [X], [t]), rtol=1e-6)
    with pytest.raises(NotDifferentiableError, match="while_loop"):
        ast.jit(lambda x, n: ast.grad(lambda v: ast.sum(f(v, n)))(x))(X, 3)


def test_fori_loop_static_lowers_to_scan():
    def f(x):
        return ast.fori_loop(0, 3, lambda i, v: v * 2.0, wrap(x))._value

    graph, _ = make_graph(lambda x: [f(x)], [aval_of_concrete(X)])
    assert [e.prim.name for e in graph.eqns] == ["scan"]


# -- vmap against a Python loop ---------------------------------------------------------------------------------


def vmap(f, *args, batched=None):
    batched = batched or [True] * len(args)
    return numpy.asarray(ast.vmap(f, in_axes=tuple(0 if b else None for b in batched))(*args))


def loop(f, *args, batched=None):
    batched = batched or [True] * len(args)
    size = next(numpy.shape(a)[0] for a, b in zip(args, batched) if b)
    return numpy.stack(
        [
            numpy.asarray(f(*[ast.asarray(a[i] if b else a) for a, b in zip(args, batched)]))
            for i in range(size)
        ]
    )


XB = numpy.array([[0.3, -0.2, 0.4], [-0.5, 0.1, -0.3], [0.2, 0.2, 0.9], [-0.1, -0.3, 0.05]])
YB = XB[::-1] * 0.7 + 0.1


@pytest.mark.parametrize(
    "f", [f_cond, f_switch, f_scan, f_scan_reverse, f_fori, f_while], ids=lambda f: f.__name__
)
@pytest.mark.parametrize("batched", [[True, True], [True, False], [False, True]])
def test_vmap(f, batched):
    args = [XB if batched[0] else X, YB if batched[1] else Y]
    numpy.testing.assert_allclose(
        vmap(f, *args, batched=batched), loop(f, *args, batched=batched), rtol=1e-12
    )


def test_vmap_while_per_example_trip_count():
    def f(x):
        return ast.while_loop(lambda v: ast.sum(v) < 5.0, lambda v: v * 1.5 + 0.1, x)

    xb = numpy.abs(XB) + 0.1
    numpy.testing.assert_allclose(vmap(f, xb), loop(f, xb), rtol=1e-12)


def test_vmap_carry_becomes_batched():
    # the carry starts shared and becomes per-example through the batched y
    def f(y):
        return ast.scan(lambda c, a: (c * 0.5 + y * a, c + y), ast.asarray(X), ast.asarray(XB))

    got = ast.vmap(f)(ast.asarray(YB))
    for g, w in zip(got, [loop(lambda y, k=k: f(y)[k], YB) for k in (0, 1)]):
        numpy.testing.assert_allclose(g, w, rtol=1e-12)


def test_vmap_keeps_loop_counter_unbatched():
    graph, _ = make_graph(
        lambda y: [ast.vmap(f_fori, in_axes=(None, 0))(wrap(y), wrap(y))._value],
        [aval_of_concrete(YB)],
    )
    (scan,) = [e for e in graph.eqns if e.prim.name == "scan"]
    counter = scan.inputs[scan.params["nconsts"]]
    assert counter.aval.shape == ()


def test_vmap_under_jit():
    got = ast.jit(ast.vmap(f_switch))(ast.asarray(XB), ast.asarray(YB))
    numpy.testing.assert_allclose(got, loop(f_switch, XB, YB), rtol=1e-12)


@pytest.mark.parametrize("f", [f_cond, f_scan, f_fori], ids=lambda f: f.__name__)
def test_vmap_of_grad_and_grad_of_vmap(f):
    per_example = ast.grad(lambda x, y: ast.sum(f(x, y)))
    want = loop(per_example, XB, YB)
    numpy.testing.assert_allclose(vmap(per_example, XB, YB), want, rtol=1e-10)
    total = ast.grad(lambda x, y: ast.sum(ast.vmap(f)(x, y)))
    numpy.testing.assert_allclose(total(ast.asarray(XB), ast.asarray(YB)), want, rtol=1e-10)


# -- fusion -----------------------------------------------------------------------------------------------------


def _fused(x, y):
    def region(a, b):
        return [(ast.sin(wrap(a)) * wrap(b))._value, (wrap(a) + wrap(b))._value]

    graph, consts = make_graph(region, [aval_of_concrete(X)] * 2)
    assert not consts
    u, v = bind(fusion_p, x._value, y._value, graph=graph)
    return wrap(u) * wrap(v)


def test_fusion(check_grads):
    check_grads(_fused, [X, Y], order=2)
    numpy.testing.assert_allclose(vmap(_fused, XB, YB), loop(_fused, XB, YB), rtol=1e-12)
