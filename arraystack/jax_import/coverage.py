"""Which lax primitives from_jax converts: every one without a rule is listed in UNSUPPORTED with the
reason a user sees in the error, and `coverage_table()` writes both as the table of the guide page
(docs/guide/from_jax.md; a test keeps the page, this module and the rule tables in agreement).
"""

from __future__ import annotations

_COLLECTIVE = (
    "a collective over named mesh axes (pmap, shard_map); a converted program runs on one device"
)
_LINALG = (
    "a lax.linalg factorization whose output conventions (pivots, Householder form, ordering) "
    "are not mapped onto arraystack's NumPy-style linalg primitives yet"
)
_INTERNAL = (
    "internal to JAX's own lowering or transformations; it does not appear in a traced program"
)
_SHAPE_POLY = (
    "a symbolic-dimension comparison (shape polymorphism); from_jax traces at concrete shapes"
)
_JAX_AD = (
    "appears only in JAX's own derivatives (of max pooling); arraystack differentiates the primal "
    "program itself"
)
_CALLBACK = "runs Python on the host inside the program; arraystack programs have no host callbacks"
_REF = "a mutable array reference (jax.new_ref); converted programs are pure"
_TOKEN = "an ordering token of side effects; converted programs are pure"
_XLA_RNG = (
    "XLA's stateful random bit generators (lax.rng_*); jax.random's threefry keys are converted"
)

UNSUPPORTED: dict = {
    "after_all": _TOKEN,
    "create_token": _TOKEN,
    "approx_top_k": "approximate top-k (a TPU algorithm); use lax.top_k",
    "cholesky_update": _LINALG,
    "eig": _LINALG,
    "geqp3": _LINALG,
    "geqrf": _LINALG,
    "hessenberg": _LINALG,
    "householder_product": _LINALG,
    "lu_pivots_to_permutation": _LINALG,
    "ormqr": _LINALG,
    "schur": _LINALG,
    "symmetric_product": _LINALG,
    "tridiagonal": _LINALG,
    "tridiagonal_solve": _LINALG,
    "reduce_window": "a window reduction with a body other than add, max or min "
    "(reduce_window_sum/max/min are converted)",
    "reduce_precision": "rounding to a narrower float format (bfloat16/fp8 emulation) has no "
    "arraystack primitive",
    "ragged_dot_general": "ragged (grouped) contractions have no arraystack primitive",
    "rng_bit_generator": _XLA_RNG,
    "rng_uniform": _XLA_RNG,
    "select_and_gather_add": _JAX_AD,
    "select_and_scatter": _JAX_AD,
    "select_and_scatter_add": _JAX_AD,
    "eq_to": _SHAPE_POLY,
    "le_to": _SHAPE_POLY,
    "lt_to": _SHAPE_POLY,
    "from_edtype": "extended dtypes other than PRNG keys",
    "to_edtype": "extended dtypes other than PRNG keys",
    "pure_callback": _CALLBACK,
    "io_callback": _CALLBACK,
    "debug_callback": _CALLBACK,
    "debug_print": _CALLBACK,
    "check": "a checkify check raises from inside the program; converted programs do not raise",
    "inspect_sharding": "reports shardings of a multi-device program",
    "shard_map": _COLLECTIVE,
    "pvary": _COLLECTIVE,
    "reduced_vary_cast_p": _COLLECTIVE,
    "accum_grad_in_ref": _REF,
    "empty_ref": _REF,
    "free_ref": _REF,
    "freeze": _REF,
    "new_ref": _REF,
    "custom_lin": _INTERNAL,
    "call_hi_primitive": _INTERNAL,
    "dce_sink": _INTERNAL,
    "empty": _INTERNAL,
    "empty2": _INTERNAL,
    "eval_jaxpr": _INTERNAL,
    "linear_call": _INTERNAL,
    "remat_opt": _INTERNAL,
    "stage": _INTERNAL,
    "tie": _INTERNAL,
    "unreachable": _INTERNAL,
}
for _name in (
    "all_gather",
    "all_gather_done",
    "all_gather_invariant",
    "all_gather_reduced",
    "all_gather_reduced_start",
    "all_gather_start",
    "all_to_all",
    "all_to_all_done",
    "all_to_all_start",
    "axis_index",
    "pbroadcast",
    "pbroadcast_done",
    "pbroadcast_start",
    "pmax",
    "pmin",
    "ppermute",
    "ppermute_done",
    "ppermute_start",
    "precv",
    "preduced",
    "psend",
    "psum",
    "psum_done",
    "psum_invariant",
    "psum_invariant_start",
    "psum_start",
    "ragged_all_to_all",
    "reduce_scatter",
    "reduce_scatter_done",
    "reduce_scatter_start",
    "unreduced_psum",
    "unreduced_psum_start",
    "unreduced_reduce_scatter",
    "unreduced_reduce_scatter_start",
    "vary_unreduced_cast_p",
):
    UNSUPPORTED[_name] = _COLLECTIVE

# Converted, with a restriction the rule raises JaxConversionError for (shown in the table).
PARTIAL: dict = {
    "conv_general_dilated": "batch_group_count 1 and non-negative padding",
    "mulhi": "8-, 16- and 32-bit integers",
    "reduce": "one operand, a body of one add, mul, max, min (and, or on booleans)",
    "reduce_and": "booleans",
    "reduce_or": "booleans",
    "reduce_xor": "booleans",
    "iota_2x32_shape": "fewer than 2**32 counters",
}


def coverage_table() -> str:
    """The coverage of lax primitives as a Markdown table (the guide page's), sorted by name.

    Returns
    -------
    str
        One row per primitive: its name, whether from_jax converts it, and the reason or restriction.

    See Also
    --------
    arraystack.from_jax : the converter the table describes.
    """
    from arraystack.jax_import.interpreter import conversion_rules

    jax_rules = conversion_rules()
    names = sorted(set(jax_rules) | set(UNSUPPORTED))
    converted = sum(1 for n in names if n in jax_rules)
    lines = [
        f"{converted} of {len(names)} primitives are converted.",
        "",
        "| primitive | converted | notes |",
        "| --- | --- | --- |",
    ]
    for name in names:
        if name in jax_rules:
            lines.append(f"| `{name}` | yes | {PARTIAL.get(name, '')} |")
        else:
            lines.append(f"| `{name}` | no | {UNSUPPORTED[name]} |")
    return "\n".join(lines) + "\n"
