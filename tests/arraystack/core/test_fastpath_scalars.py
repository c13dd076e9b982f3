"""The C accelerator's scalar paths (arraystack/_core/_fastpath_array.c): `a[i]` with an integer key,
iteration, and the reuse of freed array objects. Each is checked against the Python definitions (the
accelerator off) and NumPy on the same buffer: the same type, dtype, value, view and exception, for
every dtype family, layout and kind of integer key."""

from __future__ import annotations

import gc
import operator
import sys
import tracemalloc
import weakref

import numpy as np
import pytest

import arraystack as xp
from arraystack._core.array import _fastpath

pytestmark = pytest.mark.skipif(_fastpath is None, reason="the C accelerator is not built")


def _arrays():
    """(name, NumPy array) pairs: numbers, host dtypes, views with odd strides, 0-d."""
    objects = np.empty(5, dtype=object)
    objects[:] = [1, "x", [1, 2], None, np.float32(2.5)]
    return [
        ("f8", np.linspace(-1.0, 2.0, 7)),
        ("i4-2d", np.arange(12, dtype=np.int32).reshape(3, 4)),
        ("u8-3d", np.arange(12, dtype=np.uint64).reshape(2, 3, 2)),
        ("bool", np.array([True, False, True])),
        ("c16", np.array([1 + 2j, -3j, 0.5])),
        ("f2", np.array([0.5, 1.5, -2.0], dtype=np.float16)),
        ("strided", np.arange(20.0)[::3]),
        ("reversed", np.arange(10.0)[::-2]),
        ("2d-columns", np.arange(24.0).reshape(4, 6)[:, ::-2]),
        ("fortran", np.asfortranarray(np.arange(6.0).reshape(2, 3))),
        ("big-endian", np.arange(5, dtype=">f8")),
        ("datetime", np.array(["2020-01-01", "2021-06-30", "NaT"], dtype="M8[D]")),
        ("timedelta-2d", np.arange(6, dtype="m8[s]").reshape(2, 3)),
        ("str", np.array(["ab", "c", ""])),
        ("bytes", np.array([b"ab", b"c"])),
        ("object", objects),
        ("object-2d", objects[:4].reshape(2, 2)),
        (
            "stringdtype",
            np.array(["ab", "longer than sixteen bytes", ""], dtype=np.dtypes.StringDType()),
        ),
        ("structured", np.array([(1, 2.0), (3, 4.0)], dtype=[("a", "i4"), ("b", "f8")])),
        ("0-d", np.array(3.5)),
        ("empty", np.zeros(0)),
    ]


ARRAYS = _arrays()

KEYS = [0, 1, 2, -1, -2, -3, 4, 6, 7, -7, -8, 100, -100, 2**63 - 1, 2**63, -(2**63) - 1, 2**70, True,
        False, np.int64(1), np.uint8(2), np.int32(-1), np.intp(7), np.True_, np.array(1), "int64-0d",
        "scalar-result"]  # fmt: skip


def _key(key):
    """The key as given to arraystack (a 0-d array or a scalar result of arraystack) and to NumPy."""
    if isinstance(key, str):
        made = xp.asarray(1) if key == "int64-0d" else xp.sum(xp.asarray([0, 1]))
        return made, np.asarray(made) if key == "int64-0d" else made._value
    return key, key


def _outcome(r, base=None):
    """What an indexing or an iteration step gave, comparable across arraystack and NumPy: the NumPy
    value (its type, dtype, shape, elements, whether it views `base`), an object array's element by
    identity, or the exception with its message."""
    if isinstance(r, BaseException):
        return ("raises", type(r), str(r))
    wrapped = isinstance(r, xp.ndarray)
    value = r._value if wrapped else r
    if not isinstance(value, (np.ndarray, np.generic)):
        # an object array's element is the stored object, never wrapped; a StringDType element is a
        # new str each time
        return ("object", wrapped, type(value), value if type(value) is str else id(value))
    shares = base is not None and isinstance(value, np.ndarray) and np.shares_memory(value, base)
    return ("value", type(value), value.dtype, value.shape, value.tolist(), shares)


def _index(x, key):
    try:
        return x[key]
    except Exception as e:  # noqa: BLE001  (the exception is the outcome compared)
        return e


def _with_accelerator(on, thunk):
    previous = _fastpath.set_enabled(on)
    try:
        return thunk()
    finally:
        _fastpath.set_enabled(previous)


