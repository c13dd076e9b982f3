"""simplify's rewrites: each fires (the PassReport's events and the optimized graph's text) and the optimized
program gives bit-identical results to the unoptimized one on the reference backend, on NaN, inf, -0.0,
subnormals and integer overflow."""

from __future__ import annotations

import numpy as np
import pytest

import arraystack as ast


def _floats(dtype, shape=(4, 6)):
    info = np.finfo(dtype)
    special = [
        np.nan,
        np.inf,
        -np.inf,
        -0.0,
        0.0,
        1.0,
        -1.0,
        0.5,
        3.0,
        info.max,
        -info.max,
        info.tiny,
        info.smallest_subnormal,
        -info.smallest_subnormal,
        1e-3,
        65504.0 if dtype == np.float16 else 1e30,
    ]
    n = int(np.prod(shape))
    rng = np.random.default_rng(0)
    values = np.concatenate(
        [np.array(special, dtype), (rng.standard_normal(n) * 100).astype(dtype)]
    )
    return values[:n].reshape(shape)


def _ints(dtype, shape=(4, 6)):
    info = np.iinfo(dtype)
    special = [info.min, info.max, info.min + 1, info.max - 1, 0, 1, 2, 3, 100]
    if info.min < 0:
        special += [-1, -2, -100]
    n = int(np.prod(shape))
    rng = np.random.default_rng(1)
    values = np.concatenate(
        [np.array(special, dtype), rng.integers(info.min, info.max, n, dtype=dtype)]
    )
    return values[:n].reshape(shape)


def inputs(dtype, count=1, shape=(4, 6)):
    make = _floats if np.dtype(dtype).kind == "f" else _ints
    first = make(dtype, shape)
    return [np.roll(first, k) for k in range(count)]  # every pairing of special values


def assert_bit_identical(expected, actual):
    for e, a in zip(expected, actual):
        e, a = np.asarray(e), np.asarray(a)
        assert e.dtype == a.dtype and e.shape == a.shape
        if e.dtype.kind in "fc":
            assert np.array_equal(np.isnan(e), np.isnan(a))
            keep = ~np.isnan(e)
            bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}[e.dtype.itemsize]
            np.testing.assert_array_equal(
                e[keep].view(bits), a[keep].view(bits)
            )  # -0.0 != 0.0 here
        else:
            np.testing.assert_array_equal(e, a)


def run_both(fn, args):
    """(unoptimized results, optimized results, lowered) on the reference backend."""
    arrays = [ast.asarray(a) for a in args]
    plain = ast.jit(fn, backend="reference", passes=[])
    optimized = ast.jit(fn, backend="reference")
    with np.errstate(all="ignore"):
        expected, actual = plain(*arrays), optimized(*arrays)
    if not isinstance(expected, tuple):
        expected, actual = (expected,), (actual,)
    return expected, actual, optimized.lower(*arrays)


def T(x):
    return ast.transpose(x)


