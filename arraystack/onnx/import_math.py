"""Import rules of ONNX's elementwise operators, written once against `xp` (numpy or arraystack).

Convention: interpreter.py. ONNX keeps the operands' dtype (Div of integers truncates; Pow returns the
base's dtype); the rules say so where NumPy would do otherwise.
"""

from __future__ import annotations

import math

import numpy

math_rules: dict = {}


def _numpy_unary(name):
    return lambda xp, node, x: getattr(xp, name)(x)


def _numpy_binary(name):
    return lambda xp, node, a, b: getattr(xp, name)(a, b)


def _same(xp, x, value):
    """`value` as an array of x's dtype (a Python float would not change x's dtype, an int array would)."""
    return xp.asarray(value, dtype=x.dtype)


for _name, _fn in {
    "Abs": "abs",
    "Neg": "negative",
    "Floor": "floor",
    "Ceil": "ceil",
    "Exp": "exp",
    "Log": "log",
    "Sqrt": "sqrt",
    "Sin": "sin",
    "Cos": "cos",
    "Tan": "tan",
    "Asin": "arcsin",
    "Acos": "arccos",
    "Atan": "arctan",
    "Sinh": "sinh",
    "Cosh": "cosh",
    "Tanh": "tanh",
    "Asinh": "arcsinh",
    "Acosh": "arccosh",
    "Atanh": "arctanh",
    "Round": "rint",
    "Sign": "sign",
    "IsNaN": "isnan",
    "Not": "logical_not",
    "BitwiseNot": "invert",
}.items():
    math_rules[_name] = _numpy_unary(_fn)

for _name, _fn in {
    "Add": "add",
    "Sub": "subtract",
    "Mul": "multiply",
    "And": "logical_and",
    "Or": "logical_or",
    "Xor": "logical_xor",
    "Equal": "equal",
    "Less": "less",
    "LessOrEqual": "less_equal",
    "Greater": "greater",
    "GreaterOrEqual": "greater_equal",
    "BitwiseAnd": "bitwise_and",
    "BitwiseOr": "bitwise_or",
    "BitwiseXor": "bitwise_xor",
}.items():
    math_rules[_name] = _numpy_binary(_fn)


def _div(xp, node, a, b):
    if numpy.dtype(a.dtype).kind in "iu":  # ONNX: integer division truncates toward zero
        q = xp.floor_divide(a, b)
        inexact = (a - q * b) != 0
        return xp.where(inexact & ((a < 0) != (b < 0)), q + 1, q).astype(a.dtype)
    return xp.divide(a, b)


def _mod(xp, node, a, b):
    if node.attr("fmod", 0):
        return xp.fmod(a, b)
    return xp.remainder(a, b)


def _pow(xp, node, x, y):
    if numpy.dtype(x.dtype) == numpy.dtype(y.dtype):
        return xp.power(x, y)
    if numpy.dtype(x.dtype).kind in "iu":  # the base's dtype, as ONNX says
        return xp.power(x.astype(numpy.float64), y.astype(numpy.float64)).astype(x.dtype)
    return xp.power(x, y.astype(x.dtype))


def _reciprocal(xp, node, x):
    return _same(xp, x, 1) / x


def _erf(xp, node, x):
    import arraystack

    return arraystack.scipy.special.erf(x) if xp is not numpy else _host_erf(x)


def _host_erf(x):
    return numpy.vectorize(math.erf, otypes=[x.dtype])(x) if x.size else x.copy()


def _isinf(xp, node, x):
    pos, neg = node.attr("detect_positive", 1), node.attr("detect_negative", 1)
    inf = xp.isinf(x)
    if not pos:
        inf = inf & (x < 0)
    if not neg:
        inf = inf & (x > 0)
    return inf


def _bitshift(xp, node, x, y):
    if node.attr("direction") == "LEFT":
        return xp.left_shift(x, y)
    return xp.right_shift(x, y)


def _variadic(fn):
    def rule(xp, node, *xs):
        out = xs[0]
        for x in xs[1:]:
            out = fn(xp, out, x)
        return out

    return rule


def _max(xp, a, b):
    return xp.maximum(a, b)


def _min(xp, a, b):
    return xp.minimum(a, b)


def _mean(xp, node, *xs):
    return _variadic(lambda xp, a, b: a + b)(xp, node, *xs) / _same(xp, xs[0], len(xs))


def _clip(xp, node, x, low=None, high=None):
    if node.opset < 11:
        low, high = node.attr("min", -numpy.inf), node.attr("max", numpy.inf)
    out = x
    if low is not None:
        out = xp.maximum(out, _same(xp, x, low))
    if high is not None:
        out = xp.minimum(out, _same(xp, x, high))
    return out


def _where(xp, node, c, a, b):
    return xp.where(c, a, b)


def _cast(xp, node, x, like=None):
    from onnx import helper

    dtype = like.dtype if like is not None else helper.tensor_dtype_to_np_dtype(node.attr("to"))
    if numpy.dtype(dtype).kind in "USO" or numpy.dtype(x.dtype).kind in "USO":
        if xp is not numpy:
            raise node.error("casts from or to strings run only on constants")
        return numpy.asarray(x).astype(dtype)
    if numpy.dtype(dtype).name.startswith("float8") and node.attr("saturate", 1):
        from arraystack.onnx.import_quant import saturating_cast

        return saturating_cast(xp, x, dtype)  # ONNX's default: beyond the range is the range's end
    return x.astype(dtype)


