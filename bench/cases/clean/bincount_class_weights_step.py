# source: https://github.com/apache/tvm/pull/12751
# summary: class-balancing weights come from tf.math.bincount of the integer labels alone (no weights argument): the counts are data, the per-sample losses they scale stay differentiable
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(12751)
x = rng.normal(size=(96, 5)).astype("float32")
labels = np.where(x[:, 0] > 0.8, 2, np.where(x[:, 1] > 0, 1, 0)).astype("int32")
model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(10, activation="relu", name="b_hidden"),
                             tf.keras.layers.Dense(3, name="b_logits")], name="balanced")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, y):
    with tf.GradientTape() as tape:
        per_sample = tf.nn.sparse_softmax_cross_entropy_with_logits(y, model(features, training=True))
        counts = tf.cast(tf.math.bincount(y, minlength=3), tf.float32)
        inverse = tf.gather(tf.reduce_sum(counts) / (3.0 * tf.maximum(counts, 1.0)), y)
        loss = tf.reduce_mean(inverse * per_sample)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step(x, labels)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