CASES = [
    # (id, fn, dtypes, number of inputs, events that must fire, primitives that must be gone)
    ("x*1", lambda x: x * 1.0, ["f64", "f32", "f16"], 1, ["x*1"], ["mul"]),
    ("1*x int", lambda x: 1 * x, ["i32", "u8"], 1, ["x*1"], ["mul"]),
    ("x+0 int", lambda x: (x + 0, 0 + x), ["i64", "i8", "u16"], 1, ["x+0"], ["add"]),
    ("x+(-0.0)", lambda x: x + (-0.0), ["f64", "f32"], 1, ["x+(-0.0)"], ["add"]),
    ("x-0.0", lambda x: x - 0.0, ["f64", "f32"], 1, ["x-0"], ["sub"]),
    ("x-0 int", lambda x: x - 0, ["i32"], 1, ["x-0"], ["sub"]),
    ("x-x int", lambda x: x - x, ["i32", "u8", "i64"], 1, ["x-x"], ["sub"]),
    ("--x", lambda x: ast.negative(-x), ["f64", "i8", "i64"], 1, ["--x"], ["neg"]),
    (
        "transpose of transpose",
        lambda x: T(T(x)),
        ["f64"],
        1,
        ["transpose_of_transpose"],
        ["transpose"],
    ),
    (
        "reshape chain",
        lambda x: x.reshape(24).reshape(6, 4).reshape(4, 6),
        ["f32"],
        1,
        ["reshape_chain"],
        ["reshape"],
    ),
    (
        "broadcast of a scalar",
        lambda x: x * ast.ones_like(x) + ast.full_like(x, 2.5),
        ["f64"],
        1,
        ["broadcast_scalar_operand", "x*1"],
        ["full", "mul"],
    ),
    (
        "broadcast of a broadcast",
        lambda x: x + ast.broadcast_to(ast.broadcast_to(x[0, 0], (6,)), (4, 6)),
        ["f64"],
        1,
        [],
        ["broadcast_in_dim"],
    ),
    ("x**2.0", lambda x: x**2.0, ["f64", "f32", "f16"], 1, ["x**2"], ["pow"]),
    ("x**0.0 x**1.0", lambda x: (x**0.0, x**1.0), ["f64", "f32"], 1, ["x**0", "x**1"], ["pow"]),
    (
        "int x**2..4",
        lambda x: (x**2, x**3, x**4, x**0, x**1),
        ["i32", "i8", "u8", "i64"],
        1,
        ["x**2", "x**3", "x**4", "x**0", "x**1"],
        ["pow"],
    ),
    (
        "x / 2**k",
        lambda x: (x / 4.0, x / 0.5, x / -2.0, x / 1.0),
        ["f64", "f32", "f16"],
        1,
        ["x/2**k"],
        ["div"],
    ),
    (
        "x / 2**-126 (f32: reciprocal 2**126)",
        lambda x: x / np.float32(2.0**-126),
        ["f32"],
        1,
        ["x/2**k"],
        ["div"],
    ),
    (
        "select(p, a, a)",
        lambda x: ast.where(x > 0, x, x),
        ["f64", "i32"],
        1,
        ["select(p,a,a)"],
        ["select"],
    ),
    (
        "constants second",
        lambda x: (2.0 * x, 1.5 < x),
        ["f64"],
        1,
        ["canonicalize_operands"],
        ["lt"],
    ),
    (
        "operands in order, then CSE",
        lambda x, y: y * x + x * y,
        ["f64"],
        2,
        ["canonicalize_operands"],
        [],
    ),
    (
        "transposes sink and cancel",
        lambda x, y: T(T(x) * T(y) + 1.0),
        ["f64", "i32"],
        2,
        ["sink_transpose", "transpose_of_transpose"],
        ["transpose"],
    ),
    (
        "reductions take transposes in",
        lambda x: (ast.sum(T(x) * 2.0, axis=1), ast.max(T(x), axis=0), ast.prod(T(x) + 1, axis=1)),
        ["f64", "f32", "i32"],
        1,
        ["reduce_of_transpose", "sink_transpose"],
        ["transpose"],
    ),
    (
        "reshapes sink",
        lambda x, y: (x.reshape(24) - y.reshape(24)).reshape(4, 6),
        ["f32"],
        2,
        ["sink_reshape"],
        ["reshape"],
    ),
]


PAIRS = [(case, name) for case in CASES for name in case[2]]


@pytest.mark.parametrize("case, dtype_name", PAIRS, ids=[f"{c[0]}-{name}" for c, name in PAIRS])
def test_rewrite_fires_and_is_bit_identical(case, dtype_name):
    _, fn, _, n, events, gone = case
    dtype = {
        "f64": np.float64,
        "f32": np.float32,
        "f16": np.float16,
        "i64": np.int64,
        "i32": np.int32,
        "i8": np.int8,
        "u8": np.uint8,
        "u16": np.uint16,
    }[dtype_name]
    expected, actual, lowered = run_both(fn, inputs(dtype, n))
    assert_bit_identical(expected, actual)
    fired = lowered.pass_report().counts.get("simplify", {})
    for event in events:
        assert fired.get(event, 0) >= 1, f"{event} did not fire: {fired}\n{lowered.as_text()}"
    optimized = lowered.as_text().split("# after passes", 1)[1]
    for name in gone:
        assert f"= {name}" not in optimized and f" {name}[" not in optimized, optimized


