"""jit of arrays on a cuda device (the stand-in): without a backend named, the call compiles with the
device's backend (cupy), its results stay on that device and equal the host's; arrays on two devices
raise, as an eager operation of them does; NumPy arrays and captured constants are copied to the device,
as jax.jit copies NumPy arguments."""

from __future__ import annotations

import numpy
import pytest

import arraystack as ast


def _chain(a):
    return ast.tanh(a * 2.0 + 1.0).sum(axis=-1) + a.max()


def test_jit_of_cuda_arrays_runs_on_their_device(standin):
    host = numpy.linspace(-2.0, 2.0, 12).reshape(3, 4)
    f = ast.jit(_chain)
    on_gpu = f(ast.asarray(host, device="cuda:1"))
    assert on_gpu.device == "cuda:1"
    expected = ast.jit(_chain)(ast.asarray(host))
    assert expected.device == "cpu"
    numpy.testing.assert_allclose(on_gpu.to_device("cpu"), expected, rtol=1e-12)
    assert f.lower(ast.asarray(host, device="cuda:1")).backend == "cupy"


def test_jit_refuses_arrays_on_two_devices(standin):
    g = ast.jit(lambda a, b: a + b)
    x = ast.asarray(numpy.ones(3), device="cuda:0")
    with pytest.raises(ValueError, match=r"two devices, cuda:0 and cpu .*test_jit_devices.py"):
        g(x, ast.ones(3))
    with pytest.raises(ValueError, match="two devices, cuda:0 and cuda:1"):
        g(x, ast.asarray(numpy.ones(3), device="cuda:1"))


def test_numpy_arguments_and_constants_are_copied_to_the_device(standin):
    weights = numpy.arange(3.0)
    g = ast.jit(lambda a, b: a * b + weights)
    out = g(ast.asarray(numpy.ones(3), device="cuda"), numpy.full(3, 2.0))
    assert out.device == "cuda:0"
    numpy.testing.assert_array_equal(out.to_device("cpu"), 2.0 + weights)


def test_arguments_a_jitted_function_writes_are_written_on_their_device(standin):
    def f(x, y):
        numpy_add = ast.add(x[::-1], y, out=x)  # overlapping, as NumPy orders it
        y[1:] *= 2.0
        return numpy_add.sum()

    host_x, host_y = numpy.arange(6.0).reshape(2, 3), numpy.array([1.0, -2.0, 0.5])
    x, y = ast.asarray(host_x, device="cuda:1"), ast.asarray(host_y, device="cuda:1")
    view = x[0]
    total = ast.jit(f)(x, y)
    want_x, want_y = host_x.copy(), host_y.copy()
    want_total = numpy.add(want_x[::-1], want_y, out=want_x).sum()
    want_y[1:] *= 2.0
    assert total.device == x.device == y.device == "cuda:1"
    assert float(total.to_device("cpu")) == want_total
    numpy.testing.assert_array_equal(x.to_device("cpu"), want_x)
    numpy.testing.assert_array_equal(view.to_device("cpu"), want_x[0])  # the buffer was written
    numpy.testing.assert_array_equal(y.to_device("cpu"), want_y)
    with pytest.raises(ValueError, match="share memory"):
        ast.jit(f)(x, x[0])


def test_grad_of_a_jitted_function_on_cuda(standin):
    x = ast.asarray(numpy.array([0.5, -1.0, 2.0]), device="cuda")
    dx = ast.grad(lambda a: ast.jit(lambda b: (ast.sin(b) * b).sum())(a))(x)
    assert dx.device == "cuda:0"
    host = numpy.array([0.5, -1.0, 2.0])
    numpy.testing.assert_allclose(dx.to_device("cpu"), numpy.cos(host) * host + numpy.sin(host))


def test_fft_frequencies_are_made_on_the_device_asked_for(standin):
    freq = ast.fft.fftfreq(5, 0.5, device="cuda:1")
    assert freq.device == "cuda:1"
    numpy.testing.assert_array_equal(freq.to_device("cpu"), numpy.fft.fftfreq(5, 0.5))
    rfreq = ast.fft.rfftfreq(6, device="cuda", dtype="float32")
    assert rfreq.device == "cuda:0" and rfreq.dtype == numpy.float32
    numpy.testing.assert_array_equal(
        rfreq.to_device("cpu"), numpy.fft.rfftfreq(6).astype("float32")
    )
    with ast.default_device("cuda"):
        assert ast.fft.fftfreq(4).device == "cuda:0"
    assert ast.fft.fftfreq(4).device == "cpu"


