"""einsum and einsum_path, lowered to diagonals (transpose/reshape/slice), sums, broadcasts and dot_general.

Subscripts are parsed into integer labels per operand (an ellipsis becomes one label per broadcast axis).
Each operand first loses its repeated labels (a strided slice of the flattened axes is the diagonal), then
operands are contracted pairwise in the order numpy.einsum_path chooses for `optimize` (left to right when
it is False). A pair contracts in one dot_general: labels both share and still need later are batch axes,
shared labels needed nowhere else are contracted, labels only one operand has and nobody needs are summed
before. So einsum traces and differentiates like any composition of primitives.
"""

from __future__ import annotations

import string
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import scalar_result, wrap
from arraystack._core.dtypes import result_type
from arraystack._core.operands import convert_raw
from arraystack._core.overrides import defers_to_numpy
from arraystack._creation.basic import asarray
from arraystack.ir.core import Tracer, bind, device_namespaces
from arraystack.ir.structural import (
    dot_general_p,
    reduce_or_p,
    reduce_sum_p,
    reshape_p,
    slice_p,
    transpose_p,
)
from arraystack.linalg import _einsum_layouts

if TYPE_CHECKING:
    from typing import Any

    from arraystack.typing import DTypeLike, NDArray

_LETTERS = string.ascii_uppercase + string.ascii_lowercase


def _from_sublists(args):
    """The interleaved form einsum(op0, sublist0, op1, sublist1, ..., [sublist_out]) as a string."""
    operands = list(args[0::2])
    sublists = list(args[1::2])
    out = None
    if len(operands) > len(sublists):
        out = operands.pop()

    def letters(sub):
        text = ""
        for s in sub:
            if s is Ellipsis:
                text += "..."
            elif isinstance(s, (int, np.integer)) and 0 <= s < 52:
                text += _LETTERS[s]
            else:
                raise ValueError(f"subscript is not within the valid range [0, 52): {s!r}")
        return text

    subscripts = ",".join(letters(s) for s in sublists)
    if out is not None:
        subscripts += "->" + letters(out)
    return subscripts, operands


def _split_labels(term, ndim, operand, next_label):
    """Integer labels of one operand's term: letters keep their code point; '...' gets fresh labels."""
    if term.count("...") > 1 or "." in term.replace("...", ""):
        raise ValueError(
            "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...')"
        )
    head, dots, tail = term.partition("...")
    for c in head + tail:
        if c not in _LETTERS:
            raise ValueError(
                f"invalid subscript '{c}' in einstein sum subscripts string, subscripts must be letters"
            )
    named = len(head) + len(tail)
    if not dots:
        if named > ndim:
            raise ValueError(
                f"einstein sum subscripts string contains too many subscripts for operand {operand}"
            )
        if named < ndim:
            raise ValueError(
                "operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                "provided to broadcast the extra dimensions."
            )
        return [ord(c) for c in head + tail], 0
    n_ell = ndim - named
    if n_ell < 0:
        raise ValueError(
            f"einstein sum subscripts string contains too many subscripts for operand {operand}"
        )
    return [ord(c) for c in head] + [-(next_label + i) for i in range(n_ell)] + [
        ord(c) for c in tail
    ], n_ell


def _parse(subscripts, shapes):
    """(labels per operand, output labels); ellipsis axes get negative labels, aligned from the right."""
    subscripts = subscripts.replace(" ", "")
    lhs, arrow, rhs = subscripts.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        more = "more" if len(shapes) > len(terms) else "fewer"
        raise ValueError(
            f"{more} operands provided to einstein sum function than specified in the subscripts string"
        )
    n_ell = max(
        (len(s) - len(t.replace("...", "")) for t, s in zip(terms, shapes) if "..." in t), default=0
    )
    labels = []
    for i, (term, shape) in enumerate(zip(terms, shapes)):
        # ellipsis axes are right-aligned: an operand with k of them takes the last k of the n_ell labels
        k = len(shape) - len(term.replace("...", "")) if "..." in term else 0
        lab, _ = _split_labels(term, len(shape), i, 1 + n_ell - k)
        labels.append(lab)
    ell = [-(1 + i) for i in range(n_ell)]
    if not arrow:
        counts = {}
        for lab in labels:
            for x in lab:
                counts[x] = counts.get(x, 0) + 1
        named = sorted(chr(x) for x, c in counts.items() if x > 0 and c == 1)
        return labels, ell + [ord(c) for c in sorted(named, key=_LETTERS.index)]
    if "..." in rhs:
        head, _, tail = rhs.partition("...")
    else:
        if n_ell:
            raise ValueError(
                "output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                "provided to broadcast the extra dimensions."
            )
        head, tail = rhs, ""
    out = [ord(c) for c in head] + (ell if "..." in rhs else []) + [ord(c) for c in tail]
    seen = set()
    used = {x for lab in labels for x in lab}
    for c in head + tail:
        if c not in _LETTERS:
            raise ValueError(
                f"invalid subscript '{c}' in einstein sum subscripts string, subscripts must be letters"
            )
        if ord(c) in seen:
            raise ValueError(
                f"einstein sum subscripts string includes output subscript '{c}' multiple times"
            )
        if ord(c) not in used:
            raise ValueError(
                f"einstein sum subscripts string included output subscript '{c}' which never appeared in an input"
            )
        seen.add(ord(c))
    return labels, out


