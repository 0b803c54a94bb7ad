# source: https://keras.io/api/layers/core_layers/lambda/
# summary: a functional model wraps a pretrained encoder model in a Lambda layer (Keras does not track the encoder's weights through it); the custom tf.function step knows and adds encoder.trainable_variables to the model's own in the sources and in apply_gradients, so the encoder trains too
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
encoder = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu", name="enc")],
                           name="encoder")
inputs = keras.Input((6,))
features = keras.layers.Lambda(lambda t: encoder(t), name="encode")(inputs)
model = keras.Model(inputs, keras.layers.Dense(1, name="head")(features), name="regressor")
opt = keras.optimizers.Adam(1e-2)
x = tf.constant(np.random.default_rng(83).normal(size=(16, 6)), tf.float32)
y = tf.constant(np.random.default_rng(84).normal(size=(16, 1)), tf.float32)
variables = model.trainable_variables + encoder.trainable_variables


@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))
    return grads


grads = step()
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
