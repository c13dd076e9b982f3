"""arraystack.jit never reuses a trace whose captured values changed (arraystack/_transforms/jit_captures.py): arrays,
Python scalars and helpers read through globals, closure cells, helpers' globals, dicts, object and class
attributes, lists and user modules, rebound after the first call, give what the same code gives without
jit, on the C fast path of cached calls and on the Python one."""

from __future__ import annotations

import types

import numpy as np
import pytest

import arraystack as ast

BACKEND = "reference"  # the guards do not depend on the backend; one test below runs compiled code



# module globals the cases read and rebind (each case sets its own at the start)
HELPER_W = None
PARAMS = None
SCALE = None
FLAG = None
BIAS = None
LAYERS = None
ACTIVATION = None
SETTINGS = None


def _helper(x):
    return x * HELPER_W


class Holder:
    def __init__(self, w, scale=1.0):
        self.w = w
        self.scale = scale

    def __call__(self, x):
        return x * self.w + self.scale


class Config:
    SCALE = 2.0


class Slotted:
    __slots__ = ("w",)

    def __init__(self, w):
        self.w = w


def _global_read_by_a_helper():
    global HELPER_W
    HELPER_W = np.ones(4)

    def rebind(k):
        global HELPER_W
        HELPER_W = np.full(4, k + 2.0)

    return lambda x: _helper(x) + 1.0, rebind


def _array_in_a_global_dict():
    global PARAMS
    PARAMS = {"w": np.ones(4), "layer": {"b": np.zeros(4)}}

    def rebind(k):
        PARAMS["w"] = np.full(4, k + 2.0)
        PARAMS["layer"]["b"] = np.full(4, -k)

    return lambda x: x * PARAMS["w"] + PARAMS["layer"]["b"], rebind


def _attribute_of_an_object_in_a_closure():
    holder = Holder(np.ones(4))

    def rebind(k):
        holder.w = np.full(4, k + 3.0)

    return lambda x: x * holder.w, rebind


def _scalar_attribute_of_an_object_in_a_closure():
    holder = Holder(np.ones(4), scale=1.5)

    def rebind(k):
        holder.scale = 0.25 * k

    return lambda x: holder(x), rebind


def _scalar_global():
    global SCALE
    SCALE = 2.0

    def rebind(k):
        global SCALE
        SCALE = [3.0, 3.0, -0.0][k % 3]  # an equal float first, then another sign of zero

    return lambda x: x * SCALE, rebind


def _closure_cell(value, values):
    def make():
        c = value

        def f(x):
            return x * c + c

        def rebind(k):
            nonlocal c
            c = values[k % len(values)]

        return f, rebind

    return make


def _bool_global_in_control_flow():
    global FLAG
    FLAG = True

    def rebind(k):
        global FLAG
        FLAG = not FLAG

    return lambda x: x + 1.0 if FLAG else x - 1.0, rebind


def _none_then_an_array():
    global BIAS
    BIAS = None

    def rebind(k):
        global BIAS
        BIAS = np.full(4, k + 1.0)

    return lambda x: x if BIAS is None else x + BIAS, rebind


def _list_items_and_length():
    global LAYERS
    LAYERS = [np.ones(4)]

    def f(x):
        for w in LAYERS:
            x = x * w
        return x

    def rebind(k):
        if k == 0:
            LAYERS[0] = np.full(4, 2.0)
        else:
            LAYERS.append(np.full(4, 3.0))

    return f, rebind


def _class_attribute_then_instance_attribute():
    Config.SCALE = 2.0
    config = Config()

    def rebind(k):
        if k == 0:
            Config.SCALE = 5.0
        else:
            config.SCALE = 7.0  # shadows the class attribute

    return lambda x: x * config.SCALE, rebind


def _slots_attribute():
    holder = Slotted(np.ones(4))

    def rebind(k):
        holder.w = np.full(4, k + 2.0)

    return lambda x: x * holder.w, rebind


def _helper_function_rebound():
    global ACTIVATION
    ACTIVATION = np.negative

    def rebind(k):
        global ACTIVATION
        ACTIVATION = [np.abs, np.square][k % 2]

    return lambda x: ACTIVATION(x - 2.0), rebind


