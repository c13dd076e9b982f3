"""Import rules of ONNX's Resize (opsets 10-19) and Upsample (opsets 7-9), against `xp`.

Convention: interpreter.py. Resizing is separable: each resized axis in turn maps every output position y
to a source coordinate x (coordinate_transformation_mode), and the output is a weighted sum of the input
at the n positions nearest to x (ties to the smaller; positions beyond the edges read the edge), with
weights from the mode: one position for "nearest" (nearest_mode rounds x), two for "linear", four for
"cubic" (cubic_coeff_a), more where antialias widens the kernel by 1/scale when downsampling, and
exclude_outside renormalizes the weights of positions inside the input. The tables of positions and
weights depend on sizes only, so they are computed in float64 when the function is traced; the sums run
in float64 and round once into the input's dtype (integers round half to even and saturate), as the ONNX
reference computes them. Sizes, scales and roi must be known when tracing.
"""

from __future__ import annotations

import math

import numpy

resize_rules: dict = {}


def _source(mode, y, scale, n_in, n_out, roi):
    """The source coordinate of each output position `y` along one axis, and which positions lie
    outside the crop (tf_crop_and_resize: they take extrapolation_value), else None."""
    width = scale * n_in  # the output's length before rounding to n_out
    if mode == "align_corners":
        return (numpy.zeros_like(y) if width == 1 else y * (n_in - 1) / (width - 1)), None
    if mode == "asymmetric":
        return y / scale, None
    if mode == "tf_crop_and_resize":
        lo, hi = roi
        x = (
            numpy.full_like(y, (hi - lo) * (n_in - 1) / 2)
            if width == 1
            else y * (hi - lo) * (n_in - 1) / (width - 1)
        )
        x = x + lo * (n_in - 1)
        return x, (x < 0) | (x > n_in - 1)
    if mode == "pytorch_half_pixel":
        return (numpy.full_like(y, -0.5) if width == 1 else (y + 0.5) / scale - 0.5), None
    if mode == "half_pixel":
        return (y + 0.5) / scale - 0.5, None
    if mode == "half_pixel_symmetric":
        offset = n_in / 2 * (1 - n_out / width)
        return offset + (y + 0.5) / scale - 0.5, None
    raise ValueError(f"unknown coordinate_transformation_mode {mode!r}")


def _nearest(x, rounding):
    below = numpy.floor(x)
    frac = x - below
    up = {
        "round_prefer_floor": frac > 0.5,
        "round_prefer_ceil": frac >= 0.5,
        "floor": numpy.zeros_like(frac, dtype=bool),
        "ceil": frac > 0,
    }.get(rounding)
    if up is None:
        raise ValueError(f"unknown nearest_mode {rounding!r}")
    return (below + up).astype(numpy.int64)


def _cubic(t, a):
    """The cubic convolution kernel at distances |t| (Keys, with parameter a)."""
    t = numpy.abs(t)
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    far = ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return numpy.where(t <= 1, near, numpy.where(t < 2, far, 0.0))


def _weights(kind, ratio, scale, a, antialias):
    """Per output position, the weights of its n taps (n: the columns) at offsets start..start+n-1 from
    the position left of the source coordinate (`ratio` in (0, 1]: the coordinate minus that position)."""
    r = ratio[:, None]
    if antialias and scale < 1:
        reach = 1 if kind == "linear" else 2
        start = math.floor(-reach / scale) + 1
        t = (numpy.arange(start, 2 - start) - r) * scale
        w = numpy.clip(1 - numpy.abs(t), 0, 1) if kind == "linear" else _cubic(t, a)
        return w / w.sum(axis=1, keepdims=True)
    if kind == "linear":
        return numpy.concatenate([1 - r, r], axis=1)
    t = numpy.arange(-1, 3) - r  # the taps' offsets from the coordinate
    return _cubic(t, a)


def _taps(x, n):
    """The n consecutive positions nearest to each coordinate x (ties to the smaller), as (first, n)."""
    below = numpy.floor(x)
    frac = x - below
    if n % 2 == 0:
        first = below - n // 2 + (frac != 0)
    else:
        first = below - (n - 1) // 2 + (frac > 0.5)
    return first.astype(numpy.int64)[:, None] + numpy.arange(n)


