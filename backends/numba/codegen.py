"""A fusion region -> the Python source of one numba loop nest.

Kernels are shape-generic: sizes arrive as arguments (n0, n1, ...), so a new batch size reuses the compiled
kernel. The source depends only on the region's structure (ranks, broadcast patterns, dtypes), and is the
kernel's cache key. Three forms:
- flat: a pure elementwise region on same-shape operands: one loop over the raveled arrays;
- nested: elementwise with broadcasts: one loop per axis, inputs indexed through their broadcast maps;
- staged: with reductions over axes R: kept axes outside (in parallel), then one pass over R per reduction
  stage (softmax: max, then sum of exp, then the division); with no kept axes the passes run over chunks in
  parallel and combine partial results. Regions that reduce adjacent axes and keep the last one read rows
  along their length in blocks of columns instead (codegen_columns.py; the kernel then takes the block
  width after its sizes).
"""

from __future__ import annotations

import numpy as np
from arraystack.backends.codeblock import CodeBlock
from arraystack.backends.numba.codegen_widen import is_storage, widen_region
from arraystack.backends.numba.fusion_policy import CHECKED_FLOAT32, NUMBA_FUSION
from arraystack.backends.numba.lowering import VECTOR_MATH, literal, numba_rules
from arraystack.backends.numba.mathlib.trig_constants import TRIG_FAST_F
from arraystack.ir import structural as s
from arraystack.ir.ir import Literal
from arraystack.ir.regions import region_layout

REDUCTIONS = {
    s.reduce_sum_p: "sum",
    s.reduce_prod_p: "prod",
    s.reduce_max_p: "max",
    s.reduce_min_p: "min",
    s.reduce_and_p: "and",
    s.reduce_or_p: "or",
}


class KernelSpec:
    """What the step function needs to call a kernel: sizes, input preparation, output allocation."""

    def __init__(self, source, shape, flat, input_kinds, outputs):
        self.source = source
        self.shape = shape  # iteration shape (concrete, of this trace)
        self.flat = flat
        self.input_kinds = input_kinds  # per input: "full", "scalar" or "other"
        self.outputs = outputs  # per output: (shape to allocate, dtype, final shape)


class _Region:
    """A region as the kernel generator sees it: its layout (arraystack.ir.regions, worked out by the
    fuse pass) plus what only numba's loops need: names, operands read through broadcasts, vector width."""

    def __init__(self, graph):
        self.graph = graph
        self.layout = layout = region_layout(graph)
        self.shape = layout.shape
        self.axes = layout.axes
        self.rank = layout.rank
        self.kept = layout.kept
        self.outer_shape = layout.outer_shape
        self.names = {}
        for k, v in enumerate(graph.inputs):
            self.names[v] = f"a{k}"
        for e in graph.eqns:
            for v in e.outputs:
                self.names.setdefault(v, f"v{len(self.names)}")
        self.producer = {v: e for e in graph.eqns for v in e.outputs}
        self.inputs = set(graph.inputs)
        # inputs read only through broadcast_in_dim, which indexes them with their own axes: never
        # "outer", even where their squeezed shape is the outer one (a (1, 1) or (4, 1) operand)
        readers = {}
        for e in graph.eqns:
            for x in e.inputs:
                if x in self.inputs:
                    readers.setdefault(x, set()).add(e.prim)
        self.broadcast_only = {x for x, prims in readers.items() if prims == {s.broadcast_in_dim_p}}
        # 512-bit vectors where mathlib's polynomials make the loop compute-bound (measured: 1.3x on
        # tanh/exp chains, 1.2x on softmax's exp pass in cache), and in kernels that reduce along rows
        # and keep them: their passes after the first run from L1 and are compute-bound too (layernorm
        # (4096, 1024) float32, 2 threads: 2.9 -> 2.35 ms, 5 alternating runs; x - mean(x, axis=1):
        # 2.5 -> 2.1 ms; a row max 0.72 -> 0.64 ms). Single-pass memory-bound loops keep LLVM's
        # default width: an elementwise a * 2 + b ran 3-14% slower wide, a total sum of squares no
        # faster. The width changes no result: nothing is reassociated (summation_order.py)
        rows_reduced = bool(self.axes) and self.rank - 1 in self.axes and len(self.axes) < self.rank
        self.wide = rows_reduced or any(e.prim in VECTOR_MATH for e in graph.eqns)

    def level(self, var):
        """The layout's level ('full', 'outer': may carry unit axes, which the step reshapes), or
        'scalar' / 'other' for values the layout does not place and broadcast-only inputs."""
        shape = tuple(var.aval.shape)
        level = self.layout.level(shape)
        if level == "full" or (level == "outer" and var not in self.broadcast_only):
            return level
        return "scalar" if shape == () else "other"