def _attribute_of_a_user_module():
    global SETTINGS
    SETTINGS = types.ModuleType("user_settings")
    SETTINGS.W = np.ones(4)
    SETTINGS.OFFSET = 1

    def rebind(k):
        SETTINGS.W = np.full(4, 2.0 + k)
        SETTINGS.OFFSET = 10 + k

    return lambda x: x * SETTINGS.W + SETTINGS.OFFSET, rebind


def _numpy_scalar_global():
    global SCALE
    SCALE = np.float32(2.0)

    def rebind(k):
        global SCALE
        SCALE = np.float32(4.0 + k)

    return lambda x: x * SCALE, rebind


def _array_rebound_with_a_new_shape_or_dtype():
    global HELPER_W
    HELPER_W = np.ones(4)

    def rebind(k):
        global HELPER_W
        HELPER_W = [np.full(1, 3.0), np.arange(4, dtype=np.int32)][k % 2]

    return lambda x: _helper(x), rebind


CASES = {
    "global array read by a helper": _global_read_by_a_helper,
    "arrays in a global dict": _array_in_a_global_dict,
    "attribute of an object in a closure": _attribute_of_an_object_in_a_closure,
    "scalar attribute read by a method": _scalar_attribute_of_an_object_in_a_closure,
    "Python scalar global": _scalar_global,
    "closure cell int": _closure_cell(2, [3, 3, -4]),
    "closure cell float": _closure_cell(1.5, [0.25, float("nan"), float("nan")]),
    "bool global in control flow": _bool_global_in_control_flow,
    "None, then an array": _none_then_an_array,
    "list items and length": _list_items_and_length,
    "class attribute, then instance attribute": _class_attribute_then_instance_attribute,
    "__slots__ attribute": _slots_attribute,
    "helper function rebound": _helper_function_rebound,
    "attribute of a user module": _attribute_of_a_user_module,
    "NumPy scalar global": _numpy_scalar_global,
    "array with a new shape, then dtype": _array_rebound_with_a_new_shape_or_dtype,
}


