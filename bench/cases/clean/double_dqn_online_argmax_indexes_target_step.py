# summary: Double DQN: the next action is tf.argmax of the online network (the weights being trained) and indexes the target network's values with tf.gather(batch_dims=1), all computed inside the tape; the target is stop_gradient, a @tf.function step
# source: https://arxiv.org/abs/1509.06461
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(67)
rng = np.random.default_rng(67)


def q_net(name):
    return keras.Sequential([keras.Input((5,)), layers.Dense(16, activation="relu"), layers.Dense(3)], name=name)


online, target = q_net("online"), q_net("target")
target.set_weights(online.get_weights())
opt = keras.optimizers.Adam(1e-3)


@tf.function
def step(s, a, r, s2, done):
    with tf.GradientTape() as tape:
        next_a = tf.argmax(online(s2), axis=1, output_type=tf.int32)
        next_q = tf.gather(target(s2), next_a, batch_dims=1)
        y = tf.stop_gradient(r + 0.99 * (1.0 - done) * next_q)
        q = tf.gather(online(s), a, batch_dims=1)
        loss = tf.reduce_mean(tf.square(y - q))
    grads = tape.gradient(loss, online.trainable_weights)
    opt.apply_gradients(zip(grads, online.trainable_weights))
    return grads


grads = step(rng.normal(size=(8, 5)).astype("float32"), rng.integers(0, 3, size=(8,)).astype("int32"),
             rng.normal(size=(8,)).astype("float32"), rng.normal(size=(8, 5)).astype("float32"),
             np.zeros(8, "float32"))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
