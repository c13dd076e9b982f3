"""Any import order works: every module of the frontend is imported first, alone, before the package's
namespace (arraystack/__init__.py) is built, and then the namespace builds and ndarray is complete.

Fresh interpreters share them (one per share, each share its own test): before each module it forgets every frontend module (arraystack and
arraystack.* but the ir and backends layers, which never import the frontend), registers the package
without running its __init__, imports the module, then runs __init__ as `import arraystack` would.
A module that needs a neighbour half-initialized (an import circle) fails here with the ImportError it
would raise for a user who imported it first.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

import arraystack

PACKAGE = pathlib.Path(arraystack.__file__).parent

SCRIPT = r"""
import importlib, importlib.util, json, sys

LOWER = ("arraystack.ir", "arraystack.backends")


def check(package):
    nd = package.ndarray
    missing = [n for n in ("sum", "reshape", "sort", "take", "diagonal", "tofile", "T", "__add__",
                           "__divmod__", "__matmul__", "__getitem__") if not hasattr(nd, n)]
    assert not missing, f"ndarray lacks {missing}"
    x = package.arange(6.0).reshape(2, 3)
    assert (x + 1).sum().item() == 21.0 and x.T.shape == (3, 2)
    y = package.asarray([3, 1, 2])
    y.sort()
    assert y.tolist() == [1, 2, 3] and y.take([0]).tolist() == [1]
    assert (x @ x.T).tolist() == [[5.0, 14.0], [14.0, 50.0]]


import arraystack  # the ir and backends layers, and the spec of the package

spec = importlib.util.find_spec("arraystack")
failures = {}
for name in json.loads(sys.argv[1]):
    for key in [k for k in sys.modules if k.split(".")[0] == "arraystack" and not k.startswith(LOWER)]:
        del sys.modules[key]
    package = importlib.util.module_from_spec(spec)
    package.ir, package.backends = sys.modules["arraystack.ir"], sys.modules["arraystack.backends"]
    sys.modules["arraystack"] = package  # registered; its namespace is not built yet
    try:
        importlib.import_module(name)  # the module first, alone
        spec.loader.exec_module(package)  # then the namespace, as `import arraystack` builds it
        check(package)
    except Exception as error:
        failures[name] = f"{type(error).__name__}: {error}"
print(json.dumps(failures))
"""


def frontend_modules() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(("arraystack", *parts)))
    return names


def import_each_first(names: list[str], processes: int = 2) -> dict[str, str]:
    """{module: error} for the modules that fail to import first, alone (fresh interpreters, each
    running a share of the modules)."""
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", SCRIPT, json.dumps(names[i::processes])],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(processes)
    ]
    failures = {}
    for run in runs:
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err
        failures.update(json.loads(out.splitlines()[-1]))
    return failures


def test_the_modules_are_found():
    names = frontend_modules()
    assert {"arraystack", "arraystack._core.array", "arraystack.linalg._matmul"} <= set(names)
    assert "arraystack._transforms.jit" in names and len(names) > 100


SHARES = 6  # separate tests, so the test runner's workers share them


@pytest.mark.parametrize("share", range(SHARES))
def test_every_module_imports_first_alone(share):
    assert import_each_first(frontend_modules()[share::SHARES], processes=1) == {}
