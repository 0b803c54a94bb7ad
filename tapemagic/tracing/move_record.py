"""The record of one checked run of a watched gradient call (``moved.py``), and its tally.

Imports TensorFlow. What a run records is each watched weight's value where the call ran and
each gradient's largest magnitude: in an eager loop as plain ops after the call returns, in a
traced step as a ``tf.cond`` built into the step at the gradient call. The comparison with
the run before and the counting are the host's (:class:`Tally`): every op built into a traced
step is paid at trace time, in each trace, and again when the function's first run
optimises it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import tensorflow as tf

from tapemagic.tracing import _tf_private as tfp

if TYPE_CHECKING:
    from tapemagic.trace import GradientCallRecord, RawLocation

#: what ``Watch.applied`` holds for a weight an optimizer with a learning rate of zero was
#: given (a part frozen by its own optimizer, a warmup's first step): it applies nothing, and
#: what it was given is not what zeroed the update
RATE_ZERO = 2.0
#: A gradient counts when its largest entry is at least this times the weight's largest:
#: plain SGD with a learning rate above 1e-5 then moves that entry by more than float32's
#: resolution (Adam's first updates are about the learning rate, whatever the gradient).
_RELATIVE = 1e-2
FLOATS = ("float16", "bfloat16", "float32", "float64")


@dataclass(eq=False)  # compared by identity: its fields hold variables
class Watch:
    """One call site's watched sources, what each checked run saw, and the tallies."""

    call: GradientCallRecord
    positions: list[int]  # the watched sources' places in the call's flattened sources
    variables: list[Any]  # their tf.Variables (a Keras variable's inner one)
    #: per source, what a Keras optimizer was given for it since the last run: -1 nothing
    #: (or not seen), 0 an unusable gradient (zeros: a layer frozen by masking), 1 a usable
    #: one, RATE_ZERO anything with a learning rate of zero
    applied: Any
    #: a traced step's record of its last checked run (check-owned, made at its first trace):
    #: the sources' values at the call, flattened into one copy per dtype (``groups``: the
    #: sources of each, in order; the float32 copy first, even when it holds no weight), the
    #: float32 one followed by the facts [top |gradient| x n, given x n, run count]: the host
    #: reads one variable per run. None until the call is traced
    snaps: list[Any] | None = None
    groups: list[list[int]] = field(default_factory=list)
    graphs: set[int] = field(default_factory=set)  # id() of the step graphs instrumented
    #: id() of the step graphs and of the graphs that call them (an eager call of any of them
    #: may have run a checked run)
    callers: set[int] = field(default_factory=set)
    held: list[Any] = field(default_factory=list)  # those graphs (their ids stay unique)
    given: set[int] = field(default_factory=set)  # sources a Keras optimizer was ever given
    apply_loc: RawLocation | None = None  # the user's line of an optimizer call given some
    last: dict[int, int] = field(default_factory=dict)  # index -> id() of its last gradient
    #: index -> serial (the recorder's) of the last value given to an optimizer in the place
    #: of the call's own gradient (clipped, scaled): where a zeroed update was made
    given_serials: dict[int, int | None] = field(default_factory=dict)
    runs: int = 0  # eager runs made (the Python side stops calling after RUNS)
    #: the thread number (``Recorder.thread_number``) whose runs count: under ``strategy.run``
    #: each replica runs the call once per step, and only one replica's runs are intervals
    replica: int = 0
    tally: Tally = field(default_factory=lambda: Tally(0))


