"""Conversion rules of the primitives that hold sub-jaxprs, and of JAX's PRNG (convention:
interpreter.py).

Calls (`jit`, `custom_jvp_call`, `custom_vjp_call`) run their primal body inline: arraystack derives
their derivatives itself. `cond`, `while` and `scan` become arraystack.switch, while_loop and scan
over bodies that run the sub-jaxprs, so compiled programs keep their loops; `remat` becomes
arraystack.checkpoint. PRNG keys are their uint32 key data; `random_seed`/`random_bits`/
`random_split`/`random_fold_in` run the jaxpr of the key implementation's own function (for
threefry: lax operations and `threefry2x32`, converted here too), so the bits equal JAX's.
"""

from __future__ import annotations

import functools

import numpy

from arraystack.ir import primitives as p
from arraystack.ir.core import bind
from arraystack.jax_import.interpreter import JaxConversionError, constant, run_jaxpr
from arraystack.jax_import.rules_math import const, convert
from arraystack.jax_import.rules_structural import broadcast, reshape

control_rules: dict = {}


def _raw_list(values) -> list:
    from arraystack._core.array import ndarray, raw

    return [raw(v) if isinstance(v, ndarray) else v for v in values]


def _call(param):
    def rule(site, *operands, **params):
        body = params[param]
        label = f"[name={params['name']}]" if "name" in params else " body"
        return site.run(body, operands, label)

    return rule


control_rules["jit"] = _call("jaxpr")
control_rules["closed_call"] = _call("call_jaxpr")
control_rules["call"] = _call("call_jaxpr")
control_rules["custom_jvp_call"] = _call("call_jaxpr")
control_rules["custom_vjp_call"] = _call("call_jaxpr")
control_rules["custom_jvp_call_jaxpr"] = _call("fun_jaxpr")  # the name of older JAX versions


def _remat(site, *operands, jaxpr, **params):
    import arraystack

    def body(*args):
        return site.run(jaxpr, _raw_list(args), " body")

    return _raw_list(arraystack.checkpoint(body)(*operands))


control_rules["remat2"] = _remat


def _cond(site, index, *operands, branches, **params):
    import arraystack

    def branch(k):
        return lambda *args: site.run(branches[k], _raw_list(args), f" branch {k}")

    index = convert(index, numpy.int32)
    return _raw_list(arraystack.switch(index, [branch(k) for k in range(len(branches))], *operands))


control_rules["cond"] = _cond


def _while(site, *operands, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts, **params):
    import arraystack
    from arraystack._core.array import raw, wrap

    cond_consts = list(operands[:cond_nconsts])
    body_consts = list(operands[cond_nconsts : cond_nconsts + body_nconsts])
    init = list(operands[cond_nconsts + body_nconsts :])

    def predicate(carry):
        return site.run(cond_jaxpr, cond_consts + _raw_list(carry), " cond")[0]

    if not cond_jaxpr.out_avals[0].shape:

        def keep_going(carry):
            return predicate(carry)

        def step(carry):
            return site.run(body_jaxpr, body_consts + _raw_list(carry), " body")

        return _raw_list(arraystack.while_loop(keep_going, step, init))

    # A batched predicate (a vmapped while_loop): as XLA's lowering runs it, the loop goes on while
    # any element's does, and each step keeps the carries of the elements whose predicate is false
    # (the predicate's shape leads each carry's).
    def keep_going(carry):
        return arraystack.any(wrap(predicate(carry)))

    def step(carry):
        going = wrap(predicate(carry))
        new = site.run(body_jaxpr, body_consts + _raw_list(carry), " body")
        kept = []
        for updated, old in zip(new, carry):
            mask = going.reshape(going.shape + (1,) * (wrap(updated).ndim - going.ndim))
            kept.append(raw(arraystack.where(mask, wrap(updated), old)))
        return kept

    return _raw_list(arraystack.while_loop(keep_going, step, [wrap(v) for v in init]))


control_rules["while"] = _while


def _scan(site, *operands, jaxpr, num_consts, num_carry, length, reverse=False, unroll=1, **params):
    import arraystack

    consts = list(operands[:num_consts])
    init = list(operands[num_consts : num_consts + num_carry])
    xs = list(operands[num_consts + num_carry :])

    def step(carry, x):
        out = site.run(jaxpr, consts + _raw_list(carry) + _raw_list(x), " body")
        return out[:num_carry], out[num_carry:]

    # unroll: JAX's iterations per loop iteration (an int >= 1 in a jaxpr), kept
    carry, ys = arraystack.scan(step, init, xs, length, bool(reverse), unroll)
    return _raw_list(carry) + _raw_list(ys)


control_rules["scan"] = _scan

