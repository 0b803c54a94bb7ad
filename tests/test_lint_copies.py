"""Static hints around weights the code copies off every tape (target networks, averages).

TF-free: sources are parsed, never run. ``set_weights`` and ``assign`` are writes no tape
records; made off every tape, they leave the variable its own value (what it was copied from
is no cut of any later loss), and they mark the written model as a copy nothing trains by
gradient. A loss that reads only such a copy, in a tape whose gradient asks for its twin,
reads it where the twin was meant (google-deepmind/dqn#8's kind: Q(s, a) taken from the target
network): that pass is the line to change. Correct look-alikes stay silent. Our code.
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

DQN = """
    def make_q(name):
        return keras.Sequential([keras.Input((3,)), keras.layers.Dense(8, activation="relu"),
                                 keras.layers.Dense(2)], name=name)
    online, target = make_q("online"), make_q("target")
    target.set_weights(online.get_weights())
    opt = keras.optimizers.Adam(1e-3)
    a = tf.zeros((8,), tf.int32)

    @tf.function
    def step(s, s2, r):
        y = r + 0.99 * tf.reduce_max({boot}(s2), axis=1)
        with tf.GradientTape() as tape:
            q = tf.gather({taken}(s), a, batch_dims=1)
            loss = tf.reduce_mean(tf.square(y - q))
        grads = tape.gradient(loss, online.trainable_variables)
        opt.apply_gradients(zip(grads, online.trainable_variables))
        {sync}

    step(x, x, y[:, 0])
    """

BAD = {
    # the target network read for Q(s, a) as well as for the bootstrap (google-deepmind/dqn#8)
    "Q(s, a) taken from the target network copy": (
        DQN.format(boot="target", taken="target", sync=""), [("TM104", 13)]),
    # the same with a Polyak update written by assign per variable after the step
    "Q(s, a) from a target network kept by soft assign": (DQN.format(
        boot="target", taken="target", sync="for t, o in zip(target.variables, "
        "online.variables):\n            t.assign(0.99 * t + 0.01 * o)"), [("TM104", 13)]),
}

# DDPG's kind (the gradient asks for the target copy): the actor updated by hand off the tape
# (`assign_sub` of its own gradient) is trained, no copy: the gradient call is the line
BAD["the target copy asked for, the actor updated by hand"] = ("""
    def make(name):
        return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)], name=name)

    actor, target_actor = make("actor"), make("target_actor")
    target_actor.set_weights(actor.get_weights())
    for _ in range(2):
        with tf.GradientTape() as tape:
            loss = -tf.reduce_mean(actor(x))
        grads = tape.gradient(loss, target_actor.trainable_variables)
        for v, g in zip(actor.trainable_variables, grads):
            v.assign_sub(0.1 * g)
    """, [("TM104", 9)])

CLEAN = {
    "DQN: Q(s, a) from the online network, the bootstrap from its copy":
        DQN.format(boot="target", taken="online", sync=""),
    "DQN with a soft update by assign after the step": DQN.format(
        boot="target", taken="online", sync="for t, o in zip(target.variables, "
        "online.variables):\n            t.assign(0.99 * t + 0.01 * o)"),
    "a student initialised from a teacher's weights, then trained": """
        teacher = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        student = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        student.set_weights(teacher.get_weights())
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(student(x) - y))
        grads = tape.gradient(loss, student.trainable_variables)
        """,
    "an average of the weights kept by assign, used to evaluate": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        shadow = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        opt = keras.optimizers.SGD(0.1)
        for _ in range(2):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            for s, w in zip(shadow.variables, model.variables):
                s.assign(0.9 * s + 0.1 * w.numpy())
        print(float(tf.reduce_mean(shadow(x))))
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_pass_of_the_copy_is_hinted(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_correct_look_alike_stays_silent(name: str) -> None:
    assert hints(CLEAN[name]) == []


PICKED = """
    model = keras.Sequential([keras.layers.Embedding(20, 8, name="e"),
                              keras.layers.Dense(3, name="d")])
    other = keras.Sequential([keras.layers.Dense(3, name="d")])
    embedding, head = model.get_layer("e"), {owner}.get_layer("d")
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(tf.zeros((2, 5), tf.int32)))
    grads = tape.gradient(loss, {sources})
    """


@pytest.mark.parametrize("sources", ["[embedding.embeddings] + head.trainable_variables",
                                     "head.trainable_variables", "[embedding.embeddings]"])
def test_a_layer_picked_by_name_from_the_model_the_loss_reads_gets_no_hint(sources: str) -> None:
    # get_layer's name is not resolved: the picked layer may be any reached part of the model
    assert hints(PICKED.format(owner="model", sources=sources)) == []


def test_a_layer_picked_from_a_model_nothing_reads_is_still_hinted() -> None:
    assert hints(PICKED.format(owner="other", sources="head.trainable_variables")) == [("TM104", 7)]
