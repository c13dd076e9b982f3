"""Structured (record) arrays, arraystack.rec and arraystack.lib.recfunctions: host dtypes with NumPy's
eager results, and a HostDtypeError under a transformation."""

from __future__ import annotations

import io

import numpy
import numpy.lib.recfunctions as numpy_recfunctions
import pytest

import arraystack
from arraystack.errors import HostDtypeError

PEOPLE_DTYPE = [("name", "U10"), ("age", "i4"), ("weight", "f8")]
PEOPLE = numpy.array(
    [("Alice", 25, 55.0), ("Bob", 45, 85.5), ("Cathy", 37, 68.0), ("Doug", 19, 61.5)],
    dtype=PEOPLE_DTYPE,
)
NESTED = numpy.array(
    [((1, 2.0), 3), ((4, 5.0), 6)], dtype=[("inner", [("a", "i2"), ("b", "f4")]), ("c", "i8")]
)


def _assign_field(xp, p):
    p["age"] = xp.array([1, 2, 3, 4])
    return p


def _assign_row(xp, p):
    p[1] = ("Zed", 99, 1.5)
    return p


def _assign_through_row(xp, p):
    row = p[2]
    row["age"] = 7  # a row of a structured array is a view of it, in NumPy and here
    return p


OPERATIONS = {
    "field": lambda xp, p: p["age"],
    "field_mean": lambda xp, p: p["weight"].mean(),
    "field_arithmetic": lambda xp, p: p["age"] * 2 + p["weight"],
    "fields": lambda xp, p: p[["name", "weight"]],
    "row": lambda xp, p: p[1],
    "row_field": lambda xp, p: p[1]["weight"],
    "row_position": lambda xp, p: p[1][0],
    "slice": lambda xp, p: p[1:3],
    "mask": lambda xp, p: p[p["age"] > 30],
    "fancy": lambda xp, p: p[[3, 0]],
    "sort_order": lambda xp, p: xp.sort(p, order="age"),
    "sort_two_fields": lambda xp, p: xp.sort(p, order=["weight", "age"]),
    "argsort_order": lambda xp, p: xp.argsort(p, order="weight"),
    "method_sort": lambda xp, p: (p.sort(order="name"), p)[1],
    "equal": lambda xp, p: p == p[::-1],
    "concatenate": lambda xp, p: xp.concatenate([p, p[:1]]),
    "reshape": lambda xp, p: p.reshape(2, 2)["name"],
    "tolist": lambda xp, p: p.tolist(),
    "copy": lambda xp, p: p.copy(),
    "zeros_like": lambda xp, p: xp.zeros_like(p),
    "where": lambda xp, p: xp.where(p["age"] > 30, p["name"], "young"),
    "unique_field": lambda xp, p: xp.unique(p["name"]),
    "assign_field": _assign_field,
    "assign_row": _assign_row,
    "assign_through_row": _assign_through_row,
    "dtype_names": lambda xp, p: p.dtype.names,
    "view_fields": lambda xp, p: p[["age", "weight"]].view(numpy.ndarray) is not None,
    "nested": lambda xp, p: xp.asarray(NESTED)["inner"]["b"],
    "triu": lambda xp, p: xp.triu(p.reshape(2, 2)),
    "diagflat": lambda xp, p: xp.diagflat(p[:2]),
    "count_nonzero": lambda xp, p: xp.count_nonzero(p),
    "unique": lambda xp, p: xp.unique(xp.concatenate([p, p[:2]])),
    "isin": lambda xp, p: xp.isin(p, p[:2]),
    "lexsort": lambda xp, p: xp.lexsort([p["age"], p["name"]]),
}


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_operations_on_structured_arrays_match_numpy(parity, name):
    parity(OPERATIONS[name], PEOPLE, traced=False)


