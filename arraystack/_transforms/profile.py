"""arraystack.profile: a context manager recording what compiled code runs (backends/profiler.py) into a
Chrome/Perfetto trace (the Trace Event Format's complete events) and a text summary."""

from __future__ import annotations

import json
import os

from arraystack.backends import profiler


class Profile:
    """What ran while a `profile` block was open: one event per step of a compiled plan (a kernel, a
    reference step, a host loop, a transfer), per compile, in the Trace Event Format.

    Parameters
    ----------
    path : str or os.PathLike, optional
        Where to write the trace when the block ends; None writes nothing.

    Attributes
    ----------
    path : str or None
        Where the trace is written when the block ends.

    See Also
    --------
    profile : Make one (the usual way).
    """

    def __init__(self, path: str | os.PathLike | None = None) -> None:
        self.path = None if path is None else os.fspath(path)
        self._handle = None
        self._names = {}
        self._tids = {}  # trace tid -> thread name
        self._workers = {}  # pid of another process that reported work -> its label

    def __enter__(self):
        if self._handle is not None:
            raise RuntimeError(
                "this profile is already open; make a new arraystack.profile() for each block"
            )
        self._handle = profiler.open_profile()
        return self

    def __exit__(self, *exc):
        self._names = profiler.thread_names()  # before closing (the last close forgets them)
        profiler.close_profile(self._handle)
        if self.path is not None:
            self.save(self.path)
        return False

    @property
    def events(self) -> list:
        """The recorded complete events (dicts with name, cat, ph "X", ts and dur in microseconds from the
        block's start, pid, tid, args), in the order they ended."""
        if self._handle is None:
            return []
        origin = self._handle[1]
        names = self._names or profiler.thread_names()
        pid = os.getpid()
        tids = {}
        out = []
        for (name, category, args), start, stop, thread in profiler.events_of(self._handle):
            if isinstance(thread, tuple):  # work another process reported: its own pid
                event_pid, tid = thread[1] or pid, 1
                self._workers[event_pid] = thread[2]
            else:
                event_pid, tid = pid, tids.setdefault(thread, len(tids) + 1)
            out.append(
                {
                    "name": name,
                    "cat": category,
                    "ph": "X",
                    "ts": (start - origin) * 1e6,
                    "dur": max(stop - start, 0.0) * 1e6,
                    "pid": event_pid,
                    "tid": tid,
                    "args": dict(args),
                }
            )
        self._tids = {tid: names.get(thread, f"thread {thread}") for thread, tid in tids.items()}
        return out

    def trace(self) -> dict:
        """The trace as a Trace Event Format object: {"traceEvents": [...], "displayTimeUnit": "ms"},
        with metadata events naming the process and each thread."""
        events = self.events
        pid = os.getpid()
        meta = [
            {
                "name": "process_name",
                "ph": "M",
                "pid": pid,
                "tid": 0,
                "args": {"name": "arraystack"},
            }
        ]
        meta += [
            {"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": name}}
            for tid, name in self._tids.items()
        ]
        meta += [
            {"name": "process_name", "ph": "M", "pid": p, "tid": 0, "args": {"name": label}}
            for p, label in self._workers.items()
        ]
        return {"traceEvents": meta + events, "displayTimeUnit": "ms"}

    def save(self, path) -> None:
        """Write the trace as JSON to `path` (open it in https://ui.perfetto.dev or chrome://tracing).

        Parameters
        ----------
        path : str or os.PathLike
            The file to write.
        """
        with open(os.fspath(path), "w") as f:
            json.dump(self.trace(), f)

    def summary(self, top: int = 20) -> str:
        """A text table of the steps by total time: name, category, count, total and mean time, and the
        user's source line; compiles in a table of their own. Times are self times: an event's time
        leaves out the events that ran inside it (a host loop's body steps, numba's compile of a kernel
        on its first call), so the rows add up to the time recorded.

        Parameters
        ----------
        top : int
            The most rows of each table.

        Returns
        -------
        str
        """
        steps, compiles = {}, {}
        events = self.events
        for e, own in zip(events, _self_times(events)):
            table = compiles if e["cat"] == "compile" else steps
            key = (e["name"], e["cat"], e["args"].get("source") or "")
            row = table.setdefault(key, [0, 0.0])
            row[0] += 1
            row[1] += own
        lines = [_table("steps", steps, top)]
        lines.append(_table("compiles", compiles, top))
        return "\n".join(lines)

    def __repr__(self):
        state = "open" if self._handle is not None and self._handle[2] is None else "closed"
        return f"<arraystack.Profile {state}, {len(self.events)} events, path={self.path!r}>"


def _self_times(events) -> list:
    """Each event's microseconds less those of the events directly inside it (same process and thread,
    starting within its span): a host loop without its body's steps, a kernel's first call without
    numba's compile of it."""
    own = [e["dur"] for e in events]
    order = sorted(
        range(len(events)), key=lambda k: (events[k]["pid"], events[k]["tid"], events[k]["ts"])
    )
    stack = []  # enclosing events of the current one, innermost last
    for k in order:
        e = events[k]
        while stack and (
            (events[stack[-1]]["pid"], events[stack[-1]]["tid"]) != (e["pid"], e["tid"])
            or e["ts"] >= events[stack[-1]]["ts"] + events[stack[-1]]["dur"]
        ):
            stack.pop()
        if stack:
            own[stack[-1]] -= e["dur"]
        stack.append(k)
    return [max(t, 0.0) for t in own]


def _table(title, rows, top) -> str:
    total = sum(r[1] for r in rows.values())
    head = f"# {title}: {sum(r[0] for r in rows.values())} events, {total / 1e3:.3f} ms"
    if not rows:
        return head
    lines = [
        head,
        f"{'total ms':>10s} {'%':>5s} {'count':>7s} {'mean us':>10s}  {'category':9s} name (source)",
    ]
    ordered = sorted(rows.items(), key=lambda item: -item[1][1])
    for (name, category, source), (count, micros) in ordered[:top]:
        share = 100 * micros / total if total else 0.0
        where = f" ({source})" if source else ""
        lines.append(
            f"{micros / 1e3:10.3f} {share:5.1f} {count:7d} {micros / count:10.2f}  {category:9s} {name}{where}"
        )
    if len(ordered) > top:
        lines.append(f"... {len(ordered) - top} more")
    return "\n".join(lines)


def profile(path: str | os.PathLike | None = None) -> Profile:
    """Record every step of compiled code run inside the block (kernels, reference steps, host loops,
    transfers) and every compile, with start, duration, region name and the user's source line.

    ``with arraystack.profile("trace.json") as prof:`` writes a Chrome/Perfetto trace (the Trace Event
    Format) when the block ends; ``prof.summary()`` is a text table of the steps by total time. There is no
    NumPy counterpart. Eager operations (outside ``jit``) are not recorded. Recording is process-wide:
    steps other threads run while the block is open are recorded too (with their thread). Blocks nest.

    Parameters
    ----------
    path : str or os.PathLike, optional
        Where to write the trace when the block ends; None writes nothing (``prof.save(path)`` later).

    Returns
    -------
    Profile
        The context manager; inside and after the block, ``.events``, ``.summary()``, ``.save(path)``.

    See Also
    --------
    jit : The compiled functions whose steps are recorded.

    Examples
    --------
    >>> import arraystack as ast
    >>> f = ast.jit(lambda x: ast.tanh(x) * 2 + 1)
    >>> with ast.profile() as prof:
    ...     y = f(ast.ones(4))
    >>> all(e["ph"] == "X" for e in prof.events)
    True
    """
    return Profile(path)


__all__ = ["Profile", "profile"]
