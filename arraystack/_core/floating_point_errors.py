"""Floating-point error handling (mirrors NumPy's errstate/seterr/geterr/seterrcall/geterrcall).

Eager arithmetic runs NumPy's ufuncs (jit/reference.py), so NumPy's error state is arraystack's: these are
NumPy's own functions, re-exported. A jitted call honours the state at call time: where it asks to raise
(or call, print, log) on an error, the call runs on the reference path, NumPy's ufuncs, and raises as eager
mode does (backends/floating_point_errors.py).
# Note: under `warn` (NumPy's default) compiled code gives no RuntimeWarning where NumPy would.
"""

from __future__ import annotations

import numpy as np

errstate = np.errstate
seterr = np.seterr
geterr = np.geterr
seterrcall = np.seterrcall
geterrcall = np.geterrcall

__all__ = ["errstate", "geterr", "geterrcall", "seterr", "seterrcall"]
