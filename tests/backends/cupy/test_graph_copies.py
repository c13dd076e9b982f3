"""The batched device-to-device copies of graph replays (backends/cupy/graph_copies.py): the kernel compiles
with NVRTC for sm_80 and sm_90 without spills, and on the stand-in (the CPU harness running the same
source) it copies every segment whatever its size and alignment, in chunks of SEGMENTS per launch."""

from __future__ import annotations

import numpy as np
import pytest
from arraystack.backends.cupy import graph_copies, nvrtc
from arraystack.backends.cupy.backend import load_module


@pytest.mark.skipif(not nvrtc.available(), reason="NVRTC is not installed")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_the_kernel_compiles_without_spills(arch):
    result = nvrtc.compile(graph_copies.SOURCE, [graph_copies.NAME], arch=arch)
    assert result.spills == 0


@pytest.mark.parametrize("count", [1, 2, 8, 9, 19])
def test_every_segment_is_copied_whatever_its_size_and_alignment(standin, count, monkeypatch):
    xp = standin
    monkeypatch.setattr(graph_copies, "LARGE", 4096)  # a few copies take the driver's path
    rng = np.random.default_rng(count)
    sizes = [0, 1, 3, 7, 8, 13, 64, 1000, 4095, 4096, 5000]
    copies, expected, targets = [], [], []
    for k in range(count):
        size = sizes[k % len(sizes)]
        offset = k % 3  # misaligned views: byte offsets into int8 buffers
        source = xp.asarray(rng.integers(-128, 128, size + offset, dtype=np.int8))[offset:]
        target = xp.zeros(size + 2, dtype=np.int8)[1 : size + 1]
        copies.append((target.data, source.data, size))
        expected.append(source.get())
        targets.append(target)
    launches = []
    copier = graph_copies.Copier(xp, load_module)
    function = copier._function()
    monkeypatch.setattr(copier, "_function", lambda: lambda *a: launches.append(a[0]) or function(*a))
    copier(copies, xp.cuda.get_current_stream())
    for target, value in zip(targets, expected):
        np.testing.assert_array_equal(target.get(), value)
    small = [n for _, _, n in copies if 0 < n < 4096]
    batched = small if len(small) > 1 else []
    assert len(launches) == -(-len(batched) // graph_copies.SEGMENTS)
    for grid in launches:
        assert 1 <= grid[1] <= graph_copies.SEGMENTS


def test_floats_keep_their_bits(standin):
    xp = standin
    values = np.array([np.nan, -0.0, np.inf, 5e-324, 1.5], dtype=np.float64)
    source, target = xp.asarray(values), xp.zeros(5)
    other_source, other_target = xp.asarray(values[:3].astype(np.float32)), xp.zeros(3, np.float32)
    copier = graph_copies.Copier(xp, load_module)
    copies = [(target.data, source.data, 40), (other_target.data, other_source.data, 12)]
    copier(copies, xp.cuda.get_current_stream())
    assert target.get().tobytes() == values.tobytes()
    assert other_target.get().tobytes() == values[:3].astype(np.float32).tobytes()
