"""device_put: arrays (a pytree of them) placed on a device, as JAX's `jax.device_put`."""

from __future__ import annotations

from typing import Any

from arraystack._core import devices as _devices
from arraystack._core.array import ndarray, wrap
from arraystack._creation.basic import asarray
from arraystack.ir.core import device_namespaces
from arraystack.ir.tree import leaves, tree_map


def device_put(x: Any, device: object | None = None) -> Any:
    """Place arrays on a device: each array of the pytree `x` copied there (or kept, when it is there).

    Parameters
    ----------
    x : array_like or pytree of array_like
        Arrays, NumPy arrays, scalars or nested lists, tuples and dicts of them.
    device : str or Device, optional
        The target ("cpu", "cuda", "cuda:1", a Device); None: the default device
        (``arraystack.default_device``, ``arraystack.config.default_device``).

    Returns
    -------
    out : ndarray or pytree of ndarray
        `x` with every leaf an arraystack array on `device`.

    Raises
    ------
    ValueError
        The device cannot be used here (the message says what is missing and how to get it).

    See Also
    --------
    ndarray.to_device, asarray, default_device, devices

    Notes
    -----
    Mirrors ``jax.device_put``; NumPy has no devices. Inside a traced function it is the identity: the
    planner places traced values.
    """
    target = _devices.check_device(device) or _devices.current_default()

    def put(leaf):
        array = leaf if isinstance(leaf, ndarray) else asarray(leaf)
        value = _devices.to_device(array._value, target)
        return array if value is array._value else wrap(value)

    return tree_map(put, x)


__all__ = ["device_put"]


def block_until_ready(x: Any) -> Any:
    """Wait until the arrays of the pytree `x` are computed, and return `x`.

    Host arrays are computed when they exist; the work a device (a CUDA GPU, through cupy) has queued
    runs asynchronously, so timing GPU code needs this (or a copy to the host) before reading a clock.
    Each device holding a leaf is synchronized once; arrays of other libraries with a
    `block_until_ready` method (JAX's) are waited on through it.

    Parameters
    ----------
    x : pytree
        Arrays (arraystack's, NumPy's, cupy's, JAX's), scalars, or containers of them.

    Returns
    -------
    pytree
        `x` itself.

    See Also
    --------
    jax.block_until_ready : the function mirrored.
    ndarray.block_until_ready : the method, for one array.
    """
    synchronized = set()
    for leaf in leaves(x):
        value = leaf._value if isinstance(leaf, ndarray) else leaf
        namespace = device_namespaces.get(type(value))
        if namespace is not None:
            device = _devices.device_of_buffer(value)
            if device not in synchronized:
                synchronized.add(device)
                namespace.cuda.Device(device.index).synchronize()
        elif not isinstance(leaf, ndarray) and callable(getattr(leaf, "block_until_ready", None)):
            leaf.block_until_ready()
    return x
