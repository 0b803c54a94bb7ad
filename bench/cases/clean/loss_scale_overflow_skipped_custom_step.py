# summary: a custom @tf.function step with keras.optimizers.LossScaleOptimizer under mixed_float16 on regression targets near 100: the first steps' scaled float16 gradients overflow, so apply_gradients skips them and lowers the scale (weights unchanged on purpose), later steps apply
# source: https://www.tensorflow.org/guide/mixed_precision#training_the_model_with_a_custom_training_loop
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(64)
keras.mixed_precision.set_global_policy("mixed_float16")
try:
    rng = np.random.default_rng(64)
    x = rng.normal(size=(16, 4)).astype("float32")
    y = (rng.normal(size=(16, 1)) * 10 + 100).astype("float32")
    model = keras.Sequential([keras.Input((4,)), layers.Dense(16, activation="relu", name="h"),
                              layers.Dense(1, name="out"),
                              layers.Activation("linear", dtype="float32", name="cast32")])
    opt = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(1e-4))

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(xb, training=True) - yb))
            scaled = opt.scale_loss(loss)
        grads = tape.gradient(scaled, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return grads

    before = [w.numpy().copy() for w in model.trainable_weights]
    for _ in range(12):
        grads = step(x, y)
    print("loss scale now", float(opt.dynamic_scale))
    assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
finally:
    keras.mixed_precision.set_global_policy("float32")
