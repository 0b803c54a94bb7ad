"""The line to change, for kinds of cut whose finding used to sit elsewhere (issue 17, 3.).

Each program is written to a real file (autograph reads the source of what it converts) and
run through ``tapemagic.gradcheck`` in graph mode as written and forced eager: the broken one
gets its finding on the line the user must change, the correct one of the same shape gets no
warning or error finding.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from checked import run_program

from tapemagic.report.model import Report

pytestmark = pytest.mark.tf
MODES = pytest.mark.parametrize("eager", [False, True], ids=["graph", "eager"])


def check(tmp_path: Path, source: str, eager: bool) -> tuple[Report, Path]:
    """Run ``source`` under gradcheck; return the report and the file (for line lookups)."""
    # the code may raise, as the user's did: the check records it as the magic does
    done = run_program(tmp_path, source, name="prog.py", catch=Exception, caught_inside=True,
                       force_eager=eager, prefix="import numpy as np\nimport tensorflow as tf\n"
                                                 "tf.keras.utils.set_random_seed(0)\n")
    return done.report, done.path


def line(path: Path, needle: str) -> int:
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if needle in text:
            return number
    raise AssertionError(needle)


def found(report: Report) -> set[tuple[str, int, bool]]:
    return {(f.rule, f.location.line if f.location else 0, f.primary) for f in report.findings}


def loud(report: Report) -> list[str]:
    return [f"{f.rule}@{f.location.line if f.location else 0}: {f.message}"
            for f in report.findings if f.severity in ("warning", "error")]


# -- 1. Grad-CAM: the class score from a second, independent forward pass -------------------

GRADCAM = """
inputs = tf.keras.Input((8, 8, 1))
features = tf.keras.layers.Conv2D(4, 3, activation="relu", name="last_conv")(inputs)
pooled = tf.keras.layers.GlobalAveragePooling2D()(features)
model = tf.keras.Model(inputs, tf.keras.layers.Dense(3, name="logits")(pooled))
grad_model = tf.keras.Model(model.inputs, [model.get_layer("last_conv").output, model.output])
image = tf.constant(np.random.default_rng(3).random((1, 8, 8, 1)).astype("float32"))

@tf.function
def heatmap(img):
    with tf.GradientTape() as tape:
        conv_out, preds = grad_model(img)
        {second}
        score = preds[:, tf.argmax(preds[0])]
    return tape.gradient(score, conv_out)

grads = heatmap(image)
"""


@MODES
def test_gradcam_second_forward_pass_is_the_line(tmp_path: Path, eager: bool) -> None:
    report, path = check(tmp_path, GRADCAM.format(second="preds = model(img)"), eager)
    assert found(report) == {("TM104", line(path, "preds = model(img)"), True)}
    assert "second, independent forward pass" in report.findings[0].message


@MODES
def test_gradcam_from_the_grad_model_output_is_silent(tmp_path: Path, eager: bool) -> None:
    report, _ = check(tmp_path, GRADCAM.format(second="pass"), eager)
    assert loud(report) == []


# -- 2. integer token ids watched for a saliency map ------------------------------------------

SALIENCY = """
model = tf.keras.Sequential([tf.keras.layers.Input((6,), dtype="int32"),
                             tf.keras.layers.Embedding(20, 4, name="embed"),
                             tf.keras.layers.GlobalAveragePooling1D(),
                             tf.keras.layers.Dense(2, name="head")])
ids = tf.constant(np.random.default_rng(5).integers(1, 20, (1, 6)), dtype=tf.int32)

@tf.function
def saliency(ids):
    {body}

g = saliency(ids)
"""
WATCH_IDS = """with tf.GradientTape() as tape:
        tape.watch(ids)
        score = model(ids)[:, 1]
    return tape.gradient(score, ids)"""
WATCH_EMBEDDINGS = """embedded = model.layers[0](ids)
    with tf.GradientTape() as tape:
        tape.watch(embedded)
        score = model.layers[2](model.layers[1](embedded))[:, 1]
    return tape.gradient(score, embedded)"""


@MODES
def test_watched_token_ids_at_the_watch(tmp_path: Path, eager: bool) -> None:
    report, path = check(tmp_path, SALIENCY.format(body=WATCH_IDS), eager)
    assert found(report) == {("TM202", line(path, "tape.watch(ids)"), True)}


@MODES
def test_watched_embeddings_are_silent(tmp_path: Path, eager: bool) -> None:
    report, _ = check(tmp_path, SALIENCY.format(body=WATCH_EMBEDDINGS), eager)
    assert loud(report) == []


# -- 3. a persistent tape's inner gradient and the loss after its with block ------------------

PINN = """
net = tf.keras.Sequential([tf.keras.layers.Input((1,)),
                           tf.keras.layers.Dense(8, activation="tanh", name="h"),
                           tf.keras.layers.Dense(1, name="u")])
