"""arraystack.random: NumPy's `numpy.random` API and NumPy's streams, drawing into arraystack arrays.

The same seed gives NumPy's numbers: `default_rng(seed)` returns a `Generator` that owns a
numpy.random.Generator and forwards every method to it; the bit generators (PCG64, PCG64DXSM, Philox, SFC64,
MT19937) are NumPy's classes, subclassed; `RandomState` owns a numpy.random.RandomState; and the legacy
module functions (`seed`, `rand`, `randn`, `randint`, `normal`, `get_state` ...) draw from NumPy's own global
RandomState, so `arraystack.random.seed(0)` and `numpy.random.seed(0)` are the same call. Arguments may be
arraystack arrays; results are arraystack arrays (0-d where NumPy returns a NumPy scalar, Python floats and
ints where NumPy returns those); `shuffle(x)` and `out=`/`permuted(x, out=x)` write into x's own buffer, so
views of x see the change as in NumPy. States (`get_state`, `bit_generator.state`) are NumPy's objects.

0-d arraystack operands go in as NumPy scalars, since arraystack returns 0-d arrays where NumPy returns
scalars (`rng.permutation(np.count_nonzero(mask))` works as in NumPy).

Random draws are eager. Called on a traced value, or anywhere inside arraystack.jit or vmap, they raise
`TracedRandomError` (a TracerError, via ConcretizationError): a compiled function would replay the numbers
drawn at trace time on every call. Inside traced code use `arraystack.prng`, the functional key API
(threefry keys, JAX's values). Building a seeded Generator, RandomState or bit generator inside jit is
allowed (it draws nothing; its draws raise). Under an eager `grad` on concrete inputs a draw is allowed and
is a constant of the differentiated function, as a NumPy program would compute it.

Design room for a jit-friendly Generator (not built): a bit generator's state is small and fixed-size
(PCG64: two 128-bit words; Philox: counter and key), so a later version can trace `Generator` calls
functionally. jit would lift each Generator the function touches into a hidden input array holding its
`bit_generator.state`, turn each draw into a primitive `draw(state, *params) -> (new_state, sample)` whose
reference rule runs NumPy's Generator on a copy of that state (NumPy's values exactly; the numba backend
would run it as a reference_only step), return the final state as a hidden output and write it back into
the Generator after each call, as `donate_argnums` writes buffers. Threading the state makes the draws a
data-dependent chain, so CSE/DCE cannot merge, drop or reorder them, and the compiled graph is reusable
across calls because the state is an input, not a constant. vmap would split the state per example
(`spawn`) and could not match a Python loop's single stream. `_boundary.call` is the one place such a
tracing path would branch off from the eager one; today it raises TracedRandomError there.
"""

from __future__ import annotations

from arraystack.random._bit_generators import (
    MT19937,
    PCG64,
    PCG64DXSM,
    SFC64,
    BitGenerator,
    Philox,
    SeedSequence,
)
from arraystack.random._boundary import TracedRandomError
from arraystack.random._generator import Generator, default_rng
from arraystack.random._global import (
    beta,
    binomial,
    bytes,
    chisquare,
    choice,
    dirichlet,
    exponential,
    f,
    gamma,
    geometric,
    get_bit_generator,
    get_state,
    gumbel,
    hypergeometric,
    laplace,
    logistic,
    lognormal,
    logseries,
    multinomial,
    multivariate_normal,
    negative_binomial,
    noncentral_chisquare,
    noncentral_f,
    normal,
    pareto,
    permutation,
    poisson,
    power,
    rand,
    randint,
    randn,
    random,
    random_integers,
    random_sample,
    ranf,
    rayleigh,
    sample,
    seed,
    set_bit_generator,
    set_state,
    shuffle,
    standard_cauchy,
    standard_exponential,
    standard_gamma,
    standard_normal,
    standard_t,
    triangular,
    uniform,
    vonmises,
    wald,
    weibull,
    zipf,
)
from arraystack.random._legacy import RandomState

__all__ = [
    "MT19937",
    "PCG64",
    "PCG64DXSM",
    "SFC64",
    "BitGenerator",
    "Generator",
    "Philox",
    "RandomState",
    "SeedSequence",
    "TracedRandomError",
    "beta",
    "binomial",
    "bytes",
    "chisquare",
    "choice",
    "default_rng",
    "dirichlet",
    "exponential",
    "f",
    "gamma",
    "geometric",
    "get_bit_generator",
    "get_state",
    "gumbel",
    "hypergeometric",
    "laplace",
    "logistic",
    "lognormal",
    "logseries",
    "multinomial",
    "multivariate_normal",
    "negative_binomial",
    "noncentral_chisquare",
    "noncentral_f",
    "normal",
    "pareto",
    "permutation",
    "poisson",
    "power",
    "rand",
    "randint",
    "randn",
    "random",
    "random_integers",
    "random_sample",
    "ranf",
    "rayleigh",
    "sample",
    "seed",
    "set_bit_generator",
    "set_state",
    "shuffle",
    "standard_cauchy",
    "standard_exponential",
    "standard_gamma",
    "standard_normal",
    "standard_t",
    "triangular",
    "uniform",
    "vonmises",
    "wald",
    "weibull",
    "zipf",
]
