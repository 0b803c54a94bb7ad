"""Renderers (text, DOT, MIME) on hand-built reports, TF-free (HTML: test_render_html.py)."""

from __future__ import annotations

import dataclasses
import re
import shutil

import graphviz
import pytest
from samples import NASTY, nasty_report, seed000_graph, seed000_report

from tapemagic.report import MIME_TYPE, build_dot, mimebundle, render_text
from tapemagic.report.dot import dot_text
from tapemagic.report.graphmodel import Graph, GraphEdge, GraphNode
from tapemagic.report.model import ChainStep, ErrorInfo, Location
from tapemagic.report.text import MAX_CHAIN, format_chain
from tapemagic.report.validate import validate_report

HAS_DOT = shutil.which("dot") is not None
RAW_IMG = "<img src=x onerror=alert(1)>"


# ---------------------------------------------------------------- text


def test_text_anatomy_of_seed000():
    text = render_text(seed000_report())
    lines = text.splitlines()
    assert lines[0] == "tapemagic: no gradient reaches 4 of 4 weights (3 findings)"
    assert "gradient call g1: tape.gradient(loss) at In[5], line 16 (tape t1)" in lines
    for weight in ("sequential/h/kernel", "sequential/out/bias"):
        row = next(line for line in lines if line.strip().startswith(weight))
        assert row.split()[1:4] == ["none", "severed", "TM301,"]
    start = lines.index(next(line for line in lines if line.startswith("TM301 host-round-trip: ")))
    block = lines[start : lines.index("", start)]
    assert block[1] == "    at: In[5], line 6, in custom_loss()"
    assert block[2] == "      |     p = y_pred.numpy()"
    assert block[3] == "      |         " + "^" * len("y_pred.numpy()")
    assert "    api: .numpy()" in block
    path = next(line for line in block if line.startswith("    path: "))
    assert path.startswith("    path: sequential/h/kernel -> ")
    assert "-> \u2702 .numpy() at In[5], line 6 ->" in path
    assert path.endswith("-> loss at In[5], line 15")
    assert (
        block[-3].startswith("    fix: Keep the computation in TensorFlow")
        and "(unsafe fix: review before applying)" in block[-3]
    )
    assert block[-2] == '      edit: L6:8-L6:22 -> "y_pred"'
    assert block[-1] == "    see: %gradcheck --explain TM301"
    assert any(
        line.startswith("TM101 tape-not-watching: The tape opened at line 12") for line in lines
    )
    assert "    order: secondary" in text
    assert text.endswith("note: `custom_loss` is defined in this cell; its lines are cell lines.\n")


def test_text_is_deterministic_and_ascii_apart_from_scissors():
    text = render_text(seed000_report())
    assert text == render_text(seed000_report())
    assert {c for c in text if ord(c) > 127} == {"\u2702"}


def test_long_chain_keeps_first_cuts_and_tail():
    chain = [ChainStep(f"op{i}", i + 1, cut=(i == 9)) for i in range(20)]
    out = format_chain(chain)
    parts = out.split(" -> ")
    assert parts[0] == "op0 at line 1" and parts[-1] == "op19 at line 20"
    assert "\u2702 op9 at line 10" in parts
    omitted = [int(m) for m in re.findall(r"\.\.\. \((\d+) omitted\)", out)]
    shown = [p for p in parts if not p.startswith("...")]
    assert len(shown) + sum(omitted) == 20 and len(omitted) == 2
    assert len(format_chain(chain[:MAX_CHAIN]).split(" -> ")) == MAX_CHAIN


def test_chain_step_from_another_cell_names_it():
    steps = [ChainStep("w"), ChainStep("my_loss", 3, execution_count=2),
             ChainStep("loss", 9, execution_count=5)]
    # every step names its cell, the report's own too: one place, one name
    assert format_chain(steps, cell_ec=5) == (
        "w -> my_loss at In[2], line 3 -> loss at In[5], line 9")


