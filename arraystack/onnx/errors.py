"""The errors of arraystack.onnx: an export that meets a primitive it cannot write, and a model that
cannot be read (corrupt, too new, contradictory, unsafe, or using an operator without a rule)."""

from __future__ import annotations


class ExportError(NotImplementedError):
    """A traced equation has no ONNX lowering; the message names the primitive, its operands and
    the user's line that produced it.

    See Also
    --------
    arraystack.onnx.export : raises it.
    """


class ModelError(ValueError):
    """An ONNX model that cannot be loaded or run: a truncated or corrupt file, an opset newer than
    arraystack.onnx.OPSET, a node whose inputs contradict its shape or dtype rules, or external data
    outside the model's folder. The message names the node when one is at fault.

    See Also
    --------
    arraystack.onnx.load : raises it.
    """


class UnsupportedOperatorError(ModelError, NotImplementedError):
    """A node whose operator (or operator domain, or attribute value) the importer has no rule for;
    the message names the node and the operator.

    See Also
    --------
    arraystack.onnx.load : raises it.
    """


__all__ = ["ExportError", "ModelError", "UnsupportedOperatorError"]
