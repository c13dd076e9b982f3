"""Import rules of ONNX's GridSample (opsets 16 and 20) and AffineGrid, against `xp` (convention:
interpreter.py).

GridSample reads X (N, C, d1..dr) at the positions of grid (N, o1..or, r), whose last axis lists the
coordinates normalized to [-1, 1] from the last spatial axis to the first (x, y, ...). Each coordinate
is mapped to a pixel position: (g + 1) / 2 * (size - 1) with align_corners, else ((g + 1) * size - 1) / 2,
whose borders are [0, size - 1] or [-0.5, size - 0.5]. A position outside them is clamped to the pixels'
range (padding_mode "border"), reflected back inside ("reflection"), or kept ("zeros": the taps outside the
image read 0). The output is a sum over the taps of the separable kernel: the nearest pixel (round half
to even), the 2 of linear or the 4 of cubic interpolation (Keys, a = -0.75) per axis, each tap read
through the same padding rule. Positions are data, so the taps are gathers: the rule runs under jit and
is differentiable in X and in the grid (linear and cubic). Arithmetic is in X's dtype, as onnx's reference
computes it.
"""

from __future__ import annotations

import itertools

import numpy

sampling_rules: dict = {}

_MODES = {"bilinear": "linear", "bicubic": "cubic"}  # opset 16's names


def _reflect(xp, x, lo, hi):
    """x reflected back into [lo, hi] by the nearer border, as often as it takes."""
    span = hi - lo
    if span <= 0:
        return xp.zeros_like(x) + lo
    below, above = x < lo, x > hi
    d = xp.where(below, lo - x, x - hi)
    turns = xp.trunc(d / span)
    r = d - turns * span
    even = turns % 2 == 0
    from_below = xp.where(even, lo + r, hi - r)
    from_above = xp.where(even, hi - r, lo + r)
    return xp.where(below, from_below, xp.where(above, from_above, x))


def _keys(t):
    """The cubic convolution weights of the 4 taps at t + 1, t, 1 - t, 2 - t (t in [0, 1))."""
    a = -0.75

    def near(s):
        return ((a + 2) * s - (a + 3)) * s * s + 1

    def far(s):
        return ((a * s - 5 * a) * s + 8 * a) * s - 4 * a

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _taps(xp, x, mode, size, padding, borders):
    """Per tap along one axis: (pixel index to read, weight or None, whether the tap reads a pixel)."""
    if mode == "nearest":
        starts, weights = [xp.round(x)], [None]
    else:
        first = xp.floor(x)
        t = x - first
        if mode == "linear":
            starts, weights = [first, first + 1], [1 - t, t]
        else:
            starts, weights = [first - 1, first, first + 1, first + 2], _keys(t)
    taps = []
    for i, w in zip(starts, weights):
        if padding == "zeros":
            inside = (i >= 0) & (i <= size - 1)
            index = xp.clip(i, 0, size - 1)
        elif padding == "border":
            inside, index = None, xp.clip(i, 0, size - 1)
        else:
            inside, index = None, xp.clip(_reflect(xp, i, *borders), 0, size - 1)
        taps.append((xp.astype(index, numpy.int64), w, inside))
    return taps


def _grid_sample(xp, node, x, grid):
    mode = node.attr("mode", "linear" if node.opset >= 20 else "bilinear")
    mode = _MODES.get(mode, mode)
    if mode not in ("nearest", "linear", "cubic"):
        raise node.error(f"GridSample mode {mode!r} is not one of nearest, linear, cubic")
    padding = node.attr("padding_mode", "zeros")
    if padding not in ("zeros", "border", "reflection"):
        raise node.error(
            f"GridSample padding_mode {padding!r} is not one of zeros, border, reflection"
        )
    align = bool(node.attr("align_corners", 0))
    shape = numpy.shape(x)
    sizes = shape[2:]
    r = len(sizes)
    grid = xp.astype(grid, x.dtype)
    per_axis = []
    for axis, size in enumerate(sizes):
        g = grid[..., r - 1 - axis]
        if align:
            c = (g + 1) / 2 * (size - 1)
            borders = (0.0, size - 1.0)
        else:
            c = ((g + 1) * size - 1) / 2
            borders = (-0.5, size - 0.5)
        if mode == "nearest":
            c = xp.round(c)
        if padding == "border":  # only positions outside the borders move (to the pixels' range)
            c = xp.where((c < borders[0]) | (c > borders[1]), xp.clip(c, 0, size - 1), c)
        elif padding == "reflection":
            c = _reflect(xp, c, *borders)
        per_axis.append(_taps(xp, c, mode, size, padding, borders))
    channels_last = xp.moveaxis(x, 1, -1)  # (N, d1..dr, C)
    batch = xp.reshape(xp.arange(shape[0]), (shape[0],) + (1,) * (numpy.ndim(grid) - 2))
    out = None
    for combo in itertools.product(*per_axis):
        values = channels_last[(batch, *(index for index, _, _ in combo))]  # (N, o1..or, C)
        weight = None
        for _, w, inside in combo:
            factor = w
            if inside is not None:
                mask = xp.astype(inside, x.dtype)
                factor = mask if factor is None else factor * mask
            if factor is not None:
                weight = factor if weight is None else weight * factor
        term = values if weight is None else values * weight[..., None]
        out = term if out is None else out + term
    return xp.astype(xp.moveaxis(out, -1, 1), x.dtype)


def _affine_grid(xp, node, theta, size):
    """The normalized sampling grid (N, d1..dr, r) of the affine maps theta (N, r, r + 1) over an output
    of `size` (N, C, d1..dr): each output pixel's normalized position (x, y, ..., 1) times theta."""
    dims = [int(n) for n in node.static(size, "size").reshape(-1)][2:]
    align = bool(node.attr("align_corners", 0))
    axes = []
    for n in reversed(dims):  # x runs along the last axis
        if align:
            axes.append(numpy.linspace(-1.0, 1.0, n) if n > 1 else numpy.zeros(1))
        else:
            axes.append((numpy.arange(n) * 2.0 + 1.0) / n - 1.0)
    mesh = numpy.meshgrid(*reversed(axes), indexing="ij")  # in the dims' order
    base = numpy.stack(
        [*reversed(mesh), numpy.ones(dims)], axis=-1
    )  # (d1..dr, r + 1): x, y, ..., 1
    base = xp.asarray(base.astype(numpy.dtype(theta.dtype)))
    return xp.einsum("...k,njk->n...j", base, theta)


sampling_rules["GridSample"] = _grid_sample
sampling_rules["AffineGrid"] = _affine_grid

__all__ = ["sampling_rules"]
