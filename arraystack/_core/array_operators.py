"""ndarray's arithmetic, bitwise, comparison, equality and in-place operators, bound onto the class by
`install`, which array.py calls once ndarray is defined. x + y runs the ufunc function add itself, through
python_operator: on traced Python scalars alone Python's operators give weakly typed results where NumPy's
functions do not. The functions they call are reached through `families` (families.py): their modules
import ndarray themselves."""

from __future__ import annotations

import array
import collections
import operator

import numpy as np

from arraystack._core.accelerator import fastpath as _fastpath
from arraystack._core.families import families
from arraystack._core.overrides import defers_operator
from arraystack._transforms.traced_scalars import holds_scalar
from arraystack.ir.core import active


def __add__(self, other):
    return families.ufunc.python_operator(families.elementwise.add, self, other)


def __radd__(self, other):
    return families.ufunc.python_operator(families.elementwise.add, other, self)


def __sub__(self, other):
    return families.ufunc.python_operator(families.elementwise.subtract, self, other)


def __rsub__(self, other):
    return families.ufunc.python_operator(families.elementwise.subtract, other, self)


# Python sequences that repeat (`[0] * 3`) and have no multiplication of their own
_REPEATED = (list, tuple, str, bytes, bytearray, array.array, collections.deque)


def _repeat(scalar, sequence):
    """NumPy's scalar * a Python sequence repeats the sequence, as Python's int does (`[0] * n` with n a
    scalar result: a list); a scalar of another kind raises Python's TypeError. (A 0-d array multiplies
    the sequence's elements instead, as NumPy's does.)"""
    if scalar.dtype.kind in "iu":
        return sequence * operator.index(scalar)
    raise TypeError(
        f"can't multiply sequence by non-int of type 'numpy.{scalar.dtype.type.__name__}'"
    )


def __mul__(self, other):
    if isinstance(other, _REPEATED) and holds_scalar(self):
        return _repeat(self, other)
    return families.ufunc.python_operator(families.elementwise.multiply, self, other)


def __rmul__(self, other):
    if isinstance(other, _REPEATED) and holds_scalar(self):
        return _repeat(self, other)
    return families.ufunc.python_operator(families.elementwise.multiply, other, self)


def __truediv__(self, other):
    return families.ufunc.python_operator(families.elementwise.true_divide, self, other)


def __rtruediv__(self, other):
    return families.ufunc.python_operator(families.elementwise.true_divide, other, self)


def __floordiv__(self, other):
    return families.ufunc.python_operator(families.elementwise.floor_divide, self, other)


def __rfloordiv__(self, other):
    return families.ufunc.python_operator(families.elementwise.floor_divide, other, self)


def __mod__(self, other):
    return families.ufunc.python_operator(families.elementwise.remainder, self, other)


def __rmod__(self, other):
    return families.ufunc.python_operator(families.elementwise.remainder, other, self)


def __divmod__(self, other):
    return families.ufunc.python_operator(families.elementwise_math.divmod, self, other)


def __rdivmod__(self, other):
    return families.ufunc.python_operator(families.elementwise_math.divmod, other, self)


def __pow__(self, other, mod=None):
    if mod is not None:
        return NotImplemented
    return families.elementwise.power_operator(self, other)


def __rpow__(self, other):
    return families.ufunc.python_operator(families.elementwise.power, other, self)


def __matmul__(self, other):
    if type(other) is not np.ndarray and (isinstance(other, np.ndarray) or defers_operator(other)):
        # numpy.matrix, a scipy.sparse matrix: as with NumPy's array (ufunc.foreign_operator)
        return families.ufunc.python_operator(families.matmul.matmul, self, other)
    return families.matmul.matmul(self, other)


def __rmatmul__(self, other):
    if type(other) is not np.ndarray and (isinstance(other, np.ndarray) or defers_operator(other)):
        return families.ufunc.python_operator(families.matmul.matmul, other, self)
    return families.matmul.matmul(other, self)


def __and__(self, other):
    return families.ufunc.python_operator(families.elementwise.bitwise_and, self, other)


def __rand__(self, other):
    return families.ufunc.python_operator(families.elementwise.bitwise_and, other, self)


def __or__(self, other):
    return families.ufunc.python_operator(families.elementwise.bitwise_or, self, other)


def __ror__(self, other):
    return families.ufunc.python_operator(families.elementwise.bitwise_or, other, self)


def __xor__(self, other):
    return families.ufunc.python_operator(families.elementwise.bitwise_xor, self, other)


