"""Layers as pure functions of (params, inputs), with init helpers that build the params pytrees.

Params are dicts of arrays, so arraystack.grad / value_and_grad differentiate them as pytrees and
arraystack.jit traces them. Initializers come from arraystack.nn.initializers (imported when
called)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import arraystack as ast
from arraystack.nn.activations import _float
from arraystack.nn.normalization import _axes

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike, AxisLike, DTypeLike, NDArray, ShapeLike


def dense(params: dict[str, ArrayLike], x: ArrayLike) -> NDArray:
    """A fully connected layer, ``x @ params['w'] + params['b']``.

    Parameters
    ----------
    params : dict
        'w' of shape (in, out) and an optional 'b' of shape (out,) (see init_dense).
    x : array_like
        Inputs of shape (..., in).

    Returns
    -------
    ndarray
        Outputs of shape (..., out).

    See Also
    --------
    flax.linen.Dense : the layer mirrored (w is (in, out), as in flax).
    torch.nn.functional.linear : the PyTorch equivalent (its weight is (out, in)).
    arraystack.nn.init_dense

    Notes
    -----
    A pure function of (params, inputs): params is a dict of arrays, so `grad` differentiates it
    and `jit` traces it. Also available as `arraystack.nn.linear`.

    Examples
    --------
    >>> import arraystack as np
    >>> params = np.nn.init_dense(np.prng.key(0), 3, 2)
    >>> np.nn.dense(params, np.ones((4, 3))).shape
    (4, 2)
    """
    y = ast.matmul(ast.asarray(x), params["w"])
    b = params.get("b")
    return y if b is None else y + b


linear = dense


def init_dense(
    key: ArrayLike,
    in_features: int,
    out_features: int,
    bias: bool = True,
    dtype: DTypeLike | None = None,
) -> dict[str, NDArray]:
    """Create the parameters of `dense`: Glorot-uniform weights and a zero bias.

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    in_features : int
        Input size.
    out_features : int
        Output size.
    bias : bool, optional
        Include 'b'.
    dtype : dtype, optional
        Parameter dtype (default float32).

    Returns
    -------
    dict
        ``{'w': (in, out), 'b': (out,)}``.

    See Also
    --------
    flax.linen.Dense : the layer (its default initialization is lecun_normal).
    torch.nn.Linear : the PyTorch layer (kaiming-uniform initialization).
    arraystack.nn.dense, arraystack.nn.initializers.glorot_uniform

    Notes
    -----
    Also available as `arraystack.nn.init_linear`.
    """
    from arraystack.nn import initializers

    dtype = ast.float32 if dtype is None else dtype
    w = initializers.glorot_uniform(key, (in_features, out_features), dtype)
    params = {"w": w}
    if bias:
        params["b"] = ast.zeros(out_features, dtype=w.dtype)
    return params


init_linear = init_dense


def _normalize(x, mean, var, epsilon):
    return (x - mean) / ast.sqrt(var + epsilon)


def _standardized(x, axes, epsilon):
    """((x - mean) / std, std) over `axes`, std = sqrt(var + epsilon): layer_norm's arithmetic."""
    centered = x - ast.mean(x, axis=axes, keepdims=True)
    std = ast.sqrt(ast.mean(centered * centered, axis=axes, keepdims=True) + epsilon)
    return centered / std, std


@functools.cache
def _standardize(axes, epsilon):
    """x -> (x - mean) / sqrt(var + epsilon) over `axes`, with the closed-form reverse derivative
    ``(g - mean(g) - y * mean(g * y)) / std``: its residuals are y and std (one array of x's shape
    and one per row), where the derivative of the composition keeps several arrays of x's shape."""

    def forward(x):
        y, std = _standardized(x, axes, epsilon)
        return y, (y, std)

    def backward(residuals, g):
        y, std = residuals
        g_mean = ast.mean(g, axis=axes, keepdims=True)
        gy_mean = ast.mean(g * y, axis=axes, keepdims=True)
        return ((g - g_mean - y * gy_mean) / std,)

    fun = ast.custom_vjp(lambda x: _standardized(x, axes, epsilon)[0])
    fun.defvjp(forward, backward)
    return fun


def _param_shape(x, axes):
    """The shape of per-feature params broadcasting against x over the non-reduced axes."""
    return tuple(1 if a in axes else n for a, n in enumerate(x.shape))


