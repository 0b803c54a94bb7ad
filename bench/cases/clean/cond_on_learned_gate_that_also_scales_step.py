# summary: a learned gate both chooses, with tf.cond, whether the residual block's output is damped and scales that output inside each branch; the gate's value reaches the loss through the branches, so it trains beside the block (a condition on a learned value is fine when the value is also used)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(18)
features = rng.normal(size=(24, 5)).astype("float32")
targets = rng.normal(size=(24, 5)).astype("float32")

gate = tf.keras.layers.Dense(1, activation="sigmoid", name="skip_gate")
block = tf.keras.layers.Dense(5, activation="tanh", name="res_block")
for layer in (gate, block):
    layer.build((None, 5))
weights = gate.trainable_variables + block.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(batch, target):
    with tf.GradientTape() as tape:
        strength = tf.reduce_mean(gate(batch))
        update = tf.cond(strength > 0.5,
                         lambda: strength * block(batch),
                         lambda: 0.5 * strength * block(batch))
        loss = tf.reduce_mean(tf.square(batch + update - target))
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return grads


grads = train_step(features, targets)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
