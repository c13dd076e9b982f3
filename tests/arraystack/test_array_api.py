"""The Array API namespace (2024.12): every name of the standard exists in arraystack and accepts the
standard's arguments; the version, the inspection namespace, devices, DLPack, finfo/iinfo; the functions
other families add (sorting, searching, sets, contractions) against array-api-strict; and each documented
case where arraystack keeps NumPy's behaviour against the standard's (arraystack/_core/array_api.py)."""

from __future__ import annotations

import inspect

import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import arraystack
from tests.arraystack.array_api_oracle import DTYPES, strict_parity, strict_version, xps
from tests.conftest import check_parity

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(autouse=True, scope="module")
def _strict_2024_12():
    with strict_version("2024.12"):
        yield


# array-api-strict's own names, and the names it adds for the 2025.12 standard.
_NOT_2024_12 = {"ArrayAPIStrictFlags", "Device", "isin", "broadcast_shapes"}
_NOT_2024_12 |= {"get_array_api_strict_flags", "set_array_api_strict_flags"}
_NOT_2024_12 |= {"reset_array_api_strict_flags"}
NAMES = sorted(set(xps.__all__) - _NOT_2024_12)
FUNCTIONS = [("", n) for n in NAMES if inspect.isfunction(getattr(xps, n))]
FUNCTIONS += [("linalg", n) for n in xps.linalg.__all__]
FUNCTIONS += [("fft", n) for n in xps.fft.__all__]


def _arguments(signature):
    """Placeholder arguments that use every parameter of a standard signature the way the standard
    allows: positional-only ones by position, the others by keyword."""
    positional, keywords = [], {}
    for p in signature.parameters.values():
        if p.kind is p.POSITIONAL_ONLY:
            positional.append(object())
        elif p.kind is p.VAR_POSITIONAL:
            positional += [object(), object()]
        elif p.kind is not p.VAR_KEYWORD:
            keywords[p.name] = object()
    return positional, keywords


def test_version_and_namespace():
    x = arraystack.ones(3)
    assert arraystack.__array_api_version__ == "2024.12"
    assert x.__array_namespace__() is arraystack
    assert x.__array_namespace__(api_version="2024.12") is arraystack
    with pytest.raises(ValueError, match="2099.12"):
        x.__array_namespace__(api_version="2099.12")
    assert "__array_api_version__" in arraystack.__all__
    assert "__array_namespace_info__" in arraystack.__all__


@pytest.mark.parametrize("name", NAMES)
def test_every_standard_name_exists(name):
    assert hasattr(arraystack, name), f"arraystack has no {name!r} (Array API 2024.12)"


def test_constants():
    for name in ("e", "pi", "inf", "nan"):
        assert type(getattr(arraystack, name)) is float
        assert repr(getattr(arraystack, name)) == repr(getattr(xps, name))
    assert arraystack.newaxis is None
    assert arraystack.ones((2, 3))[:, arraystack.newaxis].shape == (2, 1, 3)


@pytest.mark.parametrize(
    ("module", "name"), FUNCTIONS, ids=[f"{m}.{n}".strip(".") for m, n in FUNCTIONS]
)
def test_standard_signature_is_accepted(module, name):
    """arraystack's function binds every argument the standard's signature allows, by the same names."""
    reference = getattr(getattr(xps, module) if module else xps, name)
    namespace = getattr(arraystack, module) if module else arraystack
    if not hasattr(namespace, name):
        pytest.fail(f"arraystack{'.' + module if module else ''} has no {name!r}")
    positional, keywords = _arguments(inspect.signature(reference))
    inspect.signature(getattr(namespace, name)).bind(*positional, **keywords)


@pytest.mark.parametrize(
    "method",
    ["__array_namespace__", "to_device", "__dlpack__", "__dlpack_device__", "__getitem__",
     "__setitem__", "__abs__", "__invert__", "__pow__", "__rpow__", "__matmul__", "__ilshift__",
     "__bool__", "__complex__", "__float__", "__index__", "__int__", "__eq__", "__pos__"],
)  # fmt: skip
def test_array_methods_accept_standard_arguments(method):
    reference = getattr(xps.asarray([1.0]), method)
    positional, keywords = _arguments(inspect.signature(reference))
    inspect.signature(getattr(arraystack.asarray([1.0]), method)).bind(*positional, **keywords)


def test_array_attributes():
    x = arraystack.reshape(arraystack.arange(6.0), (2, 3))
    assert (x.dtype, x.ndim, x.shape, x.size) == (numpy.float64, 2, (2, 3), 6)
    assert x.device == arraystack.__array_namespace_info__().default_device()
    assert x.to_device(x.device) is x
    assert x.to_device("cpu", stream=None) is x
    with pytest.raises(ValueError, match="unsupported device"):
        x.to_device("cuda:3")
    numpy.testing.assert_array_equal(numpy.asarray(x.mT), numpy.asarray(x).T)
    numpy.testing.assert_array_equal(numpy.asarray(x.T), numpy.asarray(x).T)


