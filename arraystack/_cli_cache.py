"""`python -m arraystack cache info|clear`: what arraystack keeps on disk under arraystack.config.cache_dir.

Two kinds of entries live there, both rebuilt on demand:
  hardware/                        the calibrated hardware model (cpu.json), measured again on next use;
  kernels-v<format>-numba<version>/ generated kernel sources and numba's compiled cache of them, compiled
                                   again by the next jitted call that needs them (a cold start).
Only these entries are counted as the cache and deleted by `clear`; anything else in the folder (the
folder may be shared, e.g. ARRAYSTACK_CACHE_DIR=~/.cache) is listed as kept and never touched.
"""

from __future__ import annotations

import os
import shutil
import sys


def cache_dir() -> str:
    from arraystack._config import config

    return os.path.abspath(os.path.expanduser(config.cache_dir))


def describe_entry(name: str) -> str | None:
    """What an entry of the cache folder holds, or None if it is not arraystack's."""
    if name == "hardware":
        return "hardware model (calibration)"
    if name.startswith("kernels-v"):
        version = name.partition("-numba")[2]
        return f"compiled kernels (numba {version})" if version else "compiled kernels"
    return None


def folder_size(path: str) -> tuple[int, int]:
    """(bytes, files) under `path`, without following symbolic links."""
    if not os.path.isdir(path) or os.path.islink(path):
        try:
            return os.lstat(path).st_size, 1
        except OSError:
            return 0, 0
    total = files = 0
    for root, _dirs, names in os.walk(path):
        for name in names:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
                files += 1
            except OSError:  # removed meanwhile (another process clearing or compiling)
                pass
    return total, files


def entries(directory: str | None = None) -> list[dict]:
    """The entries of the cache folder: name, path, what (None if not arraystack's), bytes, files."""
    directory = directory or cache_dir()
    try:
        names = sorted(os.listdir(directory))
    except FileNotFoundError:
        return []
    rows = []
    for name in names:
        path = os.path.join(directory, name)
        size, files = folder_size(path)
        rows.append(
            {
                "name": name,
                "path": path,
                "what": describe_entry(name),
                "bytes": size,
                "files": files,
            }
        )
    return rows


def human(size: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GiB"  # pragma: no cover - the loop always returns


def summary(directory: str | None = None) -> str:
    """One line for `info`: the folder and the size of arraystack's entries."""
    directory = directory or cache_dir()
    ours = [e for e in entries(directory) if e["what"]]
    if not ours:
        state = "not created yet" if not os.path.isdir(directory) else "empty"
        return f"{directory} ({state})"
    total = sum(e["bytes"] for e in ours)
    return f"{directory} ({human(total)} in {sum(e['files'] for e in ours)} files)"


def _table(rows, out) -> None:
    for e in rows:
        print(
            f"  {e['name']:34s} {human(e['bytes']):>10s} {e['files']:7d} files  {e['what']}",
            file=out,
        )


def cache_info(out=sys.stdout) -> int:
    directory = cache_dir()
    rows = entries(directory)
    ours, other = [e for e in rows if e["what"]], [e for e in rows if not e["what"]]
    source = "ARRAYSTACK_CACHE_DIR" if os.environ.get("ARRAYSTACK_CACHE_DIR") else "the default"
    print(
        f"cache directory: {directory} (from {source}; set ARRAYSTACK_CACHE_DIR to move it)",
        file=out,
    )
    if not os.path.isdir(directory):
        print(
            "  it does not exist yet: the first jitted call or `arraystack.devices()` creates it",
            file=out,
        )
        return 0
    if ours:
        _table(ours, out)
        total = sum(e["bytes"] for e in ours)
        print(f"  total {human(total)}; `python -m arraystack cache clear` deletes these", file=out)
    else:
        print("  no arraystack cache entries", file=out)
    if other:
        print(
            f"  also in this folder, not arraystack's (kept): {', '.join(e['name'] for e in other)}",
            file=out,
        )
    return 0


def cache_clear(out=sys.stdout, dry_run: bool = False) -> int:
    directory = cache_dir()
    ours = [e for e in entries(directory) if e["what"]]
    if not ours:
        print(f"nothing to clear: no arraystack cache entries in {directory}", file=out)
        return 0
    total = sum(e["bytes"] for e in ours)
    verb = "would delete" if dry_run else "deleting"
    print(f"{verb} {human(total)} from {directory}:", file=out)
    _table(ours, out)
    if dry_run:
        return 0
    failed = []
    for e in ours:
        try:
            if os.path.isdir(e["path"]) and not os.path.islink(e["path"]):
                shutil.rmtree(e["path"])
            else:
                os.remove(e["path"])
        except OSError as error:
            failed.append(f"{e['name']}: {error}")
    if failed:
        print("could not delete: " + "; ".join(failed), file=out)
        return 1
    print(
        f"cleared {human(total)}. The next jitted calls compile their kernels again (a cold start) and "
        "the hardware model is measured again on first use.",
        file=out,
    )
    return 0
