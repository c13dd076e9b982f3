"""The README's Python examples run as they are (issue 7): the quickstart block (one block of at most 20 lines
near the top that uses eager NumPy code, jit, grad and vmap together) and every other ```python block.

Each block runs in a fresh interpreter in a temporary directory; the quickstart's printed numbers are checked
against NumPy (the loss, the fitted weight's gradient, vmap's per-row gradients by finite differences).
"""

from __future__ import annotations

import ast
import pathlib
import re
import subprocess
import sys

import numpy
import pytest

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def python_blocks(text: str) -> list:
    return re.findall(r"^```python\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)


def sections(text: str) -> list:
    """[(heading, body)] for the README's '## ' sections, in order."""
    parts = re.split(r"^## (.+)$", text, flags=re.MULTILINE)
    return list(zip(parts[1::2], parts[2::2]))


def quickstart() -> str:
    (body,) = [
        body for heading, body in sections(README.read_text("utf-8")) if heading == "Quickstart"
    ]
    (block,) = python_blocks(body)
    return block


def run(code: str, cwd) -> subprocess.CompletedProcess:
    """Run a README block as the script example.py (the IR it prints names that file's lines)."""
    script = pathlib.Path(cwd) / "example.py"
    script.write_text(code, "utf-8")
    return subprocess.run(
        [sys.executable, str(script)],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_quickstart_is_the_first_section_with_one_short_block_of_eager_code_jit_grad_and_vmap():
    assert sections(README.read_text("utf-8"))[0][0] == "Quickstart"
    code = quickstart()
    assert len(code.splitlines()) <= 20
    tree = ast.parse(code)
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert {"jit", "grad", "vmap"} <= used
    assert {"linspace", "tanh", "mean", "stack"} <= used  # NumPy's API, eagerly
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert [a.name for n in imports for a in n.names] == ["arraystack"]


def _floats(line: str) -> list:
    return [float(v) for v in re.findall(r"-?\d+\.\d*(?:e[-+]?\d+)?", line)]


@pytest.mark.slow
def test_quickstart_runs_as_is_and_prints_what_numpy_computes(tmp_path):
    done = run(quickstart(), tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    eager, values, fitted, *per_row = done.stdout.strip().splitlines()
    x = numpy.linspace(-2.0, 2.0, 5)

    def loss(w, x):
        return numpy.mean((numpy.tanh(w * x) - 0.5 * x) ** 2)

    def slope(w, x, h=1e-6):
        return (loss(w + h, x) - loss(w - h, x)) / (2 * h)

    numpy.testing.assert_allclose(_floats(eager), [*numpy.tanh(x).round(3), 2.0])
    assert eager.split("]")[1].split()[0] == "float64"
    numpy.testing.assert_allclose(_floats(values), [loss(1.0, x)] * 2, rtol=1e-12)
    w, final = _floats(fitted)
    numpy.testing.assert_allclose(final, loss(w, x), rtol=1e-12)
    assert final < loss(1.0, x) / 2 and abs(slope(w, x)) < 1e-6  # gradient descent converged
    rows = numpy.stack([x, 2 * x, 3 * x])
    numpy.testing.assert_allclose(
        _floats(" ".join(per_row)), [slope(w, r) for r in rows], rtol=1e-5, atol=1e-7
    )


BLOCKS = python_blocks(README.read_text("utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{k}" for k in range(len(BLOCKS))])
def test_every_python_block_in_the_readme_runs(code, tmp_path):
    done = run(code, tmp_path)
    assert done.returncode == 0, f"{code}\n{done.stderr}"
    assert "Warning" not in done.stderr, done.stderr
    if "print_graph(graph)" in code:  # the printed IR in the README is what the code prints
        printed = [line.rstrip() for line in done.stdout.splitlines()]
        documented = [line[2:].rstrip() for line in code.splitlines() if line.startswith("# ")]
        assert printed == documented
