"""arraystack.ma: masked arrays (mirrors numpy.ma), built from arraystack operations.

A MaskedArray holds an arraystack data array and a boolean mask; operations propagate masks as
numpy.ma does, and the class is a pytree, so masked arrays trace under jit, grad and vmap.

This module is the public namespace: import blocks and `__all__`. The implementations:
_array.py (MaskedArray, masked, nomask) with its methods in _operators.py, _reductions.py,
_selection.py, _values.py (real, clip, item, choose, dot, partitions, flat ...), _memory.py
(memory attributes, views, devices, bytes and pickles) and _fields.py (getfield, setfield,
toflex); _function_forms.py (numpy.ma.sum(a) and the other function forms of the methods);
_elementwise.py and _ufuncs.py (masked ufuncs); _masking.py (reading, building and applying masks);
_fill.py (fill values); _constructors.py; _routines.py (joining, sorting, where, dot, statistics);
_joining.py (stacks, splits, mr_); _sets.py; _products.py (inner, outer, convolve, correlate);
_covariance.py (cov, corrcoef, polyfit, vander); _mask_rows.py (rows and columns, runs of masked
entries); _iteration.py (ndenumerate, the flat iterator, apply_over_axes); _records.py
(structured arrays).
`core` and `extras` re-export these names under numpy.ma's submodules' names.
"""

# Compact blocks (one line per module where it fits), as in arraystack/__init__.py.
# ruff: noqa: I001
# fmt: off
from arraystack.ma._array import MAError, masked, masked_singleton, MaskedArray, MaskError, nomask
from arraystack.ma._constructors import (
    asanyarray, asarray, diag, empty_like, frombuffer, fromfunction, identity, indices,
    masked_all, masked_all_like, masked_object, ones_like, zeros_like,
)
from arraystack.ma._covariance import corrcoef, cov, polyfit, vander
from arraystack.ma._elementwise import (
    abs, absolute, add, angle, arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh,
    around, bitwise_and, bitwise_or, bitwise_xor, ceil, conjugate, cos, cosh, divide, equal,
    exp, fabs, floor, floor_divide, fmod, greater, greater_equal, hypot, invert, left_shift,
    less, less_equal, log, log10, log2, logical_and, logical_not, logical_or, logical_xor,
    maximum, minimum, mod, multiply, negative, not_equal, remainder, right_shift, sin, sinh,
    sqrt, subtract, tan, tanh, true_divide,
)
from arraystack.ma._fill import (
    common_fill_value, default_fill_value, maximum_fill_value, minimum_fill_value,
)
from arraystack.ma._function_forms import (
    all, alltrue, amax, amin, anom, anomalies, any, argmax, argmin, choose, compress, copy,
    cumprod, cumsum, diagonal, diff, expand_dims, harden_mask, ids, max, mean, min, ndim,
    nonzero, prod, product, ptp, put, putmask, ravel, repeat, reshape, resize, round, round_,
    shape, size, soften_mask, sometrue, squeeze, std, sum, swapaxes, take, trace, transpose,
    var,
)
from arraystack.ma._iteration import apply_over_axes, ndenumerate
from arraystack.ma._joining import (
    append, atleast_1d, atleast_2d, atleast_3d, column_stack, diagflat, dstack, hsplit, hstack,
    mr_, row_stack, stack, vstack,
)
from arraystack.ma._mask_rows import (
    clump_masked, clump_unmasked, compress_cols, compress_nd, compress_rowcols, compress_rows,
    count_masked, flatnotmasked_contiguous, flatnotmasked_edges, mask_cols, mask_rowcols,
    mask_rows, notmasked_contiguous, notmasked_edges,
)
from arraystack.ma._masking import (
    compressed, filled, fix_invalid, flatten_mask, getdata, getmask, getmaskarray, is_mask,
    is_masked, isarray, isMA, isMaskedArray, make_mask, make_mask_descr, make_mask_none,
    mask_or, masked_equal, masked_greater, masked_greater_equal, masked_inside, masked_invalid,
    masked_less, masked_less_equal, masked_not_equal, masked_outside, masked_values,
    masked_where, MaskType,
)
from arraystack.ma._products import convolve, correlate, inner, innerproduct, outer, outerproduct
from arraystack.ma._records import flatten_structured_array, fromflex
from arraystack.ma._routines import (
    allclose, allequal, apply_along_axis, arange, argsort, array, average, clip, concatenate,
    count, dot, empty, masked_array, median, ones, set_fill_value, sort, where, zeros,
)
from arraystack.ma._sets import (
    ediff1d, in1d, intersect1d, isin, setdiff1d, setxor1d, union1d, unique,
)
from arraystack.ma._ufuncs import power
# NumPy's own: the boolean scalar type, and the print option numpy.ma's printer (which
# arraystack.ma's repr and str use) reads
from numpy import bool_
from numpy.ma import masked_print_option
from arraystack.ma import core, extras

