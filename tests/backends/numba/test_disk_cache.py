"""numba's disk cache of the kernels: each file is checked before numba reads it, a bad one is rebuilt and
named in a warning, and an unwritable cache directory falls back once, to one directory."""

from __future__ import annotations

import logging
import os
import pickle
import random
import shutil
import subprocess
import sys
import textwrap

import pytest
from arraystack.backends.numba import disk_cache
from arraystack.backends.numba.disk_cache import MAGIC, CheckedCacheFile

pytestmark = pytest.mark.numba

# One kernel, compiled before the first call returns; prints what numba did and the result's check.
PROGRAM = """
import numpy
import arraystack as np
from arraystack.backends.numba.kernels import compile_counts

x = numpy.linspace(-1.0, 1.0, 1000)
f = np.jit(lambda a: a * 1.40625 + 0.5, tiered=False)
r = numpy.asarray(f(np.asarray(x)))
assert r.tobytes() == (x * 1.40625 + 0.5).tobytes(), r
counts = compile_counts()
print("compiled", counts["numba_compiles"], "loaded", counts["disk_loads"])
"""


def run(cache_dir, program=PROGRAM, **env):
    """A fresh process on this cache directory; it must exit 0 (no crash, no exception)."""
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(program)],
        env=dict(os.environ, ARRAYSTACK_CACHE_DIR=str(cache_dir), **env),
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return out


def cache_files(cache_dir, suffix):
    return sorted(
        os.path.join(root, name)
        for root, _, names in os.walk(cache_dir)
        for name in names
        if name.endswith(suffix)
    )


@pytest.fixture(scope="module")
def warmed(tmp_path_factory):
    """A cache directory holding the kernel of PROGRAM (one index, one entry), made once."""
    cache_dir = tmp_path_factory.mktemp("warm")
    assert run(cache_dir).stdout.split() == ["compiled", "1", "loaded", "0"]
    return cache_dir


@pytest.fixture
def warm(warmed, tmp_path):
    """A copy of the warm cache for one test (copy2 keeps the kernel file's time: numba's stamp)."""
    cache_dir = tmp_path / "cache"
    shutil.copytree(warmed, cache_dir)
    (index,), (entry,) = cache_files(cache_dir, ".nbi"), cache_files(cache_dir, ".nbc")
    return cache_dir, index, entry


def sound(cache_dir):
    """Every index and entry under cache_dir passes its check."""
    files = cache_files(cache_dir, ".nbi") + cache_files(cache_dir, ".nbc")
    for path in files:
        with open(path, "rb") as f:
            assert disk_cache._verified(path, f.read()) is not None, path
    return len(files)


def rebuilt_and_named(cache_dir, path):
    """A fresh process computes the right result, compiling again and naming the bad file, which it
    rewrites whole."""
    out = run(cache_dir)
    assert out.stdout.split() == ["compiled", "1", "loaded", "0"]
    assert path in out.stderr and "corrupt" in out.stderr
    assert sound(cache_dir) == 2


def test_a_copy_of_the_warm_cache_loads_without_compiling(warm):
    cache_dir, _, _ = warm
    out = run(cache_dir)
    assert out.stdout.split() == ["compiled", "0", "loaded", "1"] and "corrupt" not in out.stderr


def test_flipped_bits_in_an_entry_are_caught_and_the_entry_rebuilt(warm):
    cache_dir, _, entry = warm
    with open(entry, "rb") as f:
        data = bytearray(f.read())
    rng = random.Random(0)
    for _ in range(8):  # in numba's part of the file (machine code, pickles), past the checksum
        k = rng.randrange(len(MAGIC) + 32, len(data))
        data[k] ^= 1 << rng.randrange(8)
    with open(entry, "wb") as f:
        f.write(data)
    rebuilt_and_named(cache_dir, entry)


