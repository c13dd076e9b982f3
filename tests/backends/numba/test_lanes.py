"""The lanes intrinsics (backends/numba/lanes.py) against the order summation_order.py writes down."""

import numpy as np
import pytest

numba = pytest.importorskip("numba")

from arraystack.backends.numba.intrinsics import stack_lanes  # noqa: E402
from arraystack.backends.numba.lanes import lanes_fill, lanes_flush, lanes_fold  # noqa: E402
from arraystack.backends.numba.summation_order import LANES  # noqa: E402


@numba.njit
def _fill_flush(wide_values, narrow_values, start):
    """Lanes filled with `start`, loaded with the values, narrow flushed into wide: (wide, narrow)."""
    wide = stack_lanes(np.float64(0.0), 64)
    narrow = stack_lanes(np.float32(0.0), 64)
    lanes_fill(wide, start)
    lanes_fill(narrow, np.float32(0.0))
    for j in range(64):
        wide[j] = wide[j] + wide_values[j]
        narrow[j] = narrow[j] + narrow_values[j]
    lanes_flush(wide, narrow)
    return wide.copy(), narrow.copy()


@numba.njit
def _folds(values):
    """(lanes_fold's sum, its product) of the values."""
    wide = stack_lanes(np.float64(0.0), 64)
    narrow = stack_lanes(np.float64(0.0), 64)
    for j in range(64):
        wide[j] = values[j]
        narrow[j] = values[j]
    return lanes_fold(wide, False), lanes_fold(narrow, True)


def _halving(values, op):
    lanes = values.copy()
    h = LANES // 2
    while h:
        lanes[:h] = op(lanes[:h], lanes[h : 2 * h])
        h //= 2
    return lanes[0]


def test_fill_then_flush_joins_each_narrow_lane_into_its_wide_one_and_clears_it():
    rng = np.random.default_rng(0)
    wide_values = rng.standard_normal(LANES)
    narrow_values = rng.standard_normal(LANES).astype(np.float32)
    wide, narrow = _fill_flush(wide_values, narrow_values, np.float64(0.25))
    expected = (0.25 + wide_values) + narrow_values.astype(np.float64)
    assert wide.tobytes() == expected.tobytes()
    assert not narrow.any()


@pytest.mark.parametrize("seed", range(4))
def test_fold_adds_and_multiplies_in_halves_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(LANES) * 10.0 ** rng.integers(-8, 8, LANES)
    assert _folds(values)[0] == _halving(values, np.add)  # a pairwise order of its own, not NumPy's sum
    factors = 1.0 + rng.standard_normal(LANES) / 8
    assert _folds(factors)[1] == _halving(factors, np.multiply)


def test_fold_keeps_nan_inf_and_signed_zero():
    values = np.zeros(LANES)
    values[5] = np.inf
    assert _folds(values)[0] == np.inf
    values[40] = -np.inf
    assert np.isnan(_folds(values)[0])
    negative_zeros = np.full(LANES, -0.0)
    assert np.signbit(_folds(negative_zeros)[0])  # -0.0 + -0.0 stays -0.0 in every stage
