"""NumPy parity of arraystack.fft: every transform over dtypes, n/s, axes and norms, eager and traced."""

from __future__ import annotations

import functools
import warnings

import numpy
import pytest

import arraystack
from tests import oracle

NORMS = [None, "backward", "ortho", "forward"]


make = functools.partial(oracle.make, ints=(0, 9))


# float16 input: NumPy transforms in complex64 (a float16 result of irfft and hfft is rounded from
# float32: compared at float16's precision)
def _rtol(dtype, name=""):
    if numpy.dtype(dtype) != numpy.float16:
        return None
    return 2e-3 if name in ("irfft", "hfft") else 2e-5


ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]


@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize(
    "dtype", ["bool", "int32", "float16", "float32", "float64", "complex64", "complex128"]
)
def test_one_dimensional_dtypes(parity, name, dtype):
    x = make((3, 6), dtype)
    # single precision: pocketfft's rounding depends on how NumPy feeds it (real input is cast in buffers)
    atol = 1e-6 if dtype in ("float16", "float32", "complex64") else 0.0
    parity(lambda xp, x: getattr(xp.fft, name)(x), x, rtol=_rtol(dtype, name), atol=atol)


@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n", [None, 1, 4, 5, 9])
@pytest.mark.parametrize("axis", [0, -1])
def test_one_dimensional_n_axis_norm(parity, name, norm, n, axis):
    x = make((5, 4), "complex128" if name in ("fft", "ifft", "irfft", "hfft") else "float64")
    parity(lambda xp, x: getattr(xp.fft, name)(x, n=n, axis=axis, norm=norm), x)


ND = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]


@pytest.mark.parametrize("name", ND)
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize(
    "s, axes",
    [
        (None, None),
        (None, (0, 2)),
        (None, (-1, 0)),
        ((3, 5), (1, 2)),
        ((2, 4, 6), (0, 1, 2)),
        ((4, -1), (0, 1)),
        (None, (1, 1)),
        ((3, 4), (2, 2)),
    ],
)
def test_n_dimensional(parity, name, norm, s, axes):
    if name.endswith("2") and axes is not None and len(axes) != 2:
        pytest.skip("the 2-d transforms take two axes")
    x = make((4, 3, 5), "complex128" if "irfft" in name or name[0] != "r" else "float64")
    kwargs = {"norm": norm} if axes is None else {"norm": norm, "axes": axes, "s": s}
    parity(lambda xp, x: getattr(xp.fft, name)(x, **kwargs), x)


@pytest.mark.parametrize("name", ND[:4])
def test_float32_gives_complex64_and_back(parity, name):
    x = make((4, 6), "complex64" if name == "irfftn" or name == "ifftn" else "float32")
    parity(lambda xp, x: getattr(xp.fft, name)(x), x, atol=1e-6)


def test_zero_d_and_empty(parity):
    parity(lambda xp, x: xp.fft.fftn(x), make((), "float64"))
    parity(lambda xp, x: xp.fft.fft(x), make((0, 3), "float64"))
    parity(lambda xp, x: xp.fft.rfft(x, axis=0), make((3, 0), "float32"))
    parity(lambda xp, x: xp.fft.fftn(x, axes=()), make((2, 3), "float64"))


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, x: xp.fft.fft(x, n=0),
        lambda xp, x: xp.fft.fft(x, norm="bad"),
        lambda xp, x: xp.fft.ifft(x, norm="bad"),
        lambda xp, x: xp.fft.fft(x, axis=2),
        lambda xp, x: xp.fft.fft(x[0, 0]),
        lambda xp, x: xp.fft.irfft(x[:, :1]),
        lambda xp, x: xp.fft.rfft(x + 1j),
        lambda xp, x: xp.fft.rfftn(x, axes=()),
        lambda xp, x: xp.fft.fftn(x, s=(2, 3, 4), axes=(0, 1)),
        lambda xp, x: xp.fft.fftn(x, axes=(0, 5)),
        lambda xp, x: xp.fft.fft(x, n=2.0),
    ],
)
def test_errors(parity, call):
    parity(call, make((3, 4), "float64"), traced=False)


