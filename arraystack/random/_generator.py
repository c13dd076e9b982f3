"""Generator and default_rng: an arraystack Generator owns a numpy.random.Generator and draws through it.

Every method forwards to NumPy's method of the same name through `_boundary.call`, so seeds, streams, values,
dtypes, shapes, broadcasting and errors are NumPy's; arraystack arrays go in and come out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from arraystack._core.array import ndarray
from arraystack._core.devices import host_values
from arraystack.ir.core import device_namespaces
from arraystack.random._boundary import NumpyOwner, call, check_eager, forward, to_numpy

if TYPE_CHECKING:
    from arraystack.typing import ArrayLike


def _host_buffer(name: str, x: ndarray):
    """The NumPy buffer behind x for an in-place draw (shuffle, out=): a copy would lose the writes."""
    value = x._value
    if not isinstance(value, numpy.ndarray):
        raise TypeError(
            f"arraystack.random.{name} writes in place into host (NumPy-backed) arrays; got an array "
            f"backed by {type(value).__module__}.{type(value).__name__}. Copy it to the host first."
        )
    return value


def _shuffle(name: str, numpy_shuffle, x, args, kwargs):
    """shuffle(x, ...) in place: an arraystack array through its own buffer (its views see the change),
    anything else (a list) handed to NumPy as it is, so NumPy mutates the caller's object."""
    check_eager(name, (x, *args), kwargs)
    if isinstance(x, ndarray) and type(x._value) in device_namespaces:
        # on a device: NumPy's stream permutes a host copy, written back into the array's buffer
        host = numpy.array(host_values(x._value))
        result = numpy_shuffle(host, *args, **(kwargs or {}))
        x[...] = host
        return result
    if isinstance(x, ndarray):
        x = _host_buffer(name, x)
    return numpy_shuffle(x, *args, **(kwargs or {}))


