"""NumPy's legacy module-level random functions (`seed`, `rand`, `randn`, `randint`, `normal` ...).

They draw from NumPy's own global RandomState (`numpy.random.mtrand._rand`), not a copy: `arraystack.random.
seed(0)` seeds `numpy.random` too, so a program mixing both, or calling libraries that use the global stream,
sees exactly NumPy's sequence. Results are arraystack arrays; states are NumPy's tuples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from arraystack.random._boundary import call, numpy_doc
from arraystack.random._generator import _shuffle

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike


def _global(name: str):
    """Module function `name`: NumPy's `numpy.random.<name>`, a method of NumPy's global RandomState
    (set_bit_generator changes that object's bit generator in place, so the binding stays valid)."""
    numpy_function = getattr(numpy.random, name)

    def function(*args, **kwargs):
        return call(name, numpy_function, args, kwargs)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = numpy_doc(f"numpy.random.{name}", numpy_function, "NumPy's global stream")
    function.__wrapped__ = numpy_function  # inspect.signature shows NumPy's parameters
    return function


def shuffle(x: ArrayLike | list) -> None:
    """Permute `x` in place along its first axis, from NumPy's global stream.

    Parameters
    ----------
    x : ndarray or list
        An arraystack array (its buffer is shuffled, so its views see the change) or a mutable
        sequence.

    See Also
    --------
    numpy.random.shuffle : the function mirrored (the same permutation for the same seed).
    arraystack.random.permutation, arraystack.prng.permutation

    Notes
    -----
    Eager only: called on traced values, or inside arraystack.jit or vmap, it raises
    TracedRandomError (use arraystack.prng there).
    """
    return _shuffle("shuffle", numpy.random.shuffle, x, (), None)


def get_bit_generator() -> numpy.random.BitGenerator:
    """Return the bit generator behind NumPy's global RandomState.

    Returns
    -------
    numpy.random.BitGenerator
        NumPy's object itself (shared with numpy.random).

    See Also
    --------
    numpy.random.get_bit_generator : the function mirrored.
    arraystack.random.set_bit_generator
    """
    return numpy.random.get_bit_generator()


def set_bit_generator(bitgen: numpy.random.BitGenerator) -> None:
    """Replace the bit generator behind NumPy's global RandomState (for numpy.random too).

    Parameters
    ----------
    bitgen : numpy.random.BitGenerator
        The new bit generator (arraystack's bit generators are NumPy's, subclassed).

    See Also
    --------
    numpy.random.set_bit_generator : the function mirrored.
    arraystack.random.get_bit_generator
    """
    return numpy.random.set_bit_generator(bitgen)


beta = _global("beta")
binomial = _global("binomial")
bytes = _global("bytes")
chisquare = _global("chisquare")
choice = _global("choice")
dirichlet = _global("dirichlet")
exponential = _global("exponential")
f = _global("f")
gamma = _global("gamma")
geometric = _global("geometric")
get_state = _global("get_state")
gumbel = _global("gumbel")
hypergeometric = _global("hypergeometric")
laplace = _global("laplace")
logistic = _global("logistic")
lognormal = _global("lognormal")
logseries = _global("logseries")
multinomial = _global("multinomial")
multivariate_normal = _global("multivariate_normal")
negative_binomial = _global("negative_binomial")
noncentral_chisquare = _global("noncentral_chisquare")
noncentral_f = _global("noncentral_f")
normal = _global("normal")
pareto = _global("pareto")
permutation = _global("permutation")
poisson = _global("poisson")
power = _global("power")
rand = _global("rand")
randint = _global("randint")
randn = _global("randn")
random = _global("random")
random_integers = _global("random_integers")
random_sample = _global("random_sample")
ranf = _global("ranf")
rayleigh = _global("rayleigh")
sample = _global("sample")
seed = _global("seed")
set_state = _global("set_state")
standard_cauchy = _global("standard_cauchy")
standard_exponential = _global("standard_exponential")
standard_gamma = _global("standard_gamma")
standard_normal = _global("standard_normal")
standard_t = _global("standard_t")
triangular = _global("triangular")
uniform = _global("uniform")
vonmises = _global("vonmises")
wald = _global("wald")
weibull = _global("weibull")
zipf = _global("zipf")
