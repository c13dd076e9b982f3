"""The C accelerator of the eager fast path (arraystack/_core/_fastpath.c) against the Python definitions it
short-cuts: every operator, indexing form and accelerated function gives the same value, dtype, type, view
aliasing and exception with the accelerator on and off."""

from __future__ import annotations

import pickle
import sys
import warnings

import numpy as np
import pytest

import arraystack as xp
from arraystack._core.array import _fastpath

pytestmark = pytest.mark.skipif(_fastpath is None, reason="the C accelerator is not built")

BINARY = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "@", "<", "<=", "==", "!=",
          ">", ">="]  # fmt: skip
UNARY = ["-", "+", "abs", "~"]


def _operands():
    """(name, factory) pairs: factory(xp_module) -> operand; arraystack arrays, scalars, NumPy values."""
    rng = np.random.default_rng(0)
    f8 = rng.standard_normal(6)
    i4 = rng.integers(-5, 5, 6).astype(np.int32)
    u1 = np.arange(6, dtype=np.uint8)
    return [
        ("f8", lambda: xp.array(f8)),
        ("f8-strided", lambda: xp.array(np.repeat(f8, 2))[::-2]),
        ("f4-0d", lambda: xp.array(np.float32(1.5))),
        ("i4", lambda: xp.array(i4)),
        ("u1", lambda: xp.array(u1)),
        ("b", lambda: xp.array(f8 > 0)),
        ("c16", lambda: xp.array(f8 + 1j)),
        ("2x3", lambda: xp.array(f8.reshape(2, 3))),
        ("3x2-i4", lambda: xp.array(i4.reshape(3, 2))),
        ("float", lambda: 2.5),
        ("int", lambda: 3),
        ("bigint", lambda: 300),
        ("bool", lambda: True),
        ("complex", lambda: 1 - 2j),
        ("np-f4", lambda: np.float32(0.25)),
        ("np-array", lambda: np.arange(6.0)),
        ("None", lambda: None),
        ("list", lambda: [1, 2, 3, 4, 5, 6]),
    ]


OPERANDS = _operands()