def test_inspection_namespace():
    info, reference = arraystack.__array_namespace_info__(), numpy.__array_namespace_info__()
    assert info.capabilities() == reference.capabilities()
    assert info.capabilities()["max dimensions"] == 64
    assert info.default_device() == "cpu"
    assert info.default_device() in info.devices()
    assert set(info.default_dtypes()) == set(xps.__array_namespace_info__().default_dtypes())
    assert info.default_dtypes(device=info.default_device()) == reference.default_dtypes()
    kinds = [None, "bool", "signed integer", "unsigned integer", "integral", "real floating"]
    kinds += ["complex floating", "numeric", ("bool", "integral"), ("complex floating", "bool")]
    for kind in kinds:
        assert info.dtypes(kind=kind) == reference.dtypes(kind=kind)
        assert list(info.dtypes(kind=kind)) == list(reference.dtypes(kind=kind))
        assert set(info.dtypes(kind=kind)) == set(xps.__array_namespace_info__().dtypes(kind=kind))
    for name, dtype in info.dtypes().items():
        assert arraystack.zeros(2, dtype=dtype).dtype == numpy.dtype(name)
    with pytest.raises(ValueError, match="unsupported kind"):
        info.dtypes(kind="float")
    with pytest.raises(ValueError, match="unsupported device"):
        info.dtypes(device="cuda:7")
    with pytest.raises(ValueError, match="unsupported device"):
        info.default_dtypes(device="cuda:7")


@pytest.mark.parametrize("name", ["float32", "float64", "complex64", "complex128"])
def test_finfo(name):
    mine, reference = arraystack.finfo(getattr(arraystack, name)), xps.finfo(getattr(xps, name))
    for field in ("bits", "eps", "max", "min", "smallest_normal"):
        assert getattr(mine, field) == getattr(reference, field), field
    assert str(mine.dtype) == str(reference.dtype).removeprefix("array_api_strict.")
    assert arraystack.finfo(arraystack.ones(2, dtype=name)).bits == reference.bits
    # Note: NumPy's finfo fields are NumPy scalars of the dtype's precision (Python floats in strict).
    assert type(mine.eps) is type(numpy.finfo(name).eps)


@pytest.mark.parametrize("name", [n for n in DTYPES if n[0] in "iu"])
def test_iinfo(name):
    mine, reference = arraystack.iinfo(getattr(arraystack, name)), xps.iinfo(getattr(xps, name))
    assert (mine.bits, mine.max, mine.min) == (reference.bits, reference.max, reference.min)
    assert arraystack.iinfo(arraystack.zeros(1, dtype=name)).max == reference.max
    assert mine.dtype == numpy.dtype(name)


def test_dlpack_round_trips():
    values = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    from_strict = arraystack.from_dlpack(xps.asarray(values))
    assert isinstance(from_strict, arraystack.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(from_strict), values)
    back = xps.from_dlpack(arraystack.asarray(values))
    numpy.testing.assert_array_equal(numpy.from_dlpack(back), values)
    copied = arraystack.from_dlpack(arraystack.asarray(values), device="cpu", copy=True)
    numpy.testing.assert_array_equal(numpy.asarray(copied), values)


def test_device_keywords():
    x = arraystack.ones((2, 2), dtype=arraystack.int16)
    dev = x.device
    made = [arraystack.asarray([1, 2], device=dev), arraystack.empty_like(x, device=dev)]
    made += [arraystack.full((2,), 1.5, device=dev), arraystack.ones(2, device=dev)]
    made += [arraystack.zeros(2, device=dev), arraystack.eye(2, k=1, device=dev)]
    made += [
        arraystack.linspace(0, 1, 3, endpoint=False, device=dev),
        arraystack.arange(3, device=dev),
    ]
    made += [arraystack.astype(x, arraystack.float32, copy=False, device=dev)]
    assert all(m.device == dev for m in made)
    for make in (arraystack.zeros, arraystack.ones, arraystack.empty, arraystack.arange):
        with pytest.raises(ValueError, match="cuda:5"):
            make(2, device="cuda:5")


