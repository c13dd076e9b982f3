"""Floating-point error handling (mirrors NumPy's errstate/seterr/geterr/seterrcall/geterrcall).

Eager arithmetic runs NumPy's ufuncs (jit/reference.py), so NumPy's error state is arraystack's: these are
NumPy's own functions, re-exported. Compiled code (arraystack.jit) does not check floating-point errors.
"""

from __future__ import annotations

import numpy as np

errstate = np.errstate
seterr = np.seterr
geterr = np.geterr
seterrcall = np.seterrcall
geterrcall = np.geterrcall

__all__ = ["errstate", "geterr", "geterrcall", "seterr", "seterrcall"]
