"""save_tree / load_tree on bad input: objects that would need pickle, failures midway through a
write, corrupt and truncated files, unknown versions, unknown node types, trees unlike `like`."""

from __future__ import annotations

import collections
import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile

import numpy
import pytest
from arraystack.ir import tree as tree_util

import arraystack
from arraystack._io import checkpoints as checkpoints_module


class Opaque:
    pass


def state():
    return {
        "params": {"dense1": {"w": arraystack.ones((3, 4)), "b": arraystack.zeros(4)}},
        "opt": arraystack.optim.adam(0.1).init({"w": arraystack.ones(2)}),
        "step": 3,
    }


def saved(tmp_path, tree=None):
    path = tmp_path / "state.ckpt"
    arraystack.save_tree(path, state() if tree is None else tree)
    return path


def rewrite(path, replace=(), drop=(), manifest=None):
    """Rebuild the zip at `path` with entries replaced or dropped; `manifest(dict) -> dict` edits
    manifest.json and records its new checksum (a consistent file of another content)."""
    with zipfile.ZipFile(path) as archive:
        entries = {name: archive.read(name) for name in archive.namelist()}
    entries.update(dict(replace))
    if manifest is not None:
        text = json.dumps(manifest(json.loads(entries["manifest.json"]))).encode()
        entries["manifest.json"] = text
        entries["manifest.sha256"] = hashlib.sha256(text).hexdigest().encode()
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in entries.items():
            if name not in drop:
                archive.writestr(name, data)


# -- nothing is pickled -----------------------------------------------------------------------


def test_an_arbitrary_object_raises_type_error_naming_its_path_and_writes_nothing(tmp_path):
    tree = state()
    tree["params"]["dense1"]["act"] = Opaque()
    with pytest.raises(TypeError, match=r"params\['dense1'\]\['act'\] is a .*Opaque.*never pickle"):
        arraystack.save_tree(tmp_path / "x.ckpt", tree)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "leaf, error, match",
    [
        (numpy.array([1, "a"], dtype=object), ValueError, "dtype object"),
        (numpy.int64, TypeError, "is a builtins.type"),  # a class is not a value
        (print, TypeError, "builtin_function_or_method"),
        (numpy.ma.masked_array([1.0]), TypeError, "numpy.ma.MaskedArray, whose mask"),
        (collections.OrderedDict(a=1), TypeError, "OrderedDict"),
    ],
    ids=["object-array", "class", "function", "numpy-masked", "ordered-dict"],
)
def test_leaves_that_would_need_pickle_raise(tmp_path, leaf, error, match):
    with pytest.raises(error, match=match) as info:
        arraystack.save_tree(tmp_path / "x.ckpt", [1, {"k": leaf}])
    assert "[1]['k']" in str(info.value)


class WithAux:
    def __init__(self, aux):
        self.aux = aux


tree_util.register_pytree_node(WithAux, lambda n: ([], n.aux), lambda aux, c: WithAux(aux))


def test_aux_data_that_would_need_pickle_raises_naming_the_node(tmp_path):
    with pytest.raises(TypeError, match=r"aux data of the WithAux node at x.*Opaque"):
        arraystack.save_tree(tmp_path / "x.ckpt", {"x": WithAux(("ok", Opaque()))})


def test_an_object_array_in_the_file_is_never_unpickled(tmp_path):
    path = saved(tmp_path, {"w": numpy.zeros(2)})
    unpickled = []
    payload = io.BytesIO()
    numpy.save(payload, numpy.array([Unpickled(unpickled)], dtype=object), allow_pickle=True)
    rewrite(path, replace={"arrays/0.npy": payload.getvalue()}, manifest=lambda m: m)
    with pytest.raises(ValueError, match=r"arrays/0.npy.*allow_pickle=False"):
        arraystack.load_tree(path)
    assert unpickled == []


class Unpickled:
    def __init__(self, log):
        self.log = log

    def __setstate__(self, state):
        state["log"].append("unpickled")  # would record a load that executed the file
        self.__dict__.update(state)


# -- writes are atomic ------------------------------------------------------------------------


def test_a_failure_midway_leaves_the_previous_checkpoint_and_no_temporary(tmp_path, monkeypatch):
    path = saved(tmp_path)
    before = path.read_bytes()
    calls = []

    def fail_on_the_second_array(leaf, leaf_path):
        calls.append(leaf_path)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return numpy.asarray(leaf)

    monkeypatch.setattr(checkpoints_module, "_host_array", fail_on_the_second_array)
    with pytest.raises(OSError, match="No space left"):
        arraystack.save_tree(path, {"a": numpy.ones(3), "b": numpy.ones(3)})
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["state.ckpt"]
    monkeypatch.undo()
    assert arraystack.load_tree(path, like=state())["step"] == 3


