"""Hand-built reports for the TF-free tests (and the lab extension's fixture).

`seed000_report()` is the situation of seeds/000: a custom loss that calls `.numpy()` at line 6,
a tape created with `watch_accessed_variables=False` at line 12, and a Python `if` on a tensor
at line 8; the 4 Keras weights of a two-layer model get None.

Regenerate the JSON fixture after a deliberate change:  .venv/bin/python tests/samples.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tapemagic.report.dot import build_dot
from tapemagic.report.model import (
    CellInfo,
    ChainStep,
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
    TapeInfo,
)
from tapemagic.rules import format_message, get_rule

SEED000_JSON = Path(__file__).with_name("samples") / "seed000_sample.json"

SEED000_CELL = """%%gradcheck
import numpy as np
import tensorflow as tf

def custom_loss(y_true, y_pred):
    p = y_pred.numpy()
    e = np.real(np.sqrt(np.square(p - y_true) + 1.0))
    if tf.reduce_mean(y_pred) > 0.0:
        e = e * 2.0
    return tf.reduce_mean(tf.constant(e))

with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(x)
    y_pred = model(x)
    loss = custom_loss(y_true, y_pred)
grads = tape.gradient(loss, model.trainable_weights)
"""

WEIGHTS = (
    ("sequential/h/kernel", (3, 8)),
    ("sequential/h/bias", (8,)),
    ("sequential/out/kernel", (8, 1)),
    ("sequential/out/bias", (1,)),
)
FILENAME = "<ipython-input-5-1a2b3c4d>"


def _loc(line: int, col: int | None = None, end_col: int | None = None, **kw: object) -> Location:
    source = SEED000_CELL.splitlines()[line - 1]
    return Location(FILENAME, line, line, col, end_col, source, execution_count=5, **kw)  # type: ignore[arg-type]


def _finding(
    fid: str, code: str, loc: Location, params: dict[str, str], names: tuple[str, ...], **kw: object
) -> Finding:
    rule = get_rule(code)
    fix = kw.pop("fix", Fix(rule.fix_title, rule.fix_applicability))
    return Finding(
        fid,
        rule.code,
        rule.name,
        rule.cause,
        rule.severity,
        format_message(code, params),
        loc,
        names,
        ("g1",),
        params=params,
        fix=fix,
        **kw,
    )  # type: ignore[arg-type]


def backticked(names: tuple[str, ...]) -> str:
    return ", ".join(f"`{n}`" for n in names)


def seed000_graph() -> Graph:
    nodes = [GraphNode(f"var:{n}", "variable", n, None, n.rsplit("/", 1)[0]) for n, _ in WEIGHTS]
    nodes += [
        GraphNode("grp:sequential/h", "group", "sequential/h (Dense)", 14, "sequential",
                  execution_count=5),
        GraphNode("grp:sequential/out", "group", "sequential/out (Dense)", 14, "sequential",
                  execution_count=5),
        GraphNode("host:L6", "host", ".numpy()", 6, execution_count=5),
        GraphNode("host:L7", "host", "np.subtract/np.square/np.add/np.sqrt/np.real", 7,
                  execution_count=5),
        GraphNode("op:L10:Mean", "op", "Mean", 10, execution_count=5),
        GraphNode("loss", "loss", "loss", 15, execution_count=5),
    ]
    edges = [
        GraphEdge("var:sequential/h/kernel", "grp:sequential/h", "connected"),
        GraphEdge("var:sequential/h/bias", "grp:sequential/h", "connected"),
        GraphEdge("var:sequential/out/kernel", "grp:sequential/out", "connected"),
        GraphEdge("var:sequential/out/bias", "grp:sequential/out", "connected"),
        GraphEdge("grp:sequential/h", "grp:sequential/out", "connected"),
        GraphEdge("grp:sequential/out", "host:L6", "severed", "f1", ".numpy()"),
        GraphEdge("host:L6", "host:L7", "connected"),
        GraphEdge("host:L7", "op:L10:Mean", "severed", "f1", "matched by value"),
        GraphEdge("op:L10:Mean", "loss", "connected"),
    ]
    return Graph(tuple(nodes), tuple(edges))


def seed000_report() -> Report:
    names = tuple(n for n, _ in WEIGHTS)
    listed = backticked(names)
    chain = (
        ChainStep("sequential/h/kernel"),
        ChainStep("MatMul/BiasAdd/Relu", 14, execution_count=5),
        ChainStep("MatMul/BiasAdd", 14, execution_count=5),
        ChainStep(".numpy()", 6, cut=True, execution_count=5),
        ChainStep("np.subtract/np.square/np.add/np.sqrt/np.real", 7, execution_count=5),
        ChainStep("tf.constant/Mean", 10, execution_count=5),
        ChainStep("loss", 15, execution_count=5),
    )
    findings = (
        _finding(
            "f1",
            "TM301",
            _loc(6, 8, 22, function="custom_loss"),
            {"api": ".numpy()", "variables": listed},
            names,
            api=".numpy()",
            chain=chain,
            fix=Fix(get_rule("TM301").fix_title, "unsafe", (Edit(6, 8, 6, 22, "y_pred"),)),
        ),
        _finding(
            "f2",
            "TM101",
            _loc(12, 21, 51),
            {"tape_line": "12", "variables": listed},
            names,
            fix=Fix(get_rule("TM101").fix_title, "unsafe", (Edit(12, 21, 12, 51, ""),)),
        ),
        _finding(
            "f3",
            "TM303",
            _loc(8, 7, 35, function="custom_loss"),
            {"api": "bool()", "variables": listed},
            names,
            primary=False,
            api="bool()",
        ),
    )
    sources = tuple(
        SourceResult(
            n, "keras-variable", "float32", shape, True, "none", "severed", ("f1", "f2", "f3")
        )
        for n, shape in WEIGHTS
    )
    call = GradientCall("g1", "t1", _loc(16), "loss", "none", sources)
    tape = TapeInfo("t1", _loc(12), False, False, ("x",))
    graph = seed000_graph()
    return Report(
        versions={
            "tapemagic": "0.1.0",
            "tensorflow": "2.21.0",
            "keras": "3.15.1",
            "python": "3.11.7",
        },
        mode="eager",
        cell=CellInfo(SEED000_CELL, FILENAME, 5, "seed000-cell"),
        tapes=(tape,),
        gradient_calls=(call,),
        findings=findings,
        graph=graph,
        dot=build_dot(graph, findings),
        notes=("`custom_loss` is defined in this cell; its lines are cell lines.",),
        headline="tapemagic: no gradient reaches 4 of 4 weights (3 findings)",
    )


NASTY = "<img src=x onerror=alert(1)></script>\"; ]\n'\\"


def nasty_report() -> Report:
    """Every string a user (or a hostile payload) controls carries markup, quotes and newlines."""
    base = seed000_report()
    loc = Location(NASTY, 3, None, 0, 4, "x = '" + NASTY + "'", NASTY, 5, NASTY)
    finding = Finding(
        "f<1>",
        "TM301",
        "host-round-trip",
        "host-round-trip",
        "error",
        "`" + NASTY + "` " + NASTY,
        loc,
        (NASTY, "w"),
        ("g1",),
        True,
        NASTY,
        NASTY,
        (ChainStep(NASTY), ChainStep(NASTY, 3, cut=True), ChainStep("loss")),
        {"api": NASTY, "variables": NASTY},
        Fix(NASTY, "unsafe", (Edit(3, 0, 3, 4, NASTY),)),
    )
    graph = Graph(
        (
            GraphNode(NASTY, "variable", NASTY, 3, NASTY),
            GraphNode("a:b/c", "host", NASTY),
            GraphNode('loss"', "loss", "loss"),
            # a whole label in <...> is what Graphviz would read as an HTML-like label
            GraphNode("<b>", "op", "<img src=x onerror=alert(1)>", None, "<g>"),
        ),
        (
            GraphEdge(NASTY, "a:b/c", "severed", "f<1>", NASTY),
            GraphEdge("a:b/c", 'loss"', "zero", None, NASTY),
            GraphEdge("<b>", 'loss"', "connected", None, "<i>x</i>"),
        ),
    )
    call = GradientCall(
        "g1",
        "t1",
        loc,
        NASTY,
        "zero",
        (SourceResult(NASTY, "variable", "float32", (2,), True, "none", "severed", ("f<1>",)),),
    )
    return Report(
        versions={"tapemagic": NASTY},
        mode="forced-eager",
        cell=CellInfo(NASTY, NASTY, 5, NASTY),
        tapes=base.tapes,
        gradient_calls=(call,),
        findings=(finding,),
        graph=graph,
        dot=build_dot(graph, (finding,)),
        exception=None,
        notes=(NASTY,),
        headline=NASTY,
    )


if __name__ == "__main__":
    text = json.dumps(seed000_report().to_json(), indent=2, ensure_ascii=False) + "\n"
    SEED000_JSON.parent.mkdir(exist_ok=True)
    SEED000_JSON.write_text(text, encoding="utf-8")
    print(f"wrote {SEED000_JSON}", file=sys.stderr)
