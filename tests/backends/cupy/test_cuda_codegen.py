"""Elementwise fusion regions lowered to CUDA (backends/cupy/cuda_codegen.py, lowering.py): each kernel
compiles with NVRTC for sm_80 and sm_90 without spills, and on the CPU harness equals NumPy's reference
rules: bitwise for integer, bool and exactly rounded float operations, within the documented ulp bounds
for math functions (docs/internals/cuda.md)."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.cupy import cuda_codegen

import arraystack as ast
from tests.backends.cupy.cuda_check import (
    check,
    combined,
    compile_for_gpus,
    fusion_eqns,
    needs_nvrtc,
    reference,
    run_kernels,
    ulps,
)

pytestmark = needs_nvrtc

SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 5e-324, 1.5, -2.5, 0.5, 3.0, -7.0]


def _floats(dtype, n=40, seed=0):
    rng = np.random.default_rng(seed)
    x = np.concatenate([np.array(SPECIAL), rng.standard_normal(n) * 4])
    with np.errstate(over="ignore"):
        return x.astype(dtype)


def _ints(dtype, n=53, seed=0):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    edges = [0, 1, info.max, 7, info.max - 1] + (
        [-1, info.min, info.min + 1, -7] if info.min else []
    )
    body = rng.integers(max(info.min, -1000), min(info.max, 1000), n).tolist()
    return np.array(edges + body, dtype=np.int64 if info.min else np.uint64).astype(dtype)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_float_arithmetic_is_bitwise_with_nan_inf_signed_zeros_and_denormals(dtype):
    a = _floats(dtype)
    b = _floats(dtype, seed=1)[::-1].copy()

    def f(x, y):
        return (x + y, x * y - y, x / y, x // y, x % y, ast.maximum(x, y), ast.minimum(y, x), -x)

    check(f, a, b)
    check(
        lambda x, y: (ast.abs(x), ast.sign(x), ast.copysign(x, y), ast.floor(x), ast.sqrt(x)), a, b
    )
    check(lambda x: (ast.isnan(x), ast.isinf(x), ast.isfinite(x), ast.signbit(x), x > 0.5), a)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint32", "int32", "int64", "uint64"])
def test_integer_arithmetic_wraps_and_divides_by_zero_as_numpy(dtype):
    a = _ints(dtype)
    b = _ints(dtype, seed=3)[::-1].copy()
    b[::5] = 0  # x // 0 and x % 0 are 0
    if np.dtype(dtype).kind == "i":
        b[1::7] = -1  # MIN // -1 wraps
    check(lambda x, y: (x + y, x - y, x * y, x // y, x % y, ast.maximum(x, y), x & y, x ^ y), a, b)
    check(lambda x: (-x, ast.abs(x), ~x, x < 3, ast.sign(x)), a)


def test_bool_operations():
    a = np.array([True, False, True, True, False])
    b = np.array([False, False, True, False, True])
    check(lambda x, y: (x & y, x | y, x ^ y, ~x, x == y, ast.where(x, y, ~y)), a, b)


@pytest.mark.parametrize("src", ["float16", "float32", "float64"])
def test_float_to_int_casts_follow_numpys_element_loop_on_x86(src):
    x = np.array(SPECIAL + [1e20, -1e20, 3e9, -3e9, 5e18, 1e19, 300.7, -129.0, 70000.0, -1.5])
    with np.errstate(over="ignore"):
        x = x.astype(src)
    for dst in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "bool"):
        eqn = fusion_eqns(lambda a, dst=dst: a.astype(dst), x)[0]
        ks = cuda_codegen.lower_region(eqn)
        got = run_kernels(ks, eqn, [x])[0]
        # NumPy's SIMD loops give other values out of range for some widths; its element loop is the
        # definition (one element at a time)
        with np.errstate(invalid="ignore"):
            want = np.array([np.array([v]).astype(dst)[0] for v in x])
        np.testing.assert_array_equal(got, want, strict=True, err_msg=f"{src} -> {dst}")


def test_casts_between_widths_and_to_float16():
    rng = np.random.default_rng(5)
    x = np.concatenate(
        [_floats("float64"), rng.uniform(-7e4, 7e4, 50), [65520.0, 65519.99, 2.0**-25]]
    )
    i = _ints("int64")
    check(
        lambda a, b: (
            a.astype("float16"),
            a.astype("float32"),
            b.astype("float16"),
            b.astype("int8"),
        ),
        x,
        i,
    )
    check(
        lambda a: (a.astype("float64"), a.astype("float32"), a.astype("int16")), x.astype("float16")
    )
    u = _ints("uint64")
    check(lambda a: (a.astype("float32"), a.astype("float64"), a.astype("int32")), u)


def test_broadcasting_strided_negative_stride_and_zero_size_operands():
    rng = np.random.default_rng(2)
    base = rng.standard_normal((6, 12)).astype(np.float32)
    view = base[::-2, 1::3]  # negative and non-unit strides
    row = rng.standard_normal((1, 4)).astype(np.float32)
    col = np.arange(3, dtype=np.float32).reshape(3, 1)

    def f(a, r, c):
        return ast.abs(a) * r - c

    assert check(f, np.ascontiguousarray(view), row, col, inputs=[view, row, col]) == 1
    zero = np.zeros((0, 4), np.float32)
    check(lambda a, r: a * r + 1.0, zero, row)
    check(lambda a: a * 2.0 + 1.0, np.float64(3.5))  # rank 0
    check(lambda a: a * 2 + 1, np.arange(7, dtype=np.int16))  # size 1 tail, odd sizes
    bcast = np.broadcast_to(np.float32(2.5), (5, 3))  # zero strides
    check(
        lambda a, b: a * b,
        np.ones((5, 3), np.float32),
        np.ones((5, 3), np.float32),
        inputs=[bcast, base[:5, :3]],
    )


# CUDA's documented bound (ulp) plus 2 for NumPy's own loops, which this CPU's SIMD paths compute
# within a few ulp of the correctly rounded result (the harness's C library within 1)
MATH_BOUNDS = {
    "exp": (2, 1), "exp2": (2, 1), "expm1": (1, 1), "log": (1, 1), "log2": (1, 1), "log10": (2, 1),
    "log1p": (1, 1), "sqrt": (0, 0), "cbrt": (1, 1), "sin": (2, 2), "cos": (2, 2), "tan": (4, 2),
    "arcsin": (2, 2), "arccos": (2, 2), "arctan": (2, 2), "sinh": (3, 2), "cosh": (2, 1),
    "tanh": (2, 1), "arcsinh": (3, 3), "arccosh": (4, 3), "arctanh": (3, 2),
}  # fmt: skip


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_math_functions_within_the_documented_bounds(dtype):
    rng = np.random.default_rng(4)
    x = np.concatenate([_floats(dtype), rng.uniform(-1, 1, 64), np.exp(rng.uniform(-60, 60, 64))])
    with np.errstate(over="ignore"):
        x = x.astype(dtype)
    names = list(MATH_BOUNDS)
    eqns = fusion_eqns(lambda a: tuple(getattr(ast, name)(a) for name in names), x)
    lowered = [cuda_codegen.lower_region(e) for e in eqns]
    source = combined(lowered)  # one compile for every function
    compile_for_gpus(source, [k for ks in lowered for k in ks.kernels])
    seen = set()
    for eqn, ks in zip(eqns, lowered):
        (prim,) = {e.prim.name for e in eqn.params["graph"].eqns} - {"convert"}
        name = {"asin": "arcsin", "acos": "arccos", "atan": "arctan"}.get(prim, prim)
        name = {"asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh"}.get(name, name)
        f32, f64 = MATH_BOUNDS[name]
        bound = {"float16": 1, "float32": f32 + 2, "float64": f64 + 2}[dtype]
        (got,) = run_kernels(ks, eqn, [x], source)
        (want,) = reference(eqn, [x])
        worst = ulps(got, want).max(initial=0)
        assert worst <= bound, f"{name}: {worst} ulp (bound {bound})"
        seen.add(name)
    assert seen == set(names)
    y = x[::-1].copy()
    check(lambda a, b: (ast.arctan2(a, b), ast.hypot(a, b)), x, y, ulp=5)
    check(lambda a, b: ast.abs(a) ** b, x, y * 0.1, ulp=6)


def test_index_arithmetic_is_64_bit_past_2_to_the_31_elements():
    """The kernels of a region over more than 2**31 elements: every size and index is `ix`, 64-bit in the
    source (the narrow variant is not launched), and the launch covers all of them through the
    grid-stride loop (checked on the launch plan, without allocating)."""

    class Huge:
        def __init__(self, shape, dtype):
            self.shape, self.dtype = shape, np.dtype(dtype)
            self.strides = tuple(
                int(np.prod(shape[k + 1 :], dtype=np.int64)) * self.dtype.itemsize
                for k in range(len(shape))
            )
            self.size = int(np.prod(shape, dtype=np.int64))

    small = np.ones((4, 3), np.float32)
    eqn = fusion_eqns(lambda a, b: a * 2.0 + b, small, small)[0]
    ks = cuda_codegen.lower_region(eqn)
    body = ks.source[ks.source.index('extern "C"') :]
    assert "int " not in body.replace("unsigned int", "")  # no 32-bit index anywhere
    assert "ix total" in body and "ix n0" in body and "for (ix i = " in body
    assert cuda_codegen.WIDE_INDEX in ks.source and "typedef long long ix;" in ks.source
    (small_launch,) = ks.launches([small, small], [np.empty_like(small)])
    assert small_launch.narrow and small_launch.args[-1].dtype == np.int32
    shape = (3, 2**30 + 1)  # 3 * (2**30 + 1) > 2**31 elements
    (launch,) = ks.launches([Huge(shape, "float32")] * 2, [Huge(shape, "float32")])
    assert not launch.narrow
    total = launch.args[-1]
    assert total.dtype == np.int64 and int(total) == 3 * (2**30 + 1)
    assert launch.grid[0] * launch.block[0] < total  # the grid-stride loop covers the rest
    assert int(launch.args[1]) == 2**30 + 1 and launch.args[1].dtype == np.int64  # the row stride
    # the narrow variant up to 2**30 elements and offsets, the 64-bit source past them
    for shape, narrow in (((2**15, 2**15), True), ((2**15, 2**15 + 1), False)):
        (launch,) = ks.launches([Huge(shape, "float32")] * 2, [Huge(shape, "float32")])
        assert launch.narrow is narrow
    far = Huge((2, 3), "float32")
    far.strides = (4 * (2**30 + 1), 4)  # six elements, the second row past 2**30
    (launch,) = ks.launches([far, Huge((2, 3), "float32")], [Huge((2, 3), "float32")])
    assert not launch.narrow


def test_regions_not_lowered_say_why():
    (eqn,) = fusion_eqns(lambda a: ast.sin(a * a), np.ones(3, np.complex64))
    assert cuda_codegen.lower_region(eqn) is None
    assert "CUDA lowering of sin with complex64 operands" in cuda_codegen.why_not(eqn)
    (eqn,) = fusion_eqns(lambda a, b: (a**b) + 1, np.ones(3, np.int32), np.ones(3, np.int32))
    assert cuda_codegen.lower_region(eqn) is None
    assert "integer power" in cuda_codegen.why_not(eqn)


def test_the_32_bit_variant_gives_the_bits_of_the_64_bit_kernels():
    """Each kernel kind, broadcast, strided (negative strides included) and reduced along each form, run
    through its narrow variant (what launches of these sizes use) and its 64-bit source: same bits."""
    from arraystack.ir.passes.fusion_policy import GENERIC
    from arraystack.ir.passes.pipeline import run_pipeline

    from tests.backends.cupy.cuda_check import combined, compile_for_gpus, run_kernels

    rng = np.random.default_rng(8)
    x = rng.standard_normal((37, 300)).astype(np.float32)
    w = rng.standard_normal(300).astype(np.float32)
    k = rng.integers(-9, 9, (37, 300)).astype(np.int64)
    cases = [
        (lambda a, b: ast.tanh(a[::-2, ::3] * b[::3]) + 1.0, x, w),
        (lambda a, b: ast.exp(a - ast.max(a, axis=-1, keepdims=True)) * b, x, w),
        (lambda a, b: ast.sum(a * b, axis=0), x, w),
        (lambda a, b: ast.sum(a * a) + ast.sum(b), x, w),
        (lambda a, b: ast.argmax(a, axis=0) + ast.argmin(a[:, ::-1], axis=1).sum(), x, w),
        (lambda a, b: ast.cumsum(a, axis=1) * 2, k, w),
        (lambda a, b: ast.cumsum(a.reshape(-1)), k, w),
    ]
    lowered = []  # (eqn, kernels): fusion regions, and argmax/argmin/cumsum equations of their own
    for fn, *args in cases:
        graph = run_pipeline(ast.jit(fn).lower(*args).traced, fusion=GENERIC)
        lowered += [(e, ks) for e in graph.eqns if (ks := cuda_codegen.lower_region(e)) is not None]
    assert {ks.kind for _, ks in lowered} >= {"elementwise", "rows", "columns", "whole"}
    source = combined([ks for _, ks in lowered])  # one translation unit per width
    compile_for_gpus(source, [name for _, ks in lowered for name in ks.kernels])
    for eqn, ks in lowered:
        feed = [rng.standard_normal(v.aval.shape).astype(v.aval.dtype) for v in eqn.inputs]
        outs = [np.empty(v.aval.shape, v.aval.dtype) for v in eqn.outputs]
        scratch = [np.empty(shape, dtype) for shape, dtype in ks.scratch(feed)]
        assert all(launch.narrow for launch in ks.launches(feed, outs, scratch))
        narrow = run_kernels(ks, eqn, feed, source)
        wide = run_kernels(ks, eqn, feed, source, narrow=False)
        for a, b in zip(narrow, wide):
            assert a.tobytes() == b.tobytes(), ks.kind
