"""The notebooks in notebooks/ run top to bottom without an error (issue 7: they are part of the docs).

Each notebook is executed with nbclient on the "python3" kernel in a fresh temporary working directory, so
nothing it writes lands in the repository. The kernel inherits this process's environment, including
ARRAYSTACK_CACHE_DIR. The notebooks are committed without outputs; this test does not write them back. A cell
that calls plt.show() must show a figure when matplotlib is installed, and no cell may print a Python warning.
"""

from __future__ import annotations

import importlib.util
import pathlib
import re

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
NOTEBOOKS = sorted((pathlib.Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute(cwd=str(tmp_path))
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    for cell in code:  # a cell that shows a figure shows one (matplotlib is in the test extra)
        if HAS_MATPLOTLIB and "plt.show()" in cell.source:
            kinds = {kind for out in cell.outputs for kind in out.get("data", {})}
            assert "image/png" in kinds, f"no figure from:\n{cell.source}"
    warned = [
        out["text"]
        for cell in code
        for out in cell.outputs
        if out.get("name") == "stderr" and re.search(r"\w*Warning: ", out["text"])
    ]
    assert not warned, f"{path.name} printed warnings:\n" + "\n".join(warned)


def test_notebooks_are_committed_without_outputs():
    assert NOTEBOOKS, "no notebooks in notebooks/"
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert not cell.outputs and cell.execution_count is None, f"{path.name} has outputs"
