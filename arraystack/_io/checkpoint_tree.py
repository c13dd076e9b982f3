"""Pytrees as JSON for checkpoints: node types by a stable name, leaves described, paths for errors.

`encode` turns a tree into JSON with its array leaves set aside (checkpoints.py writes them as .npy
entries); `decode` resolves the node types back without importing or executing anything;
`check_like` names the first difference from an expected tree. Nothing here touches files.
"""

from __future__ import annotations

import base64
import dataclasses
import math
import struct
import sys
from typing import Any

import numpy as np

from arraystack._core.array import ndarray
from arraystack._io.npy_format import dtype_descr
from arraystack.ir import tree as tree_util

# Note: the registry of node types is jit/tree.py's private table; a loader must look a type up by
# name there, since no instance of it exists yet.
from arraystack.ir.tree import registered_node_types

_BUILTIN_NODES = {tuple: "tuple", list: "list", dict: "dict", type(None): "None"}
_BUILTIN_BY_NAME = {name: cls for cls, name in _BUILTIN_NODES.items()}
_VALUE_TYPES = {
    bool: "bool",
    int: "int",
    float: "float",
    complex: "complex",
    str: "str",
    bytes: "bytes",
}
_LEAF = tree_util.TreeDef(None, None, ())


# -- names and paths ------------------------------------------------------------------------------


def type_name(cls: type) -> str:
    """The stable name of a node type in a checkpoint: 'dict', or 'module:QualifiedName'."""
    return _BUILTIN_NODES.get(cls) or f"{cls.__module__}:{cls.__qualname__}"


def _is_namedtuple(cls) -> bool:
    return cls not in registered_node_types() and issubclass(cls, tuple) and hasattr(cls, "_fields")


def _child_keys(cls, aux, count: int) -> list:
    """How each child is reached: ('key', k) in a dict, ('attr', name) in a named tuple or a
    registered dataclass, ('index', i) otherwise."""
    if cls is dict:
        return [("key", k) for k in aux]
    fields = getattr(cls, "_fields", None)
    if fields is None and dataclasses.is_dataclass(cls):
        fields = [f.name for f in dataclasses.fields(cls)]
    if cls not in (list, tuple) and fields is not None and len(fields) == count:
        return [("attr", name) for name in fields]
    return [("index", i) for i in range(count)]


def path_text(path: tuple) -> str:
    """A path as Python would write it from the root: params['dense1']['w'], state.mu[0]."""
    if not path:
        return "the tree's root"
    text = "".join(f".{v}" if kind == "attr" else f"[{v!r}]" for kind, v in path)
    kind, first = path[0]
    if kind == "attr" or (kind == "key" and isinstance(first, str) and first.isidentifier()):
        text = str(first) + text[len(f".{first}" if kind == "attr" else f"[{first!r}]") :]
    return text


def _kind(x) -> str:
    if isinstance(x, ndarray | np.ndarray | np.generic):
        return "an array"
    name = _VALUE_TYPES.get(type(x), type(x).__qualname__)
    return f"a Python {name}"


# -- values (scalar leaves, aux data) -------------------------------------------------------------


def dtype_to_json(dtype: np.dtype) -> Any:
    """A dtype as .npy headers describe it (a string, or a list of fields for records)."""
    return _lists(dtype_descr(dtype))


def _lists(x):
    return [_lists(v) for v in x] if isinstance(x, list | tuple) else x


def dtype_from_json(descr: Any) -> np.dtype:
    """The dtype that `dtype_to_json` described (np.dtype of plain data: nothing is evaluated)."""
    if isinstance(descr, str):
        return np.lib.format.descr_to_dtype(descr)
    if not isinstance(descr, list):
        raise ValueError(f"not a dtype description: {descr!r}")  # noqa: TRY004  (a corrupt file)
    return np.lib.format.descr_to_dtype([_field(f) for f in descr])