class Generator(NumpyOwner):
    """NumPy's random Generator for arraystack: the same streams and values, into arraystack arrays.

    Parameters
    ----------
    bit_generator : numpy.random.BitGenerator
        Any NumPy bit generator (arraystack.random.PCG64 and the others are NumPy's,
        subclassed).

    See Also
    --------
    numpy.random.Generator : the class mirrored; every method forwards to its namesake.
    arraystack.random.default_rng : the usual way to create one.
    arraystack.prng : functional keys, for random numbers inside jit and vmap.

    Notes
    -----
    Draws are eager: called on traced values or inside arraystack.jit / vmap they raise
    TracedRandomError. The NumPy generator drawn from is ``rng._numpy``.

    Examples
    --------
    >>> import arraystack as np
    >>> rng = np.random.default_rng(0)
    >>> x = rng.standard_normal(3)
    >>> type(x).__module__, x.shape
    ('arraystack', (3,))
    """


    __slots__ = ()

    def __init__(self, bit_generator: numpy.random.BitGenerator) -> None:
        self._numpy = numpy.random.Generator(bit_generator)

    @property
    def bit_generator(self):
        """The bit generator this Generator draws from (NumPy's object, shared)."""
        return self._numpy.bit_generator

    def __str__(self):
        return f"Generator({type(self._numpy.bit_generator).__name__})"

    def __repr__(self):
        return f"{self} at 0x{id(self):X}"

    def __reduce__(self):
        return (_from_numpy, (self._numpy,))

    def spawn(self, n_children):
        """NumPy's `Generator.spawn`: independent child Generators from the bit generator's SeedSequence."""
        return [_from_numpy(g) for g in self._numpy.spawn(n_children)]

    def shuffle(self, x, axis=0):
        """NumPy's `Generator.shuffle`: permute x in place along axis (arraystack arrays included)."""
        return _shuffle("Generator.shuffle", self._numpy.shuffle, x, (axis,), None)

    def permuted(self, x, *, axis=None, out=None):
        """NumPy's `Generator.permuted`: each slice along axis shuffled independently; with out=x in place."""
        if isinstance(out, ndarray) and type(out._value) in device_namespaces:
            # into a device array: NumPy's stream permutes a new array (the same draws), copied into out
            out[...] = call("Generator.permuted", self._numpy.permuted, (x,), {"axis": axis})
            return out
        if isinstance(out, ndarray):
            _host_buffer("Generator.permuted", out)
        return call("Generator.permuted", self._numpy.permuted, (x,), {"axis": axis, "out": out})

    random = forward("Generator", "random", numpy.random.Generator)
    integers = forward("Generator", "integers", numpy.random.Generator)
    choice = forward("Generator", "choice", numpy.random.Generator)
    bytes = forward("Generator", "bytes", numpy.random.Generator)
    permutation = forward("Generator", "permutation", numpy.random.Generator)
    beta = forward("Generator", "beta", numpy.random.Generator)
    binomial = forward("Generator", "binomial", numpy.random.Generator)
    chisquare = forward("Generator", "chisquare", numpy.random.Generator)
    dirichlet = forward("Generator", "dirichlet", numpy.random.Generator)
    exponential = forward("Generator", "exponential", numpy.random.Generator)
    f = forward("Generator", "f", numpy.random.Generator)
    gamma = forward("Generator", "gamma", numpy.random.Generator)
    geometric = forward("Generator", "geometric", numpy.random.Generator)
    gumbel = forward("Generator", "gumbel", numpy.random.Generator)
    hypergeometric = forward("Generator", "hypergeometric", numpy.random.Generator)
    laplace = forward("Generator", "laplace", numpy.random.Generator)
    logistic = forward("Generator", "logistic", numpy.random.Generator)
    lognormal = forward("Generator", "lognormal", numpy.random.Generator)
    logseries = forward("Generator", "logseries", numpy.random.Generator)
    multinomial = forward("Generator", "multinomial", numpy.random.Generator)
    multivariate_hypergeometric = forward(
        "Generator", "multivariate_hypergeometric", numpy.random.Generator
    )
    multivariate_normal = forward("Generator", "multivariate_normal", numpy.random.Generator)
    negative_binomial = forward("Generator", "negative_binomial", numpy.random.Generator)
    noncentral_chisquare = forward("Generator", "noncentral_chisquare", numpy.random.Generator)
    noncentral_f = forward("Generator", "noncentral_f", numpy.random.Generator)
    normal = forward("Generator", "normal", numpy.random.Generator)
    pareto = forward("Generator", "pareto", numpy.random.Generator)
    poisson = forward("Generator", "poisson", numpy.random.Generator)
    power = forward("Generator", "power", numpy.random.Generator)
    rayleigh = forward("Generator", "rayleigh", numpy.random.Generator)
    standard_cauchy = forward("Generator", "standard_cauchy", numpy.random.Generator)
    standard_exponential = forward("Generator", "standard_exponential", numpy.random.Generator)
    standard_gamma = forward("Generator", "standard_gamma", numpy.random.Generator)
    standard_normal = forward("Generator", "standard_normal", numpy.random.Generator)
    standard_t = forward("Generator", "standard_t", numpy.random.Generator)
    triangular = forward("Generator", "triangular", numpy.random.Generator)
    uniform = forward("Generator", "uniform", numpy.random.Generator)
    vonmises = forward("Generator", "vonmises", numpy.random.Generator)
    wald = forward("Generator", "wald", numpy.random.Generator)
    weibull = forward("Generator", "weibull", numpy.random.Generator)
    zipf = forward("Generator", "zipf", numpy.random.Generator)


if TYPE_CHECKING:
    from typing import TypeAlias

    SeedLike: TypeAlias = (
        ArrayLike | numpy.random.SeedSequence | numpy.random.BitGenerator | Generator | None
    )


def _from_numpy(numpy_generator) -> Generator:
    """An arraystack Generator drawing from `numpy_generator` itself (the stream is shared, not copied)."""
    out = object.__new__(Generator)
    out._numpy = numpy_generator
    return out


def default_rng(seed: SeedLike = None) -> Generator:
    """Create a Generator on PCG64, seeded by `seed`.

    Parameters
    ----------
    seed : None, int, array_like of int, SeedSequence, BitGenerator, RandomState or Generator
        As NumPy (arraystack arrays of ints included). An arraystack Generator is returned
        unaltered, and a numpy.random.Generator is wrapped, so the result draws from that same
        NumPy generator (its stream, shared).

    Returns
    -------
    Generator
        An arraystack Generator: NumPy's values for the same seed.

    See Also
    --------
    numpy.random.default_rng : the function mirrored.
    arraystack.prng.key : the functional counterpart, which traces.

    Notes
    -----
    Eager only: called on traced values, or inside arraystack.jit or vmap, it raises
    TracedRandomError (use arraystack.prng there).
    """
    if isinstance(seed, Generator):
        return seed
    check_eager("default_rng", (seed,), staging=False)
    return _from_numpy(numpy.random.default_rng(to_numpy(seed, {})))
