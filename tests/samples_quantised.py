"""A hand-built report of the quantised-layer notebook (issue 31): two cuts deep in a chain.

Two instances of a custom layer whose `call` (cell In[2], line 14) rounds its kernel; the
model is built and trained by `fit` in the report's own cell In[3], whose line 14 is the `fit`
line. Six Keras layers sit between the two instances, so a left-to-right drawing is wider than
a page and the second cut falls far from the first. Shared by the HTML and JupyterLab tests;
the extension's unit tests read it as JSON (regenerate: python tests/samples_quantised.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from tapemagic.report.model import (
    CellInfo,
    Edit,
    Finding,
    Fix,
    GradientCall,
    Graph,
    GraphEdge,
    GraphNode,
    Location,
    Report,
    SourceResult,
)
from tapemagic.rules import format_message, get_rule

MODEL_CELL = "%%gradcheck\n" + "\n".join(f"step_{k} = {k}" for k in range(2, 14)) + \
    "\nmodel.fit(x, y, epochs=2, verbose=0)\n"
LAYER_FILE = "/tmp/ipykernel_1/cell2.py"
MODEL_FILE = "/tmp/ipykernel_1/cell3.py"
ROUND_LINE = "        w_q = tf.round(self.kernel * 127.0) / 127.0"
MIDDLE = ("re_lu", "dropout_one", "batch_normalization", "re_lu_1", "dropout_two", "dense_extra")
FIXED = ("(self.kernel * 127.0 + tf.stop_gradient(tf.round(self.kernel * 127.0)"
         " - self.kernel * 127.0))")
CUT = ("net/quantized_dense/kernel", "net/quantized_dense_1/kernel")


def _in_layer_cell(node_id: str, kind: str, label: str, line: int, group: str) -> GraphNode:
    return GraphNode(node_id, kind, label, line, group, LAYER_FILE, 2)  # type: ignore[arg-type]


def _graph() -> Graph:
    nodes: list[GraphNode] = []
    edges: list[GraphEdge] = []
    for q in ("quantized_dense", "quantized_dense_1"):
        layer = f"net/{q}"
        nodes += [GraphNode(f"var:{layer}/kernel", "variable", f"{layer}/kernel"),
                  GraphNode(f"var:{layer}/bias", "variable", f"{layer}/bias"),
                  _in_layer_cell(f"layer:{layer}", "group", layer, 14, layer),
                  _in_layer_cell(f"line:{layer}:14", "op", f"{q} · {ROUND_LINE.strip()}", 14,
                                 layer),
                  _in_layer_cell(f"line:{layer}:15", "op",
                                 f"{q} · return tf.matmul(x, w_q) + self.bias", 15, layer)]
        edges += [GraphEdge(f"var:{layer}/kernel", f"layer:{layer}", "connected"),
                  GraphEdge(f"layer:{layer}", f"line:{layer}:14", "severed", "F1"),
                  GraphEdge(f"line:{layer}:14", f"line:{layer}:15", "connected"),
                  GraphEdge(f"var:{layer}/bias", f"line:{layer}:15", "connected")]
    previous = "line:net/quantized_dense:15"
    for k, name in enumerate(MIDDLE):
        nodes.append(GraphNode(f"layer:net/{name}", "group", f"net/{name}", 3 + k, f"net/{name}",
                               MODEL_FILE, 3))
        edges.append(GraphEdge(previous, f"layer:net/{name}", "connected"))
        previous = f"layer:net/{name}"
    edges.append(GraphEdge(previous, "line:net/quantized_dense_1:15", "connected"))
    nodes += [GraphNode("var:net/head/kernel", "variable", "net/head/kernel"),
              GraphNode("layer:net/head", "group", "net/head", 10, "net/head", MODEL_FILE, 3),
              GraphNode("loss:loss@14", "loss", "loss", 14, None, MODEL_FILE, 3)]
    edges += [GraphEdge("line:net/quantized_dense_1:15", "layer:net/head", "connected"),
              GraphEdge("var:net/head/kernel", "layer:net/head", "connected"),
              GraphEdge("layer:net/head", "loss:loss@14", "connected")]
    return Graph(tuple(nodes), tuple(edges))


def quantised_report() -> Report:
    """Return the report: one TM201 at In[2] line 14 cutting both kernels, with its fix."""
    rule = get_rule("TM201")
    listed = ", ".join(f"`{v}`" for v in CUT)
    params = {"api": "tf.round", "op": "Round", "reason": "has no gradient", "variables": listed}
    loc = Location(LAYER_FILE, 14, 14, 14, 43, ROUND_LINE, "call", 2)
    fix = Fix(rule.fix_title, "unsafe", (Edit(14, 14, 14, 43, FIXED),))
    finding = Finding("F1", rule.code, rule.name, rule.cause, rule.severity,
                      format_message("TM201", params), loc, CUT, ("g1",), params=params, fix=fix,
                      api="tf.round")
    weights = [v for n in _graph().nodes if n.kind == "variable" for v in (n.label,)]
    sources = tuple(SourceResult(v, "keras-variable", "float32", (2,), True,
                                 "none" if v in CUT else "ok",
                                 "severed" if v in CUT else "connected",
                                 ("F1",) if v in CUT else ()) for v in weights)
    call = GradientCall("g1", "t1", Location(MODEL_FILE, 14, execution_count=3), "loss", "none",
                        sources)
    return Report(versions={"tapemagic": "0.2.0"}, mode="graph",
                  cell=CellInfo(MODEL_CELL, MODEL_FILE, 3, "model-cell"), tapes=(),
                  gradient_calls=(call,), findings=(finding,), graph=_graph(), dot="",
                  headline="2 of 7 weights get no gradient: 1 cause")


QUANTISED_JSON = Path(__file__).with_name("samples") / "quantised_sample.json"

if __name__ == "__main__":  # regenerate the fixture the lab extension's unit tests read
    QUANTISED_JSON.write_text(json.dumps(quantised_report().to_json(), indent=1) + "\n",
                              encoding="utf-8")
    print(f"wrote {QUANTISED_JSON}")
