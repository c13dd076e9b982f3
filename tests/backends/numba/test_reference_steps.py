"""Reference steps inside compiled plans: a product in matmul's layout calls matmul itself (no layout test
per call), a plan of one step runs without the interpreter; results equal NumPy's, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import arraystack as ast
from arraystack.backends.reference import reference_step
from arraystack.ir.reference import dot_general_is_matmul

pytestmark = pytest.mark.numba

rng = np.random.default_rng(3)

SHAPES = [
    ((3,), (3,)),  # a 0-d result: through the rule, which makes it an array
    ((2, 3), (3,)),
    ((3,), (3, 4)),
    ((2, 3), (3, 4)),
    ((5, 2, 3), (5, 3, 4)),
    ((5, 2, 3), (3, 4)),
    ((0, 3), (3, 2)),
]


def _product_eqn(f, *args):
    graph = ast.make_graph(f)(*args)
    (eqn,) = [e for e in graph.eqns if e.prim.name == "dot_general"]
    return eqn


@pytest.mark.parametrize("sa, sb", SHAPES)
def test_jitted_products_equal_numpy(sa, sb):
    a, b = rng.standard_normal(sa), rng.standard_normal(sb)
    for f, want in (
        (lambda x, y: x @ y, a @ b),
        (lambda x, y: ast.matmul(x, y) * 2.0, (a @ b) * 2.0),
    ):
        got = ast.jit(f, tiered=False)(a, b)
        assert isinstance(got, ast.ndarray) and got.shape == np.shape(want)
        np.testing.assert_array_equal(np.asarray(got), want)


def test_matmul_layout_is_recognized_and_only_it():
    a, b, v = np.ones((2, 3)), np.ones((3, 4)), np.ones(3)
    assert dot_general_is_matmul(_product_eqn(lambda x, y: x @ y, a, b))
    assert reference_step(_product_eqn(lambda x, y: x @ y, a, b)) is np.matmul
    assert not dot_general_is_matmul(
        _product_eqn(lambda x, y: x @ y, v, v)
    )  # 0-d: the rule's asarray
    other = _product_eqn(
        lambda x, y: ast.tensordot(x, y, axes=([0], [0])), a, a
    )  # contracts axis 0
    assert not dot_general_is_matmul(other)
    got = ast.jit(lambda x, y: ast.tensordot(x, y, axes=([0], [0])), tiered=False)(a * 2, a + 1)
    np.testing.assert_array_equal(np.asarray(got), np.tensordot(a * 2, a + 1, axes=([0], [0])))


def test_a_plan_of_many_steps_runs_straight_through():
    """interpret() as one generated function: literal operands and outputs, an unused argument, an
    argument returned as it is, steps of one result and steps returning a list (fused regions)."""
    from arraystack.backends.executable import interpret
    from arraystack.backends.numba import compile_numba

    def f(a, b, unused):
        s = ast.sort(a)
        return a, s * 2.0 + 1.0, ast.cumsum(s), 3.0, ast.sum(s) - 0.5, b * 2.0, b + 1.0

    x, y = np.array([3.0, 1.0, 2.0]), np.array([0.5, -1.0, 4.0])
    want = [x, np.sort(x) * 2 + 1, np.cumsum(np.sort(x)), 3.0, np.sum(x) - 0.5, y * 2, y + 1]
    graph = ast.make_graph(f)(x, y, y)
    optimized = ast.jit(f).lower(x, y, y).optimized  # fused regions: steps returning lists
    assert any(e.prim.multiple_results for e in optimized.eqns)
    plans = [
        interpret(graph, [reference_step(e) for e in graph.eqns]),
        compile_numba(optimized).runner,
    ]
    for run in plans:
        got = run([x, y, y])
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(np.asarray(g), w)


def test_kernel_steps_written_into_the_plan_keep_their_layout_cases():
    """A plan calls a flat kernel itself when its operands are C-ordered arrays; a transposed or strided
    intermediate goes through the step, which keeps NumPy's layout of the result (x.T * 2: Fortran)."""
    x = np.arange(12.0).reshape(3, 4)
    cases = [
        (lambda a: ast.sort(a, axis=0).T * 2.0, lambda a: np.sort(a, axis=0).T * 2.0),
        (lambda a: ast.sort(a, axis=1)[:, ::2] + 1.0, lambda a: np.sort(a, axis=1)[:, ::2] + 1.0),
        (lambda a: ast.cumsum(a, axis=0) * 3.0 - 1.0, lambda a: np.cumsum(a, axis=0) * 3.0 - 1.0),
    ]
    for f, g in cases:
        jf = ast.jit(f, tiered=False)
        for _ in range(2):
            got, want = np.asarray(jf(x)), g(x)
            np.testing.assert_array_equal(got, want)
            assert got.flags.f_contiguous == want.flags.f_contiguous
            assert got.flags.c_contiguous == want.flags.c_contiguous


def test_one_step_reduction_plans_call_their_kernel_directly_and_keep_every_other_case():
    """A plan of one staged or column kernel (a small reduction) calls the kernel itself for C-ordered
    NumPy operands, and goes through the step otherwise: Fortran-ordered operands (their own kernel),
    strided ones, a merged region's (reshaped operands), big outputs (pooled); tests/backends/test_memory.py
    checks a memory limit. Results equal NumPy's in every case; the lean runner serves only the plain one."""
    from arraystack.backends.numba import compile_numba

    x = rng.standard_normal((6, 40))
    cases = [
        (lambda a: a.sum(axis=0), lambda a: a.sum(axis=0), x),
        (lambda a: a.max(axis=1), lambda a: a.max(axis=1), x),
        (lambda a: (a * a).sum(axis=1) - 1.0, lambda a: (a * a).sum(axis=1) - 1.0, x),
        (lambda a: a.sum(axis=0), lambda a: a.sum(axis=0), rng.standard_normal((5, 4, 3))),  # merged
        (lambda a: a.sum(axis=1), lambda a: a.sum(axis=1), rng.standard_normal((200_000, 3))),  # pooled output
    ]
    for f, g, a in cases:
        runner = compile_numba(ast.jit(f).lower(a).optimized).runner
        plain = runner.__qualname__.startswith("staged_runner")
        assert plain == (a.shape in ((6, 40),)), (a.shape, runner.__qualname__)
        wide = np.zeros(a.shape[:-1] + (2 * a.shape[-1],))
        wide[..., ::2] = a
        for operand in (a, np.asfortranarray(a), wide[..., ::2], a[::-1]):  # same shape, other layouts
            got = runner([operand])[0]
            np.testing.assert_allclose(got, g(operand), rtol=1e-12, atol=1e-12)
            assert got.shape == g(operand).shape
