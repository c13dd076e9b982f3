"""Running an ONNX graph with arraystack: each node through its import rule, in order.

Values are of two kinds. *Static* ones are NumPy arrays known while the function is built or traced:
constants, integer initializers, shapes (Shape of a traced value is known), and whatever a node
computes from static values only (the node runs on NumPy then). Every other value is an arraystack
array, or a traced one under `jit`/`grad`. Operands ONNX reads as sizes (Reshape's shape, Slice's
bounds, TopK's k) must be static under `jit`; eagerly any concrete array serves.

Rule convention: `import_rules[op_type](xp, node, *inputs) -> output or tuple of outputs`, where `xp`
is numpy when every input is static and arraystack otherwise, `node` a Node (attributes, the static
view of operands, sub-graphs), and `inputs` the operands (None for an omitted optional input).
"""

from __future__ import annotations

import numpy

from arraystack.onnx.errors import ModelError, UnsupportedOperatorError

# operators of ONNX's other domains that the importer reads (their op_types name no other operator)
OTHER_DOMAINS = {
    "ai.onnx.preview": frozenset({"FlexAttention"}),
    "ai.onnx.preview.training": frozenset({"Adagrad", "Momentum", "Adam"}),
    "ai.onnx.ml": frozenset(
        {"Binarizer", "ArrayFeatureExtractor", "LabelEncoder", "TreeEnsemble"}
        | {"TreeEnsembleRegressor", "TreeEnsembleClassifier", "Scaler", "Normalizer"}
        | {"LinearRegressor", "LinearClassifier", "Imputer", "OneHotEncoder", "FeatureVectorizer"}
        | {"CategoryMapper", "ZipMap"}
    ),
}


def domain_ok(proto) -> bool:
    """Whether the importer reads NodeProto `proto`'s domain: ONNX's default one, or another domain for
    the operators OTHER_DOMAINS lists."""
    return proto.domain in ("", "ai.onnx") or proto.op_type in OTHER_DOMAINS.get(proto.domain, ())


class Node:
    """One NodeProto as the rules see it: `attrs` decoded (tensors as NumPy arrays, strings as str),
    the model's opset, and the interpreter that runs sub-graphs (If, Loop, Scan)."""

    __slots__ = ("attrs", "interpreter", "name", "opset", "proto")

    def __init__(self, proto, opset: int, interpreter):
        from onnx import helper, numpy_helper

        self.proto = proto
        self.opset = opset
        self.interpreter = interpreter
        self.name = proto.name or f"{proto.op_type} -> {', '.join(proto.output)}"
        attrs = {}
        for a in proto.attribute:
            value = helper.get_attribute_value(a)
            if isinstance(value, bytes):
                value = value.decode("utf-8")
            elif isinstance(value, list) and value and isinstance(value[0], bytes):
                value = [v.decode("utf-8") for v in value]
            elif a.type == a.TENSOR:
                value = numpy_helper.to_array(value)
            attrs[a.name] = value
        self.attrs = attrs

    def attr(self, name, default=None):
        return self.attrs.get(name, default)

    def error(self, message: str, cls=ModelError):
        return cls(f"ONNX node {self.name!r} ({self.proto.op_type}): {message}")

    def static(self, value, what: str):
        """`value` as a NumPy array that is known now (a size, an axis list)."""
        if value is None:
            return None
        if isinstance(value, numpy.ndarray):
            return value
        try:
            return numpy.asarray(value)
        except Exception as e:  # a traced value: ConcretizationError
            raise self.error(
                f"its {what} must be known when the function is traced (it is computed from the "
                "inputs); run the model eagerly, or make it a constant of the model"
            ) from e

    def run_body(self, graph, values) -> list:
        """The outputs of sub-graph `graph` (one of this node's attributes) with `values` as its inputs,
        in the environment of the graph running the node (a body reads its values by name)."""
        scope = dict(self.interpreter.env)
        for info, value in zip(graph.input, values):
            scope[info.name] = value
        return self.interpreter.run(graph, scope)

    def ints(self, value, what: str) -> list:
        return [int(v) for v in numpy.ravel(self.static(value, what))]


class Interpreter:
    """Runs GraphProtos of one model: `run(graph, env)` evaluates nodes and returns the outputs."""

    def __init__(self, opset: int, rules: dict):
        self.opset = opset
        self.rules = rules
        self.env: dict = {}  # the environment of the graph running now (bodies read it by name)

    def run(self, graph, env: dict) -> list:
        saved, self.env = self.env, env
        try:
            return self._run(graph, env)
        finally:
            self.env = saved

    def _run(self, graph, env: dict) -> list:
        import arraystack

        for (
            tensor
        ) in graph.initializer:  # a sub-graph's own constants (load placed the main graph's)
            if tensor.name not in env:
                from onnx import numpy_helper

                env[tensor.name] = numpy_helper.to_array(tensor)
        for proto in graph.node:
            node = Node(proto, self.opset, self)
            if not domain_ok(proto):
                raise node.error(
                    f"operator domain {proto.domain!r} is not supported", UnsupportedOperatorError
                )
            rule = self.rules.get(proto.op_type)
            if rule is None:
                raise node.error(
                    "the importer has no rule for this operator", UnsupportedOperatorError
                )
            inputs = []
            for name in proto.input:
                if name == "":
                    inputs.append(None)
                    continue
                if name not in env:
                    raise node.error(f"input {name!r} is not computed by any earlier node")
                inputs.append(env[name])
            static = all(x is None or isinstance(x, numpy.ndarray) for x in inputs)
            xp = numpy if static and not getattr(rule, "dynamic", False) else arraystack
            try:
                with numpy.errstate(all="ignore"):
                    out = rule(xp, node, *inputs)
            except (ModelError, NotImplementedError):
                raise
            except (ValueError, TypeError, IndexError) as e:
                if isinstance(e, ModelError) or type(e).__name__ == "ConcretizationError":
                    raise
                raise node.error(f"{type(e).__name__}: {e}") from e
            outs = out if isinstance(out, (tuple, list)) else (out,)
            # NumPy gives scalars for 0-d results (Gather of one index): static values are arrays
            outs = [numpy.asarray(o) if isinstance(o, numpy.generic) else o for o in outs]
            for name, value in zip(proto.output, outs):
                if name:
                    env[name] = value
        missing = [o.name for o in graph.output if o.name not in env]
        if missing:
            raise ModelError(
                f"ONNX graph {graph.name!r}: outputs {missing} are computed by no node"
            )
        return [env[o.name] for o in graph.output]


def dynamic(rule):
    """Mark a rule that always runs on arraystack (it calls arraystack-only functions)."""
    rule.dynamic = True
    return rule


__all__ = ["OTHER_DOMAINS", "Interpreter", "Node", "domain_ok", "dynamic"]
