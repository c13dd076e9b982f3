"""Export of the elementwise primitives: onnxruntime's results equal arraystack's (NumPy's), dtype by
dtype, including where ONNX's own operators differ from NumPy (integer division, NaN in max/min)."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast

RNG = numpy.random.default_rng(0)
FLOATS = ["float32", "float64"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
# onnxruntime has only float32 kernels for these (the exported model is valid ONNX for float64)
FLOAT32_ONLY_IN_ORT = {
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "erf",
    "arctan2",
}


def _values(dtype, n=12, positive=False, unit=False):
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return RNG.integers(0, 2, n).astype(bool)
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        low = 0 if positive else max(info.min, -100)
        return RNG.integers(low, min(info.max, 100), n).astype(dtype)
    if unit:
        return RNG.uniform(-0.95, 0.95, n).astype(dtype)
    x = RNG.normal(0, 3, n).astype(dtype)
    return numpy.abs(x) + 0.1 if positive else x


UNARY = [
    # (function, dtypes, domain)
    ("negative", FLOATS + ["int8", "int32", "int64", "uint8", "uint32"], None),
    ("abs", FLOATS + INTS, None),
    ("sign", FLOATS + ["int32", "int64"], None),
    ("floor", FLOATS, None),
    ("ceil", FLOATS, None),
    ("trunc", FLOATS, None),
    ("rint", FLOATS, None),
    ("exp", FLOATS, None),
    ("exp2", FLOATS, None),
    ("expm1", FLOATS, None),
    ("log", FLOATS, "positive"),
    ("log2", FLOATS, "positive"),
    ("log10", FLOATS, "positive"),
    ("log1p", FLOATS, "positive"),
    ("sqrt", FLOATS, "positive"),
    ("cbrt", FLOATS, None),
    ("sin", FLOATS, None),
    ("cos", FLOATS, None),
    ("tan", FLOATS, "unit"),
    ("arcsin", FLOATS, "unit"),
    ("arccos", FLOATS, "unit"),
    ("arctan", FLOATS, None),
    ("sinh", FLOATS, "unit"),
    ("cosh", FLOATS, "unit"),
    ("tanh", FLOATS, None),
    ("arcsinh", FLOATS, None),
    ("arctanh", FLOATS, "unit"),
    ("isnan", FLOATS, None),
    ("isinf", FLOATS, None),
    ("isfinite", FLOATS, None),
    ("signbit", FLOATS, None),
    ("invert", INTS + ["bool"], None),
    ("bitwise_count", ["int8", "int32", "int64", "uint16", "uint64"], None),
]
BINARY = [
    ("add", FLOATS + INTS + ["bool"]),
    ("subtract", FLOATS + INTS),
    ("multiply", FLOATS + INTS + ["bool"]),
    ("true_divide", FLOATS),
    ("floor_divide", FLOATS + INTS),
    ("remainder", FLOATS + INTS),
    ("fmod", FLOATS + INTS),
    ("maximum", FLOATS + INTS + ["bool"]),
    ("minimum", FLOATS + INTS),
    ("arctan2", FLOATS),
    ("hypot", FLOATS),
    ("copysign", FLOATS),
    ("bitwise_and", INTS + ["bool"]),
    ("bitwise_or", INTS + ["bool"]),
    ("bitwise_xor", INTS + ["bool"]),
    ("equal", FLOATS + INTS + ["bool"]),
    ("not_equal", FLOATS + INTS),
    ("less", FLOATS + INTS + ["bool"]),
    ("less_equal", FLOATS + INTS),
    ("greater", FLOATS + INTS),
    ("greater_equal", FLOATS + INTS),
]


def _skip_ort_gap(name, dtype):
    if name in FLOAT32_ONLY_IN_ORT and dtype == "float64":
        pytest.skip(f"onnxruntime has no float64 kernel for {name}'s ONNX operator")


@pytest.mark.parametrize("name,dtypes,domain", UNARY, ids=[u[0] for u in UNARY])
def test_unary(name, dtypes, domain, compare):
    for dtype in dtypes:
        if name in FLOAT32_ONLY_IN_ORT and dtype == "float64":
            continue
        x = _values(dtype, positive=domain == "positive", unit=domain == "unit")
        if name == "arccosh":
            x = x + 1
        if dtype in FLOATS and name in ("isnan", "isinf", "isfinite", "signbit", "sign", "abs"):
            x[:4] = [numpy.nan, numpy.inf, -numpy.inf, -0.0]
        compare(getattr(ast, name), x)


@pytest.mark.parametrize("name,dtypes", BINARY, ids=[b[0] for b in BINARY])
def test_binary(name, dtypes, compare):
    for dtype in dtypes:
        if name in FLOAT32_ONLY_IN_ORT and dtype == "float64":
            continue
        x, y = _values(dtype), _values(dtype)
        if name in ("floor_divide", "remainder", "fmod") and dtype in INTS:
            y[:2] = 0  # NumPy: x // 0 == x % 0 == 0 for integers
            if numpy.dtype(dtype).kind == "i":
                x[2], y[2] = numpy.iinfo(dtype).min, -1  # MIN // -1 wraps
        if name in ("maximum", "minimum") and dtype in FLOATS:
            x[0], y[1] = numpy.nan, numpy.nan
        compare(getattr(ast, name), x, y)


@pytest.mark.parametrize("dtype", INTS)
def test_shifts_follow_numpy_past_the_bit_width(dtype, compare):
    x = _values(dtype)
    bits = 8 * numpy.dtype(dtype).itemsize
    s = RNG.integers(0, bits + 3, x.size).astype(dtype)
    compare(ast.left_shift, x, s)
    compare(ast.right_shift, x, s)


def test_float_floor_division_matches_numpy_at_the_edges(compare):
    x = numpy.array([1.0, -1.0, 7.5, -7.5, 0.0, -0.0, 1.0, 5.0], numpy.float64)
    y = numpy.array([0.1, 0.1, -2.0, 2.0, 3.0, -3.0, 0.0, -0.0], numpy.float64)
    compare(ast.floor_divide, x, y)
    compare(ast.remainder, x, y)


@pytest.mark.parametrize("dtype", FLOATS + ["int32", "uint8", "bool"])
def test_casts(dtype, compare):
    x = numpy.array([0.0, 1.5, -2.5, 3.75, 100.25, -0.0], numpy.float32)
    if dtype in ("uint8",):
        x = numpy.abs(x)
    compare(lambda a: a.astype(dtype), x)
    compare(lambda a: a.astype(numpy.float64) * 2, x.astype(dtype))


def test_where_and_scalars(compare):
    x = _values("float32")
    compare(lambda a: ast.where(a > 0, a * 2.0, -a) + 1.0, x)
    compare(lambda a: ast.expm1(a * 1e-9) / 1e-9, x)  # Kahan's expm1 keeps small arguments exact
    compare(lambda a, n: ast.ldexp(a, n), x, RNG.integers(-10, 10, x.size).astype(numpy.int32))
