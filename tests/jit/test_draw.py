"""Pictures of graphs (jit/drawing.py, jit/draw_layout.py): SVG structure, clusters, escaping, layout, colours.
The graphviz path (DOT text, a stand-in `dot` on PATH, PNG output) is tested in test_draw_dot.py."""

from __future__ import annotations

import importlib
import itertools
import shutil
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from arraystack.ir import (
    Drawing,
    Eqn,
    Graph,
    GraphBuilder,
    ShapedArray,
    Var,
    bind,
    draw,
    make_graph,
)
from arraystack.ir.control import fusion_p
from arraystack.ir.primitives import add_p, mul_p, tanh_p
from arraystack.ir.structural import reduce_sum_p

import arraystack

# the module behind arraystack.ir.draw:
draw_module = importlib.import_module("arraystack.ir.drawing")
F64 = np.dtype("float64")
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def no_dot(monkeypatch):
    """Every test sees the pure-Python layout unless it installs a `dot` of its own."""
    real = shutil.which
    monkeypatch.setattr(
        shutil, "which", lambda name, *a, **k: None if name == "dot" else real(name, *a, **k)
    )


def _groups(svg, cls):
    root = ET.fromstring(svg)
    return [g for g in root.iter(SVG + "g") if cls in g.get("class", "").split()]


def _layer_graph():
    def layer(x):
        return [bind(reduce_sum_p, bind(tanh_p, bind(mul_p, x, 2.0)), axes=(1,))]

    graph, _ = make_graph(layer, [ShapedArray((3, 4), F64)])
    return graph


def _fused_graph(n_inner):
    """graph(a, b) { c = fusion[graph: n_inner chained ops on its two inputs] a b; d = tanh c; return d, a }"""
    aval = ShapedArray((4,), F64)
    inner = GraphBuilder()
    x, y = Var(aval), Var(aval)
    (h,) = inner.emit(add_p, (x, y))
    for _ in range(n_inner - 1):
        (h,) = inner.emit(tanh_p, (h,))
    sub = inner.build((x, y), (h,))
    outer = GraphBuilder()
    a, b = Var(aval), Var(aval)
    (c,) = outer.emit(fusion_p, (a, b), {"graph": sub})
    (d,) = outer.emit(tanh_p, (c,))
    return outer.build((a, b), (d, a))


def test_svg_parses_with_one_box_per_equation_and_one_node_per_input_and_output():
    graph = _layer_graph()
    d = draw(graph)
    assert isinstance(d, Drawing) and d.engine == "python" and d._repr_svg_() is d.svg
    boxes = _groups(d.svg, "eqn")
    assert len(boxes) == len(graph.eqns) == 3
    assert all(g.find(SVG + "rect") is not None for g in boxes)
    assert len(_groups(d.svg, "input")) == 1 and len(_groups(d.svg, "output")) == 1
    assert all(
        g.find(SVG + "ellipse") is not None
        for g in _groups(d.svg, "input") + _groups(d.svg, "output")
    )
    texts = [t.text for t in ET.fromstring(d.svg).iter(SVG + "text")]
    assert "mul(\u2022, 2.0:~f64)" in texts  # the literal operand is written into the box
    assert "f64[3]" in texts  # reduce_sum's output aval
    assert len(ET.fromstring(d.svg).findall(SVG + "path")) == 4  # a->mul->tanh->sum->out


def test_inputs_on_top_and_outputs_at_the_bottom():
    d = draw(_layer_graph())

    def ys(cls):
        shape = "rect" if cls == "eqn" else "ellipse"
        return [
            float(g.find(SVG + shape).get("y" if cls == "eqn" else "cy"))
            for g in _groups(d.svg, cls)
        ]

    assert max(ys("input")) < min(ys("eqn")) and max(ys("eqn")) < min(ys("output"))


