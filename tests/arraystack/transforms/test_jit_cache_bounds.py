"""A jitted function keeps at most config.jit_cache_size specializations in memory, and the process at most
config.kernel_cache_size kernels, the least recently used evicted first (arraystack/_transforms/jit_cache.py,
backends/numba/kernels.py); evictions are counted, and an evicted shape called again is traced again and
right."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.numba import kernels

import arraystack as ast


@pytest.fixture
def cache_size():
    previous = ast.config.jit_cache_size

    def set_size(n):
        ast.config.jit_cache_size = n

    yield set_size
    ast.config.jit_cache_size = previous


def _sizes(jf):
    specs = jf._specs
    return len(specs.entries), len(specs.fast), len(specs.used)


def test_many_shapes_keep_the_caches_at_the_size(accelerated, cache_size):
    cache_size(4)
    jf = ast.jit(lambda x: x * 2.0 + 1.0, backend="reference")
    for n in range(1, 41):
        x = np.arange(float(n))
        np.testing.assert_array_equal(np.asarray(jf(x)), x * 2.0 + 1.0)
        np.testing.assert_array_equal(np.asarray(jf(ast.asarray(x))), x * 2.0 + 1.0)  # a 2nd fast key
        entries, fast, used = _sizes(jf)
        assert entries == used == min(n, 4) and fast <= 2 * entries
    stats = jf.stats()
    assert stats["traces"] == 40 and stats["evictions"] == 36
    assert set(jf._fast.values()) <= set(jf._cache.values())  # no fast key keeps an evicted entry
    x = np.arange(1.0)  # evicted long ago: traced again, and right
    np.testing.assert_array_equal(np.asarray(jf(x)), x * 2.0 + 1.0)
    assert jf.stats()["traces"] == 41 and _sizes(jf)[0] == 4


def test_the_least_recently_used_is_evicted(accelerated, cache_size):
    cache_size(3)
    jf = ast.jit(lambda x: x - 1.0, backend="reference")
    a, b, c, d = (np.ones(n) for n in (1, 2, 3, 4))
    for x in (a, b, c):
        jf(x)
    for _ in range(3):
        jf(a)  # cached calls (served in C when it is on) make `a` the most recently used
    jf(d)  # evicts b, the least recently used
    traces = jf.stats()["traces"]
    jf(a)
    jf(c)
    assert jf.stats()["traces"] == traces  # still cached
    jf(b)
    assert jf.stats()["traces"] == traces + 1
    assert jf.stats()["evictions"] == 2


def test_static_arguments_and_keywords_are_bounded_too(cache_size):
    cache_size(2)
    jf = ast.jit(lambda x, n, scale=1.0: x * n * scale, static_argnums=1, backend="reference")
    x = np.ones(3)
    for n in range(6):
        np.testing.assert_array_equal(np.asarray(jf(x, n, scale=2.0)), x * n * 2.0)
    assert len(jf._cache) == 2 and jf.stats()["evictions"] == 4


def test_retrace_reasons_keep_the_latest(cache_size):
    jf = ast.jit(lambda x: x + 1.0, backend="reference")
    for n in range(1, 41):
        jf(np.ones(n))
    reasons = jf.stats()["retrace_reasons"]
    assert len(reasons) == 32
    assert reasons[-1] == "new argument types: f64[39] -> f64[40]"


def test_the_sizes_must_be_positive_integers():
    for name in ("jit_cache_size", "kernel_cache_size"):
        for bad in (0, -1, 2.5, "many", True, None):
            with pytest.raises(ValueError, match=name):
                setattr(ast.config, name, bad)
    previous = ast.config.jit_cache_size
    try:
        ast.config.jit_cache_size = "16"  # as the environment variable gives it
        assert ast.config.jit_cache_size == 16
    finally:
        ast.config.jit_cache_size = previous


def test_kernels_in_memory_are_bounded(monkeypatch):
    previous = ast.config.kernel_cache_size
    try:
        ast.config.kernel_cache_size = len(kernels._dispatchers) + 1
        counts = kernels.compile_counts()
        functions = [ast.jit(lambda x, k=k: x * float(k) + 0.5, tiered=False) for k in (3, 5, 7)]
        x = np.arange(6.0)
        for k, jf in zip((3, 5, 7), functions):
            np.testing.assert_array_equal(np.asarray(jf(x)), x * k + 0.5)
        after = kernels.compile_counts()
        assert after["kernels"] == ast.config.kernel_cache_size
        assert after["evictions"] == counts["evictions"] + 2
        assert after["numba_compiles"] >= counts["numba_compiles"]  # evicted kernels still count
        again = ast.jit(lambda x: x * 3.0 + 0.5, tiered=False)  # the first kernel, evicted: reloaded
        np.testing.assert_array_equal(np.asarray(again(x)), x * 3.0 + 0.5)
        np.testing.assert_array_equal(np.asarray(functions[0](x)), x * 3.0 + 0.5)  # keeps its own
    finally:
        ast.config.kernel_cache_size = previous
