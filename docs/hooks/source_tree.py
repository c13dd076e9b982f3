"""MkDocs hook: lets mkdocstrings find `arraystack.ir` and `arraystack.backends` on disk.

The repository keeps them in the folders `jit/` and `backends/`, installed as subpackages of `arraystack`.
Griffe finds submodules by walking the package's folder, so before the build this hook lays out the
installed package as one folder tree of symbolic links (`arraystack/`, `arraystack/ir/`,
`arraystack/backends/`) in a temporary directory and puts it first on the Python handler's search path.
"""

from __future__ import annotations

import atexit
import importlib
import pathlib
import shutil
import tempfile

from mkdocs.plugins import event_priority

SUBPACKAGES = ("ir", "backends")  # arraystack's subpackages that live outside its folder

_tree: pathlib.Path | None = None


def _folder(module: str) -> pathlib.Path:
    (path,) = importlib.import_module(module).__path__
    return pathlib.Path(path).resolve()


def lay_out(root: pathlib.Path) -> pathlib.Path:
    """root/arraystack: links to every entry of the installed package, with its subpackages inside."""
    package = root / "arraystack"
    package.mkdir()
    for entry in _folder("arraystack").iterdir():
        if entry.name not in SUBPACKAGES and entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    for name in SUBPACKAGES:
        (package / name).symlink_to(_folder(f"arraystack.{name}"), target_is_directory=True)
    return root


@event_priority(100)  # before mkdocstrings reads its handlers' configuration
def on_config(config):
    global _tree
    on_shutdown()  # mkdocs serve configures again on every rebuild
    _tree = lay_out(pathlib.Path(tempfile.mkdtemp(prefix="arraystack-docs-")))
    # also when a strict build aborts before mkdocs shuts down
    atexit.register(on_shutdown)
    handlers = config.plugins["mkdocstrings"].config.handlers
    python = handlers.setdefault("python", {})
    python["paths"] = [str(_tree), *python.get("paths", [])]
    return config


def on_shutdown():
    global _tree
    if _tree is not None:
        shutil.rmtree(_tree, ignore_errors=True)
        _tree = None
