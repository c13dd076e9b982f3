"""CUDA graphs of compiled plans (arraystack.config.cuda_graphs, off by default).

A plan run on a device pays the host once per step: Python, cupy's argument packing and the driver's
launch, some 20-30 us per kernel or cuBLAS call, so a training step of a dozen small steps costs the host
far more than the device. With cuda_graphs on, the second call of a plan with arguments of the same
shapes and dtypes, on the same device and stream, captures the whole run into a CUDA graph (cupy's stream
capture), and every later call replays it: the arguments are copied into the graph's own input buffers,
the graph is launched once, and its outputs are copied into new arrays. The host then pays three launches:
the arguments' copies in one kernel, the graph, the outputs' copies in another (graph_copies.py).

Everything a replay writes (the input buffers, every intermediate, the outputs, memory cuBLAS asks for)
comes from a memory pool of the graph's own (a cupy.cuda.MemoryPool, the allocator while capturing), which
lives as long as the graph: no other array is ever given memory a replay writes, and the caller gets
copies, never the graph's buffers. A plan that cannot be captured (a step that waits for the device: a
host loop reading a device value, a copy to the host) raises inside the capture; the capture is ended, the
plan is marked, and it runs without a graph from then on. Graphs are not used while the profiler records
or when a memory limit is set for the device (both need the step-by-step run).
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict

GRAPHS_PER_PLAN = 4  # the latest argument layouts kept, each with its graph and memory


class Replays:
    """The graphs of one compiled plan; `__call__(buffers)` gives its outputs through a graph, or None
    when the caller runs the plan step by step instead."""

    def __init__(self, xp, run, copier):
        self.xp, self.run = xp, run  # run(buffers) -> outputs: the plan, step by step
        self.copier = copier  # graph_copies.Copier: the copies in and out, batched
        self.calls: dict = {}  # key -> calls seen without a graph
        self.graphs: OrderedDict = OrderedDict()
        self.broken = None  # why a capture failed; then no graph is tried again
        self.lock = threading.Lock()

    def __call__(self, buffers):
        if self.broken is not None:
            return None
        xp = self.xp
        if not all(isinstance(b, xp.ndarray) for b in buffers):
            return None
        stream = xp.cuda.get_current_stream()
        if stream.is_capturing():  # a plan run inside another's capture (a loop body) is part of it
            return None
        layout = tuple((b.shape, b.dtype.str) for b in buffers)
        key = (xp.cuda.runtime.getDevice(), stream.ptr, layout)
        with self.lock:
            graph = self.graphs.get(key)
            if graph is None:
                seen = self.calls.get(key, 0) + 1
                if seen < 2:  # the first call runs step by step (it loads the kernels)
                    if len(self.calls) > 64:
                        self.calls.clear()
                    self.calls[key] = seen
                    return None
                graph = self._capture(buffers, stream)
                if graph is None:
                    return None
                self.calls.pop(key, None)
                self.graphs[key] = graph
                while len(self.graphs) > GRAPHS_PER_PLAN:
                    self.graphs.popitem(last=False)
            else:
                self.graphs.move_to_end(key)
            return graph.replay(buffers, stream)

    def _capture(self, buffers, stream):
        try:
            return Captured(self.xp, self.run, buffers, stream, self.copier)
        except Exception as e:  # noqa: BLE001 - any step the capture cannot hold: step by step from now on
            self.broken = f"{type(e).__name__}: {e}"
            return None


class Captured:
    """One plan captured for one argument layout: its buffers, its memory pool and the graph."""

    def __init__(self, xp, run, buffers, stream, copier):
        self.xp, self.copier = xp, copier
        self.pool = xp.cuda.MemoryPool()
        with xp.cuda.using_allocator(self.pool.malloc):
            self.inputs = [xp.empty(b.shape, b.dtype) for b in buffers]
            self._copy_in(buffers, stream)  # the capture sees this call's values (nothing runs)
            capture = xp.cuda.Stream(non_blocking=True)  # the legacy default stream cannot capture
            capture.wait_event(stream.record())
            with capture:
                capture.begin_capture()
                try:
                    outputs = run(self.inputs)
                except BaseException:
                    # an invalidated capture ends with an error of its own; the first one is raised
                    with contextlib.suppress(Exception):
                        capture.end_capture()
                    raise
                self.graph = capture.end_capture()
        if not all(isinstance(o, xp.ndarray) for o in outputs):
            raise TypeError("the plan returns values that are not device arrays")
        self.outputs = list(outputs)

    def _copy_in(self, buffers, stream):
        copies = []
        for mine, given in zip(self.inputs, buffers):
            if not given.size:
                continue
            if given.flags.c_contiguous:
                copies.append((mine.data, given.data, given.nbytes))
            else:  # another layout: an elementwise copy into the graph's C-ordered buffer
                self.xp.copyto(mine, given)
        self.copier(copies, stream)

    def replay(self, buffers, stream):
        """Copy `buffers` in, launch the graph on `stream`, copy the outputs out (all in stream order;
        the copies of each direction batched into one launch, graph_copies.py)."""
        xp = self.xp
        self._copy_in(buffers, stream)
        self.graph.launch(stream)
        results, copies = [], []
        for out in self.outputs:
            if not out.flags.c_contiguous:  # a view in another layout: an elementwise copy keeps it
                results.append(out.copy(order="K"))
                continue
            result = xp.empty(out.shape, out.dtype)
            copies.append((result.data, out.data, out.nbytes))
            results.append(result)
        self.copier(copies, stream)
        return results
