"""Transformations of the IR: reverse mode (grad), forward mode (jvp), partial evaluation (linearize) and
batching (vmap). Each is a trace with a table of rules keyed by primitive; rules bind primitives, so the
result of a transformation is again a computation in the IR that can be traced, compiled or transformed."""

from arraystack.ir.ad.batching import BatchTrace, batch_rules
from arraystack.ir.ad.forward import JVPTrace, jvp_rules
from arraystack.ir.ad.reverse import NotDifferentiableError, TapeTrace, vjp_rules
from arraystack.ir.ad import (  # noqa: F401  (fill the tables)
    batch_structural,
    rules_attention,
    rules_control,
    rules_elementwise,
    rules_fft,
    rules_indexing,
    rules_linalg,
    rules_scan,
    rules_sorting,
    rules_structural,
)

__all__ = [
    "BatchTrace",
    "JVPTrace",
    "TapeTrace",
    "NotDifferentiableError",
    "batch_rules",
    "jvp_rules",
    "vjp_rules",
]
