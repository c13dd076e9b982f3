"""Statements that move elements: reshape, transpose/.T, expand_dims, squeeze, broadcast_to, flip,
slicing with steps, negative steps, None and Ellipsis (views of their operand); concatenate and
stack; indexing with integer arrays (constants, or an argument: a traced index), boolean masks
(constants), and take."""

from __future__ import annotations

import numpy

from tests.fuzz import facts
from tests.fuzz.program import Stmt

SLICES = (":", ":", "::2", "::-1", "1:", ":-1", "1::2", "::-2", "-2:", "1:-1:3", "2:0:-1")


def _view(g, x, text, op):
    """A statement defining a view-like value of x: it stays in x's alias group (NumPy may return
    a view)."""
    name = g.name()

    def effect(env):
        g.define(x.derived(name, env[name]), group=x.group)

    return Stmt(f"{name} = {text.format(x=x.name)}", "view", op, name, effect=effect)


def _copy(g, sources, text, family, op):
    """A statement defining a new array holding elements of the sources."""
    name = g.name()

    def effect(env):
        g.define(sources[0].derived(name, env[name], **facts.combine(sources)))

    return Stmt(f"{name} = {text}", family, op, name, effect=effect)


def build_reshape(g):
    x = g.pick()
    if x is None:
        return None
    forms = ["{x}.reshape(-1)", "{x}.reshape({x}.shape[::-1])", "np.reshape({x}, (1,) + {x}.shape)"]
    if len(x.shape) >= 1:
        forms.append("{x}.reshape({x}.shape[0], -1)")
    if len(x.shape) >= 2:
        forms.append("np.reshape({x}, ({x}.shape[0] * {x}.shape[1],) + {x}.shape[2:])")
    return _view(g, x, g.choice(forms), "reshape")


def build_transpose(g):
    x = g.pick(lambda v: len(v.shape) >= 2)
    if x is None:
        return None
    ndim = len(x.shape)
    perm = tuple(int(a) for a in g.rng.permutation(ndim))
    forms = [
        "{x}.T",
        f"np.transpose({{x}}, {perm})",
        f"np.swapaxes({{x}}, 0, {ndim - 1})",
        "np.moveaxis({x}, 0, -1)",
    ]
    return _view(g, x, g.choice(forms), "transpose")


def build_axes(g):
    """expand_dims, squeeze, x[None], flip."""
    x = g.pick()
    if x is None:
        return None
    ndim = len(x.shape)
    ones = [a for a, s in enumerate(x.shape) if s == 1]
    choice = g.rng.integers(4)
    if choice == 0 or (choice == 1 and not ones):
        axis = int(g.rng.integers(-ndim - 1, ndim + 1))
        return _view(g, x, f"np.expand_dims({{x}}, {axis})", "expand_dims")
    if choice == 1:
        axis = g.choice(ones) - (ndim if g.rng.random() < 0.5 else 0)
        form = g.choice([f"np.squeeze({{x}}, axis={axis})", "{x}.squeeze()"])
        return _view(g, x, form, "squeeze")
    if choice == 2 or ndim == 0:
        return _view(g, x, g.choice(["{x}[None]", "{x}[:, None]", "{x}[..., None]"]), "newaxis")
    axis = int(g.rng.integers(-ndim, ndim))
    return _view(g, x, g.choice([f"np.flip({{x}}, {axis})", "np.flip({x})"]), "flip")


def build_broadcast(g):
    x = g.pick()
    if x is None:
        return None
    target = g.pick(
        lambda v: v.name != x.name and len(v.shape) >= len(x.shape) and g.broadcasts(x, v, to=True)
    )
    if target is not None and g.rng.random() < 0.7:
        return _view(g, x, f"np.broadcast_to({{x}}, {target.name}.shape)", "broadcast_to")
    return _view(g, x, "np.broadcast_to({x}, (2,) + {x}.shape)", "broadcast_to")


