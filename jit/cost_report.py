"""The cost report: graph_cost(graph, devices) turns the per-equation costs of arraystack.ir.cost into one row
per top-level equation (a kernel launch, a library call, a loop, a free view) with a predicted time on each
device: max(flops / peak, bytes / bandwidth) + a launch latency per kernel."""

from __future__ import annotations

from dataclasses import dataclass

from arraystack.ir import control as c
from arraystack.ir.cost import eqn_cost, eqn_kernels


def predict_time(flops, nbytes_, kernels, dtype, device):
    """Seconds on `device`: max(flops / peak, bytes / bandwidth) + a launch latency per kernel; None when
    a figure is unknown."""
    if flops is None or nbytes_ is None or kernels is None:
        return None
    peak = device.peak(dtype)
    compute = flops / peak if peak else 0.0
    memory = nbytes_ / device.bandwidth if device.bandwidth else 0.0
    return max(compute, memory) + kernels * device.launch_latency


@dataclass(frozen=True)
class CostRow:
    """One top-level equation of a graph: a fused region, a library call, a loop, or a free view."""

    index: int
    primitive: str
    flops: float | None
    bytes: float | None
    kernels: int | None
    dtype: str  # the arithmetic's dtype, which selects the device's peak
    ops: int  # equations inside a region (1 for a plain equation)
    source: str | None = None

    def time(self, device):
        return predict_time(self.flops, self.bytes, self.kernels, self.dtype, device)


@dataclass(frozen=True)
class CostReport:
    """Per-row and total flops/bytes/kernels of a graph, and its predicted time on each of `devices`."""

    rows: tuple
    devices: tuple = ()

    @property
    def flops(self) -> float:
        return sum(r.flops for r in self.rows if r.flops is not None)

    @property
    def bytes(self) -> float:
        return sum(r.bytes for r in self.rows if r.bytes is not None)

    @property
    def kernels(self) -> int:
        return sum(r.kernels for r in self.rows if r.kernels is not None)

    @property
    def unknown(self) -> tuple:
        """Rows whose cost is not known from avals (while loops); the totals leave them out."""
        return tuple(r for r in self.rows if None in (r.flops, r.bytes, r.kernels))

    def predicted_time(self, device=None) -> float:
        """Seconds on `device` (default: the first of `devices`); a lower bound if rows are unknown."""
        if device is None and not self.devices:
            raise ValueError(
                "predicted_time needs a device: pass one, or build the report with devices"
            )
        device = device if device is not None else self.devices[0]
        return sum(t for r in self.rows if (t := r.time(device)) is not None)

    @property
    def predicted(self) -> dict:
        return {d.key: self.predicted_time(d) for d in self.devices}

    def as_dict(self) -> dict:
        return {
            "flops": self.flops,
            "bytes": self.bytes,
            "kernels": self.kernels,
            "unknown": [r.index for r in self.unknown],
            "predicted_seconds": self.predicted,
            "rows": [
                vars(r) | {"seconds": {d.key: r.time(d) for d in self.devices}} for r in self.rows
            ],
        }

    def as_text(self) -> str:
        known = "" if not self.unknown else f" (+ {len(self.unknown)} of unknown cost: while loops)"
        times = ", ".join(f"{k} {t * 1e6:.4g} us" for k, t in self.predicted.items())
        lines = [
            f"# cost: {self.kernels} kernels, {self.flops:.4g} flops, {self.bytes:.4g} bytes{known}",
            f"# predicted: {times or 'no devices'}",
            f"{'eqn':>4s}  {'primitive':14s} {'ops':>4s} {'flops':>10s} {'bytes':>10s} {'kernels':>7s} "
            f"{'dtype':8s}" + "".join(f" {d.key + ' us':>10s}" for d in self.devices) + "  source",
        ]
        for r in self.rows:
            times = "".join(f" {_num(r.time(d), 1e6):>10s}" for d in self.devices)
            lines.append(
                f"{r.index:4d}  {r.primitive:14s} {r.ops:4d} {_num(r.flops):>10s} {_num(r.bytes):>10s} "
                f"{_num(r.kernels):>7s} {r.dtype:8s}{times}  {r.source or ''}"
            )
        return "\n".join(lines)

    __str__ = as_text


def _num(value, scale=1) -> str:
    return "unknown" if value is None else f"{value * scale:.4g}"


def graph_cost(graph, devices=()) -> CostReport:
    """The CostReport of an (optimized) graph: one row per top-level equation."""
    rows = []
    for index, eqn in enumerate(graph.eqns):
        flops, nbytes_ = eqn_cost(eqn)
        inner = eqn.params["graph"].eqns if eqn.prim is c.fusion_p else (eqn,)
        kernels = eqn_kernels(eqn, flops, nbytes_)
        dtype = _compute_dtype(inner)
        rows.append(
            CostRow(index, eqn.prim.name, flops, nbytes_, kernels, dtype, len(inner), eqn.source)
        )
    return CostReport(tuple(rows), tuple(devices))


_WIDTH = {"float16": 1, "float32": 2, "complex64": 2, "float64": 3, "complex128": 3}


def _compute_dtype(eqns) -> str:
    """The widest floating dtype among the equations' operands and results, else the first result's."""
    names = [
        a.aval.dtype.name for e in eqns for a in tuple(e.inputs) + tuple(e.outputs) if a.aval.size
    ]
    floats = [n for n in names if n in _WIDTH]
    if floats:
        return max(floats, key=_WIDTH.__getitem__)
    return names[0] if names else "float32"


__all__ = ["CostReport", "CostRow", "graph_cost", "predict_time"]