def _axis_tables(node, n_in, n_out, scale, roi):
    """(input positions (n_out, n), their weights or None for nearest, extrapolated positions or None)."""
    kind = node.attr("mode", "nearest")
    legacy = node.proto.op_type == "Upsample" or node.opset < 11
    mode = "asymmetric" if legacy else node.attr("coordinate_transformation_mode", "half_pixel")
    y = numpy.arange(n_out, dtype=numpy.float64)
    x, outside = _source(mode, y, scale, n_in, n_out, roi)
    if kind == "nearest":
        rounding = "floor" if legacy else node.attr("nearest_mode", "round_prefer_floor")
        index = numpy.clip(_nearest(x, rounding), 0, n_in - 1)[:, None]
        return index, None, outside
    if kind not in ("linear", "cubic"):
        raise node.error(f"Resize mode {kind!r} is not one of nearest, linear, cubic")
    below = numpy.floor(x)
    ratio = numpy.where(
        x == below, 1.0, x - below
    )  # (0, 1]: an integer coordinate sits right of its tap
    a = float(node.attr("cubic_coeff_a", -0.75))
    weights = _weights(kind, ratio, scale, a, bool(node.attr("antialias", 0)) and not legacy)
    taps = _taps(x, weights.shape[1])
    if node.attr("exclude_outside", 0):
        weights = numpy.where((taps < 0) | (taps >= n_in), 0.0, weights)
        total = weights.sum(axis=1, keepdims=True)
        weights = weights / numpy.where(total == 0, 1.0, total)
    return numpy.clip(taps, 0, n_in - 1), weights, outside


def _plan(node, shape, roi, scales, sizes):
    """Per resized axis: (axis, output length, scale, its roi pair)."""
    rank = len(shape)
    axes = node.attr("axes")
    axes = list(range(rank)) if axes is None else [a % rank for a in axes]
    if sizes is not None and sizes.size:
        sizes = [int(s) for s in sizes.reshape(-1)]
        if len(sizes) != len(axes):
            raise node.error(f"sizes has {len(sizes)} values for {len(axes)} axes")
        scale = {a: s / shape[a] for a, s in zip(axes, sizes)}
        out = dict(zip(axes, sizes))
        policy = node.attr("keep_aspect_ratio_policy", "stretch")
        if policy != "stretch":
            if policy not in ("not_larger", "not_smaller"):
                raise node.error(f"unknown keep_aspect_ratio_policy {policy!r}")
            common = (min if policy == "not_larger" else max)(scale.values())
            scale = dict.fromkeys(axes, common)
            out = {a: int(common * shape[a] + 0.5) for a in axes}
    elif scales is not None and scales.size:
        scales = [float(s) for s in scales.reshape(-1)]
        if len(scales) != len(axes):
            raise node.error(f"scales has {len(scales)} values for {len(axes)} axes")
        scale = dict(zip(axes, scales))
        out = {a: int(s * shape[a]) for a, s in zip(axes, scales)}
    else:
        raise node.error("Resize needs scales or sizes")
    pairs = {}
    if roi is not None and roi.size:
        roi = [float(v) for v in roi.reshape(-1)]
        k = len(roi) // 2
        listed = axes if k == len(axes) else list(range(rank))
        pairs = {a: (roi[i], roi[k + i]) for i, a in enumerate(listed)}
    steps = []
    for a in axes:
        lo_hi = pairs.get(a, (0.0, 1.0))
        if out[a] == shape[a] and math.isclose(scale[a], 1.0) and lo_hi == (0.0, 1.0):
            continue  # this axis stays as it is
        steps.append((a, out[a], scale[a], lo_hi))
    return steps


def _resize(xp, node, x, roi=None, scales=None, sizes=None):
    if node.opset < 11 and node.proto.op_type == "Resize":  # Resize-10: (X, scales)
        roi, scales = None, roi
    shape = tuple(numpy.shape(x))
    statics = [
        node.static(v, what) for v, what in ((roi, "roi"), (scales, "scales"), (sizes, "sizes"))
    ]
    dtype = numpy.dtype(x.dtype)
    out = x
    weighted = False
    for axis, n_out, scale, lo_hi in _plan(node, shape, *statics):
        index, weights, outside = _axis_tables(node, shape[axis], n_out, scale, lo_hi)
        if weights is None:
            out = xp.take(out, index[:, 0], axis=axis)
        else:
            if not weighted:
                out, weighted = xp.astype(out, numpy.float64), True
            gathered = xp.take(out, index, axis=axis)  # (..., n_out, taps, ...)
            w = weights.reshape((n_out, weights.shape[1]) + (1,) * (len(shape) - axis - 1))
            out = xp.sum(gathered * w, axis=axis + 1)
        if outside is not None and outside.any():
            value = float(node.attr("extrapolation_value", 0.0))
            mask = outside.reshape((n_out,) + (1,) * (len(shape) - axis - 1))
            out = xp.where(mask, xp.asarray(value, dtype=out.dtype), out)
    if weighted and dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        out = xp.clip(xp.round(out), info.min, info.max)
    return xp.astype(out, dtype) if out.dtype != dtype else out


def _upsample(xp, node, x, scales=None):
    if scales is None:  # Upsample-7: scales as an attribute
        scales = numpy.asarray(node.attr("scales"), dtype=numpy.float32)
    return _resize(xp, node, x, None, scales, None)


resize_rules["Resize"] = _resize
resize_rules["Upsample"] = _upsample

__all__ = ["resize_rules"]
