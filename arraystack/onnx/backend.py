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
        return tuple(numpy.asarray(out) for out in self.fn(self.params, *inputs))


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
        from arraystack.onnx.versions import OPSET

        from onnx import helper

        opset = kwargs.get("opset_version", OPSET)
        ins = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(numpy.asarray(x).dtype),
                                             None) for n, x in zip(node.input, inputs)]
        outs = [helper.make_empty_tensor_value_info(n) for n in node.output]
        graph = helper.make_graph([node], "node", ins, outs)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        return ArraystackRep(model).run(list(inputs))

    @classmethod
    def supports_device(cls, device: str) -> bool:
        """Only the CPU: arraystack's eager path runs on NumPy."""
        return onnx.backend.base.Device(device).type == onnx.backend.base.DeviceType.CPU


prepare = ArraystackBackend.prepare
run_model = ArraystackBackend.run_model
run_node = ArraystackBackend.run_node
supports_device = ArraystackBackend.supports_device

__all__ = ["ArraystackBackend", "ArraystackRep", "prepare", "run_model", "run_node", "supports_device"]
