"""The one way the tests run a program under ``tapemagic.gradcheck`` (the ``run_checked`` fixture).

A program runs as a script would: written to a file in the test's folder, compiled under that
name (so its lines are the file's) and executed as ``__main__``. The report is validated against
the schema. A test module that runs many programs of one shape (a common setup in front, its
own options) keeps a one-line adapter over :func:`run_program`, not a copy of it.
"""

from __future__ import annotations

import linecache
import textwrap
from pathlib import Path
from typing import Any


class Checked(tuple):  # type: ignore[type-arg]
    """``(report, marked)``, as ``report, marked = run_checked(...)`` reads it, and more.

    ``marked``: the lines that end in ``# <-`` (where a test expects a finding); ``check``: the
    ``tapemagic.Check``; ``namespace``: the program's globals after it ran; ``path``: its file.
    """

    report: Any
    marked: list[int]
    check: Any
    namespace: dict[str, Any]
    path: Path

    def line(self, needle: str) -> int:
        """Return the first line of the program that contains ``needle``."""
        return line_of(self.path, needle)


def line_of(path: Path, needle: str) -> int:
    """Return the first line of the file ``path`` that contains ``needle``."""
    lines = path.read_text().splitlines()
    return next(n for n, text in enumerate(lines, 1) if needle in text)


def loud(report: Any) -> list[tuple[str, int]]:
    """Return (rule, line) of each warning or error finding of ``report``."""
    return [(f.rule, f.location.line if f.location else 0) for f in report.findings
            if f.severity in ("error", "warning")]


def run_program(folder: Path | None, source: str, *, catch: type[BaseException] | tuple[
        type[BaseException], ...] = (), caught_inside: bool = False, name: str = "program.py",
        prefix: str = "", namespace: dict[str, Any] | None = None, **options: Any) -> Checked:
    """Run ``prefix + dedent(source)`` under ``tapemagic.gradcheck(**options)`` as ``folder/name``.

    With ``folder`` None, ``name`` is a pseudo-file (``<cell>``): the source is put in
    ``linecache`` under it, as IPython does for a cell, and no file is written.

    An exception of a type in ``catch`` that the program raises is let go: by default it leaves
    the block (the check sees it, as the user's code raised it); with ``caught_inside`` it is
    caught inside the block and set as ``check.error`` (as a door that shows the error itself,
    the magic, records it). ``namespace`` is where the program runs (``__name__`` is set to
    ``"__main__"`` in it).
    """
    import tapemagic
    from tapemagic.report.validate import validate_report
    from tapemagic.user_code import misplaced

    source = prefix + textwrap.dedent(source)
    path = Path(name) if folder is None else folder / name
    if folder is None:
        linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    else:
        path.write_text(source)
    marked = [i for i, line in enumerate(source.splitlines(), 1)
              if line.rstrip().endswith("# <-")]
    namespace = {} if namespace is None else namespace
    namespace["__name__"] = "__main__"
    code = compile(source, str(path), "exec")
    check = None
    try:
        with tapemagic.gradcheck(**options) as check:
            try:
                exec(code, namespace)  # noqa: S102 - the test's own program
            except catch as error:
                if not caught_inside:
                    raise
                check.error = error
    except catch:
        pass  # the program's own error, as the user's code raised it
    assert check is not None and check.report is not None
    payload = check.report.to_json()
    validate_report(payload)
    assert not misplaced(payload), misplaced(payload)  # every place is the user's code
    done = Checked((check.report, marked))
    done.report, done.marked, done.check, done.namespace, done.path = (
        check.report, marked, check, namespace, path)
    return done
