"""Docstrings and annotations of the elementwise functions (NumPy's ufuncs), built from one table.

`_ufunc._named` calls `document(fn, ufunc)` for every function made by `unary`/`binary`/`composite`,
as NumPy documents its ufuncs: a summary and result per function, shared text for the keywords.
"""

from __future__ import annotations

# name -> (summary, what the result holds, related arraystack functions, extra notes or "")
SUMMARIES = {
    "absolute": ("Calculate the absolute value element-wise.", "The absolute values; for complex input the magnitude, as a real array.", "fabs sign", ""),
    "add": ("Add arguments element-wise.", "The sum of `x1` and `x2`.", "subtract multiply", ""),
    "arccos": ("Trigonometric inverse cosine, element-wise.", "The angle in radians, in [0, pi].", "cos arcsin arctan", ""),
    "arccosh": ("Inverse hyperbolic cosine, element-wise.", "The inverse hyperbolic cosine of `x`.", "cosh arcsinh arctanh", ""),
    "arcsin": ("Inverse sine, element-wise.", "The angle in radians, in [-pi/2, pi/2].", "sin arccos arctan", ""),
    "arcsinh": ("Inverse hyperbolic sine, element-wise.", "The inverse hyperbolic sine of `x`.", "sinh arccosh arctanh", ""),
    "arctan": ("Trigonometric inverse tangent, element-wise.", "The angle in radians, in [-pi/2, pi/2].", "tan arctan2", ""),
    "arctan2": ("Element-wise arc tangent of ``x1/x2`` choosing the quadrant correctly.", "The angle in radians, in [-pi, pi].", "arctan hypot", ""),
    "arctanh": ("Inverse hyperbolic tangent, element-wise.", "The inverse hyperbolic tangent of `x`.", "tanh arcsinh arccosh", ""),
    "bitwise_and": ("Compute the bit-wise AND of two arrays element-wise.", "The bit-wise AND of the integer or boolean operands.", "bitwise_or bitwise_xor logical_and", ""),
    "bitwise_count": ("Count the number of 1-bits in the absolute value of `x`.", "The number of set bits, as uint8.", "bitwise_and", ""),
    "bitwise_or": ("Compute the bit-wise OR of two arrays element-wise.", "The bit-wise OR of the integer or boolean operands.", "bitwise_and bitwise_xor logical_or", ""),
    "bitwise_xor": ("Compute the bit-wise XOR of two arrays element-wise.", "The bit-wise XOR of the integer or boolean operands.", "bitwise_and bitwise_or logical_xor", ""),
    "cbrt": ("Return the cube-root of an array, element-wise.", "The cube root of each element.", "sqrt power", ""),
    "ceil": ("Return the ceiling of the input, element-wise.", "The smallest integer not less than each element (integer input is returned unchanged).", "floor trunc rint", ""),
    "conjugate": ("Return the complex conjugate, element-wise.", "The complex conjugate of `x` (real input is returned unchanged).", "real imag angle", ""),
    "copysign": ("Change the sign of `x1` to that of `x2`, element-wise.", "The magnitude of `x1` with the sign of `x2`.", "signbit sign", ""),
    "cos": ("Cosine element-wise.", "The cosine of each element (angles in radians).", "sin tan arccos", ""),
    "cosh": ("Hyperbolic cosine, element-wise.", "The hyperbolic cosine of each element.", "sinh tanh arccosh", ""),
    "deg2rad": ("Convert angles from degrees to radians.", "The angles in radians.", "rad2deg radians", ""),
    "degrees": ("Convert angles from radians to degrees.", "The angles in degrees.", "radians rad2deg", ""),
    "divide": ("Divide arguments element-wise (true division).", "The quotient ``x1 / x2``, floating point for integer operands.", "floor_divide remainder multiply", ""),
    "divmod": ("Return element-wise quotient and remainder simultaneously.", "The floor quotient ``x1 // x2`` and the remainder ``x1 % x2``.", "floor_divide remainder modf", ""),
    "equal": ("Return ``(x1 == x2)`` element-wise.", "Boolean array of the comparison.", "not_equal isclose array_equal", ""),
    "exp": ("Calculate the exponential of all elements in the input array.", "The exponential of each element.", "expm1 exp2 log", ""),
    "exp2": ("Calculate ``2**p`` for all `p` in the input array.", "Two to the power of each element.", "exp power log2", ""),
    "expm1": ("Calculate ``exp(x) - 1`` for all elements in the array.", "``exp(x) - 1``, accurate for small `x`.", "exp log1p", ""),
    "fabs": ("Compute the absolute values element-wise (floating point only).", "The absolute values, floating point.", "absolute", ""),
    "float_power": ("First array elements raised to powers from second array, element-wise, in at least float64.", "``x1 ** x2`` computed in float64, complex128 or wider.", "power", ""),
    "floor": ("Return the floor of the input, element-wise.", "The largest integer not greater than each element (integer input is returned unchanged).", "ceil trunc rint", ""),
    "floor_divide": ("Return the largest integer smaller or equal to the division of the inputs.", "``floor(x1 / x2)``, in the operands' result type.", "divide remainder divmod", ""),
    "fmax": ("Element-wise maximum of array elements, ignoring NaNs.", "The maximum; where one element is NaN, the other.", "fmin maximum nanmax", ""),
    "fmin": ("Element-wise minimum of array elements, ignoring NaNs.", "The minimum; where one element is NaN, the other.", "fmax minimum nanmin", ""),
    "fmod": ("Return the element-wise remainder of division, with the sign of the dividend.", "The C-style remainder of ``x1 / x2``.", "remainder divmod", ""),
    "frexp": ("Decompose the elements of x into mantissa and twos exponent.", "The mantissa, in (-1, 1), and the integer exponent, with ``x == mantissa * 2**exponent``.", "ldexp modf", ""),
    "gcd": ("Return the greatest common divisor of ``|x1|`` and ``|x2|``.", "The greatest common divisor of the absolute values.", "lcm", ""),
    "greater": ("Return the truth value of ``(x1 > x2)`` element-wise.", "Boolean array of the comparison.", "greater_equal less", ""),
    "greater_equal": ("Return the truth value of ``(x1 >= x2)`` element-wise.", "Boolean array of the comparison.", "greater less_equal", ""),
    "heaviside": ("Compute the Heaviside step function.", "0 where `x1` < 0, `x2` where `x1` == 0, 1 where `x1` > 0.", "sign", ""),
    "hypot": ("Given the legs of a right triangle, return its hypotenuse.", "``sqrt(x1**2 + x2**2)``, without intermediate overflow.", "sqrt arctan2", ""),
    "invert": ("Compute bit-wise inversion, or bit-wise NOT, element-wise.", "The bit-wise NOT of integers; the logical NOT of booleans.", "bitwise_and logical_not", ""),
    "isfinite": ("Test element-wise for finiteness (not infinity and not Not a Number).", "Boolean array, True where `x` is finite.", "isinf isnan", ""),
    "isinf": ("Test element-wise for positive or negative infinity.", "Boolean array, True where `x` is +inf or -inf.", "isfinite isnan", ""),
    "isnan": ("Test element-wise for NaN and return result as a boolean array.", "Boolean array, True where `x` is NaN.", "isfinite isinf nan_to_num", ""),
    "lcm": ("Return the lowest common multiple of ``|x1|`` and ``|x2|``.", "The lowest common multiple of the absolute values.", "gcd", ""),
    "ldexp": ("Return ``x1 * 2**x2``, element-wise.", "``x1 * 2**x2``, floating point.", "frexp", ""),
    "left_shift": ("Shift the bits of an integer to the left.", "`x1` with its bits shifted left by `x2`.", "right_shift", ""),
    "less": ("Return the truth value of ``(x1 < x2)`` element-wise.", "Boolean array of the comparison.", "less_equal greater", ""),
    "less_equal": ("Return the truth value of ``(x1 <= x2)`` element-wise.", "Boolean array of the comparison.", "less greater_equal", ""),
    "log": ("Natural logarithm, element-wise.", "The natural logarithm of each element.", "log10 log2 log1p exp", ""),
    "log10": ("Return the base 10 logarithm of the input array, element-wise.", "The base-10 logarithm of each element.", "log log2", ""),
    "log1p": ("Return the natural logarithm of one plus the input array, element-wise.", "``log(1 + x)``, accurate for small `x`.", "log expm1", ""),
    "log2": ("Base-2 logarithm of `x`.", "The base-2 logarithm of each element.", "log log10 exp2", ""),
    "logaddexp": ("Logarithm of the sum of exponentiations of the inputs.", "``log(exp(x1) + exp(x2))``, computed without overflow.", "logaddexp2 exp log", "NumPy's loop calls libm's exp/log1p, arraystack the vectorised exp/log1p ufuncs, so the last bits may differ."),
    "logaddexp2": ("Logarithm of the sum of exponentiations of the inputs in base-2.", "``log2(2**x1 + 2**x2)``, computed without overflow.", "logaddexp exp2 log2", "NumPy's loop calls libm's exp/log1p, arraystack the vectorised ufuncs, so the last bits may differ."),
    "logical_and": ("Compute the truth value of `x1` AND `x2` element-wise.", "Boolean array of the logical AND.", "logical_or logical_not bitwise_and", ""),
    "logical_not": ("Compute the truth value of NOT `x` element-wise.", "Boolean array of the logical NOT.", "logical_and invert", ""),
    "logical_or": ("Compute the truth value of `x1` OR `x2` element-wise.", "Boolean array of the logical OR.", "logical_and logical_xor bitwise_or", ""),
    "logical_xor": ("Compute the truth value of `x1` XOR `x2`, element-wise.", "Boolean array of the logical XOR.", "logical_or bitwise_xor", ""),
    "maximum": ("Element-wise maximum of array elements (NaNs propagate).", "The maximum of `x1` and `x2`; NaN where either is NaN.", "minimum fmax max", ""),
    "minimum": ("Element-wise minimum of array elements (NaNs propagate).", "The minimum of `x1` and `x2`; NaN where either is NaN.", "maximum fmin min", ""),
    "modf": ("Return the fractional and integral parts of an array, element-wise.", "The fractional and the integral parts, both with the sign of `x`.", "divmod frexp trunc", ""),
    "multiply": ("Multiply arguments element-wise.", "The product of `x1` and `x2`.", "add divide", ""),
    "negative": ("Numerical negative, element-wise.", "``-x``.", "positive subtract", ""),
    "nextafter": ("Return the next floating-point value after `x1` towards `x2`, element-wise.", "The neighbouring representable value of `x1` in the direction of `x2`.", "spacing", ""),
    "not_equal": ("Return ``(x1 != x2)`` element-wise.", "Boolean array of the comparison.", "equal", ""),
    "positive": ("Numerical positive, element-wise.", "A copy of `x` (``+x``).", "negative", ""),
    "power": ("First array elements raised to powers from second array, element-wise.", "``x1 ** x2`` in the operands' result type.", "float_power exp sqrt", "Traced (under jit), an integer raised to a negative integer power gives a value instead of NumPy's ValueError."),
    "rad2deg": ("Convert angles from radians to degrees.", "The angles in degrees.", "deg2rad degrees", ""),
    "radians": ("Convert angles from degrees to radians.", "The angles in radians.", "degrees deg2rad", ""),
    "reciprocal": ("Return the reciprocal of the argument, element-wise.", "``1 / x`` (integer division for integer input, as in NumPy).", "divide", ""),
    "remainder": ("Return element-wise remainder of division, with the sign of the divisor.", "``x1 - floor(x1 / x2) * x2`` (Python's ``%``).", "fmod floor_divide divmod", ""),
    "right_shift": ("Shift the bits of an integer to the right.", "`x1` with its bits shifted right by `x2` (arithmetic shift for signed types).", "left_shift", ""),
    "rint": ("Round elements of the array to the nearest integer (ties to even).", "The rounded values, in the input's floating dtype.", "round floor ceil trunc", ""),
    "sign": ("Return an element-wise indication of the sign of a number.", "-1, 0 or 1 (NaN for NaN; ``x / |x|`` for complex input).", "signbit absolute copysign", ""),
    "signbit": ("Return element-wise True where signbit is set (less than zero).", "Boolean array, True where the sign bit is set (including -0.0).", "sign copysign", ""),
    "sin": ("Trigonometric sine, element-wise.", "The sine of each element (angles in radians).", "cos tan arcsin", ""),
    "sinh": ("Hyperbolic sine, element-wise.", "The hyperbolic sine of each element.", "cosh tanh arcsinh", ""),
    "spacing": ("Return the distance between `x` and the nearest adjacent number.", "The spacing (ULP) of each element.", "nextafter", ""),
    "sqrt": ("Return the non-negative square-root of an array, element-wise.", "The square root of each element (NaN for negative reals).", "cbrt square power", ""),
    "square": ("Return the element-wise square of the input.", "``x * x``.", "sqrt power", ""),
    "subtract": ("Subtract arguments, element-wise.", "The difference ``x1 - x2``.", "add negative", ""),
    "tan": ("Compute tangent element-wise.", "The tangent of each element (angles in radians).", "sin cos arctan", ""),
    "tanh": ("Compute hyperbolic tangent element-wise.", "The hyperbolic tangent of each element.", "sinh cosh arctanh", ""),
    "trunc": ("Return the truncated value of the input, element-wise.", "Each element rounded towards zero (integer input is returned unchanged).", "floor ceil fix", ""),
}  # fmt: skip

