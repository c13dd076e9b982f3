"""arraystack.ir.draw's graphviz path, tested without graphviz: the DOT text it feeds to `dot` (parsed by a
small DOT parser here: well-formed, one node per scene node, clusters for fused regions, colours for
devices), and the subprocess call against a stand-in `dot` script on PATH (success, each way of failing,
PNG output)."""

from __future__ import annotations

import importlib
import os
import pathlib
import re
import sys
import textwrap
import types
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from arraystack.ir import Eqn, Graph, GraphBuilder, ShapedArray, Var, bind, draw, make_graph
from arraystack.ir.control import fusion_p
from arraystack.ir.primitives import add_p, mul_p, tanh_p
from arraystack.ir.structural import reduce_sum_p

import arraystack

drawing = importlib.import_module("arraystack.ir.drawing")
F64 = ShapedArray((4,), np.dtype("float64"))
posix_only = pytest.mark.skipif(os.name != "posix", reason="a script stand-in for graphviz")

# ---- a parser for the part of the DOT language that graphviz reads: enough to reject malformed text


_TOKEN = re.compile(
    r'"(?:[^"\\]|\\.)*"|->|[{}\[\];=,]|[A-Za-z_][A-Za-z_0-9]*|-?\d+(?:\.\d+)?', re.DOTALL
)


def _tokens(text):
    out, pos = [], 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos == len(text):
            return out
        m = _TOKEN.match(text, pos)
        assert m, f"no DOT token at {text[pos : pos + 30]!r}"
        out.append(m.group())
        pos = m.end()


def _unquote(token):
    if not token.startswith('"'):
        return token
    return re.sub(r"\\(.)", lambda m: "\n" if m[1] == "n" else m[1], token[1:-1])


class Dot:
    """digraph ID { stmt* } with node, edge, attribute, subgraph and anonymous-block statements."""

    def __init__(self, text):
        self.toks, self.i = _tokens(text), 0
        self.nodes, self.edges, self.clusters, self.ranks = {}, [], {}, {}
        self.take("digraph")
        self.name = self.ident()
        self.take("{")
        self.block(None, None)
        self.take("}")
        assert self.i == len(self.toks), "text after the closing brace"

    def peek(self):
        assert self.i < len(self.toks), "the text ends inside a statement"
        return self.toks[self.i]

    def next(self):
        tok = self.peek()
        self.i += 1
        return tok

    def take(self, want):
        got = self.next()
        assert got == want, f"expected {want!r}, got {got!r} (token {self.i})"

    def ident(self):
        tok = self.next()
        assert tok not in "{}[];=," and tok != "->", f"expected an ID, got {tok!r}"
        return _unquote(tok)

    def attrs(self):
        out = {}
        self.take("[")
        while self.peek() != "]":
            key = self.ident()
            self.take("=")
            out[key] = self.ident()
            if self.peek() in (",", ";"):
                self.next()
        self.take("]")
        return out

    def block(self, cluster, anon):
        """Statements up to the closing brace; `anon` collects an anonymous block's attrs and nodes."""
        attrs = self.clusters[cluster]["attrs"] if cluster else {}
        while self.peek() != "}":
            if self.peek() == "{":  # an anonymous block, e.g. {rank=source; n0; n1;}
                self.next()
                block = {}
                self.block(cluster, block)
                self.take("}")
                self.ranks[block.get("rank")] = block.get("nodes", [])
                continue
            tok = self.ident()
            if tok in ("graph", "node", "edge"):
                self.attrs()
            elif tok == "subgraph":
                name = self.ident()
                assert name not in self.clusters, f"two subgraphs named {name}"
                self.clusters[name] = {"parent": cluster, "attrs": {}}
                self.take("{")
                self.block(name, None)
                self.take("}")
            elif self.peek() == "=":
                self.next()
                (anon if anon is not None else attrs)[tok] = self.ident()
            elif self.peek() == "->":
                self.next()
                dst = self.ident()
                assert tok in self.nodes and dst in self.nodes, (
                    f"edge {tok} -> {dst} before its nodes"
                )
                self.edges.append((tok, dst))
            elif anon is not None:
                assert tok in self.nodes, f"{tok} named in a rank block before it is declared"
                anon.setdefault("nodes", []).append(tok)
            else:
                assert tok not in self.nodes, f"node {tok} declared twice"
                self.nodes[tok] = {
                    "cluster": cluster,
                    **(self.attrs() if self.peek() == "[" else {}),
                }
            if self.peek() == ";":
                self.next()


