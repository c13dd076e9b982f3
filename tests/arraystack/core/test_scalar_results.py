"""Scalar results: where NumPy returns a NumPy scalar (full reductions, integer indexing, iteration over a
1-d array, ufuncs and operators of 0-d operands), arraystack returns a 0-d array holding that NumPy scalar.
It prints, hashes and computes as NumPy's scalar does, and stays an arraystack array (the Array API's 0-d
array). Explicit 0-d arrays stay arrays, and transformations (jit, grad, vmap) return arrays, as JAX's do."""

from __future__ import annotations

import collections
import copy
import math
import pickle

import numpy
import pytest

import arraystack

A = numpy.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=numpy.int64)
F = numpy.linspace(-1.5, 2.0, 8)

EXPRESSIONS = [
    lambda xp, a, f: a.sum(),
    lambda xp, a, f: xp.max(a),
    lambda xp, a, f: xp.mean(f),
    lambda xp, a, f: f.std(),
    lambda xp, a, f: xp.argmax(f),
    lambda xp, a, f: a[2],
    lambda xp, a, f: f[-1],
    lambda xp, a, f: a.reshape(2, 4)[1, 2],
    lambda xp, a, f: a.sum() + 1,
    lambda xp, a, f: a.sum() * 2.5,
    lambda xp, a, f: -f.max(),
    lambda xp, a, f: f[0] == f[0],
    lambda xp, a, f: xp.sin(f[1]),
    lambda xp, a, f: xp.sqrt(xp.float32(2.0)),
    lambda xp, a, f: xp.asarray(3.0) + 1,
    lambda xp, a, f: xp.linalg.norm(f),
    lambda xp, a, f: xp.dot(f, f),
    lambda xp, a, f: xp.count_nonzero(a),
    lambda xp, a, f: xp.all(a > 0),
    lambda xp, a, f: xp.add(xp.int64(5), 1),
    lambda xp, a, f: xp.add(5, 1),
    lambda xp, a, f: xp.multiply(2, xp.float32(3)),
    lambda xp, a, f: xp.maximum(xp.asarray(2), 1.5),
    lambda xp, a, f: xp.negative(xp.asarray(4)),
    lambda xp, a, f: xp.median(f),
    lambda xp, a, f: xp.nanmedian(f),
    lambda xp, a, f: xp.percentile(a, 33),
    lambda xp, a, f: xp.nanpercentile(f, 33, method="nearest"),
    lambda xp, a, f: xp.quantile(f, 0.3, method="hazen"),
    lambda xp, a, f: xp.nanquantile(f, 0.7),
    lambda xp, a, f: xp.nanvar(f),
    lambda xp, a, f: xp.interp(0.25, f, f * 2),
    lambda xp, a, f: xp.interp(0.25, f, f + 1j),
    lambda xp, a, f: xp.searchsorted(a[::2], 4),
    lambda xp, a, f: xp.unstack(f)[3],
    lambda xp, a, f: xp.linalg.lstsq(f.reshape(4, 2), f[:4], rcond=None)[2],
]
ARRAYS = [
    lambda xp, a, f: xp.asarray(3),
    lambda xp, a, f: xp.zeros(()),
    lambda xp, a, f: a.reshape(2, 4)[1:, 2:3].reshape(()),
    lambda xp, a, f: xp.asarray(2.0)[...],
    lambda xp, a, f: xp.sum(a, keepdims=True),
    lambda xp, a, f: a[2:3],
]


@pytest.mark.parametrize("k", range(len(EXPRESSIONS)))
def test_scalar_results_print_and_hash_as_numpys_scalars(k):
    with numpy.errstate(all="ignore"):
        expected = EXPRESSIONS[k](numpy, A.copy(), F.copy())
        got = EXPRESSIONS[k](arraystack, arraystack.asarray(A), arraystack.asarray(F))
    assert isinstance(expected, numpy.generic)
    assert isinstance(got, arraystack.ndarray) and got.shape == () and got.ndim == 0
    assert got.dtype == expected.dtype
    assert repr(got) == repr(expected) and str(got) == str(expected)
    assert hash(got) == hash(expected) and got == expected
    spec = ".3" if expected.dtype.kind in "fc" else ""
    assert format(got, spec) == format(expected, spec)


