"""Which runs of a gradient call site to analyse: one per site *and set of sources*.

Imports no TensorFlow module. A call site (file, line, method) runs for several models when a
loop over models, or a train step shared by several models, reaches one ``tape.gradient`` line
(a CycleGAN's generators and discriminators, an ensemble, per-client federated updates). Each
distinct set of variable sources is analysed (up to ``max_steps`` runs each, at most
:data:`MAX_SOURCE_SETS` sets per site); a repeat run of a set analysed already costs a tuple
of ``id()``s and a dict look-up. A run with a new set whose forward pass was not recorded (its
tape was made after the site's first analysis, with the recorder off) cannot be analysed: its
tape's creation site is *wanted* again, so the next tapes made there record, for at most one
more round over the models.
"""

from __future__ import annotations

from typing import Any

from tapemagic.trace import GradientCallRecord
from tapemagic.tracing.results import flatten, later_result, replaced_sources

#: At most this many sets of sources analysed per call site (a loop that builds a new model
#: every round would otherwise be analysed every round).
MAX_SOURCE_SETS = 8
#: Later runs: at most this many regressions kept per call site and set of sources.
_MAX_REGRESSIONS = 10

Site = tuple[str, int, str]
Key = tuple[int, ...]

_VARIABLE_TYPES: dict[type, bool] = {}


def sources_key(sources: Any) -> Key:
    """Return the identity of a call's variable sources: their ``id()``s, 0 for a tensor.

    A tensor source (an input watched for a saliency map) is a new object every run, so it
    counts as "a tensor", not as itself. Variables (``tf.Variable``, Keras 3 ``Variable``, a
    mirrored variable) have a ``handle`` on their class; the property itself is not read.
    """
    return tuple(id(s) if _is_variable(s) else 0 for s in flatten(sources))


def _is_variable(item: Any) -> bool:
    kind = type(item)
    known = _VARIABLE_TYPES.get(kind)
    if known is None:
        known = _VARIABLE_TYPES[kind] = hasattr(kind, "handle")
    return known


class SiteBook:
    """The analysed runs of each call site, by set of sources, and the tape sites wanted again."""

    def __init__(self, max_steps: int) -> None:
        self.max_steps = max_steps
        #: the first record of each site: it counts every run of the site (the report's notes)
        self.first: dict[Site, GradientCallRecord] = {}
        #: the first analysed record of each (site, sources): later runs are compared with it
        self.records: dict[tuple[Site, Key], GradientCallRecord] = {}
        self.analysed: dict[tuple[Site, Key], int] = {}
        self.seen: dict[Site, set[Key]] = {}
        self.rearmed: set[tuple[Site, Key]] = set()
        #: tape creation site -> how many more of its tapes record (see the module docstring)
        self.wanted: dict[tuple[str, int], int] = {}

    def decide(self, site: Site, key: Key, recorded: bool,
               creation: tuple[str, int] | None) -> bool:
        """Return True when this run is to be analysed (and count it)."""
        if recorded and creation in self.wanted:
            self.wanted[creation] -= 1  # type: ignore[index]
            if self.wanted[creation] <= 0:  # type: ignore[index]
                del self.wanted[creation]  # type: ignore[arg-type]
        count = self.analysed.get((site, key), 0)
        if count >= self.max_steps:
            return False
        seen = self.seen.setdefault(site, set())
        if count == 0 and site in self.first and key not in self.records:
            # another model's sources at a site analysed already
            if len(seen) >= MAX_SOURCE_SETS and key not in seen:
                return False
            seen.add(key)
            if not recorded:
                if creation is not None:
                    # its forward pass was not recorded: one more round over the models records
                    self.wanted[creation] = len(seen)
                return False
        seen.add(key)
        self.analysed[(site, key)] = count + 1
        return True

    def canonical(self, site: Site, key: Key) -> Key:
        """Return ``key``, or the analysed key it is with some variables replaced by tensors.

        ``x = x - lr * g`` in a loop turns a variable source into a tensor: that is the same
        call on the same model (rule TM112 reads it from the regression), not another model.
        """
        if (site, key) in self.analysed or not key:
            return key
        for site_key in self.seen.get(site, ()):
            if len(site_key) == len(key) and all(
                    k in (0, known) for k, known in zip(key, site_key, strict=True)):
                return site_key
        return key

    def later_run(self, site: Site, flat: list[Any], sources: Any,
                  tape: str | None = None) -> bool:
        """Compare a run not analysed with its set's analysed one; True when it is re-armed.

        ``tape`` is the id of the run's tape (None when unknown).
        """
        key = self.canonical(site, sources_key(sources))
        first = self.records.get((site, key))
        if first is None or len(flat) != len(first.sources):
            return False
        results = tuple(later_result(v) for v in flat)
        if tape is not None and tape == first.tape:
            # a None of the analysed run that this run of the same persistent tape has a
            # gradient for: the site differentiates one loss per run (a loop over per-task
            # losses of one forward pass), so the None is that run's own (graph/other_runs.py)
            first.recovered.update(i for i, (source, value) in enumerate(
                zip(first.sources, flat, strict=True))
                if source.result == "none" and value is not None)
        if not any(r != "ok" and source.result == "ok"
                   for source, r in zip(first.sources, results, strict=True)):
            return False
        run = self.first[site].calls
        if len(first.regressions) < _MAX_REGRESSIONS:
            first.regressions.append((run, results))
        seen = {i for _, i in first.replaced}
        first.replaced += [(run, i) for i in replaced_sources(first.sources, sources)
                           if i not in seen]
        return self.rearm(site, key)

    def note(self, site: Site, key: Key, call: GradientCallRecord) -> None:
        """Remember an analysed record (the first of its site counts the site's runs)."""
        self.records.setdefault((site, key), call)
        self.first.setdefault(site, call)

    def rearm(self, site: Site, key: Key) -> bool:
        """Have (site, key) analysed once more; False when it was re-armed before."""
        if (site, key) in self.rearmed:
            return False
        self.rearmed.add((site, key))
        self.analysed[(site, key)] = self.analysed.get((site, key), 1) - 1
        return True