def test_fused_region_is_an_outlined_cluster_of_its_equations():
    graph = _fused_graph(3)
    svg = draw(graph).svg
    clusters = _groups(svg, "cluster")
    assert len(clusters) == 1 and "fusion (3 eqns)" in clusters[0].find(SVG + "text").text
    boxes = _groups(svg, "eqn")
    assert sorted(g.get("data-eqn") for g in boxes) == ["0.0", "0.1", "0.2", "1"]
    rect = clusters[0].find(SVG + "rect")
    x0, y0 = float(rect.get("x")), float(rect.get("y"))
    x1, y1 = x0 + float(rect.get("width")), y0 + float(rect.get("height"))
    for g in boxes:
        r = g.find(SVG + "rect")
        x, y = float(r.get("x")), float(r.get("y"))
        inside = (
            x0 <= x
            and y0 <= y
            and x + float(r.get("width")) <= x1
            and y + float(r.get("height")) <= y1
        )
        assert inside == g.get("data-eqn").startswith("0.")


def test_large_fused_region_is_one_box_with_its_equation_count():
    svg = draw(_fused_graph(40)).svg
    assert not _groups(svg, "cluster")
    labels = [g.find(SVG + "text").text for g in _groups(svg, "eqn")]
    assert labels == ["fusion (40 eqns)", "tanh"]
    assert not _groups(draw(_fused_graph(3), expand_limit=2).svg, "cluster")


def test_labels_and_sources_are_escaped():
    graph = _layer_graph()
    eqns = list(graph.eqns)
    e = eqns[0]
    eqns[0] = Eqn(e.prim, e.inputs, e.outputs, e.params, 'dir/<a & "b">.py:7')
    svg = draw(Graph(graph.inputs, tuple(eqns), graph.outputs)).svg
    assert "<a & " not in svg and "&lt;a &amp; " in svg
    titles = [t.text for t in ET.fromstring(svg).iter(SVG + "title")]
    assert any(t.endswith('at dir/<a & "b">.py:7') for t in titles)
    dot = draw_module.to_dot(
        draw_module.build_scene(Graph(graph.inputs, tuple(eqns), graph.outputs), {}), {}
    )
    assert r"dir/<a & \"b\">.py:7" in dot


def _wide_graph(n):
    """n equations: a chain with side branches and repeated reuse, so layers hold several boxes."""
    b = GraphBuilder()
    a, c = Var(ShapedArray((8,), F64)), Var(ShapedArray((8,), F64))
    live = [a, c]
    for k in range(n):
        if k % 3 == 0:
            (v,) = b.emit(tanh_p, (live[-1],))
        else:
            (v,) = b.emit(
                add_p if k % 2 else mul_p, (live[-1 - k % 5 % len(live)], live[k % len(live)])
            )
        live.append(v)
    return b.build((a, c), tuple(live[-3:]))


def test_two_hundred_equations_lay_out_without_overlapping_boxes_in_a_layer():
    graph = _wide_graph(200)
    svg = draw(graph).svg
    boxes = _groups(svg, "eqn")
    assert len(boxes) == 200
    rows = {}
    for g in boxes:
        r = g.find(SVG + "rect")
        centre = float(r.get("y")) + float(r.get("height")) / 2
        rows.setdefault(centre, []).append((float(r.get("x")), float(r.get("width"))))
    assert max(len(row) for row in rows.values()) > 1  # a real test of the packing
    for row in rows.values():
        row.sort()
        for (x, w), (nx, _) in itertools.pairwise(row):
            assert x + w < nx
    # every edge points downwards: layers follow the data flow
    for path in ET.fromstring(svg).iter(SVG + "path"):
        if path.get("class") == "edge":
            (_, y0), (_, y1) = (map(float, p.split(",")) for p in path.get("d")[1:].split(" L"))
            assert y1 > y0


def test_placement_dict_colours_boxes_by_device_and_adds_a_legend():
    graph = _layer_graph()
    svg = draw(graph, placement={0: "cpu", 1: "gpu0", 2: "cpu"}).svg
    fills = {g.get("data-device"): g.find(SVG + "rect").get("fill") for g in _groups(svg, "eqn")}
    assert set(fills) == {"cpu", "gpu0"} and fills["cpu"] != fills["gpu0"]
    assert fills["cpu"] in draw_module.PALETTE and fills["gpu0"] in draw_module.PALETTE
    legend = [g.find(SVG + "text").text for g in _groups(svg, "legend")]
    assert legend == ["cpu", "gpu0"]
    with pytest.raises(TypeError, match="placement"):
        draw(graph, placement=[1, 2])


