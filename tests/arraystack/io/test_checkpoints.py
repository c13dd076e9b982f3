"""save_tree / load_tree round trips (_io/checkpoints.py, _io/checkpoint_tree.py): every kind of leaf
and node comes back bit for bit, NumPy's own save/load of each array being the oracle."""

from __future__ import annotations

import collections
import dataclasses
import doctest
import io
import json
import os
import zipfile

import numpy
import pytest
from arraystack.ir import tree as tree_util

import arraystack
from arraystack._io import checkpoints as checkpoints_module

ALL_DTYPES = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
]  # fmt: skip
HOST_DTYPES = [
    "datetime64[D]", "datetime64[ns]", "timedelta64[s]", "<U5", "|S3", ">i4", "<f8",
    [("x", "<f4"), ("y", "<i2", (2,))], {"names": ["a", "b"], "formats": ["u1", "<f8"],
    "offsets": [0, 8], "itemsize": 16},
]  # fmt: skip


def special_values(dtype):
    """Values that a lossy path would change: NaNs with a sign and a payload, -0.0, infinities,
    extremes of integers."""
    dtype = numpy.dtype(dtype)
    if dtype.kind in "fc":
        bits = numpy.array([0x7FF8000000000001, 0xFFF8000000000000], "<u8").view("<f8")
        values = numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, 1.5, *bits, 1e-310])
        out = values.astype(dtype)
        if dtype.kind == "c":
            out.imag = values[::-1]
        return out.reshape(2, 4)
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        return numpy.array([info.min, info.max, 0, 1, 7, info.max - 1], dtype).reshape(3, 2)
    return numpy.array([True, False, True, True, False, False]).reshape(2, 3)


def host_values(dtype):
    dtype = numpy.dtype(dtype)
    if dtype.kind in "mM":
        return numpy.array([numpy.iinfo("i8").min, 0, 12345, -7], "i8").view(dtype)  # NaT first
    if dtype.kind in "US":
        return numpy.array(["ab", "", "héllo" if dtype.kind == "U" else "xyz"], dtype)
    out = numpy.zeros(3, dtype)
    out.view(numpy.uint8)[:] = numpy.arange(out.nbytes) % 251  # padding bytes included
    return out


def numpy_oracle(array):
    """What NumPy's own save and load give for `array`."""
    buffer = io.BytesIO()
    numpy.save(buffer, array, allow_pickle=False)
    buffer.seek(0)
    return numpy.load(buffer, allow_pickle=False)


def assert_same(found, expected):
    """Equal types, dtypes, shapes and bytes (NaN payloads and -0.0 included)."""
    assert type(found) is type(expected), (type(found), type(expected))
    if isinstance(expected, arraystack.ndarray | numpy.ndarray | numpy.generic):
        a, b = numpy.asarray(found), numpy.asarray(expected)
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == numpy_oracle(b).tobytes()
    elif isinstance(expected, float | complex):
        assert repr(found) == repr(expected)
        assert numpy.array(found).tobytes() == numpy.array(expected).tobytes()
    else:
        assert found == expected


def assert_same_tree(found, expected):
    found_leaves, found_def = tree_util.flatten(found)
    expected_leaves, expected_def = tree_util.flatten(expected)
    assert found_def == expected_def
    for a, b in zip(found_leaves, expected_leaves, strict=True):
        assert_same(a, b)


def round_trip(tmp_path, tree, **kwargs):
    path = tmp_path / "tree.ckpt"
    arraystack.save_tree(path, tree)
    return arraystack.load_tree(path, **kwargs)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_arrays_of_every_dtype_come_back_bit_for_bit(tmp_path, dtype):
    x = special_values(dtype)
    tree = {
        "numpy": x,
        "arraystack": arraystack.asarray(x),
        "fortran": numpy.asfortranarray(x),
        "strided": arraystack.asarray(x)[:, ::-1],
        "zero_d": arraystack.asarray(x[0, 0]),
        "empty": numpy.zeros((0, 3), dtype),
        "scalar": x.ravel()[1],
    }
    out = round_trip(tmp_path, tree)
    assert_same_tree(out, tree)
    for name in ("fortran", "strided"):  # NumPy's layout of the data is kept, values equal
        numpy.testing.assert_array_equal(numpy.asarray(out[name]), numpy.asarray(tree[name]))


@pytest.mark.parametrize("dtype", HOST_DTYPES, ids=str)
def test_host_dtypes_that_npy_holds_come_back(tmp_path, dtype):
    x = host_values(dtype)
    tree = [x, arraystack.asarray(x), x[1]]
    assert_same_tree(round_trip(tmp_path, tree), tree)


def test_long_double_numpy_arrays_come_back(tmp_path):
    x = numpy.array([1 / 3, -0.0, numpy.inf], numpy.longdouble)
    assert_same_tree(round_trip(tmp_path, {"x": x}), {"x": x})


def test_python_values_come_back_exactly(tmp_path):
    negative_nan = numpy.array([0xFFF8000000000001], "<u8").view("<f8")[0].item()
    tree = {
        "true": True,
        "int": 3,
        "big": -(2**100),
        "float": 0.1,
        "minus_zero": -0.0,
        "inf": float("inf"),
        "nan": negative_nan,
        "complex": complex(-0.0, 2.5),
        "str": "héllo ✓",
        "bytes": b"\x00\xff",
        "empty": ("", b""),
    }
    assert_same_tree(round_trip(tmp_path, tree), tree)


Point = collections.namedtuple("Point", "x y")


@tree_util.register_dataclass
@dataclasses.dataclass
class Layer:
    w: object
    b: object


