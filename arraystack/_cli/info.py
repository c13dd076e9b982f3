"""`python -m arraystack info`: versions, backends (the registry's: available or why not), cache and hardware
model."""

from __future__ import annotations

import importlib.util
import os
import platform
import sys

import numpy


def version_of(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    for name in (distribution, f"{distribution}-cuda12x", f"{distribution}-cuda11x"):
        try:
            return version(name)
        except PackageNotFoundError:
            continue
    return "installed (version unknown)"


def backend_rows() -> list[tuple[str, str, str]]:
    """(name, "yes"/"no", what it is or why it is unavailable) for each registered backend
    (arraystack.backends.available()), the default marked."""
    from arraystack._core.config import config
    from arraystack.backends import available

    rows = []
    for row in available():
        default = " [default]" if row.name == config.default_backend else ""
        text = row.description if row.available else row.reason
        rows.append((row.name, "yes" if row.available else "no", text + default))
    return rows


def info(out=sys.stdout, recalibrate: bool = False) -> int:
    import arraystack
    import arraystack.ir
    from arraystack._cli.cache import summary

    rows = [
        ("arraystack", f"{arraystack.__version__} ({os.path.dirname(arraystack.__file__)})"),
        ("arraystack.ir", os.path.dirname(arraystack.ir.__file__)),
        ("python", f"{platform.python_version()} ({sys.executable})"),
        ("numpy", numpy.__version__),
    ]
    for name in ("numba", "cupy"):
        spec = importlib.util.find_spec(name)
        rows.append((name, version_of(name) if spec else "not installed"))
    rows.append(("platform", f"{platform.platform()}, {os.cpu_count()} CPUs"))
    rows.append(("cache", summary()))
    for name, value in rows:
        print(f"{name:14s} {value}", file=out)
    print("\nbackends (ARRAYSTACK_BACKEND picks the default of jit):", file=out)
    for name, ok, why in backend_rows():
        print(f"  {name:12s} {ok:4s} {why}", file=out)
    hardware = arraystack.devices(recalibrate=recalibrate)
    where = f"cached under {arraystack.config.cache_dir}; --recalibrate measures again"
    print(f"\nhardware model ({where}):", file=out)
    print(hardware.describe(), file=out)
    return 0
