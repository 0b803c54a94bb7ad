# source: https://github.com/tensorflow/tensorflow/issues/9001
# summary: a stochastic-depth residual block is applied through tf.cond on a random survival draw inside a tf.function step; on a skipped step the block gets a zero gradient by design, and over the steps of the run every weight is updated
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(9001)
x = rng.normal(size=(32, 6)).astype("float32")
y = np.tanh(x[:, :1] + x[:, 1:2]).astype("float32")

stem = tf.keras.layers.Dense(6, activation="tanh", name="stem")
block = tf.keras.layers.Dense(6, activation="tanh", name="res_block")
head = tf.keras.layers.Dense(1, name="head")
for layer, width in ((stem, 6), (block, 6), (head, 6)):
    layer.build((None, width))
sources = stem.trainable_variables + block.trainable_variables + head.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-2)
survival = tf.random.Generator.from_seed(9001)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        h = stem(features)
        keep = survival.uniform([]) < 0.5
        h = tf.cond(keep, lambda: h + block(h), lambda: h)
        loss = tf.reduce_mean(tf.square(head(h) - targets))
    grads = tape.gradient(loss, sources, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    optimizer.apply_gradients(zip(grads, sources))
    return keep


before = [v.numpy().copy() for v in sources]
kept = [bool(train_step(x, y)) for _ in range(8)]
assert any(kept)
assert len(sources) == 6
assert all(np.any(b != v.numpy()) for b, v in zip(before, sources, strict=True))
