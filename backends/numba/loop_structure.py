"""Compiled-loop lowerings of the equations that hold structure: scan, while and switch (nested loops and
branches are written out as Python loops and ifs inside the one numba function), and gather and scatter at
scalar indices (x[i], x.at[i].set(v), the way loop bodies index).

An index out of range raises inside the compiled loop; backends/numba/loops.py then runs the host loop,
which raises NumPy's error with its message (the compiled loop never writes its operands, so nothing is
left half done).
"""

from __future__ import annotations

from arraystack.backends.numba.codegen_widen import is_storage
from arraystack.backends.numba.loop_source import LOWERINGS, Unsupported, _shape_text, dtype_text
from arraystack.backends.updates import WRITES
from arraystack.ir.structural import RANGE_ERRORS

# Readers whose results never share their operand's memory: they may read a carry before it is written
_FRESH = frozenset({"gather", "fusion", "dot_general"})


def _owned_carries(src, body, first, ncarry, depth, ins):
    """The loop's carries, named, and the body's writes that may run in place (into src.in_place): a
    chain of writes from carry c (each into the last one's result) that ends in the body's carry c,
    where every other step reading a value of the chain copies it (a gather, a kernel, a product) and
    reads it before it is written. Such a carry is copied once before the loop, so the loop writes its
    own buffer, never its operands, and each write costs its window instead of a copy of the array."""
    readers: dict = {}
    for k, e in enumerate(body.eqns):
        for x in e.inputs:
            readers.setdefault(x, []).append(k)
    carry_of = {body.inputs[first + c]: c for c in range(ncarry)}  # a value in carry c's buffer
    chains: dict = {}  # carry -> [(write equation, its result)]
    for k, e in enumerate(body.eqns):
        x = e.inputs[0] if e.prim.name in WRITES and e.inputs else None
        c = carry_of.get(x)
        if c is None or x in e.inputs[1:] or x in body.outputs:
            continue
        if any(j > k or body.eqns[j].prim.name not in _FRESH for j in readers[x] if j != k):
            continue
        carry_of[e.outputs[0]] = c
        chains.setdefault(c, []).append((e, e.outputs[0]))
    owned = set()
    for c, writes in chains.items():
        last = writes[-1][1]
        if body.outputs[c] is not last or body.outputs.count(last) != 1:
            continue
        if any(body.eqns[j].prim.name not in _FRESH for j in readers.get(last, ())):
            continue
        src.in_place.update(id(e) for e, _ in writes)
        owned.add(c)
    return [src.assign(depth, f"{x}.copy()" if c in owned else x) for c, x in enumerate(ins)]


def _scan(src, eqn, ins, depth):
    p = eqn.params
    nconsts, ncarry, length = p["nconsts"], p["ncarry"], p["length"]
    body = p["body"]
    consts, xs = ins[:nconsts], ins[nconsts + ncarry :]
    carry = _owned_carries(src, body, nconsts, ncarry, depth, ins[nconsts : nconsts + ncarry])
    ys = []
    for y in body.out_avals[ncarry:]:
        shape = (length,) + tuple(y.shape)
        ys.append(src.assign(depth, f"np.empty({_shape_text(shape)}, {dtype_text(y.dtype)})"))
    it = src.fresh("i")
    steps = f"range({length} - 1, -1, -1)" if p["reverse"] else f"range({length})"
    src.emit(depth, f"for {it} in {steps}:")
    slices = []
    for x, var in zip(xs, body.inputs[nconsts + ncarry :]):
        index = f"{it}:{it} + 1" if not var.aval.shape else it
        slices.append(src.assign(depth + 1, f"{x}[{index}]"))
    outs = src.lower_graph(body, list(consts) + carry + slices, depth + 1)
    for y, value, aval in zip(ys, outs[ncarry:], body.out_avals[ncarry:]):
        src.emit(depth + 1, f"{y}[{it}] = {value}[0]" if not aval.shape else f"{y}[{it}] = {value}")
    _rebind(src, depth + 1, carry, outs[:ncarry])
    return carry + ys