def test_a_truncated_index_is_caught_and_rebuilt(warm):
    cache_dir, index, _ = warm
    with open(index, "rb") as f:
        data = f.read()
    with open(index, "wb") as f:
        f.write(data[: len(data) // 2])
    rebuilt_and_named(cache_dir, index)


@pytest.mark.parametrize("which", ["index", "entry"])
def test_garbage_in_place_of_a_cache_file_is_caught_and_rebuilt(warm, which):
    cache_dir, index, entry = warm
    path = index if which == "index" else entry
    with open(path, "wb") as f:
        f.write(random.Random(1).randbytes(3000))
    rebuilt_and_named(cache_dir, path)


def test_stray_files_and_a_garbled_kernel_source_change_nothing(warm):
    cache_dir, _, entry = warm
    folder = os.path.dirname(entry)
    for name in ("junk.nbc", "junk.nbi", "k_0.kernel-20.py311.nbi", entry + ".tmp.0123"):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(b"\x80\x05garbage")
    (source,) = [p for p in cache_files(cache_dir, ".py") if os.path.basename(p).startswith("k_")]
    with open(source, "w") as f:
        f.write("garbage = (\n")  # rewritten from the kernel's source before it is imported
    out = run(cache_dir)  # right results (PROGRAM checks them), no warning
    assert out.stdout.split()[2:] == ["loaded", "1"] and "corrupt" not in out.stderr


def test_an_unwritable_cache_directory_falls_back_once_to_one_directory(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    program = PROGRAM + textwrap.dedent("""
        g = np.jit(lambda a: a * 2.5 - 1.0, tiered=False)  # another kernel, in another file
        assert numpy.asarray(g(np.asarray(x))).tobytes() == (x * 2.5 - 1.0).tobytes()
        print("kernels", compile_counts()["kernels"])
    """)
    out = run(blocker / "cache", program, TMPDIR=str(temporary))
    assert out.stdout.split()[-2:] == ["kernels", "2"]
    assert out.stderr.count("cannot be written") == 1, out.stderr
    (fallback,) = os.listdir(temporary)  # one directory for every kernel of the run
    assert fallback == f"arraystack-{os.getuid()}" and str(temporary / fallback) in out.stderr
    assert len(cache_files(temporary, ".py")) == 2
    again = run(blocker / "cache", program, TMPDIR=str(temporary))  # the next run finds them there
    assert again.stdout.split()[:4] == ["compiled", "0", "loaded", "1"]
    assert os.listdir(temporary) == [fallback]


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() == 0, reason="root may write anywhere")
def test_a_read_only_cache_directory_falls_back(tmp_path):
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir(mode=0o500)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    try:
        out = run(cache_dir, TMPDIR=str(temporary))
    finally:
        cache_dir.chmod(0o700)
    assert out.stderr.count("cannot be written") == 1
    assert os.listdir(temporary) == [f"arraystack-{os.getuid()}"]


# The format, on numba's cache file class directly


@pytest.fixture
def cache_file(tmp_path):
    return CheckedCacheFile(str(tmp_path), "k_test.kernel-1.py311", source_stamp=(1.0, 10))


def test_the_checked_format_round_trips_and_carries_its_checksum(cache_file, tmp_path):
    cache_file.save("key", {"payload": list(range(5))})
    assert cache_file.load("key") == {"payload": list(range(5))}
    for path in tmp_path.iterdir():
        assert path.read_bytes().startswith(MAGIC)


def test_a_bad_index_reads_as_empty_and_is_named(cache_file, tmp_path, caplog):
    cache_file.save("key", 42)
    index = tmp_path / "k_test.kernel-1.py311.nbi"
    data = index.read_bytes()
    index.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    with caplog.at_level(logging.WARNING, logger="arraystack.jit"):
        assert cache_file.load("key") is None
    assert str(index) in caplog.text and "checksum" in caplog.text
    cache_file.save("key", 43)  # rebuilt
    assert cache_file.load("key") == 43


def test_a_bad_entry_reads_as_missing_and_is_named(cache_file, tmp_path, caplog):
    cache_file.save("key", 42)
    entry = tmp_path / "k_test.kernel-1.py311.1.nbc"
    entry.write_bytes(entry.read_bytes()[:40])
    with caplog.at_level(logging.WARNING, logger="arraystack.jit"):
        assert cache_file.load("key") is None
    assert str(entry) in caplog.text and "truncated" in caplog.text


def test_files_in_numbas_own_format_count_as_stale_without_a_warning(cache_file, tmp_path, caplog):
    index = tmp_path / "k_test.kernel-1.py311.nbi"
    index.write_bytes(pickle.dumps("0.0") + pickle.dumps(((1.0, 10), {"key": "x.nbc"})))
    with caplog.at_level(logging.WARNING, logger="arraystack.jit"):
        assert cache_file.load("key") is None
    assert caplog.text == ""


def test_kernels_and_their_library_check_their_cache(tmp_path):
    from arraystack.backends.numba.kernels import load_kernel
    from arraystack.backends.numba.mathlib import erf, exp_log, log1p, trig
    from numba.core.dispatcher import Dispatcher

    source = "@numba.njit(cache=True)\ndef kernel(a):\n    return exp_f64(a) * 0.96875\n"
    kernel, _ = load_kernel(source, cache_dir=str(tmp_path))
    assert isinstance(kernel._cache._cache_file, CheckedCacheFile)
    library = [
        v
        for module in (exp_log, erf, log1p, trig)
        for v in vars(module).values()
        if isinstance(v, Dispatcher)
    ]
    assert library and all(isinstance(d._cache._cache_file, CheckedCacheFile) for d in library)
    assert disk_cache.check_entries(kernel) is None  # a second time changes nothing


@pytest.mark.parametrize(
    "edited, plain_changes, complex_changes",
    [("mathlib.complex_arith", False, True), ("mathlib.exp_log", True, True), ("mathlib.half", False, True)],
)
def test_an_edit_invalidates_the_kernels_that_import_the_module(monkeypatch, edited, plain_changes, complex_changes):
    """A kernel's key covers the text of the modules it imports, transitively, and no other: an edit to the
    complex functions leaves every float kernel's disk cache valid."""
    from arraystack.backends.numba import kernels
    from arraystack.backends.numba.codegen import _IMPORTS

    plain = "def kernel(x):\n    return x\n"
    with_complex = _IMPORTS + plain
    before = kernels.kernel_key(plain), kernels.kernel_key(with_complex)
    original = kernels._module_text
    monkeypatch.setattr(kernels, "_module_text", lambda m: original(m) + ("# edit\n" if m == edited else ""))
    kernels._module_digest.cache_clear()
    try:
        after = kernels.kernel_key(plain), kernels.kernel_key(with_complex)
    finally:
        monkeypatch.undo()
        kernels._module_digest.cache_clear()
    assert (after[0] != before[0], after[1] != before[1]) == (plain_changes, complex_changes)
    assert (kernels.kernel_key(plain), kernels.kernel_key(with_complex)) == before
