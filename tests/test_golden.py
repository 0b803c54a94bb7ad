"""Golden files: the text and HTML renderers' output for a few fixed reports, byte for byte.

Each ``tests/golden/<case>.report.json`` is a report as a run once wrote it (``run --json``):
a fixed input, so the renderers are compared on the same data every time, with nothing that
depends on timing or on TensorFlow. Its renderings are ``<case>.txt`` (``render_text``) and
``<case>.html`` (``render_html``). After a deliberate change to a renderer, rewrite them with
``pytest tests/test_golden.py --update-golden`` (or ``TAPEMAGIC_UPDATE_GOLDEN=1``) and read the
diff before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tapemagic.report.html import render_html
from tapemagic.report.model import Report
from tapemagic.report.text import render_text
from tapemagic.report.validate import validate_report

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(p.name.removesuffix(".report.json") for p in GOLDEN.glob("*.report.json"))
RENDERERS = {"txt": render_text, "html": render_html}


def _updating(config: pytest.Config) -> bool:
    return bool(config.getoption("--update-golden")
                or os.environ.get("TAPEMAGIC_UPDATE_GOLDEN") == "1")


def _report(case: str) -> Report:
    payload = json.loads((GOLDEN / f"{case}.report.json").read_text(encoding="utf-8"))
    validate_report(payload)
    return Report.from_json(payload)


@pytest.mark.parametrize("suffix", sorted(RENDERERS))
@pytest.mark.parametrize("case", CASES)
def test_rendering_equals_its_golden_file(case: str, suffix: str,
                                          pytestconfig: pytest.Config) -> None:
    rendered = RENDERERS[suffix](_report(case))
    golden = GOLDEN / f"{case}.{suffix}"
    if _updating(pytestconfig):
        golden.write_text(rendered, encoding="utf-8")
    assert golden.is_file(), f"no golden file {golden.name}: run pytest --update-golden"
    assert rendered == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs: if the change is meant, pytest --update-golden and read the diff")


def test_the_golden_cases_cover_the_report_shapes() -> None:
    """A clean run, a cut with a fix, a Keras fit, a gradient call that raised."""
    reports = [_report(case) for case in CASES]
    assert any(not r.findings and r.gradient_calls for r in reports)
    assert any(f.fix is not None for r in reports for f in r.findings)
    assert any(c.keras_fit for r in reports for c in r.gradient_calls)
    assert any(r.exception is not None or any(c.error for c in r.gradient_calls)
               for r in reports)


def test_every_golden_file_has_its_report() -> None:
    """A golden file whose input was removed is not left behind unread."""
    stray = [p.name for p in GOLDEN.iterdir()
             if not p.name.endswith(".report.json")
             and p.name.rsplit(".", 1)[0] not in CASES]
    assert not stray, stray
