"""arraystack: a NumPy-compatible array library with a tracing JIT, autodiff and compiled backends.

This module is the public namespace (STYLE.md rule 18): import blocks and the literal `__all__`,
nothing defined here. Every public name is imported explicitly from the private module that
implements it (one block per module, sorted), so static type checkers (mypy, pyright) see the
whole namespace; tests/test_typing.py checks that the imports, `__all__` and the modules' own
`__all__` agree. The modules can be imported in any order (tests/test_imports.py).

The implementation follows the chapters of NumPy's reference, one private subpackage each:

_core/           the array type and what every chapter builds on
    array.py (ndarray), array_methods.py, array_operators.py (+ array_operator_types.py for type
    checkers), families.py (the modules ndarray calls, imported at first use),
    dtypes.py, type_queries.py, printing.py, config.py, devices.py, dlpack.py, interop.py
    (__array_function__), floating_point_errors.py, constants.py, array_api.py and
    array_api_info.py (the Array API standard), introspection.py, memory_layout.py, shapes.py and
    operands.py (argument parsing), host_calls.py (NumPy's own function on host buffers),
    accelerator.py and _fastpath*.c (the C accelerator of the eager fast path)
_creation/       array creation
    basic.py (from data), filled.py (from a shape and a fill value), ranges.py (arange, linspace, logspace,
    geomspace), matrices.py (eye, tri, diag, ...), coordinates.py (indices, meshgrid,
    fromfunction), assembly.py (block, fromiter), checked_conversions.py
_math/           mathematical functions
    ufunc.py (how a ufunc is called), ufunc_out.py (out=, where=), ufunc_dispatch.py
    (__array_ufunc__), foreign_operators.py (operators with NumPy subclasses, sparse matrices), ufunc_docs.py, elementwise.py (one primitive each), elementwise_math.py
    (composed ufuncs), elementwise_functions.py (where, clip, round, ...), ufunclike.py, reduce.py
    (the reduction driver), reductions.py, reductions_nan.py, cumulative.py, special.py,
    calculus.py (diff, gradient, interp, convolve, ...), comparison.py (isclose, array_equal, ...),
    bit_packing.py, window_functions.py, emath_namespace.py
_manipulation/   array manipulation
    reshaping.py (reshape, transpose, broadcast, squeeze, ...), joining.py, splitting.py,
    rearranging.py (flip, roll, tile, repeat, ...), padding.py, editing.py (append, insert,
    delete, resize), writes.py (copyto, fill_diagonal), axis_order.py, broadcast_object.py,
    deprecated_aliases.py
_indexing/       indexing
    subscripts.py (x[key], x[key] = v, nonzero), keys.py (normalising keys), updates.py (traced
    assignment), index_tricks.py, index_expressions.py, selection.py (take, put, choose, compress,
    select, ...), iterators.py (ndindex, ndenumerate, nditer), nested_iters.py, at.py (x.at[i].set(v),
    JAX's functional updates)
_sorting/        sorting, searching and counting; set routines
    sorting.py, sets.py
_statistics/     statistics
    averages.py (mean, var, std, average), averages_nan.py, quantiles.py, histograms.py,
    covariance.py (cov, corrcoef)
_polynomial/     polynomials: power_series.py (poly1d, polyfit, roots, ...), construction.py
_io/             input and output
    npyio.py (.npy/.npz, text, binary, strings), number_representations.py (binary_repr, base_repr)
_transforms/     function transformations
    jit.py and jit_arguments.py, jit_cache.py, jit_captures.py, jit_entry.py, jit_lowered.py,
    jit_placement.py, jit_writeback.py, aliasing.py (views while tracing), result_layouts.py
    (NumPy's memory order of traced results), traced_scalars.py, scan_unroll.py, tiering.py;
    make_graph.py, abstract.py (ShapeDtypeStruct, eval_shape), device_put.py (device_put,
    block_until_ready); autodiff.py (grad, vjp, jvp, linearize), jacobian.py, custom.py (custom rules,
    checkpoint), remat_policies.py (checkpoint's policy=), vmap.py, control.py (cond, switch,
    while_loop, fori_loop, scan), functional.py (apply_along_axis, apply_over_axes, vectorize)
_cli/            `python -m arraystack` (__main__.py): info.py, bench.py, cache.py, demo_train.py

Public subpackages and modules keep NumPy's names: fft, linalg (also the top-level products and
einsum: _matmul.py, _contractions.py, _einsum.py; _gufuncs.py), random, emath, testing, typing,
ctypeslib, and arraystack's own nn, optim, prng, datasets and checkpoint_policies. The IR and its transformations are arraystack.ir (jit/), the
backends arraystack.backends (backends/).
"""

