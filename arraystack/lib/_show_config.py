"""`arraystack.show_config()`: arraystack's build and configuration (versions, the C accelerator, the
backends of arraystack.backends.available()) followed by NumPy's own `show_config` report."""

from __future__ import annotations

import importlib.util
import os
import platform
import sys
from typing import Any

import numpy as np

__all__ = ["show_config", "show_runtime"]


def show_config(mode: str = "stdout") -> dict[str, Any] | None:
    """Show libraries and system information on which arraystack and NumPy were built and are used.

    Parameters
    ----------
    mode : {'stdout', 'dicts'}, optional
        'stdout' prints the information; 'dicts' returns it as a dict of dicts.

    Returns
    -------
    out : dict or None
        The information when `mode` is 'dicts', else None.

    See Also
    --------
    numpy.show_config : The NumPy function this mirrors.

    Notes
    -----
    The report has arraystack's own sections (its version, the C accelerator of the eager fast path
    and buffer protocol, the backends jit can use, the optional dependencies) before NumPy's, which
    is included whole under "NumPy".
    """
    if mode not in ("stdout", "dicts"):
        raise AttributeError(f"Invalid `mode`, use one of: stdout, dicts; got {mode!r}")
    config = _config()
    if mode == "dicts":
        return config
    _print(config, 0)
    return None


def _config() -> dict[str, Any]:
    import arraystack
    from arraystack._cli.info import backend_rows, version_of

    optional = {}
    for name in ("numba", "cupy"):
        found = importlib.util.find_spec(name) is not None
        optional[name] = version_of(name) if found else "not installed"
    return {
        "arraystack": {
            "version": arraystack.__version__,
            "path": os.path.dirname(arraystack.__file__),
            "C accelerator": _accelerator_state(),
        },
        "Python Information": {
            "version": platform.python_version(),
            "executable": sys.executable,
            "platform": platform.platform(),
        },
        "Backends": {
            name: f"{'available' if ok == 'yes' else 'unavailable'}: {text}"
            for name, ok, text in backend_rows()
        },
        "Optional dependencies": optional,
        "NumPy": {"version": np.__version__, **np.show_config(mode="dicts")},
    }


def _accelerator_state() -> str:
    from arraystack._core import accelerator

    if accelerator.fastpath is not None:
        return "built and in use (eager fast path, buffer protocol)"
    if os.environ.get("ARRAYSTACK_FASTPATH", "1") == "0":
        return "turned off (ARRAYSTACK_FASTPATH=0)"
    if importlib.util.find_spec("arraystack._core._fastpath") is None:
        return "not built (pure-Python install: no buffer protocol before Python 3.12)"
    return "stale (built from older sources: rebuild with `pip install -e .`)"


def _print(section: dict[str, Any], depth: int) -> None:
    pad = "  " * depth
    for key, value in section.items():
        if isinstance(value, dict):
            print(f"{pad}{key}:")
            _print(value, depth + 1)
        else:
            print(f"{pad}{key}: {value}")


def show_runtime() -> None:
    """Print information about the resources arraystack and NumPy use at run time.

    arraystack's part: the backends `jit` can use (available or why not), the default device and backend,
    and the devices of the hardware model with their figures (measured on first use and cached). NumPy's
    own `show_runtime` report follows (its SIMD extensions and the BLAS and threading libraries found by
    threadpoolctl): eager arraystack arrays in host memory run NumPy's loops and BLAS.

    Returns
    -------
    None
        The report is printed.

    See Also
    --------
    numpy.show_runtime : The NumPy function this mirrors.
    show_config
    """
    import arraystack
    from arraystack._cli.info import backend_rows

    runtime = {
        "arraystack": {
            "version": arraystack.__version__,
            "default device": str(arraystack.config.default_device or "cpu"),
            "default backend": str(arraystack.config.default_backend),
        },
        "Backends": {name: f"{ok}: {text}" for name, ok, text in backend_rows()},
        "Devices": arraystack.devices().describe(),
    }
    _print(runtime, 0)
    print("NumPy:")
    np.show_runtime()
