# summary: during training the exit gate mixes the two heads (g * exit + (1 - g) * deep), so the gate, both heads and the deep block are all on the loss path; the hard tf.cond exit is kept for inference only
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(18007)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.integers(0, 3, size=(32,))

trunk = tf.keras.layers.Dense(8, activation="relu", name="trunk")
exit_gate = tf.keras.layers.Dense(1, activation="sigmoid", name="exit_gate",
                                  bias_initializer=tf.keras.initializers.Constant(-2.0))
exit_head = tf.keras.layers.Dense(3, name="exit_head")
deep_block = tf.keras.layers.Dense(8, activation="relu", name="deep_block")
deep_head = tf.keras.layers.Dense(3, name="deep_head")
for layer, width in [(trunk, 6), (exit_gate, 8), (exit_head, 8), (deep_block, 8), (deep_head, 8)]:
    layer.build((None, width))
layers = [trunk, exit_gate, exit_head, deep_block, deep_head]
sources = [v for layer in layers for v in layer.trainable_variables]
optimizer = tf.keras.optimizers.Adam(1e-2)
xent = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        h = trunk(features)
        gate = exit_gate(h)
        logits = gate * exit_head(h) + (1.0 - gate) * deep_head(deep_block(h))
        loss = xent(labels, logits)
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(x, y)
assert len(grads) == 10
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
