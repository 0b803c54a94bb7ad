# summary: TD3: actor, twin critics and their target copies all made by one factory; the target copies are read outside the tapes and updated by Polyak assign
import numpy as np
import tensorflow as tf
from tensorflow import keras

tf.keras.utils.set_random_seed(0)


def mlp(out, name, act=None):
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"),
                             keras.layers.Dense(out, activation=act)], name=name)


actor, actor_t = mlp(1, "actor", "tanh"), mlp(1, "actor_t", "tanh")
c1, c2 = keras.Sequential([keras.Input((5,)), keras.layers.Dense(1)], name="c1"), \
    keras.Sequential([keras.Input((5,)), keras.layers.Dense(1)], name="c2")
c1_t, c2_t = keras.models.clone_model(c1), keras.models.clone_model(c2)
a_opt, c_opt = keras.optimizers.Adam(1e-3), keras.optimizers.Adam(1e-3)


@tf.function
def learn(s, a, r, s2):
    a2 = tf.clip_by_value(actor_t(s2) + 0.1, -1.0, 1.0)
    sa2 = tf.concat([s2, a2], 1)
    y = tf.stop_gradient(r + 0.99 * tf.minimum(c1_t(sa2), c2_t(sa2)))
    with tf.GradientTape() as tape:
        sa = tf.concat([s, a], 1)
        loss_c = tf.reduce_mean((c1(sa) - y) ** 2) + tf.reduce_mean((c2(sa) - y) ** 2)
    variables = c1.trainable_variables + c2.trainable_variables
    c_grads = tape.gradient(loss_c, variables)
    c_opt.apply_gradients(zip(c_grads, variables))
    with tf.GradientTape() as tape:
        loss_a = -tf.reduce_mean(c1(tf.concat([s, actor(s)], 1)))
    a_grads = tape.gradient(loss_a, actor.trainable_variables)
    a_opt.apply_gradients(zip(a_grads, actor.trainable_variables))
    for target, online in ((actor_t, actor), (c1_t, c1), (c2_t, c2)):
        for tv, v in zip(target.variables, online.variables):
            tv.assign(0.995 * tv + 0.005 * v)
    return c_grads + a_grads


rng = np.random.default_rng(1716)
s = tf.constant(rng.normal(size=(8, 4)).astype("float32"))
a = tf.constant(rng.uniform(-1, 1, size=(8, 1)).astype("float32"))
r = tf.constant(rng.normal(size=(8, 1)).astype("float32"))
grads = learn(s, a, r, s)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
