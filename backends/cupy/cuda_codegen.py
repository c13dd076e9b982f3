"""A fusion region -> the CUDA C++ source of its kernels, and how to launch them: `lower_region`.

`lower_region(eqn, graph)` takes a `fusion` equation (and the graph holding it) and returns a
`KernelSource`, or None where the region is not lowered (`why_not(eqn)` then says why; the backend runs
the region's reference rule). A KernelSource holds:

- `source`: one self-contained translation unit (numpy_ops.cuh, complex_ops.cuh, then the kernels), `extern "C"`;
- `kernels`: the kernel names in launch order (`name` is the first); `kind`: "elementwise", "rows"
  (a block per outer point), "columns" (a thread per outer point) or "whole" (a whole-array reduction:
  a partial kernel over a grid-stride loop, then a final kernel over the partials). argmax, argmin
  and cumulative equations take the same kinds (cuda_codegen_axis.py);
- `scratch(inputs)`: the (shape, dtype) of each scratch buffer the launches need (whole reductions);
- `launches(inputs, outputs, scratch=())`: the launches, each a `Launch(kernel, grid, block,
  shared_mem, args)`; `args` are the arrays themselves (inputs, outputs and scratch, as the caller's
  array objects: anything with `.shape`, `.strides` in bytes and `.dtype`) and NumPy int64 scalars (sizes
  and strides in elements). Outputs are allocated by the caller with the shapes and dtypes of
  `eqn.outputs`. The configuration and the scalar arguments are computed once per combination of
  shapes and strides and cached.

Kernels are shape-generic: every size and stride is an argument. Indices, sizes and strides have the
type `ix`: 64-bit in the source, so sizes past 2**31 elements index correctly, and 32-bit in its narrow
variant (`narrow(source)`), which a launch uses when its sizes and offsets allow (`Launch.narrow`). Reductions never use atomics: their order
depends only on the shapes, so the same inputs give the same bits on every run.
"""

from __future__ import annotations

import os
from collections import namedtuple

import numpy as np
from arraystack.backends.codeblock import CodeBlock
from arraystack.backends.cupy.cuda_region import NotLowered, Region, outer_dims
from arraystack.backends.cupy.kernel_cache import key_of
from arraystack.backends.cupy.lowering import storage_type, store
from arraystack.ir.control import fusion_p
from arraystack.ir.ir import Literal

# narrow: the launch runs the source's 32-bit variant (narrow(source)); its scalar arguments are int32
Launch = namedtuple("Launch", "kernel grid block shared_mem args narrow", defaults=(False,))

BLOCK = 256  # threads per block of elementwise and column kernels
MAX_GRID = 1 << 16  # grid-stride loops cover the rest
# __launch_bounds__(256) alone lets ptxas cap sm_90 kernels at 32 registers, which spills integer
# division; 4 resident blocks per SM allows 64
MIN_BLOCKS = 4

_HERE = os.path.dirname(os.path.abspath(__file__))
# NumPy's scalar semantics, then its complex values (complex_ops.cuh uses numpy_ops.cuh's bit casts)
# The type of indices, sizes, strides and offsets in every kernel: 64-bit, or 32-bit in the narrow variant,
# which launches use when every size and offset of theirs is at most NARROW_LIMIT (64-bit multiplies and
# divisions take several instructions each; a softmax row element costs 59 instead of 41)
WIDE_INDEX = "typedef long long ix;  // indices, sizes, strides"
NARROW_INDEX = "typedef int ix;  // indices, sizes, strides"
NARROW_LIMIT = 1 << 30  # below 2**31 with room for a grid-stride loop's last step
PRELUDE = ""
for _name in ("numpy_ops.cuh", "complex_ops.cuh"):
    with open(os.path.join(_HERE, _name)) as _f:
        PRELUDE += _f.read() + "\n"
PRELUDE += WIDE_INDEX + "\n"


def narrow(source: str) -> str:
    """The 32-bit variant of a generated source (the same kernels, `ix` an int)."""
    return source.replace(WIDE_INDEX, NARROW_INDEX, 1)


def _fits_narrow(arrays, sizes) -> bool:
    """Whether the region's elements and every array's offsets stay within NARROW_LIMIT."""
    if int(np.prod(sizes, dtype=np.int64)) > NARROW_LIMIT:
        return False
    for a in arrays:
        if a.size == 0:
            continue
        extent = sum((n - 1) * abs(st) for n, st in zip(a.shape, _elements(a)))
        if extent > NARROW_LIMIT or a.size > NARROW_LIMIT:
            return False
    return True


