"""`python -m arraystack cache info|clear` (arraystack/_cli/cache.py) and the kernel fallback directory:
where the cache directory cannot be written, kernels are cached in <tmp>/arraystack-<uid>
(backends/numba/kernels.py); `info` shows it while it is in use or exists, `clear` deletes arraystack's
entries there too, and a fallback directory kernels.py would not use (not private) is left alone."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
import textwrap

import numpy
import pytest
from arraystack.backends.numba import kernels

import arraystack as ast
from arraystack._cli import cache as _cli_cache


@pytest.fixture
def places(tmp_path, monkeypatch):
    """(the cache directory, the fallback root) of a fresh temporary directory, configured in-process."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    cache = tmp_path / "cache"
    monkeypatch.setattr(ast.config, "cache_dir", str(cache))
    return cache, temporary / f"arraystack-{os.getuid()}"


def _kernels(root, size=3000):
    folder = root / "kernels-v2-numba0.0"
    (folder / "__pycache__").mkdir(parents=True)
    (folder / "k_0123.py").write_text("x" * size)
    (folder / "__pycache__" / "k_0123.nbi").write_bytes(b"\0" * 1000)
    return folder


def _run(command, **options):
    out = io.StringIO()
    code = getattr(_cli_cache, command)(out=out, **options)
    return code, out.getvalue()


def test_no_fallback_directory_no_fallback_section(places):
    cache, root = places
    _kernels(cache)
    code, out = _run("cache_info")
    assert code == 0 and "kernel fallback" not in out and "3.9 KiB" in out
    assert "kernel fallback" not in _cli_cache.summary()
    assert not root.exists()  # info creates nothing


def test_a_fallback_left_by_another_run_is_shown_and_cleared(places):
    cache, root = places
    _kernels(cache)
    root.mkdir(mode=0o700)
    _kernels(root, size=9000)
    (root / "notes.txt").write_text("not arraystack's")
    code, out = _run("cache_info")
    assert code == 0
    assert f"kernel fallback directory: {root} (not in use: left by a process" in out
    assert "kernels-v2-numba0.0" in out.split("kernel fallback", 1)[1] and "9.8 KiB" in out
    assert "not arraystack's (kept): notes.txt" in out
    assert f"kernel fallback {root} (not in use, 9.8 KiB)" in _cli_cache.summary()
    code, out = _run("cache_clear", dry_run=True)
    assert (
        f"would delete 3.9 KiB from {cache}:" in out and f"would delete 9.8 KiB from {root}:" in out
    )
    assert (root / "kernels-v2-numba0.0").exists()
    code, out = _run("cache_clear")
    assert code == 0 and f"cleared 3.9 KiB from {cache} and 9.8 KiB from {root}." in out
    assert sorted(os.listdir(root)) == ["notes.txt"] and os.listdir(cache) == []
    code, out = _run("cache_clear")
    assert (
        code == 0
        and f"nothing to clear: no arraystack cache entries in {cache} nor in {root}" in out
    )


def test_a_fallback_in_use_is_shown_before_it_exists(places, tmp_path, monkeypatch):
    _, root = places
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setattr(ast.config, "cache_dir", str(blocker / "cache"))
    code, out = _run("cache_info")
    assert code == 0 and "it cannot be created" in out
    assert (
        f"kernel fallback directory: {root} (in use: the cache directory cannot be written, " in out
    )
    assert f"{blocker} is not a directory" in out and "it does not exist yet" in out
    assert _run("cache_clear")[0] == 0
    assert not root.exists()


def test_a_fallback_directory_others_may_write_is_not_cleared(places):
    _, root = places
    root.mkdir()
    root.chmod(
        0o777
    )  # kernels.py would not import from it, so it holds none of this user's kernels
    folder = _kernels(root)
    assert not kernels.is_private(root)
    code, out = _run("cache_info")
    assert code == 0 and "not used" in out and "not cleared" in out
    code, out = _run("cache_clear")
    assert code == 0 and "nothing to clear" in out and folder.exists()


PROGRAM = textwrap.dedent("""
    import numpy
    import arraystack as np
    x = numpy.arange(5.0)
    assert numpy.asarray(np.jit(lambda a: a * 2.5 - 1.0, tiered=False)(x)).tolist() == list(x * 2.5 - 1.0)
""")


@pytest.mark.numba
def test_kernels_compiled_into_the_fallback_are_shown_and_cleared(tmp_path):
    """End to end: a run whose cache directory cannot be written compiles into the fallback directory;
    `cache info` lists it, `cache clear` deletes it and the next run compiles there again."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "ARRAYSTACK_CACHE_DIR": str(blocker / "cache"), "TMPDIR": str(temporary)}

    def run(*args):
        done = subprocess.run(
            [sys.executable, *args],
            check=False,
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    root = temporary / f"arraystack-{os.getuid()}"
    run("-c", PROGRAM)
    (folder,) = os.listdir(root)
    assert folder == kernels.kernel_dir_name()
    out = run("-m", "arraystack", "cache", "info")
    assert f"kernel fallback directory: {root} (in use:" in out and folder in out
    out = run("-m", "arraystack", "cache", "clear")
    assert f"from {root}:" in out and os.listdir(root) == []
    run("-c", PROGRAM)  # the next run makes the directory again
    assert os.listdir(root) == [folder]


@pytest.mark.numba
def test_a_kernel_compiled_after_a_clear_remakes_its_directory(tmp_path, monkeypatch):
    """A clear (from another process, or this one) deletes the kernel directory this process made."""
    cache = tmp_path / "cache"
    monkeypatch.setattr(ast.config, "cache_dir", str(cache))
    x = numpy.arange(4.0)
    ast.jit(lambda a: a * 2.5 - 0.0625, tiered=False)(x)
    assert os.listdir(cache) == [kernels.kernel_dir_name()]
    assert _run("cache_clear")[0] == 0 and os.listdir(cache) == []
    got = ast.jit(lambda a: a * 2.5 - 0.1875, tiered=False)(x)  # another kernel: written to disk
    assert numpy.asarray(got).tolist() == (x * 2.5 - 0.1875).tolist()
    assert os.listdir(cache) == [kernels.kernel_dir_name()]
