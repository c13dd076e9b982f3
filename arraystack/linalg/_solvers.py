"""Linear systems and inverses: solve, inv, lstsq, pinv, tensorsolve, tensorinv (determinants are in
_determinants.py, matrix_power and multi_dot in _products.py). Factorizations are primitives; the rest follows numpy.linalg's own
compositions step by step, so results agree with NumPy's to the last bits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arraystack._core.devices import constants_on_operand_device
from arraystack._core.array import scalar_result, wrap
from arraystack._creation.basic import asarray
from arraystack.linalg._matmul import matmul
from arraystack._manipulation.reshaping import broadcast_shapes, broadcast_to, matrix_transpose, reshape
from arraystack.ir.core import bind
from arraystack.ir.linalg import lstsq_p, solve_p
from arraystack.linalg._factorizations import svd
from arraystack.linalg._operands import (
    LinAlgError,
    assert_2d,
    assert_stacked_square,
    concrete,
    prepare,
    real_dtype,
)
from arraystack._core.overrides import defers_to

if TYPE_CHECKING:
    from collections.abc import Sequence

    from arraystack.typing import ArrayLike, NDArray


@defers_to(np.linalg.solve)
def solve(a: ArrayLike, b: ArrayLike) -> NDArray:
    """Solve the linear system ``a @ x = b`` for `x`.

    Parameters
    ----------
    a : (..., M, M) array_like
        Square matrix or stack of square matrices.
    b : array_like
        Right-hand side: a vector only when it is 1-d (shape (M,)), else (..., M, K); leading
        axes broadcast against `a`'s.

    Returns
    -------
    ndarray
        The solution `x`, of `b`'s shape (broadcast).

    See Also
    --------
    numpy.linalg.solve : the function mirrored.
    arraystack.linalg.lstsq, arraystack.linalg.inv, arraystack.linalg.cholesky

    Notes
    -----
    Raises LinAlgError for a singular matrix, as NumPy does (under `jit` too, when the compiled
    function runs). Traceable: works under `jit`, `grad` and `vmap` (factorizations are primitives
    with derivative and batching rules).

    Examples
    --------
    >>> import arraystack as np
    >>> np.linalg.solve(np.asarray([[2.0, 0.0], [0.0, 4.0]]), np.asarray([2.0, 2.0]))
    array([1. , 0.5])
    """
    a, b = prepare(a, b)
    assert_stacked_square(a)
    n = a.shape[-1]
    if b.ndim == 0:
        raise ValueError("solve: Input operand 1 does not have enough dimensions")
    vector = b.ndim == 1
    rows = b.shape[-1] if vector else b.shape[-2]
    if rows != n:
        sig = "(m,m),(m)->(m)" if vector else "(m,m),(m,n)->(m,n)"
        name = "solve1" if vector else "solve"
        raise ValueError(
            f"{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature {sig} "
            f"(size {rows} is different from {n})"
        )
    if vector:
        b = reshape(b, (n, 1))
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = broadcast_to(a, batch + a.shape[-2:])
    b = broadcast_to(b, batch + b.shape[-2:])
    x = wrap(bind(solve_p, a._value, b._value))
    return reshape(x, x.shape[:-1]) if vector else x


@defers_to(np.linalg.inv)
@constants_on_operand_device
def inv(a: ArrayLike) -> NDArray:
    """Compute the inverse of a square matrix (or a stack of them).

    Parameters
    ----------
    a : (..., M, M) array_like
        Square matrix or stack of square matrices.

    Returns
    -------
    ndarray
        ``inv(a)``, with ``a @ inv(a) == eye``; a solve against the identity, as NumPy's LAPACK
        call.

    See Also
    --------
    numpy.linalg.inv : the function mirrored.
    arraystack.linalg.solve, arraystack.linalg.pinv

    Notes
    -----
    LinAlgError for a singular matrix. Traceable: works under `jit`, `grad` and `vmap`
    (factorizations are primitives with derivative and batching rules).
    """
    (a,) = prepare(a)
    assert_stacked_square(a)
    eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
    return wrap(bind(solve_p, a._value, eye))


@defers_to(np.linalg.lstsq)
@constants_on_operand_device
def lstsq(a: ArrayLike, b: ArrayLike, rcond: float | None = None) -> tuple:
    """Return the least-squares solution of ``a @ x = b``.

    Parameters
    ----------
    a : (M, N) array_like
        Coefficient matrix.
    b : (M,) or (M, K) array_like
        Right-hand side.
    rcond : float, optional
        Singular values below ``rcond * max(s)`` are treated as zero (default: machine precision
        times max(M, N)).

    Returns
    -------
    tuple
        ``(x, residuals, rank, s)`` as NumPy: the solution, the squared residual norms (empty
        unless M > N and full rank), the rank of `a`, and its singular values.

    See Also
    --------
    numpy.linalg.lstsq : the function mirrored.
    arraystack.linalg.solve, arraystack.linalg.pinv

    Notes
    -----
    Under jit (a traced `a`) NumPy's shape of `residuals` would depend on the rank, a value of the
    data: an overdetermined system's residuals then have shape (K,) whatever the rank, NaN where
    NumPy's are empty (rank below N), as jax.numpy's always have that shape. The solution, the
    residuals and the singular values are differentiable (where the rank does not change, as pinv's
    derivative assumes).
    """
    a, b = prepare(a, b)
    is_1d = b.ndim == 1
    if is_1d:
        b = reshape(b, (b.shape[0], 1))
    assert_2d(a, b)
    m, n = a.shape
    if m != b.shape[0]:
        raise LinAlgError("Incompatible dimensions")
    if rcond is None:
        rcond = np.finfo(np.float64).eps * max(n, m)
    x, resids, rank, s = bind(lstsq_p, a._value, b._value, rcond=float(rcond))
    x = wrap(x)
    if is_1d:
        x = reshape(x, (n,))
    empty = wrap(np.zeros((0,), real_dtype(a.dtype)))
    if m <= n:
        resids = empty
    else:
        r = concrete(wrap(rank))
        resids = wrap(resids) if r is None or r == n else empty  # traced: NaN where NumPy's is empty
    return x, resids, scalar_result(wrap(rank)), wrap(s)  # the rank: NumPy's int32 scalar


_NoValue = np._NoValue


@defers_to(np.linalg.pinv)
@constants_on_operand_device
def pinv(
    a: ArrayLike,
    rcond: ArrayLike | None = None,
    hermitian: bool = False,
    *,
    rtol: ArrayLike = _NoValue,
) -> NDArray:
    """Compute the Moore-Penrose pseudo-inverse of a matrix (or a stack of them), through its SVD.

    Parameters
    ----------
    a : (..., M, N) array_like
        Matrix or stack of matrices.
    rcond : array_like, optional
        Relative cutoff: singular values at most ``rcond * max(s)`` are dropped (NumPy's default
        1e-15).
    hermitian : bool, optional
        `a` is Hermitian: its eigendecomposition is used.
    rtol : array_like, optional
        The Array API's name for `rcond` (give only one).

    Returns
    -------
    ndarray
        The pseudo-inverse, of shape (..., N, M).

    See Also
    --------
    numpy.linalg.pinv : the function mirrored.
    arraystack.linalg.inv, arraystack.linalg.lstsq, arraystack.linalg.svd

    Notes
    -----
    Traceable: works under `jit`, `grad` and `vmap` (factorizations are primitives with
    derivative and batching rules).
    """
    from arraystack._math.elementwise import conjugate, divide, greater, multiply
    from arraystack._math.elementwise_functions import where
    from arraystack._math.reductions import amax

    a = asarray(a)
    if rcond is None:
        if rtol is _NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * np.finfo(a.dtype).eps
        else:
            rcond = rtol
    elif rtol is not _NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    rcond = asarray(rcond)
    if a.size == 0 and np.prod(a.shape[-2:]) == 0:
        m, n = a.shape[-2:]
        return wrap(np.empty(a.shape[:-2] + (n, m), dtype=a.dtype))
    u, s, vt = svd(conjugate(a), full_matrices=False, hermitian=hermitian)
    cutoff = multiply(reshape(rcond, rcond.shape + (1,)), amax(s, axis=-1, keepdims=True))
    large = greater(s, cutoff)
    s = where(large, divide(1, where(large, s, 1)), 0).astype(s.dtype)
    return matmul(matrix_transpose(vt), multiply(reshape(s, s.shape + (1,)), matrix_transpose(u)))


@defers_to(np.linalg.tensorinv)
def tensorinv(a: ArrayLike, ind: int = 2) -> NDArray:
    """Compute the inverse of an N-dimensional array with respect to `tensordot`.

    Parameters
    ----------
    a : array_like
        Tensor with ``prod(a.shape[:ind]) == prod(a.shape[ind:])``.
    ind : int, optional
        Number of leading axes forming the row index.

    Returns
    -------
    ndarray
        Of shape ``a.shape[ind:] + a.shape[:ind]``.

    See Also
    --------
    numpy.linalg.tensorinv : the function mirrored.
    arraystack.linalg.tensorsolve, arraystack.linalg.inv
    """
    a = asarray(a)
    oldshape = a.shape
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    invshape = oldshape[ind:] + oldshape[:ind]
    prod = int(np.prod(oldshape[ind:], dtype=np.int64))
    return reshape(inv(reshape(a, (prod, -1))), invshape)


@defers_to(np.linalg.tensorsolve)
def tensorsolve(a: ArrayLike, b: ArrayLike, axes: Sequence[int] | None = None) -> NDArray:
    """Solve the tensor equation ``tensordot(a, x, axes=x.ndim) = b`` for `x`.

    Parameters
    ----------
    a : array_like
        Coefficient tensor, of shape ``b.shape + x.shape``.
    b : array_like
        Right-hand side tensor.
    axes : sequence of int, optional
        Axes of `a` moved to the end before solving.

    Returns
    -------
    ndarray
        The solution `x`, of shape ``a.shape[b.ndim:]``.

    See Also
    --------
    numpy.linalg.tensorsolve : the function mirrored.
    arraystack.linalg.tensorinv, arraystack.linalg.solve
    """
    from arraystack._manipulation.reshaping import transpose

    a, b = asarray(a), asarray(b)
    an = a.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = transpose(a, allaxes)
    oldshape = a.shape[-(an - b.ndim) :]
    prod = int(np.prod(oldshape, dtype=np.int64))
    if a.size != prod**2:
        raise LinAlgError(
            "Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])"
        )
    res = solve(reshape(a, (prod, prod)), reshape(b, (b.size,)))
    return reshape(res, oldshape)


__all__ = ["inv", "lstsq", "pinv", "solve", "tensorinv", "tensorsolve"]