@pytest.mark.parametrize("key", KEYS, ids=repr)
@pytest.mark.parametrize("name, array", ARRAYS, ids=[name for name, _ in ARRAYS])
def test_integer_keys_are_numpys(name, array, key):
    x = xp.asarray(array)
    buffer = x._value  # big-endian input is converted on entry: NumPy is compared on this buffer
    key_as, key_np = _key(key)
    ref = _outcome(_index(buffer, key_np), buffer)
    if ref[0] == "value":
        # NumPy's scalar is wrapped as a scalar result, its array as an arraystack array
        assert isinstance(x[key_as], xp.ndarray)
    on = _with_accelerator(True, lambda: _outcome(_index(x, key_as), buffer))
    off = _with_accelerator(False, lambda: _outcome(_index(x, key_as), buffer))
    assert on == ref
    assert off[:2] == ref[:2] if ref[0] == "raises" else off == ref
    if name == "big-endian" and ref[0] == "value":
        assert np.asarray(x[key_as]).tolist() == np.asarray(array[key_np]).tolist()


@pytest.mark.parametrize("name, array", ARRAYS, ids=[name for name, _ in ARRAYS])
def test_iteration_is_numpys(name, array):
    x = xp.asarray(array)
    buffer = x._value

    def steps(iterable):
        try:
            return [_outcome(v, buffer) for v in iterable]
        except Exception as e:  # noqa: BLE001
            return _outcome(e)

    ref = steps(buffer)
    assert _with_accelerator(True, lambda: steps(x)) == ref
    assert _with_accelerator(False, lambda: steps(x)) == ref
    if array.ndim:
        assert steps(x[i] for i in range(len(x))) == ref  # iteration gives what indexing gives
        it = iter(x)
        assert operator.length_hint(it) == len(array)
        next(it, None)
        assert operator.length_hint(it) == max(len(array) - 1, 0)
        assert steps(it) == ref[1:]


def test_iteration_inside_a_trace_takes_the_python_path():
    c = xp.asarray([1.0, 2.0, 3.0])

    def f(x):
        total = x * 0.0
        for v in c:  # a captured constant, iterated while tracing
            total = total + v * x
        return total

    x = xp.asarray([0.5, -1.0])
    np.testing.assert_array_equal(xp.jit(f)(x), f(x))
    np.testing.assert_array_equal(xp.grad(lambda x: xp.sum(f(x)))(x), [6.0, 6.0])


def test_freed_arrays_are_reused_cleanly():
    a = xp.asarray(np.arange(8.0))
    called = []
    r = a[3]
    w = weakref.ref(r, called.append)
    del r
    assert called == [w] and w() is None  # the weak reference died with the object
    for i in range(300):  # objects from the reuse list, and new ones beyond it
        y = a[i % 8]
        assert gc.is_tracked(y) and y == a._value[i % 8]
        w2 = weakref.ref(y)
        assert w2() is y and w() is None


def test_subclasses_keep_their_own_allocation():
    a = xp.asarray(np.arange(6.0))

    class Sub(xp.ndarray):  # with a __dict__
        pass

    class Slotted(xp.ndarray):
        __slots__ = ()

    before = sys.getrefcount(Sub), sys.getrefcount(Slotted), sys.getrefcount(xp.ndarray)
    collected, refs = [], []
    for _ in range(200):
        s = a.view(Sub)
        s.tag = "kept"
        s.me = s  # a cycle through the instance dict: the collector frees it
        refs.append(weakref.ref(s, collected.append))
        assert s.tag == "kept" and s[1] == 1.0 and [float(v) for v in s] == list(range(6))
        t = a + 1.0
        t.__class__ = Slotted  # leaves through subtype_dealloc, not the reuse list
        assert type(t) is Slotted and t[0] == 1.0
    del s, t
    gc.collect()
    assert len(collected) == 200
    assert (sys.getrefcount(Sub), sys.getrefcount(Slotted), sys.getrefcount(xp.ndarray)) == before


def test_scalar_paths_leak_nothing():
    a = xp.asarray(np.arange(8.0))
    m = xp.asarray(np.arange(6.0).reshape(2, 3))
    objects = xp.asarray(np.array([1, "x", None], dtype=object))
    s = xp.sum(a)

    def loop(n):
        for i in range(n):
            _ = a[3], a[-i % 8], m[1], m[1, 2], s * 2.0 + 1.0, objects[1], a[np.int64(2)]
            for _ in a:
                pass
            for _ in objects:
                pass
            for _ in m:
                pass

    loop(2000)  # warm up: caches, the reuse list
    counts = [sys.getrefcount(v) for v in (a._value, m._value, objects._value, xp.ndarray)]
    tracemalloc.start()
    try:
        loop(200)
        before = tracemalloc.get_traced_memory()[0]
        loop(20000)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 64 * 1024  # a leak of one object per step would be over 1 MB
    assert [sys.getrefcount(v) for v in (a._value, m._value, objects._value, xp.ndarray)] == counts
