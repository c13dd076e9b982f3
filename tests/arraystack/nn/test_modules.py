"""nn.Module as a pytree: which fields are leaves, immutability, replace, train/eval, partition and
combine, count_params, and modules through grad, jit, vmap, optim and save_tree/load_tree."""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import subprocess
import sys
import textwrap

import numpy
import pytest

import arraystack as ast
from arraystack import nn, optim, prng

RNG = numpy.random.default_rng(28)


class Affine(nn.Module):
    weight: ast.ndarray
    bias: ast.ndarray
    name: str = "affine"
    scale: float = 2.0
    forced: float = nn.field(static=False, default=1.0)

    def __call__(self, x):
        return self.scale * (x @ self.weight) + self.bias


class Counter(nn.Module):
    """A module with its own __init__ that assigns a field which is not declared."""

    weight: ast.ndarray

    def __init__(self, n):
        self.weight = ast.zeros(n)
        self.count = n


def _affine():
    return Affine(ast.asarray(RNG.standard_normal((3, 2))), ast.asarray(RNG.standard_normal(2)))


def test_array_fields_are_leaves_and_python_values_are_static():
    m = _affine()
    leaves, treedef = ast.tree_util.flatten(m)
    assert len(leaves) == 3
    assert leaves[0] is m.weight and leaves[1] is m.bias and leaves[2] == 1.0  # forced leaf
    assert "name" not in [type(x).__name__ for x in leaves]
    # static values are the structure: another value is another structure
    other = Affine(m.weight, m.bias, name="other")
    assert ast.tree_util.structure(other) != treedef
    assert ast.tree_util.structure(Affine(m.weight * 2, m.bias)) == treedef
    rebuilt = ast.tree_util.unflatten(treedef, leaves)
    assert type(rebuilt) is Affine and rebuilt.name == "affine" and rebuilt.scale == 2.0


def test_static_field_declared_static_and_checked():
    class Tagged(nn.Module):
        weight: ast.ndarray
        tags: tuple = nn.static(default=())

    t = Tagged(ast.ones(2), tags=("a", "b"))
    assert len(ast.tree_util.leaves(t)) == 1
    with pytest.raises(TypeError, match="static field but holds arrays"):
        Tagged(ast.ones(2), tags=(ast.ones(1),))
    with pytest.raises(TypeError, match="unhashable list"):
        Affine(ast.ones((3, 2)), ast.ones(2), name=["not", "hashable"])


def test_modules_are_immutable():
    m = _affine()
    w = m.weight
    with pytest.raises(dataclasses.FrozenInstanceError, match="replace"):
        m.weight = ast.zeros((3, 2))
    with pytest.raises(AttributeError):  # FrozenInstanceError is an AttributeError, as in Equinox
        m.scale = 3.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        del m.bias
    assert m.weight is w and m.scale == 2.0 and m.bias is not None


def test_init_must_set_declared_fields_only():
    with pytest.raises(AttributeError, match="no field 'count'"):
        Counter(3)

    class Missing(nn.Module):
        weight: ast.ndarray

        def __init__(self):
            pass

    with pytest.raises(TypeError, match="did not set the field 'weight'"):
        Missing()


def test_replace_returns_an_updated_copy():
    m = _affine()
    w = ast.zeros((3, 2))
    r = m.replace(weight=w, scale=3.0)
    assert r.weight is w and r.scale == 3.0 and m.scale == 2.0 and m.weight is not w
    assert ast.tree_util.structure(r) != ast.tree_util.structure(m)  # scale is static
    with pytest.raises(TypeError, match="no fields"):
        m.replace(missing=1)
    # an unmarked static field given an array becomes a leaf
    promoted = m.replace(scale=ast.asarray(3.0))
    assert len(ast.tree_util.leaves(promoted)) == 4


def test_train_and_eval_return_copies_with_every_training_field_set():
    k = prng.key(0)
    model = nn.Sequential(nn.Linear(3, 4, key=k), nn.Dropout(0.5), nn.BatchNorm(4))
    evaluated = model.eval()
    assert [getattr(layer, "training", None) for layer in evaluated] == [None, False, False]
    assert [getattr(layer, "training", None) for layer in model] == [None, True, True]
    assert evaluated.train()[1].training
    assert evaluated[0].weight is model[0].weight  # arrays are shared, not copied
    x = ast.asarray(RNG.standard_normal((5, 3)))
    state = model.initial_state()
    _, new_state = evaluated(x, state)
    assert new_state[2] is state[2]  # running statistics unchanged in evaluation mode


