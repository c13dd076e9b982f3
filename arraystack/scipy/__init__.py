"""arraystack.scipy: SciPy functions written in arraystack operations, so that they trace, compile and
differentiate (`jax.scipy`'s idea). `arraystack.scipy.special` holds the special functions,
`arraystack.scipy.stats` the probability distributions and `arraystack.scipy.linalg` scipy.linalg's
common functions; SciPy's own ufuncs applied to arraystack arrays run eagerly on their NumPy buffers,
and name this module under `jit`."""

from arraystack.scipy import linalg, special, stats

__all__ = ["linalg", "special", "stats"]
