"""Fix verification: re-run the code with each fix applied and check that the cut is gone.

TF-free (the re-runs happen in subprocesses). :func:`verify_fixes` takes a report and a
:class:`Runner` that knows how to re-run the code the report came from with one fix's edits
applied, and returns the report with ``fix.verified`` set (True / False) and
``fix.verification`` saying what the re-run showed (what is still cut, or the new error).

Where the re-run happens, and why there: always in a fresh Python process, never in the user's
one. A ``tf.Variable`` (and a Keras variable, an optimizer's slots and iteration counter, a
Keras ``SeedGenerator``'s state) is shared by every shallow copy of a namespace, and an
optimizer may *create* variables and attributes on its first step, which no value snapshot
undoes; a subprocess cannot touch any of them, nor print into the user's output. The price is
the re-run's time: a script runs again from the start (:class:`ScriptRunner`); a notebook cell
runs again after the cells before it, replayed from IPython's input history in a kernel-less
IPython shell (:class:`tapemagic.verify.notebook.HistoryRunner`). Inside a re-run the
environment variable :data:`CHILD_ENV` is set, so a ``--verify-fixes`` there does not recurse.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from typing import Any, Protocol

from tapemagic.report.model import Edit, Finding, Location, Report
from tapemagic.verify.judge import LossCheck, apply_edits, judge

__all__ = ["CHILD_ENV", "Runner", "ScriptRunner", "Unverifiable", "apply_edits", "judge",
           "verify_fixes"]

#: Set (to "1") in the environment of every verification re-run.
CHILD_ENV = "TAPEMAGIC_VERIFYING"
#: The seed of every re-run (``tapemagic.tracing.seeding`` reads it; same name there).
SEED_ENV = "TAPEMAGIC_VERIFY_SEED"
#: Seconds a re-run may take before it counts as not verified.
TIMEOUT = 600.0
_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Unverifiable(Exception):
    """The runner cannot re-run the code this fix edits (another file, an unknown cell)."""


class Runner(Protocol):
    """Re-runs the checked code with ``edits`` applied at ``location``'s file or cell."""

    def run(self, location: Location, edits: Sequence[Edit], eager: bool | None = None
            ) -> tuple[dict[str, Any] | None, str | None]:
        """Return the re-run's JSON report (or None) and why there is none.

        ``eager`` True forces eager execution (the loss of the checked step is then a value
        to compare); None keeps the runner's own mode.

        Raises
        ------
        Unverifiable
            When the edits are in code this runner cannot re-run.
        """
        ...


def in_child() -> bool:
    """Return True inside a verification re-run."""
    return os.environ.get(CHILD_ENV) == "1"


def verify_fixes(report: Report, runner: Runner) -> Report:
    """Return ``report`` with every safe/unsafe fix that has edits verified by a re-run.

    Each fix is applied alone, to a copy of the code (the user's files are never written).
    Display-only fixes and fixes without edits keep ``verified=None``; so does every fix inside
    a verification re-run (no recursion).
    """
    if in_child():
        return report
    losses = LossCheck(runner)
    done: dict[tuple[object, ...], tuple[bool | None, str]] = {}
    findings: list[Finding] = []
    for finding in report.findings:
        fix, location = finding.fix, finding.location
        if (fix is None or fix.applicability == "display-only" or not fix.edits
                or location is None):
            findings.append(finding)
            continue
        key = (location.file, location.execution_count, fix.edits, finding.variables)
        if key not in done:
            try:
                rerun, failure = runner.run(location, fix.edits)
                judged, note = judge(report, finding, rerun, failure)
                if judged and fix.keeps_value is not None:  # and the values it promised
                    judged, note = losses.check(finding, fix, rerun, judged, note)
                done[key] = (judged, note)
            except Unverifiable as why:
                done[key] = (None, f"not verified: {why}")
        verified, note = done[key]
        findings.append(dataclasses.replace(
            finding, fix=dataclasses.replace(fix, verified=verified, verification=note)))
    return dataclasses.replace(report, findings=tuple(findings),
                               notes=(*report.notes, *_summary(findings)))


def _summary(findings: Sequence[Finding]) -> list[str]:
    """One note saying which fixes were verified and which were not (none when none ran)."""
    checked = [f for f in findings if f.fix is not None and f.fix.verified is not None]
    if not checked:
        return []

    def names(fs: list[Finding]) -> str:
        return ", ".join(f"{f.id} ({f.rule})" for f in fs) or "none"

    good = [f for f in checked if f.fix is not None and f.fix.verified]
    bad = [f for f in checked if f.fix is not None and f.fix.verified is False]
    return [f"Fix verification (a re-run per fix, each applied alone to a copy): {len(good)} of "
            f"{len(checked)} verified: {names(good)}; not verified: {names(bad)}."]


def child_env(extra_path: Sequence[str] = ()) -> dict[str, str]:
    """Return the environment of a re-run (:data:`CHILD_ENV` set, this tapemagic importable)."""
    env = dict(os.environ)
    env[CHILD_ENV] = "1"
    env[SEED_ENV] = "0"  # the same weights in every re-run: their losses compare
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    parts = [*extra_path, _PACKAGE_ROOT, env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in parts if p)
    return env


def run_child(argv: list[str], out: str, env: dict[str, str],
              timeout: float = TIMEOUT) -> tuple[dict[str, Any] | None, str | None]:
    """Run ``argv`` (output captured, never shown) and read the JSON report it wrote to ``out``."""
    try:
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired:
        return None, f"the re-run took more than {timeout:.0f} s"
    try:
        with open(out, encoding="utf-8") as handle:
            return json.load(handle), None
    except (OSError, ValueError):
        tail = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return None, tail


@dataclasses.dataclass
class ScriptRunner:
    """Re-runs a script, edited, in a fresh ``python -m tapemagic run`` subprocess.

    The edited copy is written to a temporary directory (the script's own directory stays first
    on the re-run's ``sys.path``, so its imports resolve as before; the working directory is
    the current one). Its report is read back from ``--json``.
    """

    script: str
    args: Sequence[str] = ()
    force_eager: bool = False
    steps: int = 1

    def run(self, location: Location, edits: Sequence[Edit], eager: bool | None = None
            ) -> tuple[dict[str, Any] | None, str | None]:
        """Re-run the script with ``edits`` applied to a copy; see :meth:`Runner.run`."""
        eager = self.force_eager if eager is None else eager
        path = os.path.abspath(self.script)
        if os.path.abspath(location.file) != path:
            raise Unverifiable(f"the fix edits {location.file}, not the script")
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        try:
            fixed = apply_edits(text, edits)
        except ValueError as error:
            return None, str(error)
        with tempfile.TemporaryDirectory(prefix="tapemagic-verify-") as tmp:
            copy = os.path.join(tmp, os.path.basename(path))
            with open(copy, "w", encoding="utf-8") as handle:
                handle.write(fixed)
            out = os.path.join(tmp, "report.json")
            argv = [sys.executable, "-m", "tapemagic", "run", "--json", out,
                    "--eager" if eager else "--graph-mode",
                    "--steps", str(self.steps), copy, *self.args]
            rerun, failure = run_child(argv, out, child_env([os.path.dirname(path)]))
        return _renamed(rerun, copy, path), failure


def _renamed(rerun: dict[str, Any] | None, copy: str, path: str) -> dict[str, Any] | None:
    """Return the re-run's report with the copy's path replaced by the script's."""
    if rerun is None:
        return None
    return json.loads(json.dumps(rerun).replace(json.dumps(copy)[1:-1], json.dumps(path)[1:-1]))
