"""Placement policies for the execution planner: objects with one method, place(eqn, cost, devices, current).

Calling convention: `policy.place(eqn, cost, devices, current) -> Device or device key`, called once per
top-level equation (region) in graph order. `cost` is the region's CostRow (arraystack.ir.cost_report: flops, bytes,
kernels, `.time(device)`, None when unknown); `devices` the HardwareModel (its first device is the default);
`current` the planner's Placement so far (below): where each value has a copy (`current.where(var)`) and
what moving the region's operands there would cost (`current.transfer_in(eqn, device)`, `transfer_out`).
A policy's `reason` (one line) is what plan.explain() prints as the "why" of its decisions.
Register new ones with register_policy(name, policy); `policies` maps the names to the objects.
"""

from __future__ import annotations

import math

from arraystack.ir.ir import Var


class DefaultPolicy:
    """Everything on the default device (the host), the way the numba backend runs today."""

    name = "default"
    reason = "the default policy puts every region on the default device"

    def place(self, eqn, cost, devices, current):
        return devices.default


class CostPolicy:
    """The device with the lowest predicted time for this region: compute (max of flops / peak and bytes /
    bandwidth, plus launch latency) + copying operands that live elsewhere + copying graph outputs it makes
    back to the host. Ties and regions of unknown cost (while loops) stay on the default device.

    Greedy, one region at a time in graph order: a region is not moved for the benefit of later ones."""

    name = "cost"
    reason = (
        "the cost policy picks the lowest predicted compute + transfer time (ties: default device)"
    )

    def place(self, eqn, cost, devices, current):
        best, best_time = devices.default, self.total(eqn, cost, devices.default, current)
        if best_time is None:
            return best
        for device in devices:
            seconds = self.total(eqn, cost, device, current)
            if seconds is not None and seconds < best_time:
                best, best_time = device, seconds
        return best

    @staticmethod
    def total(eqn, cost, device, current):
        compute = cost.time(device)
        if compute is None:
            return None
        return compute + current.transfer_in(eqn, device) + current.transfer_out(eqn, device)


# -- the state policies read --------------------------------------------------------------------------


def device_key(device) -> str:
    return device if isinstance(device, str) else device.key


def value_bytes(var) -> int:
    return var.aval.size * var.aval.dtype.itemsize


class Placement:
    """The planner's state while it walks the graph: which devices hold a copy of each value. Policies read
    it (`current`): where(var), transfer_in(eqn, device), transfer_out(eqn, device)."""

    def __init__(self, model, outputs, home: str):
        self.model = model
        self.home = home
        self.copies: dict = {}  # Var -> device keys holding it, the producer's first
        self.outputs = {v for v in outputs if isinstance(v, Var)}

    def where(self, var) -> tuple:
        return tuple(self.copies.get(var, ()))

    def source(self, var, dst: str):
        """(src key, link) of the copy of `var` with the fastest link to dst; (dst, None) when one is there,
        (None, None) when no copy reaches dst."""
        held = self.where(var)
        if dst in held:
            return dst, None
        best = (None, None)
        for src in held:
            link = _find_link(self.model, src, dst)
            if link is not None and (best[1] is None or link.bandwidth > best[1].bandwidth):
                best = (src, link)
        return best

    def transfer_in(self, eqn, device) -> float:
        """Seconds to copy the operands of `eqn` that have no copy on `device` there (inf if unreachable)."""
        dst, seconds = device_key(device), 0.0
        for var in {id(x): x for x in eqn.inputs if isinstance(x, Var)}.values():
            src, link = self.source(var, dst)
            if src is None:
                return math.inf
            if link is not None:
                seconds += link.transfer_time(value_bytes(var))
        return seconds

    def transfer_out(self, eqn, device) -> float:
        """Seconds to copy the graph outputs `eqn` produces from `device` back to the default device."""
        src = device_key(device)
        if src == self.home:
            return 0.0
        link = _find_link(self.model, src, self.home)
        outs = [v for v in eqn.outputs if v in self.outputs]
        if outs and link is None:
            return math.inf
        return sum(link.transfer_time(value_bytes(v)) for v in outs)


def _find_link(model, src, dst):
    try:
        return model.link(src, dst)
    except KeyError:
        return None


# name -> policy object; plan(policy="name") looks names up here.
policies: dict = {"default": DefaultPolicy(), "cost": CostPolicy()}


def register_policy(name: str, policy) -> None:
    """Make `policy` (an object with place(eqn, cost, devices, current)) available as plan(policy=name)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"a policy name must be a non-empty string, got {name!r}")
    if not callable(getattr(policy, "place", None)):
        raise TypeError(f"policy {name!r} needs a method place(eqn, cost, devices, current)")
    policies[name] = policy


def get_policy(policy):
    """A policy object from a registered name or the object itself."""
    if isinstance(policy, str):
        try:
            return policies[policy]
        except KeyError:
            known = ", ".join(sorted(policies))
            raise KeyError(f"no placement policy {policy!r}; registered: {known}") from None
    if not callable(getattr(policy, "place", None)):
        raise TypeError(
            f"a placement policy needs a method place(eqn, cost, devices, current), got {policy!r}"
        )
    return policy


__all__ = ["CostPolicy", "DefaultPolicy", "Placement", "get_policy", "policies", "register_policy"]