def _while(src, eqn, ins, depth):
    p = eqn.params
    nc, nb = p["cond_nconsts"], p["body_nconsts"]
    cc, bc = ins[:nc], ins[nc : nc + nb]
    carry = _owned_carries(src, p["body"], nb, len(ins) - nc - nb, depth, ins[nc + nb :])
    src.emit(depth, "while True:")
    (go,) = src.lower_graph(p["cond"], list(cc) + carry, depth + 1)
    src.emit(depth + 1, f"if not {go}[0]:")
    src.emit(depth + 2, "break")
    outs = src.lower_graph(p["body"], list(bc) + carry, depth + 1)
    _rebind(src, depth + 1, carry, outs)
    return carry


def _switch(src, eqn, ins, depth):
    branches = eqn.params["branches"]
    index = src.assign(depth, f"min(max(np.int64({ins[0]}[0]), 0), {len(branches) - 1})")
    names = [src.fresh() for _ in eqn.outputs]
    for k, branch in enumerate(branches):
        head = "if" if k == 0 else "elif" if k < len(branches) - 1 else "else"
        src.emit(depth, f"{head} {index} == {k}:" if head != "else" else "else:")
        outs = src.lower_graph(branch, list(ins[1:]), depth + 1)
        for name, value in zip(names, outs):
            src.emit(depth + 1, f"{name} = {value}")
    return names


def _rebind(src, depth, names, values):
    if names:
        src.emit(depth, f"{', '.join(names)}, = {', '.join(values)},")


def _indices(src, eqn, x, index_names, depth) -> str:
    """The index text `i0, i1` of NumPy's x[i0, i1] under the equation's mode, after statements that
    check and normalize each index."""
    mode, axes = eqn.params["mode"], eqn.params.get("axes")
    nidx = len(index_names)
    if axes is not None and tuple(axes) != tuple(range(nidx)):
        raise Unsupported(f"{eqn.prim.name} along axes {tuple(axes)}")
    if any(v.aval.shape for v in eqn.inputs[-nidx:]):
        raise Unsupported(f"{eqn.prim.name} with index arrays (only scalar indices are compiled)")
    out = []
    for axis, name in enumerate(index_names):
        n = x.shape[axis]
        i = src.assign(depth, f"np.int64({name}[0])")
        if mode in RANGE_ERRORS:
            src.emit(depth, f"if {i} < 0 or {i} >= {n}:")
            src.emit(depth + 1, "raise ValueError('index out of range')")
        else:
            src.emit(depth, f"if {i} < 0:")
            src.emit(depth + 1, f"{i} += {n}")
            if mode == "clip":
                src.emit(depth, f"{i} = min(max({i}, 0), {max(n - 1, 0)})")
            else:
                src.emit(depth, f"if {i} < 0 or {i} >= {n}:")
                src.emit(depth + 1, "raise IndexError('index out of bounds')")
        out.append(i)
    return ", ".join(out)


def _gather(src, eqn, ins, depth):
    x = eqn.inputs[0].aval
    index = _indices(src, eqn, x, ins[1:], depth)
    if len(ins) - 1 == x.ndim:
        return src.assign(depth, f"np.full((1,), {ins[0]}[{index}], {dtype_text(x.dtype)})")
    return src.assign(depth, f"{ins[0]}[{index}].copy()")


_COMBINE = {
    "set": "{u}",
    "add": "{old} + {u}",
    "mul": "{old} * {u}",
    "min": "np.minimum({old}, {u})",
    "max": "np.maximum({old}, {u})",
}


def _scatter(src, eqn, ins, depth):
    x = eqn.inputs[0].aval
    if x.dtype.kind == "b" and eqn.params["update"] != "set":
        raise Unsupported("a boolean scatter-" + eqn.params["update"])
    if is_storage(x.dtype) and eqn.params["update"] != "set":
        raise Unsupported(
            f"a scatter-{eqn.params['update']} of {x.dtype.name} values outside a kernel"
        )
    index = _indices(src, eqn, x, ins[2:], depth)
    out = src.written(eqn, ins[0], depth)
    scalar = len(ins) - 2 == x.ndim
    u = f"{ins[1]}[0]" if scalar else ins[1]
    new = _COMBINE[eqn.params["update"]].format(old=f"{out}[{index}]", u=u)
    src.emit(depth, f"{out}[{index}] = {new}")
    return out


LOWERINGS.update(scan=_scan, **{"while": _while}, switch=_switch, gather=_gather, scatter=_scatter)