def _field(field):
    if not isinstance(field, list) or len(field) not in (2, 3):
        raise ValueError(f"not a field description: {field!r}")
    name = tuple(field[0]) if isinstance(field[0], list) else field[0]
    fmt = [_field(f) for f in field[1]] if isinstance(field[1], list) else field[1]
    return (name, fmt) if len(field) == 2 else (name, fmt, tuple(field[2]))


def _float_text(x: float) -> str:
    if math.isnan(x):  # every NaN bit for bit, sign and payload included
        return "nan:" + struct.pack(">d", x).hex()
    return repr(x)


def _float_from_text(text: str) -> float:
    if text.startswith("nan:"):
        return struct.unpack(">d", bytes.fromhex(text[4:]))[0]
    return float(text)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def encode_value(value: Any, where: str) -> Any:
    """A Python value (a scalar leaf or a node's aux data) as JSON, exactly: None, bool, int and str
    as themselves, anything else tagged ({"float": "0.1"}, {"tuple": [...]}, {"numpy": [dtype,
    bytes]}). Types are matched exactly, so a subclass (an enum) raises TypeError, not a pickle."""
    t = type(value)
    if value is None or t is bool or t is int or t is str:
        return value
    if isinstance(value, np.generic):
        if value.dtype.hasobject:
            raise TypeError(f"{where} is an object scalar, which a checkpoint cannot hold")
        return {"numpy": [dtype_to_json(value.dtype), _b64(value.tobytes())]}
    if t is float:
        return {"float": _float_text(value)}
    if t is complex:
        return {"complex": [_float_text(value.real), _float_text(value.imag)]}
    if t is bytes:
        return {"bytes": _b64(value)}
    if t is list:
        return [encode_value(v, where) for v in value]
    if t is tuple:
        return {"tuple": [encode_value(v, where) for v in value]}
    if t is dict:
        return {
            "dict": [[encode_value(k, where), encode_value(v, where)] for k, v in value.items()]
        }
    if isinstance(value, np.dtype):
        return {"dtype": dtype_to_json(value)}
    raise TypeError(
        f"{where} holds a {t.__module__}.{t.__qualname__}, which a checkpoint cannot store "
        "(checkpoints hold arrays, numbers, strings and bytes, never pickled objects)"
    )


def decode_value(data: Any) -> Any:
    """The value `encode_value` wrote (ValueError on anything it cannot have written)."""
    if data is None or isinstance(data, bool | int | str):
        return data
    if isinstance(data, list):
        return [decode_value(v) for v in data]
    if not (isinstance(data, dict) and len(data) == 1):
        raise ValueError(f"not an encoded value: {data!r}")
    ((tag, body),) = data.items()
    if tag == "float":
        return _float_from_text(body)
    if tag == "complex":
        return complex(_float_from_text(body[0]), _float_from_text(body[1]))
    if tag == "bytes":
        return base64.b64decode(body, validate=True)
    if tag == "tuple":
        return tuple(decode_value(v) for v in body)
    if tag == "dict":
        return {decode_value(k): decode_value(v) for k, v in body}
    if tag == "dtype":
        return dtype_from_json(body)
    if tag == "numpy":
        dtype = dtype_from_json(body[0])
        if dtype.hasobject:
            raise ValueError("an object scalar (it would need pickle)")
        return np.ndarray((), dtype=dtype, buffer=base64.b64decode(body[1], validate=True))[()]
    raise ValueError(f"unknown value tag {tag!r}")


# -- trees -> JSON --------------------------------------------------------------------------------


def encode(tree: Any) -> tuple[dict, list]:
    """The JSON form of `tree` and its array leaves as [(description, path, leaf)], in
    tree_util.flatten order. Every leaf is checked here, before a file is opened; the writer adds
    each description's "sha256"."""
    leaves, treedef = tree_util.flatten(tree)
    arrays: list = []
    return _encode_node(treedef, iter(leaves), (), arrays), arrays


