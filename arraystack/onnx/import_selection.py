"""Import rules of ONNX's Unique and NonMaxSuppression, against `xp` (convention: interpreter.py).

How many elements either returns depends on the values, so, as NonZero, they read their inputs as NumPy
arrays: they run eagerly, and under jit they raise ModelError naming the node (a model can apply them to
the outputs of a jitted part).

Unique gives NumPy's unique values (along `axis`, or of the flattened input), with the index of each
one's first occurrence, each element's index into them and their counts; `sorted=0` lists them in the
order of their first occurrences. NonMaxSuppression, per batch and class, visits the boxes whose score
exceeds score_threshold from the highest score down (ties: the lower index first) and keeps a box unless
its intersection over union with a kept one exceeds iou_threshold, up to max_output_boxes_per_class
boxes (0 when omitted: none). Boxes are corners [y1, x1, y2, x2] in either order, or [x_center,
y_center, width, height] with center_point_box; a box of no area overlaps nothing.
"""

from __future__ import annotations

import numpy

selection_rules: dict = {}


def _unique(xp, node, x):
    x = node.static(x, "input of Unique (its output size depends on it)")
    axis = node.attr("axis")
    values, first, inverse, counts = numpy.unique(
        x if axis is not None else x.reshape(-1),
        return_index=True,
        return_inverse=True,
        return_counts=True,
        axis=axis if axis is not None else None,
    )
    inverse = inverse.reshape(-1)
    if not node.attr("sorted", 1):
        order = numpy.argsort(first, kind="stable")  # by first occurrence
        rank = numpy.empty_like(order)
        rank[order] = numpy.arange(len(order))
        first, counts, inverse = first[order], counts[order], rank[inverse]
        values = numpy.take(x if axis is not None else x.reshape(-1), first, axis=axis or 0)
    outs = [
        values,
        first.astype(numpy.int64),
        inverse.astype(numpy.int64),
        counts.astype(numpy.int64),
    ]
    return tuple(outs[: max(len(node.proto.output), 1)])


def _extent(boxes, center):
    """(y_min, x_min, y_max, x_max) of each box."""
    if center:
        x, y, w, h = (boxes[:, k] for k in range(4))
        return y - h / 2, x - w / 2, y + h / 2, x + w / 2
    y1, x1, y2, x2 = (boxes[:, k] for k in range(4))
    return (
        numpy.minimum(y1, y2),
        numpy.minimum(x1, x2),
        numpy.maximum(y1, y2),
        numpy.maximum(x1, x2),
    )


def _overlaps(extent, i, kept, threshold):
    """Whether box i's intersection over union with any of the boxes `kept` exceeds `threshold`."""
    y0, x0, y1, x1 = extent
    k = numpy.asarray(kept, dtype=numpy.int64)
    h = numpy.minimum(y1[i], y1[k]) - numpy.maximum(y0[i], y0[k])
    w = numpy.minimum(x1[i], x1[k]) - numpy.maximum(x0[i], x0[k])
    inter = numpy.where((h > 0) & (w > 0), h * w, 0.0)
    area_i, area_k = (y1[i] - y0[i]) * (x1[i] - x0[i]), (y1[k] - y0[k]) * (x1[k] - x0[k])
    union = area_i + area_k - inter
    valid = (inter > 0) & (area_i > 0) & (area_k > 0) & (union > 0)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        return bool(numpy.any(valid & (inter / numpy.where(valid, union, 1) > threshold)))


def _non_max_suppression(xp, node, boxes, scores, max_boxes=None, iou=None, score_threshold=None):
    what = "input of NonMaxSuppression (its output size depends on it)"
    boxes, scores = node.static(boxes, what), node.static(scores, what)
    limit = node.static(max_boxes, "max_output_boxes_per_class")
    limit = max(int(limit.reshape(-1)[0]), 0) if limit is not None and limit.size else 0
    iou = node.static(iou, "iou_threshold")
    iou = float(iou.reshape(-1)[0]) if iou is not None and iou.size else 0.0
    floor = node.static(score_threshold, "score_threshold")
    floor = None if floor is None or not floor.size else float(floor.reshape(-1)[0])
    center = node.attr("center_point_box", 0)
    picked = []
    for b in range(boxes.shape[0]):
        extent = _extent(boxes[b], center)
        for c in range(scores.shape[1]):
            s = scores[b, c]
            candidates = numpy.arange(len(s)) if floor is None else numpy.flatnonzero(s > floor)
            order = candidates[numpy.lexsort((candidates, -s[candidates]))]  # score down, index up
            kept: list = []
            for i in order:
                if len(kept) >= limit:
                    break
                if not kept or not _overlaps(extent, i, kept, iou):
                    kept.append(int(i))
            picked.extend((b, c, i) for i in kept)
    return numpy.asarray(picked, dtype=numpy.int64).reshape(-1, 3)


selection_rules["Unique"] = _unique
selection_rules["NonMaxSuppression"] = _non_max_suppression

__all__ = ["selection_rules"]
