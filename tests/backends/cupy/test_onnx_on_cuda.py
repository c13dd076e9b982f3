"""An ONNX model imported with arraystack.onnx.load runs on cuda arrays (the stand-in): under jit with the
cupy backend, and differentiated, with the host's results."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast

pytest.importorskip("onnx", reason="the onnx extra is not installed")


def test_an_imported_model_runs_and_differentiates_on_cuda(standin):
    rng = numpy.random.default_rng(0)
    w = rng.standard_normal((3, 4)).astype(numpy.float32)
    model = ast.onnx.export(
        lambda x: ast.tanh(x @ w).sum(axis=-1), numpy.ones((5, 3), numpy.float32)
    )
    params, fn = ast.onnx.load(model)
    x = rng.standard_normal((5, 3)).astype(numpy.float32)
    on_gpu = {name: ast.asarray(value, device="cuda") for name, value in params.items()}
    (out,) = ast.jit(fn)(on_gpu, ast.asarray(x, device="cuda"))
    assert out.device == "cuda:0"
    numpy.testing.assert_allclose(out.to_device("cpu"), numpy.tanh(x @ w).sum(-1), rtol=1e-5)
    grads = ast.grad(lambda p: fn(p, ast.asarray(x, device="cuda"))[0].sum())(on_gpu)
    host = ast.grad(lambda p: fn(p, ast.asarray(x))[0].sum())(params)
    for name, value in grads.items():
        assert value.device == "cuda:0"
        numpy.testing.assert_allclose(value.to_device("cpu"), host[name], rtol=1e-5, atol=1e-6)
