"""One way to name a place: ``In[4], line 14``, ``cell 5 (In[4]), line 14``, ``train.py:14``.

TF-free. :func:`tapemagic.report.places.place` is the one formatter; every renderer, the CI
messages, the graph's labels and the JSON's ``where`` fields say what it says.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET  # noqa: S405 - our own SVG, read back

from samples import seed000_report

from tapemagic.report.annotation import Place, from_finding
from tapemagic.report.dot import build_dot
from tapemagic.report.github import command
from tapemagic.report.graphmodel import GraphNode
from tapemagic.report.html import render_html
from tapemagic.report.model import ChainStep, Location, Report
from tapemagic.report.places import numbered, place
from tapemagic.report.sarif import build_sarif
from tapemagic.report.svg import graph_svg
from tapemagic.report.text import render_text
from tapemagic.report.validate import validate_report

#: The ways a place was named before there was one (issue 31): none may come back.
OLD_FORMS = re.compile(r"\(L\d+\)|In\[\d+\] line \d|In\[\d+\] L\d|cell \d+:\d+")


def test_the_forms() -> None:
    assert place(14, 4) == "In[4], line 14"
    assert place(14, 4, 5) == "cell 5 (In[4]), line 14"
    assert place(None, 4, 5) == "cell 5 (In[4])"
    assert place(14, cell=5) == "cell 5, line 14"  # a lint hint: no run, no In[N]
    assert place(14, file=os.path.join(os.getcwd(), "train.py")) == "train.py:14"
    assert place(14, file="/elsewhere/train.py") == "/elsewhere/train.py:14"
    assert place(14, 4, file="/tmp/ipykernel_1/123.py") == "In[4], line 14"  # not the temp name
    assert place(14) == "line 14" and place(None) == ""


def test_locations_steps_and_nodes_carry_the_name_in_their_json() -> None:
    loc = Location("/tmp/ipykernel_1/123.py", 14, execution_count=4)
    assert loc.where == loc.label == "In[4], line 14"
    assert ChainStep("dense", 14, execution_count=4).where == "In[4], line 14"
    assert ChainStep("loss").where == ""
    assert GraphNode("n", "op", "Mul", 14, execution_count=4).where == "In[4], line 14"
    payload = seed000_report().to_json()
    assert payload["findings"][0]["location"]["where"] == "In[5], line 6"
    assert [s["where"] for s in payload["findings"][0]["chain"]][:2] == ["", "In[5], line 14"]


def test_a_report_written_before_the_names_still_validates_and_loads_named() -> None:
    report = seed000_report()
    payload = json.loads(json.dumps(report.to_json()))

    def strip(value: object) -> None:
        if isinstance(value, dict):
            if "where" in value:  # a location, a chain step, a graph node
                del value["where"], value["cell"]
                if "group" in value:  # a graph node: its execution_count came with `where`
                    del value["execution_count"]
            for inner in value.values():
                strip(inner)
        elif isinstance(value, list):
            for inner in value:
                strip(inner)

    strip(payload)
    validate_report(payload)
    loaded = Report.from_json(payload)
    assert loaded.findings == report.findings  # named again from their lines and cells
    assert loaded.graph.nodes[-1].where == "line 15"  # an old node knew no cell


def test_numbered_names_every_place_of_a_report_with_its_notebook_cell() -> None:
    report = numbered(seed000_report(), {5: 7})
    text = render_text(report)
    assert "    at: cell 7 (In[5]), line 6, in custom_loss()" in text
    assert "-> \u2702 .numpy() at cell 7 (In[5]), line 6 ->" in text
    assert {n.where for n in report.graph.nodes if n.line} == {
        f"cell 7 (In[5]), line {n.line}" for n in report.graph.nodes if n.line}
    validate_report(report.to_json())
    assert numbered(seed000_report(), {3: 4}) == seed000_report()  # another cell: unchanged


def test_every_output_names_a_place_the_same_way() -> None:
    report = numbered(seed000_report(), {5: 7})
    finding = report.findings[0]
    assert finding.location is not None
    name = finding.location.where
    assert name == "cell 7 (In[5]), line 6"
    cut = next(s for s in finding.chain if s.cut)
    node = next(n for n in report.graph.nodes if n.label == ".numpy()")
    assert cut.where == node.where == name
    text, html = render_text(report), render_html(report)
    element = graph_svg(report)
    assert element is not None
    svg = ET.tostring(element, encoding="unicode")
    dot = build_dot(report.graph, report.findings)
    annotation = from_finding(finding, lambda loc: Place(
        "nb.ipynb", loc.line, loc.col, cell=loc.cell, count=loc.execution_count)
        if loc is not None else Place("nb.ipynb"))
    github = command(annotation)
    sarif = build_sarif([annotation])["runs"][0]["results"][0]["message"]["text"]
    for shown in (text, html, svg, dot, github, sarif):
        assert name in shown
        assert not OLD_FORMS.search(shown), OLD_FORMS.search(shown)
    assert github.split("::")[2].startswith(f"{name}: ")
    assert sarif.startswith(f"{name}: ")
    assert annotation.place.label == f"nb.ipynb, {name}"