def layer_norm(
    params: dict[str, ArrayLike] | None, x: ArrayLike, axis: AxisLike = -1, epsilon: float = 1e-5
) -> NDArray:
    """Layer normalization: normalize over `axis`, then scale and shift.

    Parameters
    ----------
    params : dict or None
        Optional 'scale' and 'bias', shaped like the normalized axes' trailing dims (see
        init_layer_norm).
    x : array_like
        Inputs.
    axis : int or tuple of int, optional
        The normalized axes.
    epsilon : float, optional
        Added to the variance.

    Returns
    -------
    ndarray
        ``(x - mean) / sqrt(var + epsilon) * scale + bias``, of x's shape.

    See Also
    --------
    torch.nn.functional.layer_norm : the function mirrored.
    flax.linen.LayerNorm : the flax relative.
    arraystack.nn.init_layer_norm, arraystack.nn.standardize

    Notes
    -----
    A pure function of (params, inputs): params is a dict of arrays, so `grad` differentiates it
    and `jit` traces it. Its reverse-mode derivative is the closed form (PyTorch's), which keeps
    only the normalized input and the per-row standard deviation for the backward pass.
    """
    x = _float(x)
    y = _standardize(_axes(axis, x.ndim), float(epsilon))(x)
    params = params or {}
    if params.get("scale") is not None:
        y = y * params["scale"]
    if params.get("bias") is not None:
        y = y + params["bias"]
    return y


def rms_norm(
    params: dict[str, ArrayLike] | None,
    x: ArrayLike,
    axis: AxisLike = -1,
    epsilon: float | None = None,
) -> NDArray:
    """Root-mean-square normalization: divide by the RMS over `axis`, then scale.

    Parameters
    ----------
    params : dict or None
        An optional 'scale', shaped like the normalized axes' trailing dims.
    x : array_like
        Inputs.
    axis : int or tuple of int, optional
        The normalized axes.
    epsilon : float, optional
        Added to the mean square; None (the default) takes the machine epsilon of x's dtype, as
        PyTorch does.

    Returns
    -------
    ndarray
        ``x / sqrt(mean(x**2, axis) + epsilon) * scale``, of x's shape.

    See Also
    --------
    torch.nn.functional.rms_norm : the function mirrored.
    flax.linen.RMSNorm : the flax relative (its epsilon defaults to 1e-6).
    arraystack.nn.layer_norm, arraystack.nn.RMSNorm

    Notes
    -----
    No mean is subtracted (Zhang & Sennrich 2019). A pure function of (params, inputs).

    Examples
    --------
    >>> import arraystack as np
    >>> np.nn.rms_norm(None, np.asarray([3.0, 4.0]), epsilon=0.0)
    array([0.84852814, 1.13137085])
    """
    x = _float(x)
    axes = _axes(axis, x.ndim)
    if epsilon is None:
        epsilon = float(ast.finfo(x.dtype).eps)
    y = x / ast.sqrt(ast.mean(x * x, axis=axes, keepdims=True) + epsilon)
    scale = (params or {}).get("scale")
    return y if scale is None else y * scale


def init_layer_norm(shape: ShapeLike, dtype: DTypeLike | None = None) -> dict[str, NDArray]:
    """Create the parameters of `layer_norm`: unit scale and zero bias.

    Parameters
    ----------
    shape : int or tuple of int
        The normalized axes' sizes.
    dtype : dtype, optional
        Parameter dtype (default float32).

    Returns
    -------
    dict
        ``{'scale': ones, 'bias': zeros}`` of `shape`.

    See Also
    --------
    torch.nn.LayerNorm : the same initial parameters.
    arraystack.nn.layer_norm
    """
    dtype = ast.float32 if dtype is None else dtype
    return {"scale": ast.ones(shape, dtype=dtype), "bias": ast.zeros(shape, dtype=dtype)}