# Compact blocks (one line per module where it fits): ruff format and isort would put one name per
# line and the file would be 900 lines long. The blocks are sorted by module.
# ruff: noqa: I001
# fmt: off
from arraystack import errors, fft, lib, linalg, ma, nn, onnx, optim, polynomial, prng, random, scipy, testing, typing
from arraystack import distributed  # dask is imported only when used
from arraystack import checkpoint_policies
from arraystack._core.array import ndarray
from arraystack._core.array_api import __array_api_version__, e, inf, nan, newaxis, pi
from arraystack._core.array_api_info import __array_namespace_info__
from arraystack._core.config import OutOfMemory, config
from arraystack._core.constants import euler_gamma
from arraystack._core import numba_types as _numba_types  # numba functions take arraystack arrays
from arraystack._core.devices import default_device, devices
from arraystack._core.dlpack import from_dlpack
from arraystack._core.dtypes import (
    bfloat16,
    bool_, byte, can_cast, cdouble, complex64, complex128, complexfloating, csingle, double, dtype,
    finfo, float16, float32, float64, floating, generic, half, iinfo, inexact, int8, int16, int32,
    int64, int_, intc, integer, intp, isdtype, issubdtype, long, longlong, number, promote_types,
    result_type, short, signedinteger, single, ubyte, uint, uint8, uint16, uint32, uint64, uintc,
    uintp, ulong, ulonglong, unsignedinteger, ushort,
)
from arraystack._core.dtypes import bool_ as bool
# NumPy's own: its exception types (which arraystack raises), its ufunc buffer size (eager arraystack
# runs NumPy's loops), its type table, the extended-precision scalar types (no arraystack array has them),
# and its matrix class: a NumPy subclass, which arraystack's functions and operators hand to NumPy
from numpy import asmatrix, bmat, clongdouble, exceptions, getbufsize, longdouble, matrix, sctypeDict, setbufsize
# the header files of NumPy's C API (a C extension receives arraystack arrays in host memory through it)
from numpy import get_include
from arraystack import ctypeslib
from arraystack.lib._show_config import show_runtime
from arraystack import char, dtypes, rec, strings
from arraystack._core.dtypes import bytes_, character, datetime64, flexible, object_, str_, timedelta64, void
from arraystack.rec import recarray, record
from arraystack._core.datetime_support import busday_count, busday_offset, busdaycalendar, datetime_as_string, datetime_data, is_busday, isnat
from arraystack._core.flatiter import flatiter
from arraystack._core.floating_point_errors import errstate, geterr, geterrcall, seterr, seterrcall
from arraystack._core.introspection import iterable, ndim, shape, size
from arraystack._core.memory_layout import isfortran, may_share_memory, require, shares_memory
from arraystack._core.printing import (
    array2string, array_repr, array_str, format_float_positional, format_float_scientific,
    get_printoptions, printoptions, set_printoptions,
)
from arraystack._core.type_queries import (
    False_, ScalarType, True_, common_type, isscalar, little_endian, min_scalar_type, mintypecode,
    typecodes, typename,
)
from arraystack._creation.assembly import block, fromiter
from arraystack._creation.basic import (
    array, asanyarray, asarray, ascontiguousarray, asfortranarray, astype, copy, frombuffer,
)
from arraystack._creation.filled import empty, empty_like, full, full_like, ones, ones_like, zeros, zeros_like
from arraystack._creation.checked_conversions import asarray_chkfinite, real_if_close, sort_complex
from arraystack._creation.coordinates import fromfunction, indices, meshgrid
from arraystack._creation.matrices import diag, diagflat, eye, identity, tri, tril, triu
from arraystack._creation.ranges import arange, geomspace, linspace, logspace
from arraystack._indexing.index_expressions import index_exp, mask_indices, s_
from arraystack._indexing.index_tricks import (
    c_, diag_indices, diag_indices_from, diagonal, ix_, mgrid, ogrid, r_, ravel_multi_index, trace,
    tril_indices, tril_indices_from, triu_indices, triu_indices_from, unravel_index,
)
from arraystack._indexing.iterators import ndenumerate, ndindex, nditer
from arraystack._indexing.nested_iters import nested_iters
from arraystack._indexing.selection import (
    choose, compress, extract, piecewise, place, put, put_along_axis, putmask, select, take,
    take_along_axis,
)
from arraystack._indexing.subscripts import argwhere, flatnonzero, nonzero
from arraystack._io.checkpoints import Checkpoints, load_tree, save_tree
from arraystack._io.npyio import (
    fromfile, fromregex, fromstring, genfromtxt, load, loadtxt, save, savetxt, savez, savez_compressed,
)
from arraystack._io.memmap import memmap
from arraystack._io.number_representations import base_repr, binary_repr
from arraystack._manipulation.axis_order import rollaxis
from arraystack._manipulation.broadcast_object import broadcast
from arraystack._manipulation.deprecated_aliases import row_stack
from arraystack._manipulation.editing import append, delete, insert, resize, trim_zeros
from arraystack._manipulation.joining import (
    atleast_1d, atleast_2d, atleast_3d, column_stack, concat, concatenate, dstack, hstack, stack,
    vstack,
)
from arraystack._manipulation.padding import pad
from arraystack._manipulation.rearranging import flip, fliplr, flipud, repeat, roll, rot90, tile
from arraystack._manipulation.reshaping import (
    broadcast_arrays, broadcast_shapes, broadcast_to, expand_dims, matrix_transpose, moveaxis,
    permute_dims, ravel, reshape, squeeze, swapaxes, transpose,
)
from arraystack._manipulation.splitting import array_split, dsplit, hsplit, split, unstack, vsplit
from arraystack._manipulation.writes import copyto, fill_diagonal
from arraystack._math.bit_packing import packbits, unpackbits
from arraystack._math.calculus import (
    convolve, correlate, cross, diff, ediff1d, gradient, interp, trapezoid, unwrap,
)
from arraystack._math.comparison import allclose, array_equal, array_equiv, isclose
from arraystack._math.cumulative import cumprod, cumsum, cumulative_prod, cumulative_sum
from arraystack._math.elementwise import (
    abs, absolute, acos, acosh, add, arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh,
    asin, asinh, atan, atan2, atanh, bitwise_and, bitwise_count, bitwise_invert, bitwise_left_shift,
    bitwise_not, bitwise_or, bitwise_right_shift, bitwise_xor, cbrt, ceil, conj, conjugate,
    copysign, cos, cosh, divide, equal, exp, exp2, expm1, floor, floor_divide, fmod, gcd, greater,
    greater_equal, hypot, invert, isfinite, isinf, isnan, ldexp, left_shift, less, less_equal, log,
    log1p, log2, log10, maximum, minimum, mod, multiply, negative, nextafter, not_equal, pow, power,
    remainder, right_shift, rint, sign, signbit, sin, sinh, sqrt, subtract, tan, tanh, true_divide,
    trunc,
)
from arraystack._math.elementwise_functions import (
    angle, around, clip, fix, imag, iscomplex, iscomplexobj, isreal, isrealobj, nan_to_num, real,
    round, where,
)
from arraystack._math.elementwise_math import (
    deg2rad, degrees, divmod, fabs, float_power, fmax, fmin, frexp, heaviside, lcm, logaddexp,
    logaddexp2, logical_and, logical_not, logical_or, logical_xor, modf, positive, rad2deg, radians,
    reciprocal, spacing, square,
)
from arraystack._math.emath_namespace import emath
from arraystack._math.reductions import (
    all, amax, amin, any, argmax, argmin, count_nonzero, max, min, prod, ptp, sum,
)
from arraystack._math.reductions_nan import (
    nanargmax, nanargmin, nancumprod, nancumsum, nanmax, nanmin, nanprod, nansum,
)
from arraystack._math.special import i0, sinc
from arraystack._math.ufunclike import isneginf, isposinf
from arraystack._math.ufunc_type import ufunc
from arraystack._math.window_functions import bartlett, blackman, hamming, hanning, kaiser
from arraystack._polynomial.construction import poly, vander
from arraystack._polynomial.power_series import (
    poly1d, polyadd, polyder, polydiv, polyfit, polyint, polymul, polysub, polyval, roots,
)
from arraystack._sorting.sets import (
    intersect1d, isin, setdiff1d, setxor1d, union1d, unique, unique_all, unique_counts,
    unique_inverse, unique_values,
)
from arraystack._sorting.sorting import (
    argpartition, argsort, digitize, lexsort, partition, searchsorted, sort,
)
from arraystack._statistics.averages import average, mean, std, var
from arraystack._statistics.averages_nan import nanmean, nanstd, nanvar
from arraystack._statistics.covariance import corrcoef, cov
from arraystack._statistics.histograms import (
    bincount, histogram, histogram2d, histogram_bin_edges, histogramdd,
)
from arraystack._statistics.quantiles import (
    median, nanmedian, nanpercentile, nanquantile, percentile, quantile,
)
from arraystack._transforms.autodiff import grad, jvp, linearize, value_and_grad, vjp
from arraystack._transforms.control import cond, fori_loop, scan, switch, while_loop
from arraystack._transforms.custom import checkpoint, custom_jvp, custom_vjp, remat, stop_gradient
from arraystack._transforms.remat_policies import checkpoint_name
from arraystack._transforms.abstract import ShapeDtypeStruct, eval_shape
from arraystack._transforms.device_put import block_until_ready, device_put
from arraystack._transforms.functional import (
    apply_along_axis, apply_over_axes, frompyfunc, vectorize,
)
from arraystack._transforms.jacobian import hessian, jacfwd, jacrev
from arraystack._transforms.jit import jit
from arraystack._transforms.make_graph import make_graph
from arraystack._transforms.profile import Profile, profile
from arraystack._transforms.vmap import vmap
from arraystack.ir import tree as tree_util
from arraystack.jax_import import from_jax
from arraystack.lib import info, show_config
from arraystack.linalg._contractions import (
    inner, kron, matvec, outer, tensordot, vdot, vecdot, vecmat,
)
from arraystack.linalg._einsum import einsum, einsum_path
from arraystack.linalg._matmul import dot, matmul

