"""A fusion region -> the region its numba kernel computes: float16/bfloat16 work in float32, complex sums
as two float sums. Both the kernel (codegen.generate) and its NumPy twin (twin.py) run the rewritten region,
so the two tiers compute the same bits.

- float16 and bfloat16 ("storage" dtypes): the region's inputs of those dtypes are widened to float32 where
  they are read (after a broadcast_in_dim or reshape, which move their bits), every equation computes in
  float32, and each output of a storage dtype is rounded once, at the end (NumPy's float16 loops round
  after every operation: a chain differs from them by those roundings). An explicit convert to a storage
  dtype inside the region rounds there (the value becomes the storage dtype's, then float32 again), and
  so does a convert of a computed storage value to another dtype (a float16 converted to float64 is a
  float16 number).
  Reductions of storage values accumulate in float32 lanes (summation_order.py) and round once.
- complex sums: reduce_sum(z) is complex(reduce_sum(real z), reduce_sum(imag z)): the float parts add in
  the kernels' fixed order (NumPy's complex sum also adds the two parts separately, pairwise).
- complex64 products: computed in complex128 (each value widened, as float32 products widen to float64)
  and rounded once: reduce_prod(z) is convert(reduce_prod(convert(z, complex128)), complex64).
In the kernel a value of a storage dtype holds its bits (a uint16): only converts, broadcasts, reshapes and
the region's inputs and outputs carry them (lowering.py: convert's rules).
"""

from __future__ import annotations

import weakref

import numpy as np
from arraystack.ir import primitives as p
from arraystack.ir import structural as s
from arraystack.ir.avals import ShapedArray
from arraystack.ir.ir import Eqn, Graph, Literal, Var

FLOAT32 = np.dtype(np.float32)
_MOVES = (s.broadcast_in_dim_p, s.reshape_p)  # equations that move values without computing on them
_widened = weakref.WeakKeyDictionary()


def is_storage(dtype) -> bool:
    """float16 or bfloat16 (ml_dtypes'): kept in memory, computed in float32."""
    dtype = np.dtype(dtype)
    return dtype == np.float16 or dtype.name == "bfloat16"


def needs_widening(graph) -> bool:
    for eqn in graph.eqns:
        for v in eqn.inputs + eqn.outputs:
            dtype = v.aval.dtype
            if is_storage(dtype) or (dtype.kind == "c" and eqn.prim is s.reduce_sum_p):
                return True
            if dtype == np.complex64 and eqn.prim is s.reduce_prod_p:
                return True
    return False


def widen_region(graph):
    """The region `graph` as its kernel computes it (see the module docstring); `graph` itself when it
    holds no storage dtype, no complex sum and no complex64 product. Cached per graph object."""
    if not needs_widening(graph):
        return graph
    widened = _widened.get(graph)
    if widened is None:
        widened = _Widening(graph).run()
        _widened[graph] = widened
    return widened


class _Widening:
    def __init__(self, graph):
        self.graph = graph
        self.inputs = set(graph.inputs)
        self.env = {}  # original value -> its value in the rewritten region
        self.eqns = []

    def emit(self, prim, inputs, aval, params, source):
        out = Var(aval)
        self.eqns.append(Eqn(prim, tuple(inputs), (out,), params, source))
        return out

    def convert(self, x, dtype, source=None):
        aval = ShapedArray(x.aval.shape, np.dtype(dtype))
        return self.emit(
            p.convert_p, [x], aval, {"dtype": np.dtype(dtype), "weak_type": False}, source
        )

    def read(self, x, source=None):
        """x as the rewritten equations read it: storage values in float32."""
        if isinstance(x, Literal):
            if is_storage(x.aval.dtype):
                return Literal(np.float32(x.value), ShapedArray((), FLOAT32, x.aval.weak_type))
            return x
        if x not in self.env and x in self.inputs and is_storage(x.aval.dtype):
            self.env[x] = self.convert(x, FLOAT32, source)
        return self.env.get(x, x)

    def run(self):
        for eqn in self.graph.eqns:
            self.rewrite(eqn)
        outputs = []
        rounded = {}
        for v in self.graph.outputs:
            if v in self.inputs or not is_storage(v.aval.dtype):
                outputs.append(self.env.get(v, v) if v not in self.inputs else v)
                continue
            if v not in rounded:
                rounded[v] = self.convert(self.env[v], v.aval.dtype)
            outputs.append(rounded[v])
        return Graph(self.graph.inputs, tuple(self.eqns), tuple(outputs))

    def rewrite(self, eqn):
        (out,) = eqn.outputs if len(eqn.outputs) == 1 else (None,)
        x = eqn.inputs[0] if eqn.inputs else None
        src = eqn.source
        if eqn.prim in _MOVES and x in self.inputs and is_storage(x.aval.dtype):
            self.eqns.append(eqn)  # the input's bits, moved; widened after the move
            self.env[out] = self.convert(out, FLOAT32, src)
            return
        if eqn.prim is p.convert_p:
            value = self.read(x, src)
            dst = np.dtype(eqn.params["dtype"])
            if is_storage(dst):  # rounds to the storage dtype here, then computes on in float32
                value = self.convert(self.convert(value, dst, src), FLOAT32, src)
            else:
                if is_storage(x.aval.dtype) and x not in self.inputs:
                    # a computed storage value leaves the chain as one: rounded, so that converting
                    # it to float32/float64 gives a float16 (bfloat16) number, as NumPy's does
                    value = self.convert(self.convert(value, x.aval.dtype, src), FLOAT32, src)
                if value.aval.dtype != dst:
                    value = self.convert(value, dst, src)
            self.env[out] = value
            return
        if eqn.prim is s.reduce_sum_p and x.aval.dtype.kind == "c":
            z = self.read(x, src)
            part = ShapedArray(
                z.aval.shape, np.dtype(np.float32 if z.aval.dtype == np.complex64 else np.float64)
            )
            sums = []
            for prim in (p.real_p, p.imag_p):
                value = self.emit(prim, [z], part, {}, src)
                sums.append(
                    self.emit(
                        s.reduce_sum_p,
                        [value],
                        _reduced(out.aval, part.dtype),
                        dict(eqn.params),
                        src,
                    )
                )
            self.env[out] = self.emit(p.complex_p, sums, out.aval, {}, src)
            return
        if eqn.prim is s.reduce_prod_p and x.aval.dtype == np.complex64:
            wide = self.convert(self.read(x, src), np.complex128, src)
            aval = _reduced(out.aval, np.complex128)
            product = self.emit(s.reduce_prod_p, [wide], aval, dict(eqn.params), src)
            self.env[out] = self.convert(product, np.complex64, src)
            return
        inputs = [self.read(v, src) for v in eqn.inputs]
        storage = [v for v in eqn.outputs if is_storage(v.aval.dtype)]
        if not storage and all(a is b for a, b in zip(inputs, eqn.inputs)):
            self.eqns.append(eqn)
            return
        outputs = []
        for v in eqn.outputs:
            new = (
                Var(ShapedArray(v.aval.shape, FLOAT32, v.aval.weak_type))
                if v in storage
                else Var(v.aval)
            )
            self.env[v] = new
            outputs.append(new)
        self.eqns.append(Eqn(eqn.prim, tuple(inputs), tuple(outputs), eqn.params, src))


def _reduced(aval, dtype):
    return ShapedArray(aval.shape, np.dtype(dtype))