REJECTED = [
    ("x+0.0 float", lambda x: x + 0.0, "add"),  # -0.0 + 0.0 = 0.0
    ("x-(-0.0) float", lambda x: x - (-0.0), "sub"),
    ("x-x float", lambda x: x - x, "sub"),  # inf - inf = nan
    ("x*0 float", lambda x: x * 0.0, "mul"),  # nan, inf, -0.0
    ("exp(log x)", lambda x: ast.exp(ast.log(x)), "exp"),
    ("log(exp x)", lambda x: ast.log(ast.exp(x)), "log"),
    ("x**3.0 float", lambda x: x**3.0, "pow"),  # two roundings
    ("x / 3.0", lambda x: x / 3.0, "div"),  # 1/3 rounds
    ("x**-1.0", lambda x: x**-1.0, "pow"),  # would lean on libm's pow rounding like 1/x
    ("x**nan, x**inf", lambda x: (x**np.nan) + (x**np.inf), "pow"),
    ("max(2, x) float keeps order", lambda x: ast.maximum(-0.0, x), "max"),
    ("exp does not sink through transposes", lambda x: T(ast.exp(T(x))), "transpose"),
    # reduced axes out of order: another order of the sum
    (
        "sum over reordered axes",
        lambda x: ast.sum(ast.transpose(x.reshape(2, 2, 6), (1, 0, 2)), axis=(0, 1)),
        "transpose",
    ),
]


@pytest.mark.parametrize("case", REJECTED, ids=[c[0] for c in REJECTED])
def test_inexact_rewrites_are_not_made(case):
    _, fn, prim = case
    expected, actual, lowered = run_both(fn, inputs(np.float64))
    assert_bit_identical(expected, actual)
    optimized = lowered.as_text().split("# after passes", 1)[1]
    assert f"= {prim}" in optimized or f" {prim}[" in optimized, optimized


def test_max_with_a_constant_first_stays_in_order():
    # NumPy's maximum(-0.0, 0.0) is -0.0 and maximum(0.0, -0.0) is 0.0
    expected, actual, lowered = run_both(
        lambda x: ast.maximum(-0.0, x), [np.array([0.0, -0.0, np.nan])]
    )
    assert_bit_identical(expected, actual)
    assert "canonicalize_operands" not in lowered.pass_report().counts.get("simplify", {})


def test_commuted_products_are_computed_once():
    _, _, lowered = run_both(lambda x, y: y * x + x * y, inputs(np.float64, 2))
    optimized = lowered.optimized
    inner = [e for eqn in optimized.eqns for e in eqn.params["graph"].eqns]
    assert [e.prim.name for e in inner] == ["mul", "add"]


@pytest.mark.numba
def test_the_compiled_kernel_matches_the_unoptimized_reference_bit_for_bit():
    def f(x, y):
        return T(T(x) * T(y) + 1.0) / 4.0 - ast.negative(-x) * ast.ones_like(x) + y**2.0

    args = [ast.asarray(a) for a in inputs(np.float64, 2)]
    with np.errstate(all="ignore"):
        expected = ast.jit(f, backend="reference", passes=[])(*args)
        actual = ast.jit(f, backend="numba", tiered=False)(*args)
    assert_bit_identical([expected], [actual])


def test_copies_of_values_the_function_does_not_return_are_dropped():
    """x.astype(x.dtype), .copy() and array(x) inside a jitted function cost no pass of their own and do
    not split the kernel around them; a returned copy keeps its own buffer (it must not alias the argument,
    nor another result)."""

    def f(x):
        y = ast.exp(x).astype(x.dtype) * 2.0
        z = ast.array(ast.sin(x)).copy() + 1.0
        return y, z, x.copy(), y.copy()

    x = _floats(np.float64)
    g = ast.jit(f)
    low = g.lower(x)
    copies = [e for e in low.optimized.eqns if e.prim.name == "copy"]
    assert len(copies) == 2  # the returned ones
    assert "copy_of_internal_value" in str(low.pass_report())
    y, z, xc, yc = g(x)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(np.asarray(y), np.exp(x) * 2.0)
        np.testing.assert_array_equal(np.asarray(z), np.sin(x) + 1.0)
    np.testing.assert_array_equal(np.asarray(xc), x)
    np.testing.assert_array_equal(np.asarray(yc), np.asarray(y))
    xc, yc = np.asarray(xc), np.asarray(yc)
    assert not np.shares_memory(xc, x) and not np.shares_memory(yc, np.asarray(y))
    xc[0, 0] = 123.0
    assert x[0, 0] != 123.0