def _same(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    assert (np.signbit(got) == np.signbit(want)).all()  # -0.0 and 0.0 differ


@pytest.mark.parametrize("name", list(CASES))
def test_a_rebound_capture_gives_what_the_code_gives_without_jit(accelerated, name):
    fn, rebind = CASES[name]()
    jf = ast.jit(fn, backend=BACKEND)
    x = np.arange(4.0)
    _same(jf(x), fn(x))
    _same(jf(ast.asarray(x)), fn(x))  # cached (on the C path when it is on)
    for k in range(3):
        rebind(k)
        want = fn(x)  # NumPy, after the rebinding
        for _ in range(2):  # the call that notices, then the one served with the new values
            _same(jf(x), want)


def test_a_jitted_method_sees_its_objects_attributes(accelerated):
    class Model:
        def __init__(self):
            self.w = np.ones(3)
            self.scale = 2

        @ast.jit(static_argnums=0, backend=BACKEND)
        def apply(self, x):
            return x * self.w * self.scale

        def plain(self, x):
            return x * self.w * self.scale

    model, other = Model(), Model()
    x = np.arange(3.0)
    _same(model.apply(x), model.plain(x))
    model.w = np.full(3, 5.0)
    _same(model.apply(x), model.plain(x))
    model.scale = 3
    _same(model.apply(x), model.plain(x))
    other.w = np.full(3, -1.0)
    _same(other.apply(x), other.plain(x))
    _same(model.apply(x), model.plain(x))


def test_a_captured_array_of_the_same_shape_is_an_input_not_a_retrace(accelerated):
    global HELPER_W
    HELPER_W = np.ones(4)
    jf = ast.jit(lambda x: _helper(x) * 2.0, backend=BACKEND)
    x = np.arange(4.0)
    jf(x)
    for k in range(3):
        HELPER_W = np.full(4, float(k))
        _same(jf(x), x * k * 2.0)
        _same(jf(x), x * k * 2.0)
    assert jf.stats()["traces"] == 1
    if accelerated:
        served = jf._fast_hits
        jf(x)
        assert jf._fast_hits == served + 1  # the guards took the new array in: C serves the call


def test_a_changed_scalar_retraces_once_and_says_why(accelerated):
    global SCALE
    SCALE = 2.0
    jf = ast.jit(lambda x: x * SCALE, backend=BACKEND)
    x = np.arange(3.0)
    jf(x)
    SCALE = float("2.0")  # an equal value: no retrace
    jf(x)
    SCALE = 3.0
    _same(jf(x), x * 3.0)
    _same(jf(x), x * 3.0)
    stats = jf.stats()
    assert stats["traces"] == 2
    assert stats["retrace_reasons"] == ["first call", "SCALE changed: 2.0 -> 3.0"]


def test_two_names_for_one_array_are_both_guarded(accelerated):
    global HELPER_W, PARAMS
    HELPER_W = np.ones(4)
    PARAMS = {"w": HELPER_W}

    def fn(x):
        return x * PARAMS["w"] + _helper(x)

    jf = ast.jit(fn, backend=BACKEND)
    x = np.arange(4.0)
    _same(jf(x), fn(x))  # the trace captures one array (read twice) as one graph input
    HELPER_W = np.full(4, 3.0)  # now the two names differ
    _same(jf(x), fn(x))
    PARAMS["w"] = np.full(4, -1.0)
    _same(jf(x), fn(x))


def test_compiled_code_reads_the_rebound_array():
    w = {"scale": np.ones(5, np.float32)}
    jf = ast.jit(lambda x: x * w["scale"] + 1.0, tiered=False)  # the numba backend
    x = np.arange(5, dtype=np.float32)
    _same(jf(x), x + 1.0)
    w["scale"] = np.full(5, 4.0, np.float32)
    _same(jf(x), x * 4.0 + 1.0)
    assert jf.stats()["traces"] == 1


def test_a_nested_jit_function_rebound_is_seen():
    global ACTIVATION
    ACTIVATION = ast.jit(lambda v: v + 1.0, backend=BACKEND)
    outer = ast.jit(lambda x: ACTIVATION(x) * 2.0, backend=BACKEND)
    x = np.arange(3.0)
    _same(outer(x), (x + 1.0) * 2.0)
    ACTIVATION = ast.jit(lambda v: v - 1.0, backend=BACKEND)
    _same(outer(x), (x - 1.0) * 2.0)


def test_a_static_argument_equal_by_value_is_not_traced_again():
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class Settings:
        scale: float
        power: int

    jf = ast.jit(lambda x, s: x**s.power * s.scale, static_argnums=1, backend=BACKEND)
    x = np.arange(3.0)
    for _ in range(3):
        _same(jf(x, Settings(2.0, 2)), x**2 * 2.0)  # a new object each call, equal to the last
    _same(jf(x, Settings(3.0, 1)), x * 3.0)
    assert jf.stats()["traces"] == 2


def test_a_container_rebound_to_its_like_is_taken_in_without_a_retrace(accelerated):
    model = Holder(None)
    model.params = {"w": np.ones(3), "layers": [np.zeros(3)], "scale": 2.0}

    def fn(x):
        return x * model.params["w"] * model.params["scale"] + model.params["layers"][0]

    jf = ast.jit(fn, backend=BACKEND)
    x = np.arange(3.0)
    _same(jf(x), fn(x))
    for k in range(3):  # a training loop's new parameters: new dicts and lists of new arrays
        model.params = {"w": np.full(3, k + 2.0), "layers": [np.full(3, -1.0 * k)], "scale": 2.0}
        _same(jf(x), fn(x))
        _same(jf(x), fn(x))
    assert jf.stats()["traces"] == 1
    for params in (
        {"w": np.ones(3), "layers": [np.zeros(3)], "scale": 3.0},  # another scalar
        {"w": np.ones(4), "layers": [np.zeros(4)], "scale": 3.0},  # other shapes
        {"w": np.ones(4), "layers": [np.zeros(4), np.ones(4)], "scale": 3.0},  # a longer list
    ):
        model.params = params
        x = np.arange(float(params["w"].size))
        _same(jf(x), fn(x))
    assert jf.stats()["traces"] == 4