def test_s_without_axes_warns_as_numpy_does():
    x = make((3, 4), "float64")
    for xp in (numpy, arraystack):
        with pytest.warns(DeprecationWarning):
            xp.fft.fftn(xp.asarray(x), s=(2, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        numpy.testing.assert_array_equal(
            numpy.asarray(arraystack.fft.fftn(arraystack.asarray(x), s=(2, 2))),
            numpy.fft.fftn(x, s=(2, 2)),
        )


def test_out(parity):
    def call(xp, x):
        out = xp.zeros((3, 4), dtype=complex)
        res = xp.fft.fft(x, out=out)
        return res, out

    parity(call, make((3, 4), "float64"), traced=False)
    with pytest.raises(ValueError):
        arraystack.fft.fft(arraystack.ones(4), out=arraystack.zeros(3, dtype=complex))


@pytest.mark.parametrize("n", [1, 2, 5, 8])
@pytest.mark.parametrize("d", [1.0, 0.1, 3])
def test_frequencies(parity, n, d):
    parity(lambda xp: xp.fft.fftfreq(n, d))
    parity(lambda xp: xp.fft.rfftfreq(n, d=d))
    parity(lambda xp: xp.fft.fftfreq(n, d, device="cpu"))


def test_frequencies_dtype_and_errors(parity):
    got = arraystack.fft.fftfreq(6, d=0.5, dtype=arraystack.float32)
    assert got.dtype == numpy.float32
    numpy.testing.assert_allclose(numpy.asarray(got), numpy.fft.fftfreq(6, 0.5), rtol=1e-6)
    assert arraystack.fft.rfftfreq(6, dtype="float32").dtype == numpy.float32
    parity(lambda xp: xp.fft.fftfreq(0))
    parity(lambda xp: xp.fft.fftfreq(4, device="gpu"))
    parity(lambda xp: xp.fft.fftfreq(5, d=xp.asarray(2.0)))


@pytest.mark.parametrize("axes", [None, 0, 1, (0, 1), (1, 0), [-1], 5])
@pytest.mark.parametrize("shape", [(5,), (4, 5), (3, 4, 1)])
def test_shifts(parity, axes, shape):
    x = make(shape, "float64")
    parity(lambda xp, x: xp.fft.fftshift(x, axes), x)
    parity(lambda xp, x: xp.fft.ifftshift(x, axes=axes), x)


def test_round_trips_and_jit():
    x = make((4, 6), "float64")
    a = arraystack.asarray(x)
    numpy.testing.assert_allclose(
        numpy.asarray(arraystack.fft.irfft(arraystack.fft.rfft(a), 6)), x, atol=1e-12
    )

    @arraystack.jit
    def spectrum(v):
        return arraystack.abs(arraystack.fft.rfft2(v, norm="ortho")) ** 2

    numpy.testing.assert_allclose(
        numpy.asarray(spectrum(a)), numpy.abs(numpy.fft.rfft2(x, norm="ortho")) ** 2, rtol=1e-12
    )
    assert "fft[" in spectrum.lower(a).as_text() or "fft " in spectrum.lower(a).as_text()


def test_vmap_matches_a_loop():
    x = make((3, 4, 6), "complex128")
    for name, kwargs in [
        ("fft", {}),
        ("ifft2", {"norm": "ortho"}),
        ("irfft", {"n": 7}),
        ("rfftn", {}),
    ]:
        src = x.real if name == "rfftn" else x

        def f(v, name=name, kwargs=kwargs):
            return getattr(arraystack.fft, name)(v, **kwargs)

        got = numpy.asarray(arraystack.vmap(f)(arraystack.asarray(src)))
        want = numpy.stack([getattr(numpy.fft, name)(row, **kwargs) for row in src])
        numpy.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_numpy_fft_functions_dispatch_to_arraystack():
    x = make((4, 6), "float32")
    got = numpy.fft.rfft(arraystack.asarray(x))
    assert isinstance(got, arraystack.ndarray) and got.dtype == numpy.complex64
    numpy.testing.assert_array_equal(numpy.asarray(got), numpy.fft.rfft(x))
    shifted = numpy.fft.fftshift(arraystack.asarray(x), axes=0)
    assert isinstance(shifted, arraystack.ndarray)


def test_one_primitive_per_transform():
    x = arraystack.asarray(make((4, 6), "float64"))
    text = (
        arraystack.jit(lambda v: arraystack.fft.fftn(v, s=(3, 8), axes=(0, 1))).lower(x).as_text()
    )
    # as traced and after the passes: one fft eqn each, over both axes
    assert text.count("= fft[axes=(0, 1), fft_type='fft', lengths=(3, 8), norm='backward']") == 2


@pytest.mark.parametrize("name", ND + ONE_D)
@pytest.mark.parametrize("norm", NORMS)
def test_float16_normalization_is_numpys(parity, name, norm):
    """numpy.fft computes the first transform's factor (1/n, 1/sqrt(n)) in float16 for float16 input,
    and applies it in complex64: the same results to float32's precision."""
    x = make((4, 6, 5), "float16")
    parity(
        lambda xp, x: getattr(xp.fft, name)(x, norm=norm), x, rtol=_rtol("float16", name), atol=1e-6
    )