@dataclass
class Tally:
    """The counts over a watch's checked runs (host side: a few numbers per run)."""

    n: int
    runs: int = 0  # checked runs tallied
    seen: int = 0  # a traced step's run count at the last look
    intervals: int = 0  # intervals between runs in which some usable source moved
    previous: list[Any] | None = None  # each source's value at the last tallied run
    usable: Any = None  # each source's gradient was usable at the last tallied run
    stuck: Any = None
    moved: Any = None
    zero: Any = None
    #: intervals in which an optimizer was given something for some source, none of it usable
    #: (with a non-zero learning rate), and per source those in which its own gradient of the
    #: run before was usable yet what it was given was not: the update, not the gradient, zero
    emptied: int = 0
    zapped: Any = None

    def __post_init__(self) -> None:
        self.stuck, self.moved, self.zero, self.zapped = (np.zeros(self.n, int)
                                                          for _ in range(4))

    def add(self, top: Any, weight: Any, given: Any, same: Any) -> None:
        """Count one run from its facts (vectors, one entry per source).

        ``top`` and ``weight`` are each gradient's and weight's largest magnitude, ``given``
        what the optimizer was given since the run before, ``same`` whether each value
        equals the run before's.

        A source is stuck in an interval when its gradient of the run before was usable, the
        optimizer was not given zeros for it (a layer frozen by masking) and its value did
        not change, while some other source with a usable gradient did.
        """
        # no np.errstate: a comparison with a NaN warns of nothing, and entering one costs
        # more than the rest of the tally
        usable = np.isfinite(top) & (top > 0.0) & (top >= _RELATIVE * weight)
        if self.usable is not None:
            moved = self.usable & ~same
            if moved.any():
                self.intervals += 1
                self.stuck += self.usable & (given != 0.0) & (given != RATE_ZERO) & same
            self.moved += moved
            if (given == 0.0).any() and not (given == 1.0).any():
                self.emptied += 1
                self.zapped += self.usable & (given == 0.0) & same
        self.zero += top == 0.0  # an absent gradient is written as -1
        self.usable = usable
        self.runs += 1


def same_as(values: list[Any], previous: list[Any] | None) -> Any:
    """Return a bool vector: each value equals the previous run's (all False for the first)."""
    if previous is None:
        return tf.zeros([len(values)], tf.bool)
    return tf.stack([tf.reduce_all(tf.equal(x, p)) for x, p in zip(values, previous, strict=True)])


def _layout(watch: Watch) -> list[list[int]]:
    """Return (and keep) the watch's sources grouped by dtype, the float32 group first."""
    if not watch.groups:
        by_dtype: dict[str, list[int]] = {"float32": []}
        for i, variable in enumerate(watch.variables):
            by_dtype.setdefault(tfp.dtype_name(variable.dtype), []).append(i)
        watch.groups = list(by_dtype.values())
    return watch.groups


def count_eager(watch: Watch, gradients: list[Any]) -> None:
    """Tally one eager run: a read per weight and, on the CPU, NumPy's look at the buffers.

    On another device the tops and the comparison are a few ops per weight there and one
    host read.
    """
    n = len(watch.variables)
    values = [tf.reshape(v.value(), [-1]) for v in watch.variables]
    given = watch.applied.value()
    watch.applied.assign(np.full([n], -1.0, np.float32))
    data = [getattr(g, "values", g) for g in gradients]
    if all("CPU" in t.device for t in [*values, *(g for g in data if g is not None)]):
        top = np.array([-1.0 if g is None or tfp.dtype_name(g.dtype) not in FLOATS
                        else top_on_host(tfp.numpy_of(g)) for g in data], np.float32)
        views = [tfp.numpy_of(v) for v in values]
        copies = [np.concatenate([views[i] for i in group]) if group else np.zeros(0)
                  for group in _layout(watch)]
        _tally_on_host(watch, copies, top, tfp.numpy_of(given))
        return
    found = tf.concat([gradient_tops(gradients), given, weight_tops(values), tf.cast(
        same_as(values, watch.tally.previous), tf.float32)], axis=0).numpy()
    watch.tally.add(found[:n], found[2 * n:3 * n], found[n:2 * n], found[3 * n:] > 0.5)
    watch.tally.previous = values


