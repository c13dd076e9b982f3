"""Out-of-bounds indices are never silent: traced indices (jit in each tier, grad, vmap,
control-flow bodies) raise NumPy's IndexError, naming the index, the axis and its size, as eager
NumPy does; the explicit modes clamp, wrap or drop. Written against NumPy as the oracle."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast

V = numpy.arange(5.0)
A = numpy.arange(15.0).reshape(3, 5)

# every way a traced index reaches a gather or scatter: NumPy runs the same function eagerly
TIERS = {
    "tiered": {},  # the default: the first calls run tier 0 while tier 1 compiles
    "compiled": {"tiered": False},
    "reference": {"backend": "reference"},
}


def _write(xp, v, i):
    w = v.copy()
    w[i] = 0.0
    return w


def _write_column(xp, a, i):
    w = a.copy()
    w[:, i] = -1.0
    return w


def _write_no_rows(xp, a, i):
    w = a.copy()
    w[0:0, i] = -1.0  # writes nothing, but NumPy checks i
    return w


def _put(xp, v, i):
    w = v.copy()
    xp.put(w, i, -1.0)
    return w


def _put_along_axis(xp, a, i):
    w = a.copy()
    xp.put_along_axis(w, i, -1.0, axis=1)
    return w


# name: (function of (xp, array, index), array, [(index, in bounds?)])
CASES = {
    "read": (lambda xp, v, i: v[i], V, [7, -6, 4, -5]),
    "write": (_write, V, [7, -6, 4, -5]),
    "fancy": (lambda xp, v, i: v[i], V, [numpy.array([0, 7, 1]), numpy.array([[2], [-1]])]),
    "column": (lambda xp, a, i: a[:, i], A, [5, numpy.array([1, -6]), -5]),
    "newaxis_column": (lambda xp, a, i: a[None, :, i], A, [9, 0]),
    "two_arrays": (lambda xp, a, i: a[i, i], A, [numpy.array([0, 4]), numpy.array([2, -3])]),
    "write_column": (_write_column, A, [numpy.array([0, 5]), numpy.array([-5, 4])]),
    "write_no_rows": (_write_no_rows, A, [numpy.array([7]), numpy.array([1])]),
    "write_zero_size": (_write, numpy.zeros((5, 0)), [numpy.array([7]), numpy.array([2])]),
    "take": (lambda xp, v, i: xp.take(v, i), V, [7, numpy.array([1, -6]), -1]),
    "take_axis": (lambda xp, a, i: xp.take(a, i, axis=1), A, [numpy.array([5]), 4]),
    "take_along_axis": (
        lambda xp, a, i: xp.take_along_axis(a, i, axis=1),
        A,
        [numpy.array([[0], [7], [1]]), numpy.array([[0, -1], [4, 2], [1, -5]])],
    ),
    "put": (_put, V, [numpy.array([1, 7]), numpy.array([-1, 3])]),
    "put_along_axis": (_put_along_axis, A, [numpy.array([[0], [-6], [1]]), numpy.array([[4]] * 3)]),
}


def _numpy_result(fn, x, i):
    """fn's NumPy result, or the exception NumPy raises."""
    try:
        return fn(numpy, x.copy(), i), None
    except Exception as e:  # noqa: BLE001 (the oracle's exception is the expected one)
        return None, e


def _check(expected, error, run):
    if error is not None:
        with pytest.raises(type(error)) as info:
            run()
        assert str(info.value) == str(error)
    else:
        numpy.testing.assert_array_equal(numpy.asarray(run()), expected)


@pytest.mark.parametrize("tier", list(TIERS))
@pytest.mark.parametrize("name", list(CASES))
def test_traced_index_raises_as_numpy_does(name, tier):
    fn, x, indices = CASES[name]
    jitted = ast.jit(lambda x, i: fn(ast, x, i), **TIERS[tier])
    for i in indices:
        expected, error = _numpy_result(fn, x, i)
        argument = x.copy()
        _check(expected, error, lambda: jitted(argument, i))
        numpy.testing.assert_array_equal(argument, x)  # the caller's array is never written


@pytest.mark.parametrize("name", list(CASES))
def test_eager_index_raises_as_numpy_does(name):
    fn, x, indices = CASES[name]
    for i in indices:
        expected, error = _numpy_result(fn, x, i)
        _check(expected, error, lambda: fn(ast, ast.asarray(x), ast.asarray(i)))


def test_compiled_kernels_around_a_checked_gather():
    """A plan with kernels before and after the gather (tier 1) still checks it."""
    f = ast.jit(lambda v, i: (v * 2.0)[i] + 1.0, tiered=False)
    numpy.testing.assert_array_equal(f(V, numpy.array([4, -5])), V[[4, -5]] * 2.0 + 1.0)
    with pytest.raises(IndexError, match=r"^index 5 is out of bounds for axis 0 with size 5$"):
        f(V, numpy.array([4, 5]))


