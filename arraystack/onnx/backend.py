"""arraystack as an ONNX backend (onnx.backend.base.Backend): what ONNX's backend test suite runs.

`prepare(model)` loads the model with arraystack.onnx.load; `run_node(node, inputs)` runs one node the
same way (a one-node model of the node's opset). tests/arraystack/onnx/test_node_suite.py runs ONNX's
node tests through it; benchmarks/bench_onnx_node_suite.py counts them beside onnxruntime.
"""

from __future__ import annotations

import numpy
import onnx
from onnx.backend.base import Backend, BackendRep

from arraystack.onnx.load import load


class ArraystackRep(BackendRep):
    """A loaded model: `run(inputs)` returns its outputs as NumPy arrays."""

    def __init__(self, model):
        self.params, self.fn = load(model)

    def run(self, inputs, **kwargs):
        """Run the model on a list of input arrays (or a dict by input name)."""
        if isinstance(inputs, dict):
            inputs = list(inputs.values())
        if isinstance(inputs, numpy.ndarray):
            inputs = [inputs]
        return tuple(_host(out) for out in self.fn(self.params, *inputs))


def _host(value):
    """An output as NumPy: an array, a list of arrays or dicts (a sequence) or None (an empty optional)."""
    if value is None:
        return None
    if isinstance(value, list):
        return [
            {k: numpy.asarray(x) for k, x in v.items()} if isinstance(v, dict) else numpy.asarray(v)
            for v in value
        ]
    return numpy.asarray(value)


class ArraystackBackend(Backend):
    """ONNX's backend interface over arraystack.onnx.load (CPU, eager)."""

    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        """Check and load `model`; returns an ArraystackRep."""
        super().prepare(model, device, **kwargs)
        return ArraystackRep(model)

    @classmethod
    def run_model(cls, model, inputs, device="CPU", **kwargs):
        """prepare(model).run(inputs)."""
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(cls, node, inputs, device="CPU", outputs_info=None, **kwargs):
        """Run one NodeProto on NumPy inputs, at the opset given as `opset_version` (default: the
        newest arraystack reads)."""
        from onnx import helper

        from arraystack.onnx.interpreter import Interpreter
        from arraystack.onnx.load import check_operators, import_rules
        from arraystack.onnx.versions import OPSET

        rules = import_rules()
        graph = helper.make_graph(
            [node], "node", [], [helper.make_empty_tensor_value_info(n) for n in node.output]
        )
        check_operators(graph, rules)
        env = dict(zip(node.input, (numpy.asarray(x) for x in inputs)))
        # the inputs run as arraystack arrays, as a loaded model's do
        env = {name: _arraystack(x) for name, x in env.items()}
        outs = Interpreter(kwargs.get("opset_version", OPSET), rules).run(graph, env)
        return tuple(numpy.asarray(o) for o in outs)

    @classmethod
    def supports_device(cls, device: str) -> bool:
        """Only the CPU: arraystack's eager path runs on NumPy."""
        return onnx.backend.base.Device(device).type == onnx.backend.base.DeviceType.CPU


def _arraystack(x):
    import arraystack

    return arraystack.asarray(x)


prepare = ArraystackBackend.prepare
run_model = ArraystackBackend.run_model
run_node = ArraystackBackend.run_node
supports_device = ArraystackBackend.supports_device

__all__ = [
    "ArraystackBackend",
    "ArraystackRep",
    "prepare",
    "run_model",
    "run_node",
    "supports_device",
]
