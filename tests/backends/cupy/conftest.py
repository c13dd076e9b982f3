"""The cupy backend's tests use `standin` (tests/conftest.py), the stand-in for cupy with two CUDA devices
in host memory. With ARRAYSTACK_TEST_KERNELS=gpu the kernels these tests build run on a real GPU
(on_device.py)."""

from __future__ import annotations

from tests.backends.cupy import on_device

on_device.install()
