# source: https://github.com/tensorflow/tensorflow/issues/18007
# cause: non-differentiable-op|python-control-flow
# weights: exit_gate/kernel, exit_gate/bias
# mode: function
# summary: an early-exit classifier lets a learned gate decide, with tf.cond(confidence > 0.5, ...), whether the batch leaves through a cheap exit head or runs the deep block; the gate reaches the loss only through the predicate, which has no gradient, so the gate gets None (and the exit head, whose branch the untrained gate never picks, only zeros) while the trunk and deep path train
# lint: yes
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
        confidence = tf.reduce_mean(exit_gate(h))
        logits = tf.cond(confidence > 0.5,  # expect: non-differentiable-op|python-control-flow primary
                         lambda: exit_head(h), lambda: deep_head(deep_block(h)))
        loss = xent(labels, logits)
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(x, y)
print("grads are None:", [g is None for g in grads])
