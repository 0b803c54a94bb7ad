# source: https://github.com/tensorflow/tensorflow/issues/44535
# cause: non-differentiable-op
# weights: tagger/t_hidden/kernel, tagger/t_hidden/bias, tagger/t_logits/kernel, tagger/t_logits/bias
# mode: function
# summary: a class-balanced loss sums the per-sample losses of each class with tf.math.bincount(labels, weights=losses); the DenseBincount op has no registered gradient, so the gradient call raises LookupError
# lint: yes
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
        class_sums = tf.math.bincount(y, weights=per_sample, minlength=3)  # expect: non-differentiable-op primary
        class_sizes = tf.cast(tf.math.bincount(y, minlength=3), tf.float32)
        loss = tf.reduce_mean(class_sums / tf.maximum(class_sizes, 1.0))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print("loss", float(train_step(x, labels)))
