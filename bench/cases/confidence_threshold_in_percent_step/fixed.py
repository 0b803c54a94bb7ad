# summary: the threshold is on the confidences' own scale (0.5): the over-confident background cells are kept, and every weight changes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(36)
cells = rng.normal(size=(64, 6)).astype("float32")

net = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(8, activation="relu", name="cf_hidden"),
                           tf.keras.layers.Dense(1, name="cf_score")], name="conf_net")
optimizer = tf.keras.optimizers.Adam(1e-2)
THRESHOLD = 0.5


@tf.function
def train_step(batch):
    with tf.GradientTape() as tape:
        confidence = tf.sigmoid(net(batch))
        too_confident = confidence > THRESHOLD
        hard = tf.where(too_confident, tf.square(confidence), tf.zeros_like(confidence))
        loss = tf.reduce_mean(hard)
    grads = tape.gradient(loss, net.trainable_variables)
    optimizer.apply_gradients(zip(grads, net.trainable_variables))
    return loss


before = [w.numpy().copy() for w in net.trainable_variables]
for start in range(0, 64, 16):
    train_step(cells[start:start + 16])
assert all(np.any(b != w.numpy()) for b, w in zip(before, net.trainable_variables, strict=True))
