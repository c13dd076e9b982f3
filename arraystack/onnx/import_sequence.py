"""ONNX's sequence and optional values, and the import rules of their operators (convention:
interpreter.py): SequenceEmpty, SequenceConstruct, SequenceInsert, SequenceErase, SequenceAt,
SequenceLength, ConcatFromSequence, SplitToSequence, SequenceMap, Optional, OptionalHasElement and
OptionalGetElement.

A sequence is a `TensorSequence`: a list of arrays whose length is known when tracing (a pytree node, so
sequences pass through If branches and loops as their tensors do). Positions (SequenceAt's, Insert's,
Erase's) must be known when tracing too. An optional is its value, or None when empty: the interpreter
already gives an omitted optional input as None, and ONNX treats the two alike.
"""

from __future__ import annotations

import numpy

from arraystack.ir.tree import register_pytree_node


class TensorSequence:
    """An ONNX sequence value: `items`, a list of arrays."""

    __slots__ = ("dtype", "items")

    def __init__(self, items, dtype=None):
        self.items = list(items)
        self.dtype = dtype  # an empty sequence's element type (SequenceEmpty's), else None

    def __len__(self):
        return len(self.items)

    def __repr__(self):
        return f"TensorSequence({self.items!r})"


register_pytree_node(
    TensorSequence,
    lambda s: (list(s.items), None if s.dtype is None else numpy.dtype(s.dtype).str),
    lambda dtype, items: TensorSequence(items, dtype),
)


def _sequence(node, value, what="input"):
    if not isinstance(value, TensorSequence):
        raise node.error(f"its {what} must be a sequence, got {type(value).__name__}")
    return value


def _position(node, position, n, insert=False):
    """A position in [-n, n - 1] (Insert's: [-n, n]) as an index into the list."""
    if position is None:
        return n if insert else n - 1
    k = node.ints(position, "position")[0]
    top = n if insert else n - 1
    if not -n <= k <= top:
        raise node.error(f"position {k} is out of range [{-n}, {top}] for a sequence of {n}")
    return k + n if k < 0 else k


def _sequence_empty(xp, node):
    from onnx import helper

    return TensorSequence([], helper.tensor_dtype_to_np_dtype(node.attr("dtype", 1)))


def _sequence_construct(xp, node, *tensors):
    return TensorSequence(tensors)


def _sequence_insert(xp, node, seq, tensor, position=None):
    items = list(_sequence(node, seq).items)
    items.insert(_position(node, position, len(items), insert=True), tensor)
    return TensorSequence(items)


def _sequence_erase(xp, node, seq, position=None):
    items = list(_sequence(node, seq).items)
    if not items:
        raise node.error("cannot erase from an empty sequence")
    del items[_position(node, position, len(items))]
    return TensorSequence(items, seq.dtype)


def _sequence_at(xp, node, seq, position):
    items = _sequence(node, seq).items
    return items[_position(node, position, len(items))]


def _sequence_length(xp, node, seq):
    return numpy.asarray(len(_sequence(node, seq)), numpy.int64)


def _concat_from_sequence(xp, node, seq):
    import arraystack

    items = _sequence(node, seq).items
    if not items:
        raise node.error("cannot concatenate an empty sequence")
    parts = [arraystack.asarray(t) for t in items]
    axis = node.attr("axis")
    if node.attr("new_axis", 0):
        return arraystack.stack(parts, axis=axis)
    return arraystack.concatenate(parts, axis=axis)


def _split_to_sequence(xp, node, x, split=None):
    import arraystack

    axis = node.attr("axis", 0)
    rank = numpy.ndim(x)
    if not -rank <= axis < rank:
        raise node.error(f"axis {axis} is out of range for an input of rank {rank}")
    axis %= rank
    n = numpy.shape(x)[axis]
    if split is None:
        parts = arraystack.split(x, n, axis=axis) if n else []
        if not node.attr("keepdims", 1):
            parts = [arraystack.squeeze(p, axis=axis) for p in parts]
        return TensorSequence(parts)
    sizes = node.static(split, "split")
    if sizes.ndim == 0:
        step = int(sizes)
        if step <= 0:
            raise node.error(f"split must be positive, got {step}")
        sizes = [step] * (n // step) + ([n % step] if n % step else [])
    else:
        sizes = [int(s) for s in sizes]
        if sum(sizes) != n or any(s < 0 for s in sizes):
            raise node.error(f"split {sizes} does not divide the {n} elements of axis {axis}")
    bounds = numpy.cumsum(sizes)[:-1].tolist()
    return TensorSequence(arraystack.split(x, bounds, axis=axis))


def _sequence_map(xp, node, seq, *others):
    body = node.attr("body")
    n = len(_sequence(node, seq))
    for k, other in enumerate(others):
        if isinstance(other, TensorSequence) and len(other) != n:
            raise node.error(f"input {k + 1} is a sequence of {len(other)}, the first of {n}")
    outs = [[] for _ in body.output]
    for i in range(n):
        values = [seq.items[i]]
        values += [o.items[i] if isinstance(o, TensorSequence) else o for o in others]
        for acc, value in zip(outs, node.run_body(body, values)):
            acc.append(value)
    return tuple(TensorSequence(acc) for acc in outs)


def _optional(xp, node, value=None):
    return value


def _optional_has_element(xp, node, value=None):
    return numpy.asarray(value is not None)


def _optional_get_element(xp, node, value=None):
    if value is None:
        raise node.error("the optional is empty")
    return value


sequence_rules = {
    "SequenceEmpty": _sequence_empty,
    "SequenceConstruct": _sequence_construct,
    "SequenceInsert": _sequence_insert,
    "SequenceErase": _sequence_erase,
    "SequenceAt": _sequence_at,
    "SequenceLength": _sequence_length,
    "ConcatFromSequence": _concat_from_sequence,
    "SplitToSequence": _split_to_sequence,
    "SequenceMap": _sequence_map,
    "Optional": _optional,
    "OptionalHasElement": _optional_has_element,
    "OptionalGetElement": _optional_get_element,
}

__all__ = ["TensorSequence", "sequence_rules"]
