# summary: a differentiable Pearson correlation of the scores replaces the rank correlation
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(9)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x @ np.array([1.0, -2.0, 0.5, 0.0], dtype="float32"))[:, None]
model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, name="score")], name="ranker")


def correlation_loss(y_true, y_pred):
    a = y_true[:, 0] - tf.reduce_mean(y_true[:, 0])
    b = y_pred[:, 0] - tf.reduce_mean(y_pred[:, 0])
    return 1.0 - tf.reduce_sum(a * b) / (tf.norm(a) * tf.norm(b) + 1e-6)


model.compile(optimizer="adam", loss=correlation_loss)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
