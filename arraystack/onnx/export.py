"""arraystack.onnx.export: trace a function, run the optimizer passes that keep its meaning, and write
every equation as ONNX nodes (lowering.py), checked with onnx.checker before it is returned."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from arraystack.ir import tree
from arraystack.onnx.errors import ExportError
from arraystack.onnx.versions import IR_VERSION, OPSET

# The optimizer passes an export runs: each rewrites the graph without changing what it computes.
# fuse_elementwise is left out (ONNX has no fused regions; runtimes fuse on their own).
EXPORT_PASSES = (
    "optimize_subgraphs",
    "simplify",
    "fold_constants",
    "eliminate_common_subexpressions",
    "eliminate_dead_code",
)


def export(
    f: Callable[..., Any],
    *example_args: Any,
    dynamic_axes: Mapping[str, Any] | None = None,
    path: str | None = None,
    input_names: Sequence[str] | None = None,
    output_names: Sequence[str] | None = None,
    optimize: bool = True,
) -> Any:
    """Trace `f` on example arguments and return it as an ONNX model.

    Parameters
    ----------
    f : callable
        A function of arrays (or pytrees of arrays) returning an array or a pytree of arrays, written
        with arraystack's functions, as for `arraystack.jit`.
    *example_args : array_like or pytree
        Arguments with the shapes and dtypes of the model's inputs; their values are not used.
        Arrays that `f` reads from elsewhere (globals, closures: weights) become the model's
        initializers.
    dynamic_axes : dict, optional
        Input name -> {axis: dimension name} (or a list of axes, named ``"<input>_<axis>"``): axes
        whose size may differ at run time. Sizes that follow them (a reshape, a mean's count) are
        computed from the input's shape in the model, and outputs carry the names.
    path : str or os.PathLike, optional
        Where to write the model as well.
    input_names, output_names : sequence of str, optional
        Names of the flattened inputs and outputs; by default the parameter names of `f` (with
        ``_<k>`` for the leaves of a pytree argument) and ``output_<k>``.
    optimize : bool, optional
        Run the optimizer passes that keep the meaning (`EXPORT_PASSES`) first (default True).

    Returns
    -------
    onnx.ModelProto
        The model, at opset `arraystack.onnx.OPSET` and IR version `arraystack.onnx.IR_VERSION`,
        which passes ``onnx.checker.check_model(model, full_check=True)``.

    Raises
    ------
    ExportError
        A traced operation has no ONNX counterpart; the message names the primitive, its operands
        and the line of `f` that produced it.
    ValueError
        Names or dynamic axes that do not fit the example arguments.

    See Also
    --------
    torch.onnx.export : the PyTorch relative.
    arraystack.onnx.load : the way back.

    Examples
    --------
    >>> import numpy
    >>> import arraystack as np
    >>> w = numpy.ones((3, 2), numpy.float32)
    >>> model = np.onnx.export(lambda x: np.tanh(x @ w), numpy.ones((4, 3), numpy.float32),
    ...                        dynamic_axes={"x": {0: "batch"}})
    >>> [d.dim_param or d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    ['batch', 3]
    """
    import onnx
    from onnx import helper

    from arraystack._transforms.jit import JitFunction
    from arraystack.onnx.builder import Builder, Names
    from arraystack.onnx.dims import plan_dims
    from arraystack.onnx.lowering import lower_into

    jf = JitFunction(f)
    leaves = tree.flatten(list(example_args))[0]
    in_names = _input_names(f, example_args, input_names, len(leaves))
    axes, uses = _dynamic_axes(dynamic_axes, in_names, leaves)
    traces = [_trace(jf, example_args, optimize)]
    for axis in axes:
        traces.append(_trace(jf, _grown(example_args, uses, {axis.name: axis.grown}), optimize))
    if axes:
        everything = {axis.name: axis.grown_all for axis in axes}
        traces.append(_trace(jf, _grown(example_args, uses, everything), optimize))
    graph, consts, _ = traces[0]
    plan = plan_dims([t[0] for t in traces], axes) if axes else None
    n_out = len(graph.outputs)
    out_names = (
        list(output_names) if output_names is not None else [f"output_{k}" for k in range(n_out)]
    )
    if len(out_names) != n_out:
        raise ValueError(f"output_names has {len(out_names)} names for {n_out} outputs")
    const_names = [f"const_{k}" for k in range(len(consts))]
    names = Names(in_names + out_names + const_names)
    b = Builder(names, plan)
    for axis_name, (k, axis) in _first_use(uses).items():
        b.dim_values[axis_name] = b.op("Shape", [in_names[k]], start=axis, end=axis + 1)
    results = lower_into(b, graph, in_names + const_names)
    for name, out in zip(out_names, results):
        b.nodes.append(helper.make_node("Identity", [out], [name], name=names.fresh("Output")))
    dims_of = _symbolic_shapes([t[0] for t in traces], axes)
    inputs = [
        _value_info(helper, name, v.aval, _input_dims(uses, k, v.aval.shape))
        for k, (name, v) in enumerate(zip(in_names, graph.inputs))
    ]
    outputs = [
        _value_info(helper, name, x.aval, dims_of[k])
        for k, (name, x) in enumerate(zip(out_names, graph.outputs))
    ]
    initializers = [
        onnx.numpy_helper.from_array(np.ascontiguousarray(np.asarray(c)), name)
        for name, c in zip(const_names, consts)
    ]
    model_graph = helper.make_graph(b.nodes, "arraystack", inputs, outputs, initializers)
    model = helper.make_model(
        model_graph,
        opset_imports=[helper.make_opsetid("", OPSET)],
        ir_version=IR_VERSION,
        producer_name="arraystack",
    )
    onnx.checker.check_model(model, full_check=True)
    if path is not None:
        onnx.save(model, path)
    return model


def _trace(jf, args, optimize):
    from arraystack.ir.passes import run_pipeline

    graph, consts, out_tree = jf._trace(args, {})
    if optimize:
        graph = run_pipeline(graph, EXPORT_PASSES)
    return graph, consts, out_tree


def _grown(example_args, uses, sizes) -> tuple:
    """Example arguments with the named axes at new sizes (zeros: the values are never read)."""
    changes = {}
    for name, places in uses.items():
        if name in sizes:
            for k, axis in places:
                changes.setdefault(k, {})[axis] = sizes[name]
    leaves, treedef = tree.flatten(list(example_args))
    new = []
    for k, leaf in enumerate(leaves):
        if k in changes:
            shape = list(np.shape(leaf))
            for axis, size in changes[k].items():
                shape[axis] = size
            leaf = np.zeros(shape, np.asarray(leaf).dtype)
        new.append(leaf)
    return tuple(tree.unflatten(treedef, new))


def _first_use(uses) -> dict:
    return {name: places[0] for name, places in uses.items()}


def _input_names(f, example_args, input_names, count) -> list:
    if input_names is not None:
        names = list(input_names)
        if len(names) != count or len(set(names)) != count:
            raise ValueError(
                f"input_names needs {count} distinct names (the flattened inputs), got {names}"
            )
        return names
    try:
        params = list(inspect.signature(f).parameters)
    except (TypeError, ValueError):
        params = []
    names = []
    for i, arg in enumerate(example_args):
        base = params[i] if i < len(params) else f"input_{i}"
        n = len(tree.flatten(arg)[0])
        names += [base] if n == 1 else [f"{base}_{j}" for j in range(n)]
    return names


def _dynamic_axes(dynamic_axes, in_names, leaves):
    """The Axis of each dimension name, and per name the (input index, axis) pairs it names."""
    from arraystack.onnx.dims import Axis

    uses: dict = {}
    for input_name, spec in (dynamic_axes or {}).items():
        if input_name not in in_names:
            raise ValueError(f"dynamic_axes names input {input_name!r}; the inputs are {in_names}")
        k = in_names.index(input_name)
        rank = np.ndim(leaves[k])
        spec = spec if isinstance(spec, Mapping) else {a: f"{input_name}_{a}" for a in spec}
        for axis, dim_name in spec.items():
            if not -rank <= int(axis) < rank:
                raise ValueError(f"dynamic axis {axis} of input {input_name!r} of rank {rank}")
            uses.setdefault(str(dim_name), []).append((k, int(axis) % rank))
    axes = []
    for name, places in uses.items():
        sizes = {np.shape(leaves[k])[a] for k, a in places}
        if len(sizes) != 1:
            raise ValueError(
                f"dynamic axis {name!r} has different sizes in the example inputs: {sorted(sizes)}"
            )
        size = sizes.pop()
        axes.append(Axis(name, size, size + 3, size + 7))
    return axes, uses


def _input_dims(uses, k, shape) -> list:
    dims = list(shape)
    for name, places in uses.items():
        for j, axis in places:
            if j == k:
                dims[axis] = name
    return dims


def _symbolic_shapes(graphs, axes) -> list:
    from arraystack.onnx.dims import Dim, fit

    out = []
    for k, x in enumerate(graphs[0].outputs):
        dims = []
        for a, size in enumerate(x.aval.shape):
            found = fit([g.outputs[k].aval.shape[a] for g in graphs], axes) if axes else size
            dims.append(
                str(found)
                if isinstance(found, Dim)
                else (found if isinstance(found, int) else None)
            )
        out.append(dims)
    return out


def _value_info(helper, name, aval, dims):
    if aval.dtype.kind == "c":
        raise ExportError(
            f"ONNX export of {name} of dtype {aval.dtype}: ONNX runtimes have no complex tensors"
        )
    elem = helper.np_dtype_to_tensor_dtype(aval.dtype)
    return helper.make_tensor_value_info(name, elem, dims)


__all__ = ["EXPORT_PASSES", "export"]