def test_plan_placement_and_lowered_draw_on_a_jitted_function():
    @arraystack.jit
    def f(x, w):
        return arraystack.tanh(x @ w + 1.0).sum() * 2.0

    lowered = f.lower(arraystack.ones((4, 3)), arraystack.ones((3, 5)))
    d = lowered.draw()
    assert isinstance(d, Drawing) and len(_groups(d.svg, "cluster")) == 1  # the fused tail
    traced = lowered.draw(after_passes=False)
    assert not _groups(traced.svg, "cluster") and len(_groups(traced.svg, "eqn")) == len(
        lowered.traced.eqns
    )
    plan = lowered.plan()
    coloured = lowered.draw(placement=plan).svg
    devices = {r.device for r in plan.regions}
    assert {g.get("data-device") for g in _groups(coloured, "eqn")} == devices
    assert {g.get("data-device") for g in _groups(coloured, "cluster")} <= devices


def test_graph_displays_in_jupyter_and_falls_back_to_text(monkeypatch):
    graph = _layer_graph()
    ET.fromstring(graph._repr_svg_())
    assert graph._repr_html_().startswith("<svg")

    def broken(*a, **k):
        raise RuntimeError("no picture")

    monkeypatch.setattr(draw_module, "draw", broken)
    html = graph._repr_html_()
    assert html.startswith("<pre>") and "reduce_sum[axes=(1,)]" in html


def test_pure_python_layout_is_used_when_dot_is_absent():
    assert shutil.which("dot") is None  # the autouse fixture
    assert draw(_layer_graph()).engine == "python"
    with pytest.raises(RuntimeError, match="dot"):
        draw(_layer_graph(), engine="dot")


def test_save_svg_and_a_clear_error_for_png_with_nothing_to_draw_it(tmp_path, monkeypatch):
    d = draw(_layer_graph())
    assert d.save(tmp_path / "g.svg").read_text() == d.svg
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(RuntimeError, match="dot on PATH, the cairosvg package or matplotlib"):
        d.save(tmp_path / "g.png")
    with pytest.raises(ValueError, match=".svg or .png"):
        d.save(tmp_path / "g.pdf")


def test_png_by_matplotlib_has_the_svg_size_and_the_device_colours(tmp_path, monkeypatch):
    image = pytest.importorskip("matplotlib.image")
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    d = draw(_fused_graph(3), placement={0: "cpu", 1: "gpu0"})
    pixels = image.imread(d.save(tmp_path / "g.png"))[..., :3]
    root = ET.fromstring(d.svg)
    assert pixels.shape[:2] == (round(float(root.get("height"))), round(float(root.get("width"))))
    assert pixels[0, 0].tolist() == [1.0, 1.0, 1.0]  # the background
    boxes = _groups(d.svg, "eqn")
    assert {g.get("data-device") for g in boxes} == {"cpu", "gpu0"}
    for g in boxes:  # just inside each box's top-left corner: its fill colour
        r = g.find(SVG + "rect")
        x, y = round(float(r.get("x"))) + 3, round(float(r.get("y"))) + 3
        want = [int(r.get("fill")[k : k + 2], 16) / 255 for k in (1, 3, 5)]
        np.testing.assert_allclose(pixels[y, x], want, atol=2 / 255)


def test_control_flow_is_one_box_naming_the_size_of_its_sub_graphs():
    lowered = arraystack.jit(lambda c: arraystack.fori_loop(0, 3, lambda i, v: v * 2.0, c)).lower(
        arraystack.ones(3)
    )
    (scan,) = [g for g in _groups(lowered.draw().svg, "eqn") if g.find(SVG + "text").text == "scan"]
    assert [t.text for t in scan.iter(SVG + "text")][-1] == "body: 2 eqns"


def test_draw_rejects_what_is_not_a_graph():
    with pytest.raises(TypeError, match="Graph"):
        draw("graph() {}")
