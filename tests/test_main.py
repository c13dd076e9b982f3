"""`python -m arraystack` (arraystack/__main__.py): the demo, info and help, each in a fresh process started
outside the repository, as a user would run them after `pip install -e .`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest


def run(tmp_path, *args):
    done = subprocess.run(
        [sys.executable, "-m", "arraystack", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.slow
def test_demo_trains_a_digit_classifier_and_reports_accuracy_and_speedup(tmp_path):
    code, out, err = run(tmp_path, "demo", "--epochs", "8", "--no-progress")
    assert code == 0, out + err
    epochs = [line for line in out.splitlines() if line.startswith("epoch ")]
    assert len(epochs) == 8, out
    accuracy = float(re.search(r"test accuracy (\d\.\d+) after 8 epochs", out).group(1))
    assert accuracy >= 0.95, out
    assert re.search(r"eager [\d.]+ ms, jit [\d.]+ ms -> [\d.]+x faster with jit", out), out


@pytest.mark.slow
def test_demo_without_jit_trains_too(tmp_path):
    code, out, err = run(tmp_path, "demo", "--epochs", "1", "--no-jit", "--no-progress")
    assert code in (0, 1), out + err  # one eager epoch: the accuracy bar is for the full demo
    assert "test accuracy" in out and "faster with jit" not in out


@pytest.mark.slow
def test_demo_numpy_runs_a_numpy_program_matches_numpy_and_prints_the_ir(tmp_path):
    code, out, err = run(tmp_path, "demo", "--numpy")
    assert code == 0, out + err
    assert "with `import numpy as np` and with `import arraystack as np`" in out
    table = [
        line
        for line in out.splitlines()
        if line.startswith("  ") and line.rstrip().endswith(("yes", "NO"))
    ]
    assert len(table) >= 10 and all(line.rstrip().endswith("yes") for line in table), out
    assert "results match NumPy in value, dtype and shape: all match." in out
    assert "graph(a:f32[8,4], b:f32[4,3], c:f32[3]) {" in out
    assert "= tanh " in out and "dot_general" in out
    assert "# demo.py:2" in out and "# demo.py:3" in out  # the traced source lines


@pytest.mark.slow
def test_demo_program_agrees_with_numpy_in_process():
    import numpy

    import arraystack
    from arraystack.__main__ import _same, demo_program

    expected, actual = demo_program(numpy), demo_program(arraystack)
    assert list(expected) == list(actual)
    for name in expected:
        assert isinstance(actual[name], arraystack.ndarray), name
        assert _same(expected[name], actual[name]), name


@pytest.mark.slow
def test_info_prints_versions(tmp_path):
    import numpy

    code, out, err = run(tmp_path, "info")
    assert code == 0, err
    assert out.startswith("arraystack     0.1.0")
    assert f"numpy          {numpy.__version__}" in out
    assert "python         3." in out


@pytest.mark.slow
@pytest.mark.parametrize("args", [("--help",), ()])
def test_help_lists_the_commands(tmp_path, args):
    code, out, _ = run(tmp_path, *args)
    assert code == 0
    assert "usage: python -m arraystack" in out and "demo" in out and "info" in out


@pytest.mark.slow
def test_an_unknown_command_is_a_usage_error(tmp_path):
    code, _, err = run(tmp_path, "frobnicate")
    assert code == 2 and "invalid choice" in err


README = Path(__file__).resolve().parents[1] / "README.md"
INSTALL_AND_DEMO = "pip install -e . && python -m arraystack demo"
INSTALL_AND_TEST = 'pip install -e ".[test]" && pytest'


def test_readme_quickstart_is_the_two_commands_and_ci_runs_the_second():
    text = README.read_text()
    quickstart = text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\n(.*?)```", quickstart, re.S)
    assert [b.strip() for b in blocks] == [INSTALL_AND_DEMO, INSTALL_AND_TEST]
    ci = (README.parent / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-1] == INSTALL_AND_TEST


@pytest.mark.slow
@pytest.mark.parametrize("number", [0, 1, 2, 3, 4])
def test_readme_python_examples_run(tmp_path, number):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) == 5
    script = tmp_path / "example.py"
    script.write_text(blocks[number])
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    if "print_graph(graph)" in blocks[number]:  # the printed IR in the README is what the code prints
        printed = [line.rstrip() for line in done.stdout.splitlines()]
        documented = [
            line[2:].rstrip() for line in blocks[number].splitlines() if line.startswith("# ")
        ]
        assert printed == documented
