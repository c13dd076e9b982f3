"""arraystack.lib's small modules against NumPy: NumpyVersion, mixins.NDArrayOperatorsMixin,
array_utils, scimath; and the top-level show_config and info."""

from __future__ import annotations

import io

import numpy
import pytest

import arraystack
from arraystack import lib
from tests.conftest import assert_same


def test_lib_is_the_namespace_of_numpy_lib_parts():
    assert arraystack.lib is lib
    for name in ("stride_tricks", "mixins", "array_utils", "scimath", "NumpyVersion"):
        assert hasattr(numpy.lib, name) and hasattr(lib, name)
    assert lib.scimath is arraystack.emath


def test_numpy_version():
    assert lib.NumpyVersion(numpy.__version__) >= "2.0.0"
    assert lib.NumpyVersion("1.9.0") < "1.10.0"
    assert lib.NumpyVersion("2.1.0rc1") < "2.1.0"
    with pytest.raises(ValueError):
        lib.NumpyVersion("not a version")


class Wrapped(lib.mixins.NDArrayOperatorsMixin):
    """A container that computes through the arrays it holds (the mixin's documented pattern)."""

    def __init__(self, value):
        self.value = value

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(x.value if isinstance(x, Wrapped) else x for x in inputs)
        return Wrapped(getattr(ufunc, method)(*inputs, **kwargs))


def test_operators_mixin_on_arraystack_arrays():
    n = Wrapped(numpy.arange(4.0))
    a = Wrapped(arraystack.arange(4.0))
    for op in (
        lambda w: w + 1,
        lambda w: 2 * w,
        lambda w: -w,
        lambda w: w < 2,
        lambda w: abs(w - 3),
    ):
        expected, got = op(n), op(a)
        assert isinstance(got, Wrapped)
        assert_same(expected.value, got.value)


def test_array_utils():
    a = arraystack.arange(10, dtype=arraystack.int32)
    low, high = lib.array_utils.byte_bounds(a)
    assert high - low == a.nbytes
    assert lib.array_utils.byte_bounds(a[::2])[1] - low == 8 * 4 + 4
    assert lib.array_utils.normalize_axis_index(-1, 3) == 2
    assert lib.array_utils.normalize_axis_tuple((0, -1), 3) == (0, 2)
    with pytest.raises(numpy.exceptions.AxisError):
        lib.array_utils.normalize_axis_index(3, 3)


def test_scimath_is_emath():
    assert_same(
        numpy.lib.scimath.sqrt(numpy.array([-4.0, 4.0])),
        lib.scimath.sqrt(arraystack.asarray([-4.0, 4.0])),
    )


def test_show_config(capsys):
    config = arraystack.show_config(mode="dicts")
    assert config["arraystack"]["version"] == arraystack.__version__
    assert set(config["Backends"]) == {row.name for row in arraystack.backends.available()}
    assert config["NumPy"]["version"] == numpy.__version__
    assert "Build Dependencies" in config["NumPy"]
    assert arraystack.show_config() is None
    printed = capsys.readouterr().out
    assert (
        "C accelerator:" in printed and "reference:" in printed and "Build Dependencies:" in printed
    )
    with pytest.raises(AttributeError):
        arraystack.show_config(mode="yaml")


def test_show_runtime_prints_backends_devices_and_numpys_report(capsys):
    assert arraystack.show_runtime() is None
    printed = capsys.readouterr().out
    assert "Backends:" in printed and "reference: yes" in printed and "Devices: cpu" in printed
    assert "numpy_version" in printed  # NumPy's own report follows


def _info(obj, **kwargs):
    out = io.StringIO()
    arraystack.info(obj, output=out, **kwargs)
    return out.getvalue()


def test_info_prints_arraystack_docstrings():
    text = _info(arraystack.resize)
    assert arraystack.resize.__doc__.splitlines()[0] in text
    assert (
        "numpy.resize : The NumPy function this mirrors" in text
    )  # arraystack's text, not NumPy's
    found = _info("resize")  # every module's resize, arraystack's first (arraystack.ma has one too)
    assert found.index("*** Found in arraystack ***") < found.index(text.strip().splitlines()[0])
    assert text.strip() in found
    assert arraystack.linalg.norm.__doc__.splitlines()[0] in _info("linalg.norm")
    assert _info("no_such_name_anywhere") == "Help for no_such_name_anywhere not found.\n"
    assert "Get help information" in _info(None)


def test_info_of_an_array_is_numpy_s():
    n = numpy.arange(6.0).reshape(2, 3)[:, ::2]
    expected, got = io.StringIO(), io.StringIO()
    numpy.info(n, output=expected)
    arraystack.info(arraystack.asarray(n), output=got)
    lines = [line for line in got.getvalue().splitlines() if not line.startswith("data pointer")]
    assert lines == [
        l for l in expected.getvalue().splitlines() if not l.startswith("data pointer")
    ]


def test_arrayterator_yields_arraystack_blocks_as_numpys():
    x = numpy.arange(24.0).reshape(2, 3, 4)
    expected = [b.tolist() for b in numpy.lib.Arrayterator(x, 5)]
    blocks = list(arraystack.lib.Arrayterator(arraystack.asarray(x), 5))
    assert all(isinstance(b, arraystack.ndarray) for b in blocks)
    assert [b.tolist() for b in blocks] == expected
