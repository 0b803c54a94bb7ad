"""TM118: a weight that gets a gradient every step yet does not change (``tracing/moved.py``).

Real TensorFlow and Keras 3. Each broken program computes a usable gradient for every weight
and then fails to update some of them (an ``apply_gradients`` on part of the list, a callback
that restores a layer every batch); each correct one leaves weights unchanged on purpose or
for a step (a GAN's other step, gradient accumulation, a layer frozen by masking its
gradients with zeros, a learning rate of zero, a loss scale skipping inf steps, a
zero-initialised scale, a single step) and must stay silent.
"""

from __future__ import annotations

import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest

import tapemagic
from tapemagic.report.validate import validate_report

pytestmark = pytest.mark.tf

SETUP = """\
import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
x = tf.constant(np.random.default_rng(0).normal(size=(32, 4)), tf.float32)
y = tf.reduce_sum(x, axis=1, keepdims=True)
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, "tanh", name="hidden"),
                          keras.layers.Dense(1, name="out")])
"""

SUBLIST_EAGER = """
optimizer = keras.optimizers.Adam(0.01)
for _ in range({steps}):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads[2:], model.trainable_variables[2:]))  # STEP
"""

SUBLIST_FUNCTION = """
optimizer = keras.optimizers.Adam(0.01)

@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads[2:], model.trainable_variables[2:]))  # STEP

for _ in range(4):
    step()
"""

# the hidden layer's weights are float64, the output's float32: the step copies them per dtype
MIXED_DTYPES = """
model = keras.Sequential([keras.Input((4,)),
                          keras.layers.Dense(8, "tanh", name="hidden", dtype="float64"),
                          keras.layers.Dense(1, name="out")])
""" + SUBLIST_FUNCTION

RESTORE_CALLBACK = """
class Restore(keras.callbacks.Callback):
    def __init__(self, layer):
        super().__init__()
        self.layer, self.saved = layer, None

    def on_train_batch_begin(self, batch, logs=None):
        if self.saved is None:
            self.saved = self.layer.get_weights()
        self.layer.set_weights(self.saved)

model.compile("adam", "mse")
model.fit(x, y, batch_size=8, epochs=1, verbose=0,  # STEP
          callbacks=[Restore(model.get_layer("hidden"))])
"""

MASKED = """
optimizer = keras.optimizers.SGD(0.05)

@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    grads = [tf.zeros_like(g) if "hidden" in v.path else g
             for g, v in zip(grads, model.trainable_variables)]
    optimizer.apply_gradients(zip(grads, model.trainable_variables))

for _ in range(4):
    step()
"""

ACCUMULATED = """
optimizer = keras.optimizers.Adam(0.01)
total = [tf.zeros_like(v) for v in model.trainable_variables]
for n in range(8):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    total = [t + g for t, g in zip(total, grads)]
    if n % 4 == 3:
        optimizer.apply_gradients(zip(total, model.trainable_variables))
        total = [tf.zeros_like(v) for v in model.trainable_variables]
"""

# the generator's step differentiates with respect to both models and applies its own part;
# the discriminator's step trains the rest
GAN = """
critic = keras.Sequential([keras.Input((1,)), keras.layers.Dense(4, "tanh", name="c1"),
                           keras.layers.Dense(1, name="c2")])
g_opt, c_opt = keras.optimizers.Adam(0.01), keras.optimizers.Adam(0.01)
both = model.trainable_variables + critic.trainable_variables
for _ in range(4):
    with tf.GradientTape() as tape:
        c_loss = tf.reduce_mean(critic(model(x))) - tf.reduce_mean(critic(y))
    c_grads = tape.gradient(c_loss, critic.trainable_variables)
    c_opt.apply_gradients(zip(c_grads, critic.trainable_variables))
    with tf.GradientTape() as tape:
        g_loss = -tf.reduce_mean(critic(model(x)))
    g_grads = tape.gradient(g_loss, both)
    g_opt.apply_gradients(zip(g_grads[:4], model.trainable_variables))
"""

ZERO_LR = """
optimizer = keras.optimizers.SGD(0.0)
for _ in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
"""

LOSS_SCALE = """
optimizer = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.05),
                                                initial_scale=2.0 ** 127)
for _ in range(6):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
        scaled = optimizer.scale_loss(loss)
    grads = tape.gradient(scaled, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
"""

# discriminative learning rates: the hidden layer's own optimizer has a rate of zero
ZERO_RATE_PART = """
frozen, trained = keras.optimizers.SGD(0.0), keras.optimizers.SGD(0.05)
for _ in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    frozen.apply_gradients(zip(grads[:2], model.trainable_variables[:2]))
    trained.apply_gradients(zip(grads[2:], model.trainable_variables[2:]))
"""

# ReZero: the residual branch's scale starts at zero, so the branch's weights get exact zero
# gradients on the first step only
REZERO = """
class Residual(keras.layers.Layer):
    def build(self, shape):
        self.inner = keras.layers.Dense(shape[-1], "tanh", name="inner")
        self.alpha = self.add_weight(shape=(), initializer="zeros", name="alpha")

    def call(self, h):
        return h + self.alpha * self.inner(h)

net = keras.Sequential([keras.Input((4,)), Residual(), keras.layers.Dense(1, name="out")])
optimizer = keras.optimizers.SGD(0.05)
for _ in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((net(x) - y) ** 2)
    grads = tape.gradient(loss, net.trainable_variables)
    optimizer.apply_gradients(zip(grads, net.trainable_variables))
"""