# the arraystack (and NumPy 2) aliases of a ufunc's name
ALIASES = {
    "absolute": "abs",
    "arccos": "acos",
    "arccosh": "acosh",
    "arcsin": "asin",
    "arcsinh": "asinh",
    "arctan": "atan",
    "arctan2": "atan2",
    "arctanh": "atanh",
    "conjugate": "conj",
    "divide": "true_divide",
    "invert": "bitwise_not bitwise_invert",
    "left_shift": "bitwise_left_shift",
    "power": "pow",
    "remainder": "mod",
    "right_shift": "bitwise_right_shift",
}

_INPUTS = {
    1: "x : array_like\n    Input array.",
    2: "x1, x2 : array_like\n    Input arrays. If ``x1.shape != x2.shape``, they must be broadcastable to a\n"
    "    common shape (which becomes the shape of the output). Python scalars are weak, as in\n"
    "    NumPy 2 (NEP 50): they take the dtype of the array operand.",
}

_KEYWORDS = """\
out : ndarray, None, or tuple of ndarray and None, optional
    Location(s) into which the result is stored; written in place (eagerly) or
    functionalized (traced). A tuple has one entry per output.
where : array_like, optional
    Broadcast over the inputs. Where True, the output holds the ufunc result; elsewhere an
    `out` array keeps its value and a new output holds zeros.
casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
    The casting allowed into the loop dtypes and into `out`, as in NumPy; 'same_kind' by default.
order : {'K', 'C', 'F', 'A'}, optional
    Accepted for compatibility and ignored.
dtype : data-type, optional
    Overrides the dtype of the calculation and output arrays.
subok : bool, optional
    Accepted for compatibility and ignored (arraystack has no array subclasses)."""

