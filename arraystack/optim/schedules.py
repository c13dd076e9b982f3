"""Learning-rate schedules: functions from the step count (an int32 array, traced under jit) to a
float64 0-d array. The optimizers accept one wherever they take a learning rate (optax's convention:
the first update uses schedule(0)).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import arraystack as ast

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from arraystack.typing import ArrayLike

    Schedule = Callable[[ArrayLike], ArrayLike]  # step count -> value


def _steps(count):
    return ast.asarray(count).astype(ast.float64)


def constant_schedule(value: float) -> Schedule:
    """A schedule returning `value` at every step.

    Parameters
    ----------
    value : float
        The constant.

    Returns
    -------
    callable
        ``schedule(count)``: the value at step `count` (a float64 0-d array; traceable).

    See Also
    --------
    optax.constant_schedule : the function mirrored.
    arraystack.optim.linear_schedule
    """
    value = float(value)

    def schedule(count):
        return ast.full_like(_steps(count), value)

    return schedule


def exponential_decay(
    init_value: float,
    transition_steps: int,
    decay_rate: float,
    transition_begin: int = 0,
    staircase: bool = False,
    end_value: float | None = None,
) -> Schedule:
    """A schedule ``init_value * decay_rate ** ((count - transition_begin) / transition_steps)``.

    Parameters
    ----------
    init_value : float
        The value before and at `transition_begin`.
    transition_steps : int
        Steps per factor of `decay_rate` (> 0).
    decay_rate : float
        The decay (or growth, when > 1) factor.
    transition_begin : int, optional
        Steps before the decay starts (constant before).
    staircase : bool, optional
        Decay in whole steps of `transition_steps`.
    end_value : float, optional
        Bound on the value: below when decaying, above when growing.

    Returns
    -------
    callable
        ``schedule(count)``: the value at step `count` (a float64 0-d array; traceable).

    See Also
    --------
    optax.exponential_decay : the function mirrored.
    torch.optim.lr_scheduler.ExponentialLR : the PyTorch relative.
    arraystack.optim.step_decay
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


def step_decay(init_value: float, step_size: int, gamma: float = 0.1) -> Schedule:
    """A schedule ``init_value * gamma ** floor(count / step_size)``.

    Parameters
    ----------
    init_value : float
        The initial value.
    step_size : int
        Steps between decays.
    gamma : float, optional
        Multiplicative factor per decay.

    Returns
    -------
    callable
        ``schedule(count)``: the value at step `count` (a float64 0-d array; traceable).

    See Also
    --------
    torch.optim.lr_scheduler.StepLR : the scheduler mirrored.
    arraystack.optim.exponential_decay : with staircase=True, the same.
    """
    return exponential_decay(init_value, step_size, gamma, staircase=True)


def piecewise_constant_schedule(
    init_value: float, boundaries_and_scales: dict[int, float]
) -> Schedule:
    """A schedule multiplying `init_value` by the scale of every boundary the count has reached.

    Parameters
    ----------
    init_value : float
        The value before the first boundary.
    boundaries_and_scales : dict of int to float
        ``{step: scale}``: from `step` on, the value is multiplied by `scale`.

    Returns
    -------
    callable
        ``schedule(count)``: the value at step `count` (a float64 0-d array; traceable).

    See Also
    --------
    optax.piecewise_constant_schedule : the function mirrored.
    torch.optim.lr_scheduler.MultiStepLR : the PyTorch relative (one gamma per milestone here).
    """
    items = sorted((int(b), float(s)) for b, s in boundaries_and_scales.items())

    def schedule(count):
        steps = _steps(count)
        value = ast.full_like(steps, float(init_value))
        for boundary, scale in items:
            value = ast.where(steps < boundary, value, value * scale)
        return value

    return schedule


def linear_schedule(
    init_value: float, end_value: float, transition_steps: int, transition_begin: int = 0
) -> Schedule:
    """A schedule going linearly from `init_value` to `end_value`, then flat.

    Parameters
    ----------
    init_value : float
        The value up to `transition_begin`.
    end_value : float
        The value from ``transition_begin + transition_steps`` on.
    transition_steps : int
        Length of the ramp (> 0).
    transition_begin : int, optional
        Step at which the ramp starts.

    Returns
    -------
    callable
        ``schedule(count)``: the value at step `count` (a float64 0-d array; traceable).

    See Also
    --------
    optax.linear_schedule : the function mirrored.
    arraystack.optim.linear_warmup

    Examples
    --------
    >>> from arraystack import optim
    >>> optim.linear_schedule(1.0, 0.0, transition_steps=4)(2)
    np.float64(0.5)
    """
    if transition_steps <= 0:
        raise ValueError(f"linear_schedule needs transition_steps > 0, got {transition_steps}")
    init_value, end_value = float(init_value), float(end_value)

    def schedule(count):
        done = ast.clip(_steps(count) - transition_begin, 0.0, float(transition_steps))
        return init_value + (end_value - init_value) * (done / transition_steps)

    return schedule


