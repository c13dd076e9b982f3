"""A fusion region as the CUDA generator sees it: its layout (arraystack.ir.regions), the places where its
inputs are read (sites), and the scalar code that computes its values at one point of the iteration.

A site is one way an input is read: directly (a full, outer or scalar operand) or through a
broadcast_in_dim. Each becomes one pointer parameter and one stride parameter per region axis it moves
along, so the kernel indexes every operand as `p[i0 * s0 + i1 * s1 + ...]`: broadcasting, negative and
zero strides and any layout are the strides' business, and the source depends only on the region's
structure (ranks, dtypes, which axes each operand moves along), never on its sizes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from arraystack.backends.codeblock import CodeBlock
from arraystack.backends.cupy.lowering import (
    cupy_rules,
    literal,
    load,
    register_type,
    storage_type,
    unsupported_reason,
)
from arraystack.ir import structural as s
from arraystack.ir.ir import Literal
from arraystack.ir.regions import REDUCTIONS, region_layout

REDUCE_OPS = {
    s.reduce_sum_p: "sum",
    s.reduce_prod_p: "prod",
    s.reduce_max_p: "max",
    s.reduce_min_p: "min",
    s.reduce_and_p: "and",
    s.reduce_or_p: "or",
}


class NotLowered(Exception):
    """A region (or one of its equations) the CUDA generator does not lower; the message says why."""


@dataclass(frozen=True)
class Site:
    """Input `input` read along region axes `axes`, its own axis `dims[k]` moving along `axes[k]`."""

    input: int
    axes: tuple
    dims: tuple


def outer_dims(shape, layout) -> tuple:
    """For a value of the region's outer level: the region axis each of its axes runs along (None for
    unit axes that do not run along a kept axis)."""
    shape = tuple(shape)
    if shape == layout.outer_shape:
        return tuple(layout.kept)
    moving = [d for d in layout.kept if layout.shape[d] != 1]
    dims, k = [], 0
    for n in shape:
        if n == 1:
            dims.append(None)
        else:
            dims.append(moving[k])
            k += 1
    return tuple(dims)


class Region:
    """The analysis of one fusion equation's sub-graph. Raises NotLowered for what is not lowered."""

    def __init__(self, eqn):
        graph = eqn.params["graph"]
        self.graph = graph
        self.layout = layout = region_layout(graph)
        self.shape, self.axes, self.kept = layout.shape, layout.axes, layout.kept
        self.rank = layout.rank
        self.position = {v: k for k, v in enumerate(graph.inputs)}
        self.producer = {v: e for e in graph.eqns for v in e.outputs}
        self.names = {}
        self.sites: list[Site] = []
        self.site_of = {}  # (var, reading broadcast eqn or None) -> site index
        self.reductions = [e for e in graph.eqns if e.prim in REDUCTIONS]
        for e in graph.eqns:
            self._check(e)
        for k, v in enumerate(graph.outputs):
            if v in self.position:
                self._site(v, None)
            if not isinstance(v, Literal) and self.level(v) is None:
                raise NotLowered(f"output {k} of shape {v.aval.shape} is not placed by the layout")
            if np.dtype(v.aval.dtype).kind not in "biufc":
                raise NotLowered(f"output {k} is {v.aval.dtype}")
        for e in graph.eqns:
            for v in e.outputs:
                self.names[v] = f"v{len(self.names)}"
        self.stage = self._stages()

    def _check(self, e):
        if e.prim in REDUCTIONS:
            if tuple(e.params["axes"]) != tuple(self.axes):
                raise NotLowered(
                    f"{e.prim.name} over axes {e.params['axes']} in a region over {self.axes}"
                )
            kind = np.dtype(e.outputs[0].aval.dtype).kind
            if kind not in "biufc":
                raise NotLowered(
                    f"CUDA lowering of {e.prim.name} of {e.outputs[0].aval.dtype} is not written"
                )
        elif e.prim is s.broadcast_in_dim_p or e.prim is s.reshape_p:
            pass
        else:
            reason = unsupported_reason(e)
            if reason:
                raise NotLowered(reason)
        for v in e.outputs:
            if self.level(v) is None:
                raise NotLowered(
                    f"{e.prim.name} makes a {v.aval.shape} value the layout does not place"
                )
        for x in e.inputs:
            if isinstance(x, Literal) or x not in self.position:
                continue
            if e.prim is s.broadcast_in_dim_p:
                self._site(x, e)
            elif self.level(x) is None and tuple(x.aval.shape) != ():
                raise NotLowered(f"input of shape {x.aval.shape} read outside a broadcast")
            else:
                self._site(x, None)

    def level(self, v):
        """'full', 'outer' or None (a scalar input is 'outer': it moves along no axis)."""
        shape = tuple(v.aval.shape)
        lv = self.layout.level(shape)
        if lv is None and shape == () and v in self.position:
            return "outer"
        return lv

    def _site(self, x, reader):
        shape = tuple(x.aval.shape)
        if reader is not None:
            bd = reader.params["broadcast_dimensions"]
            pairs = [(bd[i], i) for i in range(len(shape)) if shape[i] != 1]
        elif shape == self.shape:
            pairs = [(d, d) for d in range(self.rank) if shape[d] != 1]
        else:
            pairs = [(d, i) for i, d in enumerate(outer_dims(shape, self.layout)) if d is not None]
        site = Site(self.position[x], tuple(d for d, _ in pairs), tuple(i for _, i in pairs))
        if site not in self.sites:
            self.sites.append(site)
        self.site_of[(x, reader)] = self.sites.index(site)

    def site_scope(self, k) -> str:
        """'outer' if site k moves along kept axes only (loaded once per outer point), else 'full'."""
        return "outer" if set(self.sites[k].axes) <= set(self.kept) else "full"

    def _stages(self):
        """Per reduction: 1 + the stages of the reductions its operand depends on."""
        stage = {}

        def depth(x):
            if isinstance(x, Literal) or x in self.position:
                return 0
            e = self.producer[x]
            if e.prim in REDUCTIONS:
                return stage[e]
            return max((depth(y) for y in e.inputs), default=0)

        for e in self.graph.eqns:  # graph order: a reduction's producers come first
            if e.prim in REDUCTIONS:
                stage[e] = 1 + depth(e.inputs[0])
        return stage

    def dtype(self, k) -> np.dtype:
        return np.dtype(self.graph.inputs[self.sites[k].input].aval.dtype)

    def site_params(self) -> list[str]:
        """The kernel parameters of the sites: pointer, then one stride per axis it moves along."""
        params = []
        for k, site in enumerate(self.sites):
            params.append(f"const {storage_type(self.dtype(k))}* __restrict__ p{k}")
            params += [f"ix p{k}_s{j}" for j in range(len(site.axes))]
        return params

    def offset(self, prefix, axes) -> str:
        terms = [f"i{d} * {prefix}_s{j}" for j, d in enumerate(axes)]
        return " + ".join(terms) if terms else "0"

    def emit_load(self, code: CodeBlock, k: int) -> None:
        address = f"p{k}[{self.offset(f'p{k}', self.sites[k].axes)}]"
        code.line(f"const {register_type(self.dtype(k))} x{k} = {load(self.dtype(k), address)};")

    def needed(self, targets, env) -> list:
        """The equations to emit, in graph order, to have every target given what env holds."""
        need, stack = set(), [t for t in targets if not isinstance(t, Literal)]
        while stack:
            v = stack.pop()
            if v in env or v in self.position or v in self.producer and self.producer[v] in need:
                continue
            e = self.producer[v]
            if e.prim in REDUCTIONS:
                raise AssertionError(f"{self.names[v]} is a reduction not computed yet")
            need.add(e)
            stack += [x for x in e.inputs if not isinstance(x, Literal)]
        return [e for e in self.graph.eqns if e in need]

    def expr(self, x, env, reader=None) -> str:
        if isinstance(x, Literal):
            return literal(x.value, x.aval.dtype)
        if x in env:
            return env[x]
        if x in self.position:
            return f"x{self.site_of[(x, reader)]}"
        raise AssertionError(f"value {x} is not in scope")

    def emit_values(self, code: CodeBlock, targets, env: dict) -> None:
        """Emit the statements computing `targets`; env maps values in scope to expressions (it grows)."""
        for e in self.needed(targets, env):
            out = e.outputs[0]
            if e.prim is s.broadcast_in_dim_p or e.prim is s.reshape_p:
                env[out] = self.expr(
                    e.inputs[0], env, e if e.prim is s.broadcast_in_dim_p else None
                )
                continue
            args = [self.expr(x, env) for x in e.inputs]
            name = self.names[out]
            code.line(
                f"const {register_type(out.aval.dtype)} {name} = {cupy_rules[e.prim](args, e)};"
            )
            env[out] = name

    def sites_used(self, targets, env) -> list[int]:
        """The sites the values of `targets` read, given env."""
        used = []
        for e in self.needed(targets, env):
            reader = e if e.prim is s.broadcast_in_dim_p else None
            for x in e.inputs:
                if not isinstance(x, Literal) and x in self.position and x not in env:
                    used.append(self.site_of[(x, reader)])
        for t in targets:
            if not isinstance(t, Literal) and t in self.position and t not in env:
                used.append(self.site_of[(t, None)])
        return sorted(set(used))
