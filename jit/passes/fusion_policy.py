"""FusionPolicy: what a backend tells fuse_elementwise about the regions it can compile.

The fuse pass knows what the region model can express (regions.py: ELEMENTWISE, REDUCTIONS, layouts);
a policy narrows that to what one backend's loops compute well. run_pipeline(graph, fusion=policy) sets it
for a run; GENERIC, everything the region model can express and nothing checked, is the default.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from arraystack.ir.ir import Eqn


def _every(eqn: Eqn) -> bool:
    return True


def _none(eqn: Eqn) -> bool:
    return False


@dataclass(frozen=True)
class FusionPolicy:
    """The decisions a backend hands the fuse pass. Each predicate sees the whole equation (its
    primitive, params and the avals of its operands and results), so it can decide by dtype.

    elementwise: whether an elementwise equation (regions.ELEMENTWISE) may join a region; refused ones
        stay out as their own equations, and the rest of their chain still fuses.
    reduction: whether a reduction (regions.REDUCTIONS) may join a region.
    checked: whether an equation needs a checked variant (a fast path taken after a check of its
        arguments, block by block), which only an elementwise loop can run: such an equation joins
        regions that do not reduce, and a region holding one never takes a reduction.
    reducing_regions: whether the backend lowers regions with reductions at all; False keeps every
        reduction out of regions (elementwise regions only).
    """

    name: str
    elementwise: Callable[[Eqn], bool] = _every
    reduction: Callable[[Eqn], bool] = _every
    checked: Callable[[Eqn], bool] = _none
    reducing_regions: bool = True

    def __repr__(self):
        return f"FusionPolicy({self.name!r})"


# everything the region model can express fuses, nothing is checked
GENERIC = FusionPolicy("generic")
