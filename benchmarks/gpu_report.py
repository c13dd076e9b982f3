"""bench_gpu.py's report: the issue's targets for its workloads (issue 25, item 6) as ratios from one run,
each naming the time it divides by arraystack's (another system's, or a fixed time) and the bound the
ratio must reach, also for "arraystack.jit + graphs" where a workload has it; and the printed tables."""

from __future__ import annotations

import re

import harness

# workload, target, (the time over which the system's time, or a fixed time), the bound of that ratio
TARGETS = (
    ("a", ">= 85% of the copy's bandwidth", "copy (roofline)", 0.85),
    ("a", ">= 1.5x jax.jit", "jax.jit", 1.5),
    ("b", ">= 80% of the copy's bandwidth", "copy (roofline)", 0.8),
    ("c", ">= jax.jit", "jax.jit", 1.0),
    ("d", "<= 10 us per call", 10e-6, 1.0),
    ("e", "<= jax.jit's time", "jax.jit", 1.0),
)


def targets(rows) -> list:
    """One entry per target of the issue and workload title: ratio (the other time over arraystack's,
    so higher is better), met (None when the other system is missing)."""
    seconds = {(r["title"], r["system"]): r.get("seconds") for r in rows}
    titles = []
    for r in rows:
        if (r["workload"], r["title"]) not in titles:
            titles.append((r["workload"], r["title"]))
    out = []
    for key, title in titles:
        for system, suffix in (
            ("arraystack.jit", ""),
            ("arraystack.jit + graphs", " (CUDA graphs)"),
        ):
            ours = seconds.get((title, system))
            if ours is None and suffix:
                continue  # the workload has no row with CUDA graphs
            for workload, text, other, bound in TARGETS:
                if workload != key:
                    continue
                theirs = other if isinstance(other, float) else seconds.get((title, other))
                ratio = None if ours is None or theirs is None else theirs / ours
                met = None if ratio is None else ratio >= bound
                name = f"{title.split()[1]}: " if key == "b" else ""
                target = name + text + suffix
                out.append({"workload": key, "target": target, "ratio": ratio, "met": met})
    return out


def _note(error) -> str:
    """A row's error in one short line (the JSON keeps it whole)."""
    if not error:
        return ""
    line = re.sub(r"/tmp/\S+\.cu(?=\()", "<source>", error.splitlines()[0])
    return line if len(line) <= 100 else line[:97] + "..."


def report(results, rows, goals) -> None:
    columns = [
        ("system", "system", ""), ("us", "us/call", ".1f"), ("GB/s", "GB/s", ".0f"),
        ("vs copy", "vs copy", ".2f"), ("x arraystack", "time / arraystack's", ".2f"),
        ("note", "note", ""),
    ]  # fmt: skip
    titles = []
    for r in rows:
        if r.get("title") not in titles:
            titles.append(r.get("title"))
    for title in titles:
        group = [dict(r, note=_note(r.get("error"))) for r in rows if r.get("title") == title]
        print(f"\n({group[0]['workload']}) {title or ''}")
        print(harness.format_table(group, columns))
    print()
    print("targets (issue 25, item 6):")
    for g in goals:
        verdict = "n/a (peer missing)" if g["met"] is None else "met" if g["met"] else "MISSED"
        value = "" if g["ratio"] is None else f"{g['ratio']:.2f}"
        print(f"  ({g['workload']}) {g['target']:45s} {value:>6s}  {verdict}")
    planner = results.get("planner", {})
    if planner:
        print()
        print(planner.get("error") or planner["explain"])
    if results.get("dry_run"):
        print("\n(dry run on the stand-in for cupy: the times above mean nothing)")
    print(f"\ntotal {results['seconds']} s")