def count_traced(watch: Watch, gradients: list[Any], runs: int) -> None:
    """Build, in the graph being traced, the record of one checked run.

    In a ``tf.cond`` on the step's own run count (below ``runs``): the weights' values,
    flattened and copied once per dtype; per gradient its largest magnitude; what the
    optimizer was given since the run before; the count, written after the float32 copy
    (one write, one host read). The weights' largest entries, the comparison with the run
    before and the counting are the host's, after the call (:func:`look`). Later runs only
    read the count.
    """
    n = len(watch.variables)
    if watch.snaps is None:
        with tf.init_scope():
            watch.snaps = [tfp.host_variable(tf.zeros(
                [sum(watch.variables[i].shape.num_elements() for i in group)
                 + (2 * n + 1 if k == 0 else 0)],
                tf.float32 if k == 0 else watch.variables[group[0]].dtype))
                for k, group in enumerate(_layout(watch))]
    applied, groups = watch.applied, watch.groups
    snaps: list[Any] = watch.snaps
    done = snaps[0].read_value()[-1]

    def record() -> Any:
        # per weight a read and a reshape (one shape constant for all): fewer ops to trace
        # than a copy variable each, whose read_value() adds an Identity
        line = tf.constant([-1], tf.int32)
        flat = [tf.reshape(v.value(), line) for v in watch.variables]
        given = applied.read_value()
        facts = [gradient_tops(gradients), given, tf.reshape(done + 1.0, [1])]
        writes = [snap.assign(tf.concat([flat[i] for i in group] + (facts if k == 0 else []),
                                        axis=0))
                  for k, (snap, group) in enumerate(zip(snaps, groups, strict=True))]
        with tf.control_dependencies([given]):  # read before it is reset
            writes.append(applied.assign(tf.constant([-1.0] * n)))
        with tf.control_dependencies(writes):
            return tf.constant(True)

    tf.cond(done < runs, record, lambda: tf.constant(False))


def look(watch: Watch) -> int | None:
    """Tally a traced step's last checked run if one ran since the last look.

    Returns the run count (None: no new run). On the CPU one read of the float32 copy and
    its facts (the other dtypes' copies only when a run is new); the copies are the buffers
    as NumPy sees them and the comparison is NumPy's, no op per weight. On another device
    the facts are sliced there and the comparison stays there: one vector comes back.
    """
    if not watch.snaps:
        return None
    n = len(watch.variables)
    first = watch.snaps[0].value()
    on_host = "CPU" in first.device
    head = tfp.numpy_of(first) if on_host else first
    facts = head[-(2 * n + 1):] if on_host else tfp.numpy_of(head[-(2 * n + 1):])
    runs = int(facts[2 * n])
    if runs == watch.tally.seen:
        return None
    watch.tally.seen = runs
    copies = [head[:-(2 * n + 1)], *(s.value() for s in watch.snaps[1:])]
    if on_host:
        _tally_on_host(watch, [c if k == 0 else tfp.numpy_of(c) for k, c in enumerate(copies)],
                       facts[:n], facts[n:2 * n])
        return runs
    values: list[Any] = [None] * n
    for copy, group in zip(copies, watch.groups, strict=True):
        sizes = [watch.variables[i].shape.num_elements() for i in group]
        for i, part in zip(group, tf.split(copy, sizes) if group else [], strict=True):
            values[i] = part
    both = tf.concat([weight_tops(values), tf.cast(
        same_as(values, watch.tally.previous), tf.float32)], axis=0).numpy()
    watch.tally.add(facts[:n], both[:n], facts[n:2 * n], both[n:] > 0.5)
    watch.tally.previous = values
    return runs


def _tally_on_host(watch: Watch, copies: list[Any], top: Any, given: Any) -> None:
    """Tally a run from the per-dtype flat copies (NumPy arrays) of the watched weights."""
    n = len(watch.variables)
    weight, same = np.zeros(n, np.float32), np.zeros(n, bool)
    previous = watch.tally.previous
    for k, (copy, group) in enumerate(zip(copies, watch.groups, strict=True)):
        if group:
            sizes = [watch.variables[i].shape.num_elements() for i in group]
            weight[group], same[group] = compare_on_host(
                copy, None if previous is None else previous[k], sizes)
    watch.tally.add(top, weight, given, same)
    watch.tally.previous = copies


def top_on_host(value: Any) -> Any:
    """Return an array's largest magnitude as the device's ``reduce_max(abs)`` gives it.

    A NaN propagates; an empty array gives -inf (the maximum's identity).
    """
    if not value.size:
        return -np.inf
    top = np.max(np.abs(value))
    if top.dtype.itemsize > 4:  # float64's beyond float32's range: inf, as the device's cast
        with np.errstate(over="ignore"):
            return np.float32(top)
    return top


