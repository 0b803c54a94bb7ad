# summary: a first loop differentiates every weight but applies only the new head (warm-up); a second loop fine-tunes them all
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(10)
x = rng.normal(size=(48, 6)).astype("float32")
y = np.tanh(x[:, :1] * x[:, 1:2]).astype("float32")

body = keras.Sequential([keras.Input((6,)), keras.layers.Dense(10, "relu", name="body")],
                        name="pretrained")
head = keras.layers.Dense(1, name="new_head")
inputs = keras.Input((6,))
model = keras.Model(inputs, head(body(inputs)))
n_body = len(body.trainable_variables)
warmup, fine_tune = keras.optimizers.Adam(1e-2), keras.optimizers.Adam(1e-3)
start = [v.numpy().copy() for v in model.trainable_variables]

for step in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    warmup.apply_gradients(zip(grads[n_body:], model.trainable_variables[n_body:]))

for step in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    fine_tune.apply_gradients(zip(grads, model.trainable_variables))
assert all(not np.allclose(s, v.numpy()) for s, v in zip(start, model.trainable_variables))