def test_text_exception_fallback_fix_and_unknown_rule():
    report = seed000_report()
    f1, f2, f3 = report.findings
    err = ErrorInfo(
        "ValueError",
        "No gradients provided for any variable.\nsecond line",
        "every gradient is None",
        Location("x.py", 4, source_line="opt.apply(g)"),
    )
    report = dataclasses.replace(
        report,
        exception=err,
        headline="",
        findings=(
            dataclasses.replace(f1, fix=None),
            dataclasses.replace(f2, rule="TM999", fix=None),
            f3,
        ),
    )
    text = render_text(report)
    assert text.startswith("tapemagic: 3 findings (2 errors)\n")
    assert (
        "exception: ValueError: No gradients provided for any variable.\n      second line\n"
        in text
    )
    assert "    means: every gradient is None" in text and "    at: x.py:4" in text
    # no fix in the finding: the catalog's fix title stands in; unknown rule: no fix line
    tm301 = text.split("TM301 host-round-trip:")[1].split("\n\n")[0]
    assert "fix: Keep the computation in TensorFlow" in tm301
    assert "(unsafe fix: review before applying)" in tm301
    tm999 = text.split("TM999 tape-not-watching:")[1].split("\n\n")[0]
    assert "fix:" not in tm999 and "see: %gradcheck --explain TM999" in tm999


def test_text_escapes_control_characters():
    report = nasty_report()
    esc = dataclasses.replace(report, headline="evil\x1b[2J\u202eheadline")
    text = render_text(esc)
    assert "\x1b" not in text and "\u202e" not in text
    assert text.startswith("evil\\x1b[2J\\u202eheadline\n")
    for line in render_text(report).splitlines():  # a newline in a name never starts a line
        assert not line.startswith("'\\")


# ---------------------------------------------------------------- DOT


def _dot_sane(source: str) -> None:
    """Each line closes its quotes, and no `<...>` (HTML label) appears outside quotes."""
    for line in source.splitlines():
        quoted, i = False, 0
        while i < len(line):
            c = line[i]
            if (quoted and c == "\\") or (not quoted and line.startswith("->", i)):
                i += 2
                continue
            if c == '"':
                quoted = not quoted
            elif c in "<>" and not quoted:
                raise AssertionError(f"unquoted {c!r} in {line!r}")
            i += 1
        assert not quoted, f"unterminated string in {line!r}"


def test_dot_styles_seed000():
    report = seed000_report()
    source = build_dot(report.graph, report.findings)
    _dot_sane(source)
    assert source == report.dot == build_dot(seed000_graph(), report.findings)
    assert source.startswith("digraph tapemagic {")
    assert len(re.findall(r"^\tn\d+ \[", source, re.M)) == len(report.graph.nodes)
    assert re.search(r'^\tn9 \[label="loss\\nIn\[5\], line 15".*shape=doubleoctagon', source, re.M)
    assert 'n0 [label="sequential/h/kernel" shape=box]' in source
    assert "shape=note" in source and "shape=ellipse" in source
    severed = [line for line in source.splitlines() if "style=dashed" in line]
    assert len(severed) == 2
    assert all('label="\u2702 TM301' in line and "color=red" in line for line in severed)
    assert "n0 -> n4 [color=grey50]" in source


def test_dot_zero_edges_unknown_ids_and_empty_graph():
    graph = Graph(
        (GraphNode("a", "op", "a"),),
        (GraphEdge("a", "b:c", "zero"), GraphEdge("b:c", "a", "severed", "missing")),
    )
    source = build_dot(graph)
    _dot_sane(source)
    assert "n0 -> n1 [color=orange fontcolor=orange style=dotted]" in source
    assert 'n1 [label="b:c" shape=plaintext]' in source
    # severed, but no finding marks it: no gradient by design, grey and without scissors
    assert "n1 -> n0 [color=grey60 style=dashed]" in source
    assert "\u2702" not in source and "red" not in source
    assert build_dot(Graph()) == ""