def _encode_node(treedef, leaves, path, arrays):
    cls = treedef.node
    if cls is None:
        return _encode_leaf(next(leaves), path, arrays)
    out: dict = {"node": type_name(cls)}
    if treedef.aux is not None:
        out["aux"] = encode_value(
            treedef.aux, f"the aux data of the {cls.__qualname__} node at {path_text(path)}"
        )
    if _is_namedtuple(cls):
        out["fields"] = list(cls._fields)
    keys = _child_keys(cls, treedef.aux, len(treedef.children))
    out["children"] = [
        _encode_node(child, leaves, (*path, key), arrays)
        for child, key in zip(treedef.children, keys, strict=True)
    ]
    return out


def _encode_leaf(leaf, path, arrays):
    if isinstance(leaf, np.ma.MaskedArray):  # np.save keeps its data and drops the mask
        raise TypeError(
            f"save_tree: the leaf at {path_text(path)} is a numpy.ma.MaskedArray, whose mask .npy "
            "does not hold; use arraystack.ma (a pytree node), or save its data and mask"
        )
    if isinstance(leaf, ndarray):
        kind = "arraystack"
    elif isinstance(leaf, np.ndarray):
        kind = "numpy"
    elif isinstance(leaf, np.generic):
        kind = "numpy_scalar"
    elif type(leaf) in _VALUE_TYPES:
        return {"value": encode_value(leaf, f"the leaf at {path_text(path)}")}
    else:
        t = type(leaf)
        raise TypeError(
            f"save_tree: the leaf at {path_text(path)} is a {t.__module__}.{t.__qualname__}, not "
            "an array, a number or a string; checkpoints never pickle objects. Register its class "
            "as a pytree node (arraystack.tree_util.register_pytree_node) or convert it."
        )
    if leaf.dtype.hasobject:
        # Note: NumPy's np.save(allow_pickle=False) raises ValueError for object arrays too.
        raise ValueError(
            f"save_tree: the array at {path_text(path)} has dtype {leaf.dtype}, which .npy holds "
            "only as a pickle; checkpoints never pickle objects"
        )
    # A NumPy scalar is saved as a 0-d array, whose dtype may differ: str_('') is <U0, its array <U1.
    dtype = np.asarray(leaf).dtype if kind == "numpy_scalar" else leaf.dtype
    description = {
        "array": f"arrays/{len(arrays)}.npy",
        "kind": kind,
        "shape": list(leaf.shape),
        "dtype": dtype_to_json(dtype),
    }
    arrays.append((description, path, leaf))
    return description


# -- JSON -> trees --------------------------------------------------------------------------------


def decode(root: dict, like_types: dict, where: str) -> tuple[Any, list]:
    """The TreeDef of the JSON tree `root` and its leaves' [(description, path)] in order. Node
    types resolve from `like_types` (name -> class, from `like=`), the pytree registry, and named
    tuples of modules already imported; nothing is imported."""
    registered = {type_name(cls): cls for cls in registered_node_types()}
    leaves: list = []
    return _decode_node(root, (), {**registered, **like_types}, leaves, where), leaves


def _decode_node(data, path, known, leaves, where):
    if not isinstance(data, dict):
        malformed = f"{where}: manifest.json: the entry at {path_text(path)} is malformed"
        raise ValueError(malformed)  # noqa: TRY004  (a corrupt file, not a caller's argument)
    if "node" not in data:
        leaves.append((data, path))
        return _LEAF
    cls = _resolve(data, path, known, where)
    aux = decode_value(data.get("aux"))
    children = data.get("children", [])
    keys = _child_keys(cls, aux, len(children))
    if len(keys) != len(children):
        raise ValueError(
            f"{where}: manifest.json: the {cls.__qualname__} node at "
            f"{path_text(path)} has {len(keys)} keys and {len(children)} children"
        )
    return tree_util.TreeDef(
        cls,
        aux,
        tuple(
            _decode_node(c, (*path, k), known, leaves, where)
            for c, k in zip(children, keys, strict=True)
        ),
    )


