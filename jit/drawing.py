"""Pictures of graphs: `draw(graph, placement=None) -> Drawing`, an SVG image of the IR.

    from arraystack.ir import draw
    draw(f.lower(x).optimized)                     # shows in a notebook (Drawing._repr_svg_)
    draw(lowered.optimized, lowered.plan()).save("graph.svg")   # or "graph.png"

Equations are boxes labelled with the primitive (literal operands written in, e.g. `mul(•, 2.0:f64)`) and
the output avals; graph inputs and outputs are ellipses; hovering a box shows its params and source line.
A fused region (a `fusion` equation) is an outlined cluster around the equations of its sub-graph, or one
box `fusion (N eqns)` when it holds more than `expand_limit` of them. `placement` colours the boxes by
device: a dict {top-level eqn index: device key}, or any object with `.regions` whose items have `.index`
and `.device` (a Plan from arraystack.backends.planner).

Graphviz's `dot` lays the picture out when it is on PATH; otherwise a pure-Python layered layout does
(arraystack.ir.draw_layout), so no system binary is ever required. When `dot` is there but fails (an error
status, no answer within DOT_TIMEOUT seconds, no <svg> in its output), the Python layout draws the picture
and says why in a RuntimeWarning and in `Drawing.note`. A PNG comes from `dot -Tpng` when dot laid the picture
out, otherwise from cairosvg if it is installed, otherwise from matplotlib (arraystack.ir.draw_png).
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import warnings
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

DOT_TIMEOUT = 60.0  # seconds
PALETTE = ("#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69", "#fccde5", "#d9d9d9")


class Drawing:
    """An SVG picture of a graph: `.svg` (the text), `.save(path)`, and it displays itself in Jupyter.
    `.engine` says what laid it out: "dot" or "python"; `.note` says why the Python layout stood in for a
    `dot` that failed ("" otherwise)."""

    def __init__(self, svg: str, engine: str, note: str = "", dot=None, scene=None):
        self.svg = svg
        self.engine = engine
        self.note = note
        self._dot = dot  # (dot executable, DOT source) when dot laid it out: PNGs come from dot too
        self._scene = scene  # (laid-out Scene, colours) when Python laid it out: PNGs by matplotlib

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self):
        note = f" ({self.note})" if self.note else ""
        return f"<Drawing: {len(self.svg)} characters of SVG, laid out by {self.engine}{note}>"

    def save(self, path) -> Path:
        """Write the picture to `path`: `.svg` always; `.png` from graphviz's dot when dot laid the
        picture out, otherwise with the cairosvg package or, without it, matplotlib."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix == ".svg":
            path.write_text(self.svg, encoding="utf-8")
            return path
        if suffix == ".png":
            if self._dot is not None:
                dot, source = self._dot
                try:
                    png = _run_dot(dot, source, "png")
                except (OSError, subprocess.SubprocessError) as exc:
                    raise RuntimeError(
                        f"graphviz's dot ({dot}) failed to write {path.name}: {_failure(exc)}"
                    ) from exc
                path.write_bytes(png)
                return path
            try:
                import cairosvg
            except ImportError:
                cairosvg = None
            if cairosvg is not None:
                cairosvg.svg2png(bytestring=self.svg.encode("utf-8"), write_to=str(path))
                return path
            if self._scene is not None and importlib.util.find_spec("matplotlib") is not None:
                from arraystack.ir.draw_png import render_png

                render_png(*self._scene, path)
                return path
            raise RuntimeError(
                f"saving {path.name} as PNG needs graphviz's dot on PATH, the cairosvg package or "
                "matplotlib (pip install cairosvg, or matplotlib); save as .svg instead, which needs "
                "nothing"
            )
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
    note = ""
    if dot is not None:
        source = to_dot(scene, colours)
        try:
            return Drawing(_svg_from_dot(dot, source), "dot", dot=(dot, source))
        except (OSError, subprocess.SubprocessError, UnicodeDecodeError) as exc:
            if engine == "dot":
                raise RuntimeError(f"graphviz's dot ({dot}) failed: {_failure(exc)}") from exc
            note = f"graphviz's dot ({dot}) failed: {_failure(exc)}; drawn by the Python layout"
            warnings.warn(note, RuntimeWarning, stacklevel=2)
    scene = layout(scene)
    return Drawing(render_svg(scene, colours), "python", note=note, scene=(scene, colours))


def _run_dot(dot: str, source: str, fmt: str) -> bytes:
    """What `dot -T<fmt>` prints for `source` (CalledProcessError, TimeoutExpired or OSError if not)."""
    done = subprocess.run(
        [dot, f"-T{fmt}"],
        input=source.encode("utf-8"),
        capture_output=True,
        timeout=DOT_TIMEOUT,
        check=True,
    )
    return done.stdout


def _svg_from_dot(dot: str, source: str) -> str:
    svg = _run_dot(dot, source, "svg").decode("utf-8")
    start = svg.find("<svg")  # drop the XML declaration and doctype, so the text embeds in HTML
    if start < 0:
        raise subprocess.SubprocessError("it printed no <svg> element")
    return svg[start:]


def _failure(exc) -> str:
    """One line on why running dot failed."""
    if isinstance(exc, subprocess.CalledProcessError):
        said = (exc.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        return f"exit status {exc.returncode}" + (f": {said[0]}" if said else "")
    if isinstance(exc, subprocess.TimeoutExpired):
        return f"no answer within {exc.timeout:g} s"
    if isinstance(exc, UnicodeDecodeError):
        return "its output is not UTF-8"
    return str(exc) or type(exc).__name__


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