def test_the_dot_parser_rejects_malformed_text():
    good = 'digraph G {\n  n0 [label="a\\"b"];\n  n1;\n  n0 -> n1;\n  {rank=source; n0;}\n}'
    assert Dot(good).nodes["n0"]["label"] == 'a"b' and Dot(good).ranks == {"source": ["n0"]}
    for bad in (
        good[:-1],  # unbalanced
        good.replace('a\\"b', 'a"b'),  # an unescaped quote
        good.replace("n0 -> n1", "n0 -> n9"),  # an edge to no node
        good.replace("n1;", "n0;"),  # a node declared twice
        good.replace("[label", "[label label"),  # an attribute without a value
        good.replace("digraph", "graph"),
    ):
        with pytest.raises(AssertionError):
            Dot(bad)


# ---- graphs to draw


def _layer_graph():
    def layer(x):
        return [bind(reduce_sum_p, bind(tanh_p, bind(mul_p, x, 2.0)), axes=(1,))]

    return make_graph(layer, [ShapedArray((3, 4), np.dtype("float64"))])[0]


def _chain(builder, x, y, n):
    (h,) = builder.emit(add_p, (x, y))
    for _ in range(n - 1):
        (h,) = builder.emit(tanh_p, (h,))
    return h


def _fused_graph(n_inner=3, nested=False):
    """graph(a, b) { c = fusion[n_inner ops, or 2 ops around a fusion of n_inner] a b; d = tanh c; ...}"""
    inner = GraphBuilder()
    x, y = Var(F64), Var(F64)
    if nested:
        deepest = GraphBuilder()
        p, q = Var(F64), Var(F64)
        sub = deepest.build((p, q), (_chain(deepest, p, q, n_inner),))
        (h,) = inner.emit(tanh_p, (x,))
        (h,) = inner.emit(fusion_p, (h, y), {"graph": sub})
        (h,) = inner.emit(mul_p, (h, x))
    else:
        h = _chain(inner, x, y, n_inner)
    sub = inner.build((x, y), (h,))
    outer = GraphBuilder()
    a, b = Var(F64), Var(F64)
    (c,) = outer.emit(fusion_p, (a, b), {"graph": sub})
    (d,) = outer.emit(tanh_p, (c,))
    return outer.build((a, b), (d, a))


def _escaping_graph():
    graph = _layer_graph()
    e = graph.eqns[0]
    eqn = Eqn(e.prim, e.inputs, e.outputs, e.params, 'C:\\dir\\"odd"\nname.py:7')
    return Graph(graph.inputs, (eqn, *graph.eqns[1:]), graph.outputs)


def _control_flow_graph():
    f = arraystack.jit(lambda c: arraystack.fori_loop(0, 3, lambda i, v: v * 2.0, c))
    return f.lower(arraystack.ones(3)).optimized


GRAPHS = {
    "layer": _layer_graph,
    "fused": _fused_graph,
    "nested fusion": lambda: _fused_graph(2, nested=True),
    "fusion too big to expand": lambda: _fused_graph(40),
    "escaped source": _escaping_graph,
    "control flow": _control_flow_graph,
}


def _scene_and_dot(graph, placement=None):
    placement = drawing.placement_map(placement)
    colours = drawing.device_colours(placement.values())
    scene = drawing.build_scene(graph, placement)
    return scene, colours, drawing.to_dot(scene, colours)


@pytest.mark.parametrize("name", GRAPHS)
def test_dot_source_is_well_formed_and_holds_the_scene(name):
    scene, _, text = _scene_and_dot(GRAPHS[name]())
    dot = Dot(text)
    assert set(dot.nodes) == {f"n{n.id}" for n in scene.nodes}
    assert dot.edges == [(f"n{s}", f"n{d}") for s, d in scene.edges]
    for n in scene.nodes:
        attrs = dot.nodes[f"n{n.id}"]
        assert attrs["label"] == "\n".join(n.lines) and attrs["tooltip"] == n.title
        assert attrs["shape"] == ("box" if n.kind == "eqn" else "ellipse")
    kinds = {k: [f"n{n.id}" for n in scene.nodes if n.kind == k] for k in ("input", "output")}
    assert dot.ranks == {"source": kinds["input"], "sink": kinds["output"]}
    if name == "escaped source":  # a backslash, quotes and a newline survive the round trip
        assert any(
            v["tooltip"].endswith('at C:\\dir\\"odd"\nname.py:7') for v in dot.nodes.values()
        )


