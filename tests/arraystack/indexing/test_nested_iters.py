"""nested_iters against NumPy's: linked iterators over groups of axes (an outer one restarts the inner
ones), multi-index and flat index per iterator, writes through readwrite operands, size-1 axes broadcast,
and NumPy's errors for misused axes."""

import numpy
import pytest

import arraystack


def _run(xp, code):
    env = {"xp": xp, "numpy": numpy}
    try:
        exec(code, env)  # noqa: S102 - each case is a snippet of this file
    except Exception as e:  # noqa: BLE001 - NumPy's failure is the expectation, whatever it is
        return ("raised", type(e))
    return env["out"]


CASES = [
    """b = xp.arange(12.).reshape(2,3,2)
i, j = xp.nested_iters(b, [[1],[0,2]], flags=['multi_index'])
out = [(i.multi_index, float(x), [(j.multi_index, float(y)) for y in j]) for x in i]""",
    """b = xp.arange(6.).reshape(2,3).T
i, j = xp.nested_iters(b, [[0],[1]], flags=['multi_index'])
out = [(i.multi_index, [(j.multi_index, float(y)) for y in j]) for x in i]""",
    """b = xp.arange(6.).reshape(2,3)
i, j = xp.nested_iters(b, [[0],[1]], op_flags=[['readwrite']])
for x in i:
    for y in j: y[...] = y * 10
out = b.tolist()""",
    """b = xp.arange(6.).reshape(2,3)
i, j = xp.nested_iters([b, xp.arange(3.)[None]], [[0],[1]])
out = [[tuple(float(v) for v in y) for y in j] for x in i]""",
    """b = xp.arange(6.).reshape(2,3)
i, j = xp.nested_iters(b, [[1],[0]], flags=['c_index'])
out = [(i.index, [(j.index, float(y)) for y in j]) for x in i]""",
    """b = xp.arange(6.).reshape(2,3)
i, j = xp.nested_iters(b, [[1],[0]], flags=['multi_index'])
out = [float(i.value), float(j.value), i.iterindex, i.finished, i.iternext(), float(j.value), j.iterindex]
i.reset(); out += [float(j.value), i.iterindex, i.shape, j.shape, i.itersize, j.itersize, i.ndim]""",
    """b = xp.arange(6.).reshape(2,3)
i, j = xp.nested_iters(b, [[0],[]])
out = [i.shape, j.shape, [[float(y) for y in j] for x in i]]""",
    """b = xp.arange(6.).reshape(2,3)
i, j, k = xp.nested_iters(b, [[0],[1],[]])
out = [[[[float(z) for z in k] for y in j] for x in i]]""",
    """out = xp.nested_iters(xp.arange(6.).reshape(2,3), [[0],[0]])""",
    """out = xp.nested_iters(xp.arange(6.).reshape(2,3), [[0]])""",
    """out = xp.nested_iters(xp.arange(6.).reshape(2,3), [[0],[2]])""",
    """out = xp.nested_iters([xp.arange(6.).reshape(2,3), xp.arange(3.)], [[0],[1]])""",
    """b = xp.arange(4, dtype=xp.int32).reshape(2,2)
i, j = xp.nested_iters(b, [[0],[1]], op_dtypes=[xp.float64], flags=['buffered'])
out = [[float(y) for y in j] for x in i]""",
    """b = xp.arange(6.).reshape(2,3)
i, j = xp.nested_iters(b, [[0],[1]])
list(i)
out = float(i.value)""",
]


@pytest.mark.parametrize("code", CASES, ids=range(len(CASES)))
def test_nested_iters_as_numpys(code):
    assert _run(arraystack, code) == _run(numpy, code)


def test_an_output_to_allocate_is_refused_by_name():
    with pytest.raises(ValueError, match="does not allocate"):
        arraystack.nested_iters([arraystack.ones((2, 2)), None], [[0], [1]])
