"""Good manners with other libraries: arraystack's ufuncs, operators and NumPy's method-delegating
functions hand objects that override NumPy (pandas, masked arrays, any NEP 13/18 implementer) to NumPy's
function, which dispatches them as it does for NumPy's own calls; an object opting out of ufuncs
(`__array_ufunc__ = None`) gets NotImplemented from operators; another library's ufunc (scipy.special) runs
on arraystack arrays eagerly and names arraystack.scipy.special under a transformation."""

from __future__ import annotations

import numpy
import pandas
import pytest
import scipy.special

import arraystack

S = pandas.Series([1.0, 4.0, 9.0], index=["a", "b", "c"])
DF = pandas.DataFrame({"x": [1.0, 4.0], "y": [9.0, 16.0]}, index=["r", "s"])

CALLS = [
    lambda xp: xp.log(S),
    lambda xp: xp.sqrt(DF),
    lambda xp: xp.maximum(S, 2.0),
    lambda xp: xp.add(S, S),
    lambda xp: xp.arange(3.0) + S,
    lambda xp: xp.arange(3.0) * S,
    lambda xp: xp.arange(3.0) < S,
    lambda xp: xp.exp(DF) - 1,
    lambda xp: xp.sum(S),
    lambda xp: xp.mean(DF),
    lambda xp: xp.round(S / 3, 2),
    lambda xp: xp.clip(S, 2, 5),
    lambda xp: xp.cumsum(S),
    lambda xp: xp.max(DF),
    lambda xp: xp.transpose(DF),
]


@pytest.mark.parametrize("k", range(len(CALLS)))
def test_pandas_objects_keep_their_type_and_index(k):
    expected = CALLS[k](numpy)
    got = CALLS[k](arraystack)
    assert type(got) is type(expected)
    if isinstance(expected, (pandas.Series, pandas.DataFrame)):
        pandas.testing.assert_frame_equal(pandas.DataFrame(got), pandas.DataFrame(expected))
    else:
        assert got == expected


UFUNCS = sorted(
    n for n in dir(numpy) if isinstance(getattr(numpy, n), numpy.ufunc) and hasattr(arraystack, n)
)


@pytest.mark.parametrize("name", UFUNCS)
def test_every_ufunc_hands_a_series_to_numpy(name):
    """Comparisons, the ufuncs composed of others (square, reciprocal, logaddexp, ...) and the
    gufuncs (vecdot, matvec, vecmat) among them."""
    ufunc = getattr(numpy, name)
    series = pandas.Series([1.0, -2.0, 3.0])
    args = [series] * ufunc.nin
    if name in ("matvec", "vecmat"):
        args = [numpy.ones((3, 3)), series][:: 1 if name == "matvec" else -1]

    def outcome(xp):
        with numpy.errstate(all="ignore"):
            try:
                value = getattr(xp, name)(*args)
            except Exception as e:  # noqa: BLE001 - NumPy's failure is the expectation
                return type(e)
        return type(value[0] if isinstance(value, tuple) else value)

    assert outcome(arraystack) is outcome(numpy)


class OptsOut:
    """Declines ufuncs (NEP 13): NumPy's operators return NotImplemented, so Python asks it."""

    __array_ufunc__ = None

    def __radd__(self, other):
        return "radd"

    def __rmul__(self, other):
        return "rmul"


def test_an_object_opting_out_of_ufuncs_is_asked_by_python():
    for xp in (numpy, arraystack):
        x = xp.asarray([1.0, 2.0])
        assert x + OptsOut() == "radd" and x * OptsOut() == "rmul" and x[0] + OptsOut() == "radd"
        with pytest.raises(TypeError, match="does not support ufuncs"):
            xp.add(x, OptsOut())


class Logged:
    """A minimal NEP 13/18 array: records what NumPy handed it and computes on its data."""

    def __init__(self, data):
        self.data = numpy.asarray(data)
        self.seen = []

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        self.seen.append(ufunc.__name__)
        values = [x.data if isinstance(x, Logged) else numpy.asarray(x) for x in inputs]
        return Logged(getattr(ufunc, method)(*values, **kwargs))

    def __array_function__(self, func, types, args, kwargs):
        self.seen.append(func.__name__)

        def data(a):
            if isinstance(a, (list, tuple)):
                return type(a)(data(b) for b in a)
            return a.data if isinstance(a, Logged) else a

        return Logged(func(*data(args), **kwargs))


def test_any_nep_13_and_18_implementer_receives_the_call():
    x = Logged([1.0, 2.0, 3.0])
    out = arraystack.sin(x)
    assert isinstance(out, Logged) and x.seen == ["sin"]
    numpy.testing.assert_allclose(out.data, numpy.sin([1.0, 2.0, 3.0]))
    assert isinstance(arraystack.sum(x), Logged) and x.seen[-1] == "sum"
    assert isinstance(arraystack.concatenate([x, x]), Logged) and x.seen[-1] == "concatenate"
    assert isinstance(arraystack.asarray([1.0, 2.0, 3.0]) + x, Logged) and x.seen[-1] == "add"


def test_masked_arrays_keep_their_mask_through_arraystacks_functions():
    x = arraystack.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    assert float(arraystack.sum(x)) == 4.0 and float(arraystack.mean(x)) == 2.0
    y = numpy.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    got = arraystack.log(y)
    assert isinstance(got, numpy.ma.MaskedArray) and got.mask.tolist() == [False, True, False]
    assert arraystack.sum(y) == 4.0


def test_another_librarys_ufunc_runs_on_arraystack_arrays():
    x = arraystack.asarray([0.5, 1.5, 2.5])
    got = scipy.special.gamma(x)
    assert isinstance(got, arraystack.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(got), scipy.special.gamma([0.5, 1.5, 2.5]))
    assert repr(scipy.special.expit(x[0])) == repr(scipy.special.expit(numpy.float64(0.5)))
    out = arraystack.zeros(3)
    assert scipy.special.gamma(x, out=out) is out
    numpy.testing.assert_array_equal(numpy.asarray(out), numpy.asarray(got))


def test_another_librarys_ufunc_under_jit_names_arraystack_scipy_special():
    x = arraystack.asarray([0.5, 1.5])
    with pytest.raises(TypeError, match=r"gammainc is another library's.*traced.*arraystack.scipy.special has"):
        arraystack.jit(lambda v: scipy.special.gammainc(v, v))(x)
    with pytest.raises(TypeError, match=r"arraystack.scipy.special.erf traces"):
        arraystack.jit(lambda v: scipy.special.erf(v))(x)
    numpy.testing.assert_allclose(
        arraystack.jit(lambda v: arraystack.scipy.special.erf(v))(x), scipy.special.erf([0.5, 1.5])
    )


def test_plain_calls_never_take_the_deferred_path():
    x = arraystack.asarray([1.0, 2.0])
    assert type(arraystack.sum(x)) is arraystack.ndarray and type(arraystack.log(x)) is arraystack.ndarray
    assert type(arraystack.concatenate([x, [3.0]])) is arraystack.ndarray
    assert type(arraystack.sum([1, 2])) is arraystack.ndarray
