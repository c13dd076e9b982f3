"""Building index tuples and index sets: s_, index_exp (numpy/lib/_index_tricks_impl.py) and
mask_indices (numpy/lib/_twodim_base_impl.py).

s_ and index_exp only package their subscript, so they work with traced arrays inside; mask_indices
returns the positions where a mask function is nonzero, whose count depends on values: traced, it
raises ShapeDependsOnDataError (as arraystack.nonzero does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arraystack as anp

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from arraystack.typing import NDArray

__all__ = ["index_exp", "mask_indices", "s_"]


class IndexExpression:
    """A nicer way to build up index tuples for arrays.

    Use one of the two predefined instances ``index_exp`` or ``s_`` rather than directly using
    `IndexExpression`.

    Parameters
    ----------
    maketuple : bool
        If True, always returns a tuple.

    See Also
    --------
    numpy.lib.index_tricks.IndexExpression : The NumPy class this mirrors.
    s_, index_exp
    """

    __slots__ = ("maketuple",)

    def __init__(self, maketuple: bool) -> None:
        self.maketuple = maketuple

    def __getitem__(self, item: Any) -> Any:
        if self.maketuple and not isinstance(item, tuple):
            return (item,)
        return item

    def __repr__(self) -> str:
        return "s_" if not self.maketuple else "index_exp"


index_exp = IndexExpression(maketuple=True)
s_ = IndexExpression(maketuple=False)


def mask_indices(n: int, mask_func: Callable[..., Any], k: Any = 0) -> tuple[NDArray, ...]:
    """Return the indices to access (n, n) arrays, given a masking function.

    Assume `mask_func` is a function that, for a square array a of size ``(n, n)`` with a possible
    offset argument `k`, when called as ``mask_func(a, k)`` returns a new array with zeros in
    certain locations (functions like `triu` or `tril` do precisely this). Then this function
    returns the indices where the non-zero values would be located.

    Parameters
    ----------
    n : int
        The returned indices will be valid to access arrays of shape (n, n).
    mask_func : callable
        A function whose call signature is similar to that of `triu`, `tril`. That is,
        ``mask_func(x, k)`` returns a boolean array, shaped like `x`. `k` is an optional argument
        to the function.
    k : scalar
        An optional argument which is passed through to `mask_func`.

    Returns
    -------
    indices : tuple of arrays.
        The `n` arrays of indices corresponding to the locations where ``mask_func(np.ones((n,
        n)), k)`` is True.

    See Also
    --------
    numpy.mask_indices : The NumPy function this mirrors.
    triu, tril, triu_indices, tril_indices, nonzero
    """
    m = anp.ones((n, n), int)
    a = mask_func(m, k)
    return anp.nonzero(anp.asarray(a) != 0)
