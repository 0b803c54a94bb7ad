# source: https://www.mbacvanski.xyz/blog/quantization-aware-training-with-custom-gradients
# summary: quantization-aware training: a tf.custom_gradient quantizer (tf.round, argmin over levels) applied to inputs, weights and bias, its grad passes dy straight through
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1712)
x = tf.constant(rng.uniform(-1, 1, size=(16, 3)).astype("float32"))
y = tf.constant(rng.uniform(-1, 1, size=(16, 2)).astype("float32"))
kernel = tf.Variable(rng.uniform(-0.5, 0.5, size=(3, 2)).astype("float32"), name="kernel")
bias = tf.Variable(np.full((2,), 0.3, dtype="float32"), name="bias")
LEVELS = tf.linspace(-1.0, 1.0, 9)


def snap(values):
    gaps = tf.abs(tf.expand_dims(values, -1) - LEVELS)
    return tf.gather(LEVELS, tf.argmin(gaps, axis=-1))


@tf.custom_gradient
def quantize(values):
    clipped = tf.clip_by_value(values, -1.0, 1.0)
    snapped = tf.round(snap(clipped) * 4.0) / 4.0

    def grad(dy):
        return dy

    return snapped, grad


def quantized_dense(inputs):
    return tf.matmul(quantize(inputs), quantize(kernel)) + quantize(bias)


opt = tf.keras.optimizers.SGD(0.1)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(quantized_dense(x) - y))
grads = tape.gradient(loss, [kernel, bias])
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
opt.apply_gradients(zip(grads, [kernel, bias]))
