"""Convolution layers with parameters: conv1d and conv2d (conv.py's op plus a bias) and their init
functions, which build the {'w', 'b'} dicts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import arraystack as ast
from arraystack.nn.conv import _channels_first, _tuple, conv

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, DTypeLike, NDArray


def _add_bias(y, b, first):
    if b is None:
        return y
    b = ast.asarray(b)
    return y + (ast.reshape(b, (b.shape[0],) + (1,) * (y.ndim - 2)) if first else b)


def _conv_layer(nd, params, x, stride, padding, dilation, groups, data_format):
    x = ast.asarray(x)
    if x.ndim != nd + 2:
        raise ValueError(
            f"conv{nd}d: expected a {nd + 2}-d input ({data_format}), got shape {x.shape}"
        )
    y = conv(x, params["w"], stride, padding, dilation, groups, data_format)
    return _add_bias(y, params.get("b"), _channels_first(data_format, x.ndim))


def conv1d(
    params: dict[str, ArrayLike],
    x: ArrayLike,
    stride: int | Sequence[int] = 1,
    padding: str | int | Sequence[Any] = "VALID",
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    data_format: str = "NCW",
) -> NDArray:
    """A 1-d convolution layer, ``conv(x, params['w']) + params['b']``.

    Parameters
    ----------
    params : dict
        'w' and an optional 'b' (see init_conv1d).
    x : array_like
        Inputs of rank 3, laid out as `data_format`.
    stride : int or tuple of int, optional
        Step between windows, per spatial axis.
    padding : {'VALID', 'SAME'} or int or sequence, optional
        'VALID' (none), 'SAME' (output size ceil(size / stride)), an int, or (lo, hi) pairs per
        spatial axis.
    dilation : int or tuple of int, optional
        Spacing between kernel elements.
    groups : int, optional
        Number of channel groups.
    data_format : str, optional
        'NCW' (default, PyTorch's) or 'NWC'.

    Returns
    -------
    ndarray
        The outputs, laid out as `data_format`.

    See Also
    --------
    torch.nn.functional.conv1d : the function mirrored.
    arraystack.nn.conv, arraystack.nn.init_conv1d

    Notes
    -----
    A pure function of (params, inputs): params is a dict of arrays, so `grad` differentiates it
    and `jit` traces it.
    """
    return _conv_layer(1, params, x, stride, padding, dilation, groups, data_format)


def conv2d(
    params: dict[str, ArrayLike],
    x: ArrayLike,
    stride: int | Sequence[int] = 1,
    padding: str | int | Sequence[Any] = "VALID",
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    data_format: str = "NCHW",
) -> NDArray:
    """A 2-d convolution layer, ``conv(x, params['w']) + params['b']``.

    Parameters
    ----------
    params : dict
        'w' and an optional 'b' (see init_conv2d).
    x : array_like
        Inputs of rank 4, laid out as `data_format`.
    stride : int or tuple of int, optional
        Step between windows, per spatial axis.
    padding : {'VALID', 'SAME'} or int or sequence, optional
        'VALID' (none), 'SAME' (output size ceil(size / stride)), an int, or (lo, hi) pairs per
        spatial axis.
    dilation : int or tuple of int, optional
        Spacing between kernel elements.
    groups : int, optional
        Number of channel groups.
    data_format : str, optional
        'NCHW' (default, PyTorch's) or 'NHWC'.

    Returns
    -------
    ndarray
        The outputs, laid out as `data_format`.

    See Also
    --------
    torch.nn.functional.conv2d : the function mirrored.
    arraystack.nn.conv, arraystack.nn.init_conv2d

    Notes
    -----
    A pure function of (params, inputs): params is a dict of arrays, so `grad` differentiates it
    and `jit` traces it.
    """
    return _conv_layer(2, params, x, stride, padding, dilation, groups, data_format)


def init_conv(
    key: ArrayLike,
    in_channels: int,
    out_channels: int,
    kernel_size: int | Sequence[int],
    groups: int = 1,
    data_format: str = "NCHW",
    bias: bool = True,
    dtype: DTypeLike | None = None,
) -> dict[str, NDArray]:
    """Create convolution parameters: Glorot-uniform weights and a zero bias.

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    in_channels : int
        Input channels.
    out_channels : int
        Output channels.
    kernel_size : int or tuple of int
        Window size.
    groups : int, optional
        Channel groups (both channel counts divisible by it).
    data_format : str, optional
        'NCW', 'NWC', 'NCHW' or 'NHWC': the rank and the weight layout.
    bias : bool, optional
        Include 'b'.
    dtype : dtype, optional
        Parameter dtype (default float32).

    Returns
    -------
    dict
        ``{'w': (O, I/groups, *kernel) or (*kernel, I/groups, O), 'b': (O,)}``.

    See Also
    --------
    flax.linen.Conv : the flax relative (lecun_normal by default).
    arraystack.nn.init_conv1d, arraystack.nn.init_conv2d, arraystack.nn.initializers.glorot_uniform

    Notes
    -----
    Fans are computed from the (*kernel, I/groups, O) layout, as JAX does.
    """
    from arraystack.nn import initializers

    nd = len(data_format) - 2
    window = _tuple(kernel_size, nd, "kernel_size")
    if in_channels % groups or out_channels % groups:
        raise ValueError(
            f"in_channels {in_channels} and out_channels {out_channels} "
            f"must divide by groups {groups}"
        )
    dtype = ast.float32 if dtype is None else dtype
    w = initializers.glorot_uniform(key, (*window, in_channels // groups, out_channels), dtype)
    if _channels_first(data_format, nd + 2):
        w = ast.transpose(w, (nd + 1, nd, *range(nd)))
    params = {"w": w}
    if bias:
        params["b"] = ast.zeros(out_channels, dtype=w.dtype)
    return params


def init_conv1d(
    key: ArrayLike,
    in_channels: int,
    out_channels: int,
    kernel_size: int | Sequence[int],
    groups: int = 1,
    data_format: str = "NCW",
    bias: bool = True,
    dtype: DTypeLike | None = None,
) -> dict[str, NDArray]:
    """Create the parameters of `conv1d` (`init_conv` with data_format='NCW' by default).

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    in_channels : int
        Input channels.
    out_channels : int
        Output channels.
    kernel_size : int or tuple of int
        Window size.
    groups : int, optional
        Channel groups.
    data_format : str, optional
        Layout of the data the weights match.
    bias : bool, optional
        Include 'b'.
    dtype : dtype, optional
        Parameter dtype (default float32).

    Returns
    -------
    dict
        ``{'w', 'b'}``, as init_conv.

    See Also
    --------
    torch.nn.Conv1d : the layer whose parameters these are (initialized differently).
    arraystack.nn.init_conv
    """
    return init_conv(key, in_channels, out_channels, kernel_size, groups, data_format, bias, dtype)


def init_conv2d(
    key: ArrayLike,
    in_channels: int,
    out_channels: int,
    kernel_size: int | Sequence[int],
    groups: int = 1,
    data_format: str = "NCHW",
    bias: bool = True,
    dtype: DTypeLike | None = None,
) -> dict[str, NDArray]:
    """Create the parameters of `conv2d` (`init_conv` with data_format='NCHW' by default).

    Parameters
    ----------
    key : uint32[2] array
        An arraystack.prng key.
    in_channels : int
        Input channels.
    out_channels : int
        Output channels.
    kernel_size : int or tuple of int
        Window size.
    groups : int, optional
        Channel groups.
    data_format : str, optional
        Layout of the data the weights match.
    bias : bool, optional
        Include 'b'.
    dtype : dtype, optional
        Parameter dtype (default float32).

    Returns
    -------
    dict
        ``{'w', 'b'}``, as init_conv.

    See Also
    --------
    torch.nn.Conv2d : the layer whose parameters these are (initialized differently).
    arraystack.nn.init_conv
    """
    return init_conv(key, in_channels, out_channels, kernel_size, groups, data_format, bias, dtype)


__all__ = ["conv1d", "conv2d", "init_conv", "init_conv1d", "init_conv2d"]
