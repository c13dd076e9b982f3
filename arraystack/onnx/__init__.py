"""arraystack.onnx: ONNX models out of arraystack functions (export) and back in (load).

`export(f, *example_args)` traces `f` into the IR and writes each equation as ONNX nodes at the opset
pinned in versions.py; `load(model)` returns the model's weights and a pure arraystack function that
runs eagerly, under `jit` and under `grad`. The `onnx` package (and `onnxruntime`, to run exports) is
an optional dependency: `pip install arraystack[onnx]`; it is imported when these functions are called.
"""

from arraystack.onnx.errors import ExportError, ModelError, UnsupportedOperatorError
from arraystack.onnx.export import EXPORT_PASSES, export
from arraystack.onnx.load import load
from arraystack.onnx.versions import IR_VERSION, OPSET

__all__ = [
    "EXPORT_PASSES",
    "IR_VERSION",
    "OPSET",
    "ExportError",
    "ModelError",
    "UnsupportedOperatorError",
    "export",
    "load",
]
