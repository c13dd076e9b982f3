"""The pipeline (the pass manager): one ordered list of named Graph -> Graph passes, and the run loop around it.

PIPELINE is a plain list of (name, fn). The public API edits it in place: register_pass(name, fn, before=,
after=), remove_pass(name), passes() lists the names, and `with pipeline_scope():` restores the list on exit
(or `pipeline_scope([...])` runs a given list inside the block). `resolve_pipeline(spec)` turns the
`jit(f, passes=[...])` form (names of known passes and/or (name, fn) pairs) into a concrete tuple.

run_pipeline(graph, fusion=policy) hands fuse_elementwise a backend's FusionPolicy for the run (nested
runs on sub-graphs inherit it). run_pipeline() times each pass and counts its equations before and after,
plus any events the pass reports with count(); prints the IR after the passes named in ARRAYSTACK_DUMP
(comma separated, or "all"); verifies the graph after every pass when asked (verify=True, or
ARRAYSTACK_VERIFY_PASSES=1, which tests/conftest.py sets); and re-raises an exception from inside a pass as
PassError naming the pass and, when the pass said which equation it was working on (visit()), that
equation's index, primitive and source line.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time

from arraystack.ir.ir import Graph, typecheck
from arraystack.ir.passes.fusion_policy import FusionPolicy
from arraystack.ir.printer import print_graph

PIPELINE: list = []  # filled by arraystack.ir.passes with the built-in passes
_known: dict = {}  # every pass ever registered, by name: jit(f, passes=["name"]) finds removed ones too
generation = [0]  # bumped on every change of PIPELINE; jit's fast path keys on it


class PassError(Exception):
    """An exception raised inside an optimizer pass, re-raised with the pass's name and equation."""

    def __init__(self, message, pass_name=None, eqn_index=None, primitive=None, source=None):
        super().__init__(message)
        self.pass_name = pass_name
        self.eqn_index = eqn_index
        self.primitive = primitive
        self.source = source


class PassReport:
    """Per-pass wall time, equation counts and event counts (e.g. which rewrites fired) of one run."""

    def __init__(self):
        self.rows: list[tuple[str, float, int, int]] = []
        self.counts: dict[str, dict[str, int]] = {}  # pass name -> event -> times

    def add(self, name, seconds, eqns_before, eqns_after, counts=None):
        self.rows.append((name, seconds, eqns_before, eqns_after))
        if counts:
            mine = self.counts.setdefault(name, {})
            for k, n in counts.items():
                mine[k] = mine.get(k, 0) + n

    def total_seconds(self) -> float:
        return sum(row[1] for row in self.rows)

    def __str__(self):
        lines = [f"{'pass':36s} {'ms':>8s} {'eqns':>11s}  events"]
        for name, seconds, before, after in self.rows:
            events = ", ".join(f"{k} x{n}" for k, n in sorted(self.counts.get(name, {}).items()))
            lines.append(
                f"{name:36s} {seconds * 1e3:8.3f} {before:5d}->{after:<5d}  {events}".rstrip()
            )
        return "\n".join(lines)

    __repr__ = __str__


class _State(threading.local):
    def __init__(self):
        self.pipeline = None  # the pipeline being run and the index of the running pass
        self.index = 0
        self.verify = False
        self.eqn = None  # (index, eqn) the running pass said it is working on
        self.counts = None
        self.fusion = None  # the FusionPolicy of the run (fusion_policy.py); None: fuse's default


_state = _State()


def visit(index, eqn):
    """Passes call this with the equation at hand so that an exception names the equation it happened
    at: before working on it, or, as the built-in passes do (it costs nothing until something fails), in an
    `except` clause that re-raises."""
    _state.eqn = (index, eqn)


def count(event, n=1):
    """Record that `event` happened n times in the running pass (shown in the PassReport)."""
    counts = _state.counts
    if counts is not None:
        counts[event] = counts.get(event, 0) + n


def running_fusion_policy():
    """The FusionPolicy the running pipeline was given (a nested run inherits it), or None."""
    return _state.fusion


def rest_of_pipeline():
    """The passes after the running one (optimize_subgraphs runs them on sub-graphs)."""
    if _state.pipeline is None:
        return []
    return list(_state.pipeline[_state.index + 1 :])


def _dump_names():
    value = os.environ.get("ARRAYSTACK_DUMP", "")
    return {n.strip() for n in value.split(",") if n.strip()}


def _verify_default():
    return os.environ.get("ARRAYSTACK_VERIFY_PASSES", "").strip().lower() not in (
        "",
        "0",
        "false",
        "no",
    )


def _where(eqn_at):
    if eqn_at is None:
        return "", {}
    index, eqn = eqn_at
    prim = getattr(getattr(eqn, "prim", None), "name", "?")
    source = getattr(eqn, "source", None)
    text = f" at equation #{index} ({prim}" + (f", from {source})" if source else ")")
    return text, {"eqn_index": index, "primitive": prim, "source": source}


