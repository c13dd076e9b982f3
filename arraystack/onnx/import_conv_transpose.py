"""Import rule of ONNX's ConvTranspose, against `xp`.

Convention: interpreter.py. A transposed convolution is a convolution (arraystack.nn.conv, so it is
differentiable and jit-compiles) of the input spread out by the strides (zeros between its elements) with
the kernel flipped and its channel axes swapped per group, padded by `dilation * (kernel - 1) - pads`.
`output_shape` gives the pads as ONNX defines (by auto_pad's SAME_UPPER/SAME_LOWER split, or all at the end
when auto_pad is NOTSET); `output_padding` adds to the end.
"""

from __future__ import annotations

import numpy

from arraystack.onnx.interpreter import dynamic

conv_transpose_rules: dict = {}


def _spread(xp, x, axis: int, stride: int):
    """`x` with stride - 1 zeros between consecutive elements along `axis`."""
    if stride == 1:
        return x
    shape = list(numpy.shape(x))
    size = shape[axis]
    zeros = xp.zeros((*shape, stride - 1), dtype=x.dtype)
    out = xp.concatenate([xp.expand_dims(x, -1), zeros], axis=-1)  # (..., size, ..., stride)
    out = xp.moveaxis(out, -1, axis + 1)
    shape[axis] = size * stride
    out = xp.reshape(out, shape)
    index = [slice(None)] * len(shape)
    index[axis] = slice(0, (size - 1) * stride + 1)
    return out[tuple(index)]


def _transposed_pads(node, sizes, window, strides, dilations, extra):
    n = len(sizes)
    pads = node.attr("pads")
    auto = node.attr("auto_pad", "NOTSET")
    output_shape = node.attr("output_shape")
    if pads is not None or (output_shape is None and auto not in ("SAME_UPPER", "SAME_LOWER")):
        pads = pads if pads is not None else [0] * (2 * n)
        return [(int(pads[i]), int(pads[i + n])) for i in range(n)]
    if output_shape is None:
        output_shape = [size * s for size, s in zip(sizes, strides)]
    output_shape = list(output_shape)[-n:]
    out = []
    for size, k, s, d, e, target in zip(sizes, window, strides, dilations, extra, output_shape):
        total = s * (size - 1) + e + (k - 1) * d + 1 - int(target)
        if auto == "SAME_UPPER":
            out.append((total // 2, total - total // 2))
        elif auto == "SAME_LOWER":
            out.append((total - total // 2, total // 2))
        else:
            out.append((0, total))
    return out


@dynamic
def _conv_transpose(xp, node, x, w, bias=None):
    import arraystack

    xp = arraystack
    nd = numpy.ndim(x) - 2
    group = int(node.attr("group", 1))
    c_in, c_out_g = numpy.shape(w)[:2]
    window = tuple(numpy.shape(w)[2:])
    strides = tuple(node.attr("strides", [1] * nd))
    dilations = tuple(node.attr("dilations", [1] * nd))
    extra = tuple(node.attr("output_padding", [0] * nd))
    if numpy.shape(x)[1] != c_in:
        raise node.error(f"the input has {numpy.shape(x)[1]} channels; W expects {c_in}")
    pads = _transposed_pads(node, numpy.shape(x)[2:], window, strides, dilations, extra)
    kernel = xp.reshape(w, (group, c_in // group, c_out_g, *window))
    kernel = xp.swapaxes(kernel, 1, 2)
    kernel = xp.reshape(kernel, (group * c_out_g, c_in // group, *window))
    kernel = xp.flip(kernel, axis=tuple(range(2, 2 + nd)))
    for axis, s in enumerate(strides):
        x = _spread(xp, x, axis + 2, int(s))
    conv_pads, crops = [], []
    for (lo, hi), k, d, e in zip(pads, window, dilations, extra):
        lo, hi = d * (k - 1) - lo, d * (k - 1) - hi + e
        conv_pads.append((max(lo, 0), max(hi, 0)))
        crops.append((max(-lo, 0), max(-hi, 0)))
    out = arraystack.nn.conv(x, kernel, padding=conv_pads, dilation=dilations, groups=group)
    if any(lo or hi for lo, hi in crops):
        index = [slice(None), slice(None)]
        for (lo, hi), size in zip(crops, numpy.shape(out)[2:]):
            index.append(slice(lo, size - hi))
        out = out[tuple(index)]
    if bias is not None:
        out = out + xp.reshape(bias, (-1,) + (1,) * nd)
    return out


conv_transpose_rules["ConvTranspose"] = _conv_transpose

__all__ = ["conv_transpose_rules"]