_NOTES = (
    "Eager calls without `out`, `where` or `dtype` run NumPy's own loop, so values, dtypes and\n"
    "errors are NumPy's. Under `jit`, `grad` and `vmap` the function is a traced operation.\n"
    "A 0-d result is an arraystack 0-d array where NumPy returns a scalar."
)

_OUT_NAMES = {"divmod": ("quotient", "remainder"), "modf": ("fractional", "integral")}
_OUT_NAMES["frexp"] = ("mantissa", "exponent")

# annotations (strings, as `from __future__ import annotations` would leave them)
_ANNOTATIONS = {
    "out": "NDArray | tuple[NDArray | None, ...] | None",
    "where": "ArrayLike",
    "casting": "str",
    "order": "str",
    "dtype": "DTypeLike",
    "subok": "bool",
}


def docstring(ufunc) -> str:
    """The NumPy-style docstring of arraystack's function for `ufunc`."""
    name = ufunc.__name__
    if name not in SUMMARIES:  # a private ufunc (numpy._core.umath.clip behind arraystack.clip)
        return f"Mirrors numpy.{name}."
    summary, result, related, notes = SUMMARIES[name]
    if ufunc.nout == 1:
        returns = f"y : ndarray\n    {result}"
    else:
        names = _OUT_NAMES.get(name, tuple(f"y{i + 1}" for i in range(ufunc.nout)))
        returns = "\n".join(f"{n} : ndarray" for n in names) + f"\n    {result}"
    also = [f"numpy.{name} : The NumPy ufunc this function mirrors."]
    aliases = ALIASES.get(name, "").split()
    also += [f"numpy.{a} : Alias of numpy.{name}; also arraystack.{a}." for a in aliases]
    also += [f"{r}" for r in related.split()]
    notes = _NOTES + ("\n\n" + notes if notes else "")
    return (
        f"{summary}\n\nMirrors ``numpy.{name}``.\n\n"
        f"Parameters\n----------\n{_INPUTS[ufunc.nin]}\n{_KEYWORDS}\n\n"
        f"Returns\n-------\n{returns}\n\n"
        f"See Also\n--------\n" + "\n".join(also) + f"\n\nNotes\n-----\n{notes}\n"
    )


def document(fn, ufunc):
    """Name `fn` after `ufunc` and give it the docstring and annotations of a NumPy ufunc."""
    fn.__name__ = fn.__qualname__ = ufunc.__name__
    fn.__doc__ = docstring(ufunc)
    code = fn.__code__
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    annotations = {n: _ANNOTATIONS.get(n, "ArrayLike") for n in names}
    if code.co_flags & 0x04:  # *args: the operands
        annotations[code.co_varnames[len(names)]] = "ArrayLike"
    single = "NDArray"
    annotations["return"] = (
        single if ufunc.nout == 1 else f"tuple[{', '.join([single] * ufunc.nout)}]"
    )
    fn.__annotations__ = annotations
    return fn
