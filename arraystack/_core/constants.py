"""NumPy's constants beyond the Array API's (e, pi, inf, nan and newaxis are in array_api.py)."""

from __future__ import annotations

import numpy as np

euler_gamma = np.euler_gamma

__all__ = ["euler_gamma"]
