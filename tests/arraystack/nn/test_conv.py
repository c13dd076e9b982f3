"""conv1d/conv2d and pooling against direct loop implementations in NumPy, gradients against finite
differences, eager vs jit."""

from __future__ import annotations

import itertools

import numpy
import pytest

import arraystack as ast
from arraystack import nn
from arraystack.nn.conv import _padding_pairs

RNG = numpy.random.default_rng(2)


def _loop_conv(x, w, strides, pads, dilation, groups):
    """Direct cross-correlation: x (N, C, *S), w (O, C/groups, *K), pads [(lo, hi)] per spatial
    axis."""
    x = numpy.pad(x, [(0, 0), (0, 0), *pads])
    n = x.shape[0]
    o, cg = w.shape[:2]
    window = w.shape[2:]
    out = [
        (size - (k - 1) * d - 1) // s + 1
        for size, k, s, d in zip(x.shape[2:], window, strides, dilation)
    ]
    og = o // groups
    y = numpy.zeros((n, o, *out))
    for b, oc in itertools.product(range(n), range(o)):
        g = oc // og
        for pos in itertools.product(*(range(m) for m in out)):
            acc = 0.0
            for ci in range(cg):
                for k in itertools.product(*(range(m) for m in window)):
                    src = tuple(p * s + kk * d for p, s, kk, d in zip(pos, strides, k, dilation))
                    acc += x[(b, g * cg + ci, *src)] * w[(oc, ci, *k)]
            y[(b, oc, *pos)] = acc
    return y