def generate(graph, parallel: bool, name: str = "kernel", flat_ok: bool = True) -> KernelSpec:
    """flat_ok=False: one loop per axis even where one flat loop would do (for strided operands).
    The kernel computes the region as codegen_widen.widen_region rewrites it (float16/bfloat16 in float32;
    their arrays arrive as uint16 views: layouts.storage_bits)."""
    graph = widen_region(graph)
    region = _Region(graph)
    has_broadcast = any(e.prim is s.broadcast_in_dim_p for e in graph.eqns)
    kinds = [region.level(v) for v in graph.inputs]
    flat = (
        flat_ok
        and not region.axes
        and not has_broadcast
        and all(k in ("full", "scalar") for k in kinds)
    )
    if flat:
        region.shape_for_loops = (int(np.prod(region.shape, dtype=np.int64)),)
    region.columns = bool(region.axes) and columns_apply(region, REDUCTIONS)
    code = CodeBlock()
    # A serial flat loop over ravel()'s results computing sin or cos (their table gathers) stays scalar
    # (LLVM vectorizes it over the arrays of a function's arguments, and in parallel bodies): the loop
    # becomes a function of its own that the kernel calls with the raveled arrays (sin_f64 over 1e6
    # elements: 18.5 -> 2.8 ms)
    inner = flat and not parallel and any(e.prim in CHECKED for e in graph.eqns)
    _emit_header(code, region, parallel, f"{name}_flat" if inner else name, flat, ravel=not inner)
    if flat or not region.axes:
        _emit_elementwise(code, region, parallel, flat)
    else:
        _emit_staged(code, region, parallel)
    if inner:
        code.depth = 0
        _emit_header(code, region, parallel, name, flat, ravel=True)
        arrays = [region.names[v] for v in graph.inputs]
        arrays += [f"o{k}" for k in range(len(graph.outputs))]
        code.line(f"{name}_flat(n0, {', '.join(arrays)})")
    outputs = []
    for v in graph.outputs:
        lv = region.level(v)
        final = tuple(v.aval.shape)
        alloc = region.outer_shape if lv == "outer" else final
        outputs.append((alloc if alloc != () else (1,), v.aval.dtype, final, lv))
    imports = _IMPORTS if _needs_imports(graph) else ""
    spec = KernelSpec(imports + code.text(), region.shape, flat, kinds, outputs)
    spec.outer_shape = region.outer_shape
    spec.column_blocks = (
        region.columns
    )  # the kernel takes bw (codegen_columns.block_width) after the sizes
    return spec


def _emit_header(code, region, parallel, name, flat, ravel=True):
    # no fast-math: a*b+c must round twice, as NumPy's loops do (an FMA changes the last bit), and
    # (x + y) - y must not fold. Float sums/products add in a fixed order (summation_order.py).
    code.line(
        f"@numba.njit(parallel={parallel}, fastmath=False, error_model='numpy', nogil=True, cache=True)"
    )
    rank = 1 if flat else region.rank
    sizes = [f"n{d}" for d in range(rank)] + (["bw"] if region.columns else [])
    ins = list(region.names[v] for v in region.graph.inputs)
    outs = [f"o{k}" for k in range(len(region.graph.outputs))]
    code.line(f"def {name}({', '.join(sizes + ins + outs)}):")
    code.depth += 1
    if flat and ravel:  # any rank in, one flat loop: ravel is a view for the contiguous common case
        for a in ins + outs:
            code.line(f"{a} = {a}.ravel()")


def _value(region, atom, index, outer_index):
    """The expression reading `atom` inside a loop body."""
    if isinstance(atom, Literal):
        return literal(atom.value, atom.aval.dtype)
    name = region.names[atom]
    if atom in region.inputs:
        lv = region.level(atom)
        if lv == "full":
            return f"{name}[{index}]"
        if lv == "outer":
            return f"{name}[{outer_index or '0'}]"
        return f"{name}[0]"
    return name


def _emit_eqn(code, region, eqn, index, outer_index):
    out = region.names[eqn.outputs[0]]
    if eqn.prim is s.reshape_p:  # between outer values: a per-iteration scalar, nothing moves
        code.line(f"{out} = {_value(region, eqn.inputs[0], index, outer_index)}")
        return
    if eqn.prim is s.broadcast_in_dim_p:
        x = eqn.inputs[0]
        if isinstance(x, Literal) or x not in region.inputs:
            code.line(f"{out} = {_value(region, x, index, outer_index)}")
            return
        dims = eqn.params["broadcast_dimensions"]
        idx = [
            "0" if x.aval.shape[i] == 1 and region.shape[d] != 1 else f"i{d}"
            for i, d in enumerate(dims)
        ]
        load = f"{region.names[x]}[{', '.join(idx)}]" if idx else f"{region.names[x]}[0]"
        code.line(f"{out} = {load}")
        return
    args = [_value(region, x, index, outer_index) for x in eqn.inputs]
    code.line(f"{out} = {numba_rules[eqn.prim](args, eqn)}")