class Tagged:
    """A registered node with aux data of several kinds."""

    def __init__(self, children, aux):
        self.children, self.aux = children, aux


tree_util.register_pytree_node(Tagged, lambda t: (t.children, t.aux), lambda a, c: Tagged(c, a))


def test_every_kind_of_node_comes_back(tmp_path):
    aux = ("tag", 3, 2.5, None, (True, b"x"), [1, 2], {"k": numpy.float32(0.5)}, numpy.dtype("<i2"))
    tree = {
        "dict": {"b": numpy.ones(2), "a": {}},
        "int_keys": {2: "two", 10: "ten"},
        "list": [1, [], [None]],
        "tuple": (numpy.int8(-3), ()),
        "none": None,
        "namedtuple": Point(arraystack.arange(3), Point(1.5, None)),
        "dataclass": Layer(arraystack.ones((2, 2)), arraystack.zeros(2)),
        "registered": Tagged([numpy.arange(2), "leaf"], aux),
        "masked": arraystack.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0], fill_value=-1.0),
    }
    out = round_trip(tmp_path, tree)
    assert_same_tree(out, tree)
    assert type(out["namedtuple"]) is Point and type(out["dataclass"]) is Layer
    assert out["registered"].aux == aux and out["masked"].fill_value == -1.0
    assert numpy.asarray(out["masked"].mask).tolist() == [False, True, False]


def test_an_empty_tree_and_a_lone_leaf_come_back(tmp_path):
    assert round_trip(tmp_path, None) is None
    assert round_trip(tmp_path, {}) == {}
    assert_same_tree(round_trip(tmp_path, arraystack.arange(4)), arraystack.arange(4))


def test_training_state_comes_back_and_matches_like(tmp_path):
    key = arraystack.prng.key(0)
    params = {"dense1": arraystack.nn.init_dense(key, 3, 4), "scale": arraystack.ones(())}
    state = {
        "params": params,
        "adam": arraystack.optim.adam(1e-3).init(params),
        "sgd": arraystack.optim.sgd(0.1, momentum=0.9).init(params),
        "chain": arraystack.optim.chain(
            arraystack.optim.clip_by_global_norm(1.0), arraystack.optim.adamw(1e-3)
        ).init(params),
        "key": arraystack.prng.split(key)[1],
        "step": 12,
    }
    out = round_trip(tmp_path, state, like=state)
    assert_same_tree(out, state)
    assert type(out["adam"]) is arraystack.optim.AdamState


@pytest.mark.parametrize("bit_generator", ["PCG64", "MT19937", "Philox"])
def test_a_random_generator_state_restores_its_stream(tmp_path, bit_generator):
    rng = arraystack.random.Generator(getattr(arraystack.random, bit_generator)(7))
    rng.random(5)
    out = round_trip(tmp_path, {"rng": rng.bit_generator.state})
    restored = arraystack.random.Generator(getattr(arraystack.random, bit_generator)())
    restored.bit_generator.state = out["rng"]
    numpy.testing.assert_array_equal(
        numpy.asarray(restored.random(4)), numpy.asarray(rng.random(4))
    )


def test_the_file_is_a_zip_of_npy_files_that_numpy_load_reads(tmp_path):
    x = numpy.arange(6.0).reshape(2, 3)
    path = tmp_path / "t.ckpt"
    arraystack.save_tree(path, {"w": x, "n": 1})
    with numpy.load(path, allow_pickle=False) as archive:
        numpy.testing.assert_array_equal(archive["arrays/0"], x)
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_STORED}
    assert manifest["format"] == "arraystack.checkpoint" and manifest["version"] == 1
    leaf = manifest["tree"]["children"][1]
    assert leaf["shape"] == [2, 3] and leaf["dtype"] == "<f8" and len(leaf["sha256"]) == 64


def test_saving_twice_replaces_the_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "t.ckpt"
    arraystack.save_tree(str(path), {"v": 1})
    arraystack.save_tree(path, {"v": 2})
    assert arraystack.load_tree(path) == {"v": 2}
    assert os.listdir(tmp_path) == ["t.ckpt"]


def test_numpy_save_keeps_numpy_behaviour_and_points_at_save_tree(tmp_path):
    state = arraystack.optim.adam(0.1).init({"w": numpy.ones(2)})
    path = tmp_path / "s.npy"
    arraystack.save(path, state)  # an object array, pickled, as numpy.save does
    with pytest.raises(ValueError, match="allow_pickle"):
        arraystack.load(path)  # NumPy refuses the pickle by default, as before
    assert "save_tree" in arraystack.save.__doc__


def test_the_examples_of_the_docstrings_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # they write files in the current directory
    result = doctest.testmod(checkpoints_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_arrays_on_a_cuda_device_are_saved_from_it_and_load_where_like_has_them(tmp_path):
    from arraystack.backends.cupy import standin  # cupy's stand-in: CUDA devices in host memory

    standin.install(devices=2)
    try:
        x = numpy.arange(6.0).reshape(2, 3)
        tree = {"x": arraystack.asarray(x).to_device("cuda:1"), "n": 2}
        assert tree["x"].device != arraystack.asarray(x).device
        restored = round_trip(tmp_path, tree, like=tree)
        assert str(restored["x"].device) == "cuda:1"  # where the like= leaf is
        restored = {"x": restored["x"].to_device("cpu"), "n": restored["n"]}
        out = round_trip(tmp_path, tree)
    finally:
        standin.uninstall()
    for found in (restored, out):
        assert_same_tree(found, {"x": arraystack.asarray(x), "n": 2})
    assert out["x"].device == arraystack.asarray(x).device  # without like=: the default device
