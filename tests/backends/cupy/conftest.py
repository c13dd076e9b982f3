"""Fixtures of the cupy backend's tests: `standin`, the stand-in for cupy (backends/cupy/standin.py) with two
CUDA devices in host memory, installed for one test and removed afterwards. With
ARRAYSTACK_TEST_KERNELS=gpu the kernels these tests build run on a real GPU (on_device.py)."""

from __future__ import annotations

import pytest
from arraystack.backends.cupy import standin as _standin

from tests.backends.cupy import on_device

on_device.install()


@pytest.fixture
def standin():
    """The stand-in cupy module, installed with two devices; the machine as it was afterwards."""
    module = _standin.install(devices=2)
    try:
        yield module
    finally:
        _standin.uninstall()
