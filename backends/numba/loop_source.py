"""The source of a compiled loop: a while, scan (fori_loop) or switch equation, with every equation of its
sub-graphs, as the text of one numba function (backends/numba/loops.py compiles and calls it).

Each body equation becomes statements on whole arrays: a fusion region calls the same generated kernel the
plan would call on its own (its source is included under another name, so the loop's results are the host
loop's, bit for bit, wherever the kernels decide them), a product calls BLAS through numba's np.dot, and
slices, pads, slice updates, transposes, reshapes, broadcasts, concatenations, gathers and scatters at
scalar indices, and nested loops and branches are written out. Every value is a C-contiguous array; a 0-d value is held as an
array of shape (1,), as the kernels take scalars. An equation with no lowering raises Unsupported, whose
message says which, and the loop runs on the host instead (backends/control.py).
"""

from __future__ import annotations

import importlib.util
import math
import re
from collections import Counter

import numpy as np

from arraystack.backends.numba.codegen_widen import is_storage
from arraystack.ir.ir import Graph, Literal


class Unsupported(Exception):
    """The loop cannot be compiled whole; the message says what stands in the way."""


def dtype_text(dtype) -> str:
    """The numba array dtype holding values of `dtype`: float16 and bfloat16 values are their bits (uint16),
    which only the region kernels compute with (they widen and round them, codegen_widen.py)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return "np.bool_"
    if is_storage(dtype):
        return "np.uint16"
    if dtype.kind not in "iufc":
        raise Unsupported(f"{dtype.name} values")
    return f"np.{dtype.name}"


def _bitwise_only(eqn, what):
    """Raise Unsupported when `eqn` would compute on float16/bfloat16 bits outside a region kernel."""
    if any(is_storage(v.aval.dtype) for v in (*eqn.inputs, *eqn.outputs)):
        raise Unsupported(f"{what} of {eqn.outputs[0].aval.dtype.name} values outside a kernel")


def _shape_text(shape) -> str:
    shape = tuple(int(n) for n in shape) or (1,)
    return "(" + "".join(f"{n}, " for n in shape) + ")"


class LoopSource:
    """Statements of one numba function, built by lowering a loop equation (lower_eqn)."""

    def __init__(self):
        self.lines: list[str] = []
        self.hoisted: list[str] = []  # constants, made once before the loop
        self.regions: dict[str, str] = {}  # region kernel source -> its name in the module
        self.uses: Counter = Counter()  # what the loop runs, for the plan's explanation
        self.largest_product = 0  # multiply-adds of the loop's largest BLAS product
        self.largest_region = 0  # elements of the loop's largest kernel
        self.in_place: set = set()  # ids of body writes into their own carry (loop_structure.py)
        self._count = 0

    def fresh(self, stem="t") -> str:
        self._count += 1
        return f"{stem}{self._count}"

    def emit(self, depth, text):
        self.lines.append("    " * depth + text)

    def constant(self, literal) -> str:
        dtype = np.dtype(literal.aval.dtype)
        value = np.asarray(literal.value, dtype)
        if value.ndim:
            raise Unsupported("an array literal")
        name = self.fresh("c")
        item = value.view(np.uint16).item() if is_storage(dtype) else value.item()
        text = repr(bool(item)) if dtype.kind == "b" else f"{dtype_text(dtype)}({item!r})"
        text = text.replace("nan", "np.nan").replace("inf", "np.inf")
        self.hoisted.append(f"{name} = np.full((1,), {text}, {dtype_text(dtype)})")
        return name

    def lower_graph(self, graph, args, depth) -> list[str]:
        """Statements computing `graph` on the arrays named `args`; the names of its outputs."""
        env = dict(zip(graph.inputs, args))

        def operand(x):
            return self.constant(x) if isinstance(x, Literal) else env[x]

        for eqn in graph.eqns:
            outs = self.lower_eqn(eqn, [operand(x) for x in eqn.inputs], depth)
            env.update(zip(eqn.outputs, outs))
        return [operand(v) for v in graph.outputs]

    def lower_eqn(self, eqn, ins, depth) -> list[str]:
        for v in eqn.outputs:
            dtype_text(v.aval.dtype)
        rule = LOWERINGS.get(eqn.prim.name)
        if rule is None and _is_elementwise(eqn.prim):
            rule = _elementwise
        if rule is None:
            raise Unsupported(f"{eqn.prim.name} has no compiled-loop lowering")
        self.uses[_USE_NAMES.get(eqn.prim.name, "kernel" if rule is _elementwise else eqn.prim.name)] += 1
        outs = rule(self, eqn, ins, depth)
        return outs if isinstance(outs, list) else [outs]

    def written(self, eqn, x, depth) -> str:
        """The name of the array a write `eqn` (scatter, update_slice) writes into: `x` itself where the
        loop owns it (loop_structure._owned_carries), else a copy of it."""
        if id(eqn) not in self.in_place:
            return self.assign(depth, f"{x}.copy()")
        self.uses[eqn.prim.name] -= 1
        self.uses[f"in-place {eqn.prim.name}"] += 1
        return x

    def assign(self, depth, expr) -> str:
        name = self.fresh()
        self.emit(depth, f"{name} = {expr}")
        return name

    def region_name(self, source) -> str:
        name = self.regions.get(source)
        if name is None:
            name = self.regions[source] = f"region{len(self.regions)}"
        return name

    def module_source(self, nargs) -> str:
        """The module text: the region kernels, then the loop as `kernel(p0, p1, ...)`."""
        parts = [_renamed(src, name) for src, name in self.regions.items()]
        params = ", ".join(f"p{k}" for k in range(nargs))
        head = "@numba.njit(fastmath=False, error_model='numpy', nogil=True, cache=True)\n"
        body = "\n".join("    " + line for line in self.hoisted) + "\n" + "\n".join(self.lines)
        return "\n\n".join(parts + [f"{head}def kernel({params}):\n{body}\n"])


def _renamed(source, name) -> str:
    """A region kernel's module-level names (its `kernel` and any function beside it) under `name`, so
    the regions of one loop never shadow each other: `kernel` becomes `name`, `kernel_flat` name_flat."""
    defined = set(re.findall(r"^(?:def )?([A-Za-z_]\w*)\s*(?:\(|=)", source, re.MULTILINE))
    for old in sorted(defined, key=len, reverse=True):
        new = name if old == "kernel" else f"{name}_{old}"
        source = re.sub(rf"(?<![\w.]){old}\b", new, source)
    return source


_USE_NAMES = {
    "fusion": "kernel",
    "dot_general": "BLAS product",
    "scan": "nested loop",
    "while": "nested loop",
    "switch": "branch",
}


def _is_elementwise(prim) -> bool:
    from arraystack.backends.numba.codegen import REDUCTIONS
    from arraystack.backends.numba.lowering import numba_rules

    return prim in numba_rules or prim in REDUCTIONS


def _fusion(src, eqn, ins, depth):
    return _region(src, eqn.params["graph"], ins, depth)


def _elementwise(src, eqn, ins, depth):
    """An elementwise equation or reduction outside any region (a branch's or a small body's): the kernel
    of a region holding it alone."""
    inputs, args = [], []
    for x, name in zip(eqn.inputs, ins):
        if not isinstance(x, Literal) and x not in inputs:
            inputs.append(x)
            args.append(name)
    return _region(src, Graph(tuple(inputs), (eqn,), tuple(eqn.outputs)), args, depth)


def _region(src, sub, ins, depth):
    from arraystack.backends.numba import _region_problem, _sizes
    from arraystack.backends.numba.codegen import generate

    problem = _region_problem(sub)
    if problem is not None:
        raise Unsupported(f"a region that runs on the reference path ({problem})")
    size = max(math.prod(v.aval.shape) for v in sub.inputs + sub.outputs)
    src.largest_region = max(src.largest_region, size)
    spec = generate(sub, parallel=False)
    name = src.region_name(spec.source)
    outer = getattr(spec, "outer_shape", None) or (1,)
    args = []
    for x, var, kind in zip(ins, sub.inputs, spec.input_kinds):
        shape = tuple(var.aval.shape)
        if kind == "scalar" and len(shape) > 1:
            x = f"{x}.reshape(-1)"
        elif kind == "outer" and shape and shape != tuple(outer):
            x = f"{x}.reshape({_shape_text(outer)})"
        args.append(x)
    outs, finals = [], []
    for alloc, dtype, final, _ in spec.outputs:
        outs.append(src.assign(depth, f"np.empty({_shape_text(alloc)}, {dtype_text(dtype)})"))
        finals.append(tuple(final))
    sizes = [str(int(n)) for n in _sizes(spec, False)]
    src.emit(depth, f"{name}({', '.join(sizes + args + outs)})")
    return [
        o if not final or tuple(alloc) == final else src.assign(depth, f"{o}.reshape({_shape_text(final)})")
        for o, final, (alloc, _, _, _) in zip(outs, finals, spec.outputs)
    ]


def _dot(src, eqn, ins, depth):
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    x, y = (v.aval for v in eqn.inputs)
    if lb or rb or len(lc) != 1 or x.ndim > 2 or y.ndim > 2 or x.dtype.kind not in "fc":
        raise Unsupported("a product with batch axes, several contracted axes or non-float operands")
    if importlib.util.find_spec("scipy") is None:
        raise Unsupported("a product: numba's BLAS comes from scipy, which is not installed")
    src.largest_product = max(src.largest_product, math.prod(x.shape) * math.prod(y.shape) // x.shape[lc[0]])
    a = f"{ins[0]}.T" if x.ndim == 2 and lc[0] == 0 else ins[0]
    b = f"{ins[1]}.T" if y.ndim == 2 and rc[0] == 1 else ins[1]
    if x.ndim == 1 and y.ndim == 1:
        return src.assign(depth, f"np.full((1,), np.dot({a}, {b}), {dtype_text(x.dtype)})")
    return src.assign(depth, f"np.dot({a}, {b})")


def _slice(src, eqn, ins, depth):
    p = eqn.params
    steps = p["strides"] or (1,) * len(p["start_indices"])
    window = ", ".join(f"{a}:{b}:{s}" for a, b, s in zip(p["start_indices"], p["limit_indices"], steps))
    return src.assign(depth, f"np.ascontiguousarray({ins[0]}[{window}])")


def _transpose(src, eqn, ins, depth):
    perm = tuple(eqn.params["permutation"])
    if perm == tuple(range(len(perm))):
        return ins[0]
    return src.assign(depth, f"np.ascontiguousarray({ins[0]}.transpose({perm}))")


def _reshape(src, eqn, ins, depth):
    return src.assign(depth, f"{ins[0]}.reshape({_shape_text(eqn.outputs[0].aval.shape)})")


def _broadcast(src, eqn, ins, depth):
    shape = tuple(eqn.params["shape"])
    if not shape:
        return ins[0]
    expanded = [1] * len(shape)
    for axis, n in zip(eqn.params["broadcast_dimensions"], eqn.inputs[0].aval.shape):
        expanded[axis] = n
    x = f"{ins[0]}.reshape({_shape_text(expanded)})"
    return src.assign(depth, f"np.broadcast_to({x}, {_shape_text(shape)}).copy()")


def _convert(src, eqn, ins, depth):
    source, target = eqn.inputs[0].aval.dtype, eqn.outputs[0].aval.dtype
    if is_storage(source) or is_storage(target):
        return _elementwise(src, eqn, ins, depth)  # a region kernel converts the bits
    if source.kind == "f" and target.kind in "iu":
        raise Unsupported("a float -> int conversion (NumPy's out-of-range values)")
    if source.kind == "c" and target.kind != "c":
        raise Unsupported("a complex -> real conversion (NumPy's ComplexWarning)")
    if target.kind == "b":
        return src.assign(depth, f"{ins[0]} != 0")
    return src.assign(depth, f"{ins[0]}.astype({dtype_text(target)})")


def _concatenate(src, eqn, ins, depth):
    return src.assign(depth, f"np.concatenate(({', '.join(ins)},), axis={eqn.params['dimension']})")


def _pad(src, eqn, ins, depth):
    out = eqn.outputs[0].aval
    name = src.assign(depth, f"np.full({_shape_text(out.shape)}, {ins[1]}[0], {dtype_text(out.dtype)})")
    window = ", ".join(
        f"{lo}:{lo + n + max(n - 1, 0) * inner}:{inner + 1}"
        for n, (lo, _, inner) in zip(eqn.inputs[0].aval.shape, eqn.params["padding_config"])
    )
    src.emit(depth, f"{name}[{window}] = {ins[0]}")
    return name


def _update_slice(src, eqn, ins, depth):
    p = eqn.params
    if not p["start_indices"]:  # 0-d: the value replaces the whole
        return src.assign(depth, f"{ins[1]}.copy()")
    name = src.written(eqn, ins[0], depth)
    window = ", ".join(f"{a}:{b}:{s}" for a, b, s in zip(p["start_indices"], p["limit_indices"], p["strides"]))
    src.emit(depth, f"{name}[{window}] = {ins[1]}")
    return name


def _bitcast(src, eqn, ins, depth):
    """NumPy's view as the other dtype (float16 and bfloat16 values are already their uint16 bits)."""
    out = eqn.outputs[0].aval
    view = f"np.ascontiguousarray({ins[0]}).view({dtype_text(out.dtype)})"
    return src.assign(depth, f"{view}.reshape({_shape_text(out.shape)}).copy()")


