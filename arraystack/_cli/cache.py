"""`python -m arraystack cache info|clear`: what arraystack keeps on disk under arraystack.config.cache_dir.

Two kinds of entries live there, both rebuilt on demand:
  hardware/                        the calibrated hardware model (cpu.json), measured again on next use;
  kernels-v<format>-numba<version>/ generated kernel sources and numba's compiled cache of them, compiled
                                   again by the next jitted call that needs them (a cold start).
Only these entries are counted as the cache and deleted by `clear`; anything else in the folder (the
folder may be shared, e.g. ARRAYSTACK_CACHE_DIR=~/.cache) is listed as kept and never touched.

Which entries are a backend's it says itself (Backend.cache_entry). Where the cache directory cannot be
written, a backend may cache its kernels in a fallback directory of this user's instead (numba's:
<tmp>/arraystack-<uid>, backends/numba/kernels.py; Backend.cache_fallback): `info` shows it while it is in use
or exists, and `clear` deletes arraystack's entries there too.
"""

from __future__ import annotations

import os
import shutil
import sys


def cache_dir() -> str:
    from arraystack._core.config import config

    return os.path.abspath(os.path.expanduser(config.cache_dir))


def describe_entry(name: str) -> str | None:
    """What an entry of the cache folder holds (the hardware model, or a backend's: Backend.cache_entry),
    or None if it is not arraystack's."""
    from arraystack.backends.registry import all_backends

    if name == "hardware":
        return "hardware model (calibration)"
    for backend in all_backends():
        what = backend.cache_entry(name)
        if what:
            return what
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
    except (FileNotFoundError, NotADirectoryError):  # a path under a file: a cache never created
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
    """One line for `info`: the folder and the size of arraystack's entries (and the fallback's)."""
    directory = directory or cache_dir()
    ours = [e for e in entries(directory) if e["what"]]
    if not ours:
        state = "not created yet" if not os.path.isdir(directory) else "empty"
        line = f"{directory} ({state})"
    else:
        total = sum(e["bytes"] for e in ours)
        line = f"{directory} ({human(total)} in {sum(e['files'] for e in ours)} files)"
    fallback = fallback_status(directory)
    if fallback is not None:
        size = sum(e["bytes"] for e in fallback["entries"] if e["what"])
        use = "in use" if fallback["why"] else "not in use"
        line += f"; kernel fallback {fallback['root']} ({use}, {human(size)})"
    return line


def fallback_status(directory: str | None = None) -> dict | None:
    """A backend's fallback directory (Backend.cache_fallback), when it is in use for `directory` or
    exists: root, why (the reason its files cannot be written under `directory`, or None: not in use),
    private (whether the backend uses it: a directory of this user's no one else may write), entries (when
    private). None otherwise."""
    from arraystack.backends.registry import all_backends

    directory = directory or cache_dir()
    for backend in all_backends():
        found = backend.cache_fallback(directory)
        if found is not None:
            return dict(found, entries=entries(found["root"]) if found["private"] else [])
    return None


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
    fallback = fallback_status(directory)
    if os.path.isdir(directory):
        _listing(ours, other, out)
    elif fallback is not None and fallback["why"]:
        print("  it cannot be created: no arraystack cache entries", file=out)
    else:
        print(
            "  it does not exist yet: the first jitted call or `arraystack.devices()` creates it",
            file=out,
        )
    _fallback_info(fallback, out)
    return 0


def _listing(ours, other, out) -> None:
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


def _fallback_info(fallback, out) -> None:
    if fallback is None:
        return
    root = fallback["root"]
    if fallback["why"]:
        state = f"in use: the cache directory cannot be written, {fallback['why']}"
    else:
        state = "not in use: left by a process whose cache directory could not be written"
    print(f"kernel fallback directory: {root} ({state})", file=out)
    if not os.path.lexists(root):
        print("  it does not exist yet: the first jitted call creates it", file=out)
    elif not fallback["private"]:
        print(
            "  it is not a directory of this user's that no one else may write: not used (each process "
            "caches its kernels in a temporary directory of its own, removed at exit) and not cleared",
            file=out,
        )
    else:
        rows = fallback["entries"]
        _listing([e for e in rows if e["what"]], [e for e in rows if not e["what"]], out)


def cache_clear(out=sys.stdout, dry_run: bool = False) -> int:
    """Delete arraystack's entries of the cache directory and of the kernel fallback directory."""
    directory = cache_dir()
    places = [(directory, [e for e in entries(directory) if e["what"]])]
    fallback = fallback_status(directory)
    if fallback is not None and fallback["private"]:
        places.append((fallback["root"], [e for e in fallback["entries"] if e["what"]]))
    places = [(where, rows) for where, rows in places if rows]
    if not places:
        also = f" nor in {fallback['root']}" if fallback is not None and fallback["private"] else ""
        print(f"nothing to clear: no arraystack cache entries in {directory}{also}", file=out)
        return 0
    verb = "would delete" if dry_run else "deleting"
    for where, rows in places:
        print(f"{verb} {human(sum(e['bytes'] for e in rows))} from {where}:", file=out)
        _table(rows, out)
    if dry_run:
        return 0
    failed = []
    for e in (e for _, rows in places for e in rows):
        try:
            if os.path.isdir(e["path"]) and not os.path.islink(e["path"]):
                shutil.rmtree(e["path"])
            else:
                os.remove(e["path"])
        except OSError as error:
            failed.append(f"{e['path']}: {error}")
    if failed:
        print("could not delete: " + "; ".join(failed), file=out)
        return 1
    cleared = " and ".join(
        f"{human(sum(e['bytes'] for e in rows))} from {where}" for where, rows in places
    )
    print(
        f"cleared {cleared}. The next jitted calls compile their kernels again (a cold start) and "
        "the hardware model is measured again on first use.",
        file=out,
    )
    return 0
