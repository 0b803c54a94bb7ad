"""What the cut analysis says of a gradient call: its sources' verdicts and their causes.

TF-free. Made by ``graph/analysis.py``; read by the rules, the diagnosis and the picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tapemagic.graph.provenance import Edge
from tapemagic.trace import GradientCallRecord, SourceRecord, TapeRecord


@dataclass(frozen=True, slots=True)
class Cause:
    """One reason a source gets no gradient.

    ``edge`` is the cut edge for dataflow causes; ``event`` a host event id (a Python branch);
    ``op_seq`` an op that ran outside the tape.
    """

    cause: str
    primary: bool
    edge: Edge | None = None
    event: int | None = None
    op_seq: int | None = None


@dataclass
class SourceAnalysis:
    """What became of one source of one gradient call.

    ``result`` and ``norm`` are the gradient as the analysis reads it: the recorded
    ``source.result``/``source.norm`` (what TensorFlow returned), except where a traced graph
    hands back zeros the record could not see (a py_function body that left TensorFlow, every
    path cut inside a loop body). The record itself stays as it was recorded.
    """

    source: SourceRecord
    node: int | None
    verdict: str
    causes: list[Cause] = field(default_factory=list)
    path: list[int] = field(default_factory=list)  # tensor serials, source side first
    result: Literal["ok", "none", "zero", "error"] = field(init=False)
    norm: float | None = field(init=False)

    def __post_init__(self) -> None:
        self.result, self.norm = self.source.result, self.source.norm


@dataclass
class CallAnalysis:
    """The analysis of one gradient call."""

    call: GradientCallRecord
    tape: TapeRecord | None
    sources: list[SourceAnalysis]
    keras_zero_error: bool = False
    #: tensors (and variable handles) with a differentiable, recorded path to the target
    connected: set[int] = field(default_factory=set)
    #: every tensor the target depends on, through any edge
    ancestors: set[int] = field(default_factory=set)