def test_dot_names_a_node_place_as_every_output_does():
    graph = Graph((GraphNode("h", "host", ".numpy()", 5, execution_count=3),
                   GraphNode("m", "op", "Mul", 5)))
    source = build_dot(graph)
    assert 'label=".numpy()\\nIn[3], line 5"' in source and 'label="Mul\\nline 5"' in source


def test_dot_survives_nasty_ids_and_labels():
    report = nasty_report()
    source = build_dot(report.graph, report.findings)
    _dot_sane(source)
    # node names are generated, so ids with ':' (ports), quotes or newlines cannot leak
    for line in source.splitlines():
        if " -> " in line:
            assert re.match(r"^\tn\d+ -> n\d+ \[", line), line
    assert "\\\"; ]\\n'\\\\" in source  # quote escaped, newline as \n, backslash doubled
    if HAS_DOT:
        plain = graphviz.Source(source).pipe(format="plain").decode()
        assert plain.count("\nnode ") == 4 and plain.count("\nedge ") == 3
        assert "\nnode n3 " in plain and '"<img src=x onerror=alert(1)>"' in plain


def test_dot_text():
    assert dot_text("a\\N<b>") == "a\\\\N<b>"
    assert isinstance(dot_text("<b>"), graphviz.quoting.NoHtml)
    assert dot_text("x" * 100).endswith("...") and len(dot_text("x" * 100)) == 60
    assert dot_text("a\x00b\nc") == "a b\\nc"
    with pytest.raises(TypeError):
        dot_text(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------- MIME


def test_mimebundle():
    report = seed000_report()
    bundle = mimebundle(report)
    assert set(bundle) == {MIME_TYPE, "text/html", "text/plain"}
    assert MIME_TYPE == "application/vnd.tapemagic.report.v1+json"
    assert bundle[MIME_TYPE] == report.to_json()
    validate_report(bundle[MIME_TYPE])
    assert bundle["text/plain"] == render_text(report)
    assert bundle["text/html"].startswith('<div class="tapemagic-report">')
    assert report._repr_mimebundle_() == bundle


def test_nasty_constant_is_nasty():
    assert RAW_IMG in NASTY and '"; ]' in NASTY and "\n" in NASTY and "\\" in NASTY


def test_a_call_in_a_traced_function_counts_traces_not_runs():
    report = seed000_report()
    call = report.gradient_calls[0]
    eager = dataclasses.replace(report, gradient_calls=(dataclasses.replace(call, calls=3),))
    traced = dataclasses.replace(report, gradient_calls=(
        dataclasses.replace(call, calls=3, traced=True),))
    assert "ran 3 times, first run analysed" in render_text(eager)
    # fit's train step runs every batch from one graph: 3 is the graphs made, not the steps
    assert "traced 3 times, first trace analysed" in render_text(traced)
    assert "ran 3 times" not in render_text(traced)


def test_an_early_report_says_keras_stops_a_fit_that_trains_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    from tapemagic.cli.script import early_summary
    from tapemagic.preview import early

    report = seed000_report()
    call = report.gradient_calls[0]
    assert report.findings and not report.fit_stops  # not a fit's train step
    for some_trained in (False, True):
        sources = [dataclasses.replace(s, result="none") for s in call.sources]
        if some_trained:
            sources[0] = dataclasses.replace(sources[0], result="ok")
        fit = dataclasses.replace(report, gradient_calls=(
            dataclasses.replace(call, keras_fit=True, sources=tuple(sources)),))
        # every weight None: Keras raises "No gradients provided", the fit does not go on
        assert fit.fit_stops is not some_trained
        early_summary(fit)
        err = capsys.readouterr().err
        assert ("training continues" in err) is some_trained
        assert ("Keras stops this fit" in err) is not some_trained
        assert ("training continues" in early(fit, "press Ctrl-C").headline) is some_trained