x_col = tf.constant(np.linspace(-1.0, 1.0, 16, dtype="float32")[:, None])

@tf.function
def step(x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        u = net(x)
{inner}
    return tape.gradient(loss, net.trainable_variables)

g = step(x_col)
"""
INNER = """    u_x = tape.gradient(u, x)
    loss = tf.reduce_mean(tf.square(u_x - 1.0)) + tf.reduce_mean(tf.square(u))"""


@MODES
def test_pinn_inner_gradient_after_the_block_is_outside_tape(tmp_path: Path,
                                                             eager: bool) -> None:
    report, path = check(tmp_path, PINN.format(inner=INNER), eager)
    rules = found(report)
    assert ("TM103", line(path, "u_x = tape.gradient(u, x)"), True) in rules
    assert {r for r, _, _ in rules} == {"TM103"}
    assert {n.split("/", 1)[-1] for f in report.findings for n in f.variables} == {
        "h/kernel", "h/bias", "u/kernel", "u/bias"}


@MODES
def test_pinn_inner_gradient_inside_the_block_is_silent(tmp_path: Path, eager: bool) -> None:
    report, _ = check(tmp_path, PINN.format(inner=textwrap.indent(INNER, "    ")), eager)
    assert loud(report) == []


# -- 7. sources from another model built by the same factory ----------------------------------

DDPG = """
def get_actor(name, prefix=""):
    inputs = tf.keras.Input((3,))
    hidden = tf.keras.layers.Dense(8, activation="relu", name=prefix + "h")(inputs)
    return tf.keras.Model(inputs, tf.keras.layers.Dense(1, name=prefix + "mu")(hidden),
                          name=name)

actor, target_actor = get_actor("actor"), get_actor("target_actor", "t_")
critic = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(1, name="q")])
states = tf.constant(np.random.default_rng(1).normal(size=(8, 3)).astype("float32"))

@tf.function
def update(s):
    with tf.GradientTape() as tape:
        {forward}
    return tape.gradient(loss, {sources})

g = update(s=states)
"""
ACTOR_LOSS = "loss = -tf.reduce_mean(critic(tf.concat([s, actor(s)], axis=1)))"
# the critic's own update reads the target actor (its target value), differentiated w.r.t.
# the critic: correct code that reads another model made by the same factory
CRITIC_LOSS = ("y = tf.stop_gradient(critic(tf.concat([s, target_actor(s)], axis=1)))\n"
               "        loss = tf.reduce_mean(tf.square(y - critic(tf.concat([s, actor(s)], 1))))")


@MODES
def test_target_actor_sources_at_the_gradient_call(tmp_path: Path, eager: bool) -> None:
    report, path = check(tmp_path, DDPG.format(forward=ACTOR_LOSS,
                                               sources="target_actor.trainable_variables"), eager)
    assert found(report) == {("TM104", line(path, "return tape.gradient"), True)}
    assert "another model's weights" in report.findings[0].message
    assert set(report.findings[0].variables) == {"t_h/kernel", "t_h/bias", "t_mu/kernel",
                                                 "t_mu/bias"}


@MODES
@pytest.mark.parametrize("forward,sources", [
    (ACTOR_LOSS, "actor.trainable_variables"),
    (CRITIC_LOSS, "critic.trainable_variables"),
], ids=["actor", "critic"])
def test_own_model_sources_are_silent(tmp_path: Path, eager: bool, forward: str,
                                      sources: str) -> None:
    report, _ = check(tmp_path, DDPG.format(forward=forward, sources=sources), eager)
    assert loud(report) == []


MODULES = """
class Actor(tf.Module):
    def __init__(self, name):
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal((3, 1), seed=1), name=name + "_w")
        self.b = tf.Variable(tf.zeros((1,)), name=name + "_b")

    def __call__(self, s):
        return tf.tanh(tf.matmul(s, self.w) + self.b)

actor, target_actor = Actor("actor"), Actor("target_actor")
heads = [tf.Variable(tf.ones((3, 1)), name="head" + str(i)) for i in range(2)]
critic_w = tf.Variable(tf.ones((4, 1)), name="critic_w")
states = tf.constant(np.random.default_rng(0).normal(size=(8, 3)).astype("float32"))