def cosine_decay_schedule(
    init_value: float, decay_steps: int, alpha: float = 0.0, exponent: float = 1.0
) -> Schedule:
    """A cosine decay of `init_value` over `decay_steps` steps, to ``alpha * init_value``.

    Parameters
    ----------
    init_value : float
        The initial value.
    decay_steps : int
        Steps of the decay: the value is ``init_value * ((1 - alpha) * c ** exponent + alpha)``
        with ``c = 0.5 * (1 + cos(pi * t / decay_steps))`` and ``t = min(count, decay_steps)``.
    alpha : float, optional
        The final value as a fraction of `init_value`.
    exponent : float, optional
        Power applied to the cosine term.

    Returns
    -------
    callable
        ``schedule(count)``: the value at step `count` (a float64 0-d array; traceable).

    See Also
    --------
    optax.cosine_decay_schedule : the function mirrored.
    torch.optim.lr_scheduler.CosineAnnealingLR : the PyTorch relative (SGDR without restarts).
    arraystack.optim.warmup_cosine_decay_schedule
    """
    if decay_steps <= 0:
        raise ValueError(f"cosine_decay_schedule needs decay_steps > 0, got {decay_steps}")
    init_value, alpha = float(init_value), float(alpha)

    def schedule(count):
        t = ast.minimum(_steps(count), float(decay_steps))
        cosine = 0.5 * (1.0 + ast.cos(math.pi * t / decay_steps))
        return init_value * ((1.0 - alpha) * cosine**exponent + alpha)

    return schedule


def join_schedules(schedules: Sequence[Schedule], boundaries: Sequence[int]) -> Schedule:
    """A schedule following ``schedules[i]`` from ``boundaries[i - 1]`` on, restarted at 0.

    Parameters
    ----------
    schedules : sequence of callable
        One more schedule than boundaries.
    boundaries : sequence of int
        Steps at which the next schedule takes over.

    Returns
    -------
    callable
        ``schedule(count)``: the value at step `count` (a float64 0-d array; traceable).

    See Also
    --------
    optax.join_schedules : the function mirrored.
    torch.optim.lr_scheduler.SequentialLR : the PyTorch relative.
    arraystack.optim.linear_warmup
    """
    if len(schedules) != len(boundaries) + 1:
        raise ValueError("join_schedules needs exactly one more schedule than boundaries")

    def schedule(count):
        count = ast.asarray(count)
        value = schedules[0](count)
        for boundary, later in zip(boundaries, schedules[1:]):
            value = ast.where(count < boundary, value, later(count - boundary))
        return value

    return schedule


def linear_warmup(
    schedule: Schedule | float, warmup_steps: int, init_value: float = 0.0
) -> Schedule:
    """Rise linearly from `init_value` to ``schedule(0)``, then follow `schedule`.

    Parameters
    ----------
    schedule : callable or float
        The schedule after the warmup (restarted at count 0 when the warmup ends); a number is a
        constant.
    warmup_steps : int
        Length of the warmup.
    init_value : float, optional
        The value at step 0.

    Returns
    -------
    callable
        ``schedule(count)``: the value at step `count` (a float64 0-d array; traceable).

    See Also
    --------
    torch.optim.lr_scheduler.LinearLR : the PyTorch warmup relative.
    optax.join_schedules : with optax.linear_schedule, optax's equivalent.
    arraystack.optim.join_schedules
    """
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


def warmup_cosine_decay_schedule(
    init_value: float,
    peak_value: float,
    warmup_steps: int,
    decay_steps: int,
    end_value: float = 0.0,
) -> Schedule:
    """A linear warmup to `peak_value`, then a cosine decay to `end_value`.

    Parameters
    ----------
    init_value : float
        The value at step 0.
    peak_value : float
        The value at the end of the warmup.
    warmup_steps : int
        Length of the warmup.
    decay_steps : int
        Total length, the warmup included (as optax).
    end_value : float, optional
        The final value.

    Returns
    -------
    callable
        ``schedule(count)``: the value at step `count` (a float64 0-d array; traceable).

    See Also
    --------
    optax.warmup_cosine_decay_schedule : the function mirrored.
    arraystack.optim.cosine_decay_schedule
    """
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