def _emit_elementwise(code, region, parallel, flat):
    loop = "numba.prange" if parallel else "range"
    dims = [0] if flat else list(range(region.rank))
    index = ", ".join(f"i{d}" for d in dims)
    if not dims:  # rank 0: one element
        index = "0"
    if not dims and region.wide:
        code.line("prefer_wide_vectors()")
    checked = _checked_arguments(region) if dims else []
    for depth, d in enumerate(dims):
        last = depth == len(dims) - 1
        head = loop if depth == 0 else "range"
        if checked and last:
            code.line(f"for b{d} in {head}((n{d} + {CHECK_BLOCK - 1}) // {CHECK_BLOCK}):")
        else:
            code.line(f"for i{d} in {head}(n{d}):")
        code.depth += 1
        if (
            depth == 0 and region.wide
        ):  # inside the loop: a parallel loop's body is its own function
            code.line("prefer_wide_vectors()")
    if not checked:
        _emit_body(code, region, index, dims, fast=False)
        code.depth -= len(dims)
        return
    d = dims[-1]
    # unsigned bounds: numba then knows indices are non-negative and drops the wraparound code
    code.line(f"start = np.uint64(b{d}) * np.uint64({CHECK_BLOCK})")
    code.line(f"stop = min(start + np.uint64({CHECK_BLOCK}), np.uint64(n{d}))")
    code.line("largest = np.uint32(0)")
    code.line(f"for i{d} in range(start, stop):")
    code.depth += 1
    for eqn in _full_closure(region, [x for x in checked if not isinstance(x, Literal)]):
        _emit_eqn(code, region, eqn, index, "")
    for x in checked:
        code.line(f"largest = magnitude_max(largest, {_value(region, x, index, '')})")
    code.depth -= 1
    for branch, fast in ((f"if largest <= np.uint32({FAST_BITS_F32:#x}):", True), ("else:", False)):
        code.line(branch)
        code.line(f"    for i{d} in range(start, stop):")
        code.depth += 2
        _emit_body(code, region, index, dims, fast)
        code.depth -= 2
    code.depth -= len(dims)


# Elementwise loops with float32 sin, cos or tan run blocks of the innermost axis: a first loop folds the
# magnitudes of their arguments (recomputed from the inputs: it writes nothing, so outputs may alias
# inputs), then the block runs mathlib/trig.py's fast variants if all are <= 2**20 (the same bits as the full
# functions there), else the full ones. 4096 elements: 16 KB of float32 arguments, read again from L1.
CHECK_BLOCK = 4096
FAST_BITS_F32 = int(np.float32(TRIG_FAST_F).view(np.uint32))
# the fusion policy's checked functions (fusion_policy.py): each has mathlib/trig.py's <name>_f32_fast
CHECKED = CHECKED_FLOAT32
_has_fast_variant = NUMBA_FUSION.checked


def _checked_arguments(region):
    """The arguments of the region's float32 sin, cos and tan, each once (sin(x) and cos(x) share x)."""
    arguments = {}
    for e in region.graph.eqns:
        if _has_fast_variant(e):
            arguments.setdefault(id(e.inputs[0]), e.inputs[0])
    return list(arguments.values())


def _emit_body(code, region, index, dims, fast):
    for eqn in region.graph.eqns:
        if fast and _has_fast_variant(eqn):
            x = _value(region, eqn.inputs[0], index, "")
            code.line(f"{region.names[eqn.outputs[0]]} = {eqn.prim.name}_f32_fast({x})")
        else:
            _emit_eqn(code, region, eqn, index, "")
    for k, v in enumerate(region.graph.outputs):
        target = index if (region.level(v) == "full" and dims) else "0"
        code.line(f"o{k}[{target}] = {_value(region, v, index, '')}")


# the conversions and complex arithmetic lowering.py's rules call (beside kernels.PRELUDE's names)
_IMPORTS = (
    "from arraystack.backends.numba.mathlib.half import (\n"
    "    f16_to_f32, f32_to_f16, f64_to_f16, bf16_to_f32, f32_to_bf16,\n)\n"
    "from arraystack.backends.numba.mathlib.complex_arith import (\n"
    "    complex_of, complex_mul, complex_div, complex_abs, complex_exp, complex_sqrt, complex_log,\n"
    "    complex_log2, complex_log10,\n)\n\n"
)



def _needs_imports(graph):
    values = [v for e in graph.eqns for v in e.inputs + e.outputs] + list(graph.inputs)
    return any(v.aval.dtype.kind == "c" or is_storage(v.aval.dtype) for v in values)


from arraystack.backends.numba.codegen_columns import columns_apply  # noqa: E402
from arraystack.backends.numba.codegen_staged import _emit_staged, _full_closure  # noqa: E402
