"""The accuracy corpus of ``bench/accuracy.py``: its programs and the expectations they write.

A program's header block (``# key: value`` lines) names what its cut is; ``# expect:`` and
``# accept:`` comments mark the lines the user must (or may) change (format:
``bench/cases/README.md``). Parsed, never run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
ROOT = HERE.parent
#: The cause vocabulary: the report schema's ``cause`` enum (tapemagic/report/model.py).
CAUSES = frozenset({
    "host-round-trip", "numpy-function", "non-differentiable-op", "integer-dtype",
    "variable-assign", "not-watched", "outside-tape", "stop-gradient", "python-control-flow",
    "not-connected", "sources-mismatch", "custom-gradient", "zero-at-runtime", "unexplained",
})
HEADER_KEYS = ("source", "cause", "rule", "weights", "mode", "summary", "lint")
_HEADER = re.compile(r"^#\s*(" + "|".join(HEADER_KEYS) + r"):\s*(.*?)\s*$")
_MARKER = re.compile(r"#\s*(expect|accept)(?::\s*([a-z|-]*))?\s*(primary)?\s*$")


@dataclass(frozen=True)
class Marker:
    """One ``# expect:`` / ``# accept:`` comment: a line the user must (or may) change."""

    line: int  # 1-based, in the script
    kind: str  # "expect" | "accept"
    causes: frozenset[str]  # empty for a bare accept: any cause
    primary: bool


@dataclass(frozen=True)
class Program:
    """One program of the corpus and what it must (or must not) produce."""

    name: str  # "<case>/bad", "<case>/fixed" or "clean/<name>"
    path: Path
    kind: str  # "bad" | "fixed" | "clean"
    header: dict[str, str] = field(default_factory=dict)
    markers: tuple[Marker, ...] = ()

    @property
    def causes(self) -> frozenset[str]:
        return frozenset(c for c in self.header.get("cause", "").split("|") if c)

    @property
    def lint_visible(self) -> bool:
        """Whether the cut is visible in the source (header ``lint: yes``; ``no (why)``)."""
        return self.header.get("lint", "").split(" ", 1)[0] == "yes"

    @property
    def weights(self) -> tuple[str, ...]:
        raw = self.header.get("weights", "").strip()
        return () if raw in ("", "-") else tuple(w.strip() for w in raw.split(",") if w.strip())


def parse_program(path: Path, name: str, kind: str) -> Program:
    """Read a program's header block (leading ``# key: value`` lines) and its line markers."""
    header: dict[str, str] = {}
    markers: list[Marker] = []
    in_header = True
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if in_header:
            found = _HEADER.match(text)
            if found:
                header[found.group(1)] = found.group(2)
                continue
            if not text.startswith("#"):
                in_header = False
        found = _MARKER.search(text)
        if found and not text.lstrip().startswith("#"):
            causes = frozenset(c for c in (found.group(2) or "").split("|") if c)
            markers.append(Marker(number, found.group(1), causes, bool(found.group(3))))
    return Program(name, path, kind, header, tuple(markers))


def discover(root: Path = CASES) -> list[Program]:
    """Every program of the corpus, sorted: each case folder's bad/fixed pair, then clean/."""
    programs: list[Program] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "clean"):
        for kind in ("bad", "fixed"):
            path = folder / f"{kind}.py"
            if path.exists():
                programs.append(parse_program(path, f"{folder.name}/{kind}", kind))
    clean = root / "clean"
    if clean.is_dir():
        for path in sorted(clean.glob("*.py")):
            programs.append(parse_program(path, f"clean/{path.stem}", "clean"))
    return programs

