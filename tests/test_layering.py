"""Imports go one way: jit/ (arraystack.ir) <- backends/ (arraystack.backends) <- arraystack/ (the frontend).

Every .py file is parsed with ast, so imports inside functions (lazy imports) count too, and so do
importlib.import_module("...") calls with a constant name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"jit": "arraystack.ir", "backends": "arraystack.backends", "arraystack": "arraystack"}


def module_name(path: Path) -> str:
    folder, *rest = path.relative_to(ROOT).with_suffix("").parts
    parts = PACKAGES[folder].split(".") + rest
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in `source`, relative imports resolved."""
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module
            found.append((node.lineno, name))
            found += [
                (node.lineno, f"{name}.{alias.name}") for alias in node.names if alias.name != "*"
            ]
        elif isinstance(node, ast.Call) and _is_dynamic_import(node.func) and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.append((node.lineno, arg.value))
    return found


def _is_dynamic_import(func) -> bool:
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return name in ("import_module", "__import__")


def _layer(name: str) -> str | None:
    """Which of the three layers a module belongs to, or None for third-party/stdlib modules."""
    if name in ("jit", "backends") or name.startswith(("jit.", "backends.")):
        return "top-level"  # the folders must never be imported by their folder names
    if name == "arraystack.ir" or name.startswith("arraystack.ir."):
        return "ir"
    if name == "arraystack.backends" or name.startswith("arraystack.backends."):
        return "backends"
    if name == "arraystack" or name.startswith("arraystack."):
        return "frontend"
    return None


ALLOWED = {"ir": {"ir"}, "backends": {"ir", "backends"}, "frontend": {"ir", "backends", "frontend"}}
LAYER_OF_FOLDER = {"jit": "ir", "backends": "backends", "arraystack": "frontend"}


def violations(path: Path, source: str | None = None) -> list[str]:
    folder = path.relative_to(ROOT).parts[0]
    layer = LAYER_OF_FOLDER[folder]
    source = path.read_text() if source is None else source
    out = []
    for line, name in imported_modules(source, module_name(path), path.name == "__init__.py"):
        target = _layer(name)
        if target is not None and target not in ALLOWED[layer]:
            out.append(
                f"{path.relative_to(ROOT)}:{line} imports {name} ({layer} may import only "
                f"{', '.join(sorted(ALLOWED[layer]))})"
            )
    return out


def _files(folder):
    return sorted(p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize("folder", ["jit", "backends", "arraystack"])
def test_imports_go_one_way(folder):
    files = _files(folder)
    assert files, f"no Python files found under {folder}/"
    found = [v for path in files for v in violations(path)]
    assert found == [], "layering violations:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "folder, source, bad",
    [
        ("jit", "import arraystack\n", True),
        ("jit", "from arraystack import _array\n", True),
        ("jit", "def f():\n    from arraystack.backends import cache\n", True),
        # a relative import climbing out of arraystack.ir
        ("jit", "from ... import numpy_api\n", True),
        ("jit", "import importlib\nimportlib.import_module('arraystack._creation.basic')\n", True),
        ("jit", "import jit.core\n", True),
        ("jit", "from arraystack.ir import core\nfrom . import avals\nimport numpy\n", False),
        ("jit", "from ..ir import avals\n", False),
        ("backends", "from arraystack.ir.ir import Graph\nfrom . import cache\n", False),
        ("backends", "from arraystack import ndarray\n", True),
        ("backends", "from arraystack._core.array import wrap\n", True),
        ("backends", "from ... import _creation\n", True),
        ("backends", "from .. import cache\n", False),
        (
            "arraystack",
            "from arraystack.backends import compile_graph\nfrom arraystack.ir import bind\n",
            False,
        ),
        ("arraystack", "from backends import compile_graph\n", True),
    ],
)
def test_the_checker_finds_violations(folder, source, bad):
    path = ROOT / folder / "passes" / "example.py"
    assert bool(violations(path, source)) is bad


def test_module_names_map_folders_to_the_namespace():
    assert module_name(ROOT / "jit" / "passes" / "__init__.py") == "arraystack.ir.passes"
    assert (
        module_name(ROOT / "backends" / "numba" / "lowering.py")
        == "arraystack.backends.numba.lowering"
    )
    assert module_name(ROOT / "arraystack" / "_core" / "array.py") == "arraystack._core.array"
