# summary: a DQN-style update evaluates the target network in a ThreadPoolExecutor inside the online network's tape (the target is meant to carry no gradient); the online network's forward pass and loss run on the tape's thread, so every online weight gets a gradient, eager
# source: https://docs.python.org/3/library/concurrent.futures.html
from concurrent.futures import ThreadPoolExecutor

import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(5)
states = rng.normal(size=(32, 6)).astype("float32")
rewards = rng.normal(size=(32, 1)).astype("float32")


def q_network(name):
    return keras.Sequential([keras.Input((6,)), keras.layers.Dense(16, activation="relu"),
                             keras.layers.Dense(1)], name=name)


online, target = q_network("online"), q_network("target")
target.set_weights(online.get_weights())

with ThreadPoolExecutor(max_workers=1) as pool:
    with tf.GradientTape() as tape:
        bootstrap = pool.submit(target, states).result()
        wanted = rewards + 0.9 * bootstrap
        loss = tf.reduce_mean(tf.square(online(states) - wanted))
    grads = tape.gradient(loss, online.trainable_variables)

assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
