"""Test configuration: hardware markers with auto-skip, and the NumPy-parity oracle (`parity` fixture).

Tests are written once against an array namespace `xp`; `parity(fn, *args)` runs fn(numpy, *args) and
fn(arraystack, *args) and checks that both give the same values, dtypes and shapes, or raise the same
exception type (and that arraystack's message is not empty).
"""

from __future__ import annotations

import importlib.util
import os

import numpy
import pytest
from hypothesis import settings

import arraystack
from tests import finite_differences

# Tests see compiled code from the first call (tiered compilation has its own tests): counts of compiles and
# plans are then deterministic.
arraystack.config.tiered = False

# Hypothesis draws the same examples on every run, so CI is reproducible; ARRAYSTACK_HYPOTHESIS=explore
# draws fresh ones (run it now and then, and keep what it finds as explicit cases).
settings.register_profile("reproducible", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(
    "explore" if os.environ.get("ARRAYSTACK_HYPOTHESIS") == "explore" else "reproducible"
)
# the optimizer's verifier (typecheck) runs after every pass in tests (jit/passes/pipeline.py)
os.environ.setdefault("ARRAYSTACK_VERIFY_PASSES", "1")


def _has_cuda() -> bool:
    """A CUDA device through cupy, or the stand-in for one asked for by ARRAYSTACK_CUDA_STANDIN (then the
    `gpu` tests run on it: a dry run of them)."""
    if os.environ.get("ARRAYSTACK_CUDA_STANDIN", "").strip() not in ("", "0"):
        return True
    if importlib.util.find_spec("cupy") is None:
        return False
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def pytest_collection_modifyitems(config, items):
    skip_gpu = pytest.mark.skip(reason="needs a CUDA device")
    skip_numba = pytest.mark.skip(reason="needs numba")
    has_gpu = None
    has_numba = importlib.util.find_spec("numba") is not None
    for item in items:
        if "gpu" in item.keywords:
            has_gpu = _has_cuda() if has_gpu is None else has_gpu
            if not has_gpu:
                item.add_marker(skip_gpu)
        if "numba" in item.keywords and not has_numba:
            item.add_marker(skip_numba)


def _rebuild(like, items):
    """A tuple/list/namedtuple of `like`'s type holding `items` (namedtuples take positional fields)."""
    return type(like)(*items) if hasattr(like, "_fields") else type(like)(items)


def to_numpy(x):
    """Results of either library as NumPy values (recursing into tuples and lists)."""
    if isinstance(x, arraystack.ndarray):
        return numpy.asarray(x)
    if isinstance(x, (tuple, list)):
        return _rebuild(x, [to_numpy(v) for v in x])
    return x


def assert_same(expected, actual, rtol=None, atol=0.0, check_dtype=True):
    """`actual` (from arraystack) equals `expected` (from NumPy): structure, shape, dtype and values.

    Exact by default for integers/bools; floats use rtol (default: a few ulps of the dtype). NaNs compare
    equal to NaNs, and signed zeros are not distinguished unless rtol == 0.
    """
    if isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)), (
            f"expected a sequence, got {type(actual).__name__}"
        )
        assert len(expected) == len(actual), f"length {len(actual)} != {len(expected)}"
        for e, a in zip(expected, actual):
            assert_same(e, a, rtol, atol, check_dtype)
        return
    if isinstance(expected, (numpy.ndarray, numpy.generic)):
        assert isinstance(actual, arraystack.ndarray), (
            f"expected an arraystack.ndarray, got {type(actual).__name__}"
        )
        a = numpy.asarray(actual)
        e = numpy.asarray(expected)
        assert a.shape == e.shape, f"shape {a.shape} != {e.shape}"
        if check_dtype:
            assert a.dtype == e.dtype, f"dtype {a.dtype} != {e.dtype}"
        if e.dtype.kind in "fc":
            if rtol is None:
                rtol = {2: 2e-3, 4: 4e-6, 8: 1e-13, 16: 1e-13}.get(e.dtype.itemsize, 1e-13)
                if e.dtype.kind == "c":
                    rtol = {8: 4e-6, 16: 1e-13}[e.dtype.itemsize]
            numpy.testing.assert_allclose(a, e, rtol=rtol, atol=atol, equal_nan=True)
        else:
            numpy.testing.assert_array_equal(a, e)
        return
    assert type(actual) is type(expected) or actual == expected, f"{actual!r} != {expected!r}"
    assert actual == expected or (actual != actual and expected != expected), (
        f"{actual!r} != {expected!r}"
    )


def _convert_args(xp, args):
    out = []
    for a in args:
        if isinstance(a, numpy.ndarray) and xp is arraystack:
            out.append(arraystack.asarray(a.copy()))
        elif isinstance(a, numpy.ndarray):
            out.append(a.copy())
        else:
            out.append(a)
    return out


def _flatten(out):
    if isinstance(out, (tuple, list)):
        leaves = []
        for o in out:
            leaves.extend(_flatten(o))
        return leaves
    return [out]


