"""Every catalog rule's `example_bad` yields exactly that rule; its `example_good` yields none."""

from __future__ import annotations

import pytest

import tapemagic
from tapemagic import rules
from tapemagic.report.validate import validate_report

pytestmark = pytest.mark.tf

_RULES = rules.load_catalog().rules


def _check(source: str, name: str) -> tapemagic.Check:
    namespace: dict[str, object] = {"__name__": "__main__"}
    check = None
    try:
        with tapemagic.gradcheck() as check:
            exec(compile(source, name, "exec"), namespace)  # noqa: S102
    except Exception:  # noqa: BLE001 - some bad examples raise (TM105); the report still exists
        pass
    assert check is not None and check.report is not None
    validate_report(check.report.to_json())
    return check


@pytest.mark.parametrize("rule", [r for r in _RULES if r.example_bad], ids=lambda r: r.code)
def test_bad_example_yields_exactly_its_rule(rule: rules.Rule) -> None:
    check = _check(rule.example_bad or "", f"<{rule.code} bad>")
    assert set(check.report.codes) == {rule.code}, check.report.codes
    assert all(f.location is not None for f in check.report.findings)


@pytest.mark.parametrize("rule", _RULES, ids=lambda r: r.code)
def test_good_example_yields_nothing(rule: rules.Rule) -> None:
    check = _check(rule.example_good, f"<{rule.code} good>")
    assert check.report.codes == []
    verdicts = {s.verdict for c in check.report.gradient_calls for s in c.sources}
    assert verdicts <= {"connected"}
