"""Operators between an arraystack array and an object NumPy's arrays treat specially: an instance of a
NumPy subclass with behaviour of its own (numpy.matrix, numpy.ma's masked arrays, a recarray), or one
NumPy's operators defer to by `__array_priority__` (scipy.sparse's matrices and arrays). Python's operator
runs on the array's NumPy buffer and the object, so the result is the one NumPy's array would give
(ufunc.python_operator asks `foreign_operator` first)."""

from __future__ import annotations

import operator

import numpy as np

from arraystack._core.array import ndarray
from arraystack._core.overrides import defers_operator, numpy_subclass
from arraystack.ir.core import ConcretizationError, Tracer, concretization_message

# function -> Python's operator spelling it
_OPERATORS = {
    "add": operator.add,
    "subtract": operator.sub,
    "multiply": operator.mul,
    "divide": operator.truediv,
    "floor_divide": operator.floordiv,
    "remainder": operator.mod,
    "divmod": divmod,
    "power": operator.pow,
    "matmul": operator.matmul,
    "bitwise_and": operator.and_,
    "bitwise_or": operator.or_,
    "bitwise_xor": operator.xor,
    "left_shift": operator.lshift,
    "right_shift": operator.rshift,
    "less": operator.lt,
    "less_equal": operator.le,
    "greater": operator.gt,
    "greater_equal": operator.ge,
    "equal": operator.eq,
    "not_equal": operator.ne,
}


def _foreign(x) -> bool:
    t = type(x)
    if t is ndarray or t is float or t is int or t is bool or t is complex:
        return False
    return numpy_subclass(x) or defers_operator(x)


def foreign_operator(function, x1, x2):
    """`x1 op x2` (`function`'s operator) where one operand is an arraystack array and the other an
    object NumPy's arrays treat specially: an instance of a NumPy subclass with behaviour of its own
    (numpy.matrix, numpy.ma's masked arrays, a recarray), or one NumPy's operators defer to by
    `__array_priority__` (scipy.sparse's matrices and arrays). Python's operator runs on the array's
    NumPy buffer and the object, so everything goes as among NumPy's arrays (the subclass or the sparse
    matrix is asked first: matrix's * multiplies matrices, `x @ s` is `s.__rmatmul__`). An arraystack
    array that is traced or on a device raises as NumPy's conversion of it does. NotImplemented when
    neither operand is such an object."""
    spelled = _OPERATORS.get(function.__name__)
    if spelled is None:
        return NotImplemented
    if type(x1) is ndarray and _foreign(x2):
        return spelled(_buffer(x1, x2), x2)
    if type(x2) is ndarray and _foreign(x1):
        return spelled(x1, _buffer(x2, x1))
    return NotImplemented


def _buffer(array, other):
    """The NumPy buffer `array` takes part with beside `other` (foreign_operator); a traced array
    raises, naming the object."""
    if type(array._value) is Tracer:
        kind = type(other)
        module = ".".join(p for p in kind.__module__.split(".") if not p.startswith("_"))
        convert = ".toarray()" if hasattr(other, "toarray") else "np.asarray(...)"
        raise ConcretizationError(
            concretization_message(
                f"An operator with a {module}.{kind.__name__} was called on",
                array._value.var.aval,
                f"NumPy (or the object itself) computes such operands, which needs concrete data: "
                f"convert the object to an array first ({convert}).",
            )
        )
    return np.asarray(array)


__all__: list[str] = []  # internal: ufunc.python_operator calls foreign_operator
