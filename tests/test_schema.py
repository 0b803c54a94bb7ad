"""The report payload contract: schema <-> model <-> sample fixture, TF-free."""

from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
import sys
import typing

import jsonschema
import pytest
from samples import SEED000_JSON, nasty_report, seed000_report

from tapemagic.report import graphmodel, model
from tapemagic.report.validate import load_report_schema, validate_report

# dataclass -> schema definition that describes its JSON form
DEFINITIONS = {
    model.Location: "location",
    model.Edit: "edit",
    model.Fix: "fix",
    model.ChainStep: "chain_step",
    model.Finding: "finding",
    model.SourceResult: "source_result",
    model.ErrorInfo: "error",
    model.GradientCall: "gradient_call",
    model.TapeInfo: "tape",
    graphmodel.GraphNode: "graph_node",
    graphmodel.GraphEdge: "graph_edge",
    graphmodel.Graph: "graph",
    model.CellInfo: "cell",
}


#: Fields added after the schema was published: not required (older reports lack them).
ADDED_LATER = {model.Fix: {"keeps_value"}, model.GradientCall: {"target_value", "traced"},
               model.Location: {"cell", "where"}, model.ChainStep: {"cell", "where"},
               graphmodel.GraphNode: {"file", "execution_count", "cell", "where"}}


def _definition(name: str) -> dict:
    schema = load_report_schema()
    return schema if name == "report" else schema["definitions"][name]


def test_schema_is_a_valid_draft7_schema():
    schema = load_report_schema()
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["properties"]["schema"]["const"] == model.SCHEMA_ID


@pytest.mark.parametrize("cls", [model.Report, *DEFINITIONS], ids=lambda c: c.__name__)
def test_schema_lists_exactly_the_dataclass_fields(cls):
    definition = _definition(DEFINITIONS.get(cls, "report"))
    fields = {f.name for f in dataclasses.fields(cls)}
    assert set(definition["properties"]) == fields
    # to_json always writes every field; a field added later is optional for readers, so
    # reports written before it still validate and load
    assert set(definition["required"]) == fields - ADDED_LATER.get(cls, set())
    assert definition["additionalProperties"] is False


@pytest.mark.parametrize(
    ("literal", "definition"),
    [
        (model.Severity, "severity"),
        (model.Verdict, "verdict"),
        (model.Result, "result"),
        (model.Applicability, "applicability"),
        (graphmodel.NodeKind, "node_kind"),
        (graphmodel.EdgeState, "edge_state"),
    ],
)
def test_literal_types_match_schema_enums(literal, definition):
    assert list(typing.get_args(literal)) == _definition(definition)["enum"]


def test_mode_and_causes_match_schema():
    schema = load_report_schema()
    assert list(typing.get_args(model.Mode)) == schema["properties"]["mode"]["enum"]
    assert list(model.CAUSES) == _definition("cause")["enum"]


def test_seed000_sample_validates_and_round_trips():
    report = seed000_report()
    payload = report.to_json()
    validate_report(payload)
    assert model.Report.from_json(payload) == report
    assert model.Report.from_json(json.loads(json.dumps(payload))) == report


def test_committed_fixture_is_current():
    committed = json.loads(SEED000_JSON.read_text(encoding="utf-8"))
    validate_report(committed)
    assert committed == seed000_report().to_json(), "regenerate: python tests/samples.py"


def test_nasty_strings_are_still_valid_payloads():
    report = nasty_report()
    validate_report(report.to_json())
    assert model.Report.from_json(report.to_json()) == report


def _bad(path: str, value: object = None, *, delete: bool = False) -> dict:
    payload = copy.deepcopy(seed000_report().to_json())
    *parents, last = path.split(".")
    target: typing.Any = payload
    for key in parents:
        target = target[int(key)] if key.isdigit() else target[key]
    if delete:
        del target[last]
    elif last.isdigit():
        target[int(last)] = value
    else:
        target[last] = value
    return payload


@pytest.mark.parametrize(
    "payload",
    [
        _bad("schema", "tapemagic.report/2"),
        _bad("mode", "lazy"),
        _bad("surprise", 1),
        _bad("findings.0.severity", "fatal"),
        _bad("findings.0.cause", "bad-luck"),
        _bad("findings.0.rule", "XX301"),
        _bad("findings.0.extra", True),
        _bad("findings.0.location.line", 0),
        _bad("findings.0.fix.applicability", "maybe"),
        _bad("gradient_calls.0.sources.0.verdict", "fine"),
        _bad("gradient_calls.0.sources.0.result", "nan"),
        _bad("graph.nodes.0.kind", "tensor"),
        _bad("graph.edges.0.state", "cut"),
        _bad("headline", delete=True),
        _bad("cell.source", None),
        # cross-references the schema cannot express
        _bad("graph.edges.0.target", "nowhere"),
        _bad("graph.edges.5.finding", "f99"),
        _bad("gradient_calls.0.sources.0.finding_ids", ["f99"]),
        _bad("findings.1.id", "f1"),
        _bad("graph.nodes.1.id", "var:sequential/h/kernel"),
    ],
)
def test_invalid_payloads_are_rejected(payload):
    with pytest.raises(jsonschema.ValidationError):
        validate_report(payload)


def test_rooms_do_not_import_tensorflow():
    code = (
        "import sys, tapemagic.report, tapemagic.rules, tapemagic.report.validate\n"
        "from tapemagic.report import render_html, render_text\n"
        "assert 'tensorflow' not in sys.modules and 'keras' not in sys.modules, 'TF imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_a_report_written_before_the_value_fields_still_validates_and_loads():
    report = seed000_report()
    payload = report.to_json()
    fixes = [f["fix"] for f in payload["findings"] if f["fix"] is not None]
    assert fixes
    for fix in fixes:
        del fix["keeps_value"]  # as a report of an earlier tapemagic
    for call in payload["gradient_calls"]:
        del call["target_value"]
    validate_report(payload)
    assert model.Report.from_json(payload) == report


def test_committed_quantised_fixture_is_current():
    from tests.samples_quantised import QUANTISED_JSON, quantised_report

    committed = json.loads(QUANTISED_JSON.read_text(encoding="utf-8"))
    validate_report(committed)
    assert committed == quantised_report().to_json(), "run: python tests/samples_quantised.py"
