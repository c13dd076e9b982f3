"""RandomState: NumPy's legacy MT19937 generator, owned and drawn from eagerly, arraystack arrays in and out.

Kept for NumPy programs that seed `RandomState(seed)` and need its exact (frozen) stream; states
from `get_state()` are NumPy's tuples and dicts, so they round-trip with NumPy too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from arraystack.random._boundary import NumpyOwner, check_eager, forward, to_numpy
from arraystack.random._generator import _shuffle

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike


class RandomState(NumpyOwner):
    """NumPy's legacy RandomState (MT19937) for arraystack: its streams, into arraystack arrays.

    Parameters
    ----------
    seed : None, int, array_like of int or BitGenerator, optional
        As NumPy (arraystack arrays of ints included).

    See Also
    --------
    numpy.random.RandomState : the class mirrored; every method forwards to its namesake.
    arraystack.random.default_rng : the recommended Generator API.

    Notes
    -----
    Kept for programs that need RandomState's exact stream; states from ``get_state()`` are
    NumPy's tuples and dicts, so they round-trip with NumPy. Eager only: called on traced
    values, or inside arraystack.jit or vmap, it raises TracedRandomError (use arraystack.prng
    there).
    """


    __slots__ = ()

    def __init__(self, seed: ArrayLike | numpy.random.BitGenerator | None = None) -> None:
        check_eager("RandomState", (seed,), staging=False)
        self._numpy = numpy.random.RandomState(to_numpy(seed, {}))

    def __str__(self):
        return f"RandomState({type(self._numpy._bit_generator).__name__})"

    def __repr__(self):
        return f"{self} at 0x{id(self):X}"

    def __reduce__(self):
        return (_from_numpy, (self._numpy,))

    def shuffle(self, x):
        """NumPy's `RandomState.shuffle`: permute x in place along its first axis (arraystack arrays too)."""
        return _shuffle("RandomState.shuffle", self._numpy.shuffle, x, (), None)

    seed = forward("RandomState", "seed", numpy.random.RandomState)
    get_state = forward("RandomState", "get_state", numpy.random.RandomState)
    set_state = forward("RandomState", "set_state", numpy.random.RandomState)
    rand = forward("RandomState", "rand", numpy.random.RandomState)
    randn = forward("RandomState", "randn", numpy.random.RandomState)
    randint = forward("RandomState", "randint", numpy.random.RandomState)
    random_integers = forward("RandomState", "random_integers", numpy.random.RandomState)
    random_sample = forward("RandomState", "random_sample", numpy.random.RandomState)
    random = forward("RandomState", "random", numpy.random.RandomState)
    tomaxint = forward("RandomState", "tomaxint", numpy.random.RandomState)
    choice = forward("RandomState", "choice", numpy.random.RandomState)
    bytes = forward("RandomState", "bytes", numpy.random.RandomState)
    permutation = forward("RandomState", "permutation", numpy.random.RandomState)
    beta = forward("RandomState", "beta", numpy.random.RandomState)
    binomial = forward("RandomState", "binomial", numpy.random.RandomState)
    chisquare = forward("RandomState", "chisquare", numpy.random.RandomState)
    dirichlet = forward("RandomState", "dirichlet", numpy.random.RandomState)
    exponential = forward("RandomState", "exponential", numpy.random.RandomState)
    f = forward("RandomState", "f", numpy.random.RandomState)
    gamma = forward("RandomState", "gamma", numpy.random.RandomState)
    geometric = forward("RandomState", "geometric", numpy.random.RandomState)
    gumbel = forward("RandomState", "gumbel", numpy.random.RandomState)
    hypergeometric = forward("RandomState", "hypergeometric", numpy.random.RandomState)
    laplace = forward("RandomState", "laplace", numpy.random.RandomState)
    logistic = forward("RandomState", "logistic", numpy.random.RandomState)
    lognormal = forward("RandomState", "lognormal", numpy.random.RandomState)
    logseries = forward("RandomState", "logseries", numpy.random.RandomState)
    multinomial = forward("RandomState", "multinomial", numpy.random.RandomState)
    multivariate_normal = forward("RandomState", "multivariate_normal", numpy.random.RandomState)
    negative_binomial = forward("RandomState", "negative_binomial", numpy.random.RandomState)
    noncentral_chisquare = forward("RandomState", "noncentral_chisquare", numpy.random.RandomState)
    noncentral_f = forward("RandomState", "noncentral_f", numpy.random.RandomState)
    normal = forward("RandomState", "normal", numpy.random.RandomState)
    pareto = forward("RandomState", "pareto", numpy.random.RandomState)
    poisson = forward("RandomState", "poisson", numpy.random.RandomState)
    power = forward("RandomState", "power", numpy.random.RandomState)
    rayleigh = forward("RandomState", "rayleigh", numpy.random.RandomState)
    standard_cauchy = forward("RandomState", "standard_cauchy", numpy.random.RandomState)
    standard_exponential = forward("RandomState", "standard_exponential", numpy.random.RandomState)
    standard_gamma = forward("RandomState", "standard_gamma", numpy.random.RandomState)
    standard_normal = forward("RandomState", "standard_normal", numpy.random.RandomState)
    standard_t = forward("RandomState", "standard_t", numpy.random.RandomState)
    triangular = forward("RandomState", "triangular", numpy.random.RandomState)
    uniform = forward("RandomState", "uniform", numpy.random.RandomState)
    vonmises = forward("RandomState", "vonmises", numpy.random.RandomState)
    wald = forward("RandomState", "wald", numpy.random.RandomState)
    weibull = forward("RandomState", "weibull", numpy.random.RandomState)
    zipf = forward("RandomState", "zipf", numpy.random.RandomState)


def _from_numpy(numpy_random_state) -> RandomState:
    """An arraystack RandomState drawing from `numpy_random_state` itself (its stream, shared)."""
    out = object.__new__(RandomState)
    out._numpy = numpy_random_state
    return out
