"""The verified-fix column of ``bench/accuracy.py``: the independent check of each fix.

A fix that ``--verify-fixes`` marked verified is checked again here, outside tapemagic's own
judge: its edits are applied to a copy of the case, the copy runs under the CLI (without
verification), and the weights the case expects must now get a gradient.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def check_fix(path: Path, weights: tuple[str, ...], finding: dict[str, Any], env: dict[str, str],
              timeout: float = 600.0) -> str:
    """Apply a finding's fix to a copy of the case, run it under the CLI; return what is wrong.

    Empty when every expected weight (the finding's, when the header names none: a tensor
    source) gets a gradient in the copy's report.
    """
    fix = finding["fix"]
    sys.path.insert(0, str(ROOT))
    from tapemagic.report.model import Edit
    from tapemagic.verify import apply_edits

    text = apply_edits(path.read_text(encoding="utf-8"),
                       [Edit(**e) for e in fix["edits"]])
    with tempfile.TemporaryDirectory() as tmp:
        copy, out = Path(tmp) / path.name, Path(tmp) / "report.json"
        copy.write_text(text, encoding="utf-8")
        argv = [sys.executable, "-m", "tapemagic", "run", "--json", str(out), str(copy)]
        try:
            subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, timeout=timeout,
                           check=False)
        except subprocess.TimeoutExpired:
            return "the fixed copy timed out"
        if not out.exists():
            return "the fixed copy wrote no report"
        report = json.loads(out.read_text())
    sources = [s for c in report.get("gradient_calls", []) for s in c.get("sources", [])]
    wanted = (weights or tuple(finding.get("variables", ()))
              or tuple(s["variable"] for s in sources))  # a run that ended before any call
    cut = [w for w in wanted if any(s["variable"] == w and s["result"] != "ok" for s in sources)]
    gone = [w for w in wanted if not any(s["variable"] == w for s in sources)]
    errors = [f for f in report.get("findings", []) if f.get("severity") == "error"]
    if gone and (errors or not sources or any(s["result"] != "ok" for s in sources)):
        cut += gone  # taken out of the sources (a frozen weight) counts only if all else is ok
    return f"still cut in the fixed copy: {', '.join(cut)}" if cut or not wanted else ""


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
