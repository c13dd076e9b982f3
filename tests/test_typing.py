"""Static typing of the public namespace (issue 7, STYLE.md rule 18): arraystack/__init__.py binds every
public name by an explicit import, so type checkers see what the runtime exports; when mypy is installed
(it is not a test dependency) a small user script type-checks against the package with ndarray results."""

from __future__ import annotations

import ast
import importlib
import os
import pathlib
import re
import subprocess
import sys

import pytest

import arraystack

INIT = pathlib.Path(arraystack.__file__)

# Private modules whose __all__ lists names for other modules, not for the top-level namespace.
INTERNAL = {"arraystack.backends.numba.tiering"}  # compilation tiers: reached through arraystack.config


def _init_tree():
    return ast.parse(INIT.read_text("utf-8"))


def _literal_all(tree):
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
            "__all__"
        ]:
            return ast.literal_eval(node.value)
    raise AssertionError("arraystack/__init__.py assigns no literal __all__")


def _imports(tree):
    """{bound name: (module, attribute)} for every import statement of the module body."""
    bound = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                bound[alias.asname or alias.name] = (node.module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname or alias.name.split(".")[0]] = (alias.name, None)
    return bound


def test_init_is_only_imports_and_a_literal_all():
    """No loops, star imports, calls or definitions: what a type checker reads is what runs."""
    for node in _init_tree().body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if isinstance(node, ast.ImportFrom | ast.Import):
            assert all(a.name != "*" for a in node.names), f"star import at line {node.lineno}"
            continue
        assert isinstance(node, ast.Assign), f"line {node.lineno}: {ast.unparse(node)[:80]}"
        (target,) = node.targets
        assert isinstance(target, ast.Name) and target.id in ("__all__", "__version__")
        ast.literal_eval(node.value)  # a literal: raises on anything computed


def test_every_public_name_is_bound_by_an_explicit_import():
    tree = _init_tree()
    names = _literal_all(tree)
    bound = _imports(tree)
    assert names == list(arraystack.__all__)  # nothing appends to __all__ at import time
    assert len(set(names)) == len(names)
    assert sorted(set(names) - set(bound)) == []
    # and every public name imported there is exported
    assert sorted(n for n in bound if not n.startswith("_") and n not in names) == []
    for name in names:
        module, attribute = bound[name]
        source = importlib.import_module(module)
        assert getattr(source, attribute) is getattr(arraystack, name), name


def _family_modules():
    """Every module of the frontend's private chapters (`arraystack/_core/array.py`, ...): the families."""
    for path in sorted(INIT.parent.rglob("*.py")):
        parts = path.relative_to(INIT.parent).with_suffix("").parts
        if parts[0] in ("__init__", "__main__") or not parts[0].startswith("_") or parts[-1] == "__init__":
            continue  # the namespace itself, the public modules and subpackages, a chapter's index
        yield "arraystack." + ".".join(parts)
    # the top-level products and einsum, which live with linalg's own functions
    yield from ("arraystack.linalg._contractions", "arraystack.linalg._einsum", "arraystack.linalg._matmul")


def test_the_families_are_found():
    names = list(_family_modules())
    assert "arraystack._core.array" in names and "arraystack._transforms.jit" in names, names
    assert not any(name.count(".") == 1 for name in names), names  # every family is in a chapter


def test_every_family_export_reaches_the_namespace():
    """A family module's __all__ is its public surface: a name added there (or a whole new family) but not
    imported in arraystack/__init__.py fails here instead of silently staying private."""
    public = set(arraystack.__all__)
    missing = {}
    for name in _family_modules():
        if name in INTERNAL:
            continue
        module = importlib.import_module(name)
        lost = [n for n in getattr(module, "__all__", ()) if n not in public]
        if lost:
            missing[module.__name__] = lost
    assert missing == {}


def test_public_submodules_are_bound():
    for name in ("emath", "errors", "fft", "linalg", "random", "testing", "typing"):
        assert name in arraystack.__all__
        assert getattr(arraystack, name) is importlib.import_module(f"arraystack.{name}")


# --- mypy on a user's script -------------------------------------------------------------------------

