"""Write findings and lint hints as one SARIF 2.1.0 log (GitHub code scanning, IDE viewers).

TF-free. This module's single job is :func:`build_sarif`: a log with one run whose
``tool.driver.rules`` are the catalog's rules (id = code, name = the rule's name, short
description = its title, full description = its *what* text, default level from its
severity) and whose ``results`` are the annotations, each pointing at its rule by ``ruleId``
and ``ruleIndex``. Levels: error → ``error``, warning and lint hints → ``warning``, info →
``note``. Positions use SARIF's 1-based lines and columns; a notebook cell, which SARIF
regions cannot name, is given as the notebook file with the cell and its line in the result's
``properties`` (``cell``, ``cellLine``, ``cellColumn``) and at the start of the message
(named as every output names a place: ``cell 5 (In[4]), line 14:``).
Plain dicts (no SARIF library: the format is small and the log is checked against the official
2.1.0 schema in the tests).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tapemagic.report.annotation import Annotation

__all__ = ["SARIF_SCHEMA", "SARIF_VERSION", "build_sarif"]

SARIF_VERSION = "2.1.0"
#: The ``$schema`` every SARIF 2.1.0 log names (the OASIS errata 01 schema).
SARIF_SCHEMA = ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                "sarif-schema-2.1.0.json")
_LEVEL = {"error": "error", "warning": "warning", "hint": "warning", "info": "note"}


def _uri(path: str) -> str:
    """Return a file path as a SARIF artifact URI (relative stays relative, '/' separated)."""
    if os.path.isabs(path):
        return Path(path).as_uri()
    return quote(path.replace(os.sep, "/"))


def _rules() -> list[dict[str, Any]]:
    from tapemagic.rules import load_catalog  # lazy: only SARIF output needs the catalog

    return [{
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.title},
        "fullDescription": {"text": rule.what},
        "help": {"text": f"{rule.why}\n\nFix: {rule.fix_title}"},
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"tags": list(dict.fromkeys((rule.family, rule.cause)))},
    } for rule in load_catalog().rules]


def _result(annotation: Annotation, index: dict[str, int]) -> dict[str, Any]:
    place = annotation.place
    message = annotation.message
    properties: dict[str, Any] = {}
    location: dict[str, Any] = {"artifactLocation": {"uri": _uri(place.path)}}
    if place.cell is not None:
        properties["cell"] = place.cell
        if place.line is not None:
            properties["cellLine"] = place.line
            if place.col is not None:
                properties["cellColumn"] = place.col + 1
        message = f"{place.where}: {message}"
    elif place.line is not None and place.line >= 1:
        region: dict[str, Any] = {"startLine": place.line}
        if place.col is not None:
            region["startColumn"] = place.col + 1
        if place.end_line is not None and place.end_line >= place.line:
            region["endLine"] = place.end_line
            if place.end_col is not None:
                region["endColumn"] = place.end_col + 1  # SARIF's end column is exclusive
        location["region"] = region
    result: dict[str, Any] = {
        "ruleId": annotation.code,
        "level": _LEVEL[annotation.severity],
        "message": {"text": message},
        "locations": [{"physicalLocation": location}],
    }
    if annotation.code in index:
        result["ruleIndex"] = index[annotation.code]
    if annotation.fix:
        properties["fix"] = annotation.fix
    if annotation.severity == "hint":
        properties["hint"] = True  # from the static checker: nothing ran
    if properties:
        result["properties"] = properties
    return result


def build_sarif(annotations: Iterable[Annotation], *, successful: bool = True) -> dict[str, Any]:
    """Return the SARIF 2.1.0 log (a JSON-ready dict) of ``annotations``.

    Parameters
    ----------
    annotations : iterable of Annotation
        The findings of a run or the hints of ``lint``, in the order to report them.
    successful : bool
        Whether the analysed code ran to its end (``invocations[0].executionSuccessful``).

    Raises
    ------
    KeyError
        If an annotation's severity is not error, warning, info or hint.
    """
    from tapemagic._version import __version__

    rules = _rules()
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {
                "name": "tapemagic",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": rules,
            }},
            "invocations": [{"executionSuccessful": successful}],
            "results": [_result(a, index) for a in annotations],
        }],
    }