def test_choose_traced_entry_raises_value_error():
    choices = [numpy.arange(3.0), numpy.arange(3.0) + 10]
    f = ast.jit(lambda a: ast.choose(a, [ast.asarray(c) for c in choices]))
    numpy.testing.assert_array_equal(f(numpy.array([0, 1, 1])), numpy.choose([0, 1, 1], choices))
    for bad in ([0, -1, 1], [0, 2, 1]):
        with pytest.raises(ValueError, match="invalid entry in choice array"):
            numpy.choose(bad, choices)
        with pytest.raises(ValueError, match="invalid entry in choice array"):
            f(numpy.array(bad))


def test_error_leaves_the_written_array_unchanged():
    for fn, x, i in [
        (lambda xp, w, i: w.__setitem__(i, 0.0), V, numpy.array([1, 7])),
        (lambda xp, w, i: xp.put(w, i, -1.0), V, numpy.array([1, -6])),
        (lambda xp, w, i: xp.put_along_axis(w, i, -1.0, axis=1), A, numpy.array([[0], [5], [1]])),
    ]:
        with pytest.raises(IndexError):
            fn(numpy, x.copy(), i)
        w = ast.asarray(x.copy())
        with pytest.raises(IndexError):
            fn(ast, w, ast.asarray(i))
        numpy.testing.assert_array_equal(numpy.asarray(w), x)


# -- grad and vmap ---------------------------------------------------------------------------------


def test_grad_checks_the_index():
    def loss(v, i):
        return (v[i] ** 2).sum()

    i = numpy.array([1, 4, 1])
    expected = numpy.zeros(5)
    numpy.add.at(expected, i, 2 * V[i])
    for grad in (ast.grad(loss), ast.jit(ast.grad(loss)), ast.jit(ast.grad(loss), tiered=False)):
        numpy.testing.assert_array_equal(grad(V, i), expected)
        with pytest.raises(IndexError, match=r"^index 7 is out of bounds for axis 0 with size 5$"):
            grad(V, numpy.array([1, 7]))


def test_vjp_of_a_write_checks_the_index():
    def f(v, i):
        w = v * 1.0
        w[:, i] = 0.0
        return w

    def cotangent(a, i):
        _, back = ast.vjp(lambda b: f(b, i), a)
        return back(ast.ones((3, 5)))[0]

    expected = numpy.ones((3, 5))
    expected[:, [1, 3]] = 0.0
    for run in (cotangent, ast.jit(cotangent)):
        numpy.testing.assert_array_equal(run(ast.asarray(A), ast.asarray([1, 3])), expected)
    with pytest.raises(IndexError, match=r"^index 5 is out of bounds for axis 1 with size 5$"):
        ast.jit(cotangent)(A, numpy.array([1, 5]))


@pytest.mark.parametrize("wrap", [lambda f: f, ast.jit])
def test_vmap_checks_every_example(wrap):
    f = wrap(ast.vmap(lambda a, i: a[:, i], in_axes=(0, 0)))
    batch = numpy.arange(30.0).reshape(2, 3, 5)
    expected = [batch[0][:, 1], batch[1][:, -5]]
    numpy.testing.assert_array_equal(f(batch, numpy.array([1, -5])), expected)
    with pytest.raises(IndexError, match=r"^index 7 is out of bounds for axis 1 with size 5$"):
        f(batch, numpy.array([1, 7]))
    g = wrap(ast.vmap(lambda v, i: v[i], in_axes=(None, 0)))
    with pytest.raises(IndexError, match=r"^index -6 is out of bounds for axis 0 with size 5$"):
        g(ast.asarray(V), numpy.array([0, -6]))


def _start_to_stop(v, start, stop):
    def body(c):
        return c[0] + 1, c[1] + v[c[0]]

    return ast.while_loop(lambda c: c[0] < stop, body, (start, ast.asarray(0.0)))[1]


@pytest.mark.parametrize("wrap", [lambda f: f, ast.jit])
def test_vmap_of_while_checks_running_examples_only(wrap):
    """A finished example's carry stays put while the others run: its index (here 5) is not read."""
    f = wrap(ast.vmap(_start_to_stop, in_axes=(None, 0, 0)))
    starts, stops = numpy.array([3, 0]), numpy.array([5, 5])
    numpy.testing.assert_array_equal(f(ast.asarray(V), starts, stops), [V[3:].sum(), V.sum()])
    with pytest.raises(IndexError, match=r"^index 5 is out of bounds for axis 0 with size 5$"):
        f(ast.asarray(V), starts, numpy.array([4, 6]))


@pytest.mark.parametrize("wrap", [lambda f: f, ast.jit])
def test_vmap_of_cond_checks_the_taken_branch_only(wrap):
    def g(v, i):
        return ast.cond(i < 5, lambda: v[i], lambda: v[i - 9])

    f = wrap(ast.vmap(g, in_axes=(None, 0)))
    i = numpy.array([3, 7, 12])
    numpy.testing.assert_array_equal(f(ast.asarray(V), i), [V[3], V[7 - 9], V[12 - 9]])
    with pytest.raises(IndexError, match=r"^index 6 is out of bounds for axis 0 with size 5$"):
        f(ast.asarray(V), numpy.array([3, 3, 15]))
    with pytest.raises(IndexError, match=r"^index -7 is out of bounds for axis 0 with size 5$"):
        f(ast.asarray(V), numpy.array([3, -7, 12]))


