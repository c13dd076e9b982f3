"""Import rules of ONNX's GridSample (opsets 16 and 20), AffineGrid and RoiAlign, against `xp`
(convention: interpreter.py).

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
import math

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


def _corners(v, size):
    """Per sample coordinate along one axis: (low pixel, high pixel, weight of the high one, outside)."""
    outside = (v < -1.0) | (v > size)
    v = numpy.maximum(v, 0.0)
    low = numpy.floor(v).astype(numpy.int64)
    edge = low >= size - 1
    low = numpy.where(edge, size - 1, low)
    high = numpy.where(edge, size - 1, low + 1)
    v = numpy.where(edge, low, v)
    return low, high, v - low, outside


def _roi_align(xp, node, x, rois, batch_indices):
    """Per region (x1, y1, x2, y2, scaled by spatial_scale, shifted by half a pixel in half_pixel mode),
    each of the output_height x output_width bins averages (or, mode "max", takes the largest weighted
    corner of) a grid of bilinear samples, sampling_ratio per side or ceil(bin size) where it is 0;
    samples more than a pixel outside the image count as 0. The regions are read when tracing (how many
    samples a bin takes depends on them); x is gathered, so the result is differentiable in x."""
    rois = node.static(rois, "rois of RoiAlign (how many samples a bin takes depends on them)")
    batch = node.static(batch_indices, "batch_indices of RoiAlign").reshape(-1)
    half = node.attr("coordinate_transformation_mode", "half_pixel") == "half_pixel"
    largest = node.attr("mode", "avg") == "max"
    oh, ow = int(node.attr("output_height", 1)), int(node.attr("output_width", 1))
    ratio, scale = int(node.attr("sampling_ratio", 0)), float(node.attr("spatial_scale", 1.0))
    n, c, h, w = numpy.shape(x)
    flat = xp.reshape(x, (n, c, h * w))
    outs = []
    for roi, b in zip(numpy.asarray(rois, numpy.float64).reshape(-1, 4), batch):
        x0, y0, x1, y1 = (v * scale - (0.5 if half else 0.0) for v in roi)
        rw, rh = x1 - x0, y1 - y0
        if not half:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        gh = ratio if ratio > 0 else math.ceil(rh / oh)
        gw = ratio if ratio > 0 else math.ceil(rw / ow)
        if gh <= 0 or gw <= 0:
            outs.append(xp.zeros((c, oh, ow), dtype=x.dtype))
            continue
        ys = (
            y0
            + numpy.arange(oh)[:, None] * (rh / oh)
            + (numpy.arange(gh)[None, :] + 0.5) * (rh / oh) / gh
        )
        xs = (
            x0
            + numpy.arange(ow)[:, None] * (rw / ow)
            + (numpy.arange(gw)[None, :] + 0.5) * (rw / ow) / gw
        )
        ylo, yhi, ly, yout = (a[:, :, None, None] for a in _corners(ys, h))
        xlo, xhi, lx, xout = (a[None, None, :, :] for a in _corners(xs, w))
        keep = ~(yout | xout)
        terms = []
        for yy, wy in ((ylo, 1 - ly), (yhi, ly)):
            for xx, wx in ((xlo, 1 - lx), (xhi, lx)):
                weight = numpy.where(keep, wy * wx, 0.0)
                where = numpy.where(keep, yy * w + xx, 0)  # (oh, gh, ow, gw)
                values = xp.reshape(
                    xp.take(flat[int(b)], where.reshape(-1), axis=1), (c, *where.shape)
                )
                terms.append(values * xp.asarray(weight.astype(numpy.dtype(x.dtype))))
        if largest:
            sample = xp.maximum(xp.maximum(terms[0], terms[1]), xp.maximum(terms[2], terms[3]))
            outs.append(xp.max(sample, axis=(2, 4)))
        else:
            outs.append(xp.sum(terms[0] + terms[1] + terms[2] + terms[3], axis=(2, 4)) / (gh * gw))
    if not outs:
        return xp.zeros((0, c, oh, ow), dtype=x.dtype)
    return xp.stack(outs)


def _deform_conv(xp, node, x, w, offset, bias=None, mask=None):
    """DeformConv: each kernel tap reads X at its regular position plus a learned offset (bilinear, zero
    outside the image, as GridSample with align_corners), scaled by the mask, then a grouped convolution.
    Offsets are data (gathers), so the rule runs under jit and differentiates in X, W, offset and mask."""
    import arraystack

    xp = arraystack
    n, c, *sizes = numpy.shape(x)
    oc, cg, *window = numpy.shape(w)
    out_sizes = list(numpy.shape(offset)[2:])
    r, taps = len(sizes), math.prod(window)
    group, og = node.attr("group", 1), node.attr("offset_group", 1)
    if c != cg * group or oc % group or c % og:
        raise node.error(
            f"X of {c} channels, W of shape {numpy.shape(w)}, group {group} and offset_group {og} "
            "do not fit together"
        )
    if numpy.shape(offset)[1] != og * taps * r:
        raise node.error(f"offset has {numpy.shape(offset)[1]} channels, not {og * taps * r}")
    strides = node.attr("strides", [1] * r)
    dilations = node.attr("dilations", [1] * r)
    pads = node.attr("pads", [0] * 2 * r)
    offset = xp.reshape(offset, (n, og, *window, r, *out_sizes))
    grids = numpy.meshgrid(
        *[numpy.arange(k) for k in window], *[numpy.arange(o) for o in out_sizes], indexing="ij"
    )
    per_axis = []
    for a in range(r):
        base = grids[r + a] * strides[a] - pads[a] + grids[a] * dilations[a]  # (*window, *out)
        coord = xp.astype(base, x.dtype) + offset[(slice(None), slice(None), *[slice(None)] * r, a)]
        per_axis.append(_taps(xp, coord, "linear", sizes[a], "zeros", None))
    channels_last = xp.moveaxis(xp.reshape(x, (n, og, c // og, *sizes)), 2, -1)
    lead = (n, 1) + (1,) * (2 * r)
    batch = xp.reshape(xp.arange(n), lead)
    groups = xp.reshape(xp.arange(og), (1, og) + (1,) * (2 * r))
    sampled = None
    for combo in itertools.product(*per_axis):
        weight = None
        for _, t, inside in combo:
            factor = t * xp.astype(inside, x.dtype)
            weight = factor if weight is None else weight * factor
        term = channels_last[(batch, groups, *(index for index, _, _ in combo))] * weight[..., None]
        sampled = term if sampled is None else sampled + term  # (N, og, *window, *out, C/og)
    if mask is not None:
        sampled = sampled * xp.reshape(mask, (n, og, *window, *out_sizes))[..., None]
    sampled = xp.moveaxis(sampled, -1, 2)  # (N, og, C/og, *window, *out)
    sampled = xp.reshape(sampled, (n, group, c // group, taps, math.prod(out_sizes)))
    kernels = xp.reshape(w, (group, oc // group, cg, taps))
    out = xp.einsum("ngckp,gock->ngop", sampled, kernels)
    out = xp.reshape(out, (n, oc, *out_sizes))
    if bias is not None:
        out = out + xp.reshape(bias, (1, oc) + (1,) * r)
    return xp.astype(out, x.dtype)


sampling_rules["DeformConv"] = _deform_conv
sampling_rules["GridSample"] = _grid_sample
sampling_rules["RoiAlign"] = _roi_align
sampling_rules["AffineGrid"] = _affine_grid

__all__ = ["sampling_rules"]
