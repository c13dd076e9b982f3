"""Packaging: the wheel holds every module of the three folders under the one `arraystack` namespace, and the
folders cannot be imported a second time under their folder names."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NAMESPACE = {"arraystack": "arraystack", "jit": "arraystack/ir", "backends": "arraystack/backends"}


def _source_files():
    """Every file the wheel must carry, as its path inside the wheel."""
    expected = {"arraystack/py.typed"}
    for folder, target in NAMESPACE.items():
        for path in (ROOT / folder).rglob("*.py"):
            if "__pycache__" not in path.parts:
                expected.add(f"{target}/{path.relative_to(ROOT / folder).as_posix()}")
    return expected


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    """Build the wheel from a copy of the sources (so the build leaves nothing in the work tree)."""
    src = tmp_path_factory.mktemp("src")
    for name in ("arraystack", "jit", "backends"):
        shutil.copytree(
            ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, src / name)
    out = tmp_path_factory.mktemp("dist")
    command = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "-q",
        "--wheel-dir",
        str(out),
        str(src),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, f"building the wheel failed:\n{done.stdout}\n{done.stderr}"
    (path,) = out.glob("arraystack-*.whl")
    with zipfile.ZipFile(path) as archive:
        yield archive


@pytest.mark.slow
def test_the_wheel_holds_every_module_of_every_folder(wheel):
    names = set(wheel.namelist())
    missing = sorted(_source_files() - names)
    assert missing == [], f"missing from the wheel (a folder without __init__.py?): {missing}"
    for sub in (
        "arraystack/ir/",
        "arraystack/backends/",
        "arraystack/ir/passes/",
        "arraystack/ir/transforms/",
    ):
        assert any(n.startswith(sub) for n in names), sub


@pytest.mark.slow
def test_the_wheel_installs_no_top_level_jit_or_backends(wheel):
    tops = {n.split("/")[0] for n in wheel.namelist() if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"arraystack"}


@pytest.mark.slow
def test_the_wheel_declares_the_command_line_entry_point(wheel):
    (entry_points,) = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    assert "arraystack = arraystack.__main__:main" in wheel.read(entry_points).decode()


def test_every_source_folder_with_modules_is_a_package():
    """find_packages in setup.py skips a folder without __init__.py, and its modules would vanish."""
    for folder in NAMESPACE:
        for path in (ROOT / folder).rglob("*.py"):
            if "__pycache__" not in path.parts:
                assert (path.parent / "__init__.py").exists(), f"{path.parent} has no __init__.py"


@pytest.mark.slow
@pytest.mark.parametrize(
    "folder, namespace", [("jit", "arraystack.ir"), ("backends", "arraystack.backends")]
)
def test_the_folders_refuse_to_load_under_their_own_names(folder, namespace):
    done = subprocess.run(
        [sys.executable, "-c", f"import {folder}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode != 0
    assert f"ImportError: the folder {folder}/ must be imported as {namespace}" in done.stderr


def test_a_built_accelerator_is_the_one_in_use():
    """A C fast path built next to its sources is current (setup.py and arraystack/_core/array.py hash the same
    files) and loaded: a stale or mismatched build would silently leave the Python path in use."""
    import glob
    import os

    from arraystack._core import accelerator as _accelerator

    folder = os.path.dirname(_accelerator.__file__)
    if os.environ.get("ARRAYSTACK_FASTPATH") == "0" or not glob.glob(os.path.join(folder, "_fastpath*.so")):
        pytest.skip("the accelerator is not built in the source tree (or is turned off)")
    assert _accelerator.fastpath is not None, "the built _fastpath is stale or failed to load"
    assert _accelerator.is_current(_accelerator.fastpath)
