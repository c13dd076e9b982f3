"""The pure-Python side of arraystack.ir.draw: a Graph flattened into a Scene (nodes, edges, clusters), a
layered layout of it, and the layout written as SVG text. No system binary and no third-party library.

Layout: longest-path layering (graph inputs on layer 0, every equation one below its deepest operand, the
graph outputs together on the last layer), then a few barycenter sweeps to order each layer, the members of
a fused region kept next to each other; nodes are packed left to right in their layer and each layer is
centred. Edges are straight lines from the bottom of a producer to the top of a consumer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape as _html_escape

from arraystack.ir.ir import Graph, Literal, Var, sub_graphs
from arraystack.ir.printer import format_literal, format_param


def escape(text: str) -> str:
    """Text for an SVG element: &, < and > escaped (html's escape; xml.sax would cost ~25 ms of imports)."""
    return _html_escape(text, quote=False)


def quoteattr(text: str) -> str:
    return '"' + _html_escape(text, quote=True) + '"'

CHAR_W, LINE_H, PAD, H_GAP, V_GAP, MARGIN, CLUSTER_PAD = 7.0, 15.0, 10.0, 24.0, 44.0, 20.0, 8.0
DEFAULT_FILL, INPUT_FILL, OUTPUT_FILL = "#ffffff", "#e8f0fe", "#fef3e0"
FONT = 'font-family="monospace" font-size="12"'


@dataclass(eq=False)
class Node:
    id: int
    kind: str  # "input", "eqn" or "output"
    lines: list
    title: str = ""
    cluster: int | None = None  # the innermost fused region holding it
    device: str | None = None
    index: str = ""  # "3" for top-level eqn 3, "3.1" for eqn 1 inside the region of eqn 3
    layer: int = 0
    x: float = 0.0  # centre
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0


@dataclass(eq=False)
class Cluster:
    id: int
    label: str
    parent: int | None
    device: str | None
    index: str
    box: tuple = (0.0, 0.0, 0.0, 0.0)  # x0, y0, x1, y1


@dataclass(eq=False)
class Scene:
    nodes: list = field(default_factory=list)
    edges: list = field(default_factory=list)  # (src node id, dst node id)
    clusters: list = field(default_factory=list)
    width: float = 0.0
    height: float = 0.0


def _params_text(params) -> str:
    items = []
    for key, value in sorted(params.items()):
        try:
            text = "<graph>" if isinstance(value, Graph) else format_param(value)
        except TypeError:
            text = repr(value)
        items.append(f"{key}={text}")
    return ", ".join(items)


def _eqn_lines(eqn) -> list:
    name = getattr(eqn.prim, "name", repr(eqn.prim))
    if any(isinstance(x, Literal) for x in eqn.inputs):
        args = ", ".join(
            format_literal(x) if isinstance(x, Literal) else "\u2022" for x in eqn.inputs
        )
        name = f"{name}({args})"
    outs = ", ".join(v.aval.str_short() for v in eqn.outputs) or "()"
    inner = [  # control flow: how big each sub-graph is (they are not drawn inside the box)
        f"{key}: {', '.join(str(len(g.eqns)) for g in subs)} eqns"
        for key, subs in sorted((k, sub_graphs(v)) for k, v in eqn.params.items())
        if subs and eqn.prim.name != "fusion"
    ]
    return [name, outs, *inner]


def _eqn_title(eqn, index) -> str:
    name = getattr(eqn.prim, "name", repr(eqn.prim))
    text = f"eqn {index}: {name}"
    params = _params_text(eqn.params)
    if params:
        text += f"[{params}]"
    if eqn.source:
        text += f" at {eqn.source}"
    return text


class _Builder:
    def __init__(self, placement, expand_limit):
        self.scene = Scene()
        self.placement = placement
        self.limit = expand_limit

    def node(self, kind, lines, **kw) -> Node:
        n = Node(len(self.scene.nodes), kind, lines, **kw)
        self.scene.nodes.append(n)
        return n

    def edge(self, env, atom, dst):
        if isinstance(atom, Var) and atom in env and env[atom] is not None:
            pair = (env[atom], dst.id)
            if pair not in self.scene.edges:
                self.scene.edges.append(pair)

    def eqns(self, eqns, env, cluster, device, prefix):
        for i, eqn in enumerate(eqns):
            index = f"{prefix}{i}"
            dev = self.placement.get(i, device) if cluster is None else device
            sub = eqn.params.get("graph") if getattr(eqn.prim, "name", "") == "fusion" else None
            if isinstance(sub, Graph) and len(sub.eqns) <= self.limit:
                c = Cluster(
                    len(self.scene.clusters), f"fusion ({len(sub.eqns)} eqns)", cluster, dev, index
                )
                self.scene.clusters.append(c)
                inner = {
                    v: env.get(x) if isinstance(x, Var) else None
                    for v, x in zip(sub.inputs, eqn.inputs)
                }
                self.eqns(sub.eqns, inner, c.id, dev, index + ".")
                for out, x in zip(eqn.outputs, sub.outputs):
                    env[out] = inner.get(x) if isinstance(x, Var) else None
                continue
            lines = _eqn_lines(eqn)
            if isinstance(sub, Graph):
                lines[0] = f"fusion ({len(sub.eqns)} eqns)"
            n = self.node(
                "eqn", lines, title=_eqn_title(eqn, index), cluster=cluster, device=dev, index=index
            )
            for x in eqn.inputs:
                self.edge(env, x, n)
            for out in eqn.outputs:
                env[out] = n.id


def build_scene(graph: Graph, placement: dict, expand_limit: int = 30) -> Scene:
    """Flatten `graph` into nodes and edges; fused regions of <= expand_limit equations become clusters."""
    b = _Builder(placement, expand_limit)
    env: dict = {}
    for k, v in enumerate(graph.inputs):
        env[v] = b.node("input", [f"in{k}", v.aval.str_short()], title=f"input {k}").id
    b.eqns(graph.eqns, env, None, None, "")
    for k, x in enumerate(graph.outputs):
        text = format_literal(x) if isinstance(x, Literal) else x.aval.str_short()
        b.edge(env, x, b.node("output", [f"out{k}", text], title=f"output {k}"))
    return b.scene


def layout(scene: Scene) -> Scene:
    """Give every node a layer and x/y (centre) coordinates, and every cluster its box."""
    nodes = scene.nodes
    preds = {n.id: [] for n in nodes}
    succs = {n.id: [] for n in nodes}
    for s, d in scene.edges:
        preds[d].append(s)
        succs[s].append(d)
    for n in nodes:  # nodes are created in topological order
        if n.kind == "eqn":
            n.layer = 1 + max((nodes[p].layer for p in preds[n.id]), default=0)
    last = 1 + max((n.layer for n in nodes if n.kind != "output"), default=0)
    for n in nodes:
        if n.kind == "output":
            n.layer = last
    layers = [[] for _ in range(last + 1)]
    for n in nodes:
        layers[n.layer].append(n.id)
    pos = {i: p for layer in layers for p, i in enumerate(layer)}

    def sweep(order, neighbours):
        for layer in order:
            key = {}
            for i in layer:
                near = [pos[j] for j in neighbours[i]]
                key[i] = sum(near) / len(near) if near else pos[i]
            layer.sort(key=lambda i: (key[i], pos[i]))
            _group_clusters(layer, nodes)
            pos.update({i: p for p, i in enumerate(layer)})

    for _ in range(3):
        sweep(layers[1:], preds)
        sweep(layers[-2::-1], succs)
    for n in nodes:
        n.w = max(len(line) for line in n.lines) * CHAR_W + 2 * PAD
        n.h = len(n.lines) * LINE_H + PAD
    row_h = max((n.h for n in nodes), default=LINE_H)
    widths = [sum(nodes[i].w for i in layer) + H_GAP * max(len(layer) - 1, 0) for layer in layers]
    full = max(widths, default=0.0)
    for k, layer in enumerate(layers):
        x = MARGIN + (full - widths[k]) / 2
        for i in layer:
            n = nodes[i]
            n.x, n.y = x + n.w / 2, MARGIN + 18 + k * (row_h + V_GAP) + row_h / 2
            x += n.w + H_GAP
    _cluster_boxes(scene)
    xs = [n.x + n.w / 2 for n in nodes] + [c.box[2] for c in scene.clusters]
    ys = [n.y + n.h / 2 for n in nodes] + [c.box[3] for c in scene.clusters]
    scene.width, scene.height = max(xs, default=0.0) + MARGIN, max(ys, default=0.0) + MARGIN
    return scene


def _group_clusters(layer, nodes):
    """Keep the members of one fused region next to each other, at the place of the first of them."""
    first, at = {}, {}
    for p, i in enumerate(layer):
        first.setdefault(nodes[i].cluster, p)
        at[i] = p
    layer.sort(
        key=lambda i: (first[nodes[i].cluster] if nodes[i].cluster is not None else at[i], at[i])
    )


def _cluster_boxes(scene):
    members = {c.id: [] for c in scene.clusters}
    for n in scene.nodes:
        c = n.cluster
        while c is not None:
            members[c].append(n)
            c = scene.clusters[c].parent
    # inner regions first: a parent's box surrounds its children's
    for c in reversed(scene.clusters):
        ms = members[c.id]
        if not ms:
            c.box = (0.0, 0.0, 0.0, 0.0)
            continue
        pad = CLUSTER_PAD * (1 + _height(scene, c))
        c.box = (
            min(n.x - n.w / 2 for n in ms) - pad,
            min(n.y - n.h / 2 for n in ms) - pad - 14,
            max(n.x + n.w / 2 for n in ms) + pad,
            max(n.y + n.h / 2 for n in ms) + pad,
        )


def _height(scene, c) -> int:
    kids = [k for k in scene.clusters if k.parent == c.id]
    return 1 + max((_height(scene, k) for k in kids), default=-1) if kids else 0


def render_svg(scene: Scene, colours: dict) -> str:
    """The laid-out scene as a standalone SVG document; `colours` maps device keys to fill colours."""
    legend_w = (max((len(k) for k in colours), default=0) * CHAR_W + 40) if colours else 0
    width, height = scene.width + legend_w, max(scene.height, MARGIN * 2 + 20 * len(colours))
    out = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.1f} {height:.1f}" {FONT}>'
        ),
        (
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
            'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>'
        ),
    ]
    for c in scene.clusters:
        x0, y0, x1, y1 = c.box
        out.append(
            f'<g class="cluster" data-eqn="{c.index}"{_device_attr(c.device)}>'
            f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" rx="6" '
            f'fill="{colours.get(c.device, "none") if c.device else "none"}" fill-opacity="0.25" '
            f'stroke="#777" stroke-dasharray="5,3"/>'
            f'<text x="{x0 + 6:.1f}" y="{y0 + 13:.1f}" fill="#555">{escape(f"eqn {c.index}: {c.label}")}</text></g>'
        )
    nodes = scene.nodes
    for s, d in scene.edges:
        a, b = nodes[s], nodes[d]
        out.append(
            f'<path class="edge" d="M{a.x:.1f},{a.y + a.h / 2:.1f} L{b.x:.1f},{b.y - b.h / 2:.1f}" '
            f'stroke="#555" fill="none" marker-end="url(#arrow)"/>'
        )
    for n in nodes:
        out.append(_node_svg(n, colours))
    for k, (key, colour) in enumerate(colours.items()):
        x, y = scene.width, MARGIN + 20 * k
        out.append(
            f'<g class="legend"><rect x="{x:.1f}" y="{y:.1f}" width="14" height="14" fill="{colour}" '
            f'stroke="#333"/><text x="{x + 20:.1f}" y="{y + 12:.1f}">{escape(key)}</text></g>'
        )
    out.append("</svg>")
    return "\n".join(out)


