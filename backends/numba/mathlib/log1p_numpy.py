"""log1p.py's log1p as NumPy array code, bit for bit, for tier 0: log(u) * (x / (u - 1)), u = 1 + x,
with exp_log_numpy.py's log. No numba import."""

from __future__ import annotations

import numpy as np
from arraystack.backends.numba.mathlib.exp_log_numpy import _log_f32, _log_f64


def _log1p(x, log, one):
    u = x + one
    y = log(u) * (x / (u - one))
    y = np.where(u == one, x, y)
    y = np.where(u == np.inf, u, y)
    y = np.where(x < -one, np.array(np.nan, x.dtype), y)
    return np.where(x != x, x, y)


def _log1p_f64(x):
    return _log1p(x, _log_f64, 1.0)


def _log1p_f32(x):
    return _log1p(x, _log_f32, np.float32(1.0))
