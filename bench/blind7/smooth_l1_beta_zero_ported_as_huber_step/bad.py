# source: https://machinecurve.com/index.php/2019/10/12/using-huber-loss-in-keras
# cause: zero-at-runtime
# weights: q_network/q_hidden/kernel, q_network/q_hidden/bias, q_network/q_values/kernel, q_network/q_values/bias
# mode: function
# summary: a DQN ported from PyTorch replaces smooth_l1_loss(beta=0) (which is the plain L1 loss there) with keras.losses.Huber(delta=0.0); Keras' Huber with delta 0 is identically 0 (0.5 * d^2 + d * (|x| - d) with d = 0), so the TD loss is 0 and every Q-network weight gets an exact zero gradient
# lint: no (delta is a value; Huber(delta=...) is valid code)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(19)
states = rng.normal(size=(32, 4)).astype("float32")
actions = rng.integers(0, 2, size=32).astype("int32")
targets = rng.normal(size=32).astype("float32")

q_net = keras.Sequential([keras.Input((4,)),
                          keras.layers.Dense(16, activation="relu", name="q_hidden"),
                          keras.layers.Dense(2, name="q_values")], name="q_network")
td_loss = keras.losses.Huber(delta=0.0)  # expect: zero-at-runtime primary


@tf.function
def train_step(obs, taken, td_target):
    with tf.GradientTape() as tape:
        q_taken = tf.reduce_sum(q_net(obs, training=True) * tf.one_hot(taken, 2), axis=-1)
        loss = td_loss(td_target[:, None], q_taken[:, None])
    return tape.gradient(loss, q_net.trainable_variables)


grads = train_step(states, actions, targets)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(q_net.trainable_variables, grads)})