def _rev(src, eqn, ins, depth):
    dims = set(eqn.params["dimensions"])
    rank = eqn.inputs[0].aval.ndim
    window = ", ".join("::-1" if d in dims else ":" for d in range(rank))
    return src.assign(depth, f"np.ascontiguousarray({ins[0]}[{window}])")


def _iota(src, eqn, ins, depth):
    _bitwise_only(eqn, "iota")
    p = eqn.params
    shape, dim = tuple(p["shape"]), p["dimension"]
    ramp = f"np.arange({shape[dim]}).astype({dtype_text(p['dtype'])})"
    if len(shape) == 1:
        return src.assign(depth, ramp)
    expanded = [1] * len(shape)
    expanded[dim] = shape[dim]
    return src.assign(
        depth, f"np.broadcast_to({ramp}.reshape({_shape_text(expanded)}), {_shape_text(shape)}).copy()"
    )


def _full(src, eqn, ins, depth):
    out = eqn.outputs[0].aval
    return src.assign(depth, f"np.full({_shape_text(out.shape)}, {ins[0]}[0], {dtype_text(out.dtype)})")


def _identity(src, eqn, ins, depth):
    return list(ins) if eqn.prim.multiple_results else ins[0]


def _copy(src, eqn, ins, depth):
    return src.assign(depth, f"{ins[0]}.copy()")


LOWERINGS = {
    "fusion": _fusion,
    "dot_general": _dot,
    "slice": _slice,
    "transpose": _transpose,
    "reshape": _reshape,
    "broadcast_in_dim": _broadcast,
    "convert": _convert,
    "concatenate": _concatenate,
    "pad": _pad,
    "update_slice": _update_slice,
    "bitcast": _bitcast,
    "rev": _rev,
    "iota": _iota,
    "full": _full,
    "copy": _copy,
    "stop_gradient": _identity,
    "checkpoint_name": _identity,
    "optimization_barrier": _identity,
}
