# source: https://arxiv.org/abs/1604.03540
# summary: online hard example mining: per-example losses, the hardest k picked by tf.math.top_k(...).indices and the losses themselves gathered at those indices (the gradient flows through the gathered losses), in a tf.function step
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(3)], name="clf")
opt = keras.optimizers.Adam(1e-3)
x = tf.constant(np.random.default_rng(68).normal(size=(32, 6)), tf.float32)
y = tf.constant(np.random.default_rng(69).integers(0, 3, 32))


@tf.function
def step():
    with tf.GradientTape() as tape:
        per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(y, model(x))
        hard = tf.math.top_k(per_example, k=8).indices
        loss = tf.reduce_mean(tf.gather(per_example, hard))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = step()
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