@pytest.mark.parametrize(
    "make",
    [
        lambda xp: xp.zeros(3, dtype=PEOPLE_DTYPE),
        lambda xp: xp.ones(2, dtype=[("a", "i4"), ("b", "f8")]),
        lambda xp: xp.full(2, (1, 2.5), dtype=[("a", "i4"), ("b", "f8")]),
        lambda xp: xp.zeros(2, dtype={"names": ["x", "y"], "formats": ["f4", "i2"]}),
        lambda xp: xp.array([(1, 2.0)], dtype="i4,f8"),
        lambda xp: xp.arange(4, dtype="i4").view([("a", "i4"), ("b", "i4")]),
        lambda xp: xp.asarray(PEOPLE)[0],
    ],
)
def test_creating_structured_arrays_matches_numpy(parity, make):
    out = parity(make, traced=False)
    assert isinstance(out, arraystack.ndarray)


def test_a_row_prints_and_converts_as_numpy_record():
    people = arraystack.asarray(PEOPLE)
    assert repr(people[1]) == repr(PEOPLE[1])
    assert str(people) == str(PEOPLE)
    # a structured scalar's own buffer format omits padding: numpy.asarray reads it through __array__
    assert numpy.asarray(people[1]) == PEOPLE[1]


def test_reading_records_from_text_matches_numpy(parity):
    text = "a,b\n1,2.5\n3,4.5"
    parity(lambda xp: xp.genfromtxt(io.StringIO(text), delimiter=",", names=True), traced=False)
    parity(
        lambda xp: xp.loadtxt(io.StringIO("1 2.5\n3 4.5"), dtype=[("i", "i4"), ("f", "f8")]),
        traced=False,
    )
    parity(
        lambda xp: xp.fromregex(io.StringIO("1312 foo\n1534  bar"), r"(\d+)\s+(...)", "i8,S3"),
        traced=False,
    )
    out = arraystack.genfromtxt(io.StringIO(text), delimiter=",", names=True)
    assert isinstance(out, arraystack.ndarray)


def test_structured_arrays_refuse_transformations():
    people = arraystack.asarray(PEOPLE)
    with pytest.raises(HostDtypeError, match=r"jit argument #0 is a structured array \(dtype"):
        arraystack.jit(lambda p: p["age"])(people)
    with pytest.raises(HostDtypeError, match=r"was given a structured array \(dtype"):
        arraystack.jit(lambda x: people["age"] + x)(arraystack.ones(4))
    with pytest.raises(HostDtypeError, match="would make a structured array"):
        arraystack.jit(lambda x: arraystack.zeros(2, dtype=PEOPLE_DTYPE))(arraystack.ones(2))


# -- arraystack.rec ----------------------------------------------------------------------------------


def _records(xp):
    return xp.rec.array(
        [(1, 2.0, "a"), (3, 4.0, "b")], dtype=[("x", "i4"), ("y", "f8"), ("s", "U2")]
    )


REC_OPERATIONS = {
    "array": _records,
    "attribute": lambda xp: _records(xp).x,
    "attribute_math": lambda xp: _records(xp).y.sum() + _records(xp).x,
    "row_attribute": lambda xp: _records(xp)[1].y,
    "row": lambda xp: _records(xp)[0],
    "slice": lambda xp: _records(xp)[1:],
    "field_method": lambda xp: _records(xp).field(1),
    "fromarrays": lambda xp: xp.rec.fromarrays(
        [xp.array([1, 2]), xp.array([3.0, 4.0])], names="a,b"
    ),
    "fromarrays_field": lambda xp: (
        xp.rec.fromarrays([xp.array([1, 2]), xp.array([3.0, 4.0])], names="a,b").b
    ),
    "fromrecords": lambda xp: xp.rec.fromrecords([(1, "x"), (2, "y")], names="n,c"),
    "fromstring": lambda xp: xp.rec.fromstring(b"\x01\x00\x02\x00", dtype=[("v", "<i2")]),
    "format_parser": lambda xp: xp.rec.format_parser("i4,f8", "a,b", None).dtype,
    "recarray_zeros": lambda xp: xp.rec.recarray((2,), dtype=[("p", "f4")]),
    "nested_attribute": lambda xp: xp.rec.array(NESTED).inner.b,
}


