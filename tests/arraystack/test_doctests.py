"""The Examples sections of the documented modules run, and print what they say they print."""

from __future__ import annotations

import doctest
import importlib

import pytest

import arraystack

MODULES = [
    "arraystack._transforms.autodiff",
    "arraystack._transforms.vmap",
    "arraystack._transforms.jacobian",
    "arraystack._transforms.custom",
    "arraystack._transforms.control",
    "arraystack._transforms.jit",
    "arraystack.fft._one_dim",
    "arraystack.fft._n_dim",
    "arraystack.fft._frequencies",
    "arraystack.linalg._solvers",
    "arraystack.linalg._determinants",
    "arraystack.linalg._products",
    "arraystack.linalg._factorizations",
    "arraystack.linalg._norms",
    "arraystack.linalg._array_api",
    "arraystack.prng._keys",
    "arraystack.prng._continuous",
    "arraystack.prng._discrete",
    "arraystack.nn.activations",
    "arraystack.nn.normalization",
    "arraystack.nn.losses",
    "arraystack.nn.layers",
    "arraystack.optim.transforms",
    "arraystack.optim.optimizers",
    "arraystack.optim.adaptive",
    "arraystack.optim.schedules",
    "arraystack.ir.tree",
    "arraystack.datasets",
    "arraystack.nn.conv",
    "arraystack.nn.conv_layers",
    "arraystack.nn.pooling",
    "arraystack.nn.recurrent",
    "arraystack.nn.dropout",
    "arraystack.nn.initializers",
    "arraystack.nn._variance_scaling",
    "arraystack.nn.mixed_precision",
    "arraystack.linalg._eigen",
]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.fixture
def reference_backend(monkeypatch):
    # the examples check values, not compilation: the reference backend runs them without numba compiles
    monkeypatch.setattr(arraystack.config, "default_backend", "reference")


@pytest.mark.parametrize("name", MODULES)
def test_examples_run(name, reference_backend):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    tests = [t for t in finder.find(module, name) if t.examples]
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"


def test_transformations_have_examples():
    names = ["jit", "make_graph", "grad", "value_and_grad", "vjp", "jvp", "linearize", "jacfwd", "jacrev",
             "hessian", "vmap", "custom_vjp", "custom_jvp", "checkpoint", "stop_gradient", "cond",
             "switch", "while_loop", "fori_loop", "scan"]
    missing = [n for n in names if ">>> " not in (getattr(arraystack, n).__doc__ or "")]
    assert not missing
