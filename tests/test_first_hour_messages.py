"""The errors a new user is likely to meet in the first hour (issue 7, item 5), each checked for two things:
the message names the user's own line (this file, at the statement that caused it) and says what to do.

"The message" is what Python prints: str(error) plus its notes (PEP 678), as a traceback or Jupyter shows it.
Each case returns the error it provoked; the `# <-` comment marks the line the message must name (the
statement in the traced function, or the call itself when the error is raised at the call).
"""

from __future__ import annotations

import linecache
import os
import re

import numpy
import pytest

import arraystack as np

HERE = os.path.basename(__file__)


def raised(fn, *args, **kwargs) -> BaseException:
    with pytest.raises(Exception) as info:
        fn(*args, **kwargs)
    return info.value


def shown(error: BaseException) -> str:
    return "\n".join([str(error), *getattr(error, "__notes__", ())])


def named_line(error: BaseException) -> str:
    """The source text of the line of this file that the message names."""
    found = re.findall(re.escape(HERE) + r":(\d+)", shown(error))
    assert found, f"the message does not name a line of {HERE}:\n{shown(error)}"
    return linecache.getline(__file__, int(found[0]))


# -- the cases: each provokes one error ------------------------------------------------------------------------


def shape_mismatch_under_jit():
    @np.jit
    def f(x, y):
        return x + y  # <-

    return raised(f, np.ones(3), np.ones(4))


def matmul_mismatch_under_jit():
    @np.jit
    def layer(x, w):
        return np.tanh(x @ w)  # <-

    return raised(layer, np.ones((8, 4)), np.ones((5, 3)))


def python_if_on_a_traced_value():
    @np.jit
    def relu(x):
        if x > 0:  # <-
            return x
        return 0.0 * x

    return raised(relu, np.ones(()))


def unsupported_dtype_as_jit_argument():
    f = np.jit(lambda x: x)
    with pytest.raises(Exception) as info:
        f(numpy.array(["a", "b"]))  # <-
    return info.value


def grad_of_a_non_scalar_function():
    with pytest.raises(Exception) as info:
        np.grad(lambda x: x * 2.0)(np.ones(3))  # <-
    return info.value


def grad_with_an_integer_input():
    with pytest.raises(Exception) as info:
        np.grad(lambda x: (x * x).sum())(np.arange(3))  # <-
    return info.value


def vjp_with_a_wrongly_structured_cotangent():
    _, pullback = np.vjp(lambda x: (x, 2.0 * x), np.ones(3))
    with pytest.raises(Exception) as info:
        pullback(np.ones(3))  # <-
    return info.value


def jvp_with_too_few_tangents():
    f = lambda x, y: x * y
    with pytest.raises(Exception) as info:
        np.jvp(f, (np.ones(3), np.ones(3)), (np.ones(3),))  # <-
    return info.value


def jvp_with_a_misshapen_tangent():
    with pytest.raises(Exception) as info:
        np.jvp(lambda x: 2.0 * x, (np.ones(3),), (np.ones(4),))  # <-
    return info.value


def vmap_with_inconsistent_sizes():
    add = np.vmap(lambda x, y: x + y)
    with pytest.raises(Exception) as info:
        add(np.ones((3, 2)), np.ones((4, 2)))  # <-
    return info.value


def tracer_used_after_jit_returned():
    leaked = []

    @np.jit
    def f(x):
        leaked.append(x)
        return x * 2.0

    f(np.ones(3))
    with pytest.raises(Exception) as info:
        leaked[0] + 1.0  # <-
    return info.value


def nonzero_under_jit():
    @np.jit
    def f(x):
        return np.nonzero(x)  # <-

    return raised(f, np.ones(3))


def boolean_mask_under_jit():
    @np.jit
    def positive(x):
        return x[x > 0]  # <-

    return raised(positive, np.ones(3))


def random_draw_under_jit():
    @np.jit
    def noisy(x):
        return x + np.random.standard_normal(3)  # <-

    return raised(noisy, np.ones(3))


def gpu_requested_in_asarray():
    with pytest.raises(Exception) as info:
        np.asarray([1.0, 2.0], device="cuda")  # <-
    return info.value


def gpu_requested_in_to_device():
    x = np.ones(3)
    with pytest.raises(Exception) as info:
        x.to_device("cuda:0")  # <-
    return info.value


# (case, exception type, words of the suggested fix: each must appear in the message, case-insensitively)
CASES = [
    (
        shape_mismatch_under_jit,
        ValueError,
        ["shapes (3,) (4,)", "x.shape", "ARRAYSTACK_DISABLE_JIT"],
    ),
    (matmul_mismatch_under_jit, ValueError, ["x.shape"]),
    (
        python_if_on_a_traced_value,
        TypeError,
        ["static_argnums", "arraystack.where", "arraystack.cond"],
    ),
    (unsupported_dtype_as_jit_argument, TypeError, ["<U1", "astype", "static_argnums"]),
    (grad_of_a_non_scalar_function, TypeError, ["scalar", ".sum()", "jacrev", "vjp"]),
    (grad_with_an_integer_input, TypeError, ["int64", "astype(float)", "argnums"]),
    (
        vjp_with_a_wrongly_structured_cotangent,
        TypeError,
        ["tuple(*, *)", "one cotangent per output"],
    ),
    (jvp_with_too_few_tangents, TypeError, ["2 primals but 1 tangents", "one tangent per primal"]),
    (jvp_with_a_misshapen_tangent, ValueError, ["(4,)", "(3,)", "primal's shape"]),
    (vmap_with_inconsistent_sizes, ValueError, ["[3, 4]", "in_axes=None"]),
    (tracer_used_after_jit_returned, RuntimeError, ["escaped", "return it from the function"]),
    (nonzero_under_jit, ValueError, ["size=", "arraystack.where"]),
    (boolean_mask_under_jit, ValueError, ["size=", "arraystack.where"]),
    (random_draw_under_jit, Exception, ["arraystack.prng", "key"]),
    (gpu_requested_in_asarray, ValueError, ["cuda", "CuPy", "leave device= out"]),
    (gpu_requested_in_to_device, ValueError, ["'cuda:0'", "CuPy", "leave device= out"]),
]


@pytest.mark.parametrize("case, kind, fix", CASES, ids=[c[0].__name__ for c in CASES])
def test_the_message_names_the_users_line_and_suggests_the_fix(case, kind, fix):
    error = case()
    assert isinstance(error, kind), f"{type(error).__name__}: {error}"
    assert "# <-" in named_line(error), shown(error)
    for words in fix:
        assert words.lower() in shown(error).lower(), f"{words!r} missing from:\n{shown(error)}"


def test_a_shape_mismatch_outside_jit_keeps_numpys_message():
    error = raised(lambda: np.ones(3) + np.ones(4))
    expected = raised(lambda: numpy.ones(3) + numpy.ones(4))
    assert type(error) is type(expected)
    assert str(error).strip() == str(expected).strip()


def test_traced_errors_are_annotated_once_under_nested_jit():
    inner = np.jit(lambda x, y: x + y)

    @np.jit
    def outer(x, y):
        return inner(x, y) * 2.0

    error = raised(outer, np.ones(3), np.ones(4))
    notes = [n for n in getattr(error, "__notes__", ()) if n.startswith("arraystack:")]
    assert len(notes) == 1, notes
