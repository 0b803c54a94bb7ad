"""The line to change where a source is cut off the loss (issue 17, 3.).

Each program is written to a real file (autograph reads the source of what it converts) and
run through ``tapemagic.gradcheck`` in graph mode as written and forced eager: the broken one
gets its finding on the line the user must change, the correct one of the same shape gets no
warning or error finding (helpers in tests/line_checks.py).

Kinds: a Grad-CAM second forward pass, watched token ids, a persistent tape's inner gradient
after its block, sources from another model built by the same factory.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.line_checks import MODES, check, found, line, loud

pytestmark = pytest.mark.tf


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
