"""Writes inside loops compiled whole (backends/numba/loop_structure.py): a body's `x.at[i].set(v)` or
`x[a:b] = v` into its own carry runs in the loop's copy of that carry, a window per write; the results are
the host loop's and NumPy's, and the loop's operands are never written."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.numba import loop_source, loops

import arraystack as ast


def _plan(f, *args) -> str:
    return ast.jit(f, tiered=False).lower(*args).compile().as_text()


def _host(f, monkeypatch, *args):
    def refuse(eqn, cache_dir, host_step):
        raise loop_source.Unsupported("switched off by the test")

    with monkeypatch.context() as m:
        m.setattr(loops, "compile_loop", refuse)
        return ast.jit(f, tiered=False)(*args)


def _check(f, monkeypatch, want, *args, in_place):
    plan = _plan(f, *args)
    assert "compiled loop (numba)" in plan, plan
    assert ("in-place" in plan) == in_place, plan
    before = [np.array(a, copy=True) for a in args]
    got = ast.jit(f, tiered=False)(*args)
    host = _host(f, monkeypatch, *args)
    for g, h, w in zip(*(ast.tree_util.leaves(v) for v in (got, host, want))):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
        np.testing.assert_array_equal(np.asarray(h), np.asarray(w))
    for a, b in zip(args, before):
        np.testing.assert_array_equal(np.asarray(a), b)  # the loop never writes its operands


def test_rows_written_at_the_loop_index(monkeypatch):
    x = np.random.default_rng(0).standard_normal((37, 5))

    def f(x, out):
        def body(i, out):
            out[i] = x[i] * 2 + 1  # a scatter at a traced index
            return out

        return ast.fori_loop(0, x.shape[0], body, out)

    _check(f, monkeypatch, x * 2 + 1, x, np.zeros_like(x), in_place=True)


def test_a_window_and_a_row_read_before_the_write(monkeypatch):
    def f(c):
        def body(i, c):
            c = c.at[i % 4].set(c[(i + 1) % 4] + i)  # the gather copies before the write
            c[4:6] = i * 1.0  # a static window: update_slice
            return c

        return ast.fori_loop(0, 9, body, c)

    c = np.arange(8.0)
    want = c.copy()
    for i in range(9):
        want[i % 4] = want[(i + 1) % 4] + i
        want[4:6] = i
    _check(f, monkeypatch, want, c, in_place=True)


def test_a_while_loop_filling_its_carry(monkeypatch):
    def f(v):
        def body(s):
            k, v = s
            return k + 1, v.at[k].set(k * k)

        return ast.while_loop(lambda s: s[0] < 6, body, (0, v))

    v = np.full(6, -1)
    _check(f, monkeypatch, (6, np.arange(6) ** 2), v, in_place=True)


@pytest.mark.parametrize(
    "case", ["view kept", "old value read after", "written twice", "new value computed"]
)
def test_a_carry_something_else_still_sees_is_copied(monkeypatch, case):
    """The first three would give wrong values in place (a slice is a view in the loop's source)."""

    def f(c, d):
        def body(i, s):
            c, d = s
            y = c.at[i % 3].set(i * 1.0)
            if case == "view kept":
                return y, y[1:4] * 1  # d: a view of y's buffer
            if case == "old value read after":
                return y, d + c[0:3].sum()
            if case == "written twice":
                return y, y.at[0].set(-1.0)[1:4]
            return y, ast.sum(y * 2) + d  # a kernel reads y: a new array

        return ast.fori_loop(0, 5, body, (c, d))

    c, d = np.arange(5.0), np.zeros(3)
    cc, dd = c.copy(), d.copy()
    for i in range(5):
        y = cc.copy()
        y[i % 3] = i
        if case == "view kept":
            dd = y[1:4] * 1
        elif case == "old value read after":
            dd = dd + cc[0:3].sum()
        elif case == "written twice":
            z = y.copy()
            z[0] = -1
            dd = z[1:4]
        else:
            dd = np.sum(y * 2) + dd
        cc = y
    in_place = case == "new value computed"
    _check(f, monkeypatch, (cc, dd), c, d, in_place=in_place)


def test_a_host_loop_writes_its_own_copies(monkeypatch):
    """A body that does not compile whole (a sort) runs as a host loop; the carry it writes is donated to
    the body's plan, which writes it in place. A carry that becomes a constant's value (the cond's second
    branch) arrives as a copy, so the constant is never written."""

    def f(x, w):
        def body(i, out):
            out[i % 4] = ast.sort(x[i]) * 2
            return ast.cond(i == 2, lambda: w, lambda: out)

        return ast.fori_loop(0, x.shape[0], body, ast.zeros((4, x.shape[1])))

    x = np.random.default_rng(3).standard_normal((6, 5))
    w = np.full((4, 5), 7.0)
    plan = _plan(f, x, w)
    assert "host loop over compiled bodies" in plan, plan
    want = np.zeros((4, 5))
    for i in range(6):
        want[i % 4] = np.sort(x[i]) * 2
        if i == 2:
            want = w.copy()
    before = w.copy()
    for tiered in (False, True):  # the compiled plan and the NumPy twin (tier 0)
        np.testing.assert_array_equal(np.asarray(ast.jit(f, tiered=tiered)(x, w)), want)
        np.testing.assert_array_equal(w, before)
