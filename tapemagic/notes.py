"""The report's notes: how the run was analysed, and what the analysis cannot say.

TF-free, like ``engine.py``, which puts these notes after the ones the doors pass in: the mode
(graph as written, ``--eager``), call sites run more often than analysed, later runs that lost
a gradient, a trace cut short, a tape made before the check, a recorder failure.
"""

from __future__ import annotations

from tapemagic.graph.verdicts import CallAnalysis
from tapemagic.locations import CellMap
from tapemagic.trace import RawLocation, Trace

_EAGER_ARRAYS = (
    "Under --eager a tf.function received NumPy arrays, which graph mode converts to tensors; "
    "`tape.watch` at {} raised on one. Run without --eager, or pass tensors "
    "(`tf.convert_to_tensor`) to the function.")


def where_label(raw: RawLocation | None, cells: CellMap) -> str:
    """Return the user-facing label of ``raw`` (``In[3], line 4``, ``file.py:12``), else ``?``."""
    loc = cells.location(raw)
    return loc.label if loc else "?"


def run_notes(trace: Trace, analyses: list[CallAnalysis], cells: CellMap) -> list[str]:
    """Return the notes on ``trace`` and its analysed gradient calls, in the report's order."""
    notes: list[str] = []
    if mode_of(trace) == "graph":
        notes.extend(_graph_notes(trace, analyses, cells))
    elif trace.function_calls:
        notes.append(
            "tf.function and Keras fit ran eagerly for this analysis (--eager: "
            "tf.config.run_functions_eagerly(True), restored afterwards).")
        if trace.eager_array_watches:
            notes.append(_EAGER_ARRAYS.format(where_label(trace.eager_array_watches[0], cells)))
        if trace.fit_resumed_graph:
            notes.append("After the analysed train step(s), fit went on in graph mode, as it "
                         "would without tapemagic.")
        leaving = next((e for e in trace.host_events
                        if e.in_function and e.kind in ("numpy", "scalar")), None)
        if leaving is not None:
            notes.append(_graph_failure(leaving.api, where_label(leaving.loc, cells)))
    analysed_per_site: dict[object, int] = {}
    source_sets: dict[object, set[tuple[str, ...]]] = {}
    for analysis in analyses:
        analysed_per_site[analysis.call.site] = analysed_per_site.get(analysis.call.site, 0) + 1
        source_sets.setdefault(analysis.call.site, set()).add(
            tuple(s.name for s in analysis.call.sources))
    for analysis in analyses:
        call = analysis.call
        # Keras traces its own train function again at will (a last partial batch, a new
        # epoch iterator): a fit's retrace is none of the user's business
        if call.calls > 1 and not (call.keras_fit and (trace.fit_resumed_graph
                                                       or call.in_function)):
            where = where_label(call.loc, cells)
            done = analysed_per_site.get(call.site, 1)
            first = "the first run was" if done == 1 else f"the first {done} runs were"
            sets = len(source_sets.get(call.site, ()))
            if sets > 1:  # a loop over models, or a step shared by several models
                first = (f"the first run with each of its {sets} sets of sources (each model's "
                         "weights) was")
            replicas = len(call.threads)
            if replicas > 1:  # tf.distribute: one run per replica
                each = call.calls // replicas
                notes.append(f"The {call.method} call at {where} ran on each of {replicas} "
                             f"replicas (`strategy.run`)"
                             f"{f', {each} times each' if each > 1 else ''}; {first} analysed.")
            elif call.in_function:  # a retrace (new input shapes or types): a new graph
                notes.append(f"The {call.method} call at {where} was traced {call.calls} times "
                             "(a Python loop around it, a second trace when the function's "
                             "first call made variables, or a retrace for new input shapes); "
                             f"{first} analysed.")
            else:
                notes.append(f"The {call.method} call at {where} ran {call.calls} times; "
                             f"{first} analysed (--steps).")
    for analysis in analyses:  # one per gradient call, in call order
        call = analysis.call
        for run, results in ([] if call.recovered else call.regressions[:3]):
            lost = [s.source.name for s, r in zip(analysis.sources, results, strict=False)
                    if r != "ok" and s.result == "ok"]
            notes.append(f"Run {run} of the {call.method} call at {where_label(call.loc, cells)} "
                         f"returned {'zeros' if 'zero' in results else 'None'} for "
                         f"{', '.join(f'`{n}`' for n in lost[:4])}, which the analysed run "
                         "got a gradient for.")
    if not trace.gradient_calls:
        notes.append("No tape.gradient, jacobian or Keras train step ran in this cell, "
                     "so there was nothing to check.")
    if trace.truncated:
        notes.append("The trace was cut short after its op limit; later ops were not recorded.")
    for tape in trace.tapes:
        if tape.made_before and any(c.tape == tape.id for c in trace.gradient_calls):
            notes.append(f"{tape.id} was made before this check (in an earlier cell), so what "
                         "it recorded is not in the trace and its gradients are not explained "
                         "here: put %%gradcheck on the cell that runs the tape's `with` block.")
    if trace.recorder_error:
        notes.append(f"tapemagic's recorder failed ({trace.recorder_error}) and stopped "
                     "recording there; your code ran on unchanged, and ops after that point "
                     "were not analysed. Please report this cell to tapemagic.")
    return notes


