# summary: self-paced learning: per-example losses, a 0/1 selection of the easy ones by comparing the stopped losses with a threshold raised every step (hard examples weighted 0 on purpose), the selected mean as the loss, a tf.function step
# source: https://www.tensorflow.org/guide/core/logistic_regression_core
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(38)
rng = np.random.default_rng(38)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x[:, :1] > 0).astype("float32")
y[:8] = 1.0 - y[:8]
model = keras.Sequential([keras.Input((4,)), layers.Dense(8, activation="relu", name="h"),
                          layers.Dense(1, name="logit")], name="self_paced")
optimizer = keras.optimizers.Adam(1e-2)
threshold = tf.Variable(0.7, trainable=False, name="spl_threshold")


@tf.function
def train_step(a, b):
    with tf.GradientTape() as tape:
        per_example = tf.nn.sigmoid_cross_entropy_with_logits(labels=b, logits=model(a, training=True))[:, 0]
        selected = tf.cast(tf.stop_gradient(per_example) < threshold, per_example.dtype)
        loss = tf.reduce_sum(per_example * selected) / tf.maximum(tf.reduce_sum(selected), 1.0)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    threshold.assign(threshold * 1.1)
    return loss


before = [w.numpy().copy() for w in model.trainable_variables]
for _ in range(3):
    train_step(x, y)
assert all(not np.allclose(b_, w.numpy()) for b_, w in zip(before, model.trainable_variables))