# -- PRNG -------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _impl_jaxpr(kind, impl, shapes, params):
    """The closed jaxpr of the key implementation's function `kind` on operands of `shapes`
    ((shape, dtype) pairs, keys as their key data)."""
    import jax
    from jax._src.random import prng

    kwargs = dict(params)
    functions = {
        "seed": lambda seeds: prng.random_seed_impl_base(seeds, impl=impl),
        "bits": lambda keys: prng.random_bits_impl_base(impl, keys, **kwargs),
        "split": lambda keys: prng.random_split_impl_base(impl, keys, **kwargs),
        "fold_in": lambda keys, msgs: prng.random_fold_in_impl_base(impl, keys, msgs, **kwargs),
    }
    args = [jax.ShapeDtypeStruct(shape, numpy.dtype(dtype)) for shape, dtype in shapes]
    return jax.make_jaxpr(functions[kind])(*args)


def _run_impl(site, kind, impl, operands, **params):
    shapes = tuple((tuple(x.shape), numpy.dtype(x.dtype).name) for x in operands)
    closed = _impl_jaxpr(kind, impl, shapes, tuple(sorted(params.items())))
    path = site.path + [f"equation {site.index} {site.name} (the {impl} key implementation)"]
    outs = run_jaxpr(closed.jaxpr, [constant(c) for c in closed.consts], list(operands), path)
    return outs[0]


def _key_impl(site, position=0):
    return site.eqn.invars[position].aval.dtype._impl


def _keys_ndim(site):
    return len(site.eqn.invars[0].aval.shape)


control_rules["random_seed"] = lambda site, seeds, *, impl, **params: _run_impl(
    site, "seed", impl, [seeds]
)
control_rules["random_bits"] = lambda site, keys, *, bit_width, shape, **params: _run_impl(
    site, "bits", _key_impl(site), [keys], keys_ndim=_keys_ndim(site), bit_width=bit_width,
    shape=tuple(shape),
)  # fmt: skip
control_rules["random_split"] = lambda site, keys, *, shape, **params: _run_impl(
    site, "split", _key_impl(site), [keys], keys_ndim=_keys_ndim(site), shape=tuple(shape)
)
control_rules["random_fold_in"] = lambda site, keys, msgs, **params: _run_impl(
    site, "fold_in", _key_impl(site), [keys, msgs], keys_shape=tuple(site.eqn.invars[0].aval.shape)
)
control_rules["random_wrap"] = lambda site, data, **params: data
control_rules["random_unwrap"] = lambda site, keys, **params: keys

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_U32 = numpy.dtype(numpy.uint32)


def _rotate_left(x, d):
    left = bind(p.shift_left_p, x, const(d, _U32))
    return bind(p.or_p, left, bind(p.shift_right_p, x, const(32 - d, _U32)))


def _threefry2x32(site, key1, key2, x1, x2, **params):
    """Threefry-2x32 with 20 rounds, as jax.random's threefry2x32 computes it (uint32 arithmetic
    wraps modulo 2**32, in NumPy as in XLA)."""
    shape = tuple(site.out_avals[0].shape)
    key1, key2, x1, x2 = (_broadcast_to(v, shape) for v in (key1, key2, x1, x2))
    add, xor = (lambda a, b: bind(p.add_p, a, b)), (lambda a, b: bind(p.xor_p, a, b))
    ks = [key1, key2, xor(xor(key1, key2), const(0x1BD11BDA, _U32))]
    x = [add(x1, ks[0]), add(x2, ks[1])]
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            x0 = add(x[0], x[1])
            x = [x0, xor(x0, _rotate_left(x[1], r))]
        x = [add(x[0], ks[(i + 1) % 3]), add(add(x[1], ks[(i + 2) % 3]), const(i + 1, _U32))]
    return x


def _broadcast_to(x, shape):
    if tuple(x.shape) == shape:
        return x
    if len(x.shape) == 0:
        return broadcast(x, shape, ())
    return broadcast(x, shape, range(len(shape)))


control_rules["threefry2x32"] = _threefry2x32


def _iota_2x32_shape(site, *, shape, **params):
    shape = tuple(shape)
    size = int(numpy.prod(shape))
    if size >= 2**32:
        raise site.error(f"{size} counters do not fit 32 bits", JaxConversionError)
    # counts < 2**32: the high words are 0 and the low words a row-major uint32 iota
    low = reshape(bind(p.iota_p, dtype=_U32, shape=(size,), dimension=0), shape)
    return broadcast(const(0, _U32), shape, ()), low


control_rules["iota_2x32_shape"] = _iota_2x32_shape