USER_SCRIPT = """\
import arraystack as np
from arraystack.typing import ArrayLike

x = np.zeros(3)
a = np.eye(3)
data: ArrayLike = [1.0, 2.0]
y: np.typing.NDArray = np.asarray(data)
reveal_type(x)  # ndarray
reveal_type(np.sum(x))  # ndarray
reveal_type(np.sin(x))  # ndarray
reveal_type(np.add(x, 1.0))  # ndarray
reveal_type(np.square(x))  # ndarray
reveal_type(np.isnan(x))  # ndarray
reveal_type(np.clip(x, 0.0, 1.0))  # ndarray
reveal_type(np.sort(x))  # ndarray
reveal_type(np.cumsum(x))  # ndarray
reveal_type(np.linalg.solve(a, x))  # ndarray
reveal_type(np.fft.fft(x))  # ndarray
reveal_type(np.emath.sqrt(x))  # ndarray
q, r = np.divmod(x, 2)
reveal_type(q)  # ndarray
reveal_type(np.unique(x))  # unique
np.no_such_function(x)  # error
reveal_type(x + 1.0)  # operator
"""

NDARRAY = "arraystack._core.array.ndarray"
EXPECTED = {
    "ndarray": NDARRAY,
    "unique": f"{NDARRAY} | tuple[{NDARRAY}, ...]",  # return_index=... adds arrays
    "operator": NDARRAY,
}


def _package_tree(root):
    """arraystack's installed layout as symlinks under `root`: setup.py maps jit/ to arraystack.ir and
    backends/ to arraystack.backends, which an editable install resolves with an import hook that mypy
    does not run, so mypy reads this tree through MYPYPATH instead."""
    package = pathlib.Path(arraystack.__path__[0])
    tree = root / "arraystack"
    tree.mkdir(parents=True)
    for entry in package.iterdir():
        if entry.name != "__pycache__":
            (tree / entry.name).symlink_to(entry)
    for sub in ("ir", "backends"):
        path = pathlib.Path(importlib.import_module(f"arraystack.{sub}").__path__[0])
        if not (tree / sub).exists():
            (tree / sub).symlink_to(path)
    return root


@pytest.fixture(scope="module")
def mypy_report(tmp_path_factory):
    pytest.importorskip("mypy", reason="mypy is not installed (it is not a test dependency)")
    tmp = tmp_path_factory.mktemp("mypy")
    script = tmp / "user.py"
    script.write_text(USER_SCRIPT, "utf-8")
    env = dict(os.environ, MYPYPATH=str(_package_tree(tmp / "path")))
    # follow-imports=silent: arraystack is found on MYPYPATH, which mypy would otherwise check as the
    # user's own code; an installed package is silent by default.
    command = [sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-error-summary"]
    command += [
        "--no-incremental",
        "--cache-dir",
        os.devnull,
        "--python-executable",
        sys.executable,
        str(script),
    ]
    done = subprocess.run(
        command, check=False, capture_output=True, text=True, env=env, cwd=tmp, timeout=300
    )
    assert done.returncode in (0, 1), done.stderr  # 1: type errors found; 2: mypy itself failed
    kinds = {n: line.split("# ")[-1] for n, line in enumerate(USER_SCRIPT.splitlines(), 1)}
    revealed, errors = {}, {}
    for line in done.stdout.splitlines():
        match = re.match(r".*user\.py:(\d+): (note|error): (.*)", line)
        if match and match[2] == "note" and match[3].startswith("Revealed type is"):
            revealed[int(match[1])] = match[3].split('"')[1]
        elif match and match[2] == "error":
            errors[int(match[1])] = match[3]
    return kinds, revealed, errors, done.stdout


def test_mypy_sees_every_function_as_returning_ndarray(mypy_report):
    kinds, revealed, errors, stdout = mypy_report
    wrong = {
        n: (kinds[n], t)
        for n, t in revealed.items()
        if kinds[n] != "operator" and t != EXPECTED[kinds[n]]
    }
    assert wrong == {}, stdout
    assert len(revealed) == sum(k in EXPECTED for k in kinds.values()), stdout
    # the one deliberate error: the namespace is checked, not an Any from a module mypy could not find
    (line,) = [n for n, k in kinds.items() if k == "error"]
    assert list(errors) == [line], stdout
    assert 'has no attribute "no_such_function"' in errors[line]


def test_mypy_sees_operators_as_returning_ndarray(mypy_report):
    kinds, revealed, _, stdout = mypy_report
    (line,) = [n for n, k in kinds.items() if k == "operator"]
    assert revealed[line] == EXPECTED["operator"], stdout
