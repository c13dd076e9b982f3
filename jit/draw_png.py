"""PNG pictures of a laid-out Scene (arraystack.ir.draw_layout) with matplotlib, for `Drawing.save("g.png")`
when graphviz's dot did not lay the picture out and cairosvg is not installed. The picture matches the SVG of
draw_layout.render_svg: the same boxes, ellipses, clusters, edges, labels and legend, one pixel per SVG unit.
matplotlib is imported only here, and only when a PNG is asked for.
"""

from __future__ import annotations

from arraystack.ir.draw_layout import (
    CHAR_W,
    DEFAULT_FILL,
    INPUT_FILL,
    LINE_H,
    MARGIN,
    OUTPUT_FILL,
    Scene,
)

DPI = 100
FONT_PT = 12 * 72 / DPI  # the SVG's 12px monospace


def render_png(scene: Scene, colours: dict, path) -> None:
    """Write the laid-out `scene` to `path` as a PNG; `colours` maps device keys to fill colours."""
    from matplotlib.colors import to_rgba
    from matplotlib.figure import Figure  # no pyplot: no global figure state, no GUI backend
    from matplotlib.patches import Ellipse, FancyArrowPatch, FancyBboxPatch, Rectangle

    legend_w = (max((len(k) for k in colours), default=0) * CHAR_W + 40) if colours else 0.0
    width, height = scene.width + legend_w, max(scene.height, MARGIN * 2 + 20 * len(colours))
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)  # y grows downwards, as in SVG
    ax.set_axis_off()
    text = {"family": "monospace", "fontsize": FONT_PT}
    for c in scene.clusters:
        x0, y0, x1, y1 = c.box
        fill = to_rgba(colours[c.device], 0.25) if c.device in colours else "none"
        ax.add_patch(
            FancyBboxPatch(
                (x0, y0),
                x1 - x0,
                y1 - y0,
                boxstyle="round,pad=0,rounding_size=6",
                facecolor=fill,
                edgecolor="#777777",
                linestyle=(0, (5, 3)),
            )
        )
        ax.text(x0 + 6, y0 + 13, f"eqn {c.index}: {c.label}", color="#555555", **text)
    nodes = scene.nodes
    for s, d in scene.edges:
        a, b = nodes[s], nodes[d]
        ax.add_patch(
            FancyArrowPatch(
                (a.x, a.y + a.h / 2),
                (b.x, b.y - b.h / 2),
                arrowstyle="-|>",
                mutation_scale=10,
                color="#555555",
                shrinkA=0,
                shrinkB=0,
            )
        )
    for n in nodes:
        if n.kind == "eqn":
            fill = colours.get(n.device, DEFAULT_FILL) if n.device else DEFAULT_FILL
            shape = Rectangle((n.x - n.w / 2, n.y - n.h / 2), n.w, n.h)
        else:
            fill = INPUT_FILL if n.kind == "input" else OUTPUT_FILL
            shape = Ellipse((n.x, n.y), n.w, n.h)
        shape.set(facecolor=fill, edgecolor="#333333")
        ax.add_patch(shape)
        top = n.y - (len(n.lines) - 1) * LINE_H / 2
        for k, line in enumerate(n.lines):
            ax.text(n.x, top + k * LINE_H, line, ha="center", va="center", **text)
    for k, (key, colour) in enumerate(colours.items()):
        x, y = scene.width, MARGIN + 20 * k
        ax.add_patch(Rectangle((x, y), 14, 14, facecolor=colour, edgecolor="#333333"))
        ax.text(x + 20, y + 7, key, va="center", **text)
    fig.savefig(path, format="png", dpi=DPI)
