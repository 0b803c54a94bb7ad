# summary: the L1 loss the PyTorch code meant is written as keras.losses.MeanAbsoluteError(), so the TD loss depends on the Q values and every weight gets a gradient
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
td_loss = keras.losses.MeanAbsoluteError()


@tf.function
def train_step(obs, taken, td_target):
    with tf.GradientTape() as tape:
        q_taken = tf.reduce_sum(q_net(obs, training=True) * tf.one_hot(taken, 2), axis=-1)
        loss = td_loss(td_target[:, None], q_taken[:, None])
    return tape.gradient(loss, q_net.trainable_variables)


grads = train_step(states, actions, targets)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