def _run(tmp_path: Path, body: str, force_eager: bool = False) -> Any:
    path = tmp_path / "cell.py"
    path.write_text(SETUP + textwrap.dedent(body))
    namespace: dict[str, Any] = {"__name__": "__main__"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with tapemagic.gradcheck(force_eager=force_eager) as check:
            exec(compile(path.read_text(), str(path), "exec"), namespace)  # noqa: S102
    report = check.report
    validate_report(report.to_json())
    return report


def _line(tmp_path: Path, needle: str) -> int:
    lines = (tmp_path / "cell.py").read_text().splitlines()
    return next(i for i, text in enumerate(lines, start=1) if needle in text)


def _loud(report: Any) -> list[tuple[str, int]]:
    return [(f.rule, f.location.line if f.location else 0) for f in report.findings
            if f.severity in ("error", "warning")]


@pytest.mark.parametrize(("body", "force_eager"), [
    (SUBLIST_EAGER.format(steps=4), False),
    (SUBLIST_FUNCTION, False),
    (SUBLIST_FUNCTION, True),
    (MIXED_DTYPES, False),
    (RESTORE_CALLBACK, False),
], ids=["eager-loop", "tf-function", "tf-function-eager", "tf-function-mixed-dtypes",
        "fit-restore-callback"])
def test_weights_that_never_move_are_named_at_the_step(tmp_path: Path, body: str,
                                                         force_eager: bool) -> None:
    report = _run(tmp_path, body, force_eager)
    # at the optimizer call given the other weights but not these; else at the step
    assert _loud(report) == [("TM118", _line(tmp_path, "# STEP"))]
    (finding,) = report.findings
    assert {v.rsplit("/", 1)[-1] for v in finding.variables} == {"kernel", "bias"}
    assert all("hidden" in v for v in finding.variables)
    assert "3 checked steps" in finding.message
    call = report.gradient_calls[0].location
    assert call is not None and f"line {call.line} " in finding.message


@pytest.mark.parametrize("body", [
    SUBLIST_EAGER.format(steps=2), MASKED, ACCUMULATED, GAN, ZERO_LR, ZERO_RATE_PART,
    LOSS_SCALE, REZERO,
], ids=["two-steps", "masked-by-zeros", "accumulation", "gan-other-step", "zero-lr",
        "zero-rate-part", "loss-scale-skips", "rezero"])
def test_weights_left_alone_on_purpose_stay_silent(tmp_path: Path, body: str) -> None:
    report = _run(tmp_path, body)
    assert "TM118" not in report.codes
    assert not _loud(report)


@pytest.mark.parametrize("body", [MASKED, SUBLIST_EAGER.format(steps=4), RESTORE_CALLBACK],
                         ids=["tf-function", "eager-loop", "fit"])
def test_the_check_leaves_the_weights_as_a_plain_run_leaves_them(tmp_path: Path,
                                                                  body: str) -> None:
    path = tmp_path / "cell.py"
    path.write_text(SETUP + textwrap.dedent(body))
    code = compile(path.read_text(), str(path), "exec")
    finals = []
    for checked in (True, False):
        namespace: dict[str, Any] = {"__name__": "__main__"}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            if checked:
                with tapemagic.gradcheck():
                    exec(code, namespace)  # noqa: S102
            else:
                exec(code, namespace)  # noqa: S102
        finals.append([v.numpy() for v in namespace["model"].trainable_variables])
    for with_check, plain in zip(*finals, strict=True):
        assert (with_check == plain).all()



def test_a_traced_step_copies_its_weights_and_the_host_compares_them(tmp_path: Path) -> None:
    """The comparison with the run before is the host's: the step's graph holds only the copy.

    Every op built into a traced step is paid at trace time in each trace, and again when its
    first run optimises it: the equality per weight, the flags and the counts are not built
    there. The four float32 weights are copied in one write, the facts and the run count
    after them (one host read after the call). The wrapper that reads after each call is
    undone with the check.
    """
    from tapemagic.tracing import _tf_private as tfp

    before = tfp.AtomicFunction.__dict__["call_flat"]
    path = tmp_path / "cell.py"
    path.write_text(SETUP + textwrap.dedent(SUBLIST_FUNCTION))
    namespace: dict[str, Any] = {"__name__": "__main__"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with tapemagic.gradcheck() as check:
            exec(compile(path.read_text(), str(path), "exec"), namespace)  # noqa: S102
    assert _loud(check.report) == [("TM118", _line(tmp_path, "# STEP"))]
    assert tfp.AtomicFunction.__dict__["call_flat"] is before
    library = namespace["step"].get_concrete_function().graph.as_graph_def().library
    branches = [f for f in library.function
                if "tapemagic_moved" in f.signature.name and "cond_true" in f.signature.name]
    assert branches  # the record's tf.cond is in the step
    types = {node.op for f in branches for node in f.node_def}
    writes = [node.op for f in branches for node in f.node_def if "Assign" in node.op]
    assert writes == ["AssignVariableOp"] * 2  # the weights' one copy with the facts; the note
    assert not types & {"Equal", "All", "LogicalAnd"}  # no comparison, no flags, no counting