def _graph_failure(api: str, where: str) -> str:
    """Say how graph mode, as written, fails at the first host round-trip inside a function.

    A symbolic tensor has no ``numpy`` attribute (a tensor's ``.numpy()``, and Keras'
    ``backend.eval`` calls it); ``np.asarray`` (``keras.ops.convert_to_numpy``) and a
    variable's ``.numpy()`` raise NotImplementedError and ``float()`` TypeError: those are named
    by the API only.
    """
    if api == ".numpy()" or api.endswith("backend.eval"):
        return ("Without tapemagic, graph mode fails earlier: `.numpy()` on a symbolic tensor "
                "raises AttributeError: 'SymbolicTensor' object has no attribute 'numpy'.")
    return (f"Without tapemagic, graph mode fails earlier: `{api}` at {where} gets a symbolic "
            "tensor, which has no value while the function is traced, and raises.")


def mode_of(trace: Trace) -> str:
    """``graph`` when functions ran as graphs and were analysed from their traces."""
    if trace.forced_eager:
        return "forced-eager" if trace.function_calls else "eager"
    return "graph" if trace.function_calls or trace.graph_names else "eager"


def _graph_notes(trace: Trace, analyses: list[CallAnalysis], cells: CellMap) -> list[str]:
    """Say how graph-mode functions were analysed, and what a trace cannot know."""
    notes = ["tf.function and Keras fit ran as graphs, as written; they were analysed from "
             "their traces (the ops TensorFlow reported while tracing them, once per trace)."]
    if any(a.call.in_function and a.call.reached and any(s.result == "ok" and s.norm is None
                                                         for s in a.sources)
           for a in analyses):
        # a traced gradient whose value no probe and no returned output showed (a step that
        # never ran after its trace)
        notes.append("Gradients computed inside a tf.function are symbolic when it is traced: "
                     "None is certain; an all-zero gradient is seen when the step computes "
                     "it on its first run, except in a step whose facts were not read "
                     "(run with --eager to check those values).")
    for call in trace.gradient_calls:
        if not call.reached:
            event = next((e for e in trace.host_events if e.id == call.stopped_at), None)
            loc = cells.location(event.loc) if event is not None else None
            where = loc.label if loc else "the failed host round-trip"
            if call.continued:
                notes.append(f"Tracing stopped at {where}, where a symbolic tensor left "
                             "TensorFlow and raised (the error the code raises). The lines "
                             "after it in that function were then traced in a scratch graph "
                             "that never runs, the tensor standing in for its host value, to "
                             "find the cuts behind this one.")
                continue
            notes.append(f"Tracing stopped at {where}, where a symbolic tensor left "
                         "TensorFlow and raised; the gradient call after it was never reached, "
                         "so the code after that line was not analysed (run with --eager to "
                         "find the cuts behind this one).")
    if trace.opaque_calls:
        notes.append(f"{trace.opaque_calls} call(s) ran a tf.function traced before this "
                     "check, so the ops inside were not seen and a cut inside one shows as "
                     "unexplained: redefine the function in the checked cell, or use --eager.")
    return notes
