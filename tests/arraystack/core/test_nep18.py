"""NEP 18 for arraystack's functions (arraystack/_core/overrides.py): every public function that NumPy
dispatches through `__array_function__` hands a call in which a relevant argument (as NumPy's dispatcher
decides) overrides NumPy to NumPy's function, which runs the protocol; pandas objects come out as NumPy
makes them; and `arraystack.ufunc` answers `isinstance` for ufuncs."""

from __future__ import annotations

import contextlib
import inspect

import numpy
import pandas
import pytest
from arraystack.ir import ShapedArray

import arraystack
from arraystack._core import accelerator, overrides
from tests.conftest import run_on_tracer

DISPATCHER = type(numpy.concatenate)  # numpy._ArrayFunctionDispatcher
NAMESPACES = [
    ("", numpy, arraystack),
    ("linalg.", numpy.linalg, arraystack.linalg),
    ("fft.", numpy.fft, arraystack.fft),
    ("emath.", numpy.emath, arraystack.emath),
    ("strings.", numpy.strings, arraystack.strings),
    ("char.", numpy.char, arraystack.char),
]


def _dispatched():
    """(qualified name, NumPy's function, arraystack's) for each public function NumPy dispatches."""
    found = []
    for prefix, numpy_module, module in NAMESPACES:
        for name in sorted(getattr(module, "__all__", None) or dir(module)):
            numpy_fn, fn = getattr(numpy_module, name, None), getattr(module, name, None)
            if isinstance(numpy_fn, DISPATCHER) and callable(fn) and not name.startswith("_"):
                found.append((prefix + name, numpy_fn, fn))
    return found


DISPATCHED = _dispatched()


class Duck:
    """Overrides NumPy's functions (NEP 18) and records what NumPy hands it."""

    def __init__(self):
        self.calls = []

    def __array_function__(self, func, types, args, kwargs):
        self.calls.append(func)
        return "duck"


def _candidates(numpy_fn, filler):
    """Argument lists with "slot" (or ["slot"]) in one positional place each, `filler` elsewhere."""
    parameters = inspect.signature(numpy_fn).parameters.values()
    places = [
        p.name
        for p in parameters
        if p.kind is p.VAR_POSITIONAL
        or (p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty)
    ]
    kwargs = {p.name: filler for p in parameters if p.kind is p.KEYWORD_ONLY and p.default is p.empty}
    for i in range(len(places)):
        for value in ("slot", ["slot"]):
            args = [filler] * len(places)
            args[i] = value
            yield args, kwargs


def _place(args, duck):
    return [duck if a == "slot" else [duck] if a == ["slot"] else a for a in args]


def _numpy_relevance(numpy_fn):
    """[(args, kwargs, whether NumPy hands the duck in "slot" the call)] for each placement: NumPy's
    dispatcher is the oracle. Fillers are ones, or lists of one (select's dispatcher iterates them)."""
    for filler in (1, [1]):
        out = []
        for args, kwargs in _candidates(numpy_fn, filler):
            duck = Duck()
            with contextlib.suppress(Exception):  # the duck is not where NumPy dispatches on it
                numpy_fn(*_place(args, duck), **kwargs)
            out.append((args, kwargs, duck.calls == [numpy_fn]))
        if any(hit for _, _, hit in out):
            return out
    return out


def test_the_walk_covers_numpys_dispatched_functions():
    names = {name for name, _, _ in DISPATCHED}
    assert len(DISPATCHED) > 300
    expected = {"where", "concatenate", "dot", "unique", "linalg.norm", "fft.fft", "emath.sqrt"}
    assert expected | {"strings.upper", "char.split"} <= names


@pytest.mark.parametrize("name, numpy_fn, fn", DISPATCHED, ids=[d[0] for d in DISPATCHED])
def test_a_relevant_duck_receives_the_call_from_arraystack(name, numpy_fn, fn):
    relevant = [(args, kwargs) for args, kwargs, hit in _numpy_relevance(numpy_fn) if hit]
    assert relevant, f"numpy.{name}: no placement NumPy dispatches on"
    for args, kwargs in relevant:
        duck = Duck()
        assert fn(*_place(args, duck), **kwargs) == "duck", name
        assert duck.calls == [numpy_fn], name  # `func` is NumPy's own function


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name, numpy_fn, fn", DISPATCHED, ids=[d[0] for d in DISPATCHED])
def test_relevance_is_numpys(name, numpy_fn, fn):
    """The deferral is decided as NumPy's dispatcher decides, for every placement of the duck."""
    for args, kwargs, hit in _numpy_relevance(numpy_fn):
        placed = _place(args, Duck())
        assert overrides.relevant_overriding(numpy_fn, placed, kwargs) is hit, f"{name}{tuple(args)}"


S = pandas.Series([1.0, 4.0, 9.0], index=["a", "b", "c"])
DF = pandas.DataFrame({"x": [1.0, 4.0], "y": [9.0, 16.0]}, index=["r", "s"])

