"""`python -m arraystack info`: versions, backends (available or why not), cache and hardware model."""

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


def _numba_status() -> tuple[bool, str]:
    if importlib.util.find_spec("numba") is None:
        return (
            False,
            "numba is not installed (pip install numba); jit runs the reference rules instead",
        )
    try:
        import numba
    except Exception as error:  # noqa: BLE001 - e.g. a NumPy version numba does not support yet
        return False, f"numba is installed but fails to import: {type(error).__name__}: {error}"
    return True, f"numba {numba.__version__}: compiled, fused CPU kernels"


def _cuda_status() -> tuple[bool, str]:
    if importlib.util.find_spec("cupy") is None:
        return False, (
            "CuPy is not installed (pip install cupy-cuda12x, on a machine with an NVIDIA GPU and driver)"
        )
    try:
        import cupy

        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as error:  # noqa: BLE001 - no driver, no device, wrong CUDA version
        return False, f"CuPy {version_of('cupy')} is installed but CUDA is not usable: {error}"
    if count == 0:
        return False, f"CuPy {version_of('cupy')} is installed but no CUDA device was found"
    return True, f"CuPy {version_of('cupy')}, {count} CUDA device(s)"


def backend_rows() -> list[tuple[str, str, str]]:
    """(name, "yes"/"no", why) for each backend arraystack knows."""
    from arraystack._core.config import config
    from arraystack.backends import BACKENDS

    rows = [
        ("reference", True, f"NumPy {numpy.__version__}: each primitive's reference rule (always)")
    ]
    rows.append(("numba", *_numba_status()))
    ok, why = _cuda_status()
    if ok and "cupy" not in BACKENDS:
        why += (
            "; GPUs join the hardware model and planner, GPU execution is not part of this version"
        )
    rows.append(("cupy (GPU)", ok, why))
    marked = []
    for name, ok, why in rows:
        default = " [default]" if name == config.default_backend else ""
        marked.append((name, "yes" if ok else "no", why + default))
    return marked


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