def batch_norm(
    params: dict[str, ArrayLike] | None,
    state: dict[str, ArrayLike],
    x: ArrayLike,
    training: bool,
    axis: int = 1,
    momentum: float = 0.9,
    epsilon: float = 1e-5,
) -> tuple[NDArray, dict[str, NDArray]]:
    """Batch normalization over every axis but the feature `axis`.

    Parameters
    ----------
    params : dict or None
        Optional 'scale' and 'bias' of shape (features,).
    state : dict
        Running statistics 'mean' and 'var' of shape (features,) (see init_batch_norm).
    x : array_like
        Inputs.
    training : bool
        True: normalize with the batch statistics and update the running ones; False: normalize
        with the running statistics.
    axis : int, optional
        The feature axis: 1 (channels of NCHW) by default, -1 for channels-last.
    momentum : float, optional
        ``new = momentum * old + (1 - momentum) * batch`` for the running statistics.
    epsilon : float, optional
        Added to the variance.

    Returns
    -------
    tuple
        ``(y, new_state)``; `state` is returned unchanged when not training.

    See Also
    --------
    flax.linen.BatchNorm : the layer mirrored (momentum convention and biased variance).
    torch.nn.functional.batch_norm : the PyTorch relative (its momentum is 1 - ours, and its
        running variance is unbiased).
    arraystack.nn.init_batch_norm

    Notes
    -----
    A pure function of (params, inputs): params is a dict of arrays, so `grad` differentiates it
    and `jit` traces it.
    """
    x = _float(x)
    feature = axis % x.ndim
    reduce_axes = tuple(a for a in range(x.ndim) if a != feature)
    shape = _param_shape(x, reduce_axes)
    if training:
        mean = ast.mean(x, axis=reduce_axes, keepdims=True)
        centered = x - mean
        var = ast.mean(centered * centered, axis=reduce_axes, keepdims=True)
        y = centered / ast.sqrt(var + epsilon)
        new_state = {
            "mean": momentum * state["mean"] + (1.0 - momentum) * ast.reshape(mean, (-1,)),
            "var": momentum * state["var"] + (1.0 - momentum) * ast.reshape(var, (-1,)),
        }
    else:
        mean = ast.reshape(state["mean"], shape)
        var = ast.reshape(state["var"], shape)
        y = _normalize(x, mean, var, epsilon)
        new_state = state
    params = params or {}
    if params.get("scale") is not None:
        y = y * ast.reshape(params["scale"], shape)
    if params.get("bias") is not None:
        y = y + ast.reshape(params["bias"], shape)
    return y, new_state


def init_batch_norm(
    features: int, dtype: DTypeLike | None = None
) -> tuple[dict[str, NDArray], dict[str, NDArray]]:
    """Create the parameters and state of `batch_norm`.

    Parameters
    ----------
    features : int
        Size of the feature axis.
    dtype : dtype, optional
        Parameter dtype (default float32).

    Returns
    -------
    tuple
        ``(params, state)``: params ``{'scale': ones, 'bias': zeros}``, state ``{'mean': zeros,
        'var': ones}``.

    See Also
    --------
    torch.nn.BatchNorm2d : the same initial values.
    arraystack.nn.batch_norm
    """
    dtype = ast.float32 if dtype is None else dtype
    params = {"scale": ast.ones(features, dtype=dtype), "bias": ast.zeros(features, dtype=dtype)}
    state = {"mean": ast.zeros(features, dtype=dtype), "var": ast.ones(features, dtype=dtype)}
    return params, state


def embedding(params: dict[str, ArrayLike], ids: ArrayLike) -> NDArray:
    """Look up rows of an embedding table.

    Parameters
    ----------
    params : dict
        'table' of shape (vocab, features) (see init_embedding).
    ids : array_like
        Integer indices.

    Returns
    -------
    ndarray
        ``params['table'][ids]``, of shape ids.shape + (features,).

    See Also
    --------
    torch.nn.functional.embedding : the function mirrored.
    flax.linen.Embed : the flax relative.
    arraystack.nn.init_embedding

    Notes
    -----
    A pure function of (params, inputs): params is a dict of arrays, so `grad` differentiates it
    and `jit` traces it.
    """
    return params["table"][ast.asarray(ids)]


def init_embedding(
    key: ArrayLike, vocab_size: int, features: int, dtype: DTypeLike | None = None
) -> dict[str, NDArray]:
    """Create the parameters of `embedding`: a standard-normal table.

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    vocab_size : int
        Number of rows.
    features : int
        Row size.
    dtype : dtype, optional
        Parameter dtype (default float32).

    Returns
    -------
    dict
        ``{'table': (vocab_size, features)}`` from arraystack.prng.normal.

    See Also
    --------
    torch.nn.Embedding : the same initialization, N(0, 1).
    arraystack.nn.embedding
    """
    from arraystack import prng

    return {
        "table": prng.normal(
            key, (vocab_size, features), dtype=ast.float32 if dtype is None else dtype
        )
    }


__all__ = [
    "batch_norm",
    "dense",
    "embedding",
    "init_batch_norm",
    "init_dense",
    "init_embedding",
    "init_layer_norm",
    "init_linear",
    "layer_norm",
    "linear",
    "rms_norm",
]
