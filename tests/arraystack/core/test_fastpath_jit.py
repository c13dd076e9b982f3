"""The C fast path of jitted functions' cached calls (arraystack/_core/_fastpath_jit.c) against `_call`, the
Python definition: the same results, types and counters with the accelerator on and off, and every case
it must leave to Python (keywords, captured arrays to re-read, disable_jit, tracing, a new shape)."""

from __future__ import annotations

import collections

import numpy as np
import pytest

import arraystack as ast
from arraystack._core.array import _fastpath

pytestmark = pytest.mark.skipif(_fastpath is None, reason="the C accelerator is not built")

Pair = collections.namedtuple("Pair", "first second")



def _same(got, want):
    assert type(got) is type(want) or isinstance(got, ast.ndarray)
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
    elif isinstance(want, dict):
        assert sorted(got) == sorted(want)
        for k in want:
            _same(got[k], want[k])
    else:
        assert isinstance(got, ast.ndarray)
        np.testing.assert_array_equal(np.asarray(got), want)
        assert np.asarray(got).dtype == np.asarray(want).dtype


CASES = [
    ("one output", lambda a, b: a * b + 1.0),
    ("a 0-d output", lambda a, b: ast.sum(a * b)),
    ("a literal output", lambda a, b: 2.5),
    ("an argument returned", lambda a, b: a),
    ("a tuple", lambda a, b: (a + b, a - b)),
    ("a dict", lambda a, b: {"p": a * 2.0, "q": ast.max(b)}),
    ("a namedtuple", lambda a, b: Pair(a, b * b)),
    ("a product", lambda a, b: a[:, None] * b[None, :] @ b),
]


@pytest.mark.parametrize("name, fn", CASES, ids=[c[0] for c in CASES])
def test_cached_calls_give_what_the_function_gives(accelerated, name, fn):
    a = np.linspace(-1.0, 2.0, 5)
    b = np.arange(5.0)
    want = fn(ast.asarray(a), ast.asarray(b))
    want = ast.tree_util.tree_map(np.asarray, want) if not isinstance(want, float) else np.asarray(want)
    jf = ast.jit(fn, tiered=False)
    for arg_a, arg_b in ((a, b), (ast.asarray(a), ast.asarray(b)), (ast.asarray(a), b)):
        for _ in range(3):  # the first call traces; the others are cached
            _same(jf(arg_a, arg_b), want)
    stats = jf.stats()
    assert stats["calls"] == 9 and stats["traces"] == 1 and stats["cache_hits"] == 8


def test_what_the_c_path_leaves_to_python(accelerated):
    traced = []

    def f(x, scale=1.0):
        traced.append(1)
        return x * scale + captured

    global captured
    captured = np.ones(3)
    jf = ast.jit(f, tiered=False)
    x = np.arange(3.0)
    np.testing.assert_array_equal(np.asarray(jf(x)), x + 1)
    np.testing.assert_array_equal(np.asarray(jf(x, scale=2.0)), 2 * x + 1)  # a keyword
    captured = np.full(3, 5.0)  # a captured global: re-read on every call
    np.testing.assert_array_equal(np.asarray(jf(x)), x + 5)
    np.testing.assert_array_equal(np.asarray(jf(np.arange(4.0)[:3])), x + 5)  # a view: same key
    n = len(traced)
    ast.config.disable_jit = True
    try:
        np.testing.assert_array_equal(np.asarray(jf(x)), x + 5)
        assert len(traced) == n + 1  # ran the Python function itself
    finally:
        ast.config.disable_jit = False
    plain = ast.jit(lambda y: traced.append(1) or y * 3.0, tiered=False)  # no captures
    plain(x)
    plain(x)
    n = len(traced)
    ast.config.disable_jit = True
    try:
        np.testing.assert_array_equal(np.asarray(plain(x)), 3 * x)
        assert len(traced) == n + 1
    finally:
        ast.config.disable_jit = False
    outer = ast.jit(lambda y: jf(y) * 2.0, tiered=False)  # called while tracing: traced, not run
    np.testing.assert_array_equal(np.asarray(outer(x)), 2 * (x + 5))
    captured = np.full(4, 5.0)
    np.testing.assert_array_equal(np.asarray(jf(np.arange(4.0))), np.arange(4.0) + 5)  # new shapes
    with pytest.raises(ValueError):
        jf(np.arange(6.0).reshape(2, 3))  # (2, 3) + (4,): NumPy's broadcasting error, no crash


captured = None


def test_a_failing_run_raises_and_the_next_call_works(accelerated):
    jf = ast.jit(lambda i: ast.cumsum(i) * 2, tiered=False)
    x = np.arange(6)
    jf(x)
    ast.config.memory_limit = x.nbytes + 8
    try:
        with pytest.raises(ast.OutOfMemory):
            jf(x)
    finally:
        ast.config.memory_limit = None
    np.testing.assert_array_equal(np.asarray(jf(x)), np.cumsum(x) * 2)


def test_no_arguments_many_arguments_and_methods(accelerated):
    const = ast.jit(lambda: ast.arange(3.0) * 2, tiered=False)
    for _ in range(3):
        np.testing.assert_array_equal(np.asarray(const()), np.arange(3.0) * 2)
    many = ast.jit(lambda *xs: sum(xs[1:], xs[0]), tiered=False)  # more arguments than the C path takes
    xs = [np.full(2, float(i)) for i in range(20)]
    for _ in range(3):
        np.testing.assert_array_equal(np.asarray(many(*xs)), np.full(2, float(sum(range(20)))))

    class Model:
        scale = 3.0

        def apply(self, x):
            return x * self.scale

    Model.apply = ast.jit(Model.apply, static_argnums=0, tiered=False)  # a method: self is static
    model = Model()
    for _ in range(3):
        np.testing.assert_array_equal(np.asarray(model.apply(np.ones(2))), np.full(2, 3.0))
    assert const.stats()["cache_hits"] == 2 and many.stats()["cache_hits"] == 2
