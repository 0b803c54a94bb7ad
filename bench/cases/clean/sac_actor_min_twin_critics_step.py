# summary: soft actor-critic: twin critics trained on a stop_gradient target that takes tf.minimum of two target critics; the actor's loss reads tf.minimum of the two online critics with only the actor's weights as sources, a @tf.function step
# source: https://spinningup.openai.com/en/latest/algorithms/sac.html
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(37)
rng = np.random.default_rng(37)


def critic(name):
    return keras.Sequential([keras.Input((5,)), layers.Dense(16, activation="relu"),
                             layers.Dense(1)], name=name)


actor = keras.Sequential([keras.Input((3,)), layers.Dense(16, activation="relu"),
                          layers.Dense(2, activation="tanh")], name="actor")
q1, q2, q1_t, q2_t = critic("q1"), critic("q2"), critic("q1_target"), critic("q2_target")
q1_t.set_weights(q1.get_weights())
q2_t.set_weights(q2.get_weights())
a_opt, c_opt = keras.optimizers.Adam(3e-4), keras.optimizers.Adam(3e-4)
alpha, gamma, tau = 0.2, 0.99, 0.005


@tf.function
def step(s, a, r, s2):
    a2 = actor(s2) + 0.1 * tf.random.normal(tf.shape(a))
    sa2 = tf.concat([s2, a2], axis=1)
    target = tf.stop_gradient(r + gamma * tf.minimum(q1_t(sa2), q2_t(sa2)))
    critic_w = q1.trainable_weights + q2.trainable_weights
    with tf.GradientTape() as tape:
        sa = tf.concat([s, a], axis=1)
        c_loss = tf.reduce_mean(tf.square(q1(sa) - target)) + tf.reduce_mean(tf.square(q2(sa) - target))
    cg = tape.gradient(c_loss, critic_w)
    c_opt.apply_gradients(zip(cg, critic_w))
    with tf.GradientTape() as tape:
        pi = actor(s)
        spi = tf.concat([s, pi], axis=1)
        a_loss = tf.reduce_mean(alpha * tf.reduce_sum(tf.square(pi), axis=1, keepdims=True)
                                - tf.minimum(q1(spi), q2(spi)))
    ag = tape.gradient(a_loss, actor.trainable_weights)
    a_opt.apply_gradients(zip(ag, actor.trainable_weights))
    for t, o in zip(q1_t.weights + q2_t.weights, q1.weights + q2.weights):
        t.assign(tau * o + (1 - tau) * t)
    return cg, ag


s = rng.normal(size=(16, 3)).astype("float32")
a = rng.uniform(-1, 1, size=(16, 2)).astype("float32")
r = rng.normal(size=(16, 1)).astype("float32")
s2 = rng.normal(size=(16, 3)).astype("float32")
cg, ag = step(s, a, r, s2)
assert all(g is not None and float(tf.norm(g)) > 0 for g in list(cg) + list(ag))
