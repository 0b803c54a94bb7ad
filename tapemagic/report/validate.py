"""Validate report payloads against ``report.schema.json``.

TF-free. This module's single job is to say whether a dict is a well-formed v1 report: the JSON
Schema (loaded once from the package with :mod:`importlib.resources`) plus the cross-references
a schema cannot express (ids that findings, sources and edges point at must exist).
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import jsonschema

__all__ = ["load_report_schema", "validate_report"]


@functools.cache
def load_report_schema() -> dict[str, Any]:
    """Return the report JSON Schema shipped in ``tapemagic/schemas/``.

    Returns
    -------
    dict
        The parsed schema (cached: do not mutate it).

    Raises
    ------
    FileNotFoundError
        If the package was installed without its schema files.
    """
    text = resources.files("tapemagic.schemas").joinpath("report.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator() -> jsonschema.protocols.Validator:
    schema = load_report_schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def validate_report(payload: dict[str, Any]) -> None:
    """Check that ``payload`` is a valid ``tapemagic.report/1`` dict.

    Parameters
    ----------
    payload : dict
        What :meth:`tapemagic.report.model.Report.to_json` produced (or a front end received).

    Raises
    ------
    jsonschema.ValidationError
        If the payload does not match the schema (the best-matching error is raised), or if an
        id it refers to is missing: a finding id in ``sources[].finding_ids`` or
        ``graph.edges[].finding``, a node id in ``graph.edges[]``, or a duplicated finding,
        node, tape or gradient-call id.
    """
    error = jsonschema.exceptions.best_match(_validator().iter_errors(payload))
    if error is not None:
        raise error
    _check_references(payload)


def _check_references(payload: dict[str, Any]) -> None:
    findings = _unique_ids([f["id"] for f in payload["findings"]], "findings")
    nodes = _unique_ids([n["id"] for n in payload["graph"]["nodes"]], "graph.nodes")
    _unique_ids([t["id"] for t in payload["tapes"]], "tapes")
    _unique_ids([g["id"] for g in payload["gradient_calls"]], "gradient_calls")
    for i, call in enumerate(payload["gradient_calls"]):
        for j, source in enumerate(call["sources"]):
            for fid in source["finding_ids"]:
                if fid not in findings:
                    _fail(f"unknown finding id {fid!r}", ["gradient_calls", i, "sources", j])
    for i, edge in enumerate(payload["graph"]["edges"]):
        where = ["graph", "edges", i]
        for end in ("source", "target"):
            if edge[end] not in nodes:
                _fail(f"edge {end} {edge[end]!r} is not a node id", where)
        if edge["finding"] is not None and edge["finding"] not in findings:
            _fail(f"unknown finding id {edge['finding']!r}", where)


def _unique_ids(ids: list[str], where: str) -> set[str]:
    seen: set[str] = set()
    for i, value in enumerate(ids):
        if value in seen:
            _fail(f"duplicate id {value!r}", [*where.split("."), i])
        seen.add(value)
    return seen


def _fail(message: str, path: list[Any]) -> None:
    raise jsonschema.ValidationError(message, path=path)
