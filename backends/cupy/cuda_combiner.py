"""The operators of reductions and scans in generated CUDA code: accumulator types, identities and the
combination of two partial results (NumPy's semantics, the earlier operand first), and the flat-index
decomposition their loops use."""

from __future__ import annotations

import numpy as np
from arraystack.backends.codeblock import CodeBlock
from arraystack.backends.cupy.lowering import literal, register_type

ACCUMULATOR_DTYPES = {"float": np.float32, "double": np.float64, "i32": np.int32, "u32": np.uint32}
ACCUMULATOR_DTYPES.update({"i64": np.int64, "u64": np.uint64, "c64": np.complex64})
ACCUMULATOR_DTYPES["c128"] = np.complex128


def accumulator(dtype) -> str:
    """Register type of a running reduction: float for float16, 32 bits for narrower integers and bool
    (wrap-around sums and products agree modulo the narrower width)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return "i32"
    if dtype.kind in "iu" and dtype.itemsize < 4:
        return "i32" if dtype.kind == "i" else "u32"
    return register_type(dtype)


class Combiner:
    """A reduction or scan operator ("sum", "prod", "max", "min", "and", "or") over values of `dtype`, in
    its accumulator type `acc`; combine(a, b) takes the earlier operand first (NumPy's maximum returns
    the second of two equal values, so the order decides which zero a max of 0.0 and -0.0 keeps).
    Complex prod, max and min are `indexed`: their accumulator is np_cx_at, the value and its index."""

    def __init__(self, op: str, dtype):
        self.dtype = np.dtype(dtype)
        self.op = op
        if self.dtype.kind == "b":
            self.op = {"sum": "or", "prod": "and", "max": "or", "min": "and"}.get(op, op)
        self.acc = accumulator(self.dtype)
        # complex prod, max, min: complex_ops.cuh's np_cx_at, the partial result and its first index
        self.indexed = self.dtype.kind == "c" and op in ("prod", "max", "min")
        if self.indexed:
            self.acc += "_at"

    def identity(self) -> str:
        op, dtype = self.op, self.dtype
        if self.indexed:
            bound = {"prod": 1, "max": complex(-np.inf, -np.inf), "min": complex(np.inf, np.inf)}
            return f"np_at({literal(bound[op], dtype)}, NP_EMPTY)"
        if op == "sum" and dtype.kind == "f":
            return f"(-({self.acc})0)"  # -0.0 + x is x for every x, -0.0 included
        if op == "sum" and dtype.kind == "c":  # two float sums, each from -0.0
            return literal(complex(-0.0, -0.0), dtype)
        if op in ("sum", "or"):
            return f"({self.acc})0"
        if op in ("prod", "and"):
            return f"({self.acc})1"
        if dtype.kind == "f":
            inf = literal(np.inf, np.float64 if self.acc == "double" else np.float32)
            return f"(-{inf})" if op == "max" else inf
        info = np.iinfo(dtype)
        return f"({self.acc}){literal(info.min if op == 'max' else info.max, dtype)}"

    def combine(self, a: str, b: str) -> str:
        op, acc = self.op, self.acc
        if op in ("and", "or"):
            return f"({a} {'&' if op == 'and' else '|'} {b})"
        if self.indexed:
            return f"np_c{op}_at({a}, {b})"
        if self.dtype.kind in "fc":  # complex sums: per part
            if op in ("sum", "prod"):
                return f"({a} {'+' if op == 'sum' else '*'} {b})"
            return f"np_{op}_float<{acc}>({a}, {b})"
        if op in ("sum", "prod"):
            return f"np_{'add' if op == 'sum' else 'mul'}<{acc}>({a}, {b})"
        return f"np_{op}_int<{acc}>({a}, {b})"

    def element(self, expr: str, index: str = "j") -> str:
        """The accumulator value of the element `expr` of flat reduced index `index`."""
        if self.indexed:
            function = "np_cprod_element" if self.op == "prod" else "np_at"
            return f"{function}({expr}, {index})"
        return f"({self.acc})({expr} != 0)" if self.op in ("and", "or") else f"({self.acc})({expr})"

    def result_of(self, name: str) -> str:
        t = register_type(self.dtype)
        if self.indexed:
            return f"{name}.z"
        if self.dtype.kind == "b":
            return f"({name} != 0)"
        if self.dtype == np.float16:
            return f"np_round_half({name})"
        return f"(({t}){name})"


def decompose(code: CodeBlock, index: str, axes) -> None:
    """i<d> for each axis of `axes` (the last fastest) from the flat `index`."""
    if not axes:
        return
    code.line(f"ix rest_{index} = {index};")
    for pos in reversed(range(len(axes))):
        d = axes[pos]
        if pos:
            code.line(f"const ix i{d} = rest_{index} % n{d};")
            code.line(f"rest_{index} /= n{d};")
        else:
            code.line(f"const ix i{d} = rest_{index};")
