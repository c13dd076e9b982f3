"""Kernels of fusion regions that reduce (cuda_codegen.lower_region hands them here).

A region reduces one set of axes; its reductions form stages (a reduction whose operand needs another's
result comes a stage later: softmax is a max, then a sum of exps, then a division). Three forms:
- rows (the last axis reduced, or nothing kept): a block per outer point; its threads stride over the
  reduced elements, each stage ends in a block reduction (warp shuffles, then shared memory) whose result
  every thread reads, and a last pass writes the full-size outputs;
- columns (the last axis kept): a thread per outer point, looping over the reduced elements in order;
  neighbouring threads read neighbouring columns. A region of few long columns (SPLIT_MIN_ELEMENTS,
  SPLIT_MAX_COLUMNS) gives each column BLOCK // c threads (c columns per block, split_columns), each
  taking every (BLOCK // c)-th element, their partial results combined in order by the first (a bias
  gradient's (1797, 10) sum: 64 threads of 28 elements per column instead of one of 1797, one load
  waited on after another);
- whole (nothing kept, one stage, no full-size output): a partial kernel, a grid-stride loop and a block
  reduction per block, then a final kernel reducing the partials in order (up to ONE_BLOCK elements,
  one block whose result is the reduction's: it writes the outputs, and the final kernel is skipped).
The order of every reduction depends on the shapes alone (never on timing, no atomics), so the same
inputs give the same bits on every run. Float sums add in that order, not NumPy's pairwise order: the
results agree within the summation error bound (docs/internals/cuda.md).
Complex prod, max and min carry, beside each partial result, the lowest flat reduced index it covers
(complex_ops.cuh's np_cx_at): max and min pick NumPy's element (the first holding a NaN, else the first
of equal extremes) whatever the grouping, and a product skips empty partial results.
"""

from __future__ import annotations

import numpy as np
from arraystack.backends.codeblock import CodeBlock
from arraystack.backends.cupy import cuda_row_cache
from arraystack.backends.cupy.cuda_codegen import (
    BLOCK,
    MAX_GRID,
    MIN_BLOCKS,
    KernelSource,
    Outputs,
    named,
)
from arraystack.backends.cupy.cuda_combiner import ACCUMULATOR_DTYPES, Combiner, decompose
from arraystack.backends.cupy.cuda_region import REDUCE_OPS, Region
from arraystack.backends.cupy.lowering import literal, register_type
from arraystack.ir.ir import Literal

# Shared memory a block may use without opting in (cudaFuncAttributeMaxDynamicSharedMemorySize), on
# every architecture since sm_20: a row kept in shared memory must fit beside the static slots
SHARED_PER_BLOCK = 48 * 1024
# most partial results of a whole-array reduction (one per block of the partial kernel)
PARTS = 1024
# columns form: a column of at least SPLIT_MIN_ELEMENTS elements, in a region of at most
# SPLIT_MAX_COLUMNS columns, is split over BLOCK // 32 threads (a thread per column would leave most of a
# GPU idle and wait on one load after another)
SPLIT_MIN_ELEMENTS = 1024
SPLIT_MAX_COLUMNS = 16384
# columns per block of a split region: from 32 (neighbouring threads read 128 contiguous bytes of a
# float32 row) down to SPLIT_NARROWEST while the region has fewer than SPLIT_BLOCKS blocks: a bias
# gradient's 128 columns are 32 blocks of 4 columns, 64 threads each, instead of 4 blocks of 32 columns
# with 8 threads each, which leaves most of a GPU idle and each thread hundreds of loads to wait on
SPLIT_BLOCKS = 128
SPLIT_NARROWEST = 4
# a whole-array reduction of at most ONE_BLOCK elements runs as one block of one kernel (32 elements per
# thread): a second launch costs more than the block's loop
ONE_BLOCK = 8192
# elements per trip of a reduction's inner loop (loads in flight per thread)
UNROLL = 4
_NUMPY_NAMES = {"max": "maximum", "min": "minimum"}
# complex_ops.cuh's np_cx_at (a complex partial result and an index): complex128 words per element
_INDEXED_WORDS = {"c64_at": 1, "c128_at": 2}