def test_partition_and_combine():
    m = _affine()
    trainable, frozen = nn.partition(m, nn.is_inexact_array)
    assert trainable.weight is m.weight and frozen.weight is None
    assert trainable.forced is None and frozen.forced == 1.0  # a Python float is no array
    back = nn.combine(trainable, frozen)
    assert ast.tree_util.structure(back) == ast.tree_util.structure(m)
    assert all(a is b for a, b in zip(ast.tree_util.leaves(back), ast.tree_util.leaves(m)))
    # a prefix of the tree with bools selects whole subtrees
    spec = ast.tree_util.tree_map(lambda _: False, m).replace(bias=True)
    chosen, rest = nn.partition(m, spec)
    assert chosen.bias is m.bias and chosen.weight is None and rest.bias is None
    with pytest.raises(ValueError, match="filter_spec"):
        nn.partition(m, {"weight": True})
    with pytest.raises(TypeError, match="bools or callables"):
        nn.partition({"a": ast.ones(1)}, {"a": 3})
    with pytest.raises(ValueError, match="combine"):
        nn.combine(trainable, {"weight": None})


def test_count_params():
    k = prng.key(1)
    model = nn.Sequential(nn.Linear(3, 4, key=k), nn.relu, nn.LayerNorm(4), nn.Linear(4, 1, key=k))
    assert nn.count_params(model) == 3 * 4 + 4 + 4 + 4 + 4 * 1 + 1
    assert nn.count_params(nn.Linear(3, 4, bias=False, key=k)) == 12
    assert nn.count_params({"w": numpy.ones((2, 3)), "n": 7}) == 6


def test_modules_pass_through_grad_jit_and_vmap():
    m = _affine()
    x = ast.asarray(RNG.standard_normal((4, 3)))

    def loss(model, x):
        return ast.sum(model(x) ** 2)

    g = ast.grad(loss)(m, x)
    assert type(g) is Affine and g.name == "affine"
    y = numpy.asarray(m(x))
    w, b = numpy.asarray(m.weight), numpy.asarray(m.bias)
    numpy.testing.assert_allclose(
        numpy.asarray(g.weight), 2 * 2 * numpy.asarray(x).T @ y, rtol=1e-12
    )
    numpy.testing.assert_allclose(numpy.asarray(g.bias), 2 * y.sum(0), rtol=1e-12)
    numpy.testing.assert_allclose(y, 2 * numpy.asarray(x) @ w + b, rtol=1e-12)
    jitted = ast.jit(lambda model, x: model(x))
    numpy.testing.assert_allclose(numpy.asarray(jitted(m, x)), y, rtol=1e-12)
    numpy.testing.assert_allclose(
        numpy.asarray(jitted(m.replace(weight=m.weight * 0), x)), b + 0 * y
    )
    per_example = ast.vmap(lambda model, row: model(row), in_axes=(None, 0))(m, x)
    numpy.testing.assert_allclose(numpy.asarray(per_example), y, rtol=1e-12)
    # an ensemble: a batch of modules, mapped over their leaves
    stacked = ast.tree_util.tree_map(lambda a: ast.stack([a, 2 * a]), m)
    ys = ast.vmap(lambda model: model(x))(stacked)
    numpy.testing.assert_allclose(numpy.asarray(ys[1]), 2 * numpy.asarray(x) @ (2 * w) + 2 * b)


def _mlp(key, dtype=ast.float64):
    k1, k2 = prng.split(key)
    return nn.Sequential(
        nn.Linear(2, 16, key=k1, dtype=dtype), nn.tanh, nn.Linear(16, 1, key=k2, dtype=dtype)
    )


def _regression_data():
    x = RNG.uniform(-1, 1, (32, 2))
    y = numpy.sin(2 * x[:, :1]) + x[:, 1:] ** 2
    return ast.asarray(x), ast.asarray(y)


def _mse(model, x, y):
    return ast.mean((model(x) - y) ** 2)


def test_a_training_loop_with_optim_reduces_the_loss():
    x, y = _regression_data()
    model = _mlp(prng.key(2))
    opt = optim.adam(3e-2)
    state = opt.init(model)

    @ast.jit
    def step(model, state, x, y):
        loss, grads = ast.value_and_grad(_mse)(model, x, y)
        updates, state = opt.update(grads, state, model)
        return optim.apply_updates(model, updates), state, loss

    first = float(_mse(model, x, y))
    for _ in range(60):
        model, state, _ = step(model, state, x, y)
    assert type(model) is nn.Sequential
    assert float(_mse(model, x, y)) < 0.2 * first


def test_frozen_parameters_stay_unchanged():
    x, y = _regression_data()
    model = _mlp(prng.key(3))
    spec = ast.tree_util.tree_map(lambda _: False, model)
    spec = spec.replace(layers=(spec[0], spec[1], True))  # train the last layer only
    trainable, frozen = nn.partition(model, spec)
    opt = optim.sgd(0.1)
    state = opt.init(trainable)

    def loss(trainable, frozen, x, y):
        return _mse(nn.combine(trainable, frozen), x, y)

    for _ in range(5):
        grads = ast.grad(loss)(trainable, frozen, x, y)
        assert grads[0].weight is None
        updates, state = opt.update(grads, state, trainable)
        trainable = optim.apply_updates(trainable, updates)
    model2 = nn.combine(trainable, frozen)
    numpy.testing.assert_array_equal(
        numpy.asarray(model2[0].weight), numpy.asarray(model[0].weight)
    )
    numpy.testing.assert_array_equal(numpy.asarray(model2[0].bias), numpy.asarray(model[0].bias))
    assert not numpy.array_equal(numpy.asarray(model2[2].weight), numpy.asarray(model[2].weight))
    assert float(loss(trainable, frozen, x, y)) < float(_mse(model, x, y))