def __rxor__(self, other):
    return families.ufunc.python_operator(families.elementwise.bitwise_xor, other, self)


def __lshift__(self, other):
    return families.ufunc.python_operator(families.elementwise.left_shift, self, other)


def __rlshift__(self, other):
    return families.ufunc.python_operator(families.elementwise.left_shift, other, self)


def __rshift__(self, other):
    return families.ufunc.python_operator(families.elementwise.right_shift, self, other)


def __rrshift__(self, other):
    return families.ufunc.python_operator(families.elementwise.right_shift, other, self)


def __lt__(self, other):
    return families.ufunc.python_operator(families.elementwise.less, self, other)


def __le__(self, other):
    return families.ufunc.python_operator(families.elementwise.less_equal, self, other)


def __gt__(self, other):
    return families.ufunc.python_operator(families.elementwise.greater, self, other)


def __ge__(self, other):
    return families.ufunc.python_operator(families.elementwise.greater_equal, self, other)


def __neg__(self):
    return families.ufunc.python_operator(families.elementwise.negative, self)


def __pos__(self):
    return families.ufunc.python_operator(families.elementwise_math.positive, self)


def __abs__(self):
    return families.ufunc.python_operator(families.elementwise.absolute, self)


def __invert__(self):
    return families.ufunc.python_operator(families.elementwise.invert, self)


# in-place: eager writes the buffer (NumPy casting rules); traced rebinds to the new value
def __iadd__(self, other):
    return families.elementwise.inplace(families.elementwise.add, self, other)


def __isub__(self, other):
    return families.elementwise.inplace(families.elementwise.subtract, self, other)


def __imul__(self, other):
    return families.elementwise.inplace(families.elementwise.multiply, self, other)


def __itruediv__(self, other):
    return families.elementwise.inplace(families.elementwise.true_divide, self, other)


def __ifloordiv__(self, other):
    return families.elementwise.inplace(families.elementwise.floor_divide, self, other)


def __imod__(self, other):
    return families.elementwise.inplace(families.elementwise.remainder, self, other)


def __ipow__(self, other):
    return families.elementwise.inplace(families.elementwise.power, self, other)


def __imatmul__(self, other):
    return families.elementwise.inplace(families.matmul.matmul, self, other)


def __iand__(self, other):
    return families.elementwise.inplace(families.elementwise.bitwise_and, self, other)


def __ior__(self, other):
    return families.elementwise.inplace(families.elementwise.bitwise_or, self, other)


def __ixor__(self, other):
    return families.elementwise.inplace(families.elementwise.bitwise_xor, self, other)


def __ilshift__(self, other):
    return families.elementwise.inplace(families.elementwise.left_shift, self, other)


def __irshift__(self, other):
    return families.elementwise.inplace(families.elementwise.right_shift, self, other)


def __eq__(self, other):
    try:
        return families.ufunc.python_operator(families.elementwise.equal, self, other)
    except TypeError:
        if families.array._is_array_operand(other):
            raise
        return families.comparison.compare_with_object(self, other, True)  # x == None: all False


def __ne__(self, other):
    try:
        return families.ufunc.python_operator(families.elementwise.not_equal, self, other)
    except TypeError:
        if families.array._is_array_operand(other):
            raise
        return families.comparison.compare_with_object(self, other, False)


_NAMES = (
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
    "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__", "__matmul__",
    "__rmatmul__", "__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "__lshift__",
    "__rlshift__", "__rshift__", "__rrshift__",
    "__neg__", "__pos__", "__abs__", "__invert__",
    "__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__", "__ipow__",
    "__imatmul__", "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__",
)  # fmt: skip
def install(ndarray: type) -> None:
    """Bind the operators onto ndarray (array.py calls this once, right after defining the class)."""
    ndarray.__divmod__ = __divmod__  # two results: always the Python definition
    ndarray.__rdivmod__ = __rdivmod__
    operators = {name: globals()[name] for name in _NAMES}
    if _fastpath is None:
        for name, function in operators.items():
            setattr(ndarray, name, function)
        return
    # ndarray's operator, indexing and iteration slots are the C base's: an eager call on NumPy buffers
    # runs NumPy's own operation; every other call runs the Python definition above (or the class's).
    indexing = {name: ndarray.__dict__[name] for name in ("__getitem__", "__setitem__", "__iter__")}
    del ndarray.__getitem__, ndarray.__setitem__, ndarray.__iter__
    _fastpath.install(
        ndarray, np.ndarray, np.generic, np.asarray, active, type(active).n, {**operators, **indexing}
    )


__all__: list[str] = []  # internal: array.py calls `install`
