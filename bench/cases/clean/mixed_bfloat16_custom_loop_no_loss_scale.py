# summary: mixed_bfloat16 policy (float32 variables, bfloat16 compute) in a custom @tf.function loop without loss scaling (bfloat16 has float32's exponent range), a mean over many outputs gives small gradients, a float32 output layer
# source: https://www.tensorflow.org/guide/mixed_precision
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(60)
keras.mixed_precision.set_global_policy("mixed_bfloat16")
try:
    x = np.random.default_rng(60).uniform(size=(32, 256)).astype("float32")
    model = keras.Sequential([keras.Input((256,)), layers.Dense(32, activation="relu", name="enc"),
                              layers.Dense(256, name="dec"),
                              layers.Activation("sigmoid", dtype="float32", name="probs")])
    opt = keras.optimizers.Adam(1e-3)

    @tf.function
    def step(xb):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(keras.losses.binary_crossentropy(xb, model(xb, training=True))) * 1e-3
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return grads

    grads = step(x)
    assert all(g is not None and float(tf.norm(tf.cast(g, tf.float32))) > 0 for g in grads)
finally:
    keras.mixed_precision.set_global_policy("float32")