def run_pipeline(
    graph: Graph, pipeline=None, verify=None, report: PassReport | None = None, fusion=None
):
    """Run `pipeline` (default: PIPELINE) on `graph`; see the module docstring. `fusion`: the
    FusionPolicy fuse_elementwise follows in this run (None: the enclosing run's, else GENERIC)."""
    pipeline = list(PIPELINE if pipeline is None else resolve_pipeline(pipeline))
    verify = _verify_default() if verify is None else verify
    dump = _dump_names()
    saved = (_state.pipeline, _state.index, _state.verify, _state.eqn, _state.counts, _state.fusion)
    try:
        # a nested run (optimize_subgraphs) restores these before returning
        _state.pipeline, _state.verify = pipeline, verify
        if fusion is not None:
            if not isinstance(fusion, FusionPolicy):
                raise TypeError(
                    f"run_pipeline's fusion= takes a FusionPolicy, got {type(fusion).__name__}"
                )
            _state.fusion = fusion
        for i, (name, fn) in enumerate(pipeline):
            _state.index, _state.eqn = i, None
            counts = _state.counts = {}
            before = len(graph.eqns)
            start = time.perf_counter()
            try:
                graph = fn(graph)
            except (
                PassError
            ) as e:  # from a nested pipeline (a sub-graph): keep it, add where it was
                where, _ = _where(_state.eqn)
                raise PassError(
                    f"{e} (in a sub-graph, during pass {name!r}{where})",
                    e.pass_name,
                    e.eqn_index,
                    e.primitive,
                    e.source,
                ) from e
            except Exception as e:
                where, info = _where(_state.eqn)
                raise PassError(
                    f"optimizer pass {name!r} failed{where}: {type(e).__name__}: {e}", name, **info
                ) from e
            if not isinstance(graph, Graph):
                raise PassError(
                    f"optimizer pass {name!r} returned a {type(graph).__name__}, not a Graph", name
                )
            if report is not None:
                report.add(name, time.perf_counter() - start, before, len(graph.eqns), counts)
            if verify:
                try:
                    typecheck(graph)
                except Exception as e:
                    raise PassError(
                        f"the graph after pass {name!r} does not verify: {e}", name
                    ) from e
            if name in dump or "all" in dump:
                print(f"# IR after {name}\n{print_graph(graph)}", file=sys.stderr)
    finally:
        (
            _state.pipeline,
            _state.index,
            _state.verify,
            _state.eqn,
            _state.counts,
            _state.fusion,
        ) = saved
    return graph


# -- the public editing API ------------------------------------------------------------------------------------


def _position(name):
    for i, (n, _) in enumerate(PIPELINE):
        if n == name:
            return i
    raise KeyError(f"no optimizer pass named {name!r}; the pipeline is {passes()}")


def register_pass(name: str, fn, before: str | None = None, after: str | None = None):
    """Add the pass `fn` (Graph -> Graph) as `name`: before or after a named pass, else at the end."""
    if not callable(fn):
        raise TypeError(f"pass {name!r} must be a callable Graph -> Graph, got {type(fn).__name__}")
    if before is not None and after is not None:
        raise ValueError("give before= or after=, not both")
    if any(n == name for n, _ in PIPELINE):
        raise ValueError(f"a pass named {name!r} is already in the pipeline; remove_pass it first")
    if before is not None:
        where = _position(before)
    elif after is not None:
        where = _position(after) + 1
    else:
        where = len(PIPELINE)
    PIPELINE.insert(where, (name, fn))
    _known[name] = fn
    generation[0] += 1
    return fn


def remove_pass(name: str):
    """Take the pass `name` out of the pipeline; returns its function."""
    fn = PIPELINE.pop(_position(name))[1]
    generation[0] += 1
    return fn


def passes() -> list[str]:
    """The names of the pipeline's passes, in order."""
    return [n for n, _ in PIPELINE]


@contextlib.contextmanager
def pipeline_scope(pipeline=None):
    """Inside the block, edits to the pipeline (or the given list of passes) apply; on exit the previous
    pipeline is back. Yields the live pipeline list."""
    saved = list(PIPELINE)
    try:
        if pipeline is not None:
            PIPELINE[:] = resolve_pipeline(pipeline)
            generation[0] += 1
        yield PIPELINE
    finally:
        PIPELINE[:] = saved
        generation[0] += 1


def resolve_pipeline(spec) -> tuple:
    """A tuple of (name, fn) from a list of pass names and/or (name, fn) pairs."""
    if spec is None:
        return tuple(PIPELINE)
    out = []
    for item in spec:
        if isinstance(item, str):
            fn = dict(PIPELINE).get(item) or _known.get(item)
            if fn is None:
                raise KeyError(f"no optimizer pass named {item!r}; known: {sorted(_known)}")
            out.append((item, fn))
        elif (
            isinstance(item, tuple)
            and len(item) == 2
            and isinstance(item[0], str)
            and callable(item[1])
        ):
            out.append(item)
        else:
            raise TypeError(f"a pass is a name or a (name, fn) pair, got {item!r}")
    return tuple(out)
