"""Kernels of one-operand primitives along an axis: argmax/argmin and the cumulative sums, products,
maxima and minima (cuda_codegen.lower_region hands them here).

The operand is read through strides, as a region's inputs are (cuda_region.Site); the axis splits its
shape into the outer points (the other axes) and the elements along it. Three forms, chosen by the
structure alone:
- whole (no other axis moves: a 1-d operand): argmax reduces in a partial kernel (a grid-stride loop
  and a block reduction per block) and a final kernel over the partials; a scan is `rows` with one row;
- rows (the axis is the last that moves): argmax reduces a row per block. A scan cuts each row into
  tiles of BLOCK * ITEMS elements: each thread scans ITEMS consecutive elements, the block scans the
  threads' totals (np_block_exclusive_scan: Hillis-Steele in each warp, then over the warps). A row of
  more than one tile takes three kernels: the tiles' totals, their exclusive scan (a block per row, a
  chunk of tiles at a time), and the tiles' scans offset by it;
- columns (a later axis moves): a thread per outer point walks the axis in order, as NumPy's loop does
  (a float scan here is NumPy's to the bit, float16 rounded after each step as NumPy's loop rounds).
No atomics anywhere, so the same inputs give the same bits on every run; a float scan of the other
forms adds in its own fixed order (the bound is in docs/internals/cuda.md).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from arraystack.backends.codeblock import CodeBlock
from arraystack.backends.cupy.cuda_codegen import BLOCK, MAX_GRID, MIN_BLOCKS, KernelSource, named
from arraystack.backends.cupy.cuda_combiner import ACCUMULATOR_DTYPES, Combiner, decompose
from arraystack.backends.cupy.cuda_region import Site
from arraystack.backends.cupy.lowering import load, register_type, storage_type, store
from arraystack.ir import structural as s

ITEMS = 4  # consecutive elements per thread of a scan tile
TILE = BLOCK * ITEMS
ARG_REDUCTIONS = {
    s.argmax_p: True,
    s.argmin_p: False,
}  # primitive -> whether it looks for the maximum
SCANS = {s.cumsum_p: "sum", s.cumprod_p: "prod", s.cummax_p: "max", s.cummin_p: "min"}


def axis_reason(eqn) -> str | None:
    """Why this argmax/argmin/cumulative equation is not lowered, or None if it is."""
    dtype = np.dtype(eqn.inputs[0].aval.dtype)
    if dtype.kind not in "biuf":
        return f"CUDA lowering of {eqn.prim.name} with {dtype.name} operands is not written"
    return None


class _Operand:
    """The operand's site and the output's strides, in the shape cuda_codegen.KernelSource reads."""

    def __init__(self, eqn, same_shape: bool):
        shape = tuple(eqn.inputs[0].aval.shape)
        self.axis = axis = eqn.params["axis"]
        self.shape = shape
        self.kept = tuple(d for d in range(len(shape)) if d != axis and shape[d] != 1)
        moves = tuple(sorted((*self.kept, axis)))
        self.sites = [Site(0, moves, moves)]
        self.axis_stride = moves.index(axis)
        if same_shape:
            self.out_axes = moves
            dims = moves
        else:
            self.out_axes = self.kept
            dims = tuple(d if d < axis else d - 1 for d in self.kept)
        self.outputs = SimpleNamespace(dims=[dims])
        self.in_dtype = np.dtype(eqn.inputs[0].aval.dtype)
        self.out_dtype = np.dtype(eqn.outputs[0].aval.dtype)

    def params(self) -> list[str]:
        params = [f"const {storage_type(self.in_dtype)}* __restrict__ p0"]
        params += [f"ix p0_s{j}" for j in range(len(self.sites[0].axes))]
        params.append(f"{storage_type(self.out_dtype)}* __restrict__ o0")
        params += [f"ix o0_s{j}" for j in range(len(self.out_axes))]
        params += [f"ix n{d}" for d in self.kept]
        return params + ["ix outer_total", "ix inner_total", "ix parts"]

    def bases(self, code: CodeBlock, index: str) -> None:
        """in_base and out_base of the outer point `index`."""
        decompose(code, index, self.kept)
        in_terms = [f"i{d} * p0_s{self.sites[0].axes.index(d)}" for d in self.kept]
        out_terms = [f"i{d} * o0_s{self.out_axes.index(d)}" for d in self.kept]
        code.line(f"const ix in_base = {' + '.join(in_terms) or '0'};")
        code.line(f"const ix out_base = {' + '.join(out_terms) or '0'};")

    def read(self, position: str) -> str:
        return load(self.in_dtype, f"p0[in_base + ({position}) * p0_s{self.axis_stride}]")

    def form(self) -> str:
        if not self.kept:
            return "whole"
        return "rows" if self.axis > max(self.kept) else "columns"

    def size_args(self, shape) -> list:
        outer = int(np.prod([shape[d] for d in self.kept], dtype=np.int64))
        return [np.int64(shape[d]) for d in self.kept], outer, int(shape[self.axis])


def _kernel(code: CodeBlock, name: str, params, extra=()) -> None:
    code.line(f'extern "C" __global__ void __launch_bounds__({BLOCK}, {MIN_BLOCKS}) __{name}__(')
    code.line("    " + ", ".join([*params, *extra]) + ") {")
    code.depth += 1


def _end(code: CodeBlock) -> None:
    code.depth -= 1
    code.line("}")


def _grid(n: int) -> tuple:
    return (max(1, min(n, MAX_GRID)),)


# -- argmax, argmin --------------------------------------------------------------------------------------------
def lower_arg_reduction(eqn) -> KernelSource:
    """The kernels of an argmax/argmin equation (see the module docstring)."""
    operand = _Operand(eqn, same_shape=False)
    best = "true" if ARG_REDUCTIONS[eqn.prim] else "false"
    t = register_type(operand.in_dtype)
    value = "i32" if t in ("bool", "i8", "i16", "u8", "u16") else t  # what a shuffle moves
    form = operand.form()
    code = CodeBlock()
    shared = [f"__shared__ {value} shv[33];", "__shared__ i64 shi[33];"]

    def scan(start, step):
        code.line(f"{value} v = ({value})0;")
        code.line("i64 i = -1;")
        with code.block(f"for (ix j = {start}; j < inner_total; j += {step}) {{"):
            code.line(f"const {value} w = ({value}){operand.read('j')};")
            code.line(f"if (np_arg_better<{best}>(w, j, v, i)) {{ v = w; i = j; }}")
        code.line("}")

    if form == "whole":
        partials = [f"{value}* __restrict__ part_v", "i64* __restrict__ part_i"]
        _kernel(code, "PARTIAL", operand.params(), partials)
        for text in shared:
            code.line(text)
        code.line("const ix in_base = 0;")
        scan("(ix)blockIdx.x * blockDim.x + threadIdx.x", "(ix)gridDim.x * blockDim.x")
        code.line(f"np_block_arg<{best}>(v, i, shv, shi);")
        code.line("if (threadIdx.x == 0) { part_v[blockIdx.x] = v; part_i[blockIdx.x] = i; }")
        _end(code)
        finals = [f"const {value}* __restrict__ part_v", "const i64* __restrict__ part_i"]
        _kernel(code, "FINAL", operand.params(), finals)
        for text in shared:
            code.line(text)
        code.line(f"{value} v = ({value})0;")
        code.line("i64 i = -1;")
        with code.block("for (ix j = threadIdx.x; j < parts; j += blockDim.x) {"):
            code.line(
                f"if (np_arg_better<{best}>(part_v[j], part_i[j], v, i)) "
                "{ v = part_v[j]; i = part_i[j]; }"
            )
        code.line("}")
        code.line(f"np_block_arg<{best}>(v, i, shv, shi);")
        code.line("if (threadIdx.x == 0) o0[0] = i;")
        _end(code)
        source, names = named(code.text(), "argw", ("PARTIAL", "FINAL"))
    else:
        _kernel(code, "KERNEL", operand.params())
        rows = form == "rows"
        if rows:
            for text in shared:
                code.line(text)
        o_start = "blockIdx.x" if rows else "(ix)blockIdx.x * blockDim.x + threadIdx.x"
        o_step = "gridDim.x" if rows else "(ix)gridDim.x * blockDim.x"
        with code.block(f"for (ix o = {o_start}; o < outer_total; o += {o_step}) {{"):
            operand.bases(code, "o")
            if rows:
                scan("threadIdx.x", "blockDim.x")
            else:
                scan("0", "1")
            if rows:
                code.line(f"np_block_arg<{best}>(v, i, shv, shi);")
                code.line("if (threadIdx.x == 0) o0[out_base] = i;")
            else:
                code.line("o0[out_base] = i;")
        code.line("}")
        _end(code)
        source, names = named(code.text(), f"arg{form[0]}")
    value_dtype = np.dtype(ACCUMULATOR_DTYPES[value])

    def configure(shape):
        sizes, outer, inner = operand.size_args(shape)
        if inner == 0:
            raise ValueError(f"attempt to get {eqn.prim.name} of an empty sequence")
        parts = max(1, min(-(-inner // BLOCK), 1024))
        args = [*sizes, np.int64(outer), np.int64(inner), np.int64(parts)]
        if form == "whole":
            scratch = [((parts,), value_dtype), ((parts,), np.dtype(np.int64))]
            return args, [((parts,), (BLOCK,), (0, 1)), ((1,), (BLOCK,), (0, 1))], scratch
        if form == "rows":
            block = min(BLOCK, max(32, -(-inner // 32) * 32))
            return args, [(_grid(outer), (block,), ())], []
        return args, [(_grid(-(-outer // BLOCK)), (BLOCK,), ())], []

    return KernelSource(source, names, form, operand, operand.outputs, configure)


# -- cumulative sums, products, maxima, minima -----------------------------------------------------------------
def lower_scan(eqn) -> KernelSource:
    """The kernels of a cumsum/cumprod/cummax/cummin equation (see the module docstring)."""
    operand = _Operand(eqn, same_shape=True)
    op = Combiner(SCANS[eqn.prim], operand.out_dtype)
    acc = op.acc
    reverse = bool(eqn.params.get("reverse", False))
    form = operand.form()
    code = CodeBlock()
    code.line(f"struct __OP__ {{ typedef {acc} T;")
    code.line(f"    static __device__ __forceinline__ T identity() {{ return {op.identity()}; }}")
    code.line(
        f"    static __device__ __forceinline__ T combine(T a, T b) {{ return {op.combine('a', 'b')}; }}"
    )
    code.line("};")

    def position(j):
        return f"inner_total - 1 - ({j})" if reverse else j

    def element(j):
        return op.element(operand.read(position(j)))

    def write(j, value):
        address = f"o0[out_base + ({position(j)}) * o0_s{operand.axis_stride}]"
        code.line(f"{address} = {store(operand.out_dtype, op.result_of(value))};")

    if form == "columns":
        _kernel(code, "SCAN", operand.params(), [f"{acc}* __restrict__ totals"])
        start = "(ix)blockIdx.x * blockDim.x + threadIdx.x"
        with code.block(
            f"for (ix o = {start}; o < outer_total; o += (ix)gridDim.x * blockDim.x) {{"
        ):
            operand.bases(code, "o")
            code.line(f"{acc} run = __OP__::identity();")
            with code.block("for (ix j = 0; j < inner_total; ++j) {"):
                code.line(f"run = __OP__::combine(run, {element('j')});")
                if operand.out_dtype == np.float16:
                    code.line("run = np_round_half(run);")
                write("j", "run")
            code.line("}")
        code.line("}")
        _end(code)
        source, names = named(code.text(), "scanc", ("SCAN", "OP"))
        names = names[:1]
    else:
        _tiles(code, operand, acc, element, write)
        source, names = named(code.text(), "scanr", ("TOTALS", "OFFSETS", "SCAN", "OP"))
        names = names[:3]
    acc_dtype = np.dtype(ACCUMULATOR_DTYPES[acc])

    def configure(shape):
        sizes, outer, inner = operand.size_args(shape)
        if form == "columns":
            args = [*sizes, np.int64(outer), np.int64(inner), np.int64(1)]
            return args, [(_grid(-(-outer // BLOCK)), (BLOCK,), (0,))], [((1,), acc_dtype)]
        tiles = max(1, -(-inner // TILE))
        args = [*sizes, np.int64(outer), np.int64(inner), np.int64(tiles)]
        scratch = [((max(1, outer * tiles),), acc_dtype)]
        scan = (_grid(outer * tiles), (BLOCK,), (0,))
        if tiles == 1:
            return args, [None, None, scan], scratch
        return (
            args,
            [(_grid(outer * tiles), (BLOCK,), (0,)), (_grid(outer), (BLOCK,), (0,)), scan],
            scratch,
        )

    return KernelSource(source, names, form, operand, operand.outputs, configure)


def _tiles(code: CodeBlock, operand: _Operand, acc: str, element, write) -> None:
    """The TOTALS, OFFSETS and SCAN kernels of a row scan (`parts` is the tiles per row)."""
    params = operand.params()
    for name in ("TOTALS", "SCAN"):
        _kernel(code, name, params, [f"{acc}* __restrict__ totals"])
        code.line(f"__shared__ {acc} sh[33];")
        with code.block("for (ix b = blockIdx.x; b < outer_total * parts; b += gridDim.x) {"):
            code.line(
                f"const ix o = b / parts, first = b % parts * {TILE} + (ix)threadIdx.x * {ITEMS};"
            )
            operand.bases(code, "o")
            code.line(f"{acc} run = __OP__::identity(), total;")
            if name == "SCAN":
                code.line(f"{acc} v[{ITEMS}];")
            code.line("#pragma unroll")
            with code.block(f"for (int k = 0; k < {ITEMS}; ++k) {{"):
                code.line("const ix j = first + k;")
                code.line(f"if (j < inner_total) run = __OP__::combine(run, {element('j')});")
                if name == "SCAN":
                    code.line("v[k] = run;")
            code.line("}")
            code.line("const __OP__::T prefix = np_block_exclusive_scan<__OP__>(run, sh, &total);")
            if name == "TOTALS":
                code.line("if (threadIdx.x == 0) totals[b] = total;")
            else:
                code.line("const __OP__::T offset = parts > 1 ? totals[b] : __OP__::identity();")
                code.line("const __OP__::T before = __OP__::combine(offset, prefix);")
                code.line("#pragma unroll")
                with code.block(f"for (int k = 0; k < {ITEMS}; ++k) {{"):
                    code.line("const ix j = first + k;")
                    with code.block("if (j < inner_total) {"):
                        code.line(f"const {acc} out = __OP__::combine(before, v[k]);")
                        write("j", "out")
                    code.line("}")
                code.line("}")
        code.line("}")
        _end(code)
        if name == "TOTALS":
            _offsets(code, params, acc)


def _offsets(code: CodeBlock, params, acc: str) -> None:
    """Each row's tile totals replaced by their exclusive scan, a chunk of BLOCK * ITEMS at a time."""
    _kernel(code, "OFFSETS", params, [f"{acc}* __restrict__ totals"])
    code.line(f"__shared__ {acc} sh[33];")
    with code.block("for (ix o = blockIdx.x; o < outer_total; o += gridDim.x) {"):
        code.line(f"{acc}* row = totals + o * parts;")
        code.line(f"{acc} carry = __OP__::identity();")
        with code.block(f"for (ix c = 0; c < parts; c += (ix)blockDim.x * {ITEMS}) {{"):
            code.line(f"const ix first = c + (ix)threadIdx.x * {ITEMS};")
            code.line(f"{acc} run = __OP__::identity(), total, v[{ITEMS}];")
            code.line("#pragma unroll")
            with code.block(f"for (int k = 0; k < {ITEMS}; ++k) {{"):
                code.line("v[k] = run;")
                code.line("if (first + k < parts) run = __OP__::combine(run, row[first + k]);")
            code.line("}")
            code.line("const __OP__::T prefix = np_block_exclusive_scan<__OP__>(run, sh, &total);")
            code.line("const __OP__::T before = __OP__::combine(carry, prefix);")
            code.line("#pragma unroll")
            with code.block(f"for (int k = 0; k < {ITEMS}; ++k) {{"):
                code.line("if (first + k < parts) row[first + k] = __OP__::combine(before, v[k]);")
            code.line("}")
            code.line("carry = __OP__::combine(carry, total);")
        code.line("}")
    code.line("}")
    _end(code)