def slice_key(g, ndim, allow_int=True) -> str:
    """A basic index of up to ndim axes: slices with steps (negative too), an integer now and then,
    None, an Ellipsis."""
    parts = []
    for _ in range(int(g.rng.integers(1, max(ndim, 1) + 1)) if ndim else 0):
        r = g.rng.random()
        if allow_int and r < 0.12:
            parts.append(g.choice(["0", "-1", "1"]))
        elif r < 0.2:
            parts.append("None")
        else:
            parts.append(g.choice(SLICES))
    if g.rng.random() < 0.15:
        parts.insert(int(g.rng.integers(len(parts) + 1)), "...")
    return ", ".join(parts) if parts else "..."


def build_slice(g):
    x = g.pick(lambda v: len(v.shape) >= 1)
    if x is None:
        return None
    return _view(g, x, "{x}[" + slice_key(g, len(x.shape)) + "]", "slice")


def build_join(g):
    x = g.pick(lambda v: len(v.shape) >= 1)
    if x is None:
        return None
    ndim = len(x.shape)
    others = g.pick(lambda v: v.name != x.name)
    second = others.name if others is not None and g.rng.random() < 0.6 else f"{x.name}[::-1]"
    sources = [x] + ([others] if second == getattr(others, "name", None) else [])
    if g.rng.random() < 0.6:
        axis = int(g.rng.integers(-ndim, ndim))
        text = f"np.concatenate([{x.name}, {second}], axis={axis})"
        return _copy(g, sources, text, "join", "concatenate")
    axis = int(g.rng.integers(-ndim - 1, ndim + 1))
    return _copy(g, sources, f"np.stack([{x.name}, {second}], axis={axis})", "join", "stack")


def build_gather(g):
    """x[integer array] with constant positions (or a traced index argument), np.take."""
    x = g.pick(lambda v: len(v.shape) >= 1)
    if x is None:
        return None
    ndim = len(x.shape)
    salt = int(g.rng.integers(1000))
    count = int(g.rng.integers(1, 6))
    index = g.pick(lambda v: v.dtype.kind in "iu" and v.name in g.index_args)
    r = g.rng.random()
    if index is not None and r < 0.35:
        text = f"{x.name}[{index.name}]"
    elif r < 0.6:
        text = f"{x.name}[indices({x.name}.shape[0], {count}, {salt})]"
    elif r < 0.8 and ndim >= 2:
        text = (
            f"{x.name}[indices({x.name}.shape[0], {count}, {salt}), "
            f"indices({x.name}.shape[1], {count}, {salt + 1})]"
        )
    else:
        axis = int(g.rng.integers(-ndim, ndim))
        text = f"np.take({x.name}, indices({x.name}.shape[{axis}], {count}, {salt}), axis={axis})"
    return _copy(g, [x], text, "gather", "gather")


def build_mask(g):
    """x[constant boolean mask] over all axes or the first one."""
    x = g.pick(lambda v: len(v.shape) >= 1)
    if x is None:
        return None
    salt = int(g.rng.integers(1000))
    if g.rng.random() < 0.5:
        text = f"{x.name}[mask({x.name}.shape, {salt})]"
    else:
        text = f"{x.name}[mask({x.name}.shape[0], {salt})]"
    return _copy(g, [x], text, "mask", "boolean_mask")


def broadcastable(a_shape, b_shape, to=False) -> bool:
    try:
        if to:
            numpy.broadcast_to(numpy.empty(a_shape, bool), b_shape)
        else:
            numpy.broadcast_shapes(a_shape, b_shape)
    except ValueError:
        return False
    return True


BUILDERS = {
    "reshape": (build_reshape, 1.2),
    "transpose": (build_transpose, 1.2),
    "axes": (build_axes, 1.0),
    "broadcast": (build_broadcast, 0.6),
    "slice": (build_slice, 1.5),
    "join": (build_join, 1.0),
    "gather": (build_gather, 1.0),
    "mask": (build_mask, 0.5),
}
