"""From a trace to a report: provenance graph → cut analysis → findings → report.

TF-free: everything here reads the :class:`~tapemagic.trace.Trace` only, so it is tested
without TensorFlow and can run after the traced objects are gone.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Sequence

from tapemagic import heap
from tapemagic._version import __version__
from tapemagic.diagnosis import Diagnoser
from tapemagic.graph import derivative_only, first_step, other_runs
from tapemagic.graph.analysis import analyse
from tapemagic.graph.collapse import collapse
from tapemagic.graph.none_handling import forgive
from tapemagic.graph.provenance import ProvenanceGraph
from tapemagic.graph.verdicts import CallAnalysis
from tapemagic.locations import CellMap
from tapemagic.notes import mode_of, run_notes, where_label
from tapemagic.report.dot import build_dot
from tapemagic.report.model import (
    CellInfo,
    ErrorInfo,
    Finding,
    GradientCall,
    Report,
    SourceResult,
    TapeInfo,
)
from tapemagic.rules.base import Draft
from tapemagic.trace import Trace

_EXPLANATIONS = (
    ("No gradients provided for any variable",
     "Keras raises this when every gradient of a train step is None: the loss has no "
     "differentiable path to any trainable weight. The findings say where the path is cut."),
    ("_type_enum",
     "Keras 3 variables with `unconnected_gradients=ZERO` make `tape.gradient` raise this when "
     "a variable is not connected to the target (rule TM105); the findings say why it is not."),
    ("gradient registry has no entry",
     "An op on the path has no registered gradient, so TensorFlow cannot differentiate it "
     "(rule TM201)."),
    ("not tf.Tensor or tf.Variable or ExtensionType",
     "`tape.watch` takes tensors and `tf.Variable`s: a Keras 3 `Variable` (watch its `.value`) "
     "or a symbolic Keras tensor (`model.inputs`: watch the batch you feed) raises this "
     "(rule TM108)."),
    ("not 'SymbolicTensor'",
     "`float()`, `int()` or `complex()` got a tensor while a tf.function (or Keras fit) was "
     "being traced (graph mode), where tensors have no value yet; it is also a host round-trip "
     "that cuts the gradient (rule TM301): keep the value a tensor."),
    ("Cannot convert a symbolic tf.Tensor",
     "A NumPy function got a tensor while a tf.function was being traced (graph mode), where "
     "tensors have no value yet; it is also a host round-trip that cuts the gradient "
     "(rule TM301): use the tf.* equivalent."),
    # keras/src/optimizers/base_optimizer.py _check_variables_are_known
    ("can only be called for the variables it was originally built with",
     "A Keras optimizer is built with the variables of its first `apply_gradients` and takes "
     "no others: a variable made again between steps (a `tf.Variable(...)` inside the training "
     "loop or the step, rule TM111) is a new one it does not know. Create it once and reuse it."),
    ("'SymbolicTensor' object has no attribute 'numpy'",
     "`.numpy()` was called while a tf.function was being traced (graph mode), where tensors "
     "have no value yet; it is also a host round-trip that cuts the gradient (rule TM301)."),
)


def build_report(trace: Trace, cells: CellMap, cell: CellInfo,
                 exception: BaseException | None = None,
                 problems: Sequence[str] = (),
                 picture_when: Callable[[Report], bool] | None = None,
                 started: bool = True) -> Report:
    """Analyse ``trace`` and return the :class:`Report` (findings, verdicts, graph, DOT).

    ``picture_when``: build the collapsed graph and its DOT only for a report it accepts (seen
    without them); None: always. Auto mode shows only a report with a cut. ``started``: False
    when tracing never started, so the empty trace says nothing of the code (it ran unchecked).
    """
    with heap.frozen():  # an edge object per op input
        return _build_report(trace, cells, cell, exception, problems, picture_when, started)


def _build_report(trace: Trace, cells: CellMap, cell: CellInfo,
                  exception: BaseException | None, problems: Sequence[str],
                  picture_when: Callable[[Report], bool] | None = None,
                  started: bool = True) -> Report:
    graph = ProvenanceGraph(trace)
    analyses = analyse(graph, cells.feeds)
    handled = forgive(analyses, {a.call.id: line for a in analyses if (a.call.regressions or any(
        s.verdict == "severed" for s in a.sources)) and (line := cells.none_handled(
            a.call.loc)) is not None})
    derived = derivative_only.forgive(graph, analyses)
    first = first_step.forgive(graph, analyses)
    recovered = other_runs.forgive(graph, analyses)
    diagnoser = Diagnoser(graph, cells, analyses)
    findings, ids = diagnoser.findings()
    calls = tuple(_call(a, cells, diagnoser, ids) for a in analyses)
    mode = mode_of(trace)
    report = Report(
        versions={"tapemagic": __version__, **trace.versions,
                  "python": trace.versions.get("python", sys.version.split()[0])},
        mode=mode,  # type: ignore[arg-type]
        cell=cell,
        tapes=tuple(_tape(t, cells, graph) for t in trace.tapes),
        gradient_calls=calls,
        findings=tuple(findings),
        exception=_exception(exception, cells, trace) if exception is not None else None,
        notes=tuple(problems) + tuple(run_notes(trace, analyses, cells) if started else ()) + tuple(
            _handled_note(a, line, names, cells) for a, line, names in handled) + tuple(
            _derived_note(a, inner, names, cells) for a, inner, names in derived) + tuple(
            _first_step_note(a, names, scales, cells) for a, names, scales in first) + tuple(
            _other_run_note(a, names, cells) for a, names in recovered) + tuple(
            _unmoved_note(draft, [ids[k] for k in keys if k in ids], cells)
            for draft, keys in diagnoser.corroborated),
        headline=_headline(calls, findings, _regressed(analyses), started,
                           frozenset(n for _, names, _ in first for n in names)),
    )
    if picture_when is not None and not picture_when(report):
        return report
    edge_ids = {edge: ids[key] for edge, key in diagnoser.edge_findings.items() if key in ids}
    picture = collapse(graph, analyses, cells, edge_ids)
    return dataclasses.replace(report, graph=picture, dot=build_dot(picture, findings))


def _handled_note(analysis: CallAnalysis, line: int, names: list[str], cells: CellMap) -> str:
    where, named = where_label(analysis.call.loc, cells), ", ".join(f"`{n}`" for n in names)
    return (f"The gradient call at {where} returns None for {named}, "
            f"which its target does not depend on; line {line} drops or replaces the None "
            "gradients, so that is by design (as with unconnected_gradients=ZERO), not a cut.")


def _derived_note(analysis: CallAnalysis, inner: CallAnalysis, names: list[str],
                  cells: CellMap) -> str:
    where, named = where_label(analysis.call.loc, cells), ", ".join(f"`{n}`" for n in names)
    return (f"The gradient call at {where} returns None for {named}: its target is built from "
            f"the derivatives the gradient call at {where_label(inner.call.loc, cells)} takes, "
            "and these weights only shift what that call differentiates by a constant, so no "
            "derivative depends on them. That is by design (a Hamiltonian or physics-informed "
            "network's last bias), not a cut.")


def _other_run_note(analysis: CallAnalysis, names: list[str], cells: CellMap) -> str:
    where, named = where_label(analysis.call.loc, cells), ", ".join(f"`{n}`" for n in names)
    return (f"The gradient call at {where} returns None for {named} in its analysed run and a "
            "gradient for them in another run: each run differentiates its own target (a loop "
            "over per-task losses), so that None is by design, not a cut.")


def _first_step_note(analysis: CallAnalysis, names: list[str], scales: list[str],
                     cells: CellMap) -> str:
    where, named = where_label(analysis.call.loc, cells), ", ".join(f"`{n}`" for n in names)
    zero, one = ", ".join(f"`{n}`" for n in scales), len(scales) == 1
    return (f"The gradient call at {where} gives {named} all-zero gradients because {zero} "
            f"{'is' if one else 'are'} zero and multipl{'ies' if one else 'y'} their path; "
            f"{'it gets a gradient' if one else 'they get gradients'} too, so the first update "
            f"moves {'it' if one else 'them'} and the zeros go. That is a zero-initialised "
            "scale (ReZero, Fixup, a zero-initialised last layer of a residual branch), not a "
            "cut.")


def _unmoved_note(draft: Draft, found: list[str], cells: CellMap) -> str:
    """Say that weights another finding names also did not change over the checked steps."""
    named = ", ".join(f"`{n}`" for n in draft.variables)
    steps = draft.params.get("steps", "?")
    return (f"{named} also did not change in {steps} checked steps of the gradient call at "
            f"{where_label(draft.raw, cells)} (see {', '.join(found)}).")


def _call(analysis: CallAnalysis, cells: CellMap, diagnoser: Diagnoser,
          ids: dict[tuple[object, ...], str]) -> GradientCall:
    call = analysis.call
    sources = []
    for index, source in enumerate(analysis.sources):
        keys = diagnoser.source_findings.get((call.id, index), [])
        fids = tuple(dict.fromkeys(ids[k] for k in keys if k in ids))
        s = source.source
        sources.append(SourceResult(s.name, s.kind, s.dtype, s.shape, s.trainable, source.result,
                                    source.verdict, fids))  # type: ignore[arg-type]
    error = None
    if call.error_type:
        error = ErrorInfo(call.error_type, call.error_message or "",
                          _explain(call.error_message or ""))
    return GradientCall(call.id, call.tape, cells.location(call.loc), call.target_label,
                        call.unconnected, tuple(sources), call.method, call.calls,
                        call.keras_fit, error, call.target_value, call.in_function)


def _tape(tape: object, cells: CellMap, graph: ProvenanceGraph) -> TapeInfo:
    from tapemagic.trace import TapeRecord

    assert isinstance(tape, TapeRecord)
    names = graph.trace.handle_names
    watched = sorted({names.get(h, f"variable#{h}") for h in tape.watched_handles}
                     | {f"tensor#{t}" for t in tape.watched_tensors})
    return TapeInfo(tape.id, cells.location(tape.loc), tape.persistent,
                    tape.watch_accessed_variables, tuple(watched))


def _explain(message: str) -> str | None:
    for needle, text in _EXPLANATIONS:
        if needle in message:
            return text
    return None


def _exception(error: BaseException, cells: CellMap, trace: Trace) -> ErrorInfo:
    """Describe the code's exception, at the innermost line of the user's it passed through.

    Autograph's generated copies are not the user's lines: an error that stopped a trace (a
    host round-trip on a symbolic tensor) is placed at that round-trip, as its finding is;
    otherwise generated frames are skipped.
    """
    from tapemagic import frames

    raw = None
    tb = error.__traceback__
    while tb is not None:  # the innermost user frame is where the user's code failed
        frame = tb.tb_frame
        if not frames.is_library(frame) and frames.GENERATED_MARK not in frame.f_code.co_filename:
            raw = frames.location_at(frame, tb.tb_lasti)
        tb = tb.tb_next
    message = str(error)
    # the error that stopped a trace is this one or one it was re-raised from (a tf.function
    # boundary re-raises it with autograph's "in user code" frames); the same object, not the
    # same text (another function's round-trip raises the same message)
    seen = {(id(e), type(e).__name__, str(e)) for e in frames.error_chain(error, 8)}
    for call in trace.gradient_calls:
        event = next((e for e in trace.host_events if e.id == call.stopped_at), None)
        if (not call.reached and event is not None and event.loc is not None
                and (call.stopped_error, call.error_type, call.error_message) in seen):
            raw = event.loc
            break
    means = _explain(message)
    if raw is not None and any(w is not None and (w.file, w.line) == (raw.file, raw.line)
                               for w in trace.eager_array_watches):
        means = ("`tape.watch` got a NumPy array only because --eager ran the tf.function "
                 "eagerly (see the notes).")
    elif means is None and any(id(e) in trace.eager_array_errors
                               for e in frames.error_chain(error, 8)):
        means = ("Under --eager a tf.function received NumPy arrays as they are, which graph "
                 "mode converts to tensors first; if the code runs without --eager, that is "
                 "why it raised here: run without --eager, or pass tensors "
                 "(`tf.convert_to_tensor`) to the function.")
    return ErrorInfo(type(error).__name__, message, means, cells.location(raw))


def _regressed(analyses: list[CallAnalysis]) -> list[str]:
    """Names of sources that a later, unanalysed run of a call site got no gradient for."""
    names: list[str] = []
    for analysis in analyses:
        if analysis.call.recovered:
            continue  # each run differentiates its own target (graph/other_runs.py)
        for _run, results in analysis.call.regressions:
            names += [s.source.name for s, r in zip(analysis.sources, results, strict=False)
                      if r != "ok" and s.result == "ok" and s.source.name not in names]
    return names


def _weight_verdicts(calls: tuple[GradientCall, ...]) -> dict[tuple[str, int], str]:
    """Return each weight's verdict over the calls: the first that is not "connected".

    A weight is counted once over the calls; two sources of one call that share a name (two
    unnamed tf.Variables are both "Variable") are two weights.
    """
    verdicts: dict[tuple[str, int], str] = {}
    for call in calls:
        seen: dict[str, int] = {}
        for s in call.sources:
            key = (s.variable, seen.get(s.variable, 0))
            seen[s.variable] = key[1] + 1
            if verdicts.get(key, "connected") == "connected":
                verdicts[key] = s.verdict
    return verdicts


def _raised(calls: tuple[GradientCall, ...]) -> list[str]:
    """Return the headline's part naming the first gradient call that raised (or none)."""
    errors = [c for c in calls if c.error is not None]
    if not errors:
        return []
    first = errors[0]
    where = f" at {first.location.label}" if first.location else ""
    what = "The fit train step" if first.keras_fit else f"The {first.method} call"
    return [f"{what}{where} raised {first.error.type}"  # type: ignore[union-attr]
            + (f" ({len(errors)} calls raised)" if len(errors) > 1 else "")]


