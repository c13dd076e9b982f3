"""arraystack.ma: masked arrays (mirrors numpy.ma), built from arraystack operations.

A MaskedArray holds an arraystack data array and a boolean mask; operations propagate masks as
numpy.ma does, and the class is a pytree, so masked arrays trace under jit, grad and vmap.
"""

from arraystack.ma._array import MAError, MaskedArray, MaskError, masked, nomask
from arraystack.ma._elementwise import (
    abs, absolute, add, arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh, around,
    bitwise_and, bitwise_or, bitwise_xor, ceil, conjugate, cos, cosh, divide, equal, exp, fabs,
    floor, floor_divide, fmod, greater, greater_equal, hypot, invert, less, less_equal, log, log2,
    log10, logical_and, logical_not, logical_or, logical_xor, maximum, minimum, mod, multiply,
    negative, not_equal, remainder, sin, sinh, sqrt, subtract, tan, tanh, true_divide,
)
from arraystack.ma._fill import default_fill_value
from arraystack.ma._masking import (
    compressed, filled, fix_invalid, getdata, getmask, getmaskarray, is_masked, isMaskedArray,
    make_mask, mask_or, masked_equal, masked_greater, masked_greater_equal, masked_inside,
    masked_invalid, masked_less, masked_less_equal, masked_not_equal, masked_outside,
    masked_values, masked_where,
)
from arraystack.ma._routines import (
    allclose, allequal, apply_along_axis, arange, argsort, array, average, clip, concatenate, count,
    dot, empty, masked_array, median, ones, set_fill_value, sort, stack, where, zeros,
)
from arraystack.ma._ufuncs import power

__all__ = [
    "allclose", "allequal", "apply_along_axis", "arange", "argsort", "array", "average", "clip",
    "concatenate", "count", "dot", "empty", "masked_array", "median", "ones", "set_fill_value",
    "sort", "stack", "where", "zeros",
    "MAError", "MaskError", "MaskedArray", "abs", "absolute", "add", "arccos", "arccosh",
    "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "around", "bitwise_and", "bitwise_or",
    "bitwise_xor", "ceil", "compressed", "conjugate", "cos", "cosh", "default_fill_value",
    "divide", "equal", "exp", "fabs", "filled", "fix_invalid", "floor", "floor_divide", "fmod",
    "getdata", "getmask", "getmaskarray", "greater", "greater_equal", "hypot", "invert",
    "isMaskedArray", "is_masked", "less", "less_equal", "log", "log10", "log2", "logical_and",
    "logical_not", "logical_or", "logical_xor", "make_mask", "mask_or", "masked",
    "masked_equal", "masked_greater", "masked_greater_equal", "masked_inside", "masked_invalid",
    "masked_less", "masked_less_equal", "masked_not_equal", "masked_outside", "masked_values",
    "masked_where", "maximum", "minimum", "mod", "multiply", "negative", "nomask", "not_equal",
    "power", "remainder", "sin", "sinh", "sqrt", "subtract", "tan", "tanh", "true_divide",
]
