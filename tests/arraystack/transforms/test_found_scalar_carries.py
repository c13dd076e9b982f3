"""Python scalars in control flow: a while_loop/fori_loop/scan carry or a cond/switch operand that
starts as a Python scalar is a weakly typed 0-d value, as in JAX, eagerly, in every jit tier and under
grad. The oracle is the same program run by plain Python loops and branches on NumPy values (NEP 50
promotes the scalars there)."""

from __future__ import annotations

import types

import numpy
import pytest

import arraystack as ast

V = numpy.arange(1.0, 6.0)
V32 = V.astype(numpy.float32)


def _while_loop(cond_fun, body_fun, val):
    while cond_fun(val):
        val = body_fun(val)
    return val


def _fori_loop(lower, upper, body_fun, val):
    for i in range(int(lower), int(upper)):
        val = body_fun(numpy.int64(i), val)
    return val


def _scan(f, carry, xs):
    ys = []
    for x in xs:
        carry, y = f(carry, x)
        ys.append(y)
    return carry, numpy.stack(ys)


def _switch(index, branches, *operands):
    return branches[min(max(int(index), 0), len(branches) - 1)](*operands)


def _cond(pred, true_fun, false_fun, *operands):
    return true_fun(*operands) if pred else false_fun(*operands)


# the oracle's control flow: Python statements on NumPy values
PYTHON = types.SimpleNamespace(
    while_loop=_while_loop, fori_loop=_fori_loop, scan=_scan, switch=_switch, cond=_cond
)

TIERS = {
    "eager": lambda f: f,
    "tiered": ast.jit,
    "compiled": lambda f: ast.jit(f, tiered=False),
    "reference": lambda f: ast.jit(f, backend="reference"),
}

# name: (fn(lax, xp, v, n), v); lax is arraystack or PYTHON, n a Python int (a jit argument)
CASES = {
    "while_int_and_float": (
        lambda lax, xp, v, n: lax.while_loop(
            lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] + v.sum()), (0, 0.0)
        ),
        V,
    ),
    "while_scalar": (lambda lax, xp, v, n: lax.while_loop(lambda c: c < n, lambda c: c + 1, 0), V),
    "while_bool_flag": (
        lambda lax, xp, v, n: lax.while_loop(
            lambda c: c[1], lambda c: (c[0] + 1, c[0] + 1 < n), (0, True)
        ),
        V,
    ),
    "while_complex": (
        lambda lax, xp, v, n: lax.while_loop(
            lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 1j + v[0]), (0, 1 + 0j)
        ),
        V,
    ),
    # a weak carry takes the dtype the body gives it (NEP 50: int with int8 is int8)
    "while_int_becomes_int8": (
        lambda lax, xp, v, n: lax.while_loop(lambda c: c < n, lambda c: c + numpy.int8(1), 0),
        V,
    ),
    "while_float_becomes_float32": (
        lambda lax, xp, v, n: lax.while_loop(
            lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] + v.sum()), (0, 0.0)
        ),
        V32,
    ),
    "fori_static_bounds": (
        lambda lax, xp, v, n: lax.fori_loop(0, 3, lambda i, c: (c[0] + i, c[1] + v[i]), (0, 0.0)),
        V,
    ),
    "fori_traced_bound": (
        lambda lax, xp, v, n: lax.fori_loop(
            0, n, lambda i, c: (c[0] + (i < 2), c[1] * 2.0), (0, 1.0)
        ),
        V,
    ),
    "fori_float_becomes_float32": (
        lambda lax, xp, v, n: lax.fori_loop(0, n, lambda i, c: c + v[i], 0.0),
        V32,
    ),
    "scan_int_carry": (lambda lax, xp, v, n: lax.scan(lambda c, x: (c + 1, c * x), 0, v), V),
    "scan_tuple_carry": (
        lambda lax, xp, v, n: lax.scan(lambda c, x: ((c[0] + 1, c[1] + x), c[0] < 2), (0, 0.0), v),
        V,
    ),
    "scan_float_becomes_float32": (
        lambda lax, xp, v, n: lax.scan(lambda c, x: (c + x, x * c), 0.0, v),
        V32,
    ),
    "cond_scalar_operands": (
        lambda lax, xp, v, n: lax.cond(
            n > 2, lambda a, b: (a + 1, b * 2.0 + v.sum()), lambda a, b: (a - 1, b), 3, 1.5
        ),
        V,
    ),
    "cond_compares_scalars": (
        lambda lax, xp, v, n: lax.cond(n > 2, lambda a, b: a < b, lambda a, b: a > b, 1, 2),
        V,
    ),
    "cond_returns_a_scalar": (
        lambda lax, xp, v, n: lax.cond(n > 2, lambda b: 1.0, lambda b: b.sum(), v),
        V,
    ),
    "switch_scalar_operand": (
        lambda lax, xp, v, n: lax.switch(n - 4, [lambda a: a + 1, lambda a: a * 3], 3),
        V,
    ),
}


def _numpy_values(out):
    leaves = out if isinstance(out, tuple) else (out,)
    flat = []
    for leaf in leaves:
        flat.extend(_numpy_values(leaf) if isinstance(leaf, tuple) else [numpy.asarray(leaf)])
    return flat


