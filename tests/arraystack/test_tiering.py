"""Tiered compilation: the first call runs the reference path while numba compiles in the background."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast
import arraystack._tiering as tiering
from arraystack.backends import compile_graph

X = numpy.linspace(-2, 2, 4096).astype(numpy.float32)


def chain(a, b):
    return ast.tanh(a * b + 1.0) * 0.5 + ast.exp(-a * a)


def expected(a, b):
    return numpy.tanh(a * b + numpy.float32(1.0)) * numpy.float32(0.5) + numpy.exp(-a * a)


def entry_of(f):
    (entry,) = f._cache.values()
    return entry


def runs_kernels(entry):
    return any("numba kernel" in how for _, how in entry.executable.steps)


def test_first_call_runs_the_reference_tier_then_switches_to_compiled_code():
    f = ast.jit(chain, tiered=True)
    first = f(ast.asarray(X), ast.asarray(X))
    entry = entry_of(f)
    assert entry.tier == 0 and not runs_kernels(entry)
    graph = entry.lowered.optimized
    reference = compile_graph(graph, "reference")(X, X)[0]
    numpy.testing.assert_array_equal(numpy.asarray(first), reference)  # tier 0 is the reference path
    assert f.wait_compiled(timeout=120)
    assert entry.tier == 1 and runs_kernels(entry)
    second = f(ast.asarray(X), ast.asarray(X))
    numpy.testing.assert_allclose(numpy.asarray(second), expected(X, X), rtol=4e-6, atol=1e-7)
    numpy.testing.assert_allclose(numpy.asarray(second), numpy.asarray(first), rtol=4e-6, atol=1e-7)
    assert f.stats()["traces"] == 1


def test_untiered_functions_run_compiled_code_from_the_first_call():
    f = ast.jit(chain, tiered=False)
    f(ast.asarray(X), ast.asarray(X))
    entry = entry_of(f)
    assert entry.tier == 1 and entry.pending is None and runs_kernels(entry)
    assert f.wait_compiled() is True  # nothing to wait for


def test_config_decides_when_jit_does_not(monkeypatch):
    monkeypatch.setattr(ast.config, "tiered", True)
    f = ast.jit(chain)
    f(ast.asarray(X), ast.asarray(X))
    assert entry_of(f).pending is not None
    assert f.wait_compiled(timeout=120)
    monkeypatch.setattr(ast.config, "tiered", False)
    g = ast.jit(chain)
    g(ast.asarray(X), ast.asarray(X))
    assert entry_of(g).pending is None


def test_the_reference_backend_is_never_tiered():
    f = ast.jit(chain, tiered=True, backend="reference")
    f(ast.asarray(X), ast.asarray(X))
    assert entry_of(f).pending is None


def test_a_failed_background_compile_keeps_serving_the_reference_tier(monkeypatch, caplog):
    def broken(graph, backend, **kwargs):
        if backend == "numba":
            raise RuntimeError("no compiler today")
        return compile_graph(graph, backend, **kwargs)

    monkeypatch.setattr("arraystack.backends.compile_graph", broken)
    f = ast.jit(lambda a: a * 2.0 + 1.0, tiered=True)
    out = f(ast.asarray(X))
    assert f.wait_compiled(timeout=60) is False
    assert isinstance(entry_of(f).pending.error, RuntimeError)
    assert "staying on the reference path" in caplog.text
    numpy.testing.assert_array_equal(numpy.asarray(f(ast.asarray(X))), numpy.asarray(out))


def test_background_warm_up_never_writes_into_donated_arguments():
    a = ast.asarray(X.copy())
    f = ast.jit(lambda a, b: a * 2.0 + b, donate_argnums=0, tiered=True)
    f(a, ast.asarray(X))
    assert f.wait_compiled(timeout=120)
    numpy.testing.assert_array_equal(numpy.asarray(a), X)  # the warm-up ran on copies


@pytest.mark.parametrize("n", [0, 1, 7])
def test_tiers_agree_on_small_and_empty_inputs(n):
    f = ast.jit(lambda a: ast.sum(a * a, axis=-1), tiered=True)
    x = ast.asarray(numpy.arange(2 * n, dtype=numpy.float64).reshape(2, n))
    first = numpy.asarray(f(x))
    assert f.wait_compiled(timeout=120)
    numpy.testing.assert_allclose(numpy.asarray(f(x)), first, rtol=1e-13)


def test_tier_module_documents_the_accuracy_contract():
    assert "4 ulp" in tiering.__doc__