def test_cached_calls_of_device_arrays_take_the_fast_path_per_device(standin):
    f = ast.jit(lambda a: a * 2.0 + 1.0)
    host = numpy.arange(6.0)
    on = {d: ast.asarray(host, device=d) for d in ("cuda:0", "cuda:1")}
    for device, x in on.items():
        for _ in range(3):
            y = f(x)
            assert y.device == device
            numpy.testing.assert_array_equal(y.to_device("cpu"), host * 2.0 + 1.0)
    stats = f.stats()
    assert stats["traces"] == 1 and stats["cache_hits"] == 5  # one program runs on either device
    devices = {
        part for key in f._fast for part in key if isinstance(part, type(on["cuda:0"].device))
    }
    assert {str(d) for d in devices} == {"cuda:0", "cuda:1"}  # each device keys its own entry


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "complex64"])
@pytest.mark.parametrize(
    ("shape", "axis"),
    [((5,), None), ((3, 4), 1), ((3, 4), 0), ((1, 3), 0), ((2000, 3), 0), ((3, 2000), 1),
     ((20000,), None)],
)  # fmt: skip
def test_sums_of_negative_zeros_are_positive_zero_and_their_running_sums_keep_the_sign(
    standin, dtype, shape, axis
):
    """NumPy's sums start from +0.0 (np.sum([-0.0]) is 0.0), its cumulative sums from the first
    value (np.cumsum([-0.0]) is [-0.0]): rows, columns (split or not) and whole-array kernels."""
    zero = complex(-0.0, -0.0) if dtype.startswith("complex") else -0.0
    host = numpy.full(shape, zero, dtype=dtype)
    x = ast.asarray(host, device="cuda")
    for f, g in [
        (lambda a: ast.sum(a, axis=axis), lambda a: numpy.sum(a, axis=axis)),
        (lambda a: ast.mean(a, axis=axis), lambda a: numpy.mean(a, axis=axis)),
        (lambda a: ast.cumsum(a, axis=axis), lambda a: numpy.cumsum(a, axis=axis)),
    ]:
        got = numpy.asarray(ast.jit(f)(x).to_device("cpu"))
        want = g(host)
        assert got.dtype == want.dtype
        for part in (numpy.real, numpy.imag):
            numpy.testing.assert_array_equal(numpy.signbit(part(got)), numpy.signbit(part(want)))


def test_cupy_arrays_are_taken_by_jit_where_they_live(standin):
    """A cupy array argument (or one in a pytree) is an arraystack array sharing its memory: the call
    runs on its device, and an argument the function writes is written in the caller's cupy array."""
    c = standin.asarray(numpy.arange(3.0))
    out = ast.jit(lambda t: t["a"] * t["b"][0] + 1)({"a": c, "b": [c]})
    assert out.device == "cuda:0"
    numpy.testing.assert_array_equal(out.to_device("cpu"), [1.0, 2.0, 5.0])

    def bump(v):
        v += 1.0
        return v.sum()

    assert float(ast.jit(bump)(c)) == 6.0
    numpy.testing.assert_array_equal(c.get(), [1.0, 2.0, 3.0])
    with standin.cuda.Device(1):
        elsewhere = standin.asarray(numpy.ones(3))
    with pytest.raises(ValueError, match="two devices, cuda:0 and cuda:1"):
        ast.jit(lambda a, b: a * b)(c, elsewhere)


def test_cached_calls_of_cupy_arrays_take_the_fast_path(standin):
    """Calls with cupy's own arrays are served from the cache as arraystack arrays are: keyed by type,
    shape, dtype and device, so an array of another device or dtype traces or compiles anew."""
    f = ast.jit(lambda a, b: a * b + 1.0)
    host = numpy.arange(4.0)
    c, d = standin.asarray(host), standin.asarray(numpy.full(4, 2.0))
    for _ in range(3):
        out = f(c, d)
        assert out.device == "cuda:0"
        numpy.testing.assert_array_equal(out.to_device("cpu"), host * 2.0 + 1.0)
    assert f.stats()["cache_hits"] == 2
    assert any(standin.ndarray in key for key in f._fast)
    with standin.cuda.Device(1):
        c1, d1 = standin.asarray(host), standin.asarray(numpy.full(4, 3.0))
    out = f(c1, d1)
    assert out.device == "cuda:1"
    numpy.testing.assert_array_equal(out.to_device("cpu"), host * 3.0 + 1.0)
    out = f(standin.asarray(host.astype(numpy.float32)), d)
    assert out.dtype == numpy.float64 and out.device == "cuda:0"
    with pytest.raises(ValueError, match="two devices, cuda:0 and cuda:1"):
        f(c, d1)


def test_cached_launches_follow_each_calls_strides_and_arguments(standin):
    """A region's launches are bound once per argument layout (interpreter.py): calls of one trace with
    views of other strides or offsets, and with the same array passed twice then two arrays, each get
    NumPy's result (the bound arguments are never those of an earlier call)."""
    f = ast.jit(lambda a, b: a * b + ast.max(a, axis=0) - ast.sum(b, axis=1, keepdims=True))
    rng = numpy.random.default_rng(3)
    big = rng.standard_normal((8, 12))
    on = ast.asarray(big, device="cuda")
    pairs = [
        (big[:4, :6], big[4:, 6:]),  # offsets into one buffer
        (big[:4, :6].copy(), big[:4, :6].copy()),  # C order
        (big[:6, :4].T, big[::2, ::2]),  # a transpose, steps
        (big[1:5, 2:8], big[1:5, 2:8]),  # one view passed twice
    ]
    views = [
        (on[:4, :6], on[4:, 6:]),
        (ast.asarray(pairs[1][0], device="cuda"), ast.asarray(pairs[1][1], device="cuda")),
        (on[:6, :4].T, on[::2, ::2]),
        (on[1:5, 2:8],) * 2,
    ]
    for _ in range(2):  # the second round is served by the bound launches
        for (a, b), (x, y) in zip(pairs, views):
            want = a * b + a.max(axis=0) - b.sum(axis=1, keepdims=True)
            got = f(x, y)
            assert got.device == "cuda:0"
            numpy.testing.assert_allclose(numpy.asarray(got.to_device("cpu")), want, rtol=1e-12)
    numpy.testing.assert_array_equal(numpy.asarray(on.to_device("cpu")), big)  # inputs untouched
    assert f.stats()["traces"] == 1