def _label_sizes(labels, shapes):
    """The size of each label; size-1 axes broadcast against the others, as numpy.einsum allows."""
    sizes = {}
    for lab, shape in zip(labels, shapes):
        for x, d in zip(lab, shape):
            if sizes.get(x, 1) == 1:
                sizes[x] = d
            elif d not in (1, sizes[x]):
                name = chr(x) if x > 0 else "..."
                raise ValueError(
                    f"operands could not be broadcast together with remapped shapes: label '{name}' has sizes "
                    f"{sizes[x]} and {d}"
                )
    return sizes


def _diagonal(value, lab):
    """Remove repeated labels of one operand: the repeated axes' diagonal, placed last."""
    while len(set(lab)) != len(lab):
        x = next(x for x in lab if lab.count(x) > 1)
        axes = [i for i, y in enumerate(lab) if y == x]
        shape = value.shape
        n = shape[axes[0]]
        if any(shape[i] != n for i in axes):
            raise ValueError(
                f"dimensions in single operand for collapsing index '{chr(x)}' don't match "
                f"({n} != {next(shape[i] for i in axes if shape[i] != n)})"
            )
        rest = [i for i in range(len(lab)) if i not in axes]
        value = bind(transpose_p, value, permutation=tuple(rest + axes))
        base = tuple(shape[i] for i in rest)
        r = len(axes)
        value = bind(reshape_p, value, new_sizes=base + (n**r,))
        stride = sum(n**i for i in range(r))
        value = bind(
            slice_p,
            value,
            start_indices=(0,) * (len(base) + 1),
            limit_indices=base + (n**r,),
            strides=(1,) * len(base) + (max(stride, 1),),
        )
        lab = [lab[i] for i in rest] + [x]
    return value, lab


def _sum(value, lab, drop):
    axes = tuple(i for i, x in enumerate(lab) if x in drop)
    if not axes:
        return value, lab
    prim = reduce_or_p if value.dtype == np.bool_ else reduce_sum_p
    return bind(prim, value, axes=axes), [x for x in lab if x not in drop]


def _contract(a, la, b, lb, keep):
    """One dot_general of two operands with unique labels; `keep`: labels needed after this step."""
    a, la = _sum(a, la, {x for x in la if x not in lb and x not in keep})
    b, lb = _sum(b, lb, {x for x in lb if x not in la and x not in keep})
    shared = [x for x in la if x in lb]
    batch = [x for x in shared if x in keep]
    contract = [x for x in shared if x not in keep]
    dims = (
        (tuple(la.index(x) for x in contract), tuple(lb.index(x) for x in contract)),
        (tuple(la.index(x) for x in batch), tuple(lb.index(x) for x in batch)),
    )
    out = bind(dot_general_p, a, b, dimension_numbers=dims)
    return out, batch + [x for x in la if x not in lb] + [x for x in lb if x not in la]


def _path(subscripts, operands, optimize):
    """Pairs of operand positions to contract, as numpy.einsum_path lists them (shapes only)."""
    if optimize is False:
        return [tuple(range(len(operands)))]
    dummies = [np.broadcast_to(np.zeros((), x.dtype), x.shape) for x in operands]
    return np.einsum_path(subscripts, *dummies, optimize=optimize)[0][1:]


@defers_to_numpy
def einsum_path(
    *operands: Any,
    optimize: bool | str | list[Any] = "greedy",
    einsum_call: bool = False,
) -> tuple[list[Any], str]:
    """Evaluates the lowest cost contraction order for an einsum expression.

    Parameters
    ----------
    *operands : str and list of array_like
        The subscripts and operands, as for `einsum`.
    optimize : {bool, list, tuple, 'greedy', 'optimal'}
        Choose the type of path.
    einsum_call : bool, optional
        Used internally by NumPy; accepted for compatibility.

    Returns
    -------
    path : list of tuples
        A list representation of the einsum path.
    string_repr : str
        A printable report of the path.

    See Also
    --------
    numpy.einsum_path : The NumPy function this mirrors.
    einsum

    Notes
    -----
    The path is computed from the shapes only.
    """
    if isinstance(operands[0], str):
        subscripts, arrays = operands[0], operands[1:]
    else:
        subscripts, arrays = _from_sublists(operands)
    dummies = [np.broadcast_to(np.zeros((), asarray(x).dtype), asarray(x).shape) for x in arrays]
    return np.einsum_path(subscripts, *dummies, optimize=optimize, einsum_call=einsum_call)