@tf.function
def update(s):
    with tf.GradientTape() as tape:
        {loss}
    return tape.gradient(loss, {sources}, unconnected_gradients=tf.UnconnectedGradients.ZERO)

g = update(states)
"""


@MODES
def test_zeros_for_another_models_weights(tmp_path: Path, eager: bool) -> None:
    loss = "loss = -tf.reduce_mean(tf.matmul(tf.concat([s, actor(s)], 1), critic_w))"
    report, path = check(tmp_path, MODULES.format(
        loss=loss, sources="target_actor.trainable_variables"), eager)
    assert found(report) == {("TM104", line(path, "return tape.gradient"), True)}
    assert set(report.findings[0].variables) == {"target_actor_w", "target_actor_b"}


@MODES
def test_zeros_asked_for_an_unused_head_are_silent(tmp_path: Path, eager: bool) -> None:
    # per-task heads made in one loop, each loss reading its own: ZERO for the others is
    # what the code asks for
    report, _ = check(tmp_path, MODULES.format(
        loss="loss = tf.reduce_sum(tf.matmul(s, heads[0]))", sources="heads"), eager)
    assert loud(report) == []


# -- 4. mixed precision: the gradient of the unscaled loss underflows float16 -----------------

MIXED = """
import keras
keras.mixed_precision.set_global_policy("mixed_float16")
try:
    model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(16, activation="tanh",
                              name="h"), keras.layers.Dense(1, name="out")], name="mp")
    optimizer = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(1e-3))
    rng = np.random.default_rng(19)
    x = tf.constant(rng.normal(size=(64, 8)).astype("float32"))
    y = tf.constant(rng.normal(size=(64, 1)).astype("float32"))

    @tf.function
    def step(features, labels):
        with tf.GradientTape() as tape:
            pred = tf.cast(model(features, training=True), tf.float32)
            loss = 1e-8 * tf.reduce_mean(tf.square(pred - labels))
            {scale}
        grads = tape.gradient(target, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return grads

    g = step(x, y)
finally:
    keras.mixed_precision.set_global_policy("float32")
"""


@MODES
def test_unscaled_float16_gradients_at_the_gradient_call(tmp_path: Path, eager: bool) -> None:
    report, path = check(tmp_path, MIXED.format(scale="target = loss"), eager)
    assert found(report) == {("TM503", line(path, "grads = tape.gradient"), True)}
    assert set(report.findings[0].variables) == {"mp/h/kernel", "mp/h/bias", "mp/out/kernel",
                                                 "mp/out/bias"}


@MODES
def test_scaled_float16_gradients_are_silent(tmp_path: Path, eager: bool) -> None:
    report, _ = check(tmp_path, MIXED.format(scale="target = optimizer.scale_loss(loss)"), eager)
    assert loud(report) == []
    assert {s.verdict for c in report.gradient_calls for s in c.sources} == {"connected"}


# -- 8. zeros by design: a Dense bias right before BatchNormalization -------------------------

BATCHNORM = """
model = tf.keras.Sequential([tf.keras.layers.Input((6,)), tf.keras.layers.Dense(8, name="d"),
                             tf.keras.layers.BatchNormalization(name="bn"),
                             tf.keras.layers.ReLU(), tf.keras.layers.Dense(1, name="out")])
rng = np.random.default_rng(2)
x = tf.constant(rng.normal(size=(32, 6)).astype("float32"))
y = tf.constant(rng.normal(size=(32, 1)).astype("float32"))

@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(a, training=True) - b))
    return tape.gradient(loss, model.trainable_variables)

g = step(x, y)
"""


@MODES
def test_bias_cancelled_by_batchnorm_is_never_a_warning(tmp_path: Path, eager: bool) -> None:
    # BatchNormalization subtracts the batch mean, so the bias before it gets a zero (or
    # round-off) gradient by design: correct code in many models
    report, _ = check(tmp_path, BATCHNORM, eager)
    assert loud(report) == []


# -- 6. a Python 0.0 attribute read at trace time, frozen into the graph ----------------------

FROZEN = """
inputs = tf.keras.Input((6,))
hidden = tf.keras.layers.Dense(8, activation="tanh", name="enc")(inputs)
mu = tf.keras.layers.Dense(3, name="mu")(hidden)
log_var = tf.keras.layers.Dense(3, name="log_var")(hidden)
model = tf.keras.Model(inputs, [tf.keras.layers.Dense(6, name="dec")(mu), mu, log_var])
x = tf.constant(np.random.default_rng(34).random((32, 6)).astype("float32"))

