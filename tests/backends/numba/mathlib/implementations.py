"""The copies of each mathlib function as functions of an array, and their results on the generated inputs.

The compiled one is the numba function in a loop compiled as generated elementwise kernels are
(error_model="numpy", no fast-math); the NumPy twin runs with its selects recorded (which call site saw
which outcome: test_agreement.py's coverage check); the C twin runs in each loop variant this CPU has.
Results on inputs.generate's arrays are computed once per process and shared by the test files.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import os
import sys

import numpy as np
import pytest
from arraystack.backends.numba.mathlib import twins

from tests.backends.numba.mathlib.inputs import generate

numba = pytest.importorskip("numba")

C_TWIN = twins.C_TWIN
needs_c_twin = pytest.mark.skipif(C_TWIN is None, reason="the C twin is not built (or stale)")
FAMILIES = tuple(sorted(set(twins.FAMILY.values())))
MODULES = {f: importlib.import_module(f"arraystack.backends.numba.mathlib.{f}") for f in FAMILIES}
NUMPY_MODULES = {
    f: importlib.import_module(f"arraystack.backends.numba.mathlib.{f}_numpy") for f in FAMILIES
}
# the twin's implementations: the NumPy code, and each loop variant of the C extension this CPU runs
IMPLEMENTATIONS = ["numpy"] + (
    [f"c:{variant}" for variant in C_TWIN.VARIANTS]
    if C_TWIN is not None
    else [pytest.param("c:portable", marks=needs_c_twin)]
)
SELECTS = ("where", "minimum", "maximum", "fmin", "fmax")  # NumPy's spelling of a select or clamp


def suffix(dtype):
    return "f32" if np.dtype(dtype) == np.float32 else "f64"


def kernel_function(name, dtype, variant=""):
    """The compiled `<name>_<f32|f64><variant>` of the module of name's family (twins.FAMILY)."""
    return getattr(MODULES[twins.FAMILY[name]], f"{name}_{suffix(dtype)}{variant}")


@functools.cache
def _loop(function):
    @numba.njit(error_model="numpy")  # the flags of generated elementwise kernels
    def loop(x, out):
        for i in range(x.size):
            out[i] = function(x[i])

    return loop


def run_loop(function, x):
    """`function` (a compiled scalar function) over x in a kernel-like loop."""
    out = np.empty_like(x)
    _loop(function)(x, out)
    return out


def twin(name, dtype, implementation):
    """numpy_twin's NumPy function, or for "c:<variant>" the C extension's loop of that variant."""
    if implementation == "numpy":
        return twins.numpy_twin(name, dtype, implementation="numpy")
    variant = C_TWIN.VARIANTS.index(implementation[2:])
    kernel = getattr(C_TWIN, f"{name}_{suffix(dtype)}")

    def run(x):
        out = np.empty_like(x)
        kernel(np.ascontiguousarray(x), out, variant)
        return out

    return run


@functools.cache
def kernel_result(name, dtype):
    """The compiled function's bits on generate(name, dtype)."""
    out = run_loop(kernel_function(name, dtype), generate(name, np.dtype(dtype)))
    out.setflags(write=False)
    return out


class _SelectRecorder:
    """NumPy, with each select and clamp noting which outcomes its call site saw: seen[(file, line,
    function)] holds True where some element took the first operand (the condition held, or the
    clamp's bound was not reached), False where some took the other."""

    def __init__(self):
        self.seen = {}

    def __getattr__(self, attribute):
        return getattr(np, attribute)

    def _note(self, function, condition):
        caller = sys._getframe(2)
        key = (os.path.basename(caller.f_code.co_filename), caller.f_lineno, function)
        condition = np.asarray(condition, bool)
        outcomes = self.seen.setdefault(key, set())
        outcomes.update(
            {True} if condition.all() else {False} if not condition.any() else {True, False}
        )

    def where(self, condition, *values):
        self._note("where", condition)
        return np.where(condition, *values)

    def minimum(self, a, b, **kwargs):
        self._note("minimum", np.less_equal(a, b))
        return np.minimum(a, b, **kwargs)

    def maximum(self, a, b, **kwargs):
        self._note("maximum", np.greater_equal(a, b))
        return np.maximum(a, b, **kwargs)

    def fmin(self, a, b, **kwargs):
        self._note("fmin", np.less_equal(a, b))
        return np.fmin(a, b, **kwargs)

    def fmax(self, a, b, **kwargs):
        self._note("fmax", np.greater_equal(a, b))
        return np.fmax(a, b, **kwargs)


_OUTCOMES = {}  # (name, dtype) -> the outcomes numpy_run saw at each select


def numpy_run(name, dtype):
    """The NumPy twin's bits on generate(name, dtype), its selects recorded (select_outcomes)."""
    recorder = _SelectRecorder()
    for module in NUMPY_MODULES.values():
        module.np = recorder
    try:
        out = twin(name, dtype, "numpy")(generate(name, np.dtype(dtype)))
    finally:
        for module in NUMPY_MODULES.values():
            module.np = np
    _OUTCOMES[name, np.dtype(dtype)] = recorder.seen
    return out


def select_outcomes(name, dtype):
    """{(file, line, function) of a select: the outcomes it saw} over generate(name, dtype)."""
    if (name, np.dtype(dtype)) not in _OUTCOMES:
        numpy_run(name, dtype)
    return _OUTCOMES[name, np.dtype(dtype)]


def select_sites(module):
    """(file, line, function) of every select and clamp (np.where, np.minimum, ...) in module's source."""
    name = os.path.basename(inspect.getsourcefile(module))
    return {
        (name, node.lineno, node.func.attr)
        for node in ast.walk(ast.parse(inspect.getsource(module)))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "np"
        and node.func.attr in SELECTS
    }
