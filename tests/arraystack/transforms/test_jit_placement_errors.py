"""NumPy's floating-point error state under jit(f, policy=..., devices=...): a placed function (planned, run
by the execution engine) honours np.errstate at call time as the default placement does
(backends/floating_point_errors.py): where the state asks to raise or call, the call runs the reference
rules, NumPy's ufuncs, and raises or calls as NumPy does; otherwise the plan runs."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.presets import model as preset_model

import arraystack as ast
from arraystack._transforms.jit_placement import PlacedExecutable

pytestmark = pytest.mark.numba

PLACEMENTS = {
    "default": {},
    "default policy": {"policy": "default"},
    "default policy, detected devices": {"policy": "default", "devices": "detected"},
    "cost policy, simulated H100": {"policy": "cost", "devices": preset_model("h100")},
}


def _jit(fun, placement):
    options = dict(PLACEMENTS[placement])
    if options.get("devices") == "detected":
        options["devices"] = ast.devices()
    return ast.jit(fun, tiered=False, **options)


def _placed(jitted) -> bool:
    return any(isinstance(entry.executable, PlacedExecutable) for entry in jitted._cache.values())


@pytest.mark.parametrize("placement", sorted(PLACEMENTS))
def test_log_of_zero_raises_under_errstate_raise(placement):
    """The reproducer: jit(np.log, policy=...)(0.0) under errstate(all="raise")."""
    f = _jit(np.log, placement)
    with np.errstate(all="raise"):
        with pytest.raises(FloatingPointError) as numpy_error:
            np.log(np.float64(0.0))
        with pytest.raises(FloatingPointError) as error:
            f(0.0)
    assert str(error.value) == str(numpy_error.value)
    assert _placed(f) == ("devices" in PLACEMENTS[placement])


@pytest.mark.parametrize("placement", sorted(PLACEMENTS))
def test_the_plan_runs_again_once_the_state_asks_for_nothing(placement):
    f = _jit(lambda x: (ast.log(x) * 2.0, ast.sqrt(x)), placement)
    x = np.array([1.0, 0.0, 4.0, -1.0])
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError, match="divide by zero"):
        f(x)
    with np.errstate(all="ignore"):
        want = (np.log(x) * 2.0, np.sqrt(x))
        got = f(x)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), w)
    if _placed(f):
        assert f.last_run() is not None  # the engine ran the plan


def _calls(fun, x):
    """The error kinds NumPy's error state passes to its call function while fun(x) runs."""
    calls = []
    with np.errstate(all="call", call=lambda kind, flag: calls.append(kind)):
        np.asarray(fun(x))
    return calls


@pytest.mark.parametrize("placement", sorted(PLACEMENTS))
def test_errstate_call_calls_the_function_as_numpy_does(placement):
    x = np.array([0.5, 0.0, -1.0])
    want = _calls(lambda x: np.log(x) + 1.0, x)
    assert want  # divide by zero, invalid value
    assert _calls(_jit(lambda x: ast.log(x) + 1.0, placement), x) == want
