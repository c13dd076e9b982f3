"""Real models from torch: small modules (MLP, CNN, a transposed-convolution decoder, RNN/GRU/LSTM, a
transformer encoder layer) exported with torch.onnx.export (the TorchScript exporter: the dynamo one needs
onnxscript), imported with arraystack.onnx.load and compared with onnxruntime on the same model; imported
models run under jit and are differentiable. Skipped when torch is not installed."""

from __future__ import annotations

import importlib.util
import io
import warnings

import numpy
import pytest

import arraystack as ast
from tests.arraystack.onnx.conftest import assert_close, onnx, run_onnx

if importlib.util.find_spec("torch") is None:
    pytest.skip("torch is not installed (pip install torch==2.13.0)", allow_module_level=True)

import torch


class _Sequence(torch.nn.Module):
    """A recurrent layer's output sequence (torch's modules return (output, state))."""

    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def forward(self, x):
        return self.layer(x)[0]


class _Encoder(torch.nn.Module):
    """A transformer encoder layer; is_causal given explicitly, as torch's tracer needs."""

    def __init__(self):
        super().__init__()
        self.layer = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)

    def forward(self, x):
        return self.layer(x, src_mask=None, is_causal=False)


def _models():
    return {
        "mlp": (
            lambda: torch.nn.Sequential(
                torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3), torch.nn.Softmax(-1)
            ),
            (2, 4),
        ),
        "cnn": (
            lambda: torch.nn.Sequential(
                torch.nn.Conv2d(1, 4, 3, padding=1),
                torch.nn.BatchNorm2d(4),
                torch.nn.ReLU(),
                torch.nn.MaxPool2d(2),
                torch.nn.Flatten(),
                torch.nn.Linear(4 * 4 * 4, 3),
            ),
            (2, 1, 8, 8),
        ),
        "decoder": (
            lambda: torch.nn.Sequential(
                torch.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2),
                torch.nn.ReLU(),
                torch.nn.ConvTranspose2d(6, 1, 2, stride=1, dilation=2),
            ),
            (2, 4, 5, 5),
        ),
        "rnn": (lambda: _Sequence(torch.nn.RNN(4, 5, batch_first=True)), (2, 3, 4)),
        "gru": (
            lambda: _Sequence(torch.nn.GRU(4, 5, batch_first=True, bidirectional=True)),
            (2, 3, 4),
        ),
        "lstm": (lambda: _Sequence(torch.nn.LSTM(4, 5, num_layers=2)), (3, 2, 4)),
        "encoder": (_Encoder, (2, 5, 8)),
    }


def export(name):
    """The named module exported to ONNX, and an input."""
    make, shape = _models()[name]
    torch.manual_seed(0)
    module = make().eval()
    x = torch.randn(*shape)
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation warning
        torch.onnx.export(module, (x,), buffer, dynamo=False, input_names=["x"])
    return onnx.load_from_string(buffer.getvalue()), x.numpy()


@pytest.mark.parametrize("name", list(_models()))
def test_torch_model_matches_onnxruntime(name):
    model, x = export(name)
    params, fn = ast.onnx.load(model)
    expected = run_onnx(model, {"x": x})
    got = fn(params, x)
    assert len(got) == len(expected)
    for e, g in zip(expected, got):
        numpy.testing.assert_allclose(numpy.asarray(g), e, rtol=1e-5, atol=1e-6)


def test_imported_gru_runs_under_jit():
    model, x = export("gru")
    params, fn = ast.onnx.load(model)
    expected = run_onnx(model, {"x": x})[0]
    assert_close(numpy.asarray(fn(params, x)[0]), numpy.asarray(ast.jit(fn)(params, x)[0]))
    numpy.testing.assert_allclose(
        numpy.asarray(ast.jit(fn)(params, x)[0]), expected, rtol=1e-5, atol=1e-6
    )


def test_gradient_of_an_imported_lstm_matches_torch():
    make, _ = _models()["lstm"]
    torch.manual_seed(0)
    module = make().eval()
    model, x = export("lstm")
    params, fn = ast.onnx.load(model)
    grads = ast.grad(lambda p: ast.sum(fn(p, x)[0] ** 2))(params)
    torch.sum(module(torch.from_numpy(x)) ** 2).backward()
    # the input weights of the first layer: torch's weight_ih_l0 is ONNX's W with the gates reordered
    (w_name,) = [n.input[1] for n in model.graph.node if n.op_type == "LSTM"][:1]
    w_grad = numpy.asarray(grads[w_name])[0]
    order = [0, 3, 1, 2]  # ONNX i, o, f, c from torch's i, f, g, o
    torch_grad = module.layer.weight_ih_l0.grad.numpy().reshape(4, 5, 4)[order].reshape(20, 4)
    numpy.testing.assert_allclose(w_grad, torch_grad, rtol=1e-4, atol=1e-6)
