"""arraystack.onnx.load: an ONNX model as (params, fn), with the model checked before anything runs.

Reading never executes anything from the file: the model is parsed as a protobuf message (no pickle,
no custom operator libraries), external data is read only from files inside the model's folder, and
every node is matched to an import rule (import_math.py, import_tensor.py, import_nn.py,
import_control.py) before `load` returns.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy

from arraystack.onnx.errors import ModelError, UnsupportedOperatorError
from arraystack.onnx.versions import MIN_IMPORT_OPSET, OPSET


def import_rules() -> dict:
    """The import rules of every supported operator, by op_type."""
    from arraystack.onnx.import_attention import attention_rules
    from arraystack.onnx.import_control import control_rules
    from arraystack.onnx.import_conv_transpose import conv_transpose_rules
    from arraystack.onnx.import_loss import loss_rules
    from arraystack.onnx.import_math import math_rules
    from arraystack.onnx.import_ml import ml_rules
    from arraystack.onnx.import_nn import nn_rules
    from arraystack.onnx.import_pooling import pooling_rules
    from arraystack.onnx.import_quant import quant_rules
    from arraystack.onnx.import_rearrange import rearrange_rules
    from arraystack.onnx.import_recurrent import recurrent_rules
    from arraystack.onnx.import_resize import resize_rules
    from arraystack.onnx.import_sampling import sampling_rules
    from arraystack.onnx.import_selection import selection_rules
    from arraystack.onnx.import_sequence import sequence_rules
    from arraystack.onnx.import_signal import signal_rules
    from arraystack.onnx.import_state_space import state_space_rules
    from arraystack.onnx.import_strings import string_rules
    from arraystack.onnx.import_tensor import tensor_rules
    from arraystack.onnx.import_training import training_rules

    return {
        **math_rules,
        **ml_rules,
        **tensor_rules,
        **training_rules,
        **nn_rules,
        **pooling_rules,
        **quant_rules,
        **rearrange_rules,
        **recurrent_rules,
        **attention_rules,
        **loss_rules,
        **conv_transpose_rules,
        **resize_rules,
        **sampling_rules,
        **selection_rules,
        **sequence_rules,
        **signal_rules,
        **state_space_rules,
        **string_rules,
        **control_rules,
    }


# Operator inputs that are sizes (known when a function is traced), though of a float type
_SIZE_INPUTS = {"Resize": (1, 2), "Upsample": (1,), "MelWeightMatrix": (3, 4), "RoiAlign": (1,)}


def _read_as_sizes_only(graph) -> set:
    """Names of the values that every node reading them (in subgraphs too) reads as a size input."""
    sizes, other = set(), set()

    def visit(g):
        for node in g.node:
            positions = _SIZE_INPUTS.get(node.op_type, ())
            for k, name in enumerate(node.input):
                (sizes if k in positions else other).add(name)
            for attr in node.attribute:
                for sub in [attr.g] if attr.HasField("g") else list(attr.graphs):
                    visit(sub)

    visit(graph)
    return sizes - other


def load(path_or_model: Any) -> tuple[dict, Callable[..., tuple]]:
    """Load an ONNX model as its parameters and a pure arraystack function.

    Parameters
    ----------
    path_or_model : str, os.PathLike, bytes or onnx.ModelProto
        A model file, its bytes, or a model in memory.

    Returns
    -------
    params : dict
        Initializer name -> arraystack array, for the floating-point initializers (the weights).
        Integer and bool initializers (shapes, indices), and float ones read only as sizes
        (Resize's scales and roi, MelWeightMatrix's edges, RoiAlign's regions), are constants of `fn`.
    fn : callable
        ``fn(params, *inputs) -> tuple`` of the model's outputs, inputs in the graph's order. It is
        built from arraystack operations, so it runs eagerly, under `arraystack.jit`, and
        `arraystack.grad` differentiates it with respect to `params`.

    Raises
    ------
    ModelError
        A truncated or corrupt file, an opset newer than `arraystack.onnx.OPSET`, a model that fails
        ONNX's checker or shape inference (shape or dtype contradictions, named by node), or
        external data outside the model's folder.
    UnsupportedOperatorError
        A node whose operator or domain has no import rule (the message names the node).

    See Also
    --------
    arraystack.onnx.export : the way out.
    onnx.backend.base.Backend : arraystack.onnx.backend implements it on top of `load`.

    Examples
    --------
    >>> import numpy
    >>> import arraystack as np
    >>> w = numpy.full((2, 2), 0.5, numpy.float32)
    >>> model = np.onnx.export(lambda x: x @ w, numpy.ones((1, 2), numpy.float32))
    >>> params, fn = np.onnx.load(model)
    >>> list(params)
    ['const_0']
    >>> fn(params, numpy.ones((1, 2), numpy.float32))[0]
    array([[1., 1.]], dtype=float32)
    """
    from onnx import numpy_helper

    from arraystack import asarray
    from arraystack.onnx.interpreter import Interpreter

    model = read_model(path_or_model)
    rules = import_rules()
    check_operators(model.graph, rules)
    opset = check_model(model)
    interpreter = Interpreter(opset, rules)
    graph = model.graph
    params, consts = {}, {}
    sizes_only = _read_as_sizes_only(graph)
    for tensor in graph.initializer:
        value = numpy_helper.to_array(tensor)
        if value.dtype.kind in "fc" and tensor.name not in sizes_only:
            params[tensor.name] = asarray(value)
        else:
            consts[tensor.name] = value
    taken = set(params) | set(consts)
    inputs = [i for i in graph.input if i.name not in taken]

    def fn(params: dict, *args) -> tuple:
        if len(args) != len(inputs):
            names = [i.name for i in inputs]
            raise TypeError(f"the ONNX model takes {len(inputs)} inputs {names}, got {len(args)}")
        env = dict(consts)
        for name, value in params.items():
            env[name] = asarray(value)
        for info, value in zip(inputs, args):
            env[info.name] = check_input(info, value)
        return tuple(_output(out) for out in interpreter.run(graph, env))

    fn.__doc__ = f"The ONNX graph {graph.name!r}: fn(params, {', '.join(i.name for i in inputs)})."
    return params, fn


def read_model(source):
    """The ModelProto of a path, bytes or model; external data is read from the model's folder only."""
    import onnx
    from google.protobuf.message import DecodeError

    if isinstance(source, onnx.ModelProto):
        return source
    folder = None
    try:
        if isinstance(source, (bytes, bytearray)):
            model = onnx.load_model_from_string(bytes(source))
        elif isinstance(source, (str, os.PathLike)):
            path = os.fspath(source)
            if not os.path.isfile(path):
                raise FileNotFoundError(f"no ONNX model at {path!r}")
            folder = os.path.dirname(os.path.abspath(path))
            model = onnx.load(path, load_external_data=False)
        else:
            raise TypeError(
                f"load takes a path, bytes or an onnx.ModelProto, not {type(source).__name__}"
            )
    except DecodeError as e:
        raise ModelError(f"not a valid ONNX model (truncated or corrupt protobuf): {e}") from None
    if not model.HasField("graph"):
        raise ModelError("not a valid ONNX model: it has no graph (a truncated or empty file?)")
    external = [
        t for t in _all_tensors(model.graph) if t.data_location == onnx.TensorProto.EXTERNAL
    ]
    if external:
        if folder is None:
            raise ModelError("the model keeps tensors in external files; load it from its path")
        for tensor in external:
            _check_external(tensor, folder)
        from onnx.external_data_helper import load_external_data_for_model

        load_external_data_for_model(model, folder)
    return model


def _all_tensors(graph):
    yield from graph.initializer
    for node in graph.node:
        for a in node.attribute:
            if a.HasField("t"):
                yield a.t
            if a.HasField("g"):
                yield from _all_tensors(a.g)
            for g in a.graphs:
                yield from _all_tensors(g)


def _check_external(tensor, folder):
    entries = {e.key: e.value for e in tensor.external_data}
    location = entries.get("location", "")
    target = os.path.realpath(os.path.join(folder, location))
    inside = os.path.commonpath([target, os.path.realpath(folder)]) == os.path.realpath(folder)
    if not location or os.path.isabs(location) or not inside:
        raise ModelError(
            f"initializer {tensor.name!r} keeps its data at {location!r}, outside the model's folder "
            f"{folder!r}; external data is read only from that folder"
        )
    if not os.path.isfile(target):
        raise ModelError(f"initializer {tensor.name!r}: external data file {location!r} is missing")


def check_model(model) -> int:
    """Check the model (ONNX checker, strict shape inference); returns its default-domain opset."""
    import onnx

    opset = None
    for entry in model.opset_import:
        if entry.domain in ("", "ai.onnx"):
            opset = entry.version
    if opset is None:
        if any(node.domain in ("", "ai.onnx") for node in model.graph.node):
            raise ModelError("the model imports no version of the default ONNX operator set")
        opset = OPSET  # a model of other domains' operators only (the optimizers')
    if opset > OPSET:
        raise ModelError(
            f"the model needs ONNX opset {opset}; arraystack.onnx reads opsets {MIN_IMPORT_OPSET} to {OPSET}"
        )
    if opset < MIN_IMPORT_OPSET:
        raise ModelError(
            f"ONNX opset {opset} is older than the oldest supported, {MIN_IMPORT_OPSET}"
        )
    try:
        onnx.checker.check_model(model)
        onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as e:
        raise ModelError(f"the ONNX model is inconsistent: {e}") from None
    return opset


def check_operators(graph, rules) -> None:
    """UnsupportedOperatorError for the first node (sub-graphs included) without a rule."""
    from arraystack.onnx.interpreter import Node, domain_ok

    for proto in graph.node:
        if not domain_ok(proto) or proto.op_type not in rules:
            what = f"operator domain {proto.domain!r}" if not domain_ok(proto) else "operator"
            node = Node(proto, 0, None)
            raise node.error(f"the importer has no rule for this {what}", UnsupportedOperatorError)
        for a in proto.attribute:
            if a.HasField("g"):
                check_operators(a.g, rules)
            for g in a.graphs:
                check_operators(g, rules)


def _output(value):
    """A graph output as the caller gets it: an array, a list of arrays or dicts (a sequence of tensors
    or of maps), or None (an empty optional)."""
    from arraystack import asarray
    from arraystack.onnx.import_sequence import TensorSequence

    if value is None:
        return None
    if isinstance(value, TensorSequence):  # of arrays, or of maps (ZipMap's dicts)
        return [
            {k: asarray(x) for k, x in v.items()} if isinstance(v, dict) else asarray(v)
            for v in value.items
        ]
    return asarray(value)


def check_input(info, value, kind=None):
    """The input as the graph reads it (an arraystack array; a sequence of them; None for an empty
    optional); one that contradicts the graph's declared type, dtype or static sizes raises ModelError."""
    from onnx import helper

    from arraystack import asarray
    from arraystack.onnx.import_sequence import TensorSequence

    t = info.type if kind is None else kind
    which = t.WhichOneof("value")
    if which == "optional_type":
        return None if value is None else check_input(info, value, t.optional_type.elem_type)
    if which == "sequence_type":
        if isinstance(value, TensorSequence):
            value = value.items
        if not isinstance(value, (list, tuple)):
            raise ModelError(f"input {info.name!r} is a sequence: pass a list of arrays")
        elem = t.sequence_type.elem_type
        return TensorSequence([check_input(info, v, elem) for v in value])
    if value is None:
        raise ModelError(f"input {info.name!r} is a tensor, got None")
    value = asarray(value)
    t = t.tensor_type
    if t.elem_type:
        want = helper.tensor_dtype_to_np_dtype(t.elem_type)
        if numpy.dtype(value.dtype) != want:
            raise ModelError(f"input {info.name!r} must be {want}, got {numpy.dtype(value.dtype)}")
    if t.HasField("shape"):
        dims = t.shape.dim
        shape = numpy.shape(value)
        if len(dims) != len(shape):
            raise ModelError(f"input {info.name!r} must have rank {len(dims)}, got shape {shape}")
        for axis, (d, n) in enumerate(zip(dims, shape)):
            if d.HasField("dim_value") and d.dim_value != n:
                raise ModelError(
                    f"input {info.name!r} must have size {d.dim_value} on axis {axis}, got shape {shape}"
                )
    return value


__all__ = ["check_input", "check_model", "check_operators", "import_rules", "load", "read_model"]
