"""Coordinate grids: indices, meshgrid and fromfunction (which calls its function on indices), built
from iota ramps and broadcasting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arraystack._core.devices import constants_on_operand_device
from arraystack._core.dtypes import check_supported
from arraystack._core.overrides import defers_to_numpy
from arraystack._core.shapes import shape_tuple
from arraystack._creation.basic import asarray
from arraystack._creation.filled import zeros
from arraystack._manipulation.joining import concatenate
from arraystack._manipulation.reshaping import broadcast_arrays, reshape

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from arraystack.typing import ArrayLike, DTypeLike, NDArray, ShapeLike


def indices(
    dimensions: ShapeLike,
    dtype: DTypeLike = int,
    sparse: bool = False,
) -> NDArray | tuple[NDArray, ...]:
    """Return an array representing the indices of a grid.

    Parameters
    ----------
    dimensions : sequence of ints
        The shape of the grid.
    dtype : dtype, optional
        Data type of the result; default int.
    sparse : bool, optional
        Return a sparse representation of the grid instead of a dense representation.

    Returns
    -------
    grid : one ndarray or tuple of ndarrays
        A single array of shape ``(N,) + dimensions``, or with `sparse` a tuple of arrays with
        size-one dimensions.

    See Also
    --------
    numpy.indices : The NumPy function this mirrors.
    mgrid, ogrid, meshgrid, ix_
    """
    from arraystack._creation.ranges import iota

    dimensions = tuple(dimensions)
    dims = shape_tuple(dimensions)
    dtype = check_supported(dtype)
    n = len(dims)
    if sparse:
        return tuple(
            iota(dtype, (1,) * i + (d,) + (1,) * (n - i - 1), dimension=i)
            for i, d in enumerate(dims)
        )
    if n == 0:
        return zeros((0,), dtype)
    grids = [iota(dtype, (1,) + dims, dimension=i + 1) for i in range(n)]
    return grids[0] if n == 1 else concatenate(grids, axis=0)


def fromfunction(
    function: Callable[..., Any],
    shape: ShapeLike,
    *,
    dtype: DTypeLike = float,
    like: ArrayLike | None = None,
    **kwargs: Any,
) -> Any:
    """Construct an array by executing a function over each coordinate.

    Parameters
    ----------
    function : callable
        Called with N parameters, N the rank of `shape`: each is an array of the coordinates along
        one axis.
    shape : (N,) tuple of ints
        Shape of the output array, which also determines the shape of the coordinate arrays passed
        to `function`.
    dtype : data-type, optional
        Data-type of the coordinate arrays passed to `function`; float by default.
    like : array_like, optional
        Accepted for NumPy compatibility (NEP 35) and ignored.
    **kwargs
        Extra keyword arguments passed to `function`.

    Returns
    -------
    fromfunction : any
        The result of the call to `function`, passed back directly.

    See Also
    --------
    numpy.fromfunction : The NumPy function this mirrors.
    indices, meshgrid
    """
    args = indices(shape, dtype=dtype)
    return function(*[args[i] for i in range(len(args))], **kwargs)


@defers_to_numpy
@constants_on_operand_device
def meshgrid(
    *xi: ArrayLike,
    copy: bool = True,
    sparse: bool = False,
    indexing: str = "xy",
) -> tuple[NDArray, ...]:
    """Return a tuple of coordinate matrices from coordinate vectors.

    Parameters
    ----------
    *xi : array_like
        1-D arrays representing the coordinates of a grid.
    copy : bool, optional
        If False, views into the original arrays are returned (eagerly) to conserve memory; default
        True.
    sparse : bool, optional
        If True, return sparse grids with size-one dimensions instead of full ones.
    indexing : {'xy', 'ij'}, optional
        Cartesian ('xy', the default) or matrix ('ij') indexing of the output.

    Returns
    -------
    X1, X2, ..., XN : tuple of ndarrays
        For vectors of lengths ``Ni = len(xi)``, arrays of shape ``(N1, N2, ..., Nn)`` with 'ij'
        indexing or ``(N2, N1, N3, ..., Nn)`` with 'xy' indexing.

    See Also
    --------
    numpy.meshgrid : The NumPy function this mirrors.
    mgrid, ogrid, indices
    """
    from arraystack._creation.basic import copy as copy_array

    ndim = len(xi)
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    s0 = (1,) * ndim
    output = [reshape(asarray(x), s0[:i] + (-1,) + s0[i + 1 :]) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        output[0] = reshape(output[0], (1, -1) + s0[2:])
        output[1] = reshape(output[1], (-1, 1) + s0[2:])
    if not sparse:
        output = broadcast_arrays(*output)
    if copy:
        output = [copy_array(x, order="C") for x in output]  # NumPy's x.copy()
    return tuple(output)


__all__ = ["fromfunction", "indices", "meshgrid"]