def _resolve(data, path, known, where):
    name = data["node"]
    cls = _BUILTIN_BY_NAME.get(name) or known.get(name)
    if cls is not None:
        return cls
    fields = data.get("fields")
    at = f"{where}: the node at {path_text(path)} has type {name}"
    if fields is None:
        raise ValueError(
            f"{at}, which is not a registered pytree node in this process: register it "
            "(arraystack.tree_util.register_pytree_node, or import the module that does) before "
            "loading, or pass like="
        )
    module, _, qualname = name.partition(":")
    cls = sys.modules.get(module)
    for part in qualname.split("."):
        cls = getattr(cls, part, None)
    if not (isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")):
        raise ValueError(
            f"{at}, a named tuple whose module {module!r} is not imported in this process "
            "(load_tree imports nothing): import it before loading, or pass like="
        )
    if list(cls._fields) != fields:
        raise ValueError(f"{at} with fields {fields}; the class has fields {list(cls._fields)}")
    return cls


def node_types(tree: Any) -> dict:
    """{type_name: class} of every node of `tree` (the classes `like=` offers to the loader)."""
    found: dict = {}
    stack = [tree_util.structure(tree)]
    while stack:
        treedef = stack.pop()
        if treedef.node is not None:
            found[type_name(treedef.node)] = treedef.node
            stack.extend(treedef.children)
    return found


# -- comparing with like= -------------------------------------------------------------------------


def check_like(root: dict, like: Any, where: str) -> None:
    """Raise ValueError naming the first place where the JSON tree `root` differs from `like` in
    structure, node types, shapes, dtypes or the kinds of its leaves."""
    leaves, treedef = tree_util.flatten(like)
    _compare(root, treedef, iter(leaves), (), where)


def _mismatch(where, path, what):
    return ValueError(f"{where} does not match like=: {path_text(path)}: {what}")


def _compare(data, treedef, leaves, path, where):
    cls = treedef.node
    if cls is None:
        _compare_leaf(data, next(leaves), path, where)
        return
    name = type_name(cls)
    if "node" not in data:
        found = _kind(decode_value(data["value"])) if "value" in data else "an array"
        raise _mismatch(where, path, f"{found} in the file, a node of type {name} expected")
    if data["node"] != name:
        raise _mismatch(where, path, f"{data['node']} in the file, {name} expected")
    if cls is dict and decode_value(data.get("aux")) != treedef.aux:
        keys = list(decode_value(data.get("aux")))
        raise _mismatch(where, path, f"keys {keys} in the file, {list(treedef.aux)} expected")
    # Compared as JSON, so that a NaN in aux data equals itself.
    if data.get("aux") != encode_value(treedef.aux, f"like= at {path_text(path)}"):
        aux = decode_value(data.get("aux"))
        raise _mismatch(where, path, f"aux data {aux!r} in the file, {treedef.aux!r} expected")
    children = data.get("children", [])
    if len(children) != len(treedef.children):
        raise _mismatch(
            where, path, f"{len(children)} children in the file, {len(treedef.children)} expected"
        )
    keys = _child_keys(cls, treedef.aux, len(children))
    for child, expected, key in zip(children, treedef.children, keys, strict=True):
        _compare(child, expected, leaves, (*path, key), where)


def _compare_leaf(data, expected, path, where):
    if "node" in data:
        raise _mismatch(where, path, f"a node of type {data['node']} in the file, a leaf expected")
    if "value" in data:
        found = decode_value(data["value"])
        if type(found) is not type(expected):
            raise _mismatch(where, path, f"{_kind(found)} in the file, {_kind(expected)} expected")
        return
    if not (hasattr(expected, "shape") and hasattr(expected, "dtype")):
        raise _mismatch(where, path, f"an array in the file, {_kind(expected)} expected")
    shape, dtype = tuple(data["shape"]), dtype_from_json(data["dtype"])
    if shape != tuple(expected.shape):
        raise _mismatch(where, path, f"shape {shape} in the file, {tuple(expected.shape)} expected")
    if dtype != np.dtype(expected.dtype):
        raise _mismatch(
            where, path, f"dtype {dtype} in the file, {np.dtype(expected.dtype)} expected"
        )