def _assert_matches(expected, actual):
    expected, actual = _numpy_values(expected), _numpy_values(actual)
    assert len(actual) == len(expected)
    for e, a in zip(expected, actual):
        assert a.dtype == e.dtype, f"dtype {a.dtype} != {e.dtype}"
        numpy.testing.assert_allclose(a, e, rtol=1e-6 if e.dtype.itemsize <= 8 else 1e-13)


@pytest.mark.parametrize("tier", list(TIERS))
@pytest.mark.parametrize("name", list(CASES))
def test_python_scalar_carries_and_operands(name, tier):
    fn, v = CASES[name]
    expected = fn(PYTHON, numpy, v.copy(), 5)
    actual = TIERS[tier](lambda v, n: fn(ast, ast, v, n))(ast.asarray(v), 5)
    _assert_matches(expected, actual)


@pytest.mark.parametrize("tier", list(TIERS))
def test_while_loop_reproducer(tier):
    f = TIERS[tier](
        lambda v, n: ast.while_loop(
            lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] + v.sum()), (0, 0.0)
        )
    )
    count, total = f(numpy.arange(5.0) if tier != "eager" else ast.arange(5.0), 5)
    assert numpy.asarray(count).dtype == numpy.int64 and int(count) == 5
    assert numpy.asarray(total).dtype == numpy.float64 and float(total) == 50.0


@pytest.mark.parametrize("tier", list(TIERS)[1:])
def test_traced_python_ints_compare(tier):
    """Two weakly typed integers (Python int arguments) compare as NumPy compares int64 values."""
    f = TIERS[tier](lambda a, b: (a < b, a == b, a >= b))
    _assert_matches((numpy.False_, numpy.False_, numpy.True_), f(5, 3))


@pytest.mark.parametrize("tier", list(TIERS)[1:])
def test_cond_joins_a_scalar_branch_with_a_float32_branch(tier):
    """Traced, both branches are traced and a Python-scalar output takes the other branch's dtype
    (float32), as NEP 50 promotes it; eagerly only the taken branch runs and returns the scalar."""
    f = TIERS[tier](lambda v, n: ast.cond(n > 2, lambda a: a + v.sum(), lambda a: a, 1.5))
    for n, value in ((5, 1.5 + V32.sum()), (1, 1.5)):
        out = numpy.asarray(f(ast.asarray(V32), n))
        assert out.dtype == numpy.float32
        assert out == numpy.float32(value)


def test_strongly_typed_branches_of_two_dtypes_still_raise():
    f = ast.jit(
        lambda v, n: ast.cond(n > 2, lambda a: a.sum(), lambda a: a.astype(numpy.float32).sum(), v)
    )
    with pytest.raises(TypeError, match="switch branches must return the same types"):
        f(V, 5)


# -- grad: the oracle is central differences of the Python program --------------------------------

GRAD_CASES = {
    "fori_static_bounds": lambda lax, x: lax.fori_loop(0, 3, lambda i, c: c + x[i] * x[i], 0.0),
    "fori_scalar_tuple": lambda lax, x: lax.fori_loop(
        0, 3, lambda i, c: (c[0] + 1, c[1] * x[i] + c[0]), (0, 1.0)
    )[1],
    "scan_scalar_carry": lambda lax, x: lax.scan(lambda c, e: (c * e + 1.0, c), 0.0, x)[1].sum(),
    "scan_int_and_float": lambda lax, x: lax.scan(
        lambda c, e: ((c[0] + 1, c[1] + e * c[0]), c[1]), (0, 0.0), x
    )[0][1],
    "cond_scalar_operand": lambda lax, x: lax.cond(
        x[0] > 0, lambda a, b: a * b.sum(), lambda a, b: a - b.sum(), 2.0, x
    ),
    "cond_scalar_branch": lambda lax, x: lax.cond(
        x[0] < 0, lambda b: 1.0, lambda b: (b * b).sum(), x
    ),
}


def _central_differences(f, x, eps=1e-6):
    out = numpy.zeros_like(x)
    for k in range(x.size):
        step = numpy.zeros_like(x)
        step[k] = eps
        out[k] = (float(f(x + step)) - float(f(x - step))) / (2 * eps)
    return out


@pytest.mark.parametrize("tier", list(TIERS))
@pytest.mark.parametrize("name", list(GRAD_CASES))
def test_grad_through_python_scalar_carries(name, tier):
    fn = GRAD_CASES[name]
    expected = _central_differences(lambda x: fn(PYTHON, x), V)
    actual = TIERS[tier](ast.grad(lambda x: fn(ast, x)))(ast.asarray(V))
    numpy.testing.assert_allclose(numpy.asarray(actual), expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("tier", list(TIERS))
def test_grad_of_a_float32_loop_from_a_python_float(tier):
    f = TIERS[tier](ast.grad(lambda x: ast.fori_loop(0, 3, lambda i, c: c + x[i] * x[i], 0.0)))
    out = numpy.asarray(f(ast.asarray(V32)))
    assert out.dtype == numpy.float32
    numpy.testing.assert_array_equal(out, [2.0, 4.0, 6.0, 0.0, 0.0])


@pytest.mark.parametrize("tier", list(TIERS))
def test_jvp_through_a_while_loop_from_python_scalars(tier):
    def f(x):
        return ast.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * x), (0, 1.0))[1]

    primal, tangent = TIERS[tier](lambda x: ast.jvp(f, (x,), (ast.asarray(1.0),)))(ast.asarray(2.0))
    assert float(primal) == 8.0 and float(tangent) == 12.0  # x**3 and 3 * x**2
