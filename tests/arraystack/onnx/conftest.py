"""Shared checks of the ONNX tests: export, full checker, onnxruntime, and comparison with arraystack."""

from __future__ import annotations

import numpy
import pytest

onnx = pytest.importorskip("onnx", reason="arraystack.onnx tests need the onnx package")
ort = pytest.importorskip("onnxruntime", reason="ONNX exports are checked with onnxruntime")

import arraystack
import arraystack.onnx


def run_onnx(model, inputs: dict) -> list:
    """The outputs of `model` run by onnxruntime on the CPU."""
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, inputs)


def assert_close(expected, actual):
    """float32 within 1e-5 relative (float64 1e-12), integers and bools exact, dtypes equal."""
    expected = numpy.asarray(expected)
    actual = numpy.asarray(actual)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    if expected.dtype.kind == "f":
        rtol = 1e-5 if expected.dtype.itemsize <= 4 else 1e-12
        tiny = numpy.finfo(expected.dtype).tiny
        numpy.testing.assert_allclose(actual, expected, rtol=rtol, atol=tiny, equal_nan=True)
    else:
        numpy.testing.assert_array_equal(actual, expected)


def export_and_compare(fn, *args, dynamic_axes=None, **kwargs):
    """Export `fn`, check the model in full, run it in onnxruntime and compare each output with
    arraystack's eager result. Returns the model."""
    model = arraystack.onnx.export(fn, *args, dynamic_axes=dynamic_axes, **kwargs)
    onnx.checker.check_model(model, full_check=True)
    names = [i.name for i in model.graph.input]
    got = run_onnx(model, dict(zip(names, [numpy.asarray(a) for a in args])))
    with numpy.errstate(all="ignore"):
        expected = fn(*[arraystack.asarray(a) for a in args])
    expected = expected if isinstance(expected, (tuple, list)) else [expected]
    assert len(got) == len(expected)
    for e, g in zip(expected, got):
        assert_close(numpy.asarray(e), g)
    return model


@pytest.fixture
def compare():
    return export_and_compare


@pytest.fixture
def onnx_run():
    return run_onnx


@pytest.fixture
def close():
    return assert_close
