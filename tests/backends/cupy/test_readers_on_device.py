"""Readers under a default device other than the CPU (the stand-in's cuda devices): what load, loadtxt,
genfromtxt, fromfile, fromstring, frombuffer and fromiter read lands on the default device, as the
creation functions' results do (jax.numpy's readers do the same); strings, records (fromregex's) and
other host dtypes, and memory-mapped arrays, stay on the host. load_tree puts each array where its `like=` leaf is."""

from __future__ import annotations

import io

import numpy
import pytest

import arraystack as ast


def _host(x):
    return numpy.asarray(x.to_device("cpu")) if x.device != "cpu" else numpy.asarray(x)


@pytest.fixture
def files(tmp_path):
    numpy.save(tmp_path / "a.npy", numpy.arange(6.0).reshape(2, 3))
    numpy.savez(tmp_path / "b.npz", x=numpy.ones(3, numpy.float32), s=numpy.array(["a", "bc"]))
    numpy.savetxt(tmp_path / "c.txt", numpy.array([[1.5, -2.0], [0.0, 4.25]]))
    numpy.arange(5, dtype=numpy.int32).tofile(tmp_path / "d.bin")
    (tmp_path / "e.txt").write_text("1 x\n22 y\n")
    return tmp_path


def _reads(d):
    return {
        "load npy": lambda m: m.load(d / "a.npy"),
        "load npz member": lambda m: m.load(d / "b.npz")["x"],
        "loadtxt": lambda m: m.loadtxt(d / "c.txt"),
        "loadtxt unpack": lambda m: m.loadtxt(io.StringIO("1 2\n3 4"), unpack=True)[1],
        "genfromtxt": lambda m: m.genfromtxt(d / "c.txt"),
        "fromfile": lambda m: m.fromfile(d / "d.bin", dtype=numpy.int32),
        "fromstring": lambda m: m.fromstring("1 2 3", sep=" "),
        "frombuffer": lambda m: m.frombuffer(numpy.arange(4.0).tobytes()),
        "fromiter": lambda m: m.fromiter(range(4), numpy.float32),
    }


@pytest.mark.parametrize("device", ["cuda:0", "cuda:1"])
def test_readers_place_their_arrays_on_the_default_device(standin, files, device):
    for name, read in _reads(files).items():
        want = read(numpy)
        with ast.default_device(device):
            got = read(ast)
        assert got.device == device, name
        assert got.dtype == want.dtype and got.shape == want.shape, name
        numpy.testing.assert_array_equal(_host(got), want, err_msg=name)
        assert read(ast).device == "cpu", name  # outside the context: the host, as before


def test_host_dtypes_and_memory_maps_stay_on_the_host(standin, files):
    with ast.default_device("cuda"):
        assert ast.load(files / "b.npz")["s"].device == "cpu"
        mapped = ast.load(files / "a.npy", mmap_mode="r")
        assert mapped.device == "cpu"
        numpy.testing.assert_array_equal(mapped, numpy.load(files / "a.npy"))
        text = ast.loadtxt(io.StringIO("a b\nc d"), dtype=str)
        assert text.device == "cpu" and text.tolist() == [["a", "b"], ["c", "d"]]
        records = ast.fromregex(files / "e.txt", r"(\d+) (\w)", [("n", numpy.int64), ("c", "U1")])
        assert records.device == "cpu" and records["n"].tolist() == [1, 22]


def test_load_tree_puts_each_array_where_its_like_leaf_is(standin, tmp_path):
    host = {"w": numpy.arange(6.0).reshape(2, 3), "b": numpy.zeros(3, numpy.float32), "step": 4}
    path = tmp_path / "state.ckpt"
    ast.save_tree(path, {"w": ast.asarray(host["w"]), "b": ast.asarray(host["b"]), "step": 4})
    like = {
        "w": ast.zeros((2, 3), device="cuda:1"),
        "b": ast.zeros(3, numpy.float32),
        "step": 0,
    }
    loaded = ast.load_tree(path, like=like)
    assert loaded["w"].device == "cuda:1" and loaded["b"].device == "cpu" and loaded["step"] == 4
    with ast.default_device("cuda:0"):
        placed = ast.load_tree(path)
        assert ast.load_tree(path, like=like)["b"].device == "cpu"  # like= decides over the default
    assert placed["w"].device == "cuda:0" and placed["b"].device == "cuda:0"
    for tree in (loaded, placed):
        for key in ("w", "b"):
            numpy.testing.assert_array_equal(_host(tree[key]), host[key])
            assert tree[key].dtype == host[key].dtype
