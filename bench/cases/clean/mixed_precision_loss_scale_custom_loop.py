# summary: mixed_float16 policy, a float32 softmax output layer, a custom @tf.function loop with keras.optimizers.LossScaleOptimizer (scale_loss, then apply unscales)
# source: https://www.tensorflow.org/guide/mixed_precision
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(8)
keras.mixed_precision.set_global_policy("mixed_float16")
try:
    rng = np.random.default_rng(8)
    x = rng.normal(size=(32, 12)).astype("float32")
    y = rng.integers(0, 4, size=(32,))
    inp = keras.Input((12,))
    h = layers.Dense(32, activation="relu", name="h1")(inp)
    h = layers.Dense(4, name="logits")(h)
    out = layers.Activation("softmax", dtype="float32", name="probs")(h)
    model = keras.Model(inp, out)
    opt = keras.optimizers.LossScaleOptimizer(keras.optimizers.Adam(1e-3))
    loss_fn = keras.losses.SparseCategoricalCrossentropy()

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            probs = model(xb, training=True)
            loss = loss_fn(yb, probs)
            scaled = opt.scale_loss(loss)
        grads = tape.gradient(scaled, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return grads

    for _ in range(2):
        grads = step(x, y)
    assert all(g is not None and float(tf.norm(tf.cast(g, tf.float32))) > 0 for g in grads)
finally:
    keras.mixed_precision.set_global_policy("float32")
