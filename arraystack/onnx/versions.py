"""The ONNX versions arraystack writes and reads, pinned here and nowhere else.

OPSET and IR_VERSION are the highest that the onnxruntime release on PyPI accepts (onnxruntime 1.32
with onnx 1.23: opset 28, IR version 14); tests/arraystack/onnx checks every export with both.
"""

# the default ("ai.onnx") opset of exported models
OPSET = 28
# the ONNX IR version of exported models
IR_VERSION = 14
# the oldest default-domain opset the importer reads (rules read each operator's older forms)
MIN_IMPORT_OPSET = 1

__all__ = ["IR_VERSION", "MIN_IMPORT_OPSET", "OPSET"]
