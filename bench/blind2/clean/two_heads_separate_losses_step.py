# source: https://github.com/tensorflow/tensorflow/issues/35068
# summary: a two-output network takes one gradient per head's loss with a persistent tape; each loss gives None for the other head by design, the step sums the per-loss gradients with the None parts skipped, and every weight gets a real gradient from at least one loss
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(35068)
x = rng.normal(size=(64, 5)).astype("float32")
y_reg = x[:, :1] * 2.0
y_cls = (x[:, 1] > 0).astype("float32")[:, None]
inputs = tf.keras.Input((5,))
shared = tf.keras.layers.Dense(12, activation="relu", name="shared")(inputs)
reg = tf.keras.layers.Dense(1, name="reg_head")(shared)
cls = tf.keras.layers.Dense(1, name="cls_head")(shared)
model = tf.keras.Model(inputs, [reg, cls], name="two_heads")
optimizer = tf.keras.optimizers.Adam(1e-2)
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)


@tf.function
def train_step(features, targets_reg, targets_cls):
    with tf.GradientTape(persistent=True) as tape:
        pred_reg, pred_cls = model(features, training=True)
        losses = [tf.reduce_mean(tf.square(pred_reg - targets_reg)), bce(targets_cls, pred_cls)]
    per_loss = [tape.gradient(loss, model.trainable_variables) for loss in losses]
    del tape
    total = []
    for parts in zip(*per_loss):
        present = [g for g in parts if g is not None]
        total.append(tf.add_n(present))
    optimizer.apply_gradients(zip(total, model.trainable_variables))
    return total


grads = train_step(x, y_reg, y_cls)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