@pytest.mark.parametrize("k", range(len(ARRAYS)))
def test_explicit_zero_d_and_other_arrays_stay_arrays(k):
    expected = ARRAYS[k](numpy, A.copy(), F.copy())
    got = ARRAYS[k](arraystack, arraystack.asarray(A), arraystack.asarray(F))
    assert isinstance(expected, numpy.ndarray)
    assert repr(got) == repr(expected)
    with pytest.raises(TypeError, match="unhashable"):
        hash(got)


def _python_rounding(value):
    """round(), round(, 1), round(, -1) and math.trunc() of `value`: each result's repr, or the
    exception's type and message."""
    found = []
    for f in (round, lambda v: round(v, 1), lambda v: round(v, -1), math.trunc):
        try:
            found.append(repr(f(value)))
        except TypeError as e:
            found.append(f"TypeError: {str(e).replace('numpy.ndarray', 'ndarray')}")
    return found


@pytest.mark.parametrize("k", range(len(EXPRESSIONS) + len(ARRAYS)))
def test_round_and_trunc_are_numpys(k):
    """round(np.mean(a), 3) rounds the scalar result as NumPy's scalar does (an int, or a scalar of
    its dtype with ndigits; bools and complex values refuse); math.trunc is float64's alone; NumPy's
    arrays, 0-d ones too, have neither."""
    make = (EXPRESSIONS + ARRAYS)[k]
    with numpy.errstate(all="ignore"):
        expected = make(numpy, A.copy(), F.copy())
        got = make(arraystack, arraystack.asarray(A), arraystack.asarray(F))
    assert _python_rounding(got) == _python_rounding(expected)


@pytest.mark.parametrize("k", range(len(EXPRESSIONS) + len(ARRAYS)))
def test_the_methods_of_numpys_scalars_are_a_scalar_results(k):
    """float64.is_integer(), int64.bit_count(), ...: a scalar result has them as its NumPy scalar
    does (the same values, the same AttributeError for another type); arrays have none."""
    make = (EXPRESSIONS + ARRAYS)[k]
    with numpy.errstate(all="ignore"):
        expected = make(numpy, A.copy(), F.copy())
        got = make(arraystack, arraystack.asarray(A), arraystack.asarray(F))
    for name in ("is_integer", "as_integer_ratio", "bit_count", "hex", "numerator", "denominator"):
        if hasattr(expected, name):
            want = getattr(expected, name)
            want = want() if callable(want) and name != "fromhex" else want
            found = getattr(got, name)
            assert (found() if callable(found) else found) == want, name
        else:
            assert not hasattr(got, name), name


def test_dump_and_dumps_pickle_the_array(tmp_path):
    a = arraystack.asarray(F)
    assert repr(pickle.loads(a.dumps())) == repr(a) and repr(pickle.loads(F.dumps())) == repr(F)
    a.dump(tmp_path / "a.pkl")
    numpy.testing.assert_array_equal(arraystack.load(tmp_path / "a.pkl", allow_pickle=True), F)


def test_scalars_key_dicts_join_sets_and_count():
    a = arraystack.asarray(A)
    assert set(a) == set(A) and collections.Counter(a) == collections.Counter(A)
    table = {a[0]: "first"}
    assert table[numpy.int64(3)] == "first" and table[3] == "first"
    assert sorted(a) == sorted(A)
    assert [repr(v) for v in a] == [repr(v) for v in A]
    assert max(a) == max(A) and float(sum(arraystack.asarray(F))) == pytest.approx(sum(F))


def test_a_scalar_result_is_immutable_like_numpys():
    s = arraystack.asarray(A).sum()
    t = s
    s += 1  # a new scalar, as in NumPy: t keeps its value
    assert repr(s) == "np.int64(32)" and repr(t) == "np.int64(31)"
    with pytest.raises(TypeError):
        t[()] = 5
    assert repr(t[()]) == "np.int64(31)" and repr(t[...]) == "array(31)"


def test_scalar_results_are_arraystack_arrays_of_the_standard():
    s = arraystack.asarray(F).sum()
    assert s.__array_namespace__() is arraystack and s.device == arraystack.asarray(F).device
    assert arraystack.asarray(s).shape == () and numpy.asarray(s).shape == ()
    assert float(s) == float(F.sum()) and s.item() == F.sum().item()
    assert bytes(memoryview(s)) == bytes(memoryview(F.sum()))
    assert repr(pickle.loads(pickle.dumps(s))) == repr(F.sum())
    assert arraystack.asarray(A)[arraystack.asarray(A)[6]] == A[A[6]]  # an integer scalar indexes


