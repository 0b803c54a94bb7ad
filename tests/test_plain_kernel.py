"""``%%gradcheck`` and ``%gradcheck on`` in a plain kernel: nbclient, no lab, no comm.

The notebook's outputs are what VS Code, Colab, nbconvert or GitHub get: each report as one
display bundle whose ``text/html`` is the whole report (graph, cards, fix), rendered from the
report JSON beside it.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from plain_notebook import execute_plain

from tapemagic.report import render_html
from tapemagic.report.model import MIME_TYPE, Report

pytestmark = [pytest.mark.tf, pytest.mark.slow]


def test_magic_and_auto_mode_display_the_full_report(tmp_path: Path) -> None:
    nb = nbformat.read(execute_plain(tmp_path), as_version=4)
    outputs = [cell.outputs for cell in nb.cells]
    for cell in outputs:  # no error, nothing on stderr (a comm or server would complain there)
        assert not [o for o in cell if o.output_type == "error"]
        assert not [o for o in cell if o.output_type == "stream" and o.name == "stderr"]
    reports = {k: [o for o in cell if o.output_type == "display_data" and MIME_TYPE in o.data]
               for k, cell in enumerate(outputs)}
    assert {k: len(v) for k, v in reports.items()} == {0: 0, 1: 1, 2: 0, 3: 1, 4: 0, 5: 0}
    for k, weight in ((1, "w"), (3, "v")):
        data = reports[k][0].data
        report = Report.from_json(data[MIME_TYPE])
        assert report.codes[0] == "TM301" and report.cell.execution_count == k + 1
        assert data["text/html"] == render_html(report)  # the one report, in full
        assert '<g class="tm-edge tm-severed" data-rule="TM301" ' in data["text/html"]
        assert f"<code>{weight}</code>" in data["text/html"]
        assert "TM301" in data["text/plain"]
    # the correct cell in auto mode: silent, and its own output as without the check
    assert [o.text for o in outputs[4] if o.output_type == "stream"] == ["6.0\n"]
