"""One gradient call site run for several models: every set of sources is analysed, once.

A loop over models that reaches one ``tape.gradient`` line (a CycleGAN's networks, an
ensemble, per-client updates), or one train step (plain or ``tf.function``) shared by several
models: the model whose loss is cut may be the second one. Each distinct set of sources is
analysed in eager and graph mode; a cut by one line for two models is one finding naming both
models' weights; repeat runs of a set analysed already record nothing (the trace does not grow
with the number of steps); correct code of the same shape stays silent.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest
from checked import run_program

import tapemagic

pytestmark = pytest.mark.tf

tf = pytest.importorskip("tensorflow")

_SETUP = """\
import numpy as np
import tensorflow as tf

def make(name):
    return tf.keras.Sequential([tf.keras.layers.Input((4,)),
                                tf.keras.layers.Dense(8, activation="relu", name=name + "_h"),
                                tf.keras.layers.Dense(1, name=name + "_o")], name=name)

x = tf.constant(np.random.default_rng(0).normal(size=(16, 4)).astype("float32"))
y = tf.constant(np.random.default_rng(1).normal(size=(16, 1)).astype("float32"))
models = [make("m0"), make("m1"), make("m2")]
opts = [tf.keras.optimizers.SGD(0.01) for _ in models]

def apply(opt, grads, model):
    pairs = [(g, v) for g, v in zip(grads, model.trainable_variables) if g is not None]
    if pairs:
        opt.apply_gradients(pairs)
"""

_SHARED_STEP = _SETUP + """
def prediction(model, cut):
    pred = model(x)
    if cut:
        pred = tf.round(pred)  # CUT
    return pred