def test_a_process_killed_midway_leaves_the_previous_checkpoint(tmp_path):
    path = saved(tmp_path)
    before = path.read_bytes()
    script = f"""
import os, numpy, arraystack
from arraystack._io import checkpoints
write = numpy.lib.format.write_array
def dying(file, array, **kw):
    file.write(b"partial data")
    os._exit(9)  # no cleanup, as under SIGKILL
numpy.lib.format.write_array = dying
arraystack.save_tree({str(path)!r}, {{"w": numpy.ones(1000)}})
"""
    done = subprocess.run([sys.executable, "-c", script], timeout=120, check=False)
    assert done.returncode == 9
    assert path.read_bytes() == before
    leftovers = [n for n in os.listdir(tmp_path) if n != "state.ckpt"]
    assert len(leftovers) == 1 and leftovers[0].startswith(".state.ckpt.")  # the temporary file
    assert arraystack.load_tree(path)["step"] == 3
    checkpoints = arraystack.Checkpoints(tmp_path)
    assert checkpoints.steps() == []  # temporaries are never taken for checkpoints


# -- corrupt, truncated and foreign files -----------------------------------------------------


@pytest.mark.parametrize("keep", [0, 100, 0.5, -30])
def test_a_truncated_file_names_the_file(tmp_path, keep):
    path = saved(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)] if isinstance(keep, float) else data[:keep])
    if keep == -30:  # the end of the archive is gone
        path.write_bytes(data[:-30])
    with pytest.raises(ValueError, match=rf"{path}.*(truncated|corrupt)"):
        arraystack.load_tree(path)


def test_a_flipped_byte_in_an_array_is_caught(tmp_path):
    path = saved(tmp_path, {"w": numpy.arange(1000.0)})
    data = bytearray(path.read_bytes())
    start = data.index(numpy.arange(1000.0).tobytes()[:64])
    data[start + 4000] ^= 0x10
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"arrays/0.npy.*(corrupt|checksum)"):
        arraystack.load_tree(path)


def test_an_array_that_does_not_match_its_checksum_is_named(tmp_path):
    path = saved(tmp_path)
    other = io.BytesIO()
    numpy.save(other, numpy.full(4, 7.0))
    rewrite(path, replace={"arrays/0.npy": other.getvalue()})  # a valid zip, a stale sha256
    with pytest.raises(
        ValueError, match=r"checksum mismatch in 'arrays/0.npy'.*the file is corrupt"
    ):
        arraystack.load_tree(path)


def test_an_edited_manifest_fails_the_checksum_of_the_whole(tmp_path):
    path = saved(tmp_path)
    with zipfile.ZipFile(path) as archive:
        text = archive.read("manifest.json").replace(b'"step"', b'"stop"')
    rewrite(path, replace={"manifest.json": text})
    with pytest.raises(ValueError, match=r"checksum mismatch in manifest.json"):
        arraystack.load_tree(path)


@pytest.mark.parametrize("entry", ["arrays/1.npy", "manifest.json", "manifest.sha256"])
def test_a_missing_entry_is_named(tmp_path, entry):
    path = saved(tmp_path)
    rewrite(path, drop={entry})
    with pytest.raises(ValueError, match=rf"{path}: missing entry '{entry}'"):
        arraystack.load_tree(path)


def test_an_unknown_version_is_named(tmp_path):
    path = saved(tmp_path)
    rewrite(path, manifest=lambda m: {**m, "version": 2})
    with pytest.raises(
        ValueError, match=r"version 2 \(written by a newer arraystack\).*reads version 1"
    ):
        arraystack.load_tree(path)


def test_an_unknown_leaf_kind_is_named(tmp_path):
    path = saved(tmp_path, {"w": numpy.ones(2)})

    def edit(manifest):
        manifest["tree"]["children"][0]["kind"] = "pickle"
        return manifest

    rewrite(path, manifest=edit)
    with pytest.raises(
        ValueError, match=r"the leaf at w is described wrongly.*unknown kind 'pickle'"
    ):
        arraystack.load_tree(path)


def test_other_files_are_not_taken_for_checkpoints(tmp_path):
    npz = tmp_path / "arrays.npz"
    numpy.savez(npz, a=numpy.ones(2))
    with pytest.raises(ValueError, match=r"arrays.npz: missing entry 'manifest.json'"):
        arraystack.load_tree(npz)
    text = tmp_path / "notes.txt"
    text.write_text("not a zip")
    with pytest.raises(ValueError, match=r"notes.txt is not a checkpoint.*not a readable zip"):
        arraystack.load_tree(text)
    with pytest.raises(FileNotFoundError):
        arraystack.load_tree(tmp_path / "absent.ckpt")
    with pytest.raises(TypeError, match="path must be a str or os.PathLike"):
        arraystack.save_tree(io.BytesIO(), {})


# -- node types ---------------------------------------------------------------------------------


class Unregistered:
    def __init__(self, children):
        self.children = children