@pytest.mark.parametrize("nested", [False, True])
def test_each_fused_region_is_a_cluster_holding_exactly_its_equations(nested):
    scene, _, text = _scene_and_dot(_fused_graph(3, nested=nested))
    dot = Dot(text)
    assert len(dot.clusters) == len(scene.clusters) == (2 if nested else 1)
    for c in scene.clusters:
        info = dot.clusters[f"cluster_{c.id}"]
        assert info["parent"] == (None if c.parent is None else f"cluster_{c.parent}")
        assert info["attrs"]["label"] == f"eqn {c.index}: {c.label}"
        inside = {k for k, v in dot.nodes.items() if v["cluster"] == f"cluster_{c.id}"}
        nested_in = {f"n{n.id}" for n in scene.nodes if n.index.startswith(c.index + ".")}
        deeper = {k for k, v in dot.nodes.items() if v["cluster"] not in (None, f"cluster_{c.id}")}
        assert inside == nested_in - deeper and inside
    top = [v for v in dot.nodes.values() if v["cluster"] is None and v["shape"] == "box"]
    assert [v["label"].split("\n")[0] for v in top] == ["tanh"]  # eqn 1, outside the region
    big = Dot(_scene_and_dot(_fused_graph(40))[2])
    assert not big.clusters and any(
        v["label"].startswith("fusion (40 eqns)") for v in big.nodes.values()
    )


def test_devices_colour_nodes_and_clusters_and_inputs_keep_their_own_colours():
    scene, colours, text = _scene_and_dot(_fused_graph(3), {0: "cpu", 1: "gpu0"})
    dot = Dot(text)
    assert set(colours) == {"cpu", "gpu0"} and colours["cpu"] != colours["gpu0"]
    for n in scene.nodes:
        fill = dot.nodes[f"n{n.id}"]["fillcolor"]
        if n.kind == "eqn":
            assert fill == colours["cpu" if n.index.startswith("0") else "gpu0"]
        else:
            assert fill == (drawing.INPUT_FILL if n.kind == "input" else drawing.OUTPUT_FILL)
    assert dot.clusters["cluster_0"]["attrs"]["fillcolor"] == colours["cpu"] + "40"  # translucent
    plain = Dot(_scene_and_dot(_fused_graph(3))[2])
    assert {v["fillcolor"] for v in plain.nodes.values() if v["shape"] == "box"} == {
        drawing.DEFAULT_FILL
    }


def test_a_plan_colours_the_dot_source_by_its_regions():
    @arraystack.jit
    def f(x, w):
        return arraystack.tanh(x @ w + 1.0).sum() * 2.0

    lowered = f.lower(arraystack.ones((4, 3)), arraystack.ones((3, 5)))
    plan = lowered.plan()
    scene, colours, text = _scene_and_dot(lowered.optimized, plan)
    dot = Dot(text)
    by_region = {str(r.index): colours[str(r.device)] for r in plan.regions}
    for n in scene.nodes:
        if n.kind == "eqn":
            assert dot.nodes[f"n{n.id}"]["fillcolor"] == by_region[n.index.split(".")[0]]


# ---- the subprocess call, against a stand-in `dot` on PATH

_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g class="graph"/></svg>'


