"""The verified-fix column of ``bench/accuracy.py``: the independent check of each fix.

A fix that ``--verify-fixes`` marked verified is checked again here, outside tapemagic's own
judge: its edits are applied to a copy of the case, the copy runs under the CLI (without
verification), and the weights the case expects must now get a gradient. A fix that promises
to keep what the code computes (``fix.keeps_value``) must also keep the first step's loss: the
case and its fixed copy run again, eager and seeded alike, and their losses are compared.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _run(path: Path, text: str, env: dict[str, str], timeout: float,
         *options: str) -> dict[str, Any] | str:
    """Run ``text`` as a copy of ``path`` under the CLI; return its report or what went wrong."""
    with tempfile.TemporaryDirectory() as tmp:
        copy, out = Path(tmp) / path.name, Path(tmp) / "report.json"
        copy.write_text(text, encoding="utf-8")
        argv = [sys.executable, "-m", "tapemagic", "run", "--json", str(out), *options,
                str(copy)]
        try:
            subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, timeout=timeout,
                           check=False)
        except subprocess.TimeoutExpired:
            return "the fixed copy timed out"
        if not out.exists():
            return "the fixed copy wrote no report"
        return json.loads(out.read_text())  # type: ignore[no-any-return]


def check_fix(path: Path, weights: tuple[str, ...], finding: dict[str, Any], env: dict[str, str],
              timeout: float = 600.0) -> str:
    """Apply a finding's fix to a copy of the case, run it under the CLI; return what is wrong.

    Empty when every expected weight (the finding's, when the header names none: a tensor
    source) gets a gradient in the copy's report, and, for a fix that promises to keep what
    the code computes (``keeps_value``), the loss of the first step is the unfixed code's.
    """
    fix = finding["fix"]
    sys.path.insert(0, str(ROOT))
    from tapemagic.report.model import Edit
    from tapemagic.verify import apply_edits

    original = path.read_text(encoding="utf-8")
    text = apply_edits(original, [Edit(**e) for e in fix["edits"]])
    report = _run(path, text, env, timeout)
    if isinstance(report, str):
        return report
    sources = [s for c in report.get("gradient_calls", []) for s in c.get("sources", [])]
    wanted = (weights or tuple(finding.get("variables", ()))
              or tuple(s["variable"] for s in sources))  # a run that ended before any call
    cut = [w for w in wanted if any(s["variable"] == w and s["result"] != "ok" for s in sources)]
    gone = [w for w in wanted if not any(s["variable"] == w for s in sources)]
    errors = [f for f in report.get("findings", []) if f.get("severity") == "error"]
    if gone and (errors or not sources or any(s["result"] != "ok" for s in sources)):
        cut += gone  # taken out of the sources (a frozen weight) counts only if all else is ok
    if cut or not wanted:
        return f"still cut in the fixed copy: {', '.join(cut)}"
    return _loss_change(path, original, text, finding, env, timeout) \
        if fix.get("keeps_value") else ""


def _loss_change(path: Path, original: str, fixed: str, finding: dict[str, Any],
                 env: dict[str, str], timeout: float) -> str:
    """Say how the first step's loss changed between the code and its fixed copy ('' if not).

    Both run eager (the loss is then a value) with the same seed, outside ``--verify-fixes``.
    """
    seeded = dict(env, TAPEMAGIC_VERIFY_SEED="0")
    losses = []
    for text in (original, fixed):
        report = _run(path, text, seeded, timeout, "--eager")
        if isinstance(report, str):
            return ""  # no loss to compare (the verification said so too)
        names = set(finding.get("variables", ()))
        values = [c.get("target_value") for c in report.get("gradient_calls", [])
                  if not names or names & {s["variable"] for s in c.get("sources", [])}]
        losses.append(values[0] if values else None)
    before, after = losses
    if before is None or after is None or math.isclose(before, after, rel_tol=1e-4,
                                                       abs_tol=1e-6):
        return ""
    return f"the fixed copy changes the loss from {before:.6g} to {after:.6g}"


def print_fixes(results: list[dict[str, Any]]) -> None:
    """Print the broken cases without a verified fix (and why), and any false verification."""
    checked = [r for r in results if "verified" in r]
    if not checked:
        return
    print("\nno verified fix:")
    for r in checked:
        if not r["verified"]:
            why = "; ".join(r["unverified"]) or "no fix with edits"
            print(f"- {r['program'].name}: {why}")
    for r in checked:
        for why in r["false"]:
            print(f"- FALSE VERIFICATION {r['program'].name}: {why}")
