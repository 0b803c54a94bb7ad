# summary: the forward pass runs under tf.GradientTape and the gradient comes from tape.gradient, the eager replacement for tf.gradients, so every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(44813)
images = rng.uniform(size=(8, 6, 6, 3)).astype("float32")
targets = rng.uniform(size=(8, 1)).astype("float32")

model = keras.Sequential([keras.Input((6, 6, 3)),
                          keras.layers.Conv2D(4, 3, activation="relu", name="style_conv"),
                          keras.layers.GlobalAveragePooling2D(),
                          keras.layers.Dense(1, name="style_out")], name="style_net")
optimizer = keras.optimizers.SGD(0.05)

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(images, training=True) - targets))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