def _unflatten(like, leaves):
    if isinstance(like, (tuple, list)):
        return _rebuild(like, [_unflatten(o, leaves) for o in like])
    return leaves.pop(0)


def run_traced(fn, *args):
    """Trace `fn(arraystack, *args)` with every NumPy-array argument as a graph input, verify the graph,
    then evaluate it on the concrete arguments. Returns the results as arraystack arrays."""
    from arraystack.ir import ShapedArray, eval_graph, make_graph, typecheck

    from arraystack._core.array import wrap

    positions = [i for i, a in enumerate(args) if isinstance(a, numpy.ndarray)]
    avals = [ShapedArray(args[i].shape, args[i].dtype) for i in positions]
    structure = []

    def body(*tracers):
        call_args = list(args)
        for i, t in zip(positions, tracers):
            call_args[i] = wrap(t)
        out = fn(arraystack, *call_args)
        structure.append(out)
        return [arraystack.asarray(o)._value for o in _flatten(out)]

    graph, consts = make_graph(body, avals)
    typecheck(graph)
    results = eval_graph(graph, *[args[i].copy() for i in positions], *consts)
    return _unflatten(structure[0], [wrap(r) for r in results])


def run_on_tracer(fn, aval):
    """Run fn on a traced arraystack array of `aval` (inside make_graph) and return what it returned."""
    from arraystack.ir import make_graph

    from arraystack._core.array import wrap

    out = []

    def body(t):
        out.append(fn(wrap(t)))
        return [t]

    make_graph(body, [aval])
    return out[0]


def check_parity(fn, *args, rtol=None, atol=0.0, check_dtype=True, traced=True):
    """Run `fn(xp, *args)` under NumPy and arraystack (NumPy array args are converted and copied).

    With traced=True (the default) it also traces fn into a Graph with the array arguments as inputs,
    checks the graph and evaluates it, and that result must match NumPy too. Pass traced=False for
    behaviour that only exists eagerly (data-dependent shapes or errors, in-place writes to arguments).
    """
    try:
        expected = fn(numpy, *_convert_args(numpy, args))
    except Exception as e:  # NumPy raised: arraystack must raise the same exception type
        with pytest.raises(type(e)) as info:
            fn(arraystack, *_convert_args(arraystack, args))
        assert str(info.value), f"arraystack raised {type(info.value).__name__} without a message"
        return None
    actual = fn(arraystack, *_convert_args(arraystack, args))
    assert_same(expected, actual, rtol=rtol, atol=atol, check_dtype=check_dtype)
    if traced:
        assert_same(expected, run_traced(fn, *args), rtol=rtol, atol=atol, check_dtype=check_dtype)
        if JIT_PARITY:
            jit_rtol = rtol if rtol is not None else _jit_rtol(expected)
            assert_same(
                expected, run_jitted(fn, *args), rtol=jit_rtol, atol=atol, check_dtype=check_dtype
            )
    return actual


# ARRAYSTACK_TEST_JIT=1 also runs every traced parity check through arraystack.jit (passes + numba).
# Off by default: it compiles a kernel per distinct function and dtype (minutes on a cold cache).
JIT_PARITY = os.environ.get("ARRAYSTACK_TEST_JIT", "") not in ("", "0")


def _jit_rtol(expected):
    leaves = _flatten(expected)
    kinds = {
        numpy.asarray(x).dtype for x in leaves if isinstance(x, (numpy.ndarray, numpy.generic))
    }
    # kernels use their own vectorized math (<= 4 ulp) and wider accumulators
    return 1e-5 if any(k in (numpy.float32, numpy.complex64) for k in kinds) else 1e-12


def run_jitted(fn, *args):
    """fn(arraystack, *args) through arraystack.jit, array arguments as jit inputs."""
    positions = [i for i, a in enumerate(args) if isinstance(a, numpy.ndarray)]

    def body(*arrays):
        call_args = list(args)
        for i, a in zip(positions, arrays):
            call_args[i] = a
        return fn(arraystack, *call_args)

    return arraystack.jit(body)(*[arraystack.asarray(args[i].copy()) for i in positions])


@pytest.fixture
def parity():
    return check_parity


@pytest.fixture
def standin():
    """The stand-in for cupy (backends/cupy/standin.py) with two CUDA devices in host memory, installed
    for one test; the machine as it was afterwards."""
    from arraystack.backends.cupy import standin as module

    installed = module.install(devices=2)
    try:
        yield installed
    finally:
        module.uninstall()


@pytest.fixture
def check_grads():
    """Derivatives against central finite differences (tests/finite_differences.py)."""
    return finite_differences.check_grads


@pytest.fixture(params=["numpy", "arraystack"])
def xp(request):
    return numpy if request.param == "numpy" else arraystack


@pytest.fixture
def memory_limit():
    """Set arraystack.config.memory_limit for one test (a byte count, or a dict per device); unset after."""

    def set_limit(value):
        arraystack.config.memory_limit = value

    yield set_limit
    arraystack.config.memory_limit = None
