# summary: a classifier trained with a loss object made with an explicit zero setting, keras.losses.CategoricalCrossentropy(label_smoothing=0.0): the zero scales the smoothing term of the targets, never the predictions' path, so every weight trains; traced step
# source: https://keras.io/api/losses/probabilistic_losses/#categoricalcrossentropy-class
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(6)
rng = np.random.default_rng(6)
x = rng.normal(size=(32, 6)).astype("float32")
y = np.eye(3, dtype="float32")[rng.integers(0, 3, size=32)]
model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"),
                          keras.layers.Dense(3, activation="softmax")])
xent = keras.losses.CategoricalCrossentropy(label_smoothing=0.0)
huber = keras.losses.Huber(delta=1.0)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        probs = model(features, training=True)
        loss = xent(targets, probs) + 0.1 * huber(targets, probs)
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, y)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
