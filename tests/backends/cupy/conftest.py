"""Fixtures of the cupy backend's tests: `standin`, the stand-in for cupy (backends/cupy/standin.py) with two
CUDA devices in host memory, installed for one test and removed afterwards."""

from __future__ import annotations

import pytest
from arraystack.backends.cupy import standin as _standin


@pytest.fixture
def standin():
    """The stand-in cupy module, installed with two devices; the machine as it was afterwards."""
    module = _standin.install(devices=2)
    try:
        yield module
    finally:
        _standin.uninstall()