def _fake_dot(tmp_path, monkeypatch, body):
    """An executable `dot` in tmp_path, first on PATH, running `body` (Python) after recording its
    arguments and input in tmp_path/args and tmp_path/input.dot."""
    fake = tmp_path / "dot"
    fake.write_text(
        f"#!{sys.executable}\nimport sys, time\n"
        f"open({str(tmp_path / 'args')!r}, 'w').write(' '.join(sys.argv[1:]))\n"
        f"open({str(tmp_path / 'input.dot')!r}, 'wb').write(sys.stdin.buffer.read())\n"
        + textwrap.dedent(body)
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    return fake


@posix_only
def test_dot_on_path_lays_the_picture_out(tmp_path, monkeypatch):
    _fake_dot(
        tmp_path,
        monkeypatch,
        f"""\
        print('<?xml version="1.0" encoding="UTF-8" standalone="no"?>')
        print('<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/1.1/DTD/svg11.dtd">')
        print({_SVG!r})
        """,
    )
    graph = _fused_graph(3)
    d = draw(graph, placement={0: "cpu"})
    assert d.engine == "dot" and d.note == "" and d.svg.startswith("<svg")  # declaration dropped
    ET.fromstring(d.svg)
    assert (tmp_path / "args").read_text() == "-Tsvg"
    assert (tmp_path / "input.dot").read_text() == _scene_and_dot(graph, {0: "cpu"})[2]
    assert draw(graph, engine="python").engine == "python"  # asked for: dot is not run
    assert draw(graph, engine="dot").engine == "dot"


FAILURES = {
    "error status": (
        "sys.stderr.write('Error: syntax error in line 3\\n'); sys.exit(3)",
        "exit status 3: Error: syntax error in line 3",
    ),
    "no svg": ("print('Warning: nothing to draw')", "printed no <svg> element"),
    "not UTF-8": ("sys.stdout.buffer.write(b'<svg \\xff\\xfe/>')", "not UTF-8"),
    "hangs": ("time.sleep(30)", "no answer within 0.5 s"),
}


@posix_only
@pytest.mark.parametrize("how", FAILURES)
def test_a_failing_dot_falls_back_to_the_python_layout_with_a_note(tmp_path, monkeypatch, how):
    body, says = FAILURES[how]
    fake = _fake_dot(tmp_path, monkeypatch, body)
    if how == "hangs":  # only here: a slow start on a loaded machine must not look like a hang
        monkeypatch.setattr(drawing, "DOT_TIMEOUT", 0.5)
    graph = _layer_graph()
    with pytest.warns(RuntimeWarning, match=re.escape(says)):
        d = draw(graph)
    assert d.engine == "python" and says in d.note and str(fake) in d.note
    assert says in repr(d) and d.svg == draw(graph, engine="python").svg
    with pytest.raises(RuntimeError, match=re.escape(says)):
        draw(graph, engine="dot")


@posix_only
def test_a_dot_that_cannot_run_falls_back(tmp_path, monkeypatch):
    fake = _fake_dot(tmp_path, monkeypatch, "")
    fake.write_text("#!/nonexistent/interpreter\n")
    with pytest.warns(RuntimeWarning, match="graphviz's dot .* failed"):
        assert draw(_layer_graph()).engine == "python"


_PNG_BODY = """\
import struct, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
if sys.argv[1:] == ["-Tpng"]:
    header = chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
    pixels = chunk(b"IDAT", zlib.compress(b"\\x00\\x00"))
    sys.stdout.buffer.write(b"\\x89PNG\\r\\n\\x1a\\n" + header + pixels + chunk(b"IEND", b""))
else:
    print(%r)
"""


@posix_only
def test_png_from_dot_runs_dot_again_on_the_same_source(tmp_path, monkeypatch):
    _fake_dot(tmp_path, monkeypatch, _PNG_BODY % _SVG)
    d = draw(_layer_graph())
    source = (tmp_path / "input.dot").read_text()
    out = d.save(tmp_path / "g.png")
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR"
    assert (tmp_path / "args").read_text() == "-Tpng"
    assert (tmp_path / "input.dot").read_text() == source
    (tmp_path / "dot").write_text(f"#!{sys.executable}\nimport sys\nsys.exit(2)\n")
    with pytest.raises(RuntimeError, match="failed to write g2.png: exit status 2"):
        d.save(tmp_path / "g2.png")


def test_png_of_a_python_layout_goes_through_cairosvg(tmp_path, monkeypatch):
    calls = []

    def svg2png(bytestring, write_to):
        calls.append(bytestring)
        pathlib.Path(write_to).write_bytes(b"\x89PNG stand-in")

    monkeypatch.setitem(sys.modules, "cairosvg", types.SimpleNamespace(svg2png=svg2png))
    d = draw(_layer_graph(), engine="python")
    assert d.save(tmp_path / "g.png").read_bytes() == b"\x89PNG stand-in"
    assert calls == [d.svg.encode("utf-8")]
