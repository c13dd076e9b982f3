"""Checkpoints of pytrees: `save_tree` writes one zip of .npy arrays plus the tree as JSON, atomically;
`load_tree` reads it back, checking checksums and, given `like=`, the structure; `Checkpoints` keeps
the last few of a training run.

The file (format version 1) is a zip archive, stored uncompressed, that `numpy.load` also opens:

    arrays/<i>.npy     the i-th array leaf in tree_util.flatten order, NumPy's .npy format, no pickle
    manifest.json      {"format": "arraystack.checkpoint", "version": 1, "tree": ...}: the nodes by
                       type name, Python scalars and strings as values, each array's entry, kind
                       (arraystack, numpy, numpy_scalar), shape, dtype and sha256
    manifest.sha256    the sha256 of manifest.json: the checksum of the whole, since the manifest
                       holds each array's
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import operator
import os
import re
import secrets
import zipfile
from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.array import ndarray
from arraystack._core.devices import read_on_default
from arraystack._io.checkpoint_tree import (
    check_like,
    decode,
    decode_value,
    dtype_from_json,
    encode,
    node_types,
    path_text,
)
from arraystack._io.npy_format import write_array
from arraystack._io.npyio import _to_arraystack
from arraystack.ir import tree as tree_util

if TYPE_CHECKING:
    from typing import Any

FORMAT = "arraystack.checkpoint"
VERSION = 1
_MANIFEST = "manifest.json"
_MANIFEST_SUM = "manifest.sha256"
_KINDS = ("arraystack", "numpy", "numpy_scalar")  # what an array leaf loads as
_ZIP64_FROM = 1 << 30  # entries this large are written with zip64 sizes (zip's own limit is 4 GiB)


# -- writing --------------------------------------------------------------------------------------


def save_tree(path: str | os.PathLike, tree: Any) -> None:
    """Save a pytree of arrays, numbers and strings to a checkpoint file, atomically and without pickle.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write (no suffix is added; ``.ckpt`` is a good one). A file already there is
        replaced only once the new one is complete.
    tree : pytree
        Nested dicts, lists, tuples, named tuples, None and registered pytree nodes (parameters,
        `arraystack.optim` states, PRNG keys) whose leaves are arraystack or NumPy arrays of a
        dtype .npy holds without pickle, NumPy scalars, or Python bools, ints, floats, complex
        numbers, strings and bytes.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        A leaf, or a node's aux data, is another object; the message names its path in the tree.
    ValueError
        An array has dtype object (NumPy's ``save(allow_pickle=False)`` refuses it too).

    See Also
    --------
    numpy.savez : NumPy's archive of named arrays (a flat mapping, not a tree).
    load_tree, Checkpoints, save, tree_util.flatten

    Notes
    -----
    The file is a zip of ``arrays/<i>.npy`` entries (one per array leaf, in
    ``tree_util.flatten`` order), ``manifest.json`` (the tree: node types by name such as
    ``dict`` or ``arraystack.optim.optimizers:AdamState``, values, and each array's shape, dtype
    and sha256) and ``manifest.sha256``. It is written to a temporary file in the same directory,
    flushed to disk (fsync), then renamed over `path` (``os.replace``), so a failure or a crash
    midway leaves the previous file as it was. Arrays on a device are copied to the host.

    Examples
    --------
    >>> import arraystack as np
    >>> state = {'params': {'w': np.ones((2, 3))}, 'step': 7}
    >>> np.save_tree('state.ckpt', state)
    >>> np.load_tree('state.ckpt')['step']
    7
    """
    path = _checked_path(path, "save_tree")
    root, arrays = encode(tree)  # every leaf is checked before the file is opened
    _write_atomically(path, lambda file: _write_zip(file, root, arrays))


def _checked_path(path, name):
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"{name}: path must be a str or os.PathLike, not {type(path).__name__}")
    return os.fspath(path)


def _write_atomically(path: str, write) -> None:
    directory, base = os.path.split(os.path.abspath(path))
    temporary = os.path.join(directory, f".{base}.{secrets.token_hex(6)}.tmp")
    # Mode 0o666 before the umask, as open() gives a new file (mkstemp would make it 0o600).
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    descriptor = os.open(temporary, flags, 0o666)
    try:
        with open(descriptor, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    _sync_directory(directory)


def _sync_directory(directory: str) -> None:
    """Make the rename durable: fsync the directory entry (POSIX; Windows has no directory fds)."""
    if os.name != "posix":
        return
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


class _Hashing:
    """A file wrapper that feeds every byte written or read through sha256."""

    def __init__(self, file):
        self.file = file
        self.sha256 = hashlib.sha256()

    def write(self, data) -> int:
        self.sha256.update(data)
        return self.file.write(data)

    def read(self, size: int = -1) -> bytes:
        data = self.file.read(size)
        self.sha256.update(data)
        return data


def _host_array(leaf, path) -> np.ndarray:
    """A NumPy array of a leaf's data (a device array is copied to the host)."""
    if not isinstance(leaf, ndarray):
        return np.asarray(leaf)
    try:
        value = leaf._scalar("saving a checkpoint")
        if not isinstance(value, np.ndarray | np.generic):
            value = leaf.to_device("cpu")._scalar("saving a checkpoint")
    except Exception as error:
        error.add_note(f"save_tree: the array at {path_text(path)}")
        raise
    return np.asarray(value)


def _write_zip(file, root: dict, arrays: list) -> None:
    with zipfile.ZipFile(file, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
        for description, path, leaf in arrays:
            host = _host_array(leaf, path)
            big = host.nbytes >= _ZIP64_FROM
            with archive.open(description["array"], "w", force_zip64=big) as entry:
                hashing = _Hashing(entry)
                write_array(hashing, host, allow_pickle=False)
            description["sha256"] = hashing.sha256.hexdigest()
        manifest = {"format": FORMAT, "version": VERSION, "tree": root}
        text = json.dumps(manifest, separators=(",", ":"), allow_nan=False).encode("utf-8")
        archive.writestr(_MANIFEST, text)
        archive.writestr(_MANIFEST_SUM, hashlib.sha256(text).hexdigest() + "\n")


# -- reading --------------------------------------------------------------------------------------


def load_tree(path: str | os.PathLike, like: Any = None) -> Any:
    """Load a pytree that `save_tree` wrote, checking its checksums and, given `like`, its structure.

    Parameters
    ----------
    path : str or os.PathLike
        The checkpoint file.
    like : pytree, optional
        A tree of the expected structure (the freshly initialised parameters and optimizer state,
        say): its node types, dict keys, shapes and dtypes are checked before any array is read,
        and its classes resolve the file's node types. Leaves may be arrays or anything with
        ``shape`` and ``dtype``; Python scalars must match in type.

    Returns
    -------
    pytree
        The tree saved: arraystack arrays, NumPy arrays and NumPy scalars as they were saved,
        Python values as themselves, the same node types. An arraystack array is placed on the
        device of its leaf in `like` when that is an arraystack array, else on the default device
        (`default_device`); NumPy arrays and scalars are on the host.

    Raises
    ------
    FileNotFoundError
        No file at `path`.
    ValueError
        The file is not a checkpoint, is truncated or corrupt (a bad zip, a checksum mismatch, a
        missing entry), has an unknown format version, names a node type that is not registered in
        this process, or differs from `like`; the message names the file, and the path in the tree
        where it applies (``params['dense1']['w']: shape (3, 4) in the file, (4, 3) expected``).

    See Also
    --------
    numpy.load : NumPy's loader of .npy and .npz files.
    save_tree, Checkpoints, load

    Notes
    -----
    Nothing in the file is executed: the structure is JSON, arrays are read with
    ``allow_pickle=False``, and node types resolve by name among the registered pytree nodes, the
    classes in `like` and named tuples of modules already imported (nothing is imported).

    Examples
    --------
    >>> import arraystack as np
    >>> np.save_tree('params.ckpt', {'w': np.zeros((3, 4))})
    >>> np.load_tree('params.ckpt', like={'w': np.zeros((4, 3))})
    Traceback (most recent call last):
    ...
    ValueError: params.ckpt does not match like=: w: shape (3, 4) in the file, (4, 3) expected
    """
    path = _checked_path(path, "load_tree")
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, EOFError) as error:
        raise ValueError(
            f"{path} is not a checkpoint, or is truncated: not a readable zip archive ({error})"
        ) from error
    with archive:
        root = _read_manifest(archive, path)["tree"]
        like_types = {}
        if like is not None:
            check_like(root, like, path)
            like_types = node_types(like)
        treedef, leaves = decode(root, like_types, path)
        names = set(archive.namelist())
        values = [_read_leaf(archive, names, d, leaf_path, path) for d, leaf_path in leaves]
    like_leaves = tree_util.flatten(like)[0] if like is not None else [None] * len(values)
    values = [_placed(v, w) for v, w in zip(values, like_leaves)]
    return tree_util.unflatten(treedef, values)


def _placed(value, like):
    """An arraystack array read from a checkpoint on the device of its `like=` leaf when that is an
    arraystack array (the parameters being restored), else on the default device."""
    if type(value) is not ndarray:
        return value
    if type(like) is ndarray:
        return value if like.device == "cpu" else value.to_device(like.device)
    return read_on_default(value)


def _read_entry(archive, name: str, path: str) -> bytes:
    try:
        return archive.read(name)
    except KeyError:
        raise ValueError(
            f"{path}: missing entry {name!r}; the checkpoint is incomplete, or not one"
        ) from None
    except (zipfile.BadZipFile, EOFError, OSError) as error:
        raise ValueError(f"{path}: entry {name!r} is corrupt or truncated ({error})") from error


def _read_manifest(archive, path: str) -> dict:
    text = _read_entry(archive, _MANIFEST, path)
    try:
        manifest = json.loads(text)
    except ValueError:
        manifest = None  # judged after the checksum: a corrupt file says so first
    if isinstance(manifest, dict) and manifest.get("format") == FORMAT:
        version = manifest.get("version")
        if version != VERSION:
            newer = isinstance(version, int) and version > VERSION
            raise ValueError(
                f"{path}: unknown checkpoint format version {version!r}"
                + (" (written by a newer arraystack)" if newer else "")
                + f"; this arraystack reads version {VERSION}"
            )
    recorded = _read_entry(archive, _MANIFEST_SUM, path).decode("ascii", "replace").strip()
    actual = hashlib.sha256(text).hexdigest()
    if actual != recorded:
        raise ValueError(
            f"{path}: checksum mismatch in {_MANIFEST} (sha256 {actual}, recorded {recorded}); "
            "the file is corrupt"
        )
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ValueError(f"{path}: {_MANIFEST} does not describe an arraystack checkpoint")
    if not isinstance(manifest.get("tree"), dict):
        raise ValueError(f"{path}: {_MANIFEST} holds no tree")  # noqa: TRY004  (a corrupt file)
    return manifest


def _read_leaf(archive, names, description, leaf_path, path):
    where = f"{path}: the leaf at {path_text(leaf_path)}"
    try:
        if "value" in description:
            return decode_value(description["value"])
        entry = description["array"]
        shape, dtype = tuple(description["shape"]), dtype_from_json(description["dtype"])
        kind, recorded = description["kind"], description["sha256"]
        if kind not in _KINDS:
            raise ValueError(f"unknown kind {kind!r}")
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{where} is described wrongly in {_MANIFEST} ({error!r})") from None
    if entry not in names:
        raise ValueError(f"{path}: missing entry {entry!r} (the array at {path_text(leaf_path)})")
    try:
        with archive.open(entry) as file:
            hashing = _Hashing(file)
            array = np.lib.format.read_array(hashing, allow_pickle=False)
            trailing = hashing.read()  # to the end, so zip's CRC-32 is checked too
    except (zipfile.BadZipFile, EOFError, OSError, ValueError) as error:
        raise ValueError(f"{path}: entry {entry!r} is corrupt or truncated ({error})") from error
    if trailing or hashing.sha256.hexdigest() != recorded:
        raise ValueError(
            f"{path}: checksum mismatch in {entry!r} (the array at {path_text(leaf_path)}): "
            f"sha256 {hashing.sha256.hexdigest()}, recorded {recorded}; the file is corrupt"
        )
    if array.shape != shape or array.dtype != dtype:
        raise ValueError(
            f"{path}: {entry!r} holds {array.dtype}{list(array.shape)}, the manifest says "
            f"{dtype}{list(shape)}"
        )
    if kind == "arraystack":
        return _to_arraystack(array, placed=False)  # load_tree places it
    return array[()] if kind == "numpy_scalar" else array


# -- a directory of numbered checkpoints ----------------------------------------------------------

_STEP_FILE = re.compile(r"step_(\d+)\.ckpt")


class Checkpoints:
    """The numbered checkpoints of a training run in one directory, the last `keep` of them kept.

    Parameters
    ----------
    directory : str or os.PathLike
        Where the files ``step_<step>.ckpt`` go (created if missing).
    keep : int or None, optional
        How many checkpoints to keep, those of the highest steps (default 3); None keeps all.

    See Also
    --------
    save_tree, load_tree

    Notes
    -----
    orbax's ``CheckpointManager`` in its simplest use: ``save(step, tree)``, ``latest()``,
    ``restore(like)``. Each file is written by `save_tree`, so a crash while saving leaves the
    earlier checkpoints intact, and older ones are deleted only after the new one is complete.

    Examples
    --------
    >>> import arraystack as np
    >>> checkpoints = np.Checkpoints('run', keep=2)
    >>> for step in (10, 20, 30):
    ...     _ = checkpoints.save(step, {'w': np.full(2, step), 'step': step})
    >>> checkpoints.steps(), checkpoints.latest()
    ([20, 30], 30)
    >>> checkpoints.restore()['step']
    30
    """

    def __init__(self, directory: str | os.PathLike, keep: int | None = 3) -> None:
        if keep is not None and (type(keep) is not int or keep < 1):
            raise ValueError(f"Checkpoints: keep must be a positive int or None, not {keep!r}")
        self.directory = os.fspath(directory)
        self.keep = keep
        os.makedirs(self.directory, exist_ok=True)

    def path(self, step: int) -> str:
        """The file of the checkpoint of `step`.

        Parameters
        ----------
        step : int
            A step number (>= 0).

        Returns
        -------
        str
            ``<directory>/step_<step>.ckpt``, the step zero-padded to 9 digits.
        """
        return os.path.join(self.directory, f"step_{_step(step):09d}.ckpt")

    def steps(self) -> list[int]:
        """The steps that have a checkpoint, in increasing order.

        Returns
        -------
        list of int
            The steps.
        """
        found = (_STEP_FILE.fullmatch(name) for name in os.listdir(self.directory))
        return sorted(int(m.group(1)) for m in found if m)

    def latest(self) -> int | None:
        """The highest step that has a checkpoint, or None when there is none.

        Returns
        -------
        int or None
            The step.
        """
        steps = self.steps()
        return steps[-1] if steps else None

    def save(self, step: int, tree: Any) -> str:
        """Save `tree` as the checkpoint of `step`, then delete the oldest beyond `keep`.

        Parameters
        ----------
        step : int
            The step number (>= 0).
        tree : pytree
            What `save_tree` takes.

        Returns
        -------
        str
            The file written.
        """
        target = self.path(step)
        save_tree(target, tree)
        if self.keep is not None:
            for old in self.steps()[: -self.keep]:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.path(old))
        return target

    def restore(self, like: Any = None, step: int | None = None) -> Any:
        """Load the checkpoint of `step` (default: the latest) with `load_tree`.

        Parameters
        ----------
        like : pytree, optional
            The expected structure, as `load_tree` takes it.
        step : int, optional
            The step to load; the latest by default.

        Returns
        -------
        pytree
            The tree saved.

        Raises
        ------
        FileNotFoundError
            There is no checkpoint (of that step).
        """
        if step is None:
            step = self.latest()
            if step is None:
                raise FileNotFoundError(f"no checkpoint in {self.directory}")
        return load_tree(self.path(step), like=like)


def _step(step) -> int:
    if isinstance(step, bool):
        raise TypeError("a checkpoint step is an int, not a bool")
    number = operator.index(step)  # TypeError for anything but an integer, as NumPy's indices
    if number < 0:
        raise ValueError(f"a checkpoint step is >= 0, not {number}")
    return number
