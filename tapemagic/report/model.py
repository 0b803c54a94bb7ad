"""The report model: plain, frozen dataclasses that serialise to the v1 JSON payload.

TF-free. This module is the contract between the engine (which fills it) and every renderer
(text, HTML, DOT, the JupyterLab extension). The JSON it produces is described by
``tapemagic/schemas/report.schema.json``; field names are the schema's.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from tapemagic.report.graphmodel import Graph, GraphEdge, GraphNode

# The display MIME type is the bundle's (report/mime.py); named here too for older imports.
from tapemagic.report.mime import MIME_TYPE as MIME_TYPE
from tapemagic.report.places import Named

SCHEMA_ID = "tapemagic.report/1"

Severity = Literal["error", "warning", "info"]
Verdict = Literal["connected", "severed", "zero", "unexplained"]
Result = Literal["ok", "none", "zero", "error"]
Applicability = Literal["safe", "unsafe", "display-only"]
Mode = Literal["eager", "forced-eager", "graph"]

#: The cause vocabulary (the schema's ``cause`` enum), in a stable order.
CAUSES: tuple[str, ...] = (
    "host-round-trip",
    "numpy-function",
    "non-differentiable-op",
    "integer-dtype",
    "variable-assign",
    "not-watched",
    "outside-tape",
    "stop-gradient",
    "python-control-flow",
    "not-connected",
    "sources-mismatch",
    "custom-gradient",
    "zero-at-runtime",
    "unexplained",
)


@dataclass(frozen=True)
class Location(Named):
    """A place in user code.

    ``line``/``end_line`` are 1-based and relative to the cell as the editor shows it (line 1 of a
    ``%%gradcheck`` cell is the magic line); in a script they are the file's lines. ``col`` and
    ``end_col`` are 0-based character offsets on ``line`` and ``end_line`` (None when unknown).
    ``execution_count`` names the cell (``In[N]``) when the code lives in a notebook cell;
    ``file`` is the script path or the cell's compiled filename. ``cell`` is the cell's
    1-based position in its notebook file, set only by a door that knows it (``run
    NOTEBOOK``); ``where`` names the place as every output shows it
    (:func:`tapemagic.report.places.place`), made from the other fields when not given.
    """

    file: str
    line: int
    end_line: int | None = None
    col: int | None = None
    end_col: int | None = None
    source_line: str = ""
    function: str | None = None
    execution_count: int | None = None
    cell_id: str | None = None
    cell: int | None = None
    where: str = ""

    @property
    def label(self) -> str:
        """Return :attr:`where`: ``In[N], line L`` for a cell, ``train.py:L`` for a script."""
        return self.where


@dataclass(frozen=True)
class Edit:
    """Replace the text between (line, col) and (end_line, end_col) by ``text``.

    Lines are 1-based, columns 0-based, in the coordinates of :class:`Location`.
    """

    line: int
    col: int
    end_line: int
    end_col: int
    text: str


@dataclass(frozen=True)
class Fix:
    """A quick fix: a title (imperative), how safe it is to apply, and the edits, if any.

    ``verified`` is None until a ``--verify-fixes`` re-run checked the fix (True: every weight
    the finding named then gets a gradient and no new error appeared); ``verification`` is
    what that re-run showed (what is still cut, the new error), None when none ran; for a
    fix with no edits, ``verification`` may say why no edit can be right (``verified`` None).
    ``keeps_value`` is True when the edits promise to keep what the code computes (a
    straight-through estimator, a TensorFlow copy of a NumPy body; verified only when the
    checked step's loss stays the same), False when they change it on purpose (a soft
    surrogate: the title says how; never shown as a plain "verified"), None without edits
    (and in reports written before the field existed).
    """

    title: str
    applicability: Applicability
    edits: tuple[Edit, ...] = ()
    verified: bool | None = None
    verification: str | None = None
    keeps_value: bool | None = None

    @property
    def state(self) -> str | None:
        """Return what a re-run showed, in words (None when no re-run checked the fix).

        Never a plain "verified" for a fix that changes values on purpose.
        """
        if self.verified is None:
            return None
        if not self.verified:
            return "not verified"
        return "verified, changes values" if self.keeps_value is False else "verified"


@dataclass(frozen=True)
class ChainStep(Named):
    """One step of the path weight → … → loss, as the user would name it.

    ``where`` names the step's place as every output shows it (the location's ``where``; made
    from ``line``, ``execution_count`` and ``cell`` when not given), ``""`` for a weight or
    the loss; ``cell`` as in :class:`Location`.
    """

    label: str
    line: int | None = None
    cut: bool = False
    execution_count: int | None = None
    cell: int | None = None
    where: str = ""


@dataclass(frozen=True)
class Finding:
    """One cause, at one place, with the weights it cuts off and the fix.

    ``primary`` is True when this is the first break on the path of at least one weight;
    secondary findings are the cuts a user meets next, once the primary one is fixed.
    ``params`` holds the values substituted into the catalog's message template.
    """

    id: str
    rule: str
    name: str
    cause: str
    severity: Severity
    message: str
    location: Location | None
    variables: tuple[str, ...] = ()
    gradient_calls: tuple[str, ...] = ()
    primary: bool = True
    api: str | None = None
    op_type: str | None = None
    chain: tuple[ChainStep, ...] = ()
    params: dict[str, str] = field(default_factory=dict)
    fix: Fix | None = None


@dataclass(frozen=True)
class SourceResult:
    """One entry of ``tape.gradient``'s sources and what became of it.

    ``result`` is what TensorFlow returned (``ok``, ``none``, all ``zero``, or ``error`` when the
    call raised); ``verdict`` is tapemagic's explanation of it.
    """

    variable: str
    kind: Literal["keras-variable", "variable", "tensor"]
    dtype: str
    shape: tuple[int | None, ...] | None
    trainable: bool
    result: Result
    verdict: Verdict
    finding_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class ErrorInfo:
    """An exception: its type name, message and, when tapemagic knows it, what it means."""

    type: str
    message: str
    explanation: str | None = None
    location: Location | None = None


@dataclass(frozen=True)
class GradientCall:
    """One ``tape.gradient`` / ``jacobian`` call site (or the Keras ``fit`` train step).

    ``calls`` counts how often this site ran in the cell; the first run is the one analysed.
    ``traced``: the site is in a traced function (``tf.function``, ``fit``), where ``calls``
    counts its traces (each a graph), not the steps that ran the graph.
    ``target_value`` is its target's value (summed) in that run, None when it ran in a traced
    function (and in reports written before the field existed): the loss a fix verification
    compares.
    """

    id: str
    tape: str
    location: Location | None
    target: str
    unconnected_gradients: Literal["none", "zero"]
    sources: tuple[SourceResult, ...]
    method: Literal["gradient", "jacobian", "batch_jacobian"] = "gradient"
    calls: int = 1
    keras_fit: bool = False
    error: ErrorInfo | None = None
    target_value: float | None = None
    traced: bool = False


@dataclass(frozen=True)
class TapeInfo:
    """A ``tf.GradientTape`` the cell created."""

    id: str
    location: Location | None
    persistent: bool
    watch_accessed_variables: bool
    watched: tuple[str, ...] = ()


@dataclass(frozen=True)
class CellInfo:
    """What was run: a notebook cell (``execution_count``, ``cell_id``) or a script path."""

    source: str
    filename: str
    execution_count: int | None = None
    cell_id: str | None = None
    script: str | None = None


@dataclass(frozen=True)
class Report:
    """Everything tapemagic learned from one cell or script run.

    Build one with :func:`tapemagic.gradcheck` or ``%%gradcheck``; serialise it with
    :meth:`to_json`. ``codes`` lists the rule codes of all findings, in report order.
    """

    versions: dict[str, str]
    mode: Mode
    cell: CellInfo
    tapes: tuple[TapeInfo, ...] = ()
    gradient_calls: tuple[GradientCall, ...] = ()
    findings: tuple[Finding, ...] = ()
    graph: Graph = field(default_factory=Graph)
    dot: str = ""
    exception: ErrorInfo | None = None
    notes: tuple[str, ...] = ()
    headline: str = ""
    schema: str = SCHEMA_ID

    @property
    def codes(self) -> list[str]:
        """Return the rule code of every finding, in report order."""
        return [f.rule for f in self.findings]

    @property
    def has_errors(self) -> bool:
        """Return True when at least one finding has severity ``error``."""
        return any(f.severity == "error" for f in self.findings)

    @property
    def fit_stops(self) -> bool:
        """Return True when a Keras train step got no gradient for any weight it trains.

        Keras' optimizer then raises "No gradients provided for any variable": the fit does
        not train on, so a report shown early must not say it does.
        """
        return any(c.keras_fit and c.sources and all(s.result == "none" for s in c.sources)
                   for c in self.gradient_calls)

    def to_json(self) -> dict[str, Any]:
        """Return the report as the JSON-ready dict of ``report.schema.json``."""
        return _to_plain(self)  # type: ignore[no-any-return]

    @classmethod
    def from_json(cls, payload: dict[str, Any]) -> Report:
        """Rebuild a report from the dict that :meth:`to_json` produced.

        The payload is not validated here; call
        :func:`tapemagic.report.validate.validate_report` first on untrusted input.
        ``Report.from_json(r.to_json()) == r`` holds for every report.

        Raises
        ------
        KeyError
            If a required field is missing.
        TypeError
            If a field has an unexpected shape.
        """
        p = payload
        return cls(
            versions=dict(p["versions"]),
            mode=p["mode"],
            cell=CellInfo(**p["cell"]),
            tapes=tuple(
                TapeInfo(**{**t, "location": _loc(t["location"]), "watched": tuple(t["watched"])})
                for t in p["tapes"]
            ),
            gradient_calls=tuple(_gradient_call(g) for g in p["gradient_calls"]),
            findings=tuple(_finding(f) for f in p["findings"]),
            graph=Graph(
                nodes=tuple(GraphNode(**n) for n in p["graph"]["nodes"]),
                edges=tuple(GraphEdge(**e) for e in p["graph"]["edges"]),
            ),
            dot=p["dot"],
            exception=_error(p["exception"]),
            notes=tuple(p["notes"]),
            headline=p["headline"],
            schema=p["schema"],
        )

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """Return the IPython display bundle (report JSON, HTML and plain text)."""
        from tapemagic.report.mime import mimebundle

        return mimebundle(self)


def _to_plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [_to_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _to_plain(v) for k, v in value.items()}
    return value


def _loc(value: dict[str, Any] | None) -> Location | None:
    return None if value is None else Location(**value)


def _error(value: dict[str, Any] | None) -> ErrorInfo | None:
    if value is None:
        return None
    return ErrorInfo(**{**value, "location": _loc(value["location"])})


def _gradient_call(g: dict[str, Any]) -> GradientCall:
    sources = tuple(
        SourceResult(
            **{
                **s,
                "shape": None if s["shape"] is None else tuple(s["shape"]),
                "finding_ids": tuple(s["finding_ids"]),
            }
        )
        for s in g["sources"]
    )
    return GradientCall(
        **{**g, "location": _loc(g["location"]), "sources": sources, "error": _error(g["error"])}
    )


def _finding(f: dict[str, Any]) -> Finding:
    fix = f["fix"]
    if fix is not None:
        fix = Fix(**{**fix, "edits": tuple(Edit(**e) for e in fix["edits"])})
    return Finding(
        **{
            **f,
            "location": _loc(f["location"]),
            "variables": tuple(f["variables"]),
            "gradient_calls": tuple(f["gradient_calls"]),
            "chain": tuple(ChainStep(**c) for c in f["chain"]),
            "params": dict(f["params"]),
            "fix": fix,
        }
    )