def test_transformations_return_arrays():
    f = arraystack.asarray(F)
    assert repr(arraystack.jit(lambda x: x.sum())(f)) == repr(numpy.asarray(F.sum()))
    assert repr(arraystack.grad(lambda x: (x * x).sum())(f[1])) == repr(numpy.asarray(2 * F[1]))
    value, _ = arraystack.value_and_grad(lambda x: (x * x).sum())(f)
    assert isinstance(value, arraystack.ndarray) and repr(value) == repr(numpy.asarray((F * F).sum()))
    assert repr(arraystack.vmap(lambda r: r.sum())(f.reshape(2, 4))) == repr(F.reshape(2, 4).sum(1))


def test_scalar_results_under_a_trace_are_traced_arrays():
    def g(x):
        s = x.sum()
        assert isinstance(s, arraystack.ndarray)
        return s * x

    numpy.testing.assert_allclose(arraystack.jit(g)(F), F.sum() * F)


def test_membership_is_numpys():
    a = arraystack.asarray(A)
    for item in (4, 7, 4.0, numpy.int64(9), "x"):
        assert (item in a) == (item in A)
    assert (31 in a.sum()) == (31 in numpy.asarray(A.sum()))
    dates = numpy.array(["2020-01-01", "2020-01-03"], "datetime64[D]")
    for item in (numpy.timedelta64(1, "h"), numpy.datetime64("2020-01-03"), numpy.datetime64("2021-01-01")):
        assert (item in arraystack.asarray(dates)) == (item in dates)


UFUNCS = sorted(  # the elementwise ones (gufuncs such as matmul need 1-d operands)
    n
    for n in dir(numpy)
    if isinstance(getattr(numpy, n), numpy.ufunc) and getattr(numpy, n).signature is None
)


@pytest.mark.parametrize("name", UFUNCS)
def test_every_ufunc_of_0d_operands_gives_numpys_scalar(name):
    """A ufunc's 0-d result is a scalar (NumPy's PyArray_Return), also where arraystack composes it of
    several primitives (positive, fmax, heaviside, logaddexp, spacing, lcm, ...)."""
    ufunc = numpy.__dict__[name]
    tried = 0
    operands = (numpy.float64(1.5), 2, numpy.array(0.75), True, numpy.int8(3), numpy.float32(-2.0))
    for operand in operands + (numpy.datetime64("2026-01-02"),):
        args = (operand,) * ufunc.nin
        try:
            expected = ufunc(*args)
        except TypeError:  # a loop NumPy does not have (bitwise ops of floats, ...)
            continue
        tried += 1
        assert repr(getattr(arraystack, name)(*args)) == repr(expected), (name, operand)
    assert tried


SEQUENCES = [[1, 2], (1, 2), "ab", b"ab", bytearray(b"ab"), collections.deque([1])]


@pytest.mark.parametrize("sequence", SEQUENCES, ids=lambda s: type(s).__name__)
def test_an_integer_scalar_repeats_a_python_sequence_as_numpys_does(sequence):
    """`[0] * n` with n a scalar result is a list of n zeros (NumPy's scalar defers to the sequence's
    repeat); a float or bool scalar raises TypeError, and a 0-d array multiplies the elements."""
    for xp in (numpy, arraystack):
        n = xp.asarray(A).max() - 6
        assert n * sequence == sequence * 3 and sequence * n == sequence * 3
        for other in (xp.asarray(F).sum(), xp.asarray(A)[0] > 1):
            with pytest.raises(TypeError, match="can't multiply sequence by non-int"):
                sequence * other
    if isinstance(sequence, list):
        expected = sequence * numpy.asarray(3)
        numpy.testing.assert_array_equal(sequence * arraystack.asarray(3), expected)


def test_copy_and_deepcopy_keep_scalars_and_copy_object_elements():
    s = arraystack.asarray(F).sum()
    for copied in (copy.copy(s), copy.deepcopy(s)):
        assert repr(copied) == repr(numpy.sum(F)) and copied.shape == ()
    assert repr(copy.deepcopy(arraystack.asarray(2.0))) == "array(2.)"
    x = arraystack.empty(2, dtype=object)
    x[0], x[1] = [1], {"k": 1}
    y = copy.deepcopy(x)
    y[0].append(2)
    assert x[0] == [1] and y[0] == [1, 2] and y[1] == {"k": 1} and y[1] is not x[1]