def _zero_counts(calls: tuple[GradientCall, ...], verdicts: dict[tuple[str, int], str],
                 first_step: frozenset[str]) -> tuple[int, int, int]:
    """Return how many weights are zero: unexplained, None by design, zeroed for one step."""
    # None by design (the code filters them, see graph/none_handling.py): said apart
    expected = {(s.variable, 0) for c in calls for s in c.sources
                if s.verdict == "zero" and s.result == "none"}
    zeros = [k for k, v in verdicts.items() if v == "zero" and k not in expected]
    # zeros a trained zero scale makes on this step only (graph/first_step.py): the first
    # update removes them, so they are no alarm for the headline
    scaled = sum(k[0] in first_step for k in zeros)
    handled = sum(v == "zero" and k in expected for k, v in verdicts.items())
    return len(zeros) - scaled, handled, scaled


def _headline(calls: tuple[GradientCall, ...], findings: Sequence[Finding],
              regressed: Sequence[str] = (), started: bool = True,
              first_step: frozenset[str] = frozenset()) -> str:
    """One line: how many weights get no gradient (or zeros) and how many causes explain it.

    Never says "get a gradient" when a gradient call raised, got no sources, or returned None
    in a later run that was not analysed.
    """
    if not calls:
        if not started:  # an empty trace is no news of the code: it ran unchecked
            return "tapemagic could not start tracing: the code ran unchecked (see the notes)"
        if any(f.severity == "error" for f in findings):
            return "No gradient call ran: the code stopped before one (see the findings)"
        return "No gradient call ran: nothing to check"
    verdicts = _weight_verdicts(calls)
    total = len(verdicts)
    bad = {v for (v, _), verdict in verdicts.items() if verdict != "connected"}
    missing = sum(v in ("severed", "unexplained") for v in verdicts.values())
    zero, handled, scaled = _zero_counts(calls, verdicts, first_step)
    relevant = [f for f in findings if bad & set(f.variables) or not f.variables]
    causes = sum(1 for f in relevant if f.primary)
    behind = len(relevant) - causes
    # a watched tensor (a saliency input, WGAN-GP's interpolated images) is a source, not a weight
    tensors = any(s.kind == "tensor" for c in calls for s in c.sources)
    noun = ("source" if tensors else "weight") + ("" if total == 1 else "s")
    parts = _raised(calls)
    if total == 0:
        parts.append("No weights were passed to the gradient call: nothing gets a gradient")
    if missing:
        verb = "gets" if missing == 1 else "get"
        found = (f"{causes} cause{'s' if causes != 1 else ''}" if causes
                 else "no cause found (unexplained)")
        parts.append(f"{missing} of {total} {noun} {verb} no gradient: {found}")
        if behind:
            parts[-1] += f", then {behind} more cut{'s' if behind > 1 else ''} behind"
    if zero:
        verb = "gets" if zero == 1 else "get"
        parts.append(f"{zero} of {total} {noun} {verb} an all-zero gradient "
                     "(connected, zero at run time)")
    if handled:
        verb = "gets" if handled == 1 else "get"
        parts.append(f"{handled} of {total} {noun} {verb} no gradient, by design (see the "
                     "notes)")
    # weights on the loss path that no source list holds, named by a warning or an error (a
    # layer unfrozen after its step was traced, a variable Keras does not track): the calls'
    # verdicts cannot show them, and "all weights get a gradient" would hide them
    outside = {v for f in findings if f.severity != "info" for v in f.variables} - {
        v for v, _ in verdicts}
    if total and outside:
        verb, end = ("is", "it never trains") if len(outside) == 1 else ("are", "they never train")
        parts.append(f"{len(outside)} weight{'s' if len(outside) > 1 else ''} on the loss "
                     f"path {verb} in no source list: {end} (see the findings)")
    # the same, noted as information (TM110: a cell may train one part on purpose)
    noted = {v for f in findings if f.severity == "info" and f.cause == "sources-mismatch"
             for v in f.variables} - {v for v, _ in verdicts} - outside
    later = [v for v in regressed if verdicts.get((v, 0), "connected") == "connected"]
    if later:
        verb = "gets" if len(later) == 1 else "get"
        parts.append(f"{len(later)} of {total} {noun} {verb} no gradient in a later run of "
                     "the same call (see the notes)")
    # connected weights that a warning/error names (a frozen 0.0 whose zeros stayed symbolic)
    named = {v for f in findings if f.severity != "info" for v in f.variables} & {
        v for (v, _), verdict in verdicts.items() if verdict == "connected"}
    if not parts and named:
        count = sum(1 for f in findings if f.severity != "info" and set(f.variables) & named)
        parts.append(f"All {total} {noun} are connected, but {len(named)} of them "
                     f"{'is' if len(named) == 1 else 'are'} named by {count} "
                     f"finding{'s' if count > 1 else ''} (see below)")
    if not parts:
        parts.append(f"All {total} {noun} get a gradient" if total > 1
                     else f"The {noun} gets a gradient")
    if scaled:
        parts[-1] += (f" ({scaled} of them all-zero on this first step only, behind a "
                      "zero-initialised scale that trains: see the notes)")
    if total and noted:
        verb = "is" if len(noted) == 1 else "are"
        parts.append(f"{len(noted)} more weight{'s' if len(noted) > 1 else ''} on the loss "
                     f"path {verb} in no source list: not trained here (see the findings)")
    return "; ".join(parts)
