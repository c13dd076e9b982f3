"""Memory planning of compiled plans (backends/executable.py, backends/numba): buffer lifetimes, in-place
writes into dying buffers, donated arguments, peak memory, and the memory limit (OutOfMemory)."""

from __future__ import annotations

import gc
import tracemalloc

import numpy as np
import pytest

import arraystack as ast
from arraystack.backends.memory import limits
from arraystack.backends.numba.host_pool import host_pool
from arraystack.backends.executable import last_uses

pytestmark = pytest.mark.numba

N = 1_000_000  # float32: 4 MB per array
ARRAY = 4 * N
SLACK = 256 * 1024  # Python objects, small arrays, numba's argument boxing


def jitted(fn, **kw):
    return ast.jit(fn, tiered=False, **kw)


def peak_bytes(fn, *args):
    """Peak bytes allocated while fn(*args) runs, with the buffer pool emptied first (so every buffer the
    run needs is a fresh allocation tracemalloc sees); the result is dropped before returning."""
    host_pool.clear()
    gc.collect()
    tracemalloc.start()
    try:
        out = fn(*args)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del out
    return peak


def chain20(x, y):
    a = x * 1.5 + y
    for _ in range(6):
        a = ast.tanh(a) * 0.5 + y
    return a - x  # 2 + 6 * 3 + 1 = 21 elementwise ops


def broken_chain(x, y):
    a = x
    for _ in range(4):
        a = ast.cumsum(ast.tanh(a) * 0.5 + y)  # no numba lowering: the chain is cut 4 times
        a = a * (1.0 / N)
    return a * 2.0


def dying_intermediate(x, y):
    v = ast.exp(x) + y
    w = ast.cumsum(v)
    return v * w + 1.0  # v and w die here: the kernel writes into v's buffer


@pytest.fixture(scope="module")
def xy():
    rng = np.random.default_rng(0)
    x = rng.random(N, dtype=np.float32)
    y = rng.random(N, dtype=np.float32)
    return x, y


def test_last_uses_marks_outputs_alive_to_the_end():
    graph = ast.make_graph(lambda x, y: (ast.sin(x) * y, y))(np.ones(3), np.ones(3))
    last = last_uses(graph)
    assert last[graph.inputs[0]] == 0  # read by the sin, then dead
    assert last[graph.inputs[1]] == len(graph.eqns)  # an output: never dropped


@pytest.mark.parametrize("fn", [chain20, broken_chain, dying_intermediate])
def test_peak_is_inputs_plus_outputs_plus_one_temporary(fn, xy):
    x, y = (ast.asarray(v) for v in xy)
    f = jitted(fn)
    expected = fn(x, y)
    np.testing.assert_allclose(np.asarray(f(x, y)), np.asarray(expected), rtol=2e-5, atol=1e-5)
    # the inputs exist before the measurement starts: what it sees is the outputs and temporaries
    assert peak_bytes(f, x, y) <= ARRAY + ARRAY + SLACK


def test_numpy_eager_needs_more_than_the_plan(xy):
    x, y = (ast.asarray(v) for v in xy)
    assert peak_bytes(dying_intermediate, x, y) >= 3 * ARRAY  # the measurement sees temporaries


def test_kernel_writes_into_a_dying_intermediate(xy):
    x, y = (ast.asarray(v) for v in xy)
    f = jitted(dying_intermediate)
    text = f.lower(x, y).compile().as_text()
    assert "may write into dying input" in text
    np.testing.assert_allclose(
        np.asarray(f(x, y)), np.asarray(dying_intermediate(x, y)), rtol=2e-5, atol=1e-5
    )
    assert np.array_equal(np.asarray(x), xy[0])  # arguments are never overwritten


def test_small_loops_write_into_fresh_buffers():
    # one thread's loop over its own input does not vectorize (LLVM's overlap check fails): a dying
    # intermediate of a loop below the parallel threshold gives way to a fresh buffer
    def fn(x):
        return ast.tanh(ast.cumsum(x)) + 1.0

    x = ast.asarray(np.linspace(-1, 1, 4096))
    f = jitted(fn)
    assert "may write into dying input" not in f.lower(x).compile().as_text()
    want = np.tanh(np.cumsum(np.asarray(x))) + 1.0  # the kernel's tanh: within 4 ulp
    np.testing.assert_allclose(np.asarray(f(x)), want, rtol=1e-14, atol=1e-15)


def test_no_in_place_write_into_a_value_something_else_still_reads():
    x = np.linspace(-2, 2, 12)

    def fn(x):
        v = ast.exp(x) * 2.0
        w = ast.cumsum(v)
        z = v * w  # v dies here, but a view of it is still an output
        return z, v.reshape(3, 4), v[2:5]

    outs = jitted(fn)(x)
    for got, want in zip(outs, fn(x)):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want))


