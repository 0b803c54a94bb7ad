# source: https://github.com/keras-team/keras/issues/19244
# cause: zero-at-runtime
# rule: TM503
# weights: mp/h/kernel, mp/h/bias, mp/out/kernel, mp/out/bias
# mode: function
# summary: mixed_float16 with a LossScaleOptimizer, but the gradient is taken of the unscaled loss (optimizer.scale_loss never called): the small float16 gradients underflow to exact zeros
# lint: no (zero-at-runtime: the underflow depends on the values)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)
keras.mixed_precision.set_global_policy("mixed_float16")

rng = np.random.default_rng(19)
x = tf.constant(rng.normal(size=(64, 8)).astype("float32"))
y = tf.constant(rng.normal(size=(64, 1)).astype("float32"))
model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(16, activation="tanh", name="h"),
                          keras.layers.Dense(1, name="out")], name="mp")
optimizer = keras.optimizers.LossScaleOptimizer(keras.optimizers.AdamW(1e-3))


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        pred = tf.cast(model(features, training=True), tf.float32)
        loss = 1e-8 * tf.reduce_mean(tf.square(pred - labels))
    grads = tape.gradient(loss, model.trainable_variables)  # expect: zero-at-runtime primary
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step(x, y)
print("grad norms:", [float(tf.norm(g)) for g in grads])
keras.mixed_precision.set_global_policy("float32")
