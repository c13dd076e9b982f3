"""arraystack.lib.mixins: NumPy's mixin that defines Python's operators through `__array_ufunc__`
(numpy.lib.mixins).

A class that implements `__array_ufunc__` gets `+`, `<`, `abs()` and the rest from it. The operators
call NumPy's ufuncs, which hand the work to the class's `__array_ufunc__` (and to arraystack's, for an
arraystack array among the operands), so the class is the same one NumPy offers.
"""

from __future__ import annotations

from numpy.lib.mixins import NDArrayOperatorsMixin

__all__ = ["NDArrayOperatorsMixin"]