def _loop_pool(x, window, strides, pads, kind, count_include_pad=True):
    """Pooling over x (N, C, *S) with explicit loops; padding is -inf for max and 0 for avg."""
    fill = -numpy.inf if kind == "max" else 0.0
    valid = numpy.pad(numpy.ones(x.shape[2:]), pads)
    x = numpy.pad(x, [(0, 0), (0, 0), *pads], constant_values=fill)
    out = [(size - k) // s + 1 for size, k, s in zip(x.shape[2:], window, strides)]
    y = numpy.zeros((*x.shape[:2], *out))
    for pos in itertools.product(*(range(m) for m in out)):
        region = tuple(slice(p * s, p * s + k) for p, s, k in zip(pos, strides, window))
        block = x[(slice(None), slice(None), *region)].reshape(*x.shape[:2], -1)
        if kind == "max":
            y[(slice(None), slice(None), *pos)] = block.max(-1)
        else:
            count = numpy.prod(window) if count_include_pad else valid[region].sum()
            y[(slice(None), slice(None), *pos)] = block.sum(-1) / count
    return y


CONV2D_CASES = [
    # (x shape NCHW, out channels, kernel, stride, padding, dilation, groups)
    ((2, 3, 6, 5), 4, (3, 3), 1, "VALID", 1, 1),
    ((1, 2, 7, 6), 3, (3, 2), 2, "SAME", 1, 1),
    ((1, 4, 6, 6), 6, (3, 3), (1, 2), ((1, 0), (2, 1)), 1, 2),
    ((2, 2, 7, 7), 2, (2, 3), 1, "SAME", (2, 1), 1),
    ((1, 4, 5, 5), 4, (3, 3), 2, 1, 1, 4),  # depthwise
]


def _case_arrays(case):
    shape, out_channels, kernel, *_, groups = case
    x = RNG.standard_normal(shape)
    w = RNG.standard_normal((out_channels, shape[1] // groups, *kernel))
    b = RNG.standard_normal(out_channels)
    return x, w, b


def _reference(case, x, w, b):
    shape, _, kernel, stride, padding, dilation, groups = case
    nd = len(kernel)
    strides = (stride,) * nd if isinstance(stride, int) else stride
    dil = (dilation,) * nd if isinstance(dilation, int) else dilation
    pads = _padding_pairs(padding, shape[2:], kernel, strides, dil)
    return _loop_conv(x, w, strides, pads, dil, groups) + b.reshape(-1, *(1,) * nd)


@pytest.mark.parametrize("case", CONV2D_CASES, ids=[str(i) for i in range(len(CONV2D_CASES))])
def test_conv2d_nchw_and_nhwc(case):
    _, _, _, stride, padding, dilation, groups = case
    x, w, b = _case_arrays(case)
    expected = _reference(case, x, w, b)

    def nchw(x, w, b):
        return nn.conv2d({"w": w, "b": b}, x, stride, padding, dilation, groups)

    def nhwc(x, w, b):
        return nn.conv2d({"w": w, "b": b}, x, stride, padding, dilation, groups, data_format="NHWC")

    args = [ast.asarray(a) for a in (x, w, b)]
    numpy.testing.assert_allclose(numpy.asarray(nchw(*args)), expected, rtol=1e-10, atol=1e-12)
    numpy.testing.assert_allclose(
        numpy.asarray(ast.jit(nchw)(*args)), expected, rtol=1e-10, atol=1e-12
    )
    args_last = [
        ast.asarray(x.transpose(0, 2, 3, 1)),
        ast.asarray(w.transpose(2, 3, 1, 0)),
        args[2],
    ]
    numpy.testing.assert_allclose(
        numpy.asarray(nhwc(*args_last)), expected.transpose(0, 2, 3, 1), rtol=1e-10, atol=1e-12
    )


def test_conv2d_same_keeps_size():
    x = ast.asarray(RNG.standard_normal((1, 2, 5, 7)))
    w = ast.asarray(RNG.standard_normal((3, 2, 3, 3)))
    assert nn.conv2d({"w": w}, x, padding="SAME").shape == (1, 3, 5, 7)
    assert nn.conv2d({"w": w}, x, stride=2, padding="SAME").shape == (1, 3, 3, 4)


@pytest.mark.parametrize("data_format", ["NCW", "NWC"])
def test_conv1d(data_format, check_grads):
    x = RNG.standard_normal((2, 4, 9))
    w = RNG.standard_normal((6, 2, 3))
    expected = _loop_conv(x, w, (2,), [(1, 2)], (2,), 2)
    if data_format == "NWC":
        x, w, expected = x.transpose(0, 2, 1), w.transpose(2, 1, 0), expected.transpose(0, 2, 1)

    def f(x, w):
        return nn.conv1d(
            {"w": w}, x, stride=2, padding=[(1, 2)], dilation=2, groups=2, data_format=data_format
        )

    numpy.testing.assert_allclose(
        numpy.asarray(f(ast.asarray(x), ast.asarray(w))), expected, rtol=1e-10, atol=1e-12
    )
    check_grads(f, [x, w])


@pytest.mark.parametrize(
    "case", [CONV2D_CASES[1], CONV2D_CASES[2]], ids=["same_strided", "groups_explicit"]
)
def test_conv2d_gradients(case, check_grads):
    _, _, _, stride, padding, dilation, groups = case
    x, w, b = _case_arrays(case)
    check_grads(
        lambda x, w, b: nn.conv2d({"w": w, "b": b}, x, stride, padding, dilation, groups), [x, w, b]
    )
    check_grads(
        lambda x, w: nn.conv2d({"w": w}, x, stride, padding, dilation, groups),
        [x, w],
        modes=("rev",),
        jit=True,
    )


POOL_CASES = [
    # (window, strides, padding)
    ((2, 2), None, "VALID"),
    ((3, 3), (2, 2), "SAME"),
    ((3, 2), (1, 2), ((1, 1), (0, 1))),
]


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize("case", POOL_CASES, ids=["valid", "same", "explicit"])
def test_pooling(kind, case, check_grads):
    window, strides, padding = case
    x = RNG.standard_normal((2, 3, 7, 6))
    pads = _padding_pairs(padding, x.shape[2:], window, strides or window, (1, 1))
    expected = _loop_pool(x, window, strides or window, pads, kind)
    pool = nn.max_pool if kind == "max" else nn.avg_pool

    def f(x):
        return pool(x, window, strides, padding)

    numpy.testing.assert_allclose(numpy.asarray(f(ast.asarray(x))), expected, rtol=1e-12)
    numpy.testing.assert_allclose(numpy.asarray(ast.jit(f)(ast.asarray(x))), expected, rtol=1e-12)
    last = pool(ast.asarray(x.transpose(0, 2, 3, 1)), window, strides, padding, data_format="NHWC")
    numpy.testing.assert_allclose(numpy.asarray(last), expected.transpose(0, 2, 3, 1), rtol=1e-12)
    check_grads(f, [x])


def test_avg_pool_excluding_padding():
    x = RNG.standard_normal((1, 2, 5, 5))
    pads = [(1, 1), (1, 1)]
    expected = _loop_pool(x, (3, 3), (2, 2), pads, "avg", count_include_pad=False)
    got = nn.avg_pool(ast.asarray(x), 3, 2, 1, count_include_pad=False)
    numpy.testing.assert_allclose(numpy.asarray(got), expected, rtol=1e-12)


def test_max_pool_gradient_routes_to_the_maximum():
    x = numpy.arange(16.0).reshape(1, 1, 4, 4)
    g = numpy.asarray(ast.grad(lambda v: ast.sum(nn.max_pool(v, 2)))(ast.asarray(x)))
    expected = numpy.zeros((4, 4))
    expected[1::2, 1::2] = 1.0
    numpy.testing.assert_array_equal(g[0, 0], expected)


def test_errors():
    x = ast.ones((1, 3, 5, 5))
    with pytest.raises(ValueError, match="groups"):
        nn.conv2d({"w": ast.ones((4, 2, 3, 3))}, x, groups=2)
    with pytest.raises(ValueError, match="padding"):
        nn.conv2d({"w": ast.ones((4, 3, 3, 3))}, x, padding="FULL")
    with pytest.raises(ValueError, match="window"):
        nn.max_pool(x, 7)
