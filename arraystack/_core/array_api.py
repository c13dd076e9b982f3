"""The Python Array API standard (2024.12) on top of arraystack's NumPy namespace.

`arraystack` is itself the standard's namespace (`x.__array_namespace__()` returns it): NumPy 2 already
spells most of the standard's functions the standard's way (`concat`, `permute_dims`, `pow`, `acos`,
`bitwise_invert`, `astype`, `cumulative_sum`, `unstack`, `isdtype`, `std(correction=)` ...), and the frontend
families mirror them. This module adds what the standard has and the families do not: the version, the
inspection namespace (arraystack/_core/array_api_info.py) and the constants. (`diff` is in
_math/calculus.py.)

Where NumPy and the standard disagree, a NumPy name keeps NumPy's behaviour (NumPy programs run
unchanged). The cases (tests/arraystack/test_array_api.py pins each):
- `finfo(t).eps/max/min/smallest_normal` are NumPy scalars of `t`'s precision (numpy.float32 for
  float32), not Python floats; `finfo`/`iinfo(...).dtype` is a NumPy dtype.
- `can_cast(from_, to)` answers NumPy's "safe" casting, so int8 -> float32 is True; the standard's
  promotion table has no cross-kind entries (array-api-strict answers False).
- `clip(x, min=, max=)` promotes x with array bounds (int8 x, int16 min -> int16) and with Python floats
  (int8 x, max=1.5 -> float64); the standard keeps x's dtype. min > max gives max, and a Python int
  bound outside x's range raises NumPy's OverflowError (both unspecified in the standard).
- `sign(z)` of a complex infinity is NumPy's limit (sign(inf*1j) = 1j), where the standard's rule
  (complex division z/|z|) gives nan+nanj (array-api-strict's naive division also overflows for
  subnormal |z|: nan+infj, NumPy's 1j is right); `x ** s` for s in (-1, 0, 0.5, 1, 2) takes NumPy's fast
  path (x ** 0.5 is sqrt(x): (inf*1j) ** 0.5 = inf+infj, pow(inf*1j, 0.5) = inf+nanj).
- `meshgrid` and `broadcast_arrays` return tuples (NumPy 2; the 2024.12 text says list, 2025.12 tuple).
- Reductions over all axes, `count_nonzero(x)` and 0-d indexing return 0-d arraystack arrays, as the
  standard requires; eagerly such an array holds the NumPy scalar NumPy returns there (a *scalar
  result*, arraystack/_core/array.py `wrap`), so it also prints and hashes as NumPy's scalar does.
- `cumulative_sum(x, include_initial=True)` keeps the sign of a leading -0.0 after the initial 0, as
  NumPy's does; array-api-strict adds them (0.0). `clip` on equal zeros of opposite sign is NumPy's.
- `diff(x, prepend=None, append=None)` (in _math/calculus.py): the standard's None means "nothing
  to add"; NumPy raises a TypeError, and so does arraystack (bad input gets NumPy's exception).
Behaviour the standard leaves unspecified (mixed-kind promotion, bool sums, integer `mean`, flat
indexing of n-d arrays, in-place ops that change dtype) is NumPy's throughout.
"""

from __future__ import annotations

import math

from arraystack._core.array_api_info import __array_namespace_info__

__array_api_version__ = "2024.12"

e = math.e
pi = math.pi
inf = math.inf
nan = math.nan
newaxis = None

__all__ = [
    "__array_api_version__",
    "__array_namespace_info__",
    "e",
    "inf",
    "nan",
    "newaxis",
    "pi",
]