def compare_on_host(flat: Any, previous: Any, sizes: list[int]) -> tuple[Any, Any]:
    """Return each weight's largest magnitude (float32) and whether it equals the last.

    ``flat`` holds the weights one after the other (``sizes`` elements each), ``previous``
    the same of the run before (None: the first run, nothing equal). A few NumPy calls
    for all of them (reductions at the weights' starts). NumPy's answers are the
    device's: the maximum of the magnitudes propagates a NaN, the equality says a NaN
    differs and -0.0 equals 0.0, an empty weight's top is -inf and it equals itself.
    """
    weight = np.full(len(sizes), -np.inf, np.float32)
    same = np.full(len(sizes), previous is not None)
    filled = np.array([size > 0 for size in sizes], bool)
    if filled.any():  # reduceat needs each start inside the array and below the next
        starts = (np.cumsum(sizes) - sizes)[filled]
        tops = np.maximum.reduceat(np.abs(flat), starts)
        if tops.dtype.itemsize > 4:  # float64's beyond float32's range: inf, as the cast
            with np.errstate(over="ignore"):  # on the device gives it
                tops = tops.astype(np.float32)
        weight[filled] = tops
        if previous is not None:
            same[filled] = np.logical_and.reduceat(flat == previous, starts)
    return weight, same


def note_applied(watch: Watch, items: list[tuple[int, Any, Any]], rate: Any = None) -> None:
    """Build the write of ``watch.applied`` for (index, gradient, variable) ``items``.

    A gradient the optimizer gets as the call returned it (the same tensor) is usable when
    the call's was: 1 with no op; only a changed one (clipped, masked) is measured again.
    """
    same = [(i, g) for i, g, _ in items if watch.last.get(i) == id(g)]
    changed = [(i, g, v) for i, g, v in items if watch.last.get(i) != id(g)]

    def note() -> None:
        flags = [tf.constant([1.0] * len(same))] if same else []
        if changed:
            flags.append(tf.cast(usable([g for _, g, _ in changed],
                                         [v.read_value() for _, _, v in changed]), tf.float32))
        order = [[i] for i, _ in same] + [[i] for i, _, _ in changed]
        given = tf.concat(flags, axis=0)
        if rate is not None:  # a learning rate of zero applies nothing, whatever it is given
            given = tf.where(tf.equal(tf.cast(rate, tf.float32), 0.0), RATE_ZERO, given)
        watch.applied.scatter_nd_update(order, given)

    # plain ops, no tf.cond, in a traced step too: a cond costs more ops to trace (and to
    # optimise on the first run) than this write of a short vector
    note()


def axes_maker() -> Callable[[Any], Any]:
    """Return a maker of every axis of a value: one constant per rank, not per reduction."""
    made: dict[int, Any] = {}

    def axes(value: Any) -> Any:
        rank = value.shape.rank
        if rank is None:
            return None
        if rank not in made:
            made[rank] = tf.constant(list(range(rank)), tf.int32)
        return made[rank]

    return axes


def gradient_tops(gradients: list[Any]) -> Any:
    """Return a float32 vector: each gradient's largest magnitude.

    Enough for every fact the tally needs of a gradient: it is all zero when its top is 0,
    finite when its top is (a NaN propagates through the maximum), and usable when finite,
    not zero and at least ``_RELATIVE`` times its weight's top. A None (or integer) gradient
    is written as -1: neither usable nor zero (a severed path is other rules' finding).
    """
    axes = axes_maker()
    absent = tf.constant(-1.0)
    tops = []
    for gradient in gradients:
        data = getattr(gradient, "values", gradient)  # IndexedSlices: the rows it touches
        if data is None or tfp.dtype_name(getattr(data, "dtype", None)) not in FLOATS:
            tops.append(absent)
        else:
            tops.append(tf.cast(tf.reduce_max(tf.abs(data), axis=axes(data)), tf.float32))
    return tf.stack(tops)


def weight_tops(values: list[Any]) -> Any:
    """Return a float32 vector: each weight value's largest magnitude."""
    axes = axes_maker()
    return tf.stack([tf.cast(tf.reduce_max(tf.abs(v), axis=axes(v)), tf.float32)
                     for v in values])


def usable(gradients: list[Any], values: list[Any]) -> Any:
    """Return a bool vector: would an update by each gradient show in its weight's value."""
    top, weight = gradient_tops(gradients), weight_tops(values)
    return tf.logical_and(tf.logical_and(tf.math.is_finite(top), top > 0.0),
                          top >= _RELATIVE * weight)
