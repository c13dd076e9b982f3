"""`python -m arraystack` (arraystack/__main__.py): the demo, info, cache, bench and help, each in a fresh
process started outside the repository, as a user would run them after `pip install -e .`. The real
benchmarks never run here: bench is checked with --list, a missing folder, and stand-in scripts."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


def run(tmp_path, *args, env=None, timeout=300):
    done = subprocess.run(
        [sys.executable, "-m", "arraystack", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
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


README = Path(__file__).resolve().parents[2] / "README.md"
INSTALL_AND_DEMO = "pip install -e . && python -m arraystack demo"
INSTALL_AND_TEST = 'pip install -e ".[test]" && pytest'


def test_readme_quickstart_is_the_two_commands_and_ci_runs_the_second():
    text = README.read_text()
    quickstart = text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\n(.*?)```", quickstart, re.S)
    assert [b.strip() for b in blocks] == [INSTALL_AND_DEMO, INSTALL_AND_TEST]
    ci = (README.parent / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-1] == INSTALL_AND_TEST


# -- info, cache and bench (arraystack/_cli/info.py, cache.py, bench.py) ------------------------------------


def run_env(tmp_path, cache, *args):
    # TMPDIR too: `cache clear` also clears the fallback directory under the temporary one
    env = {**os.environ, "ARRAYSTACK_CACHE_DIR": str(cache), "TMPDIR": str(tmp_path)}
    return run(tmp_path, *args, env=env, timeout=120)


def fake_cache(root: Path) -> Path:
    """A cache folder with arraystack's two kinds of entries and one foreign file."""
    (root / "hardware").mkdir(parents=True)
    (root / "hardware" / "cpu.json").write_text("{}")
    kernels = root / "kernels-v1-numba0.0"
    (kernels / "__pycache__").mkdir(parents=True)
    (kernels / "k_0123.py").write_text("x" * 3000)
    (kernels / "__pycache__" / "k_0123.nbi").write_bytes(b"\0" * 2000)
    (root / "notes.txt").write_text("not arraystack's")
    return root


@pytest.mark.slow
def test_info_lists_backends_and_the_cache(tmp_path):
    cache = fake_cache(tmp_path / "cache")
    code, out, err = run_env(tmp_path, cache, "info")
    assert code == 0, err
    assert re.search(rf"cache +{re.escape(str(cache))} \(4\.9 KiB in 3 files\)", out), out
    backends = out.split("backends", 1)[1].split("hardware model", 1)[0]
    rows = {line.split()[0]: line for line in backends.splitlines() if line.startswith("  ")}
    from arraystack.backends import available

    registered = {row.name: row for row in available()}  # the registry's backends, each listed
    assert set(rows) == set(registered) and {"reference", "numba"} <= set(rows), backends
    assert " yes " in rows["reference"]
    for name, row in registered.items():  # available: what it is; unavailable: why not
        assert (" yes " if row.available else " no ") in rows[name]
        assert (row.description if row.available else row.reason) in rows[name]
    assert "[default]" in backends


@pytest.mark.slow
def test_cache_info_shows_entries_and_sizes(tmp_path):
    cache = fake_cache(tmp_path / "cache")
    code, out, err = run_env(tmp_path, cache, "cache", "info")
    assert code == 0, err
    assert f"cache directory: {cache} (from ARRAYSTACK_CACHE_DIR" in out
    assert re.search(r"hardware +2 B +1 files +hardware model", out), out
    assert re.search(r"kernels-v1-numba0\.0 +4\.9 KiB +2 files +compiled kernels \(numba 0\.0\)", out)
    assert "not arraystack's (kept): notes.txt" in out


@pytest.mark.slow
def test_cache_clear_prints_what_and_how_much_then_deletes_only_the_cache(tmp_path):
    cache = fake_cache(tmp_path / "cache")
    code, out, _ = run_env(tmp_path, cache, "cache", "clear", "--dry-run")
    assert code == 0 and "would delete 4.9 KiB" in out and (cache / "hardware").exists()
    code, out, err = run_env(tmp_path, cache, "cache", "clear")
    assert code == 0, err
    assert f"deleting 4.9 KiB from {cache}:" in out and "kernels-v1-numba0.0" in out
    assert "cleared 4.9 KiB" in out
    assert sorted(p.name for p in cache.iterdir()) == ["notes.txt"]
    code, out, _ = run_env(tmp_path, cache, "cache", "clear")
    assert code == 0 and "nothing to clear" in out
    code, out, _ = run_env(tmp_path, tmp_path / "absent", "cache", "info")
    assert code == 0 and "does not exist yet" in out


@pytest.mark.slow
@pytest.mark.parametrize("command", ["demo", "info", "bench", "cache", "cache clear"])
def test_every_command_has_help(tmp_path, command):
    code, out, _ = run(tmp_path, *command.split(), "--help")
    assert code == 0 and f"usage: python -m arraystack {command}" in out
    assert len(out.split("options:", 1)[0].split("\n", 2)[-1].strip()) > 40  # a description, not a stub


@pytest.mark.slow
def test_bench_help_names_the_scripts_and_options(tmp_path):
    code, out, _ = run(tmp_path, "bench", "--help")
    assert code == 0
    for words in ("--quick", "--only", "--list", "bench_jit.py", "bench_train.py", "bench_eager.py"):
        assert words in out
    assert "bench_memory.py" in out and "not part of an installed wheel" in out


@pytest.mark.slow
def test_bench_without_a_benchmarks_folder_says_so(tmp_path):
    code, out, err = run(tmp_path, "bench", "--dir", str(tmp_path / "no-such-folder"))
    assert code == 2 and out == ""
    assert "no benchmarks folder at" in err and "source repository" in err and "pip install -e ." in err


@pytest.mark.slow
def test_bench_list_shows_the_scripts_present_without_running_them(tmp_path):
    folder = tmp_path / "benchmarks"
    folder.mkdir()
    (folder / "bench_jit.py").write_text("raise SystemExit('must not run')\n")
    code, out, err = run(tmp_path, "bench", "--dir", str(folder), "--list", "--quick")
    assert code == 0, err
    assert "bench_jit.py --quick" in out
    assert "bench_train.py is not in" in out and "skipped" in out


@pytest.mark.slow
def test_bench_runs_each_script_and_summarizes(tmp_path):
    folder = tmp_path / "benchmarks"
    folder.mkdir()
    (folder / "bench_eager.py").write_text("import sys\nprint('ratio table', sys.argv[1:])\n")
    (folder / "bench_memory.py").write_text("raise SystemExit(3)\n")
    code, out, _ = run(tmp_path, "bench", "--dir", str(folder), "--quick")
    assert code == 1
    assert "ratio table ['--quick']" in out
    assert re.search(r"eager +ok", out) and re.search(r"memory +FAILED \(exit 3\)", out)