def _device_attr(device) -> str:
    return f" data-device={quoteattr(device)}" if device else ""


def _node_svg(n: Node, colours: dict) -> str:
    x0, y0 = n.x - n.w / 2, n.y - n.h / 2
    if n.kind == "eqn":
        fill = colours.get(n.device, DEFAULT_FILL) if n.device else DEFAULT_FILL
        shape = (
            f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{n.w:.1f}" height="{n.h:.1f}" rx="3" '
            f'fill="{fill}" stroke="#333"/>'
        )
        head = f'<g class="node eqn" data-eqn="{n.index}"{_device_attr(n.device)}>'
    else:
        fill = INPUT_FILL if n.kind == "input" else OUTPUT_FILL
        shape = (
            f'<ellipse cx="{n.x:.1f}" cy="{n.y:.1f}" rx="{n.w / 2:.1f}" ry="{n.h / 2:.1f}" '
            f'fill="{fill}" stroke="#333"/>'
        )
        head = f'<g class="node {n.kind}">'
    top = n.y - (len(n.lines) - 1) * LINE_H / 2 + 4
    text = "".join(
        f'<text x="{n.x:.1f}" y="{top + k * LINE_H:.1f}" text-anchor="middle">{escape(line)}</text>'
        for k, line in enumerate(n.lines)
    )
    return f"{head}<title>{escape(n.title)}</title>{shape}{text}</g>"
