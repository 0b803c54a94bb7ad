"""The headline counts sources by what they are: a watched tensor is no weight.

A new user's WGAN-GP step reads "1 of 9 weights" where the ninth source was the interpolated
images the gradient penalty differentiates with respect to; the headline then says "sources".
"""

from __future__ import annotations

from checked import run_program

PENALTY = """\
import tensorflow as tf
critic = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, activation="relu"),
                              tf.keras.layers.Dense(1)])
real, fake = tf.random.normal((8, 4), seed=1), tf.random.normal((8, 4), seed=2)
mixed = 0.5 * real + 0.5 * fake
with tf.GradientTape() as tape:
    tape.watch(mixed)
    score = critic(mixed)
grads = tape.gradient(score, [mixed] + critic.trainable_variables)
"""


def test_a_watched_tensor_among_the_sources_makes_them_sources() -> None:
    report = run_program(None, PENALTY).report
    assert report.headline == "All 5 sources get a gradient", report.headline


def test_weights_alone_are_still_weights() -> None:
    report = run_program(None, PENALTY.replace("[mixed] + ", "")).report
    assert report.headline == "All 4 weights get a gradient", report.headline
