"""Layers as Modules over the functional API: Linear, Conv1d/Conv2d, Embedding, LayerNorm, RMSNorm,
BatchNorm, Dropout, Lambda and Sequential.

Each layer's __call__ calls the function of the same layer (dense, conv1d, layer_norm, ...) with its
fields as the params dict: the math lives there once. Parameters start as PyTorch's defaults.
Every __call__ takes ``key=`` (a PRNG key, used by the layers that draw, ignored by the others), so
Sequential can hand each layer a key.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import arraystack as ast
from arraystack import prng
from arraystack.nn.conv import _channels_first, _tuple
from arraystack.nn.conv_layers import conv1d, conv2d
from arraystack.nn.dropout import dropout
from arraystack.nn.layers import batch_norm, dense, embedding, layer_norm, rms_norm
from arraystack.nn.module import Module, field, static

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from arraystack.typing import ArrayLike, DTypeLike, NDArray


def _dtype(dtype):
    return ast.float32 if dtype is None else dtype


def torch_uniform(key: ArrayLike, shape: tuple, fan_in: int, dtype: DTypeLike | None) -> NDArray:
    """U(-1/sqrt(fan_in), 1/sqrt(fan_in)): PyTorch's default for Linear and Conv weights and biases
    (kaiming_uniform with a = sqrt(5)) and for recurrent layers (with fan_in = hidden size)."""
    bound = 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0
    return prng.uniform(key, shape, _dtype(dtype), minval=-bound, maxval=bound)


def _shape(shape) -> tuple:
    return (int(shape),) if isinstance(shape, int) else tuple(int(n) for n in shape)


class Linear(Module):
    """A fully connected layer, ``x @ weight + bias``, over `arraystack.nn.dense`.

    Parameters
    ----------
    in_features : int
        Input size.
    out_features : int
        Output size.
    bias : bool, optional
        Include a bias.
    key : uint32[2] array
        An arraystack.prng key (keyword-only).
    dtype : dtype, optional
        Parameter dtype (default float32).

    See Also
    --------
    torch.nn.Linear : the layer mirrored, with its initialization: weight and bias uniform in
        +-1/sqrt(in_features). Its weight is (out, in), the transpose of this one.
    equinox.nn.Linear : the Equinox relative.
    arraystack.nn.dense

    Notes
    -----
    ``weight`` is (in_features, out_features), as `dense` and flax hold it; copy PyTorch's
    weight in with ``.replace(weight=torch_weight.T)``. Called as ``layer(x)`` with x of shape
    (..., in_features).
    """

    weight: NDArray
    bias: NDArray | None
    in_features: int = static()
    out_features: int = static()

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        *,
        key: ArrayLike,
        dtype: DTypeLike | None = None,
    ) -> None:
        w_key, b_key = prng.split(key)
        self.in_features, self.out_features = int(in_features), int(out_features)
        self.weight = torch_uniform(w_key, (in_features, out_features), in_features, dtype)
        self.bias = torch_uniform(b_key, (out_features,), in_features, dtype) if bias else None

    def __call__(self, x: ArrayLike, *, key: ArrayLike | None = None) -> NDArray:
        return dense({"w": self.weight, "b": self.bias}, x)


class _Conv(Module):
    """The fields and call of Conv1d and Conv2d (conv.py's layouts)."""

    weight: NDArray
    bias: NDArray | None
    stride: tuple = static()
    padding: Any = static()
    dilation: tuple = static()
    groups: int = static()
    data_format: str = static()

    def _build(self, nd, in_channels, out_channels, kernel_size, stride, padding, dilation,
               groups, bias, data_format, key, dtype):  # fmt: skip
        window = _tuple(kernel_size, nd, "kernel_size")
        if in_channels % groups or out_channels % groups:
            raise ValueError(
                f"in_channels {in_channels} and out_channels {out_channels} must divide by groups "
                f"{groups}"
            )
        first = _channels_first(data_format, nd + 2)
        fan_in = in_channels // groups * math.prod(window)
        shape = (
            (out_channels, in_channels // groups, *window)
            if first
            else (*window, in_channels // groups, out_channels)
        )
        w_key, b_key = prng.split(key)
        self.weight = torch_uniform(w_key, shape, fan_in, dtype)
        self.bias = torch_uniform(b_key, (out_channels,), fan_in, dtype) if bias else None
        self.stride = _tuple(stride, nd, "stride")
        self.dilation = _tuple(dilation, nd, "dilation")
        if isinstance(padding, str):
            self.padding = padding.upper()
        elif isinstance(padding, int):
            self.padding = padding
        else:
            self.padding = tuple(p if isinstance(p, int) else tuple(p) for p in padding)
        self.groups, self.data_format = int(groups), data_format

    def _conv(self, conv, x):
        params = {"w": self.weight, "b": self.bias}
        return conv(
            params, x, self.stride, self.padding, self.dilation, self.groups, self.data_format
        )


class Conv1d(_Conv):
    """A 1-d convolution layer over `arraystack.nn.conv1d`.

    Parameters
    ----------
    in_channels : int
        Input channels.
    out_channels : int
        Output channels.
    kernel_size : int
        Window size.
    stride : int, optional
        Step between windows.
    padding : int, str or sequence, optional
        Zeros added on both sides (0, PyTorch's default), 'SAME', 'VALID', or (lo, hi) pairs.
    dilation : int, optional
        Spacing between kernel elements.
    groups : int, optional
        Channel groups.
    bias : bool, optional
        Include a bias.
    data_format : str, optional
        'NCW' (PyTorch's, the default) or 'NWC'.
    key : uint32[2] array
        An arraystack.prng key (keyword-only).
    dtype : dtype, optional
        Parameter dtype (default float32).

    See Also
    --------
    torch.nn.Conv1d : the layer mirrored, with its weight layout (O, I/groups, W) and its
        initialization (uniform in +-1/sqrt(fan_in)).
    arraystack.nn.conv1d, arraystack.nn.Conv2d
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        padding: str | int | Sequence[Any] = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        bias: bool = True,
        data_format: str = "NCW",
        *,
        key: ArrayLike,
        dtype: DTypeLike | None = None,
    ) -> None:
        self._build(1, in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                    bias, data_format, key, dtype)  # fmt: skip

    def __call__(self, x: ArrayLike, *, key: ArrayLike | None = None) -> NDArray:
        return self._conv(conv1d, x)


class Conv2d(_Conv):
    """A 2-d convolution layer over `arraystack.nn.conv2d`.

    Parameters
    ----------
    in_channels : int
        Input channels.
    out_channels : int
        Output channels.
    kernel_size : int or tuple of int
        Window size.
    stride : int or tuple of int, optional
        Step between windows.
    padding : int, str or sequence, optional
        Zeros added on both sides (0, PyTorch's default), 'SAME', 'VALID', or (lo, hi) pairs.
    dilation : int or tuple of int, optional
        Spacing between kernel elements.
    groups : int, optional
        Channel groups.
    bias : bool, optional
        Include a bias.
    data_format : str, optional
        'NCHW' (PyTorch's, the default) or 'NHWC'.
    key : uint32[2] array
        An arraystack.prng key (keyword-only).
    dtype : dtype, optional
        Parameter dtype (default float32).

    See Also
    --------
    torch.nn.Conv2d : the layer mirrored, with its weight layout (O, I/groups, H, W) and its
        initialization (uniform in +-1/sqrt(fan_in)).
    arraystack.nn.conv2d, arraystack.nn.Conv1d
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        padding: str | int | Sequence[Any] = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        bias: bool = True,
        data_format: str = "NCHW",
        *,
        key: ArrayLike,
        dtype: DTypeLike | None = None,
    ) -> None:
        self._build(2, in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                    bias, data_format, key, dtype)  # fmt: skip

    def __call__(self, x: ArrayLike, *, key: ArrayLike | None = None) -> NDArray:
        return self._conv(conv2d, x)


class Embedding(Module):
    """A lookup table of vectors, over `arraystack.nn.embedding`.

    Parameters
    ----------
    num_embeddings : int
        Number of rows (the vocabulary size).
    embedding_dim : int
        Row size.
    key : uint32[2] array
        An arraystack.prng key (keyword-only).
    dtype : dtype, optional
        Parameter dtype (default float32).

    See Also
    --------
    torch.nn.Embedding : the layer mirrored, with its initialization N(0, 1).
    arraystack.nn.embedding
    """

    weight: NDArray

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        *,
        key: ArrayLike,
        dtype: DTypeLike | None = None,
    ) -> None:
        self.weight = prng.normal(key, (num_embeddings, embedding_dim), _dtype(dtype))

    def __call__(self, ids: ArrayLike, *, key: ArrayLike | None = None) -> NDArray:
        return embedding({"table": self.weight}, ids)


def _check_trailing(layer, x, shape):
    if tuple(x.shape[x.ndim - len(shape) :]) != shape or x.ndim < len(shape):
        raise ValueError(
            f"{layer} normalizes trailing axes of shape {shape}; got an input of shape {x.shape}"
        )


class LayerNorm(Module):
    """Layer normalization over the trailing axes, over `arraystack.nn.layer_norm`.

    Parameters
    ----------
    normalized_shape : int or tuple of int
        The trailing axes' sizes.
    eps : float, optional
        Added to the variance.
    elementwise_affine : bool, optional
        Learn a scale (ones at first).
    bias : bool, optional
        Learn a shift too (zeros at first).
    dtype : dtype, optional
        Parameter dtype (default float32).

    See Also
    --------
    torch.nn.LayerNorm : the layer mirrored.
    arraystack.nn.layer_norm, arraystack.nn.RMSNorm
    """

    weight: NDArray | None
    bias: NDArray | None
    normalized_shape: tuple = static()
    eps: float = static(default=1e-5)

    def __init__(
        self,
        normalized_shape: int | Sequence[int],
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        *,
        dtype: DTypeLike | None = None,
    ) -> None:
        self.normalized_shape, self.eps = _shape(normalized_shape), float(eps)
        shape = self.normalized_shape
        self.weight = ast.ones(shape, dtype=_dtype(dtype)) if elementwise_affine else None
        use_bias = elementwise_affine and bias
        self.bias = ast.zeros(shape, dtype=_dtype(dtype)) if use_bias else None

    def __call__(self, x: ArrayLike, *, key: ArrayLike | None = None) -> NDArray:
        x = ast.asarray(x)
        _check_trailing("LayerNorm", x, self.normalized_shape)
        axes = tuple(range(-len(self.normalized_shape), 0))
        return layer_norm({"scale": self.weight, "bias": self.bias}, x, axes, self.eps)


class RMSNorm(Module):
    """Root-mean-square normalization over the trailing axes, over `arraystack.nn.rms_norm`.

    Parameters
    ----------
    normalized_shape : int or tuple of int
        The trailing axes' sizes.
    eps : float, optional
        Added to the mean square; None takes the machine epsilon of the input's dtype.
    elementwise_affine : bool, optional
        Learn a scale (ones at first).
    dtype : dtype, optional
        Parameter dtype (default float32).

    See Also
    --------
    torch.nn.RMSNorm : the layer mirrored.
    arraystack.nn.rms_norm, arraystack.nn.LayerNorm
    """

    weight: NDArray | None
    normalized_shape: tuple = static()
    eps: float | None = static(default=None)

    def __init__(
        self,
        normalized_shape: int | Sequence[int],
        eps: float | None = None,
        elementwise_affine: bool = True,
        *,
        dtype: DTypeLike | None = None,
    ) -> None:
        self.normalized_shape = _shape(normalized_shape)
        self.eps = None if eps is None else float(eps)
        on = elementwise_affine
        self.weight = ast.ones(self.normalized_shape, dtype=_dtype(dtype)) if on else None

    def __call__(self, x: ArrayLike, *, key: ArrayLike | None = None) -> NDArray:
        x = ast.asarray(x)
        _check_trailing("RMSNorm", x, self.normalized_shape)
        axes = tuple(range(-len(self.normalized_shape), 0))
        return rms_norm({"scale": self.weight}, x, axes, self.eps)


class BatchNorm(Module):
    """Batch normalization with its running statistics as an explicit state, over `batch_norm`.

    Parameters
    ----------
    num_features : int
        Size of the feature axis.
    eps : float, optional
        Added to the variance.
    momentum : float, optional
        ``running = momentum * running + (1 - momentum) * batch`` (flax's convention: PyTorch's
        momentum=0.1 is 0.9 here).
    affine : bool, optional
        Learn a scale and a shift.
    axis : int, optional
        The feature axis: 1 (PyTorch's (N, C), (N, C, L), (N, C, H, W)) or -1 for channels-last.
    training : bool, optional
        Normalize with the batch's statistics and update the running ones; False (after
        ``.eval()``) normalizes with the running statistics.
    dtype : dtype, optional
        Parameter and state dtype (default float32).

    See Also
    --------
    torch.nn.BatchNorm2d : the PyTorch relative (buffers mutated in place; its running variance
        is the unbiased batch variance, this one the biased, as flax).
    equinox.nn.BatchNorm : the Equinox relative (state threaded through calls the same way).
    arraystack.nn.batch_norm

    Notes
    -----
    Called as ``y, state = bn(x, state)``, with the first state from ``bn.initial_state()``
    (``{'mean': zeros, 'var': ones}``): nothing is mutated. In evaluation mode the state comes
    back unchanged.
    """

    weight: NDArray | None
    bias: NDArray | None
    num_features: int = static()
    eps: float = static(default=1e-5)
    momentum: float = static(default=0.9)
    axis: int = static(default=1)
    training: bool = static(default=True)

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.9,
        affine: bool = True,
        axis: int = 1,
        training: bool = True,
        *,
        dtype: DTypeLike | None = None,
    ) -> None:
        self.num_features, self.eps, self.momentum = int(num_features), float(eps), float(momentum)
        self.axis, self.training = int(axis), bool(training)
        n, dtype = self.num_features, _dtype(dtype)
        self.weight = ast.ones(n, dtype=dtype) if affine else None
        self.bias = ast.zeros(n, dtype=dtype) if affine else None

    def initial_state(self) -> dict[str, NDArray]:
        """The running statistics before training: ``{'mean': zeros, 'var': ones}``.

        Returns
        -------
        dict
            Arrays of shape (num_features,), in the parameters' dtype.

        See Also
        --------
        arraystack.nn.init_batch_norm : the functional layer's (params, state).
        """
        dtype = ast.float32 if self.weight is None else self.weight.dtype
        return {
            "mean": ast.zeros(self.num_features, dtype=dtype),
            "var": ast.ones(self.num_features, dtype=dtype),
        }

    def __call__(
        self, x: ArrayLike, state: dict[str, ArrayLike], *, key: ArrayLike | None = None
    ) -> tuple[NDArray, dict[str, NDArray]]:
        x = ast.asarray(x)
        if x.ndim < 2 or x.shape[self.axis] != self.num_features:
            raise ValueError(
                f"BatchNorm({self.num_features}) expects inputs with {self.num_features} features "
                f"on axis {self.axis}; got shape {x.shape}"
            )
        params = {"scale": self.weight, "bias": self.bias}
        return batch_norm(params, state, x, self.training, self.axis, self.momentum, self.eps)


class Dropout(Module):
    """Inverted dropout with an explicit PRNG key, over `arraystack.nn.dropout`.

    Parameters
    ----------
    rate : float, optional
        Drop probability.
    training : bool, optional
        Drop (with a key); False (after ``.eval()``) is the identity.

    See Also
    --------
    torch.nn.Dropout : the PyTorch relative (its `p`; a global generator instead of a key).
    equinox.nn.Dropout : the Equinox relative.
    arraystack.nn.dropout

    Notes
    -----
    Called as ``drop(x, key=k)``. In training mode with ``rate > 0`` a missing key raises
    ValueError rather than silently skipping the dropout.
    """

    rate: float = static(default=0.5)
    training: bool = static(default=True)

    def __init__(self, rate: float = 0.5, training: bool = True) -> None:
        rate = float(rate)
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"dropout rate must be in [0, 1], got {rate}")
        self.rate, self.training = rate, bool(training)

    def __call__(self, x: ArrayLike, *, key: ArrayLike | None = None) -> NDArray:
        if not self.training or self.rate == 0.0:
            return ast.asarray(x)
        if key is None:
            raise ValueError(
                f"Dropout(rate={self.rate}) in training mode needs a PRNG key: call it with "
                "key=..., or use model.eval() for inference"
            )
        return dropout(key, x, self.rate)


def function_field(fn: Callable | str) -> Callable | str:
    """What a module stores for a function: the name of an arraystack.nn function (so save_tree can
    write it), or the callable itself."""
    import arraystack.nn as nn_namespace

    if isinstance(fn, str):
        if not callable(getattr(nn_namespace, fn, None)):
            raise ValueError(f"{fn!r} names no function of arraystack.nn")  # noqa: TRY004
        return fn
    if not callable(fn):
        raise TypeError(f"expected a function or the name of one, got {type(fn).__name__}")
    name = getattr(fn, "__name__", None)
    return name if name and getattr(nn_namespace, name, None) is fn else fn


def call_function(fn: Callable | str, x: ArrayLike) -> Any:
    """Call a function stored by `function_field`."""
    import arraystack.nn as nn_namespace

    return (getattr(nn_namespace, fn) if isinstance(fn, str) else fn)(x)


class Lambda(Module):
    """A module wrapping a function of one array (an activation), for Sequential.

    Parameters
    ----------
    fn : callable or str
        The function, or the name of an arraystack.nn function ('relu', 'gelu', ...).

    See Also
    --------
    equinox.nn.Lambda : the module mirrored.
    arraystack.nn.Sequential

    Notes
    -----
    A function of arraystack.nn (``nn.relu``) is stored by its name, so the module can be
    checkpointed; any other function is stored as it is (save_tree then refuses it).
    """

    fn: Any = static()

    def __init__(self, fn: Callable | str) -> None:
        self.fn = function_field(fn)

    def __call__(self, x: ArrayLike, *, key: ArrayLike | None = None) -> Any:
        return call_function(self.fn, x)


def _stateful(layer) -> bool:
    """Whether a layer keeps a state: it has initial_state (a Sequential only if one of its layers
    keeps one)."""
    if isinstance(layer, Sequential):
        return any(_stateful(x) for x in layer.layers)
    return callable(getattr(layer, "initial_state", None))


class Sequential(Module):
    """Layers applied one after another.

    Parameters
    ----------
    *layers : Module or callable
        The layers (or one list or tuple of them); a plain function is wrapped in `Lambda`.

    See Also
    --------
    torch.nn.Sequential : the PyTorch relative (``Sequential(*layers)``).
    equinox.nn.Sequential : the Equinox relative (``Sequential([...])``, also accepted).
    arraystack.nn.Lambda

    Notes
    -----
    ``model(x, key=k)`` splits `k` into one key per layer. With stateful layers (BatchNorm, or a
    Sequential holding one) the call is ``y, state = model(x, state)``, with the first state from
    ``model.initial_state()``: a tuple with one entry per layer (None for the stateless ones).
    """

    layers: tuple = field(static=False)

    def __init__(self, *layers: Module | Callable) -> None:
        if len(layers) == 1 and isinstance(layers[0], list | tuple):
            layers = tuple(layers[0])
        self.layers = tuple(x if isinstance(x, Module) else Lambda(x) for x in layers)

    def __len__(self) -> int:
        return len(self.layers)

    def __getitem__(self, index: int | slice) -> Module:
        if isinstance(index, slice):
            return Sequential(self.layers[index])
        return self.layers[index]

    def __iter__(self):
        return iter(self.layers)

    def initial_state(self) -> tuple:
        """The first state of the stateful layers: one entry per layer, None for stateless ones.

        Returns
        -------
        tuple
            ``layer.initial_state()`` or None, per layer.

        See Also
        --------
        arraystack.nn.BatchNorm.initial_state
        """
        return tuple(layer.initial_state() if _stateful(layer) else None for layer in self.layers)

    def __call__(
        self, x: ArrayLike, state: tuple | None = None, *, key: ArrayLike | None = None
    ) -> Any:
        n = len(self.layers)
        keys = [None] * n if key is None or n == 0 else list(prng.split(key, n))
        stateful = [_stateful(layer) for layer in self.layers]
        if any(stateful) and state is None:
            at = stateful.index(True)
            raise ValueError(
                f"Sequential layer {at} ({type(self.layers[at]).__name__}) keeps a state: call "
                "model(x, state), with the first state from model.initial_state()"
            )
        new_state = []
        for i, layer in enumerate(self.layers):
            if stateful[i]:
                x, s = layer(x, state[i], key=keys[i])
                new_state.append(s)
            else:
                x = layer(x, key=keys[i])
                new_state.append(None)
        return (x, tuple(new_state)) if any(stateful) else x


__all__ = [
    "BatchNorm",
    "Conv1d",
    "Conv2d",
    "Dropout",
    "Embedding",
    "Lambda",
    "LayerNorm",
    "Linear",
    "RMSNorm",
    "Sequential",
]