class _Reduction(Combiner):
    def __init__(self, region: Region, eqn, k: int):
        super().__init__(REDUCE_OPS[eqn.prim], eqn.outputs[0].aval.dtype)
        self.eqn, self.name = eqn, f"a{k}"
        self.value = region.names[eqn.outputs[0]]
        self.stage = region.stage[eqn]

    def result(self) -> str:
        value = self.result_of(self.name)
        if self.op == "sum" and self.dtype.kind in "fc":
            # NumPy's float sums start from +0.0, so a sum of zeros that are all -0.0 is +0.0; the
            # kernels start from -0.0 (an identity of every value, as scans need), and adding +0.0
            # maps -0.0 to +0.0 alone
            zero = complex(0.0, 0.0) if self.dtype.kind == "c" else 0.0
            return f"({value} + {literal(zero, self.dtype)})"
        return value


def reduction_reason(region: Region) -> str | None:
    """Why a reducing region is not lowered, or None (every region Region accepts is)."""
    return None


def _block_reduce(code: CodeBlock, reductions) -> None:
    """Every thread of the block ends holding the reduction of all the block's values of each."""
    with code.block("for (int d = 16; d > 0; d >>= 1) {"):
        for r in reductions:
            code.line(
                f"{r.name} = {r.combine(r.name, f'__shfl_down_sync(0xffffffffu, {r.name}, d)')};"
            )
    code.line("}")
    with code.block("if (lane == 0) {"):
        for r in reductions:
            code.line(f"sh_{r.name}[warp] = {r.name};")
    code.line("}")
    code.line("__syncthreads();")
    with code.block("if (warp == 0) {"):
        for r in reductions:
            code.line(f"{r.name} = lane < nwarps ? sh_{r.name}[lane] : {r.identity()};")
        with code.block("for (int d = 16; d > 0; d >>= 1) {"):
            for r in reductions:
                shuffled = f"__shfl_down_sync(0xffffffffu, {r.name}, d)"
                code.line(f"{r.name} = {r.combine(r.name, shuffled)};")
        code.line("}")
        with code.block("if (lane == 0) {"):
            for r in reductions:
                code.line(f"sh_{r.name}[32] = {r.name};")
        code.line("}")
    code.line("}")
    code.line("__syncthreads();")
    for r in reductions:
        code.line(f"{r.name} = sh_{r.name}[32];")
    code.line("__syncthreads();  // the shared slots are free for the next reduction")


