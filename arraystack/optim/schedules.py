"""Learning-rate schedules: functions from the step count (an int32 array, traced under jit) to a
float64 0-d array. The optimizers accept one wherever they take a learning rate (optax's convention:
the first update uses schedule(0)).
"""

from __future__ import annotations

import math

import arraystack as ast


def _steps(count):
    return ast.asarray(count).astype(ast.float64)


def constant_schedule(value):
    """value at every step."""
    value = float(value)

    def schedule(count):
        return ast.full_like(_steps(count), value)

    return schedule


def exponential_decay(
    init_value, transition_steps, decay_rate, transition_begin=0, staircase=False, end_value=None
):
    """init_value * decay_rate ** ((count - transition_begin) / transition_steps) (optax's).

    Constant before transition_begin; staircase=True decays in whole steps of transition_steps;
    end_value bounds the value (below when decaying, above when growing).
    """
    if transition_steps <= 0:
        raise ValueError(f"exponential_decay needs transition_steps > 0, got {transition_steps}")
    init_value, decay_rate = float(init_value), float(decay_rate)

    def schedule(count):
        elapsed = _steps(count) - transition_begin
        exponent = elapsed / transition_steps
        if staircase:
            exponent = ast.floor(exponent)
        value = ast.where(elapsed <= 0, init_value, init_value * ast.power(decay_rate, exponent))
        if end_value is not None:
            bound = ast.maximum if decay_rate < 1 else ast.minimum
            value = bound(value, float(end_value))
        return value

    return schedule


def step_decay(init_value, step_size, gamma=0.1):
    """init_value * gamma ** floor(count / step_size): PyTorch's StepLR."""
    return exponential_decay(init_value, step_size, gamma, staircase=True)


def piecewise_constant_schedule(init_value, boundaries_and_scales):
    """init_value times the product of the scales of every boundary the count has reached.

    boundaries_and_scales: {step: scale}; from `step` on, the value is multiplied by `scale`
    (optax.piecewise_constant_schedule; PyTorch's MultiStepLR with one gamma per milestone).
    """
    items = sorted((int(b), float(s)) for b, s in boundaries_and_scales.items())

    def schedule(count):
        steps = _steps(count)
        value = ast.full_like(steps, float(init_value))
        for boundary, scale in items:
            value = ast.where(steps < boundary, value, value * scale)
        return value

    return schedule


def linear_schedule(init_value, end_value, transition_steps, transition_begin=0):
    """init_value at transition_begin, linearly to end_value transition_steps later; then flat."""
    if transition_steps <= 0:
        raise ValueError(f"linear_schedule needs transition_steps > 0, got {transition_steps}")
    init_value, end_value = float(init_value), float(end_value)

    def schedule(count):
        done = ast.clip(_steps(count) - transition_begin, 0.0, float(transition_steps))
        return init_value + (end_value - init_value) * (done / transition_steps)

    return schedule


def cosine_decay_schedule(init_value, decay_steps, alpha=0.0, exponent=1.0):
    """init_value * ((1 - alpha) * (0.5 (1 + cos(pi t / decay_steps))) ** exponent + alpha),
    with t = min(count, decay_steps) (optax.cosine_decay_schedule; Loshchilov & Hutter's SGDR
    without restarts). alpha is the final value as a fraction of init_value.
    """
    if decay_steps <= 0:
        raise ValueError(f"cosine_decay_schedule needs decay_steps > 0, got {decay_steps}")
    init_value, alpha = float(init_value), float(alpha)

    def schedule(count):
        t = ast.minimum(_steps(count), float(decay_steps))
        cosine = 0.5 * (1.0 + ast.cos(math.pi * t / decay_steps))
        return init_value * ((1.0 - alpha) * cosine**exponent + alpha)

    return schedule


def join_schedules(schedules, boundaries):
    """schedules[i] from boundaries[i - 1] on, restarted at count 0 (optax.join_schedules)."""
    if len(schedules) != len(boundaries) + 1:
        raise ValueError("join_schedules needs exactly one more schedule than boundaries")

    def schedule(count):
        count = ast.asarray(count)
        value = schedules[0](count)
        for boundary, later in zip(boundaries, schedules[1:]):
            value = ast.where(count < boundary, value, later(count - boundary))
        return value

    return schedule


def linear_warmup(schedule, warmup_steps, init_value=0.0):
    """Rise linearly from init_value to schedule(0) over warmup_steps, then follow schedule
    (restarted at count 0 when the warmup ends). schedule may be a number (a constant)."""
    if not callable(schedule):
        schedule = constant_schedule(schedule)
    if warmup_steps <= 0:
        return schedule
    init_value = float(init_value)

    def warmup(count):
        peak = schedule(ast.zeros_like(ast.asarray(count)))
        fraction = ast.minimum(_steps(count), float(warmup_steps)) / warmup_steps
        return init_value + (peak - init_value) * fraction

    return join_schedules([warmup, schedule], [warmup_steps])


def warmup_cosine_decay_schedule(init_value, peak_value, warmup_steps, decay_steps, end_value=0.0):
    """Linear warmup to peak_value, then cosine decay to end_value; decay_steps counts the warmup
    too, as in optax.warmup_cosine_decay_schedule."""
    if peak_value == 0:
        return constant_schedule(0.0)
    cosine = cosine_decay_schedule(
        peak_value, max(decay_steps - warmup_steps, 1), alpha=end_value / peak_value
    )
    return linear_warmup(cosine, warmup_steps, init_value)


__all__ = [
    "constant_schedule",
    "cosine_decay_schedule",
    "exponential_decay",
    "join_schedules",
    "linear_schedule",
    "linear_warmup",
    "piecewise_constant_schedule",
    "step_decay",
    "warmup_cosine_decay_schedule",
]
