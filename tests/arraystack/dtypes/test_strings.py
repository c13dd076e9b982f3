"""str_ and bytes_ arrays (host dtypes), arraystack.strings, arraystack.char and arraystack.dtypes: eager
results are NumPy's."""

from __future__ import annotations

import numpy
import pytest

import arraystack

WORDS = numpy.array(["ab", "Cd e", "", "xyz  ", "12"])
BYTES = numpy.array([b"ab", b"c", b"", b"de f"])


def test_asarray_of_numpy_strings_is_an_arraystack_array():
    # the reproducers: they raised "arraystack does not support dtype <U2" (and |S1)
    x = arraystack.asarray(numpy.array(["ab"]))
    assert isinstance(x, arraystack.ndarray) and x.dtype == numpy.dtype("<U2")
    y = arraystack.asarray(numpy.array([b"a"]))
    assert isinstance(y, arraystack.ndarray) and y.dtype == numpy.dtype("|S1")
    assert repr(x) == "array(['ab'], dtype='<U2')"


OPERATIONS = {
    "add": lambda xp, w: w + w,
    "add_python": lambda xp, w: w + "!",
    "equal": lambda xp, w: w == "ab",
    "less": lambda xp, w: w < w[::-1],
    "sort": lambda xp, w: xp.sort(w),
    "unique": lambda xp, w: xp.unique(w, return_counts=True),
    "where": lambda xp, w: xp.where(w == "", "-", w),
    "concatenate": lambda xp, w: xp.concatenate([w, w[:2]]),
    "index": lambda xp, w: w[1],
    "fancy": lambda xp, w: w[[0, 3]],
    "reshape": lambda xp, w: w[:4].reshape(2, 2).T,
    "astype_bytes": lambda xp, w: w.astype("S"),
    "astype_int_refused": lambda xp, w: w.astype(int),
    "isin": lambda xp, w: xp.isin(w, ["ab", "12"]),
    "argsort": lambda xp, w: xp.argsort(w, kind="stable"),
    "multiply_refused": lambda xp, w: w * 2.5,
    "zeros_like": lambda xp, w: xp.zeros_like(w),
    "ones_like": lambda xp, w: xp.ones_like(w),
    "full_like": lambda xp, w: xp.full_like(w, "zz"),
    "tolist": lambda xp, w: w.tolist(),
}


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_operations_on_str_arrays_match_numpy(parity, name):
    parity(OPERATIONS[name], WORDS, traced=False)


def test_assignment_truncates_as_numpy(parity):
    def assign(xp, w):
        w[0] = "a long word"
        w[1:3] = "q"
        return w

    parity(assign, WORDS, traced=False)


@pytest.mark.parametrize(
    "make",
    [
        lambda xp: xp.zeros(2, "U3"),
        lambda xp: xp.ones((2,), "S2"),
        lambda xp: xp.full(3, "ab"),
        lambda xp: xp.asarray(["a", "bc"], dtype="S"),
        lambda xp: xp.array(["x", "yy"], ndmin=2),
        lambda xp: xp.asarray([1, 22]).astype(str),
    ],
)
def test_creation(parity, make):
    parity(make, traced=False)


STRINGS = {
    "upper": lambda xp, w: xp.strings.upper(w),
    "str_len": lambda xp, w: xp.strings.str_len(w),
    "find": lambda xp, w: xp.strings.find(w, "b"),
    "replace": lambda xp, w: xp.strings.replace(w, "b", "BB"),
    "strip": lambda xp, w: xp.strings.strip(w),
    "startswith": lambda xp, w: xp.strings.startswith(w, "a"),
    "center": lambda xp, w: xp.strings.center(w, 7, "*"),
    "zfill": lambda xp, w: xp.strings.zfill(w, 4),
    "isdigit": lambda xp, w: xp.strings.isdigit(w),
    "partition": lambda xp, w: xp.strings.partition(w, " "),
    "slice": lambda xp, w: xp.strings.slice(w, 1, 3),
    "encode": lambda xp, w: xp.strings.encode(w),
    "add_python_string": lambda xp, w: xp.strings.add("pre-", w),
    "multiply": lambda xp, w: xp.strings.multiply(w, 2),
    "index_missing_raises": lambda xp, w: xp.strings.index(w, "q"),
    "upper_of_numbers_raises": lambda xp, w: xp.strings.upper(xp.arange(3)),
    "char_upper": lambda xp, w: xp.char.upper(w),
    "char_equal": lambda xp, w: xp.char.equal(w, "ab"),
    "char_count": lambda xp, w: xp.char.count(w, "b"),
    "char_join": lambda xp, w: xp.char.join("-", w),
    "char_str_len": lambda xp, w: xp.char.str_len(w),
}


@pytest.mark.parametrize("name", sorted(STRINGS))
def test_string_functions_match_numpy(parity, name):
    parity(STRINGS[name], WORDS, traced=False)


@pytest.mark.parametrize(
    "fn",
    [
        lambda xp, b: xp.strings.decode(b),
        lambda xp, b: xp.strings.upper(b),
        lambda xp, b: b + b,
        lambda xp, b: xp.sort(b),
        lambda xp, b: xp.char.center(b, 6),
    ],
)
def test_bytes(parity, fn):
    parity(fn, BYTES, traced=False)


def test_python_string_arguments():
    out = arraystack.strings.upper("abc")
    assert isinstance(out, arraystack.ndarray)
    assert repr(out) == repr(numpy.strings.upper("abc"))


def test_char_split_keeps_numpy_s_object_array():
    # Note: object arrays are not arraystack arrays yet; NumPy's object result comes back as it is
    out = arraystack.char.split(arraystack.asarray(WORDS))
    expected = numpy.char.split(WORDS)
    assert out.dtype == object and out.tolist() == expected.tolist()


def test_modules_list_numpy_s_functions():
    assert sorted(arraystack.strings.__all__) == sorted(numpy.strings.__all__)
    assert sorted(arraystack.char.__all__) == sorted(numpy.char.__all__)
    assert arraystack.char.chararray is numpy.char.chararray
    assert arraystack.strings.upper.__wrapped__ is numpy.strings.upper


def test_dtypes_are_numpy_s_classes():
    assert sorted(arraystack.dtypes.__all__) == sorted(numpy.dtypes.__all__)
    for name in numpy.dtypes.__all__:
        assert getattr(arraystack.dtypes, name) is getattr(numpy.dtypes, name)
    assert isinstance(arraystack.asarray(WORDS).dtype, arraystack.dtypes.StrDType)
    assert arraystack.str_ is numpy.str_ and arraystack.bytes_ is numpy.bytes_
