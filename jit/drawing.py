"""Pictures of graphs: `draw(graph, placement=None) -> Drawing`, an SVG image of the IR.

    from arraystack.ir import draw
    draw(f.lower(x).optimized)                     # shows in a notebook (Drawing._repr_svg_)
    draw(lowered.optimized, lowered.plan()).save("graph.svg")

Equations are boxes labelled with the primitive (literal operands written in, e.g. `mul(•, 2.0:f64)`) and
the output avals; graph inputs and outputs are ellipses; hovering a box shows its params and source line.
A fused region (a `fusion` equation) is an outlined cluster around the equations of its sub-graph, or one
box `fusion (N eqns)` when it holds more than `expand_limit` of them. `placement` colours the boxes by
device: a dict {top-level eqn index: device key}, or any object with `.regions` whose items have `.index`
and `.device` (a Plan from arraystack.backends.planner).

Graphviz's `dot` lays the picture out when it is on PATH; otherwise (or if it fails) a pure-Python layered
layout does (arraystack.ir.draw_layout), so no system binary is ever required.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from arraystack.ir.draw_layout import (
    DEFAULT_FILL,
    INPUT_FILL,
    OUTPUT_FILL,
    build_scene,
    layout,
    render_svg,
)
from arraystack.ir.ir import Graph

PALETTE = ("#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69", "#fccde5", "#d9d9d9")


class Drawing:
    """An SVG picture of a graph: `.svg` (the text), `.save(path)`, and it displays itself in Jupyter.
    `.engine` says what laid it out: "dot" or "python"."""

    def __init__(self, svg: str, engine: str):
        self.svg = svg
        self.engine = engine

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self):
        return f"<Drawing: {len(self.svg)} characters of SVG, laid out by {self.engine}>"

    def save(self, path) -> Path:
        """Write the picture to `path`: `.svg` always; `.png` when cairosvg is installed."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix == ".svg":
            path.write_text(self.svg, encoding="utf-8")
            return path
        if suffix == ".png":
            try:
                import cairosvg
            except ImportError:
                raise RuntimeError(
                    f"saving {path.name} as PNG needs the cairosvg package (pip install cairosvg); "
                    "save as .svg instead, which needs nothing"
                ) from None
            cairosvg.svg2png(bytestring=self.svg.encode("utf-8"), write_to=str(path))
            return path
        raise ValueError(
            f"cannot save a drawing as {suffix or 'a file without a suffix'!r}: use .svg or .png"
        )


def placement_map(placement) -> dict:
    """{top-level eqn index: device key} from None, a mapping, or an object with `.regions` (a Plan)."""
    if placement is None:
        return {}
    regions = getattr(placement, "regions", None)
    if regions is not None:
        return {int(r.index): str(r.device) for r in regions}
    if hasattr(placement, "items"):
        return {int(k): str(v) for k, v in placement.items()}
    raise TypeError(
        f"placement must be a dict {{eqn index: device}} or a plan with .regions, "
        f"not {type(placement).__name__}"
    )


def device_colours(devices) -> dict:
    """A fill colour for each device key, in sorted order of the keys."""
    return {key: PALETTE[k % len(PALETTE)] for k, key in enumerate(sorted(set(devices)))}


def draw(
    graph: Graph, placement=None, *, expand_limit: int = 30, engine: str | None = None
) -> Drawing:
    """Draw `graph` as SVG. `engine`: "dot", "python", or None (dot when it is on PATH, else python)."""
    if not isinstance(graph, Graph):
        raise TypeError(f"draw() takes an arraystack.ir.Graph, not {type(graph).__name__}")
    placement = placement_map(placement)
    colours = device_colours(placement.values())
    scene = build_scene(graph, placement, expand_limit)
    if engine not in (None, "dot", "python"):
        raise ValueError(f"engine must be 'dot', 'python' or None, not {engine!r}")
    dot = shutil.which("dot") if engine != "python" else None
    if engine == "dot" and dot is None:
        raise RuntimeError(
            "engine='dot' needs graphviz's `dot` on PATH; engine=None falls back to Python"
        )
    if dot is not None:
        try:
            return Drawing(_run_dot(dot, to_dot(scene, colours)), "dot")
        except (OSError, subprocess.SubprocessError, UnicodeDecodeError):
            if engine == "dot":
                raise
    return Drawing(render_svg(layout(scene), colours), "python")


def _run_dot(dot: str, source: str) -> str:
    done = subprocess.run(
        [dot, "-Tsvg"], input=source.encode("utf-8"), capture_output=True, timeout=60, check=True
    )
    svg = done.stdout.decode("utf-8")
    start = svg.find("<svg")  # drop the XML declaration and doctype, so the text embeds in HTML
    if start < 0:
        raise subprocess.SubprocessError("dot printed no <svg> element")
    return svg[start:]


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(scene, colours: dict) -> str:
    """The scene (from draw_layout.build_scene) as graphviz DOT source."""
    lines = [
        "digraph G {",
        '  graph [rankdir=TB, fontname="monospace", fontsize=11];',
        '  node [fontname="monospace", fontsize=11, style=filled];',
        '  edge [color="#555555"];',
    ]
    body: dict = {None: []}
    for n in scene.nodes:
        label = _quote("\n".join(n.lines))
        if n.kind == "eqn":
            fill = colours.get(n.device, DEFAULT_FILL) if n.device else DEFAULT_FILL
            attrs = f'shape=box, fillcolor="{fill}"'
        else:
            attrs = f'shape=ellipse, fillcolor="{INPUT_FILL if n.kind == "input" else OUTPUT_FILL}"'
        body.setdefault(n.cluster, []).append(
            f"n{n.id} [label={label}, tooltip={_quote(n.title)}, {attrs}];"
        )
    lines += _dot_cluster_body(scene, None, body, colours, "  ")
    for kind, rank in (("input", "source"), ("output", "sink")):
        lines.append(
            f"  {{rank={rank}; {' '.join(f'n{n.id};' for n in scene.nodes if n.kind == kind)}}}"
        )
    lines += [f"  n{s} -> n{d};" for s, d in scene.edges]
    lines.append("}")
    return "\n".join(lines)


def _dot_cluster_body(scene, cluster_id, body, colours, indent) -> list:
    lines = [indent + line for line in body.get(cluster_id, [])]
    for c in scene.clusters:
        if c.parent != cluster_id:
            continue
        fill = colours.get(c.device, "#ffffff") if c.device else "#ffffff"
        lines.append(f"{indent}subgraph cluster_{c.id} {{")
        lines.append(
            f'{indent}  label={_quote(f"eqn {c.index}: {c.label}")}; style="dashed,filled"; '
            f'fillcolor="{fill}40"; color="#777777";'
        )
        lines += _dot_cluster_body(scene, c.id, body, colours, indent + "  ")
        lines.append(f"{indent}}}")
    return lines