{decorator}
def step(model, opt, cut):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((prediction(model, cut) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    apply(opt, grads, model)
    return loss

for _ in range(STEPS):
    for index, (model, opt) in enumerate(zip(models, opts)):
        step(model, opt, index in CUT_MODELS)
"""

_ONE_LINE_LOOP = _SETUP + """
for _ in range(STEPS):
    with tf.GradientTape(persistent=True) as tape:
        losses = []
        for index, model in enumerate(models):
            pred = model(x)
            if index in CUT_MODELS:
                pred = tf.constant(pred.numpy())  # CUT
            losses.append(tf.reduce_mean((pred - y) ** 2))
    for model, opt, loss in zip(models, opts, losses):
        grads = tape.gradient(loss, model.trainable_variables)
        apply(opt, grads, model)
    del tape
"""


def _check(source: str, cut: tuple[int, ...], steps: int = 6, **options: Any) -> tapemagic.Check:
    cell = textwrap.dedent(source).replace("STEPS", str(steps)).replace(
        "CUT_MODELS", repr(cut))
    return run_program(None, cell, name=f"<sites-{abs(hash(cell))}>", **options).check


def _line_of(check: tapemagic.Check, mark: str) -> int:
    import linecache

    filename = check.report.gradient_calls[0].location.file  # type: ignore[union-attr]
    lines = linecache.getlines(filename)
    return next(i for i, text in enumerate(lines, 1) if mark in text)


def _loud(check: tapemagic.Check) -> list[Any]:
    assert check.report is not None
    return [f for f in check.report.findings if f.severity in ("warning", "error")]


def _weights(model: str) -> set[str]:
    return {f"{model}/{model}_{layer}/{kind}" for layer in ("h", "o")
            for kind in ("kernel", "bias")}


@pytest.mark.parametrize("decorator", ["", "@tf.function"])
@pytest.mark.parametrize("force_eager", [False, True])
def test_the_second_model_of_a_shared_step_is_analysed(decorator: str,
                                                       force_eager: bool) -> None:
    check = _check(_SHARED_STEP.replace("{decorator}", decorator), cut=(1,),
                   force_eager=force_eager)
    loud = _loud(check)
    assert len(loud) == 1, [(f.rule, f.location, f.variables) for f in loud]
    finding = loud[0]
    assert finding.cause == "non-differentiable-op"
    assert finding.location is not None and finding.location.line == _line_of(check, "# CUT")
    assert set(finding.variables) == _weights("m1")
    verdicts = {s.variable: s.verdict for c in check.report.gradient_calls  # type: ignore[union-attr]
                for s in c.sources}
    assert {verdicts[w] for w in _weights("m1")} == {"severed"}
    assert {verdicts[w] for w in _weights("m0") | _weights("m2")} == {"connected"}


@pytest.mark.parametrize("force_eager", [False, True])
def test_one_line_for_every_model_cut_twice_is_one_finding(force_eager: bool) -> None:
    check = _check(_ONE_LINE_LOOP, cut=(1, 2), force_eager=force_eager)
    loud = _loud(check)
    assert len(loud) == 1, [(f.rule, f.location, f.variables) for f in loud]
    finding = loud[0]
    assert finding.cause == "host-round-trip"
    assert finding.location is not None and finding.location.line == _line_of(check, "# CUT")
    assert set(finding.variables) == _weights("m1") | _weights("m2")


@pytest.mark.parametrize("decorator", ["", "@tf.function"])
def test_a_shared_step_training_every_model_is_silent(decorator: str) -> None:
    check = _check(_SHARED_STEP.replace("{decorator}", decorator), cut=())
    assert _loud(check) == []
    analysed = check.report.gradient_calls  # type: ignore[union-attr]
    assert len(analysed) == 3  # one per model
    assert all(s.verdict == "connected" for c in analysed for s in c.sources)
    assert "get a gradient" in check.report.headline  # type: ignore[union-attr]


def _trace(source: str, cut: tuple[int, ...], steps: int) -> Any:
    from tapemagic.tracing.session import TraceSession

    cell = source.replace("STEPS", str(steps)).replace("CUT_MODELS", repr(cut))
    session = TraceSession()
    with session:
        exec(compile(cell, "<sites-trace>", "exec"), {})  # noqa: S102 - the test's own cell
    assert session.trace is not None
    return session.trace


@pytest.mark.parametrize("decorator", ["", "@tf.function"])
def test_repeat_runs_of_each_model_record_nothing(decorator: str) -> None:
    """The trace of a loop over models stops growing once every model's run was analysed."""
    source = _SHARED_STEP.replace("{decorator}", decorator)
    short, long = _trace(source, (1,), steps=4), _trace(source, (1,), steps=12)
    assert len(short.gradient_calls) == len(long.gradient_calls) == 3
    assert len(long.ops) == len(short.ops)


def test_one_model_loop_is_analysed_once() -> None:
    source = _SETUP + """
for _ in range(STEPS):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((models[0](x) - y) ** 2)
    apply(opts[0], tape.gradient(loss, models[0].trainable_variables), models[0])
"""
    short, long = _trace(source, (), steps=3), _trace(source, (), steps=15)
    assert len(short.gradient_calls) == len(long.gradient_calls) == 1
    assert len(long.ops) == len(short.ops)


_SWAPPED = _SETUP + """
with tf.GradientTape(persistent=True) as tape:
    losses = [tf.reduce_mean((model(x) - y) ** 2) for model in models]
pairs = [(losses[0], models[0]), (losses[1], models[SWAP]), (losses[2], models[2])]
for loss, model in pairs:
    grads = tape.gradient(loss, model.trainable_variables)  # CALL
del tape
"""


@pytest.mark.parametrize("force_eager", [False, True])
@pytest.mark.parametrize("swap", [2, 1])
def test_a_loss_paired_with_another_models_weights(force_eager: bool, swap: int) -> None:
    # CycleGAN's loop of (loss, network) pairs with two discriminators swapped: the weights
    # of m2, read by the tape for another loss, are the sources of m1's loss. The source list
    # is the line to change, and the message says the loss depends on another model's
    # weights (made by the same code); the right pairs are silent.
    check = _check(_SWAPPED.replace("SWAP", str(swap)), (), force_eager=force_eager)
    loud = _loud(check)
    if swap == 1:
        assert loud == []
        return
    (finding,) = loud
    assert finding.rule == "TM104"
    assert finding.location is not None and finding.location.line == _line_of(check, "# CALL")
    assert "another model's weights" in finding.message
    assert set(finding.variables) == _weights("m2")