class Outputs:
    """Where a region's outputs are written: per output, the region axes it moves along and its own
    axis along each."""

    def __init__(self, region: Region):
        self.axes, self.dims = [], []
        for v in region.graph.outputs:
            shape = tuple(v.aval.shape)
            if isinstance(v, Literal) or region.level(v) == "full":
                pairs = [(d, d) for d in range(len(shape)) if shape[d] != 1]
            else:
                pairs = [
                    (d, i) for i, d in enumerate(outer_dims(shape, region.layout)) if d is not None
                ]
            self.axes.append(tuple(d for d, _ in pairs))
            self.dims.append(tuple(i for _, i in pairs))
        self.region = region

    def params(self) -> list[str]:
        params = []
        for k, v in enumerate(self.region.graph.outputs):
            params.append(f"{storage_type(v.aval.dtype)}* __restrict__ o{k}")
            params += [f"ix o{k}_s{j}" for j in range(len(self.axes[k]))]
        return params

    def emit_store(self, code: CodeBlock, k: int, env: dict) -> None:
        v = self.region.graph.outputs[k]
        value = self.region.expr(v, env)
        address = f"o{k}[{self.region.offset(f'o{k}', self.axes[k])}]"
        code.line(f"{address} = {store(v.aval.dtype, value)};")