def _bitcast(xp, node, x):
    from onnx import helper

    dtype = numpy.dtype(helper.tensor_dtype_to_np_dtype(node.attr("to")))
    if dtype.itemsize != numpy.dtype(x.dtype).itemsize:
        raise node.error(f"BitCast of {numpy.dtype(x.dtype).name} to {dtype.name} changes the bit width")
    return x.view(dtype)  # NumPy's view; traced, the bitcast primitive


math_rules.update(
    {
        "BitCast": _bitcast,
        "Div": _div,
        "Mod": _mod,
        "Pow": _pow,
        "Reciprocal": _reciprocal,
        "Erf": _erf,
        "IsInf": _isinf,
        "BitShift": _bitshift,
        "Max": _variadic(_max),
        "Min": _variadic(_min),
        "Sum": _variadic(lambda xp, a, b: a + b),
        "Mean": _mean,
        "Clip": _clip,
        "Where": _where,
        "Cast": _cast,
        "CastLike": _cast,
        "Identity": lambda xp, node, x: x,
    }
)

# -- activations ----------------------------------------------------------------------------------


def _f(name, default):
    """An activation's float attribute (alpha, beta, ...)."""
    return lambda node: float(node.attr(name, default))


def _sigmoid(xp, x):
    return _same(xp, x, 1) / (_same(xp, x, 1) + xp.exp(-x))


def _softplus(xp, x):
    return xp.logaddexp(x, _same(xp, x, 0))


def _act(fn):
    return lambda xp, node, x: fn(xp, node, x)


math_rules["Relu"] = _act(lambda xp, node, x: xp.maximum(x, _same(xp, x, 0)))
math_rules["Sigmoid"] = _act(lambda xp, node, x: _sigmoid(xp, x))
math_rules["Softplus"] = _act(lambda xp, node, x: _softplus(xp, x))
math_rules["Softsign"] = _act(lambda xp, node, x: x / (_same(xp, x, 1) + xp.abs(x)))
math_rules["LeakyRelu"] = _act(
    lambda xp, node, x: xp.where(x >= 0, x, x * _same(xp, x, _f("alpha", 0.01)(node)))
)
math_rules["Elu"] = _act(
    lambda xp, node, x: xp.where(x > 0, x, _same(xp, x, _f("alpha", 1.0)(node)) * xp.expm1(x))
)
math_rules["Celu"] = _act(
    lambda xp, node, x: (
        xp.maximum(x, _same(xp, x, 0))
        + xp.minimum(
            _same(xp, x, 0),
            _same(xp, x, _f("alpha", 1.0)(node))
            * xp.expm1(x / _same(xp, x, _f("alpha", 1.0)(node))),
        )
    )
)
math_rules["Selu"] = _act(
    lambda xp, node, x: (
        _same(xp, x, _f("gamma", 1.0507009873554805)(node))
        * xp.where(x > 0, x, _same(xp, x, _f("alpha", 1.6732632423543772)(node)) * xp.expm1(x))
    )
)
math_rules["ThresholdedRelu"] = _act(
    lambda xp, node, x: xp.where(x > _same(xp, x, _f("alpha", 1.0)(node)), x, _same(xp, x, 0))
)
math_rules["HardSigmoid"] = _act(
    lambda xp, node, x: xp.clip(
        x * _same(xp, x, _f("alpha", 0.2)(node)) + _same(xp, x, _f("beta", 0.5)(node)),
        _same(xp, x, 0),
        _same(xp, x, 1),
    )
)
math_rules["HardSwish"] = _act(
    lambda xp, node, x: (
        x * xp.clip(x / _same(xp, x, 6) + _same(xp, x, 0.5), _same(xp, x, 0), _same(xp, x, 1))
    )
)
math_rules["Swish"] = _act(
    lambda xp, node, x: x * _sigmoid(xp, x * _same(xp, x, _f("alpha", 1.0)(node)))
)
math_rules["Mish"] = _act(lambda xp, node, x: x * xp.tanh(_softplus(xp, x)))
math_rules["PRelu"] = lambda xp, node, x, slope: xp.where(x >= 0, x, x * slope)


def _gelu(xp, node, x):
    if node.attr("approximate", "none") == "tanh":
        c = _same(xp, x, math.sqrt(2 / math.pi))
        inner = c * (x + _same(xp, x, 0.044715) * x * x * x)
        return _same(xp, x, 0.5) * x * (_same(xp, x, 1) + xp.tanh(inner))
    erf = _erf(xp, node, x / _same(xp, x, math.sqrt(2)))
    return _same(xp, x, 0.5) * x * (_same(xp, x, 1) + erf)


def _shrink(xp, node, x):
    bias, lambd = _f("bias", 0.0)(node), _f("lambd", 0.5)(node)
    b = _same(xp, x, bias)
    return xp.where(x < -lambd, x + b, xp.where(x > lambd, x - b, _same(xp, x, 0)))


math_rules["Gelu"] = _gelu
math_rules["Shrink"] = _shrink

__all__ = ["math_rules"]