def test_grad_has_aux_returns_the_new_batch_norm_state():
    k = prng.key(4)
    model = nn.Sequential(
        nn.Linear(3, 4, key=k, dtype=ast.float64), nn.BatchNorm(4, dtype=ast.float64)
    )
    x = ast.asarray(RNG.standard_normal((8, 3)))

    def loss(model, state, x):
        y, state = model(x, state)
        return ast.sum(y**2), state

    grads, new_state = ast.grad(loss, has_aux=True)(model, model.initial_state(), x)
    assert type(grads) is nn.Sequential and new_state[0] is None
    h = numpy.asarray(model[0](x))
    numpy.testing.assert_allclose(numpy.asarray(new_state[1]["mean"]), 0.1 * h.mean(0), rtol=1e-12)


def test_save_tree_and_load_tree_round_trip_a_model_and_its_optimizer_state(tmp_path):
    k1, k2 = prng.split(prng.key(5))
    model = nn.Sequential(
        nn.Embedding(10, 8, key=k1),
        nn.TransformerBlock(8, 2, dropout=0.1, key=k2),
        nn.RMSNorm(8),
        nn.Lambda("relu"),
    ).eval()
    opt = optim.adam(1e-3)
    state = opt.init(model)
    path = tmp_path / "model.ckpt"
    ast.save_tree(path, {"model": model, "opt": state, "step": 3})
    for loaded in (
        ast.load_tree(path),
        ast.load_tree(path, like={"model": model, "opt": state, "step": 0}),
    ):
        back = loaded["model"]
        assert ast.tree_util.structure(back) == ast.tree_util.structure(model)
        assert back[1].dropout.training is False and back[1].activation == "gelu"
        for a, b in zip(ast.tree_util.leaves(loaded["opt"]), ast.tree_util.leaves(state)):
            numpy.testing.assert_array_equal(numpy.asarray(a), numpy.asarray(b))
        ids = ast.asarray([[1, 2, 3]])
        numpy.testing.assert_array_equal(numpy.asarray(back(ids)), numpy.asarray(model(ids)))


def test_a_static_function_cannot_be_saved(tmp_path):
    model = nn.Sequential(lambda x: x + 1)
    with pytest.raises(TypeError, match="aux data"):
        ast.save_tree(tmp_path / "f.ckpt", model)
    assert nn.Sequential(nn.relu)[0].fn == "relu"  # an nn function is kept by name


USER_MODULE = """
import arraystack as ast
from arraystack import nn

class Scaled(nn.Module):
    weight: ast.ndarray
    factor: float = 2.0

    def __call__(self, x):
        return self.factor * self.weight * x
"""


def test_loading_needs_the_module_class_imported(tmp_path):
    (tmp_path / "user_layers.py").write_text(USER_MODULE)
    sys.path.insert(0, str(tmp_path))
    try:
        user_layers = importlib.import_module("user_layers")
        model = user_layers.Scaled(ast.asarray([1.0, 2.0]), factor=3.0)
        ast.save_tree(tmp_path / "scaled.ckpt", model)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("user_layers", None)
    script = textwrap.dedent(
        f"""
        import sys
        import arraystack as ast
        try:
            ast.load_tree({str(tmp_path / "scaled.ckpt")!r})
        except ValueError as e:
            print("refused:", e)
        sys.path.insert(0, {str(tmp_path)!r})
        import user_layers
        model = ast.load_tree({str(tmp_path / "scaled.ckpt")!r})
        print(type(model).__name__, model.factor, model(1.0).tolist())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("refused:") and "user_layers:Scaled" in lines[0]
    assert "not a registered pytree node" in lines[0]
    assert lines[1] == "Scaled 3.0 [3.0, 6.0]"


def test_a_checkpoint_of_another_version_of_the_class_is_named(tmp_path):
    class Versioned(nn.Module):
        weight: ast.ndarray

    ast.save_tree(tmp_path / "v.ckpt", Versioned(ast.ones(2)))
    Versioned.__dataclass_fields__ = {}  # the class lost its field since the save
    with pytest.raises(ValueError, match="another version of the class"):
        ast.load_tree(tmp_path / "v.ckpt")


@pytest.mark.parametrize(
    "name", ["module", "partition", "attention", "module_layers", "sequence_layers", "layers"]
)
def test_examples_run(name, monkeypatch):
    monkeypatch.setattr(ast.config, "default_backend", "reference")
    module = importlib.import_module(f"arraystack.nn.{name}")
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testmod(module, optionflags=flags)
    assert result.failed == 0
