"""Whole programs exported to ONNX and run by onnxruntime: an MLP, a small CNN, softmax and layer
norm, control flow, integer math, gather/scatter, reductions, sorting and cumulative sums; dynamic
axes; and the errors for what ONNX cannot express."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast
from arraystack.onnx import ExportError

RNG = numpy.random.default_rng(1)


def _f32(*shape):
    return RNG.normal(size=shape).astype(numpy.float32)


W1, B1, W2, B2 = _f32(6, 16), _f32(16), _f32(16, 3), _f32(3)


def mlp(x):
    h = ast.maximum(x @ W1 + B1, 0.0)
    return ast.nn.softmax(h @ W2 + B2, axis=-1)


def layer_norm(x):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / ast.sqrt(var + 1e-5)


KERNEL = _f32(4, 2, 3, 3)


def cnn(x):
    y = ast.nn.conv(x, KERNEL, padding="SAME")
    y = ast.nn.relu(y)
    return ast.nn.max_pool(y, 2, strides=2).reshape(x.shape[0], -1).sum(axis=1)


def test_mlp(compare):
    compare(mlp, _f32(5, 6))


def test_mlp_with_dynamic_batch(compare, onnx_run, close):
    model = compare(mlp, _f32(5, 6), dynamic_axes={"x": {0: "batch"}})
    dims = model.graph.output[0].type.tensor_type.shape.dim
    assert [d.dim_param or d.dim_value for d in dims] == ["batch", 3]
    for n in (1, 9):
        x = _f32(n, 6)
        close(numpy.asarray(mlp(ast.asarray(x))), onnx_run(model, {"x": x})[0])


def test_layer_norm_and_softmax_with_dynamic_axes(compare, onnx_run, close):
    def f(x):
        return layer_norm(x), ast.nn.log_softmax(x, axis=0)

    model = compare(f, _f32(4, 7), dynamic_axes={"x": {0: "rows", 1: "cols"}})
    x = _f32(2, 11)
    for e, g in zip(f(ast.asarray(x)), onnx_run(model, {"x": x})):
        close(numpy.asarray(e), g)


def test_small_cnn(compare, onnx_run, close):
    model = compare(cnn, _f32(2, 2, 8, 8), dynamic_axes={"x": [0]})
    x = _f32(3, 2, 8, 8)
    close(numpy.asarray(cnn(ast.asarray(x))), onnx_run(model, {"x": x})[0])


def test_reductions(compare):
    def f(x):
        return (
            x.sum(axis=0),
            x.prod(axis=1),
            x.max(axis=(0, 1)),
            x.min(axis=1),
            ast.argmax(x, axis=1),
            ast.argmin(x, axis=0),
            (x > 0).any(axis=1),
            (x > -5).all(axis=0),
            x.var(axis=0),
        )

    x = _f32(5, 4)
    x[1, 2] = numpy.nan  # NaN propagates through max/min, and argmax finds the first NaN
    compare(f, x)
    compare(
        lambda a: (a.sum(axis=0), a.max(axis=1), ast.argmax(a, axis=0)),
        RNG.integers(-9, 9, (4, 3)).astype(numpy.int16),
    )


def test_shapes_and_slicing(compare):
    def f(x):
        y = x.reshape(3, 8).T[::2, 1:]
        z = ast.concatenate([y, -y], axis=1)
        return (
            ast.pad(z, ((1, 0), (0, 2)), constant_values=7.0),
            ast.flip(x, 1),
            ast.broadcast_to(x[:, :1], (4, 6)),
        )

    compare(f, _f32(4, 6))


def test_gather_and_scatter(compare):
    def f(x, i, v):
        y = x.copy()
        y[i] = 0.0
        z = ast.zeros(6, numpy.float32)
        ast.add.at(z, i, v[:, 0])  # duplicate indices accumulate
        return x[i], y, x[i, 1], ast.take_along_axis(x, ast.argsort(x, axis=1), axis=1), z

    compare(f, _f32(6, 3), numpy.array([4, -1, 0, 4], numpy.int64), _f32(4, 3))


def test_sort_cumsum_and_search(compare):
    def f(x):
        s = ast.sort(x, axis=1)
        return (
            s,
            ast.argsort(x, axis=0, kind="stable"),
            ast.cumsum(x, axis=1),
            ast.cumprod(x, axis=0),
            ast.maximum.accumulate(x, axis=1),
            ast.minimum.accumulate(x, axis=0),
            ast.searchsorted(ast.sort(x[0]), x[1]),
        )

    x = RNG.integers(-4, 4, (5, 6)).astype(numpy.float32)  # ties: the stable order is NumPy's
    x[2, 3] = numpy.nan
    compare(f, x)
    compare(
        lambda a: (ast.sort(a), ast.cumsum(a, axis=0), ast.argsort(a, kind="stable")),
        RNG.integers(-50, 50, (4, 7)).astype(numpy.int32),
    )


def test_integer_math(compare):
    def f(a, b):
        return (
            a // b,
            a % b,
            a * b - a,
            (a << 2) ^ b,
            ast.where(a > b, a, b),
            (a // 3).astype(numpy.float32),
        )

    a = RNG.integers(-100, 100, 20).astype(numpy.int32)
    b = RNG.integers(-7, 7, 20).astype(numpy.int32)
    compare(f, a, b)


def test_iota_full_and_arange(compare):
    def f(x):
        n = x.shape[0]
        return (
            ast.arange(n, dtype=numpy.float32) * x.sum(),
            ast.full((n, 2), 3.5, numpy.float32),
            ast.eye(n, dtype=numpy.float32) @ x,
        )

    compare(f, _f32(4, 3), dynamic_axes={"x": {0: "n"}})


def test_control_flow(compare):
    def f(x, k):
        y = ast.cond(x.sum() > 0, lambda a: a * 2.0, lambda a: a - 1.0, x)
        z = ast.fori_loop(0, 3, lambda i, c: c * 0.5 + 1.0, x)
        w = ast.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1 + k * k, c[1] * 1.5), (0, x))
        carry, ys = ast.scan(lambda c, row: (c + row, c * row), ast.zeros(3, numpy.float32), x)
        s = ast.switch(k, [lambda a: a + 1.0, lambda a: a * 3.0, lambda a: -a], x)
        return y, z, w[0], w[1], carry, ys, s

    for k in (0, 1, 3, -2):
        compare(f, _f32(4, 3), numpy.array(k, numpy.int64))
    compare(
        lambda x: ast.scan(lambda c, r: (c * r, c), ast.ones(3, numpy.float32), x, reverse=True),
        _f32(4, 3),
    )


def test_unsupported_primitives_name_the_primitive_and_the_line():
    def f(x):
        return ast.linalg.cholesky(x @ x.T + ast.eye(3))

    with pytest.raises(ExportError, match=r"`cholesky`.*test_export_programs.py:\d+.*no Cholesky"):
        ast.onnx.export(f, numpy.eye(3))


def test_shape_dependent_branches_cannot_have_that_axis_dynamic():
    def f(x):
        return x.sum() if x.shape[0] > 4 else x.max()

    with pytest.raises(ExportError, match="changes with their sizes"):
        ast.onnx.export(f, _f32(3, 2), dynamic_axes={"x": {0: "batch"}})
    with pytest.raises(ValueError, match="dynamic_axes names input 'y'"):
        ast.onnx.export(f, _f32(3, 2), dynamic_axes={"y": {0: "batch"}})


def test_names_and_path(tmp_path, onnx_run, close):
    import onnx

    path = tmp_path / "m.onnx"
    model = ast.onnx.export(
        lambda a, b: (a + b, a * b),
        _f32(2),
        _f32(2),
        input_names=["left", "right"],
        output_names=["total", "product"],
        path=str(path),
    )
    assert [i.name for i in model.graph.input] == ["left", "right"]
    assert [o.name for o in model.graph.output] == ["total", "product"]
    loaded = onnx.load(str(path))
    assert (
        loaded.opset_import[0].version == ast.onnx.OPSET
        and loaded.ir_version == ast.onnx.IR_VERSION
    )
    a, b = _f32(2), _f32(2)
    close(a * b, onnx_run(loaded, {"left": a, "right": b})[1])
