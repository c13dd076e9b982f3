"""arraystack.scipy: SciPy functions written in arraystack operations, so that they trace, compile and
differentiate (`jax.scipy`'s idea). `arraystack.scipy.special` holds the special functions and
`arraystack.scipy.stats` the probability distributions; SciPy's own ufuncs applied to arraystack arrays
run eagerly on their NumPy buffers, and name this module under `jit`."""

from arraystack.scipy import special, stats

__all__ = ["special", "stats"]