__version__ = "0.1.0"

__all__ = [
    "False_", "OutOfMemory", "ScalarType", "True_", "__array_api_version__",
    "__array_namespace_info__", "abs", "absolute", "acos", "acosh", "add", "all", "allclose",
    "amax", "amin", "angle", "any", "append", "apply_along_axis", "apply_over_axes", "arange",
    "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "argmax", "argmin",
    "argpartition", "argsort", "argwhere", "around", "array", "array2string", "array_equal",
    "array_equiv", "array_repr", "array_split", "array_str", "asanyarray", "asarray",
    "asarray_chkfinite", "ascontiguousarray", "asfortranarray", "asin", "asinh", "astype", "atan",
    "atan2", "atanh", "atleast_1d", "atleast_2d", "atleast_3d", "average", "bartlett", "base_repr",
    "bfloat16", "binary_repr", "bincount", "bitwise_and", "bitwise_count", "bitwise_invert",
    "bitwise_left_shift", "bitwise_not", "bitwise_or", "bitwise_right_shift", "bitwise_xor",
    "blackman", "block", "bool", "bool_", "broadcast", "broadcast_arrays", "broadcast_shapes",
    "broadcast_to", "byte", "c_", "can_cast", "cbrt", "cdouble", "ceil", "checkpoint", "checkpoint_name", "checkpoint_policies", "choose",
    "clip", "column_stack", "common_type", "complex64", "complex128", "complexfloating", "compress",
    "concat", "concatenate", "cond", "config", "conj", "conjugate", "convolve", "copy", "copysign",
    "copyto", "corrcoef", "correlate", "cos", "cosh", "count_nonzero", "cov", "cross", "csingle",
    "cumprod", "cumsum", "cumulative_prod", "cumulative_sum", "custom_jvp", "custom_vjp",
    "default_device", "deg2rad", "degrees", "delete", "device_put", "devices", "diag", "diag_indices",
    "diag_indices_from", "diagflat",
    "diagonal", "diff", "digitize", "distributed", "divide", "divmod", "dot", "double", "dsplit", "dstack",
    "dtype", "e", "ediff1d", "einsum", "einsum_path", "emath", "empty", "empty_like", "equal",
    "errors", "errstate", "euler_gamma", "exp", "exp2", "expand_dims", "expm1", "extract", "eye",
    "fabs", "fft", "fill_diagonal", "finfo", "fix", "flatiter", "flatnonzero", "flip", "fliplr",
    "flipud",
    "float16", "float32", "float64", "float_power", "floating", "floor", "floor_divide", "fmax",
    "fmin", "fmod", "fori_loop", "format_float_positional", "format_float_scientific", "frexp",
    "from_dlpack", "from_jax", "frombuffer", "fromfile", "fromfunction", "fromiter", "frompyfunc",
    "fromstring",
    "full", "full_like", "gcd", "generic", "genfromtxt", "geomspace", "get_printoptions", "geterr",
    "geterrcall", "grad", "gradient", "greater", "greater_equal", "half", "hamming", "hanning",
    "heaviside", "hessian", "histogram", "histogram2d", "histogram_bin_edges", "histogramdd",
    "hsplit", "hstack", "hypot", "i0", "identity", "iinfo", "imag", "index_exp", "indices",
    "inexact", "inf", "info", "inner", "insert", "int8", "int16", "int32", "int64", "int_",
    "intc",
    "integer", "interp", "intersect1d", "intp", "invert", "isclose", "iscomplex", "iscomplexobj",
    "isdtype", "isfinite", "isfortran", "isin", "isinf", "isnan", "isneginf", "isposinf", "isreal",
    "isrealobj", "isscalar", "issubdtype", "iterable", "ix_", "jacfwd", "jacrev", "jit", "jvp",
    "kaiser", "kron", "lcm", "ldexp", "left_shift", "less", "less_equal", "lexsort", "lib",
    "linalg",
    "linearize", "linspace", "little_endian", "load", "loadtxt", "log", "log1p", "log2", "log10",
    "logaddexp", "logaddexp2", "logical_and", "logical_not", "logical_or", "logical_xor",
    "logspace", "long", "longlong", "ma", "make_graph", "mask_indices", "matmul",
    "matrix_transpose",
    "matvec", "max", "maximum", "may_share_memory", "mean", "median", "meshgrid", "mgrid", "min",
    "min_scalar_type", "minimum", "mintypecode", "mod", "modf", "moveaxis", "multiply", "nan",
    "nan_to_num", "nanargmax", "nanargmin", "nancumprod", "nancumsum", "nanmax", "nanmean",
    "nanmedian", "nanmin", "nanpercentile", "nanprod", "nanquantile", "nanstd", "nansum", "nanvar",
    "ndarray", "ndenumerate", "ndim", "ndindex", "nditer", "negative", "newaxis", "nextafter", "nn",
    "nonzero", "not_equal", "number", "ogrid", "onnx", "ones", "ones_like", "optim", "outer", "packbits",
    "pad", "partition", "percentile", "permute_dims", "pi", "piecewise", "place", "poly", "poly1d",
    "polyadd", "polyder", "polydiv", "polyfit", "polyint", "polymul", "polynomial", "polysub",
    "polyval",
    "positive", "pow", "power", "printoptions", "prng", "prod", "profile", "Profile", "promote_types", "ptp", "put",
    "put_along_axis", "putmask", "quantile", "r_", "rad2deg", "radians", "random", "ravel",
    "ravel_multi_index", "real", "real_if_close", "reciprocal", "remainder", "remat", "repeat",
    "require", "reshape", "resize", "result_type", "right_shift", "rint", "roll", "rollaxis",
    "roots", "rot90", "round", "row_stack", "s_", "save", "savetxt", "savez", "savez_compressed",
    "scan", "scipy", "searchsorted", "select", "set_printoptions", "setdiff1d", "seterr", "seterrcall",
    "setxor1d", "shape", "shares_memory", "show_config", "short", "sign", "signbit",
    "signedinteger", "sin",
    "sinc", "single", "sinh", "size", "sort", "sort_complex", "spacing", "split", "sqrt", "square",
    "squeeze", "stack", "std", "stop_gradient", "subtract", "sum", "swapaxes", "switch", "take",
    "take_along_axis", "tan", "tanh", "tensordot", "testing", "tile", "trace", "transpose",
    "trapezoid", "tree_util", "tri", "tril", "tril_indices", "tril_indices_from", "trim_zeros",
    "triu", "triu_indices", "triu_indices_from", "true_divide", "trunc", "typecodes", "typename",
    "typing", "ubyte", "uint", "uint8", "uint16", "uint32", "uint64", "uintc", "uintp", "ulong",
    "ufunc", "ulonglong", "union1d", "unique", "unique_all", "unique_counts", "unique_inverse",
    "unique_values", "unpackbits", "unravel_index", "unsignedinteger", "unstack", "unwrap",
    "ushort", "value_and_grad", "vander", "var", "vdot", "vecdot", "vecmat", "vectorize", "vjp",
    "vmap", "vsplit", "vstack", "where", "while_loop", "zeros", "zeros_like",
    "busday_count", "busday_offset", "busdaycalendar", "bytes_", "char", "character", "datetime64", "datetime_as_string", "datetime_data", "dtypes", "flexible", "is_busday", "isnat", "str_", "strings", "timedelta64",
    "object_", "rec", "recarray", "record", "void", "fromregex",
    "Checkpoints", "load_tree", "save_tree",
    "clongdouble", "exceptions", "getbufsize", "longdouble", "memmap", "sctypeDict", "setbufsize",
    "asmatrix", "bmat", "matrix", "ctypeslib", "get_include", "show_runtime", "nested_iters",
    "ShapeDtypeStruct", "block_until_ready", "eval_shape",
]
# fmt: on

