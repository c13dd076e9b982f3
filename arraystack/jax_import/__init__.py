"""arraystack.jax_import: JAX programs in. `from_jax(fn)` traces a JAX function to a jaxpr and runs
its equations with arraystack's primitives, so arraystack's jit, grad and vmap apply to it.

convert.py holds from_jax, interpreter.py runs a jaxpr through the conversion rules, one module per
family of lax primitives holds a table of them (rules_math, rules_structural, rules_indexing,
rules_control), and coverage.py lists every lax primitive that is not converted, with the reason.
JAX is an optional dependency, imported when `from_jax` is called.
"""

from arraystack.jax_import.convert import from_jax
from arraystack.jax_import.coverage import coverage_table
from arraystack.jax_import.interpreter import JaxConversionError, UnsupportedPrimitiveError

__all__ = ["JaxConversionError", "UnsupportedPrimitiveError", "coverage_table", "from_jax"]