# pandas objects only: arraystack's result is NumPy's own, of the same type (a Series keeps its index)
PANDAS = [
    lambda xp: xp.log(S),
    lambda xp: xp.sqrt(DF),
    lambda xp: xp.where(S > 2, S, 0),
    lambda xp: xp.concatenate([S, S]),
    lambda xp: xp.mean(S),
    lambda xp: xp.mean(DF, axis=0),
    lambda xp: xp.cumsum(S),
    lambda xp: xp.cumsum(DF, axis=0),
    lambda xp: xp.diff(S),
    lambda xp: xp.clip(S, 2, 5),
    lambda xp: xp.round(S / 3, 2),
    lambda xp: xp.around(S / 3, 1),
    lambda xp: xp.sort(S),
    lambda xp: xp.unique(S),
    lambda xp: xp.squeeze(DF),
    lambda xp: xp.repeat(S, 2),
    lambda xp: xp.amax(DF),
    lambda xp: xp.percentile(S, 50),
    lambda xp: xp.linalg.norm(DF),
    lambda xp: xp.fft.fft(S),
    lambda xp: xp.stack([S, S]),
]

# pandas objects with arraystack arrays: NumPy's protocol comes back to arraystack (an arraystack array)
MIXED = [
    lambda xp: xp.where(xp.asarray([True, False, True]), S, 0),
    lambda xp: xp.concatenate([xp.ones(2), S]),
    lambda xp: xp.concatenate([S, xp.ones(2)]),
    lambda xp: xp.dot(xp.ones((2, 2)), DF),
    lambda xp: xp.stack([xp.ones(3), S]),
    lambda xp: xp.take(xp.arange(5.0), pandas.Series([0, 2])),  # indices: not dispatched on
]


def _same(got, expected):
    if isinstance(expected, (pandas.Series, pandas.DataFrame)):
        pandas.testing.assert_frame_equal(pandas.DataFrame(got), pandas.DataFrame(expected))
    else:
        numpy.testing.assert_array_equal(numpy.asarray(got), numpy.asarray(expected))


@pytest.mark.parametrize("k", range(len(PANDAS)))
def test_pandas_objects_come_out_as_numpy_makes_them(k):
    expected = PANDAS[k](numpy)
    got = PANDAS[k](arraystack)
    assert type(got) is type(expected)
    _same(got, expected)


@pytest.mark.parametrize("k", range(len(MIXED)))
def test_pandas_objects_with_arraystack_arrays_give_arraystack_arrays(k):
    expected = MIXED[k](numpy)
    got = MIXED[k](arraystack)
    assert type(expected) is numpy.ndarray and type(got) is arraystack.ndarray
    _same(got, expected)


def test_nested_lists_and_keyword_arguments_are_looked_into():
    duck = Duck()
    assert arraystack.block([[arraystack.ones(2), duck]]) == "duck"
    assert arraystack.clip(arraystack.ones(2), a_min=duck, a_max=1) == "duck"
    assert duck.calls == [numpy.block, numpy.clip]


def test_plain_and_traced_calls_stay_arraystacks():
    x = arraystack.asarray([3.0, 1.0, 2.0])
    for out in (arraystack.diff(x), arraystack.where(x > 1, x, 0), arraystack.unique(x)):
        assert type(out) is arraystack.ndarray
    assert type(arraystack.concatenate([x, numpy.ones(1), [1.0]])) is arraystack.ndarray
    aval = ShapedArray((3,), numpy.dtype("float64"))
    traced = run_on_tracer(lambda t: arraystack.diff(arraystack.sort(t)), aval)
    assert type(traced) is arraystack.ndarray


def test_the_python_path_defers_as_the_accelerated_one(monkeypatch):
    monkeypatch.setattr(accelerator, "fastpath", None)
    where = overrides.deferring(overrides.undeferred(arraystack.where), numpy.where)
    take = overrides.deferring(overrides.undeferred(arraystack.take), numpy.take)
    assert inspect.isfunction(where) and inspect.isfunction(take)
    duck = Duck()
    assert where(arraystack.ones(2) > 0, duck, 0) == "duck" and duck.calls == [numpy.where]
    assert type(where(arraystack.ones(2) > 0, S.to_numpy()[:2], 0)) is arraystack.ndarray
    assert type(where(S > 2, S, 0)) is numpy.ndarray  # NumPy's own where: pandas has no NEP 18
    assert type(take(arraystack.arange(5.0), pandas.Series([0, 2]))) is arraystack.ndarray


def test_numpys_dispatch_back_to_arraystack_does_not_defer_again():
    got = numpy.concatenate([S, arraystack.ones(2)])  # pandas has no __array_function__
    assert type(got) is arraystack.ndarray and numpy.asarray(got).tolist() == [1.0, 4.0, 9.0, 1.0, 1.0]


# -- arraystack.ufunc ------------------------------------------------------------------------------------------


def test_isinstance_ufunc():
    elementwise = [n for n in arraystack.__all__ if hasattr(getattr(arraystack, n), "accumulate")]
    assert len(elementwise) > 90
    assert all(isinstance(getattr(arraystack, n), arraystack.ufunc) for n in elementwise)
    assert isinstance(numpy.add, arraystack.ufunc) and isinstance(numpy.matmul, arraystack.ufunc)
    assert isinstance(arraystack.frompyfunc(lambda a, b: a, 2, 1), arraystack.ufunc)
    for other in (arraystack.sum, arraystack.where, arraystack.vectorize(abs), arraystack.ufunc, len):
        assert not isinstance(other, arraystack.ufunc)
    assert not isinstance(arraystack.add, numpy.ufunc)  # NumPy's ufunc type cannot be subclassed
    with pytest.raises(TypeError, match="cannot create 'arraystack.ufunc' instances"):
        arraystack.ufunc()