class Trainer:
    def __init__(self):
        self.beta = {beta}

    @tf.function
    def step(self, batch):
        with tf.GradientTape() as tape:
            out, m, lv = model(batch, training=True)
            rec = tf.reduce_mean(tf.square(out - batch))
            kl = -0.5 * tf.reduce_mean(1.0 + lv - tf.square(m) - tf.exp(lv))
            loss = rec + self.beta * kl
        return tape.gradient(loss, model.trainable_variables)

trainer = Trainer()
for epoch in range(2):
    {ramp}
    g = trainer.step(x)
"""


def test_python_zero_frozen_into_the_graph(tmp_path: Path) -> None:
    report, path = check(tmp_path, FROZEN.format(beta="0.0", ramp="trainer.beta = epoch / 4"),
                         eager=False)
    assert found(report) == {("TM504", line(path, "loss = rec + self.beta * kl"), True)}
    assert set(report.findings[0].variables) == {"log_var/kernel", "log_var/bias"}


APPLIED = FROZEN.replace(
    "        return tape.gradient(loss, model.trainable_variables)",
    "        grads = tape.gradient(loss, model.trainable_variables)\n"
    "        opt.apply_gradients(zip(grads, model.trainable_variables))\n"
    "        return loss").replace("trainer = Trainer()", "opt = tf.keras.optimizers.SGD(0.1)\n"
                                  "trainer = Trainer()")


def test_python_zero_frozen_with_gradients_applied_in_the_step(tmp_path: Path) -> None:
    # the step applies its gradients: the step's probe shows their zeros, every path of the
    # log-variance head crosses the traced 0.0, and the loop sets the factor again
    report, path = check(tmp_path, APPLIED.format(beta="0.0", ramp="trainer.beta = epoch / 4"),
                         eager=False)
    assert found(report) == {("TM504", line(path, "loss = rec + self.beta * kl"), True)}
    assert report.headline.startswith("2 of 8 weights get an all-zero gradient")


@pytest.mark.parametrize("beta, ramp, term", [
    ("0.0", "pass", "self.beta * kl"),  # a weight set once to 0.0: the user's choice
    ("1.0", "trainer.beta = epoch / 4", "0.0 * kl"),  # a literal 0.0: meant
])
@pytest.mark.parametrize("applied", [True, False], ids=["applied", "returned"])
def test_a_zero_factor_never_set_again_is_silent(tmp_path: Path, beta: str, ramp: str,
                                                 term: str, applied: bool) -> None:
    # whether the step applies its gradients (seen by its probe) or returns them: a number
    # the code never changes, or a literal, is the user's choice
    # -0.25, not -0.5: a step whose code equals an earlier test's is converted once by
    # autograph (code objects compare equal whatever their file), and its source map then
    # names the earlier test's file
    program = APPLIED if applied else FROZEN
    report, _ = check(tmp_path, program.format(beta=beta, ramp=ramp).replace(
        "self.beta * kl", term).replace("kl = -0.5", "kl = -0.25"), eager=False)
    assert loud(report) == []


@MODES
def test_a_variable_loss_weight_is_silent(tmp_path: Path, eager: bool) -> None:
    report, _ = check(tmp_path, FROZEN.format(
        beta="tf.Variable(0.0, trainable=False)", ramp="trainer.beta.assign((epoch + 1) / 4)"),
        eager)
    assert loud(report) == []


@MODES
def test_a_zero_term_beside_a_live_path_is_silent(tmp_path: Path, eager: bool) -> None:
    # `0.0 * penalty` on weights the reconstruction also trains: nothing is zeroed
    report, _ = check(tmp_path, FROZEN.format(beta="1.0", ramp="pass").replace(
        "loss = rec + self.beta * kl", "loss = rec + self.beta * kl + 0.0 * tf.reduce_sum(m)"),
        eager)
    assert loud(report) == []


@MODES
def test_watched_integer_values_stay_at_the_line_that_made_them(tmp_path: Path,
                                                                 eager: bool) -> None:
    # integers used as values (not indices): making them float where they are made is the fix
    report, path = check(tmp_path, """
        @tf.function
        def f():
            x = tf.range(3)
            with tf.GradientTape() as g:
                g.watch(x)
                y = tf.reduce_sum(x * x)
            return g.gradient(y, x)

        grad = f()
        """, eager)
    assert found(report) == {("TM202", line(path, "x = tf.range(3)"), True)}
