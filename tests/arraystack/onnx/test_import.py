"""arraystack.onnx.load: exported models come back as (params, fn) that run eagerly, under jit and under
grad (against finite differences), keep dynamic axes, and models built with onnx.helper; bad input
raises ModelError / UnsupportedOperatorError naming the node, and nothing in a file runs code."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast
from arraystack.onnx import ModelError, UnsupportedOperatorError

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper

RNG = numpy.random.default_rng(2)
W1 = RNG.normal(size=(4, 8)).astype(numpy.float32)
W2 = RNG.normal(size=(8, 2)).astype(numpy.float32)


def mlp(x):
    return ast.nn.log_softmax(ast.tanh(x @ W1) @ W2, axis=-1)


def _x(n=3):
    return RNG.normal(size=(n, 4)).astype(numpy.float32)


def test_round_trip_eager_and_jit(close):
    model = ast.onnx.export(mlp, _x(), dynamic_axes={"x": {0: "batch"}})
    params, fn = ast.onnx.load(model)
    assert sorted(params) == ["const_0", "const_1"]
    for n in (3, 5):  # the dynamic batch axis
        x = _x(n)
        expected = numpy.asarray(mlp(ast.asarray(x)))
        close(expected, numpy.asarray(fn(params, x)[0]))
        close(expected, numpy.asarray(ast.jit(fn)(params, x)[0]))


def test_grad_of_an_imported_model_matches_finite_differences(check_grads):
    model = ast.onnx.export(mlp, _x())
    params, fn = ast.onnx.load(model)
    x = _x().astype(numpy.float64)
    w1, w2 = (numpy.asarray(params[k], numpy.float64) for k in ("const_0", "const_1"))

    def loss(a, b):
        out = fn(
            {"const_0": a.astype(numpy.float32), "const_1": b.astype(numpy.float32)},
            x.astype(numpy.float32),
        )[0]
        return out.astype(numpy.float64).sum()

    check_grads(loss, (w1, w2), modes=("rev",), eps=1e-3, rtol=2e-2, atol=1e-3)


def test_fine_tuning_an_imported_model_lowers_its_loss():
    x, labels = _x(16), RNG.integers(0, 2, 16)
    params, fn = ast.onnx.load(ast.onnx.export(mlp, x))

    def loss(p):
        logp = fn(p, x)[0]
        return -ast.mean(ast.take_along_axis(logp, labels[:, None], axis=1))

    step = ast.jit(
        lambda p: {k: v - 0.1 * g for (k, v), g in zip(p.items(), ast.grad(loss)(p).values())}
    )
    before = float(loss(params))
    for _ in range(20):
        params = step(params)
    assert float(loss(params)) < before


def test_control_flow_round_trip(close):
    def f(x):
        y = ast.cond(x.sum() > 0, lambda a: a * 2.0, lambda a: a - 1.0, x)
        carry, ys = ast.scan(lambda c, row: (c + row, c * row), ast.zeros(4, numpy.float32), x)
        return y, carry, ys, ast.fori_loop(0, 4, lambda i, c: c * 0.5, x)

    params, fn = ast.onnx.load(ast.onnx.export(f, _x()))
    for x in (_x(), -numpy.abs(_x())):
        for e, g in zip(f(ast.asarray(x)), fn(params, x)):
            close(numpy.asarray(e), numpy.asarray(g))
        for e, g in zip(f(ast.asarray(x)), ast.jit(fn)(params, x)):
            close(numpy.asarray(e), numpy.asarray(g))


def _model(nodes, inputs, outputs, initializers=(), opset=None):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset or ast.onnx.OPSET)]
    )


def _info(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def test_a_model_built_with_onnx_helper(onnx_run, close):
    w = helper.make_tensor("w", TensorProto.FLOAT, [3, 2], RNG.normal(size=6).astype(numpy.float32))
    shape = helper.make_tensor("shape", TensorProto.INT64, [2], [-1, 2])
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["h"]),
        helper.make_node("Relu", ["h"], ["r"]),
        helper.make_node("Reshape", ["r", "shape"], ["y"]),
        helper.make_node("ReduceMean", ["y"], ["m"], keepdims=0),
    ]
    model = _model(
        nodes, [_info("x", ["n", 3])], [_info("y", ["n", 2]), _info("m", [])], [w, shape]
    )
    params, fn = ast.onnx.load(model)
    assert list(params) == ["w"]  # the int64 shape is a constant of fn
    x = RNG.normal(size=(5, 3)).astype(numpy.float32)
    for e, g in zip(onnx_run(model, {"x": x}), ast.jit(fn)(params, x)):
        close(e, numpy.asarray(g))


def test_truncated_and_corrupt_files(tmp_path):
    good = ast.onnx.export(mlp, _x()).SerializeToString()
    path = tmp_path / "m.onnx"
    path.write_bytes(good[: len(good) // 3])
    with pytest.raises(ModelError, match="truncated or corrupt|no graph|inconsistent"):
        ast.onnx.load(str(path))
    path.write_bytes(b"\x00\xff garbage" * 10)
    with pytest.raises(ModelError):
        ast.onnx.load(str(path))
    with pytest.raises(FileNotFoundError):
        ast.onnx.load(str(tmp_path / "missing.onnx"))


def test_unknown_operators_and_domains_name_the_node():
    model = _model(
        [helper.make_node("FancyOp", ["x"], ["y"], name="layer3")],
        [_info("x", [2])],
        [_info("y", [2])],
    )
    with pytest.raises(UnsupportedOperatorError, match="'layer3' \\(FancyOp\\)"):
        ast.onnx.load(model)
    custom = _model(
        [helper.make_node("Relu", ["x"], ["y"], domain="com.example", name="mine")],
        [_info("x", [2])],
        [_info("y", [2])],
    )
    custom.opset_import.append(helper.make_opsetid("com.example", 1))
    with pytest.raises(UnsupportedOperatorError, match="'mine'.*domain 'com.example'"):
        ast.onnx.load(custom)


def test_opsets_newer_than_supported():
    model = _model(
        [helper.make_node("Relu", ["x"], ["y"])],
        [_info("x", [2])],
        [_info("y", [2])],
        opset=ast.onnx.OPSET + 1,
    )
    with pytest.raises(ModelError, match=f"opset {ast.onnx.OPSET + 1}"):
        ast.onnx.load(model)


def test_shape_and_dtype_contradictions():
    bad = _model(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
        [_info("x", [2, 3]), _info("w", [4, 5])],
        [_info("y", [2, 5])],
    )
    with pytest.raises(ModelError, match="MatMul"):
        ast.onnx.load(bad)
    params, fn = ast.onnx.load(
        _model([helper.make_node("Relu", ["x"], ["y"])], [_info("x", [2, 3])], [_info("y", [2, 3])])
    )
    with pytest.raises(ModelError, match="input 'x' must be float32"):
        fn(params, numpy.ones((2, 3), numpy.int32))
    with pytest.raises(ModelError, match="input 'x' must have size 3 on axis 1"):
        fn(params, numpy.ones((2, 4), numpy.float32))


def test_external_data_outside_the_models_folder_is_refused(tmp_path):
    secret = tmp_path / "secret.bin"
    secret.write_bytes(numpy.ones(4, numpy.float32).tobytes())
    folder = tmp_path / "model"
    folder.mkdir()
    w = helper.make_tensor("w", TensorProto.FLOAT, [4], numpy.zeros(4, numpy.float32))
    w.ClearField("float_data")
    w.data_location = TensorProto.EXTERNAL
    for key, value in (("location", "../secret.bin"), ("offset", "0"), ("length", "16")):
        entry = w.external_data.add()
        entry.key, entry.value = key, value
    model = _model(
        [helper.make_node("Add", ["x", "w"], ["y"])], [_info("x", [4])], [_info("y", [4])], [w]
    )
    path = folder / "m.onnx"
    path.write_bytes(model.SerializeToString())
    with pytest.raises(ModelError, match="outside the model's folder"):
        ast.onnx.load(str(path))
    (folder / "w.bin").write_bytes(numpy.arange(4, dtype=numpy.float32).tobytes())
    w.external_data[0].value = "w.bin"
    model = _model(
        [helper.make_node("Add", ["x", "w"], ["y"])], [_info("x", [4])], [_info("y", [4])], [w]
    )
    path.write_bytes(model.SerializeToString())
    params, fn = ast.onnx.load(str(path))
    numpy.testing.assert_array_equal(
        numpy.asarray(fn(params, numpy.ones(4, numpy.float32))[0]), [1, 2, 3, 4]
    )


def test_the_backend_interface():
    from arraystack.onnx import backend

    assert backend.supports_device("CPU") and not backend.supports_device("CUDA")
    node = helper.make_node("Add", ["a", "b"], ["c"])
    out = backend.run_node(node, [numpy.ones(2, numpy.float32), numpy.ones(2, numpy.float32)])
    numpy.testing.assert_array_equal(out[0], [2, 2])
