"""An ONNX graph being written from the IR: node emission, constants, and sizes known only at run time.

The export rules (export_elementwise.py, export_structural.py, export_control.py) call a Builder; the
driver (lowering.py) owns one per ONNX graph (the model's, and one per sub-graph of If/Loop). A size
that depends on a dynamic axis is a `Dim` (dims.py) and becomes a small int64 computation on the
input's shape; every other size is a constant.
"""

from __future__ import annotations

import numpy as np
from onnx import helper, numpy_helper

from arraystack.ir import Literal
from arraystack.onnx.dims import Dim

# dtypes onnxruntime has no Where kernel for, and the one each computes in
_NO_WHERE = {"bool": np.uint8, "int16": np.int32, "uint16": np.int32, "uint64": np.int64}


class Names:
    """Unique value and node names across a model and its sub-graphs (ONNX scopes are nested)."""

    def __init__(self, taken=()):
        self.taken = set(taken)
        self.count = 0

    def fresh(self, hint: str) -> str:
        while True:
            self.count += 1
            name = f"{hint}_{self.count}"
            if name not in self.taken:
                self.taken.add(name)
                return name


class Builder:
    """The nodes of one ONNX graph, the names of the IR values computed so far (`env`), and the
    sizes of dynamic axes (`dim_values`: axis name -> int64[1] value, shared with sub-graphs)."""

    def __init__(self, names: Names, plan=None, dim_values=None):
        self.names = names
        self.plan = plan  # dims.DimPlan or None: the symbolic params and literals of each eqn
        self.dim_values = {} if dim_values is None else dim_values
        self.nodes: list = []
        self.env: dict = {}
        self.eqn = None  # the equation being lowered: named in node doc strings
        self._consts: dict = {}

    def sub(self):
        """A builder for a sub-graph: its own nodes, the same names, dynamic sizes and plan."""
        return Builder(self.names, self.plan, self.dim_values)

    # -- values -------------------------------------------------------------------------------------

    def value(self, atom) -> str:
        if isinstance(atom, Literal):
            sym = self.plan.literal(atom) if self.plan is not None else None
            if sym is not None:
                return self.cast(self.dim_scalar(sym), atom.aval.dtype)
            return self.const(np.asarray(atom.value, dtype=atom.aval.dtype))
        return self.env[atom]

    def params(self, eqn) -> dict:
        """The eqn's params, with a `Dim` wherever a size follows a dynamic axis."""
        if self.plan is None:
            return eqn.params
        return self.plan.params(eqn)

    def const(self, array, dtype=None) -> str:
        array = np.asarray(array, dtype=dtype)
        key = (array.dtype.str, array.shape, array.tobytes())
        name = self._consts.get(key)
        if name is None:
            name = self.names.fresh("c")
            tensor = numpy_helper.from_array(array, name)
            self.nodes.append(helper.make_node("Constant", [], [name], value=tensor))
            self._consts[key] = name
        return name

    def op(self, op_type: str, inputs, outputs: int = 1, **attrs):
        """Emit one node; returns its output name (or the list of them when outputs != 1)."""
        outs = [self.names.fresh(op_type.lower()) for _ in range(outputs)]
        doc = None
        if self.eqn is not None:
            at = f" at {self.eqn.source}" if self.eqn.source else ""
            doc = f"{self.eqn.prim.name}{at}"
        node = helper.make_node(
            op_type, list(inputs), outs, name=self.names.fresh(op_type), doc_string=doc, **attrs
        )
        self.nodes.append(node)
        return outs[0] if outputs == 1 else outs

    def cast(self, name: str, dtype) -> str:
        return self.op("Cast", [name], to=helper.np_dtype_to_tensor_dtype(np.dtype(dtype)))

    def scalar(self, value, dtype) -> str:
        return self.const(np.asarray(value, dtype=dtype))

    def where(self, cond: str, on_true: str, on_false: str, dtype=None) -> str:
        """Where; values of a dtype onnxruntime's Where lacks (bool, 16-bit, uint64) pass through a
        cast to one it has, which keeps every value."""
        dtype = None if dtype is None else np.dtype(dtype)
        if dtype is None or dtype.name not in _NO_WHERE:
            return self.op("Where", [cond, on_true, on_false])
        wide = _NO_WHERE[dtype.name]
        out = self.op("Where", [cond, self.cast(on_true, wide), self.cast(on_false, wide)])
        return self.cast(out, dtype)

    def dim(self, name: str, axis: int) -> str:
        """The int64[1] size of `name` along `axis`, read at run time."""
        return self.op("Shape", [name], start=axis, end=axis + 1)

    # -- sizes that follow dynamic axes -------------------------------------------------------------

    def ints(self, values) -> str:
        """An int64 1-d tensor of `values`, ints or Dims; a constant when none is a Dim."""
        values = tuple(values)
        if not any(isinstance(v, Dim) for v in values):
            return self.const(np.asarray(values, dtype=np.int64).reshape(len(values)))
        pieces, run = [], []
        for v in values:
            if isinstance(v, Dim):
                if run:
                    pieces.append(self.const(np.asarray(run, dtype=np.int64)))
                    run = []
                pieces.append(self.dim_scalar(v, shape=(1,)))
            else:
                run.append(int(v))
        if run:
            pieces.append(self.const(np.asarray(run, dtype=np.int64)))
        return pieces[0] if len(pieces) == 1 else self.op("Concat", pieces, axis=0)

    def dim_scalar(self, sym: Dim, shape=()) -> str:
        """The value of `sym` as an int64 (a float64 for a reciprocal) of `shape`: () or (1,)."""
        total = None
        for axis_name, coeff in sym.coeffs:
            term = self.dim_values[axis_name]
            if coeff != 1:
                term = self.op("Mul", [term, self.const(np.asarray([coeff], np.int64))])
            total = term if total is None else self.op("Add", [total, term])
        if sym.const:
            total = self.op("Add", [total, self.const(np.asarray([sym.const], np.int64))])
        if sym.reciprocal:
            total = self.op("Div", [self.const(np.asarray([1.0])), self.cast(total, np.float64)])
        if shape == ():
            total = self.op("Squeeze", [total, self.const(np.asarray([0], np.int64))])
        return total


__all__ = ["Builder", "Names"]