def test_copy_keywords():
    x = arraystack.ones(3)
    assert arraystack.astype(x, x.dtype, copy=False) is x  # the standard: "must return the input"
    assert arraystack.astype(x, x.dtype) is not x
    shared = arraystack.asarray(x, copy=False)
    shared[0] = 5.0
    assert float(x[0]) == 5.0
    arraystack.asarray(x, copy=True)[1] = 7.0
    assert float(x[1]) == 1.0
    arraystack.reshape(x, (3, 1), copy=False)[2, 0] = 9.0
    assert float(x[2]) == 9.0
    with pytest.raises(ValueError, match="copy"):
        arraystack.reshape(arraystack.ones((2, 3)).T, (6,), copy=False)
    with pytest.raises(ValueError, match="copy"):
        arraystack.asarray([1, 2], copy=False)


def test_max_dimensions():
    x = arraystack.ones((1,) * 64)
    assert float((x + 1).sum()) == 2.0
    with pytest.raises(ValueError, match="64"):
        arraystack.ones((1,) * 65)


# -- functions other families implement, against the reference ----------------------------------------
shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4)
real_arrays = st.sampled_from(DTYPES[1:11]).flatmap(lambda d: hnp.arrays(numpy.dtype(d), shapes))


def _draw_axis(data, x):
    return data.draw(st.integers(-x.ndim, x.ndim - 1))


@SETTINGS
@given(x=real_arrays, data=st.data())
def test_sorting_and_searching(x, data):
    axis, stable = _draw_axis(data, x), data.draw(st.booleans())
    kwargs = {"axis": axis, "stable": stable, "descending": data.draw(st.booleans())}
    strict_parity(lambda xp, x: xp.sort(x, **kwargs), x)
    # argsort: unstable order among ties is unspecified
    strict_parity(lambda xp, x: xp.argsort(x, **dict(kwargs, stable=True)), x)
    flat = numpy.sort(x.ravel())
    side = data.draw(st.sampled_from(["left", "right"]))
    strict_parity(lambda xp, s, v: xp.searchsorted(s, v, side=side), flat, x)
    indices = data.draw(
        hnp.arrays(numpy.int64, (3,), elements=st.integers(0, max(x.shape[axis] - 1, 0)))
    )
    if x.shape[axis]:
        strict_parity(lambda xp, x, i: xp.take(x, i, axis=axis), x, indices)
        along = numpy.argsort(x, axis=axis)
        strict_parity(lambda xp, x, i: xp.take_along_axis(x, i, axis=axis), x, along)
    strict_parity(lambda xp, x: xp.argmax(x, axis=axis, keepdims=True), x)


def _by_value(xp, values, *others):
    """Set-function results in increasing order of the values (the standard leaves the order open;
    NumPy 2.3+ hashes integers)."""
    order = xp.argsort(values, stable=True)
    return [xp.take(values, order), *[xp.take(o, order) for o in others]]


@SETTINGS
@given(x=real_arrays)
def test_set_functions(x):
    strict_parity(lambda xp, x: _by_value(xp, xp.unique_values(x)), x)
    strict_parity(lambda xp, x: _by_value(xp, *xp.unique_counts(x)), x)
    # inverse indices depend on the order: check that they rebuild x
    strict_parity(
        lambda xp, x: xp.take(xp.unique_inverse(x)[0], xp.reshape(xp.unique_inverse(x)[1], (-1,))),
        x.ravel(),
    )
    strict_parity(lambda xp, x: xp.unique_all(x).values.shape, x)
    result = arraystack.unique_all(x)
    flat = numpy.asarray(x).ravel()
    numpy.testing.assert_array_equal(
        flat[numpy.asarray(result.indices)], numpy.asarray(result.values)
    )
    numpy.testing.assert_array_equal(
        numpy.asarray(result.values)[numpy.asarray(result.inverse_indices)], numpy.asarray(x)
    )


@SETTINGS
@given(
    pair=st.sampled_from(["float64", "complex64", "int32"]).flatmap(
        lambda d: hnp.arrays(
            numpy.dtype(d), (2, 3, 4), elements={"min_value": -9, "max_value": 9}
        ).map(lambda a: (a, a.reshape(3, 2, 4)[::-1].reshape(2, 3, 4)))
    )
)
def test_contractions(pair):
    a, b = pair
    strict_parity(lambda xp, a, b: xp.vecdot(a, b, axis=-1), a, b)
    strict_parity(lambda xp, a, b: xp.vecdot(a, b, axis=0), a, b)
    strict_parity(lambda xp, a, b: xp.tensordot(a, b, axes=2), a, b[:, :, :].transpose(1, 2, 0))
    strict_parity(lambda xp, a, b: xp.tensordot(a, b, axes=([0, 2], [0, 2])), a, b)
    strict_parity(lambda xp, a, b: xp.linalg.vecdot(a, b), a, b)


