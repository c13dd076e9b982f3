"""arraystack.testing: numpy.testing's assertions, accepting arraystack arrays with NumPy's verdicts."""

from __future__ import annotations

import warnings

import numpy
import pytest
from arraystack.ir import ConcretizationError

import arraystack
import arraystack.testing as ast_testing

X = numpy.array([1.0, 2.0, numpy.nan])
Y = X + 1e-9
FAR = X + 1.0


def _asx(v):
    return arraystack.asarray(v) if isinstance(v, numpy.ndarray) else v


# (assertion name, args that pass, args that fail)
CASES = [
    ("assert_allclose", (X, Y), (X, FAR)),
    ("assert_array_equal", (X, X.copy()), (X, Y)),
    ("assert_equal", (X, X.copy()), (X, FAR)),
    ("assert_equal", ({"a": X, "b": [X, 1]}, {"a": X.copy(), "b": [X, 1]}), ({"a": X}, {"a": FAR})),
    ("assert_array_almost_equal", (X, Y), (X, X + 1e-3)),
    ("assert_almost_equal", (X, Y), (X, FAR)),
    ("assert_almost_equal", (numpy.float64(1.0), 1.0 + 1e-9), (numpy.float64(1.0), 1.1)),
    ("assert_array_less", (X[:2], FAR[:2]), (FAR[:2], X[:2])),
    ("assert_approx_equal", (numpy.float64(1.0), 1.0 + 1e-9), (numpy.float64(1.0), 1.5)),
    ("assert_array_max_ulp", (X[:2], X[:2]), (X[:2], FAR[:2])),
    ("assert_array_almost_equal_nulp", (X[:2], X[:2]), (X[:2], FAR[:2])),
]


@pytest.mark.parametrize("name, good, bad", CASES, ids=[c[0] for c in CASES])
def test_assertions_agree_with_numpy_testing(name, good, bad):
    ours, theirs = getattr(ast_testing, name), getattr(numpy.testing, name)
    theirs(*good)
    ours(*[_asx(v) for v in good])
    ours(good[0], _asx(good[1]))  # mixed NumPy and arraystack operands
    with pytest.raises(AssertionError) as want:
        theirs(*bad)
    with pytest.raises(AssertionError) as got:
        ours(
            *[
                _asx(v) if not isinstance(v, dict) else {k: _asx(w) for k, w in v.items()}
                for v in bad
            ]
        )
    assert str(got.value) == str(want.value)  # NumPy's message, arrays printed as NumPy prints them


def test_keyword_arguments_and_nan_handling():
    a = arraystack.asarray(X)
    ast_testing.assert_allclose(a, arraystack.asarray(X * (1 + 1e-5)), rtol=1e-4)
    with pytest.raises(AssertionError):
        ast_testing.assert_allclose(actual=a, desired=arraystack.asarray(X), equal_nan=False)
    ast_testing.assert_array_equal(a, X, strict=True)
    with pytest.raises(AssertionError):
        ast_testing.assert_array_equal(a, X.astype(numpy.float32), strict=True)
    ast_testing.assert_equal(arraystack.asarray(3), 3)
    ast_testing.assert_equal((a, [arraystack.asarray(1)]), (X, [1]))


def test_exception_and_warning_assertions_are_numpys():
    ast_testing.assert_raises(ZeroDivisionError, lambda: 1 / 0)
    with ast_testing.assert_raises(FloatingPointError), arraystack.errstate(divide="raise"):
        arraystack.asarray(1.0) / 0
    ast_testing.assert_raises_regex(
        ValueError, "bad", lambda: (_ for _ in ()).throw(ValueError("bad"))
    )
    with warnings.catch_warnings():
        # NumPy 2.4 deprecates its warning helpers
        warnings.simplefilter("ignore", DeprecationWarning)
        ast_testing.assert_warns(UserWarning, lambda: warnings.warn("w", UserWarning))
        assert ast_testing.assert_no_warnings(lambda: 3) == 3
    assert ast_testing.assert_warns is numpy.testing.assert_warns
    ast_testing.assert_string_equal("abc", "abc")
    ast_testing.assert_(arraystack.asarray(True))


def test_traced_values_cannot_be_asserted_on():
    @arraystack.jit
    def f(x):
        ast_testing.assert_allclose(x, 1.0)
        return x

    with pytest.raises(ConcretizationError):
        f(arraystack.ones(2))


def test_namespace():
    assert arraystack.testing is ast_testing
    # functions and classes, and the platform's facts (HAS_REFCOUNT, ...)
    for name in ast_testing.__all__:
        assert callable(getattr(ast_testing, name)) or name.isupper() or name == "verbose", name
    missing = set(numpy.testing.__all__) - set(ast_testing.__all__)
    # what describes NumPy's own build and install, and NumPy's exec helper, is NumPy's alone
    own = {"NUMPY_ROOT", "IS_EDITABLE", "IS_INSTALLED", "HAS_LAPACK64", "BLAS_SUPPORTS_FPE"}
    assert missing <= own | {"check_support_sve", "overrides", "runstring"}, missing