def _outcome(thunk):
    """What a call gives: ("value", dtype, shape, bytes, is-array) or ("raises", exception type)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = thunk()
    except Exception as e:  # noqa: BLE001  (the exception itself is the outcome compared)
        return ("raises", type(e))
    if isinstance(r, tuple):
        return tuple(_outcome(lambda x=x: x) for x in r)
    if isinstance(r, (xp.ndarray, np.ndarray, np.generic)):
        v = np.array(r)
        if v.dtype.kind in "fc":  # NumPy's strided and contiguous loops differ in NaN sign bits only
            v[np.isnan(v)] = np.nan
        return ("value", str(v.dtype), v.shape, v.tobytes())
    return ("other", repr(r))


def _numpy(x):
    return x._value if isinstance(x, xp.ndarray) else x  # the same buffer and strides: the same loops


def _both(thunk_factory):
    """The outcome with the accelerator on, off, and NumPy's on copies of the same operands.
    thunk_factory(convert) builds fresh operands (passing each through `convert`) and returns the call."""
    previous = _fastpath.set_enabled(True)
    try:
        on = _outcome(thunk_factory(lambda x: x))
        _fastpath.set_enabled(False)
        off = _outcome(thunk_factory(lambda x: x))
    finally:
        _fastpath.set_enabled(previous)
    ref = _outcome(thunk_factory(_numpy))
    return on, off, ref


def _agree(on, off, ref, fast=True):
    """Where the fast path applies (`fast`: NumPy-level operands) it is NumPy: value, dtype, shape or
    exception type; the Python definitions give the same values and raise where it raises. Elsewhere both
    runs take the Python definitions (e.g. `x == None` is identity, not NumPy's elementwise False)."""
    if not fast:
        assert on == off
        return
    assert on == ref
    if on[0] == "raises":
        assert off[0] == "raises"
    else:
        assert off == on


def _binary(op):
    import operator

    return {
        "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
        "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "<<": operator.lshift,
        ">>": operator.rshift, "&": operator.and_, "|": operator.or_, "^": operator.xor,
        "@": operator.matmul, "<": operator.lt, "<=": operator.le, "==": operator.eq,
        "!=": operator.ne, ">": operator.gt, ">=": operator.ge,
    }[op]  # fmt: skip


@pytest.mark.parametrize("op", BINARY)
@pytest.mark.parametrize("left", OPERANDS[:9], ids=lambda o: o[0])
def test_binary_operators_are_numpy(op, left):
    fn = _binary(op)
    for name, right in OPERANDS:
        fast = name not in ("None", "list")
        _agree(*_both(lambda cv, r=right: (lambda a=cv(left[1]()), b=cv(r()): fn(a, b))), fast)
        _agree(*_both(lambda cv, r=right: (lambda a=cv(left[1]()), b=cv(r()): fn(b, a))), fast)


INPLACE = {"+=": "iadd", "-=": "isub", "*=": "imul", "/=": "itruediv", "//=": "ifloordiv", "%=": "imod",
           "**=": "ipow", "<<=": "ilshift", ">>=": "irshift", "&=": "iand", "|=": "ior", "^=": "ixor",
           "@=": "imatmul"}  # fmt: skip


@pytest.mark.parametrize("op", list(INPLACE))
@pytest.mark.parametrize("left", OPERANDS[:9], ids=lambda o: o[0])
def test_inplace_operators_write_the_buffer_as_numpy(op, left):
    import operator

    fn = getattr(operator, INPLACE[op])
    for name, right in OPERANDS:

        def thunk(cv, right=right):
            a, b = cv(left[1]()), cv(right())
            view = a[...]  # writes must reach views, as in NumPy

            def run():
                r = fn(a, b)
                return (r is a, a, view)

            return run

        _agree(*_both(thunk), name not in ("None", "list"))


@pytest.mark.parametrize("op", UNARY)
@pytest.mark.parametrize("operand", OPERANDS[:9], ids=lambda o: o[0])
def test_unary_operators_are_numpy(op, operand):
    import operator

    fn = {"-": operator.neg, "+": operator.pos, "abs": abs, "~": operator.invert}[op]
    _agree(*_both(lambda cv: (lambda a=cv(operand[1]()): fn(a))))


KEYS = [0, -1, 7, slice(1, 4), slice(None, None, -2), (), Ellipsis, None, (0, 1), (slice(None), None),
        (Ellipsis, 0), (1, slice(None, None, -1)), (0, 0, 0), True, [0, 1], (0, [1, 2]), 1.5, "a",
        ((0, 1),)]  # fmt: skip


@pytest.mark.parametrize("key", KEYS, ids=repr)
@pytest.mark.parametrize("shape", [(6,), (2, 3), ()], ids=str)
def test_getitem_is_numpy_and_aliases_like_it(key, shape):
    base = np.arange(float(np.prod(shape))).reshape(shape)

    def thunk(cv):
        x = cv(xp.array(base))

        def run():
            y = x[key]
            return (y, np.shares_memory(np.asarray(y), np.asarray(x)))

        return run

    on, off, ref = _both(thunk)
    if ref[0] != "raises":  # NumPy gives a scalar (a copy) where arraystack gives a 0-d array (a copy)
        assert on[0] == ref[0] and on[1][1:] == ref[1][1:]
        assert on[1] == off[1] and on[0] == off[0]
    else:
        _agree(on, off, ref)


@pytest.mark.parametrize("index_dtype", ["int64", "int8", "uint16", "bool", "float64"])
def test_array_keys_are_numpy(index_dtype):
    idx = np.array([1, 0, 1, 1, 0, 1]).astype(index_dtype)

    def thunk(cv):
        x, k = cv(xp.array(np.arange(6.0))), cv(xp.asarray(idx))
        return lambda: (x[k], x[(k,)])

    _agree(*_both(thunk))


@pytest.mark.parametrize("key", KEYS, ids=repr)
@pytest.mark.parametrize("value", [9.0, 2, 1j, np.float32(3), [7.0], "x"], ids=repr)
def test_setitem_writes_as_numpy(key, value):
    def thunk(cv):
        x = cv(xp.array(np.arange(6.0).reshape(2, 3)))

        def run():
            x[key] = value
            return x

        return run

    _agree(*_both(thunk))


@pytest.mark.parametrize("name", ["exp", "sin", "sqrt", "negative", "isnan", "add", "maximum", "less",
                                  "arctan2", "left_shift"])  # fmt: skip
def test_accelerated_functions_are_numpy(name):
    nin = getattr(np, name).nin
    for kind, a in OPERANDS:
        for _, b in OPERANDS[:9] if nin == 2 else [("", None)]:
            args = (a,) if nin == 1 else (a, b)

            def thunk(cv, args=args):
                fn = getattr(xp if cv is not _numpy else np, name)
                built = [cv(f()) for f in args]
                return lambda: fn(*built)

            _agree(*_both(thunk), kind not in ("None", "list"))


def test_functions_keep_their_python_identity():
    add = xp.add
    assert add.__wrapped__.__name__ == "add" and add.__name__ == "add"
    assert "numpy.add" in add.__doc__
    assert pickle.loads(pickle.dumps(add)) is add
    assert repr(add) == "<function add>"
    out = xp.zeros(3)
    assert add(xp.ones(3), 1.0, out=out) is out  # keywords go to the Python definition


def test_no_reference_leaks():
    a = xp.asarray(np.arange(8.0))
    value = a._value
    before = sys.getrefcount(value), sys.getrefcount(xp.ndarray)
    for _ in range(1000):
        _ = a + a, a[1:3], -a, a < 2.0, xp.exp(a), a == None  # noqa: E711
        a += 0.0
        a[0] = 1.0
    del _
    assert (sys.getrefcount(value), sys.getrefcount(xp.ndarray)) == before


def test_tracing_takes_the_python_path():
    def f(x):
        y = x + 1.0
        y[0] = 2.0
        return -y[1:] * y[:-1]

    graph = xp.make_graph(f)(np.arange(4.0))
    assert {e.prim.name for e in graph.eqns} >= {"add", "neg", "mul"}
    np.testing.assert_array_equal(xp.jit(f)(np.arange(4.0)), f(xp.arange(4.0)))


def test_without_the_accelerator_the_python_class_serves_everything():
    """ARRAYSTACK_FASTPATH=0 (or no compiler at install time): ndarray is the pure-Python class with the
    operators bound from _core/array_operators.py; a fresh interpreter checks them against NumPy."""
    import os
    import subprocess
    import textwrap

    script = textwrap.dedent(
        """
        import numpy as np, arraystack as xp
        from arraystack._core.array import _fastpath
        assert _fastpath is None and xp.ndarray.__mro__[1].__module__ == "arraystack._core.accelerator"
        a, b = np.arange(1.0, 7.0), np.linspace(-1.0, 2.0, 6)
        A, B = xp.asarray(a.copy()), xp.asarray(b)
        for r, e in [(A + B, a + b), (2.0 - A, 2.0 - a), (A ** 2, a ** 2), (A @ B, a @ b), (-A, -a),
                     (A < B, a < b), (A[1:4], a[1:4]), (A[A > 2], a[a > 2]), (xp.exp(A), np.exp(a)),
                     (xp.where(A > 3, A, B), np.where(a > 3, a, b)), (divmod(A, 4)[1], divmod(a, 4)[1])]:
            np.testing.assert_array_equal(np.asarray(r), e)
        A += 1.0
        A[0] = 9.0
        np.testing.assert_array_equal(np.asarray(A), [9.0, 3, 4, 5, 6, 7])
        print("ok")
        """
    )
    env = {**os.environ, "ARRAYSTACK_FASTPATH": "0"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"