__all__ = [
    "MAError", "MaskError", "MaskType", "MaskedArray", "abs", "absolute", "add", "all",
    "allclose", "allequal", "alltrue", "amax", "amin", "angle", "anom", "anomalies", "any",
    "append", "apply_along_axis", "apply_over_axes", "arange", "arccos", "arccosh", "arcsin",
    "arcsinh", "arctan", "arctan2", "arctanh", "argmax", "argmin", "argsort", "around", "array",
    "asanyarray", "asarray", "atleast_1d", "atleast_2d", "atleast_3d", "average", "bitwise_and",
    "bitwise_or", "bitwise_xor", "bool_", "ceil", "choose", "clip", "clump_masked",
    "clump_unmasked", "column_stack", "common_fill_value", "compress", "compress_cols",
    "compress_nd", "compress_rowcols", "compress_rows", "compressed", "concatenate",
    "conjugate", "convolve", "copy", "core", "corrcoef", "correlate", "cos", "cosh", "count",
    "count_masked", "cov", "cumprod", "cumsum", "default_fill_value", "diag", "diagflat",
    "diagonal", "diff", "divide", "dot", "dstack", "ediff1d", "empty", "empty_like", "equal",
    "exp", "expand_dims", "extras", "fabs", "filled", "fix_invalid", "flatnotmasked_contiguous",
    "flatnotmasked_edges", "flatten_mask", "flatten_structured_array", "floor", "floor_divide",
    "fmod", "frombuffer", "fromflex", "fromfunction", "getdata", "getmask", "getmaskarray",
    "greater", "greater_equal", "harden_mask", "hsplit", "hstack", "hypot", "identity", "ids",
    "in1d", "indices", "inner", "innerproduct", "intersect1d", "invert", "isMA",
    "isMaskedArray", "is_mask", "is_masked", "isarray", "isin", "left_shift", "less",
    "less_equal", "log", "log2", "log10", "logical_and", "logical_not", "logical_or",
    "logical_xor", "make_mask", "make_mask_descr", "make_mask_none", "mask_cols", "mask_or",
    "mask_rowcols", "mask_rows", "masked", "masked_all", "masked_all_like", "masked_array",
    "masked_equal", "masked_greater", "masked_greater_equal", "masked_inside", "masked_invalid",
    "masked_less", "masked_less_equal", "masked_not_equal", "masked_object", "masked_outside",
    "masked_print_option", "masked_singleton", "masked_values", "masked_where", "max",
    "maximum", "maximum_fill_value", "mean", "median", "min", "minimum", "minimum_fill_value",
    "mod", "mr_", "multiply", "ndenumerate", "ndim", "negative", "nomask", "nonzero",
    "not_equal", "notmasked_contiguous", "notmasked_edges", "ones", "ones_like", "outer",
    "outerproduct", "polyfit", "power", "prod", "product", "ptp", "put", "putmask", "ravel",
    "remainder", "repeat", "reshape", "resize", "right_shift", "round", "round_", "row_stack",
    "set_fill_value", "setdiff1d", "setxor1d", "shape", "sin", "sinh", "size", "soften_mask",
    "sometrue", "sort", "sqrt", "squeeze", "stack", "std", "subtract", "sum", "swapaxes",
    "take", "tan", "tanh", "trace", "transpose", "true_divide", "union1d", "unique", "vander",
    "var", "vstack", "where", "zeros", "zeros_like",
]
