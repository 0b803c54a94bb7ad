"""Run a cell under a check and keep its trace: shared by the fast-path tests.

The recorder has two fast paths, both for speed (bench/overhead.py, eager ResNet50 cold):
``tracing/backward.py`` records the backward ops of an eager ``tape.gradient`` that can run no
user code from its first op's location, API and layer (no walk to the user's frame), and
``tracing/initializers.py`` leaves out a Keras weight initialiser's ops on nothing recorded.
tests/test_fast_paths_backward.py, tests/test_fast_paths_initialisers.py and
tests/test_fast_paths_same_findings.py check that neither changes a finding.
"""

from __future__ import annotations

import textwrap
from typing import Any, NamedTuple
from unittest import mock

import pytest

import tapemagic

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")


class Checked(NamedTuple):
    report: Any
    trace: Any


def check_of(cell: str) -> Checked:
    """Run ``cell`` under a check (as file ``<fast-path-cell>``): its report and its trace."""
    import linecache

    from tapemagic.tracing.session import TraceSession

    source = textwrap.dedent(cell)
    name = "<fast-path-cell>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    namespace: dict[str, Any] = {"tf": tf, "keras": keras, "np": __import__("numpy")}
    keras.backend.clear_session()  # the same layer names in every run
    traces = []
    exit_session = TraceSession.__exit__

    def keep(session: TraceSession, *exc: Any) -> None:
        exit_session(session, *exc)
        traces.append(session.trace)

    with mock.patch.object(TraceSession, "__exit__", keep), tapemagic.gradcheck() as check:
        exec(compile(source, name, "exec"), namespace)  # noqa: S102 - the test's own cell
    assert check.report is not None
    # the first check of a process also runs the self-test's own small session
    return Checked(check.report, max(traces, key=lambda trace: len(trace.ops)))


def results(check: Checked) -> list[tuple[str, str]]:
    return [(s.name, s.result) for c in check.trace.gradient_calls for s in c.sources]


#: a correct Keras step: two Dense layers, one tape, one SGD update
DENSE_STEP = """
keras.utils.set_random_seed(3)
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="tanh"),
                          keras.layers.Dense(1)])
x = tf.random.normal((16, 4))
opt = keras.optimizers.SGD(0.1)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x)))
grads = tape.gradient(loss, model.trainable_variables)
opt.apply_gradients(zip(grads, model.trainable_variables))
"""
