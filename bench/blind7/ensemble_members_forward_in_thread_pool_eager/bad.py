# source: https://github.com/tracel-ai/burn/issues/1142
# cause: outside-tape
# weights: member_a/a_hidden/kernel, member_a/a_hidden/bias, member_a/a_out/kernel, member_a/a_out/bias, member_b/b_hidden/kernel, member_b/b_hidden/bias, member_b/b_out/kernel, member_b/b_out/bias
# mode: eager
# summary: an ensemble's members are run in parallel with a ThreadPoolExecutor inside the GradientTape block; a tape records only the operations of its own thread, so the members' forward passes are not on it and every gradient is None
# lint: no (a thread pool is ordinary Python; the tape's thread-locality is invisible in the source)
from concurrent.futures import ThreadPoolExecutor

import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(1142)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")


def member(tag):
    return keras.Sequential([keras.Input((4,)),
                             keras.layers.Dense(8, activation="tanh", name=f"{tag}_hidden"),
                             keras.layers.Dense(1, name=f"{tag}_out")], name=f"member_{tag}")


members = [member("a"), member("b")]
params = [v for m in members for v in m.trainable_variables]

with tf.GradientTape() as tape:
    with ThreadPoolExecutor(max_workers=2) as pool:
        outputs = list(pool.map(lambda m: m(x, training=True), members))  # expect: outside-tape primary
    loss = tf.reduce_mean(tf.square(tf.add_n(outputs) / 2.0 - y))
grads = tape.gradient(loss, params)
print({v.path: None if g is None else float(tf.reduce_sum(tf.abs(g))) for v, g in zip(params, grads)})