def test_donated_argument_in_a_multi_step_plan():
    x0 = np.linspace(-1, 1, 2000)
    x = ast.asarray(x0.copy())
    buffer = x._value

    def fn(x):
        w = ast.cumsum(ast.sin(x))
        return x * w + 1.0  # x's last use: the kernel writes into the donated argument

    out = jitted(fn, donate_argnums=0)(x)
    np.testing.assert_allclose(np.asarray(out), x0 * np.cumsum(np.sin(x0)) + 1.0)
    assert out._value is buffer  # written in place: the donated argument's own buffer


def test_donated_argument_passed_twice_is_not_overwritten_early():
    def fn(x, y):
        w = ast.cumsum(ast.sin(x))
        z = ast.cumsum(x * w)  # x dies at the product, which may write into it ...
        return z + ast.cumsum(y)  # ... but y, read later, is the same buffer: x is copied first

    x0 = np.linspace(-1, 1, 300_000)  # a parallel loop: one thread's loops do not write in place
    x = ast.asarray(x0.copy())
    f = jitted(fn, donate_argnums=0)
    assert "may write into dying input" in f.lower(x, x).compile().as_text()
    out = f(x, x)
    want = np.cumsum(x0 * np.cumsum(np.sin(x0))) + np.cumsum(x0)
    np.testing.assert_allclose(np.asarray(out), want)


def test_memory_limit_raises_out_of_memory_naming_the_step(memory_limit, xy):
    x, y = (ast.asarray(v) for v in xy)
    f = jitted(broken_chain)
    f(x, y)
    memory_limit(3 * ARRAY + ARRAY // 2)  # the inputs, one live value: no room for a second one
    with pytest.raises(ast.OutOfMemory) as info:
        f(x, y)
    err = info.value
    assert isinstance(err, MemoryError)
    assert err.primitive == "cumsum" and err.step == 1
    assert (err.requested, err.in_use, err.limit) == (ARRAY, 3 * ARRAY, 3 * ARRAY + ARRAY // 2)
    message = str(err)
    assert "cumsum" in message and "test_memory.py" in message and "memory_limit" in message
    assert f"{ARRAY} bytes" in message
    memory_limit(4 * ARRAY)  # inputs + two live values: the whole plan fits
    np.testing.assert_allclose(np.asarray(f(x, y)), np.asarray(broken_chain(x, y)), rtol=2e-5)


def test_memory_limit_checks_single_kernel_plans_and_loop_bodies(memory_limit):
    x = np.ones(1000)
    f = jitted(lambda v: ast.exp(v) + 1.0)
    g = jitted(lambda v: ast.fori_loop(0, 3, lambda i, c: c * 2.0 + v, v))
    h = jitted(lambda v: v.reshape(10, 100).sum(axis=0))  # one staged (column) kernel: 800 bytes out
    f(x), g(x), h(x)
    memory_limit(x.nbytes + 100)
    with pytest.raises(ast.OutOfMemory, match="fusion"):
        f(x)
    with pytest.raises(ast.OutOfMemory):
        g(x)
    with pytest.raises(ast.OutOfMemory, match="fusion"):
        h(x)
    memory_limit(None)
    np.testing.assert_allclose(np.asarray(f(x)), np.exp(x) + 1.0)
    np.testing.assert_allclose(np.asarray(h(x)), x.reshape(10, 100).sum(axis=0))
    assert limits.host is None


def test_memory_limit_checks_one_step_reference_plans(memory_limit):
    """Plans of one reference step (a product, a sort, a region numba does not lower) run without the
    interpreter, except while a memory limit is set: then the step is checked first."""
    x = np.ones((40, 40))
    y = np.arange(1600.0).reshape(40, 40)
    square = jitted(lambda a: a @ a)  # one operand twice
    product = jitted(lambda a: a @ y)  # y is captured: an input after a
    ordered = jitted(lambda a: ast.sort(a, axis=0))
    sine = jitted(lambda a: ast.sin(a))
    for f in (square, product, ordered, sine):
        f(x)
    one, two = x.nbytes + 100, 2 * x.nbytes + 100  # the inputs and nothing more
    cases = [(square, "dot_general", one), (product, "dot_general", two), (ordered, "sort", one)]
    for f, name, limit in cases + [(sine, "fusion", one)]:
        memory_limit(limit)
        with pytest.raises(ast.OutOfMemory, match=name):
            f(x)
    memory_limit(None)
    np.testing.assert_array_equal(np.asarray(square(x)), x @ x)
    np.testing.assert_array_equal(np.asarray(product(x)), x @ y)
    np.testing.assert_array_equal(np.asarray(ordered(x)), np.sort(x, axis=0))
    np.testing.assert_array_equal(np.asarray(sine(x)), np.sin(x))


def test_memory_limit_setting(monkeypatch):
    from arraystack._core.config import Config

    monkeypatch.setenv("ARRAYSTACK_MEMORY_LIMIT", "1.5G")
    assert Config().memory_limit == 3 << 29
    monkeypatch.setenv("ARRAYSTACK_MEMORY_LIMIT", "4096")
    assert Config().memory_limit == 4096
    assert limits.host == ast.config.memory_limit  # another Config never changes the global limit
    with pytest.raises(ValueError, match="memory_limit"):
        ast.config.memory_limit = -1