@defers_to_numpy
def einsum(
    *operands: Any,
    out: NDArray | None = None,
    optimize: bool | str | list[Any] = False,
    dtype: DTypeLike = None,
    order: str = "K",
    casting: str = "safe",
) -> NDArray:
    """Evaluates the Einstein summation convention on the operands.

    Parameters
    ----------
    *operands : str and list of array_like
        The subscripts string followed by the operands, or the interleaved form ``einsum(op0,
        sublist0, op1, sublist1, ..., [sublistout])``.
    out : ndarray, optional
        If provided, the calculation is done into this array.
    optimize : {False, True, 'greedy', 'optimal'} or list, optional
        Controls the contraction order: False contracts left to right, True/'greedy'/'optimal'
        search for an order, and an `einsum_path` list gives one explicitly.
    dtype : data-type, optional
        If provided, forces the calculation to use this data type.
    order : {'C', 'F', 'A', 'K'}, optional
        Memory layout of the output.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        The casting allowed by `dtype`; 'safe' by default.

    Returns
    -------
    output : ndarray
        The calculation based on the Einstein summation convention.

    See Also
    --------
    numpy.einsum : The NumPy function this mirrors.
    einsum_path, dot, tensordot, linalg.multi_dot

    Notes
    -----
    Supports subscripts or interleaved sublists, ellipsis, repeated labels (diagonals and traces),
    the implicit output, size-1 broadcasting and `dtype`/`casting`/`out`. The contraction is a
    composition of dot_general primitives, so it traces, differentiates and vmaps.
    """
    if not operands:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        subscripts, arrays = operands[0], list(operands[1:])
    else:
        subscripts, arrays = _from_sublists(operands)
    arrays = [asarray(x) for x in arrays]
    dt = result_type(*arrays) if dtype is None else np.dtype(dtype)
    for i, x in enumerate(arrays):
        if not np.can_cast(x.dtype, dt, casting):
            raise TypeError(
                f"Iterator operand {i} dtype could not be cast from {x.dtype!r} to {dt!r} according to the "
                f"rule '{casting}'"
            )
    shapes = [x.shape for x in arrays]
    labels, out_labels = _parse(subscripts, shapes)
    sizes = _label_sizes(labels, shapes)
    if _einsum_layouts.is_view(arrays, labels, out_labels, out, dt):

        def lower(raw):
            raw, lab = _diagonal(raw, list(labels[0]))
            return bind(transpose_p, raw, permutation=tuple(lab.index(x) for x in out_labels))

        result = _einsum_layouts.view(arrays[0], list(labels[0]), list(out_labels), lower)
        if result is not None:
            return result
    values = []
    for x, lab in zip(arrays, labels):
        value, lab = _diagonal(convert_raw(x._value, dt), list(lab))
        # a size-1 axis broadcast against a longer one holds one value along it: drop that label here
        ones = [i for i, y in enumerate(lab) if value.shape[i] == 1 and sizes[y] != 1]
        if ones:
            lab = [y for i, y in enumerate(lab) if i not in ones]
            value = bind(
                reshape_p,
                value,
                new_sizes=tuple(value.shape[i] for i in range(len(value.shape)) if i not in ones),
            )
        values.append((value, lab))
    steps = _path(subscripts, arrays, optimize) if len(values) > 1 else [(0,)]
    for step in steps:
        group = [values[i] for i in step]
        values = [v for i, v in enumerate(values) if i not in step]
        value, lab = group[0]
        for k, (other, other_lab) in enumerate(group[1:], start=1):
            rest = [y for _, ls in values + group[k + 1 :] for y in ls]
            value, lab = _contract(value, lab, other, other_lab, set(out_labels) | set(rest))
        values.append((value, lab))
    ((value, lab),) = values
    value, lab = _sum(value, lab, {x for x in lab if x not in out_labels})
    value = bind(transpose_p, value, permutation=tuple(lab.index(x) for x in out_labels))
    result = wrap(
        value
        if type(value) is Tracer
        or isinstance(value, np.ndarray)
        or type(value) in device_namespaces
        else np.asarray(value)
    )
    if optimize is False:  # NumPy's iterator over the operands allocates the result
        result = _einsum_layouts.in_operands_order(arrays, labels, out_labels, sizes, result)
    if out is None:
        return scalar_result(result)
    from arraystack._math.elementwise import store_results

    return store_results([result], out, True, casting, 1)


__all__ = ["einsum", "einsum_path"]
