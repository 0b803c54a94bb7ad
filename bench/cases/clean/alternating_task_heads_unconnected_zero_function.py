# summary: round-robin multi-task training: a Python int picks which task head's loss a step computes (one tf.function trace per task), the gradient of the shared trunk and all heads asked (through the Keras variables' backing tf.Variables, `w.value`, as Keras 3 needs for this mode) with unconnected_gradients=ZERO so the idle head gets zeros on purpose
# source: https://www.tensorflow.org/api_docs/python/tf/UnconnectedGradients
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(50)
rng = np.random.default_rng(50)
x = rng.normal(size=(16, 6)).astype("float32")
ys = [rng.normal(size=(16, 1)).astype("float32"), rng.normal(size=(16, 1)).astype("float32")]
trunk = layers.Dense(8, activation="relu", name="trunk")
heads = [layers.Dense(1, name="head_a"), layers.Dense(1, name="head_b")]
trunk.build((None, 6))
for h in heads:
    h.build((None, 8))
weights = trunk.trainable_weights + heads[0].trainable_weights + heads[1].trainable_weights
opt = keras.optimizers.SGD(0.05)


@tf.function
def step(task, xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(heads[task](trunk(xb)) - yb))
    grads = tape.gradient(loss, [w.value for w in weights],
                          unconnected_gradients=tf.UnconnectedGradients.ZERO)
    opt.apply_gradients(zip(grads, weights))
    return grads


seen = [tf.zeros_like(w) for w in weights]
for it in range(4):
    task = it % 2
    grads = step(task, x, ys[task])
    seen = [s + tf.abs(g) for s, g in zip(seen, grads)]
assert all(float(tf.reduce_sum(s)) > 0 for s in seen)