@pytest.mark.parametrize("name", sorted(REC_OPERATIONS))
def test_rec_matches_numpy(parity, name):
    def call(xp):
        out = REC_OPERATIONS[name](xp)
        if name == "recarray_zeros" and xp is numpy:
            out[...] = numpy.zeros((), out.dtype)  # NumPy's is uninitialized; arraystack's zeroed
        return out

    parity(call, traced=False)


def test_recarray_is_an_arraystack_array_with_attributes():
    r = _records(arraystack)
    assert isinstance(r, arraystack.recarray) and isinstance(r, arraystack.ndarray)
    assert repr(r) == repr(_records(numpy))
    assert repr(r[0]) == repr(_records(numpy)[0])
    assert isinstance(r[0], arraystack.recarray) and isinstance(r.x, arraystack.ndarray)
    assert not isinstance(r.x, arraystack.recarray)
    r.x = arraystack.array([7, 8])
    r[1].y = 9.5
    r.field("s", ["p", "q"])
    assert r.tolist() == [(7, 2.0, "p"), (8, 9.5, "q")]
    with pytest.raises(AttributeError, match="recarray has no attribute nothing"):
        r.nothing  # noqa: B018


# -- arraystack.lib.recfunctions --------------------------------------------------------------------

POINTS = numpy.array([(1, 2.0), (3, 4.0)], dtype=[("x", "f8"), ("y", "f8")])

RECFUNCTIONS = {
    "structured_to_unstructured": lambda rf, xp, p: rf.structured_to_unstructured(p),
    "unstructured_to_structured": lambda rf, xp, p: rf.unstructured_to_structured(
        xp.arange(6.0).reshape(3, 2), names=["u", "v"]
    ),
    "append_fields": lambda rf, xp, p: rf.append_fields(
        p, "z", xp.array([5.0, 6.0]), usemask=False
    ),
    "append_fields_rec": lambda rf, xp, p: rf.rec_append_fields(p, "z", xp.array([5.0, 6.0])),
    "drop_fields": lambda rf, xp, p: rf.drop_fields(p, "y"),
    "rename_fields": lambda rf, xp, p: rf.rename_fields(p, {"x": "east"}),
    "merge_arrays": lambda rf, xp, p: rf.merge_arrays((p, xp.array([7, 8])), flatten=True),
    "stack_arrays": lambda rf, xp, p: rf.stack_arrays((p, p), usemask=False),
    "repack_fields": lambda rf, xp, p: rf.repack_fields(p[["y"]]),
    "apply_along_fields": lambda rf, xp, p: rf.apply_along_fields(xp.mean, p),
    "get_names": lambda rf, xp, p: rf.get_names(p.dtype),
    "join_by": lambda rf, xp, p: rf.join_by("x", p, p, usemask=False),
    "require_fields": lambda rf, xp, p: rf.require_fields(p, [("y", "f4")]),
}


@pytest.mark.parametrize("name", sorted(RECFUNCTIONS))
def test_recfunctions_match_numpy(parity, name):
    def call(xp, p):
        rf = numpy_recfunctions if xp is numpy else arraystack.lib.recfunctions
        return RECFUNCTIONS[name](rf, xp, p)

    out = parity(call, POINTS, traced=False)
    if isinstance(out, arraystack.ndarray) or name in ("append_fields", "join_by"):
        assert isinstance(out, arraystack.ndarray)


def test_recfunctions_refuse_transformations():
    points = arraystack.asarray(POINTS)
    unstructured = arraystack.lib.recfunctions.structured_to_unstructured
    with pytest.raises(HostDtypeError, match="numpy.lib.recfunctions.structured_to_unstructured"):
        arraystack.jit(lambda x: unstructured(points) + x)(arraystack.ones(2))
