"""The exceptions arraystack raises of its own, in one public place (as `jax.errors`).

Where NumPy would raise a built-in exception for the same mistake, the class here subclasses it (a
ConcretizationError is a TypeError, an OutOfMemory a MemoryError), so code written for NumPy keeps
catching what it caught. The troubleshooting page of the user guide lists the messages and what to
do about each.

Tracing (`jit`, `grad`, `vmap`, control flow):

- `TracerError`: the base of the errors below that a traced value causes.
- `ConcretizationError`: a traced value was needed as a concrete one (`if x > 0:`, `int(x)`, a shape).
- `ShapeDependsOnDataError`: an output's shape would depend on the values (`nonzero`, boolean masks).
- `EscapedTracerError`: a traced value was used after its trace ended (kept in a global, say).
- `WriteOutsideTraceError`: a traced function wrote into an array it did not create or receive.
- `TracedRandomError`: a NumPy-stream random function was called under a transformation
  (use `arraystack.prng`).
- `NotDifferentiableError`: reverse mode reached an operation without a derivative.
- `HostDtypeError`: an array of a host dtype (datetime64, timedelta64, str, bytes), which NumPy
  computes eagerly, met a trace (a `jit` argument, a capture, or one made inside).

Running and compiling:

- `OutOfMemory`: a step would exceed `arraystack.config.memory_limit` (raised before allocating).
- `PlanError`: the planner cannot place a graph on the devices asked for.
- `BackendUnavailable`: a registered backend cannot run here (its message says why).
- `PassError`: an optimizer pass broke the graph it was given (a bug: please report it).
- `TypecheckError`: a graph is ill-typed (one built or parsed by hand, or a pass's bug).
- `IRParseError`: the text given to `arraystack.ir.parse_graph` is not a graph.
"""

from arraystack._core.config import OutOfMemory
from arraystack._transforms.aliasing import WriteOutsideTraceError
from arraystack.backends.planner import PlanError
from arraystack.backends.registry import BackendUnavailable
from arraystack.ir.ad.reverse import NotDifferentiableError
from arraystack.ir.core import (
    ConcretizationError,
    EscapedTracerError,
    HostDtypeError,
    ShapeDependsOnDataError,
    TracerError,
)
from arraystack.ir.ir import TypecheckError
from arraystack.ir.parser import IRParseError
from arraystack.ir.passes.pipeline import PassError
from arraystack.random._boundary import TracedRandomError

__all__ = [
    "BackendUnavailable",
    "ConcretizationError",
    "EscapedTracerError",
    "HostDtypeError",
    "IRParseError",
    "NotDifferentiableError",
    "OutOfMemory",
    "PassError",
    "PlanError",
    "ShapeDependsOnDataError",
    "TracedRandomError",
    "TracerError",
    "TypecheckError",
    "WriteOutsideTraceError",
]
