"""The methods and attributes of a ufunc (`reduce`, `accumulate`, `reduceat`, `outer`, `at`; `nin`,
`identity`, `types`, ...) on every elementwise function, as NumPy's ufuncs have them.

`attach(function, ufunc)` gives `function` (an arraystack elementwise function: an accelerated C
`Function` or a Python function, both with an instance dict, so the call path is untouched) NumPy's
attribute values and one bound method each. A method call on host buffers with no trace active runs
NumPy's own method on the buffers (`at` writes the array's buffer in place, so views alias as in NumPy);
every other call (traced, transformed, on a device) runs the composition of primitives in
ufunc_folds.py. `outer` is broadcasting in every mode.
"""

from __future__ import annotations

import inspect

import numpy as np

from arraystack._core.array import ndarray, wrap
from arraystack._core.devices import constants_on_operand_device
from arraystack.ir.core import active

NoValue = np._NoValue
_ndarray_np = np.ndarray
_ATTRIBUTES = ("nin", "nout", "nargs", "ntypes", "types", "signature", "identity")


class _NotHost(Exception):
    """An operand whose value is not a host NumPy buffer: the composition runs instead."""


def _host(x):
    """`x` with arraystack arrays replaced by their NumPy buffers (through tuples, as indices nest)."""
    if type(x) is ndarray or isinstance(x, ndarray):
        value = x._value
        if type(value) is not _ndarray_np:
            raise _NotHost
        return value
    if type(x) is tuple:
        return tuple([_host(v) for v in x])
    return x


def _eager(ufunc, method, args, kwargs):
    """NumPy's `ufunc.method(*args, **kwargs)` on the host buffers, or _NotHost. Results are wrapped;
    an arraystack out= array is returned as itself."""
    if active.n:
        raise _NotHost
    raws = [_host(a) for a in args]
    options = {k: _host(v) for k, v in kwargs.items()}
    result = getattr(ufunc, method)(*raws, **options)
    if result is None:
        return None
    out = kwargs.get("out")
    if out is not None:
        outs = out if type(out) is tuple else (out,)
        if len(outs) == 1 and isinstance(outs[0], ndarray):
            return outs[0]
    if isinstance(result, (_ndarray_np, np.generic)):
        return wrap(result)
    return result


def check_binary(ufunc, method):
    """NumPy's ValueError for a method that needs a two-input, one-output ufunc."""
    what = "outer product" if method == "outer" else method
    if ufunc.nin != 2:
        raise ValueError(f"{what} only supported for binary functions")
    if ufunc.nout != 1 and method != "outer":
        raise ValueError(f"{what} only supported for functions returning a single value")


def reduce(
    function,
    ufunc,
    array,
    axis=0,
    dtype=None,
    out=None,
    keepdims=False,
    initial=NoValue,
    where=True,
):
    """Reduce `array`'s dimension(s) by applying the ufunc along them (numpy.ufunc.reduce).

    Parameters
    ----------
    array : array_like
        The array to act on.
    axis : None or int or tuple of ints, optional
        Axis or axes along which a reduction is performed (default 0); None reduces all axes. More
        than one axis only for reorderable ufuncs (those with an identity, maximum, minimum, ...).
    dtype : data-type, optional
        The data type of the intermediate results and of the result.
    out : ndarray, optional
        A location into which the result is stored (eagerly written; traced, functionalized).
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size one.
    initial : scalar, optional
        The value with which to start the reduction (None: the first element, no identity).
    where : array_like of bool, optional
        Elements to include in the reduction (needs `initial` for ufuncs without an identity).

    Returns
    -------
    r : ndarray
        The reduced array (`out` if given).

    See Also
    --------
    numpy.ufunc.reduce : The NumPy method this mirrors.

    Notes
    -----
    Traced, add, multiply, maximum, minimum, logical_and and logical_or lower to the reduce
    primitives; every other binary ufunc to a scan applying the ufunc element by element in NumPy's
    order.
    """
    check_binary(ufunc, "reduce")
    kwargs = {"axis": axis, "dtype": dtype, "out": out, "keepdims": keepdims}
    if initial is not NoValue:
        kwargs["initial"] = initial
    if where is not True:
        kwargs["where"] = where
    try:
        return _eager(ufunc, "reduce", (array,), kwargs)
    except _NotHost:
        pass
    from arraystack._math import ufunc_folds

    return ufunc_folds.reduce(function, ufunc, array, axis, dtype, out, keepdims, initial, where)


def accumulate(function, ufunc, array, axis=0, dtype=None, out=None):
    """Accumulate the result of applying the ufunc to all elements (numpy.ufunc.accumulate).

    Parameters
    ----------
    array : array_like
        The array to act on (at least one dimension).
    axis : int, optional
        The axis along which to accumulate (default 0).
    dtype : data-type, optional
        The data type of the intermediate results and of the result.
    out : ndarray, optional
        A location into which the result is stored (eagerly written; traced, functionalized).

    Returns
    -------
    r : ndarray
        The accumulated values, of `array`'s shape (`out` if given).

    See Also
    --------
    numpy.ufunc.accumulate : The NumPy method this mirrors.

    Notes
    -----
    Traced, add, multiply, maximum and minimum (and logical_and/logical_or of booleans) lower to
    the cumulative primitives, every other binary ufunc to a scan.
    """
    check_binary(ufunc, "accumulate")
    try:
        return _eager(ufunc, "accumulate", (array,), {"axis": axis, "dtype": dtype, "out": out})
    except _NotHost:
        pass
    from arraystack._math import ufunc_folds

    return ufunc_folds.accumulate(function, ufunc, array, axis, dtype, out)


