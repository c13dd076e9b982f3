"""arraystack.optim: pure functional optimizers over pytrees, usable inside arraystack.jit.

The interface is optax's: an optimizer is a GradientTransformation with

    state = opt.init(params)
    updates, state = opt.update(grads, state, params)
    params = optim.apply_updates(params, updates)

Learning rates are numbers or schedules (functions of the step count kept in the state). This module
is the table of contents: import blocks and __all__.
"""

from arraystack.optim.adaptive import AdagradState, RmspropState, adagrad, rmsprop
from arraystack.optim.optimizers import AdamState, SgdState, adam, adamw, sgd
from arraystack.optim.schedules import (
    constant_schedule,
    cosine_decay_schedule,
    exponential_decay,
    join_schedules,
    linear_schedule,
    linear_warmup,
    piecewise_constant_schedule,
    step_decay,
    warmup_cosine_decay_schedule,
)
from arraystack.optim.transforms import (
    EmptyState,
    GradientTransformation,
    apply_updates,
    chain,
    clip_by_global_norm,
    global_norm,
)

__all__ = [
    "AdagradState",
    "AdamState",
    "EmptyState",
    "GradientTransformation",
    "RmspropState",
    "SgdState",
    "adagrad",
    "adam",
    "adamw",
    "apply_updates",
    "chain",
    "clip_by_global_norm",
    "constant_schedule",
    "cosine_decay_schedule",
    "exponential_decay",
    "global_norm",
    "join_schedules",
    "linear_schedule",
    "linear_warmup",
    "piecewise_constant_schedule",
    "rmsprop",
    "sgd",
    "step_decay",
    "warmup_cosine_decay_schedule",
]