def test_vmap_of_cond_with_a_shared_index():
    def h(p, v, i):
        return ast.cond(p, lambda: v[i], lambda: v[0])

    f = ast.jit(ast.vmap(h, in_axes=(0, None, None)))
    numpy.testing.assert_array_equal(f(numpy.array([False, False]), V, 7), [0.0, 0.0])
    with pytest.raises(IndexError, match=r"^index 7 is out of bounds for axis 0 with size 5$"):
        f(numpy.array([False, True]), V, 7)


# -- control-flow bodies ---------------------------------------------------------------------------

BODIES = {
    "cond": lambda v, i: ast.cond(i > 0, lambda: v[i], lambda: v[0]),
    "while_loop": lambda v, i: _start_to_stop(v, ast.asarray(0), i),
    "fori_loop": lambda v, i: ast.fori_loop(0, i, lambda k, s: s + v[k], ast.asarray(0.0)),
    "scan": lambda v, i: ast.scan(lambda c, k: (c + v[k], v[k]), ast.asarray(0.0), i)[0],
}


@pytest.mark.parametrize("tier", list(TIERS))
@pytest.mark.parametrize("name", list(BODIES))
def test_control_flow_bodies_check_the_index(name, tier):
    f = ast.jit(BODIES[name], **TIERS[tier])
    good, bad = (5, 6) if name in ("while_loop", "fori_loop") else (4, 7)
    if name == "scan":
        good, bad = numpy.array([1, 4]), numpy.array([1, 7])
        expected = V[good].sum()
    elif name == "cond":
        expected = V[good]
    else:
        expected = V[:good].sum()
    numpy.testing.assert_array_equal(f(V, good), expected)
    with pytest.raises(IndexError, match=r"out of bounds for axis 0 with size 5$"):
        f(V, bad)


# -- the explicit modes ----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["clip", "wrap"])
def test_take_modes_traced(mode):
    i = numpy.array([[7, -9], [2, -1]])
    f = ast.jit(lambda a, i: ast.take(a, i, axis=1, mode=mode))
    numpy.testing.assert_array_equal(f(A, i), numpy.take(A, i, axis=1, mode=mode))


@pytest.mark.parametrize("mode", ["clip", "wrap"])
def test_along_axis_modes_traced(mode):
    i = numpy.array([[7], [-9], [2]])
    fixed = numpy.clip(i, 0, 4) if mode == "clip" else i % 5  # the extension's meaning, as take's
    f = ast.jit(lambda a, i: ast.take_along_axis(a, i, axis=1, mode=mode))
    numpy.testing.assert_array_equal(f(A, i), numpy.take_along_axis(A, fixed, axis=1))

    def put(xp, a, i, **mode_kw):
        w = a.copy()
        xp.put_along_axis(w, i, -1.0, axis=1, **mode_kw)
        return w

    g = ast.jit(lambda a, i: put(ast, a, i, mode=mode))
    numpy.testing.assert_array_equal(g(A, i), put(numpy, A, fixed))


def test_put_modes_traced():
    i = numpy.array([0, 9, -7, 3])

    def put(xp, v, i, mode):
        w = v.copy()
        xp.put(w, i, numpy.array([10.0, 20.0, 30.0, 40.0]), mode=mode)
        return w

    for mode in ("clip", "wrap"):
        f = ast.jit(lambda v, i: put(ast, v, i, mode))
        numpy.testing.assert_array_equal(f(V, i), put(numpy, V, i, mode))
    drop = ast.jit(lambda v, i: put(ast, v, i, "drop"))
    numpy.testing.assert_array_equal(drop(V, i), [10.0, 1.0, 2.0, 40.0, 4.0])


def test_put_along_axis_drop():
    i = numpy.array([[0, 5], [-1, -6], [9, 2]])
    expected = A.copy()
    for row, cols in enumerate(i):
        for col, value in zip(cols, (7.0, 8.0)):
            if -5 <= col < 5:
                expected[row, col] = value
    values = numpy.array([7.0, 8.0])
    for run in (lambda f: f, ast.jit):

        def drop(a, i):
            w = ast.asarray(a).copy()
            ast.put_along_axis(w, i, values, axis=1, mode="drop")
            return w

        numpy.testing.assert_array_equal(run(drop)(A, i), expected)


def test_unknown_mode():
    w = ast.asarray(V.copy())
    with pytest.raises(ValueError, match="clipmode must be one of"):
        ast.put(w, [1], 1.0, mode="ignore")
    with pytest.raises(ValueError, match="clipmode must be one of 'clip', 'raise', or 'wrap'"):
        ast.take(w, [1], mode="drop")