def reduceat(function, ufunc, array, indices, axis=0, dtype=None, out=None):
    """Reduce over slices of one axis that start at `indices` (numpy.ufunc.reduceat).

    Parameters
    ----------
    array : array_like
        The array to act on.
    indices : array_like of int
        Where each slice starts: slice i runs from ``indices[i]`` to ``indices[i + 1]`` (the end of
        the axis for the last); where ``indices[i] >= indices[i + 1]`` the result is
        ``array[indices[i]]``.
    axis : int, optional
        The axis along which to reduce (default 0).
    dtype : data-type, optional
        The data type of the intermediate results and of the result.
    out : ndarray, optional
        A location into which the result is stored.

    Returns
    -------
    r : ndarray
        The reduced values, with ``len(indices)`` entries along `axis`.

    See Also
    --------
    numpy.ufunc.reduceat : The NumPy method this mirrors.

    Notes
    -----
    Traced, each slice is one reduction (see `reduce`); the indices must be concrete, since they
    decide the slices' shapes.
    """
    check_binary(ufunc, "reduceat")
    try:
        return _eager(
            ufunc, "reduceat", (array, indices), {"axis": axis, "dtype": dtype, "out": out}
        )
    except _NotHost:
        pass
    from arraystack._math import ufunc_folds

    return ufunc_folds.reduceat(function, ufunc, array, indices, axis, dtype, out)


def outer(function, ufunc, A, B, /, **kwargs):
    """Apply the ufunc to all pairs (a, b) with a in `A` and b in `B` (numpy.ufunc.outer).

    Parameters
    ----------
    A, B : array_like
        The operands; the result has shape ``A.shape + B.shape``.
    **kwargs
        The keywords of the ufunc's call (out=, where=, dtype=, casting=).

    Returns
    -------
    r : ndarray or tuple of ndarray
        ``ufunc(A[..., None, ...], B)``: one array per output of the ufunc.

    See Also
    --------
    numpy.ufunc.outer : The NumPy method this mirrors.

    Notes
    -----
    Broadcasting in every mode: `A` is reshaped to ``A.shape + (1,) * B.ndim`` and the ufunc called.
    """
    check_binary(ufunc, "outer")
    from arraystack._creation.basic import asarray
    from arraystack._manipulation.reshaping import reshape

    a, b = asarray(A), asarray(B)
    return function(reshape(a, tuple(a.shape) + (1,) * b.ndim), b, **kwargs)


@constants_on_operand_device
def at(function, ufunc, a, indices, b=None, /):
    """Apply the ufunc in place to the elements of `a` that `indices` selects (numpy.ufunc.at).

    Parameters
    ----------
    a : ndarray
        The array to update in place.
    indices : index
        The elements to update, as for ``a[indices]``; an element indexed twice is updated twice
        (unbuffered, unlike ``a[indices] += b``).
    b : array_like, optional
        The second operand of a binary ufunc, broadcast to ``a[indices]``'s shape.

    Returns
    -------
    None

    See Also
    --------
    numpy.ufunc.at : The NumPy method this mirrors.

    Notes
    -----
    Traced, `a` is functionalized (rebound to its new value): add, subtract, multiply, maximum and
    minimum on `a`'s own dtype lower to one scatter, every other ufunc to a scan over the indexed
    elements in NumPy's order.
    """
    if ufunc.nout != 1:
        raise ValueError("Only single output ufuncs supported at this time")
    if ufunc.nin == 1 and b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    if ufunc.nin == 2 and b is None:
        raise ValueError("second operand needed for ufunc")
    if type(a) is _ndarray_np:
        return ufunc.at(a, _host(indices), *(() if b is None else (_host(b),)))
    if not isinstance(a, ndarray):
        raise TypeError("first operand must be array")
    try:
        return _eager(ufunc, "at", (a, indices) if b is None else (a, indices, b), {})
    except _NotHost:
        pass
    from arraystack._math import ufunc_folds

    return ufunc_folds.at(function, ufunc, a, indices, b)


_METHODS = (reduce, accumulate, reduceat, outer, at)


def _bound(method, function, ufunc):
    """`method` with the function and NumPy's ufunc bound, named as NumPy names its methods."""

    def call(*args, **kwargs):
        return method(function, ufunc, *args, **kwargs)

    call.__name__ = method.__name__
    call.__qualname__ = f"{ufunc.__name__}.{method.__name__}"
    call.__module__ = "arraystack"
    call.__doc__ = method.__doc__
    parameters = list(_SIGNATURES[method].parameters.values())[2:]
    call.__signature__ = _SIGNATURES[method].replace(parameters=parameters)
    return call


_SIGNATURES = {method: inspect.signature(method) for method in _METHODS}


def attach(function, ufunc):
    """Give `function` the attributes and methods of NumPy's `ufunc`; returns `function`."""
    for name in _ATTRIBUTES:
        setattr(function, name, getattr(ufunc, name))
    for method in _METHODS:
        setattr(function, method.__name__, _bound(method, function, ufunc))
    return function


def _attach_host_ufuncs():
    """isnat, a ufunc of host dtypes defined beside the datetime functions, gets its methods too."""
    from arraystack._core.datetime_support import isnat

    attach(isnat, np.isnat)


_attach_host_ufuncs()
