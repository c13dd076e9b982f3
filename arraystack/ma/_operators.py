"""MaskedArray's Python operators: each is the masked function of numpy.ma's namespace it spells."""

from __future__ import annotations

import arraystack as xp


def _e():
    from arraystack.ma import _elementwise

    return _elementwise


def _compare(fn, a, b):
    from arraystack.ma._ufuncs import compare

    return compare(fn, a, b)


class MaskedOperators:
    """Arithmetic, comparison and unary operators of MaskedArray (masks propagate)."""

    __hash__ = None

    def __add__(self, other):
        return _e().add(self, other)

    def __radd__(self, other):
        return _e().add(other, self)

    def __sub__(self, other):
        return _e().subtract(self, other)

    def __rsub__(self, other):
        return _e().subtract(other, self)

    def __mul__(self, other):
        return _e().multiply(self, other)

    def __rmul__(self, other):
        return _e().multiply(other, self)

    def __truediv__(self, other):
        return _e().true_divide(self, other)

    def __rtruediv__(self, other):
        return _e().true_divide(other, self)

    def __floordiv__(self, other):
        return _e().floor_divide(self, other)

    def __rfloordiv__(self, other):
        return _e().floor_divide(other, self)

    def __mod__(self, other):
        return _e().remainder(self, other)

    def __rmod__(self, other):
        return _e().remainder(other, self)

    def __pow__(self, other):
        from arraystack.ma._ufuncs import power

        return power(self, other)

    def __rpow__(self, other):
        from arraystack.ma._ufuncs import power

        return power(other, self)

    def __and__(self, other):
        return _e().bitwise_and(self, other)

    def __rand__(self, other):
        return _e().bitwise_and(other, self)

    def __or__(self, other):
        return _e().bitwise_or(self, other)

    def __ror__(self, other):
        return _e().bitwise_or(other, self)

    def __xor__(self, other):
        return _e().bitwise_xor(self, other)

    def __rxor__(self, other):
        return _e().bitwise_xor(other, self)

    def __matmul__(self, other):
        from arraystack.ma._routines import dot

        return dot(self, other)

    def __neg__(self):
        return _e().negative(self)

    def __pos__(self):
        return self.copy()

    def __abs__(self):
        return _e().absolute(self)

    def __invert__(self):
        return _e().invert(self)

    def __eq__(self, other):
        return _compare(xp.equal, self, other)

    def __ne__(self, other):
        return _compare(xp.not_equal, self, other)

    def __lt__(self, other):
        return _compare(xp.less, self, other)

    def __le__(self, other):
        return _compare(xp.less_equal, self, other)

    def __gt__(self, other):
        return _compare(xp.greater, self, other)

    def __ge__(self, other):
        return _compare(xp.greater_equal, self, other)

    def __iadd__(self, other):
        return self._inplace(_e().add(self, other))

    def __isub__(self, other):
        return self._inplace(_e().subtract(self, other))

    def __imul__(self, other):
        return self._inplace(_e().multiply(self, other))

    def __itruediv__(self, other):
        return self._inplace(_e().true_divide(self, other))

    def _inplace(self, result):
        """Write `result` into self's data and mask (in place, as NumPy's augmented operators)."""
        from arraystack.ma._array import MaskedArray, nomask

        if isinstance(result, MaskedArray):
            self._data[...] = result._data.astype(self.dtype)
            if result._mask is not nomask:
                if self._mask is nomask:
                    self._mask = xp.zeros(self.shape, dtype=bool)
                self._mask[...] = result._mask
        else:
            self._data[...] = xp.asarray(result).astype(self.dtype)
        return self
