"""Fixtures of the frontend's tests."""

from __future__ import annotations

import warnings

import numpy
import pytest

from arraystack._core.array import _fastpath


@pytest.fixture(params=[True, False], ids=["c", "python"])
def accelerated(request):
    """The test runs with the C accelerator's fast paths on, then off (the pure-Python definitions)."""
    if _fastpath is None:
        if request.param:
            pytest.skip("the C accelerator is not built")
        yield False
        return
    previous = _fastpath.set_enabled(request.param)
    yield request.param
    _fastpath.set_enabled(previous)


@pytest.fixture
def quiet_numerics():
    """NumPy's and arraystack's RuntimeWarnings and ComplexWarnings are ignored (empty slices, NaN and inf
    inputs warn in both alike), for tests that compare the values."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
        yield
