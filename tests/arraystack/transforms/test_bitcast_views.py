"""x.view(dtype) under a trace (the bitcast primitive) against NumPy on every tier: the same bits, NumPy's
shapes when the size changes, writes through the view reaching the array and back, NumPy's errors; and
bits as constants for grad, and per example under vmap."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast
from tests.fuzz.tiers import CUDA_TIERS, TIERS, check_program

np = numpy  # each program's `np` is rebound to the module under test


def float_bits(x):
    y = x * 1.5
    bits = y.view(np.int32)
    return bits, (bits >> 23) & 0xFF, y.view(np.uint32) ^ 0x80000000


def narrower_and_wider(x):
    y = x + 1
    halves = y.view(np.int16)  # (..., n) -> (..., 2n)
    pairs = y.view(np.float64)  # (..., n) -> (..., n / 2)
    return halves, pairs, halves.view(np.float32)


def written_through(x):
    y = x * 2
    bits = y.view(np.int32)
    bits[0] = 0x3F800000  # 1.0
    y[1, 1] = -0.0
    bits[1] += 1  # the next float up, and -0.0 becomes the smallest negative denormal
    return y, bits


def bool_and_bytes(x):
    b = x > 2
    return b.view(np.uint8) * 3, (b.view(np.int8) - 1).view(np.uint8)


@pytest.mark.parametrize("f", [float_bits, narrower_and_wider, written_through, bool_and_bytes])
def test_views_as_other_dtypes_give_numpys_bits(f):
    check_program(
        f,
        lambda: [
            numpy.array([[0.5, -1.25, 3.0, numpy.nan], [numpy.inf, 2.0, -0.0, 7.0]], numpy.float32)
        ],
    )


@pytest.mark.parametrize("f", [float_bits, narrower_and_wider, written_through])
def test_views_as_other_dtypes_on_cuda(standin, f):
    args = lambda: [numpy.array([[0.5, -1.25, 3.0, 1.0], [4.0, 2.0, -0.0, 7.0]], numpy.float32)]
    check_program(f, args, tiers=(*TIERS, *CUDA_TIERS))


def test_numpys_errors_for_views_it_refuses():
    def transposed(x):
        return x.T.view(np.int16)

    def scalar(x):
        return x.sum().view(np.float64)

    def odd(x):
        return x[:, :3].copy().view(np.float64)

    for f in (transposed, scalar, odd):
        check_program(f, lambda: [numpy.ones((2, 4), numpy.float32)])


def test_bits_are_constants_for_grad_and_vmap_maps_them():
    x = numpy.array([1.0, -2.5, 3.25], numpy.float32)

    def f(x):
        return ast.sum(x * x.view(ast.int32).astype(ast.float32))

    want = x.view(numpy.int32).astype(numpy.float32)
    numpy.testing.assert_array_equal(numpy.asarray(ast.grad(f)(x)), want)
    batch = numpy.stack([x, -x])
    got = ast.vmap(lambda v: v.view(ast.int16))(batch)
    numpy.testing.assert_array_equal(numpy.asarray(got), batch.view(numpy.int16))