# -- where arraystack keeps NumPy's behaviour (arraystack/_core/array_api.py lists these) --------------------
def test_can_cast_across_kinds_is_numpy():
    assert arraystack.can_cast(arraystack.int8, arraystack.float32) is True  # NumPy's safe casting
    assert xps.can_cast(xps.int8, xps.float32) is False
    check_parity(lambda xp: xp.can_cast(xp.uint16, xp.complex64))


def test_clip_promotes_as_numpy():
    x = numpy.array([-3, 0, 7], dtype=numpy.int8)
    out = check_parity(lambda xp, x, lo: xp.clip(x, min=lo), x, numpy.array([1], dtype=numpy.int16))
    assert out.dtype == numpy.int16  # the standard keeps int8
    check_parity(lambda xp, x: xp.clip(x, max=1.5), x)
    check_parity(lambda xp, x: xp.clip(x, min=3, max=1), x)
    check_parity(lambda xp, x: xp.clip(x.astype(numpy.uint8), max=-1), x)


def test_sign_and_square_root_power_of_complex_infinity_are_numpy():
    z = numpy.array([1j * numpy.inf, numpy.inf + 0j, -1j * numpy.inf], dtype=numpy.complex64)
    assert numpy.asarray(check_parity(lambda xp, z: xp.sign(z), z)).tolist() == [1j, 1, -1j]
    with numpy.errstate(all="ignore"):
        check_parity(lambda xp, z: z**0.5, z)
        check_parity(lambda xp, z: xp.pow(z, 0.5), z)


def test_meshgrid_and_broadcast_arrays_return_tuples():
    a, b = arraystack.arange(2), arraystack.arange(3)
    assert type(arraystack.meshgrid(a, b)) is type(numpy.meshgrid(numpy.arange(2), numpy.arange(3)))
    assert type(arraystack.broadcast_arrays(a, a)) is tuple


def test_full_reductions_and_scalar_indexing_give_arrays():
    x = arraystack.reshape(arraystack.arange(6), (2, 3))
    for value in (x.sum(), arraystack.max(x), arraystack.count_nonzero(x), x[1, 2], x.mean()):
        assert isinstance(value, arraystack.ndarray)
        assert value.shape == ()


def test_diff_with_none_edges_keeps_numpys_behaviour():
    # The standard reads prepend/append=None as "nothing"; NumPy (whose name this is) raises TypeError.
    x = numpy.array([[1, 4, 9], [2, 2, 0]], dtype=numpy.int16)
    for kwargs in ({"prepend": None}, {"append": None}):
        with pytest.raises(TypeError):
            numpy.diff(x, axis=1, **kwargs)
        with pytest.raises(TypeError):
            arraystack.diff(x, axis=1, **kwargs)
    numpy.testing.assert_array_equal(numpy.asarray(arraystack.diff(x, axis=1)), numpy.diff(x, axis=1))


@SETTINGS
@given(
    m=st.sampled_from(["float32", "float64", "complex128"]).flatmap(
        lambda d: hnp.arrays(
            numpy.dtype(d),
            st.sampled_from([(3, 3), (2, 3, 3), (4, 2)]),
            elements={"min_value": -4, "max_value": 4, "allow_nan": False, "allow_infinity": False},
        )
    ),
    data=st.data(),
)
def test_linalg_extension(m, data):
    """The standard's linalg names (arraystack.linalg), where they differ from numpy.linalg's."""
    square = m.shape[-1] == m.shape[-2]
    keepdims, offset = data.draw(st.booleans()), data.draw(st.integers(-2, 2))
    order = data.draw(st.sampled_from([1, 2, numpy.inf, -numpy.inf, 0, 3]))
    la = [lambda xp, m: xp.linalg.vector_norm(m, axis=(-1, -2), keepdims=keepdims, ord=order)]
    la += [lambda xp, m: xp.linalg.vector_norm(m, axis=None, keepdims=keepdims)]
    la += [lambda xp, m: xp.linalg.matrix_norm(m, keepdims=keepdims, ord="fro")]
    la += [lambda xp, m: xp.linalg.diagonal(m, offset=offset)]
    la += [lambda xp, m: xp.linalg.trace(m, offset=offset)]
    la += [lambda xp, m: xp.linalg.outer(m[..., 0, :], m[..., 1, :])]
    la += [lambda xp, m: xp.linalg.matrix_transpose(m)]
    la += [lambda xp, m: xp.linalg.svdvals(m)]
    if square and m.shape[-1] == 3:
        la += [lambda xp, m: xp.linalg.cross(m, m[..., ::-1, :], axis=-2)]
        la += [lambda xp, m: xp.linalg.matrix_power(m, 2)]
    for fn in la:
        strict_parity(fn, m, rtol=1e-4 if m.dtype == numpy.float32 else 1e-10)
