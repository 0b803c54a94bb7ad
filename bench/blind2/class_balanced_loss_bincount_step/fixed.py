# summary: the per-class sums use tf.math.unsorted_segment_sum, which has a gradient, so the class-balanced loss trains every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(44535)
x = rng.normal(size=(96, 5)).astype("float32")
labels = np.where(x[:, 0] > 1.0, 2, np.where(x[:, 1] > 0, 1, 0)).astype("int32")
model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(12, activation="relu", name="t_hidden"),
                             tf.keras.layers.Dense(3, name="t_logits")], name="tagger")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, y):
    with tf.GradientTape() as tape:
        per_sample = tf.nn.sparse_softmax_cross_entropy_with_logits(y, model(features, training=True))
        class_sums = tf.math.unsorted_segment_sum(per_sample, y, num_segments=3)
        class_sizes = tf.cast(tf.math.bincount(y, minlength=3), tf.float32)
        loss = tf.reduce_mean(class_sums / tf.maximum(class_sizes, 1.0))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step(x, labels)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