def test_a_node_type_not_registered_at_load_is_named(tmp_path):
    tree_util.register_pytree_node(Unregistered, lambda n: (n.children, None), Unregistered)
    path = saved(tmp_path, {"m": Unregistered([numpy.ones(2)])})
    del tree_util._registry[Unregistered]
    name = f"{__name__}:Unregistered"
    with pytest.raises(
        ValueError, match=rf"the node at m has type {name}, which is not a registered"
    ):
        arraystack.load_tree(path)


Remote = collections.namedtuple("Remote", "a b", module="module_that_is_never_imported")


def test_a_named_tuple_of_a_module_not_imported_is_named_and_like_supplies_it(tmp_path):
    path = saved(tmp_path, [Remote(1, numpy.ones(2))])
    with pytest.raises(
        ValueError, match=r"\[0\] has type module_that_is_never_imported:Remote.*import"
    ):
        arraystack.load_tree(path)
    out = arraystack.load_tree(path, like=[Remote(0, numpy.zeros(2))])
    assert type(out[0]) is Remote and out[0].a == 1


# -- like= ------------------------------------------------------------------------------------


def _edited(edit):
    tree = state()
    edit(tree)
    return tree


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            lambda t: t["params"]["dense1"].update(w=arraystack.ones((4, 3))),
            "params['dense1']['w']: shape (3, 4) in the file, (4, 3) expected",
        ),
        (
            lambda t: t["params"]["dense1"].update(b=arraystack.zeros(4, arraystack.float32)),
            "params['dense1']['b']: dtype float64 in the file, float32 expected",
        ),
        (
            lambda t: t["params"].update(dense2={}),
            "params: keys ['dense1'] in the file, ['dense1', 'dense2'] expected",
        ),
        (
            lambda t: t["params"]["dense1"].pop("b"),
            "params['dense1']: keys ['b', 'w'] in the file, ['w'] expected",
        ),
        (
            lambda t: t.update(opt=arraystack.optim.sgd(0.1).init({"w": arraystack.ones(2)})),
            (
                "opt: arraystack.optim.optimizers:AdamState in the file, "
                "arraystack.optim.optimizers:SgdState expected"
            ),
        ),
        (lambda t: t.update(step=3.0), "step: a Python int in the file, a Python float expected"),
        (
            lambda t: t.update(step=arraystack.asarray(3)),
            "step: a Python int in the file, an array expected",
        ),
        (
            lambda t: t.update(step=[3]),
            "step: a Python int in the file, a node of type list expected",
        ),
        (
            lambda t: t["opt"].mu.update(w=None),
            "opt.mu['w']: an array in the file, a node of type None expected",
        ),
        (lambda t: t.update(params=[1]), "params: dict in the file, list expected"),
    ],
    ids=[
        "shape",
        "dtype",
        "extra-key",
        "missing-key",
        "node-type",
        "int-float",
        "int-array",
        "leaf-node",
        "array-none",
        "dict-list",
    ],
)
def test_like_names_the_first_mismatch_by_its_path(tmp_path, edit, message):
    path = saved(tmp_path)
    with pytest.raises(ValueError) as info:
        arraystack.load_tree(path, like=_edited(edit))
    assert str(info.value) == f"{path} does not match like=: {message}"


def test_like_may_hold_shapes_and_dtypes_only(tmp_path):
    path = saved(tmp_path, {"w": numpy.ones((2, 3), numpy.float32), "list": [1, 2]})
    spec = {"w": arraystack.ir.ShapedArray((2, 3), numpy.dtype("float32")), "list": [0, 0]}
    assert arraystack.load_tree(path, like=spec)["list"] == [1, 2]
    with pytest.raises(ValueError, match=r"list: 2 children in the file, 3 expected"):
        arraystack.load_tree(path, like={**spec, "list": [0, 0, 0]})


# -- Checkpoints --------------------------------------------------------------------------------


def test_checkpoints_keep_the_last_k_and_restore_the_latest(tmp_path):
    checkpoints = arraystack.Checkpoints(tmp_path / "run", keep=2)
    assert checkpoints.latest() is None
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        checkpoints.restore()
    for step in (1, 5, 10):
        written = checkpoints.save(arraystack.asarray(step), {"step": step})
    assert written == os.path.join(tmp_path, "run", "step_000000010.ckpt")
    assert checkpoints.steps() == [5, 10] and checkpoints.latest() == 10
    assert checkpoints.restore() == {"step": 10}
    assert checkpoints.restore(like={"step": 0}, step=5) == {"step": 5}
    assert arraystack.Checkpoints(tmp_path / "run", keep=None).steps() == [5, 10]


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda c: c.save(-1, {}), ValueError),
        (lambda c: c.save(True, {}), TypeError),
        (lambda c: c.save(1.5, {}), TypeError),
        (lambda c: arraystack.Checkpoints(c.directory, keep=0), ValueError),
    ],
)
def test_checkpoints_refuse_bad_steps(tmp_path, call, error):
    with pytest.raises(error):
        call(arraystack.Checkpoints(tmp_path))
