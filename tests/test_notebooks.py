"""The notebooks in notebooks/ run top to bottom without an error (issue 7: they are part of the docs).

Each notebook is executed with nbclient on the "python3" kernel in a fresh temporary working directory, so
nothing it writes lands in the repository. The kernel inherits this process's environment, including
ARRAYSTACK_CACHE_DIR. The notebooks are committed without outputs; this test does not write them back.
"""

from __future__ import annotations

import pathlib

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOKS = sorted((pathlib.Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute(cwd=str(tmp_path))


def test_notebooks_are_committed_without_outputs():
    assert NOTEBOOKS, "no notebooks in notebooks/"
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert not cell.outputs and cell.execution_count is None, f"{path.name} has outputs"