def _custom_linear_solve(site, *operands, const_lengths, jaxprs, **params):
    """x = solve(b) with lax's derivatives of a linear solve, not those of the `solve` jaxpr (which may
    stop gradients, as jnp.linalg.solve's LU factors do, or iterate, as cg does): the tangent of x is
    solve(b' - matvec'(x)), matvec differentiated in its constants; the solve's cotangent map is the
    `transpose_solve` jaxpr (the solve itself when lax was told the operator is symmetric)."""
    import arraystack
    from arraystack._core.array import raw, wrap

    names = ["matvec", "vecmat", "solve", "transpose_solve"]
    groups, start = {}, 0
    for name in names:
        count = getattr(const_lengths, name)
        groups[name] = list(operands[start : start + count])
        start += count
    b = list(operands[start:])
    transpose_jaxpr = jaxprs.transpose_solve
    if transpose_jaxpr is None and params.get("symmetric"):
        transpose_jaxpr, groups["transpose_solve"] = jaxprs.solve, groups["solve"]

    def run(jaxpr, consts, args, label):
        values = [raw(c) for c in list(consts) + list(args)]
        return [wrap(v) for v in site.run(jaxpr, values, label)]

    # every traced value is an argument of the custom functions (their rules run below the trace)
    @arraystack.custom_vjp
    def linear_solve(solve_consts, transpose_consts, rhs):
        return run(jaxprs.solve, solve_consts, rhs, " solve")

    def linear_solve_fwd(solve_consts, transpose_consts, rhs):
        return linear_solve(solve_consts, transpose_consts, rhs), transpose_consts

    def linear_solve_bwd(transpose_consts, ct):
        if transpose_jaxpr is None:
            raise site.error("reverse mode needs the solve's transpose (transpose_solve)")
        back = run(transpose_jaxpr, transpose_consts, ct, " transpose_solve")
        return None, None, back

    linear_solve.defvjp(linear_solve_fwd, linear_solve_bwd)
    floats = [k for k, c in enumerate(groups["matvec"]) if numpy.dtype(c.dtype).kind in "fc"]

    @arraystack.custom_jvp
    def solved(matvec_consts, solve_consts, transpose_consts, rhs):
        return linear_solve(solve_consts, transpose_consts, rhs)

    @solved.defjvp
    def solved_jvp(primals, tangents):
        consts, solve_consts, transpose_consts, rhs = primals
        d_consts, d_rhs = tangents[0], tangents[3]
        x = solved(consts, solve_consts, transpose_consts, rhs)
        moved = [0] * len(x)
        if floats:

            def matvec(*chosen):
                given = list(consts)
                for k, c in zip(floats, chosen):
                    given[k] = c
                return run(jaxprs.matvec, given, x, " matvec")

            chosen = tuple(consts[k] for k in floats)
            _, moved = arraystack.jvp(matvec, chosen, tuple(d_consts[k] for k in floats))
        rhs_dot = [db - m for db, m in zip(d_rhs, moved)]
        return x, linear_solve(solve_consts, transpose_consts, rhs_dot)

    parts = [groups["matvec"], groups["solve"], groups["transpose_solve"], b]
    out = solved(*[[wrap(v) for v in part] for part in parts])
    return [raw(v) for v in out]


control_rules["custom_linear_solve"] = _custom_linear_solve
control_rules["composite"] = _call("jaxpr")  # its decomposition


# Rules for structural primitives whose operands are PRNG keys: the key data has the key shape as
# trailing axes, which the rule carries along (same convention; the interpreter picks these).
def _key_trailing(site) -> int:
    return len(site.eqn.invars[0].aval.dtype._impl.key_shape)


def _key_physical_shape(site):
    aval = site.out_avals[0]
    return tuple(aval.shape) + tuple(aval.dtype._impl.key_shape)


def _key_reshape(site, x, *rest, **params):
    return reshape(x, _key_physical_shape(site))


def _key_broadcast(site, x, *rest, shape, broadcast_dimensions, **params):
    extra = _key_trailing(site)
    rank = len(shape)
    dims = tuple(broadcast_dimensions) + tuple(range(rank, rank + extra))
    return broadcast(x, _key_physical_shape(site), dims)


def _key_transpose(site, x, *, permutation, **params):
    from arraystack.jax_import.rules_structural import transpose

    rank = len(permutation)
    return transpose(x, tuple(permutation) + tuple(range(rank, rank + _key_trailing(site))))


def _key_slice(site, x, *, start_indices, limit_indices, strides=None, **params):
    from arraystack.ir.structural import slice_p

    extra = tuple(x.shape[len(start_indices) :])
    strides = tuple(strides) if strides is not None else (1,) * len(start_indices)
    return bind(
        slice_p,
        x,
        start_indices=tuple(start_indices) + (0,) * len(extra),
        limit_indices=tuple(limit_indices) + extra,
        strides=strides + (1,) * len(extra),
    )


def _key_same_axes(prim_name):
    def rule(site, *xs, **params):
        from arraystack.ir import structural

        if prim_name == "concatenate":
            return bind(structural.concatenate_p, *xs, dimension=params["dimension"])
        return bind(structural.rev_p, xs[0], dimensions=tuple(params["dimensions"]))

    return rule


def _key_select_n(site, which, *cases, **params):
    from arraystack.jax_import.rules_math import math_rules

    shape = _key_physical_shape(site)
    if which.shape != ():
        which = broadcast(which, shape, range(len(which.shape)))
    return math_rules["select_n"](site, which, *cases)


key_rules: dict = {
    "reshape": _key_reshape,
    "squeeze": _key_reshape,
    "broadcast_in_dim": _key_broadcast,
    "transpose": _key_transpose,
    "slice": _key_slice,
    "concatenate": _key_same_axes("concatenate"),
    "rev": _key_same_axes("rev"),
    "select_n": _key_select_n,
}