def split_columns(outer: int) -> int:
    """The columns per block of a split columns region of `outer` columns (its blockDim.x)."""
    columns = 32
    while columns > SPLIT_NARROWEST and -(-outer // columns) < SPLIT_BLOCKS:
        columns //= 2
    return columns


def _column_combine(code: CodeBlock, reductions) -> None:
    """Columns: the threads of a column (threadIdx.y) hold partial results of the elements j with
    j % blockDim.y == threadIdx.y; thread y == 0 combines them in the order of y, and every thread of
    the column reads the result. With blockDim.y == 1 nothing is done."""
    with code.block("if (blockDim.y > 1) {"):
        code.line("const int me = threadIdx.y * blockDim.x + threadIdx.x;")
        for r in reductions:
            code.line(f"sh_{r.name}[me] = {r.name};")
        code.line("__syncthreads();")
        with code.block("if (threadIdx.y == 0) {"):
            with code.block("for (int y = 1; y < blockDim.y; ++y) {"):
                for r in reductions:
                    other = f"sh_{r.name}[y * blockDim.x + threadIdx.x]"
                    code.line(f"{r.name} = {r.combine(r.name, other)};")
            code.line("}")
            for r in reductions:
                code.line(f"sh_{r.name}[threadIdx.x] = {r.name};")
        code.line("}")
        code.line("__syncthreads();")
        for r in reductions:
            code.line(f"{r.name} = sh_{r.name}[threadIdx.x];")
        code.line("__syncthreads();  // the shared slots are free for the next reduction")
    code.line("}")


class _Writer:
    """Emits the passes of one kernel form."""

    def __init__(self, region: Region, form: str):
        self.region, self.form = region, form
        self.outputs = Outputs(region)
        self.reductions = [_Reduction(region, e, k) for k, e in enumerate(region.reductions)]
        self.code = CodeBlock()
        # rows form: the values kept in shared memory between passes (cuda_row_cache)
        self.cache = None
        self.pass_index = 0
        # loads in flight per thread, as registers allow: 8 of 4-byte values, 4 of 8-byte ones, and one
        # where complex128 accumulators or elements take the registers
        widest = max(
            [_accumulator_bytes(r.acc) for r in self.reductions]
            + [np.dtype(region.dtype(k)).itemsize for k in range(len(region.sites))]
        )
        self.unroll = 1 if widest > 8 else UNROLL if widest > 4 else 2 * UNROLL

    def hoist(self, targets, env) -> None:
        """Emit at outer scope the outer-level values the targets need that are computable there."""
        region = self.region
        for e in region.needed(targets, env):
            if e.prim in REDUCE_OPS or region.level(e.outputs[0]) != "outer":
                continue
            ready = all(
                isinstance(x, Literal)
                or x in env
                or (
                    x in region.position and region.site_scope(region.site_of[(x, None)]) == "outer"
                )
                for x in e.inputs
            )
            if ready and (e.prim.name != "broadcast_in_dim"):
                region.emit_values(self.code, [e.outputs[0]], env)

    def inner_loop(self, start: str, step: str, env: dict, body, unroll=None) -> None:
        """for j over the reduced elements: decompose, run body(env copy). The loop runs `unroll`
        (default self.unroll) elements per trip (each in its own scope, j ascending, then a loop over
        the rest), so a thread has that many loads in flight; it still combines its elements in the
        order of j: the results are the bits of the plain loop."""
        code, region = self.code, self.region
        unroll = unroll or self.unroll

        def element(j):  # one element, in a scope of its own
            with code.block("{"):
                code.line(f"const ix j = {j};")
                decompose(code, "j", region.axes)
                body(dict(env))
            code.line("}")

        trip = f"jb += {unroll} * ({step})"
        with code.block(f"{{ ix jb = {start};"):
            if unroll > 1:  # whole trips, then the rest one by one
                with code.block(f"for (; jb + {unroll - 1} * ({step}) < inner_total; {trip}) {{"):
                    for u in range(unroll):
                        element(f"jb + {u} * ({step})" if u else "jb")
                code.line("}")
            with code.block(f"for (; jb < inner_total; jb += {step}) {{"):
                element("jb")
            code.line("}")
        code.line("}")

    def row_pass(self, targets, env, start, step, finish) -> None:
        """One pass over the reduced elements computing `targets`, then finish(scope) per element. With
        a row cache, the pass is emitted twice: reading and writing the shared-memory slots when
        cache_rows, and from global memory alone when the row does not fit (same bits)."""
        code, region = self.code, self.region
        cache = self.cache.passes[self.pass_index] if self.cache else None
        self.pass_index += 1

        def body(scope, cached):
            keys = set()
            if cached:
                for key, slot in cache.reads:
                    keys.add(key)
                    t = self.cache.types[slot]
                    if key[0] == "site":
                        code.line(f"const {t} x{key[1]} = row{slot}[j];")
                    else:
                        scope[key[1]] = name = f"r_{region.names[key[1]]}"
                        code.line(f"const {t} {name} = row{slot}[j];")
            for k in region.sites_used(targets, scope):
                if region.site_scope(k) == "full" and ("site", k) not in keys:
                    region.emit_load(code, k)
            region.emit_values(code, targets, scope)
            finish(scope)
            if cached:
                for key, slot in cache.stores:
                    value = f"x{key[1]}" if key[0] == "site" else scope[key[1]]
                    code.line(f"row{slot}[j] = {value};")

        if cache is None or not (cache.reads or cache.stores):
            unroll = self._unroll(targets, set())
            self.inner_loop(start, step, env, lambda scope: body(scope, False), unroll)
            return
        with code.block("if (cache_rows) {"):
            unroll = self._unroll(targets, {key for key, _ in cache.reads})
            self.inner_loop(start, step, env, lambda scope: body(scope, True), unroll)
        with code.block("} else {"):
            unroll = self._unroll(targets, set())
            self.inner_loop(start, step, env, lambda scope: body(scope, False), unroll)
        code.line("}")

    def _unroll(self, targets, cached) -> int:
        """Elements per trip of a rows pass: self.unroll, fewer (a power of two) when the pass computes
        more than 64 bytes of values per trip (a float64 division unrolled four times spills)."""
        if self.form != "rows":
            return self.unroll
        computed = cuda_row_cache.walk(self.region, targets, cached)[1]
        live = sum(cuda_row_cache.kind(self.region, key)[1] for key in computed) or 1
        unroll = self.unroll
        while unroll > 1 and unroll * live > 64:
            unroll //= 2
        return unroll

    def stage_pass(self, stage, env, start, step, block) -> None:
        code, region = self.code, self.region
        todo = [r for r in self.reductions if r.stage == stage]
        operands = [r.eqn.inputs[0] for r in todo]
        self.hoist(operands, env)
        for r in todo:
            code.line(f"{r.acc} {r.name} = {r.identity()};")

        def finish(scope):
            for r in todo:
                value = region.expr(r.eqn.inputs[0], scope)
                code.line(f"{r.name} = {r.combine(r.name, r.element(value))};")

        self.row_pass(operands, env, start, step, finish)
        if block:
            _block_reduce(code, todo)
        elif self.form == "columns":
            _column_combine(code, todo)
        for r in todo:
            code.line(f"const {register_type(r.dtype)} {r.value} = {r.result()};")
            env[r.eqn.outputs[0]] = r.value

    def outer_outputs(self, env, guard: str | None) -> None:
        region, code = self.region, self.code
        ks = [k for k, v in enumerate(region.graph.outputs) if self._level(v) == "outer"]
        if not ks:
            return
        targets = [region.graph.outputs[k] for k in ks]
        self.hoist(targets, env)
        with code.block(f"if ({guard}) {{" if guard else "{"):
            scope = dict(env)
            region.emit_values(code, targets, scope)
            for k in ks:
                self.outputs.emit_store(code, k, scope)
        code.line("}")

    def full_outputs(self, env, start, step, guard=None) -> None:
        region, code = self.region, self.code
        ks = [k for k, v in enumerate(region.graph.outputs) if self._level(v) == "full"]
        if not ks:
            return
        targets = [region.graph.outputs[k] for k in ks]
        self.hoist(targets, env)

        def finish(scope):
            with code.block(f"if ({guard}) {{" if guard else "{"):
                for k in ks:
                    self.outputs.emit_store(code, k, scope)
            code.line("}")

        self.row_pass(targets, env, start, step, finish)

    def _level(self, v):
        if isinstance(v, Literal):
            return "full"
        return self.region.level(v)

    def header(self, name, extra=()) -> None:
        region, code = self.region, self.code
        sizes = [f"ix n{d}" for d in range(region.rank)]
        params = region.site_params() + self.outputs.params() + sizes
        params += ["ix outer_total", "ix inner_total", "ix parts", *extra]
        if self.cache:
            params.append("ix cache_rows")
        bound = f"__launch_bounds__({BLOCK}, {MIN_BLOCKS}) "
        code.line(f'extern "C" __global__ void {bound}__{name}__(')
        code.line("    " + ", ".join(params) + ") {")
        code.depth += 1
        slots = BLOCK if self.form == "columns" else 33  # columns: a partial result per thread
        for r in self.reductions:
            code.line(f"__shared__ {r.acc} sh_{r.name}[{slots}];")
        code.line("const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;")
        code.line("const int nwarps = blockDim.x >> 5;")
        if self.cache:
            code.line("NP_DYNAMIC_SHARED(row_memory);")
            offset = 0
            for k in self.cache.layout():
                t = self.cache.types[k]
                code.line(f"{t}* row{k} = ({t}*)(row_memory + inner_total * {offset});")
                offset += self.cache.sizes[k]

    def load_outer(self) -> None:
        region = self.region
        for k in range(len(region.sites)):
            if region.site_scope(k) == "outer":
                region.emit_load(self.code, k)

    def per_outer_point(self, name) -> None:
        """rows and columns: every stage, then the outputs, for each outer point."""
        code, region = self.code, self.region
        self.header(name)
        if self.form == "rows":
            loop = "for (ix o = blockIdx.x; o < outer_total; o += gridDim.x) {"
            start, step, guard, full_guard = "threadIdx.x", "blockDim.x", "threadIdx.x == 0", None
        else:  # a column per threadIdx.x, its elements split over threadIdx.y (see _column_combine)
            loop = "for (ix ob = (ix)blockIdx.x * blockDim.x; ob < outer_total; ob += (ix)gridDim.x * blockDim.x) {"
            start, step, guard, full_guard = (
                "threadIdx.y",
                "blockDim.y",
                "live && threadIdx.y == 0",
                "live",
            )
        with code.block(loop):
            if self.form != "rows":  # every thread runs the block's trips (barriers); the idle ones
                # compute the last column again and store nothing
                code.line("const bool live = ob + threadIdx.x < outer_total;")
                code.line("const ix o = live ? ob + threadIdx.x : outer_total - 1;")
            decompose(code, "o", region.kept)
            self.load_outer()
            env = {}
            for stage in sorted({r.stage for r in self.reductions}):
                self.stage_pass(stage, env, start, step, block=self.form == "rows")
            self.outer_outputs(env, guard)
            self.full_outputs(env, start, step, full_guard)
        code.line("}")
        code.depth -= 1
        code.line("}")

    def whole(self) -> None:
        code = self.code
        partials = [f"{r.acc}* __restrict__ part_{r.name}" for r in self.reductions]
        self.header("PARTIAL", partials)
        env = {}
        self.load_outer()
        self.stage_pass(
            1,
            env,
            "(ix)blockIdx.x * blockDim.x + threadIdx.x",
            "(ix)gridDim.x * blockDim.x",
            True,
        )
        with code.block("if (threadIdx.x == 0) {"):
            for r in self.reductions:
                code.line(f"part_{r.name}[blockIdx.x] = {r.name};")
        code.line("}")
        # one block: its result is the reduction's (the final kernel would combine it with identities,
        # which changes no bit), so it writes the outputs and the final kernel is not launched
        self.outer_outputs(env, "gridDim.x == 1 && threadIdx.x == 0")
        code.depth -= 1
        code.line("}")
        self.header("FINAL", [p.replace("* __restrict__", " const*") for p in partials])
        self.load_outer()
        env = {}
        for r in self.reductions:
            code.line(f"{r.acc} {r.name} = {r.identity()};")
        with code.block("for (ix j = threadIdx.x; j < parts; j += blockDim.x) {"):
            for r in self.reductions:
                code.line(f"{r.name} = {r.combine(r.name, f'part_{r.name}[j]')};")
        code.line("}")
        _block_reduce(code, self.reductions)
        for r in self.reductions:
            code.line(f"const {register_type(r.dtype)} {r.value} = {r.result()};")
            env[r.eqn.outputs[0]] = r.value
        self.outer_outputs(env, "threadIdx.x == 0")
        code.depth -= 1
        code.line("}")


def _form(region: Region, writer: _Writer) -> str:
    full_out = any(writer._level(v) == "full" for v in region.graph.outputs)
    if not region.kept and not full_out and max(region.stage.values()) == 1:
        return "whole"
    if not region.kept or region.rank - 1 in region.axes:
        return "rows"
    return "columns"


def _accumulator_bytes(acc: str) -> int:
    if acc in _INDEXED_WORDS:
        return 16 * _INDEXED_WORDS[acc]
    return np.dtype(ACCUMULATOR_DTYPES[acc]).itemsize


def _partials(acc: str, parts: int) -> tuple:
    """(shape, dtype) of the buffer of `parts` partial results of accumulator type `acc`: an indexed
    complex one (a struct NumPy has no dtype for) as complex128 words, which also align it."""
    if acc in _INDEXED_WORDS:
        return (parts, _INDEXED_WORDS[acc]), np.dtype(np.complex128)
    return (parts,), np.dtype(ACCUMULATOR_DTYPES[acc])


def lower_reduction(region: Region) -> KernelSource:
    """The kernels of a reducing region (see the module docstring)."""
    writer = _Writer(region, "")
    writer.form = form = _form(region, writer)
    row_bytes = 0  # shared memory per element of a row kept there
    if form == "whole":
        writer.whole()
        source, names = named(writer.code.text(), "sum", ("PARTIAL", "FINAL"))
    else:
        if form == "rows":
            writer.cache = cuda_row_cache.plan(region)
            row_bytes = writer.cache.row_bytes if writer.cache else 0
        writer.per_outer_point("KERNEL")
        source, names = named(writer.code.text(), form)
    static_shared = sum(33 * _accumulator_bytes(r.acc) for r in writer.reductions)
    extremes = sorted({r.op for r in writer.reductions if r.op in ("max", "min")})
    accumulators = [r.acc for r in writer.reductions]

    def configure(shape):
        outer = int(np.prod([shape[d] for d in region.kept], dtype=np.int64))
        inner = int(np.prod([shape[d] for d in region.axes], dtype=np.int64))
        if inner == 0 and outer > 0 and extremes:
            op = _NUMPY_NAMES[extremes[0]]
            raise ValueError(f"zero-size array to reduction operation {op} which has no identity")
        parts = 1 if inner <= ONE_BLOCK else min(-(-inner // BLOCK), PARTS)
        args = [np.int64(n) for n in shape] + [np.int64(outer), np.int64(inner), np.int64(parts)]
        if form == "whole":
            scratch = [_partials(acc, parts) for acc in accumulators]
            ids = tuple(range(len(scratch)))
            final = None if parts == 1 else ((1,), (BLOCK,), ids)
            return args, [((parts,), (BLOCK,), ids), final], scratch
        if form == "rows":
            block = min(BLOCK, max(32, -(-inner // 32) * 32))
            grid = (max(1, min(outer, MAX_GRID)),)
            if not row_bytes:
                return args, [(grid, (block,), ())], []
            shared = inner * row_bytes
            cached = 0 < shared <= SHARED_PER_BLOCK - static_shared
            config = (grid, (block,), (), shared if cached else 0)
            return [*args, np.int64(cached)], [config], []
        # few long columns: each split over the threads of a block's y axis (the order of its elements
        # then depends on the split: within the summation bound, not NumPy's bits)
        split = inner >= SPLIT_MIN_ELEMENTS and outer <= SPLIT_MAX_COLUMNS
        block = (split_columns(outer), BLOCK // split_columns(outer)) if split else (BLOCK, 1)
        grid = max(1, min(-(-outer // block[0]), MAX_GRID))
        return args, [((grid,), block, ())], []

    return KernelSource(source, names, form, region, writer.outputs, configure)
