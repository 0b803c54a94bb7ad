# source: https://github.com/tensorflow/tensorflow/issues/30190
# cause: host-round-trip
# rule: TM301
# weights: iris/h/kernel, iris/h/bias, iris/out/kernel, iris/out/bias
# mode: eager
# summary: per-sample losses are collected with float(...) and their spread computed in NumPy
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(15)
features = rng.normal(size=(12, 4)).astype("float32")
labels = rng.integers(0, 3, size=12)
model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(10, activation="relu", name="h"),
                             tf.keras.layers.Dense(3, name="out")], name="iris")
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def spread_loss(x, y):
    logits = model(x)
    losses = []
    for i in range(y.shape[0]):
        one = loss_object(y[i:i + 1], logits[i:i + 1])
        losses.append(float(one))  # expect: host-round-trip primary
    spread = np.std(losses) + np.mean(losses)  # accept: host-round-trip
    return tf.convert_to_tensor(spread, dtype=tf.float32)


with tf.GradientTape() as tape:
    loss_value = spread_loss(features, labels)
grads = tape.gradient(loss_value, model.trainable_variables)
print(float(loss_value), grads)