def _elements(array) -> tuple:
    itemsize = np.dtype(array.dtype).itemsize
    strides = tuple(array.strides)
    if any(st % itemsize for st in strides):
        raise ValueError(f"strides {strides} are not whole elements of {array.dtype}")
    return tuple(st // itemsize for st in strides)


def check_aligned(array) -> None:
    """complex128 elements are loaded and stored as one 16-byte vector (complex_ops.cuh), which a GPU
    cannot do at an address of another alignment (NumPy asks only 8): raise before the launch would
    fault."""
    for attr in ("__cuda_array_interface__", "__array_interface__"):
        iface = getattr(array, attr, None)
        if iface is not None:
            address = int(iface["data"][0])
            if address % 16:
                raise ValueError(
                    f"a complex128 operand at address {address:#x} is not 16-byte aligned, as the "
                    "CUDA kernels load complex128 elements; pass an aligned copy (copy() aligns it)"
                )
            return


class KernelSource:
    """The kernels of one region and how to launch them (see the module docstring)."""

    def __init__(self, source, kernels, kind, region, outputs, configure):
        self.source = source
        self.kernels = tuple(kernels)
        self.name = self.kernels[0]
        self.kind = kind
        self._region = region
        self._outputs = outputs
        # sizes, inputs -> (size args, [(grid, block)] per kernel, scratch)
        self._configure = configure
        self._packs = {}
        self._configs = {}
        self._complex128 = None  # positions of complex128 arrays among inputs and outputs

    def _pack(self, inputs, outputs):
        key = tuple((tuple(a.shape), tuple(a.strides)) for a in (*inputs, *outputs))
        pack = self._packs.get(key)
        if pack is None:
            region = self._region
            strides = []
            for site in region.sites:
                own = _elements(inputs[site.input])
                strides.append([np.int64(own[i]) for i in site.dims])
            for k, dims in enumerate(self._outputs.dims):
                own = _elements(outputs[k])
                strides.append([np.int64(own[i]) for i in dims])
            sizes = self._region_shape(inputs)
            size_args, configs, scratch = self._configured(sizes)
            fits = _fits_narrow((*inputs, *outputs), sizes)
            narrowed = (
                [[np.int32(v) for v in s] for s in strides],
                [np.int32(v) for v in size_args],
            )
            pack = (strides, size_args, configs, scratch, fits, narrowed)
            if len(self._packs) > 64:
                self._packs.clear()
            self._packs[key] = pack
        return pack

    def _region_shape(self, inputs):
        """The region's iteration shape for these inputs (sizes are arguments: shapes may change)."""
        region = self._region
        shape = list(region.shape)
        for site in region.sites:
            for d, i in zip(site.axes, site.dims):
                shape[d] = inputs[site.input].shape[i]
        return tuple(int(n) for n in shape)

    def scratch(self, inputs) -> list:
        """(shape, dtype) of each scratch buffer the launches take, in order."""
        return list(self._pack_scratch(inputs))

    def _pack_scratch(self, inputs):
        return self._configured(self._region_shape(inputs))[2]

    def _configured(self, sizes):
        """configure(sizes), computed once per region shape."""
        config = self._configs.get(sizes)
        if config is None:
            config = self._configure(sizes)
            if len(self._configs) > 64:
                self._configs.clear()
            self._configs[sizes] = config
        return config

    def launches(self, inputs, outputs, scratch=(), narrow=None) -> list:
        """The launches computing `outputs` from `inputs` (see the module docstring): of the 32-bit
        variant where the sizes allow it, unless narrow=False."""
        pool = (*inputs, *outputs, *scratch)
        for k in self.complex128(inputs, outputs):
            check_aligned(pool[k])
        result = []
        for kernel, grid, block, shared, args, use in self.layout(inputs, outputs, narrow):
            args = tuple(pool[a] if k is None else a for a, k in args)
            result.append(Launch(kernel, grid, block, shared, args, use))
        return result

    def complex128(self, inputs, outputs) -> list:
        """The positions among inputs and outputs of complex128 arrays, whose alignment a launch needs."""
        if self._complex128 is None:  # the dtypes are the region's: found once
            arrays = (*inputs, *outputs)
            self._complex128 = [k for k, a in enumerate(arrays) if a.dtype == np.complex128]
        return self._complex128

    def layout(self, inputs, outputs, narrow=None) -> list:
        """The launches for arrays of these shapes and strides, each (kernel, grid, block, shared memory
        bytes, args, narrow): an argument is (k, None) for array k of the inputs, then the outputs, then
        the scratch buffers, and (value, True) for a size or stride."""
        strides, size_args, configs, _, fits, narrowed = self._pack(inputs, outputs)
        use = fits if narrow is None else fits and narrow
        if use:
            strides, size_args = narrowed
        sites = self._region.sites
        array_args = []
        for k, site in enumerate(sites):
            array_args += [(site.input, None), *[(st, True) for st in strides[k]]]
        for k in range(len(outputs)):
            array_args += [(len(inputs) + k, None), *[(st, True) for st in strides[len(sites) + k]]]
        size_args = [(n, True) for n in size_args]
        first_scratch = len(inputs) + len(outputs)
        result = []
        for kernel, config in zip(self.kernels, configs):
            if config is None:  # a kernel these sizes do not need
                continue
            grid, block, extra, *shared = config  # shared: bytes of dynamic shared memory
            args = (*array_args, *size_args, *[(first_scratch + j, None) for j in extra])
            result.append((kernel, grid, block, shared[0] if shared else 0, args, use))
        return result


def named(text: str, kind: str, placeholders=("KERNEL",)) -> tuple:
    """The source with each placeholder kernel name replaced by a name made from the text's hash (the
    source of one structure is the same text, whatever the sizes), and the names."""
    digest = key_of(text)[:16]
    names = [
        f"as_{kind}_{digest}" + (f"_{p.lower()}" if len(placeholders) > 1 else "")
        for p in placeholders
    ]
    for placeholder, name in zip(placeholders, names):
        text = text.replace(f"__{placeholder}__", name)
    return PRELUDE + "\n" + text, names


def _elementwise(region: Region) -> KernelSource:
    outputs = Outputs(region)
    sizes = [f"ix n{d}" for d in range(region.rank)]
    params = region.site_params() + outputs.params() + sizes + ["ix total"]
    code = CodeBlock()
    code.line(f'extern "C" __global__ void __launch_bounds__({BLOCK}, {MIN_BLOCKS}) __KERNEL__(')
    code.line("    " + ", ".join(params) + ") {")
    code.depth += 1
    code.line("const ix step = (ix)gridDim.x * blockDim.x;")
    with code.block(
        "for (ix i = (ix)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {"
    ):
        code.line("ix rest = i;")
        for d in reversed(range(region.rank)):
            if d:
                code.line(f"const ix i{d} = rest % n{d};")
                code.line(f"rest /= n{d};")
            else:
                code.line("const ix i0 = rest;")
        env = {}
        targets = list(region.graph.outputs)
        for k in region.sites_used(targets, env):
            region.emit_load(code, k)
        region.emit_values(code, targets, env)
        for k in range(len(targets)):
            outputs.emit_store(code, k, env)
    code.line("}")
    code.depth -= 1
    code.line("}")

    def configure(shape):
        total = int(np.prod(shape, dtype=np.int64))
        grid = max(1, min(-(-total // BLOCK), MAX_GRID))
        args = [np.int64(n) for n in shape] + [np.int64(total)]
        return args, [((grid,), (BLOCK,), ())], []

    source, names = named(code.text(), "map")
    return KernelSource(source, names, "elementwise", region, outputs, configure)


def why_not(eqn) -> str | None:
    """Why the region of `eqn` (or the argmax/argmin/cumulative equation) is not lowered to CUDA, or
    None if it is."""
    from arraystack.backends.cupy import cuda_codegen_axis as axis

    if eqn.prim in axis.ARG_REDUCTIONS or eqn.prim in axis.SCANS:
        return axis.axis_reason(eqn)
    if eqn.prim is not fusion_p:
        return f"no CUDA kernel of its own for {eqn.prim.name}"
    try:
        region = Region(eqn)
    except NotLowered as e:
        return str(e)
    if region.reductions:
        from arraystack.backends.cupy.cuda_codegen_reduce import reduction_reason

        return reduction_reason(region)
    return None


def lower_region(eqn, graph=None) -> KernelSource | None:
    """The CUDA kernels of the fusion equation `eqn` (of `graph`), or of an argmax, argmin or
    cumulative equation (a region of one primitive); None when it is not lowered (why_not(eqn) says
    why)."""
    from arraystack.backends.cupy import cuda_codegen_axis as axis

    if eqn.prim in axis.ARG_REDUCTIONS or eqn.prim in axis.SCANS:
        if axis.axis_reason(eqn) is not None:
            return None
        if eqn.prim in axis.SCANS:
            return axis.lower_scan(eqn)
        return axis.lower_arg_reduction(eqn)
    if eqn.prim is not fusion_p:
        return None
    try:
        region = Region(eqn)
    except NotLowered:
        return None
    if not region.reductions:
        return _elementwise(region)
    from arraystack.backends.cupy.cuda_codegen_reduce import lower_reduction

    return lower_reduction(region)
