"""arraystack.prng: threefry vs Random123's known answers, JAX's values, jit/vmap, statistics."""

from __future__ import annotations

import numpy
import pytest

import arraystack
from arraystack import prng

U32 = numpy.uint32

# Random123's kat_vectors for threefry2x32_20: (key, counter, expected output).
KNOWN_ANSWERS = [
    ((0, 0), (0, 0), (0x6B200159, 0x99BA4EFE)),
    ((0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
    ((0x13198A2E, 0x03707344), (0x243F6A88, 0x85A308D3), (0xC4923A9C, 0x483DF7A0)),
]


def u32(values):
    return arraystack.asarray(values, dtype=U32)


def host(x):
    return numpy.asarray(x)


@pytest.mark.parametrize("key, counter, expected", KNOWN_ANSWERS)
def test_threefry_known_answers(key, counter, expected):
    y0, y1 = prng.threefry2x32(u32(key), u32(counter[0]), u32(counter[1]))
    assert (int(y0), int(y1)) == expected


def test_threefry_known_answers_vectorized_and_jitted():
    keys = [k for k, _, _ in KNOWN_ANSWERS]
    c0 = u32([c[0] for _, c, _ in KNOWN_ANSWERS])
    c1 = u32([c[1] for _, c, _ in KNOWN_ANSWERS])
    expected = numpy.array([e for _, _, e in KNOWN_ANSWERS], dtype=U32)
    # One key against a vector of counters, traced: the first known answer's key is (0, 0) only.
    f = arraystack.jit(prng.threefry2x32, backend="reference")
    for i, k in enumerate(keys):
        y0, y1 = f(u32(k), c0, c1)
        assert (int(host(y0)[i]), int(host(y1)[i])) == tuple(expected[i])


@pytest.mark.numba
def test_threefry_compiled_with_numba():
    f = arraystack.jit(prng.threefry2x32)
    for key, counter, expected in KNOWN_ANSWERS:
        y0, y1 = f(u32(key), u32([counter[0]] * 3), u32([counter[1]] * 3))
        assert host(y0).tolist() == [expected[0]] * 3
        assert host(y1).tolist() == [expected[1]] * 3


# Values from jax 0.10.2 (jax_threefry_partitionable=True, its default; x64 for the 64-bit rows).
def test_matches_jax_keys():
    assert host(prng.key(42)).tolist() == [0, 42]
    assert host(prng.key(2**40 + 5)).tolist() == [256, 5]
    assert host(prng.split(prng.key(42))).tolist() == [
        [1832780943, 270669613],
        [64467757, 2916123636],
    ]
    assert host(prng.split(prng.key(0), (2, 2))).tolist() == [
        [[1797259609, 2579123966], [928981903, 3453687069]],
        [[4146024105, 2718843009], [2467461003, 3840466878]],
    ]
    assert host(prng.fold_in(prng.key(42), 7)).tolist() == [2547012911, 1371500959]


def test_matches_jax_draws():
    k42 = prng.key(42)
    assert host(prng.bits(k42, (5,))).tolist() == [
        2098992034,
        2919706841,
        2646866425,
        2409546199,
        1935504149,
    ]
    assert host(prng.bits(k42, (2,), numpy.uint64)).tolist() == [
        7871734211187709741,
        276886910877598708,
    ]
    assert host(prng.bits(prng.key(3), (2, 3), numpy.uint8)).tolist() == [
        [126, 197, 222],
        [48, 174, 101],
    ]
    assert (
        host(prng.uniform(k42, (3,))).tolist()
        == numpy.float32([0.48870957, 0.6797972, 0.6162715]).tolist()
    )
    assert host(prng.uniform(k42, (3,), numpy.float64)).tolist() == [
        0.4267275666499091,
        0.015010069515314584,
        0.5741444178995352,
    ]
    assert host(prng.uniform(prng.key(7), (2,), numpy.float32, -1.5, 2.5)).tolist() == [
        1.196359634399414,
        2.398467540740967,
    ]


def test_matches_jax_randint():
    k1 = prng.key(1)
    assert host(prng.randint(prng.key(42), (5,), 0, 10)).tolist() == [4, 4, 1, 9, 9]
    assert host(prng.randint(k1, (6,), -5, 5)).tolist() == [1, 2, -5, -2, 3, -1]
    assert host(prng.randint(k1, (6,), -5, 5, numpy.int8)).tolist() == [1, 2, -5, -2, 3, -1]
    assert host(prng.randint(k1, (6,), 0, 300, numpy.uint16)).tolist() == [
        196,
        227,
        140,
        53,
        268,
        184,
    ]
    assert host(prng.randint(k1, (6,), 5, 5)).tolist() == [5] * 6
    assert host(prng.randint(k1, (4,), -(2**31), 2**31 - 1)).tolist() == [
        -413835524,
        210002863,
        -1191255328,
        -1392002199,
    ]
    full = prng.randint(k1, (6,), 0, 2**32, numpy.uint32)
    assert host(full).tolist() == [
        1733648124,
        2357486511,
        956228320,
        755481449,
        3786439072,
        2431038124,
    ]
    assert host(prng.randint(k1, (3,), -(2**63), 2**63 - 1, numpy.int64)).tolist() == [
        4850916249322173532,
        291051456844162669,
        4824628658617083091,
    ]
    bounds = arraystack.asarray([0, 0, 0, 10, 10, 10])
    assert host(prng.randint(k1, (6,), bounds, 20)).tolist() == [16, 7, 0, 13, 18, 14]


def draw_everything(key):
    a, b = prng.split(key)
    return {
        "split3": prng.split(key, 3),
        "fold": prng.fold_in(key, 7),
        "bits": prng.bits(key, (5,)),
        "u32": prng.uniform(key, (3,)),
        "u64": prng.uniform(key, (2, 3), numpy.float64, -2.0, 3.0),
        "randint": prng.randint(key, (5,), -3, 10),
        "perm": prng.permutation(key, 11),
        "normal": prng.normal(b, (4,)),
        "bernoulli": prng.bernoulli(a, 0.3, (6,)),
        "categorical": prng.categorical(key, arraystack.zeros((2, 5))),
    }


def test_jit_matches_eager():
    key = prng.key(1234)
    eager = draw_everything(key)
    traced = arraystack.jit(draw_everything, backend="reference")(key)
    for name, value in eager.items():
        numpy.testing.assert_allclose(host(traced[name]), host(value), rtol=1e-6, err_msg=name)
        assert host(traced[name]).dtype == host(value).dtype, name


def test_traced_seed_and_fold_in_data():
    f = arraystack.jit(lambda s, d: prng.fold_in(prng.key(s), d), backend="reference")
    seed, data = arraystack.asarray(5, dtype=numpy.int32), arraystack.asarray(3, dtype=numpy.int32)
    assert host(f(seed, data)).tolist() == host(prng.fold_in(prng.key(5), 3)).tolist()


def per_key_draws(key):
    a, b = prng.split(key)
    return {
        "uniform": prng.uniform(key, (2,), numpy.float64, -1.0, 1.0),
        "normal": prng.normal(a, (4,)),
        "randint": prng.randint(b, (3,), 0, 7),
        "permutation": prng.permutation(key, 6),
        "truncated": prng.truncated_normal(key, -1.0, 1.0, (2,)),
    }


def test_vmap_over_keys_matches_a_loop():
    if not hasattr(arraystack, "vmap"):
        pytest.skip("arraystack.vmap is not available yet")
    keys = prng.split(prng.key(0), 3)
    batched = arraystack.vmap(per_key_draws)(keys)
    for name, value in batched.items():
        looped = numpy.stack([host(per_key_draws(keys[i])[name]) for i in range(3)])
        numpy.testing.assert_allclose(host(value), looped, rtol=1e-6, err_msg=name)
    folded = arraystack.vmap(prng.fold_in, in_axes=(None, 0))(keys[0], arraystack.arange(3))
    assert host(folded).tolist() == [host(prng.fold_in(keys[0], i)).tolist() for i in range(3)]
    seeded = arraystack.vmap(prng.key)(arraystack.arange(3))
    assert host(seeded).tolist() == [[0, 0], [0, 1], [0, 2]]


def test_keys_are_distinct():
    keys = host(prng.split(prng.key(0), 64))
    assert len({tuple(k) for k in keys.tolist()}) == 64
    folded = {tuple(host(prng.fold_in(prng.key(0), i)).tolist()) for i in range(64)}
    assert len(folded) == 64


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_uniform_statistics(dtype):
    u = host(prng.uniform(prng.key(0), (20000,), dtype))
    assert u.dtype == dtype
    assert u.min() >= 0.0 and u.max() < 1.0
    assert abs(u.mean() - 0.5) < 0.01 and abs(u.var() - 1 / 12) < 0.005
    counts = numpy.histogram(u, bins=10, range=(0, 1))[0]
    assert counts.min() > 1800 and counts.max() < 2200
    v = host(prng.uniform(prng.key(1), (20000,), dtype, minval=-3.0, maxval=-2.0))
    assert v.min() >= -3.0 and v.max() < -2.0


def test_uniform_interval_is_half_open():
    # unit * (maxval - minval) + minval can round up to maxval; uniform clamps below it.
    u = host(prng.uniform(prng.key(2), (50000,), numpy.float32, minval=0.1, maxval=0.3))
    assert u.min() >= numpy.float32(0.1) and u.max() < numpy.float32(0.3)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_normal_statistics(dtype):
    z = host(prng.normal(prng.key(3), (40000,), dtype))
    assert z.dtype == dtype and numpy.isfinite(z).all()
    assert abs(z.mean()) < 0.03 and abs(z.var() - 1.0) < 0.04
    assert abs((numpy.abs(z) < 1.0).mean() - 0.6827) < 0.01
    assert abs(numpy.mean(z**3)) < 0.1 and abs(numpy.mean(z**4) - 3.0) < 0.2


def test_bernoulli_and_randint_statistics():
    b = host(prng.bernoulli(prng.key(4), 0.3, (20000,)))
    assert b.dtype == bool and abs(b.mean() - 0.3) < 0.015
    p = arraystack.asarray([0.0, 1.0, 0.5])
    assert host(prng.bernoulli(prng.key(5), p)).tolist()[:2] == [False, True]
    r = host(prng.randint(prng.key(6), (20000,), -3, 7))
    assert r.dtype == numpy.int32 and r.min() == -3 and r.max() == 6
    counts = numpy.bincount(r + 3)
    assert counts.min() > 1800 and counts.max() < 2200


def test_categorical_statistics():
    logits = numpy.log(numpy.array([0.1, 0.2, 0.7]))
    draws = host(prng.categorical(prng.key(7), numpy.broadcast_to(logits, (20000, 3))))
    numpy.testing.assert_allclose(
        numpy.bincount(draws, minlength=3) / 20000, [0.1, 0.2, 0.7], atol=0.015
    )


@pytest.mark.parametrize("n", [1, 2, 5, 16, 37])
def test_permutation_is_a_permutation(n):
    perm = host(prng.permutation(prng.key(n), n))
    assert sorted(perm.tolist()) == list(range(n))


def test_permutation_is_uniform_and_permutes_rows():
    counts = numpy.zeros((4, 4))
    for i in range(300):
        counts[numpy.arange(4), host(prng.permutation(prng.key(i), 4))] += 1
    assert counts.min() > 45 and counts.max() < 105  # each position takes each value ~75 times
    x = numpy.arange(12.0).reshape(6, 2)
    shuffled = host(prng.permutation(prng.key(9), arraystack.asarray(x)))
    assert sorted(shuffled[:, 0].tolist()) == x[:, 0].tolist()
    numpy.testing.assert_array_equal(shuffled[:, 1], shuffled[:, 0] + 1)


def test_bad_keys_and_dtypes_raise():
    with pytest.raises(TypeError, match="uint32"):
        prng.uniform(arraystack.asarray([1, 2]), (3,))
    with pytest.raises(TypeError, match="float32 or float64"):
        prng.uniform(prng.key(0), (3,), numpy.int32)
    with pytest.raises(TypeError, match="integers"):
        prng.randint(prng.key(0), (3,), 0, 4, numpy.float32)
    with pytest.raises(TypeError, match="scalar"):
        prng.key(arraystack.asarray([1, 2]))
