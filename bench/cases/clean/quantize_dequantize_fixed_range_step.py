# summary: quantisation-aware training in a tf.function step with tf.quantization.quantize_and_dequantize_v2 over a fixed, non-trainable range: the range is not a source, the op passes the gradient straight through to the layers, and every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(4)

rng = np.random.default_rng(8)
x = rng.normal(size=(64, 5)).astype("float32")
y = (np.cos(x[:, :1]) - x[:, 2:3]).astype("float32")
encoder = tf.keras.layers.Dense(8, name="pre_quant")
head = tf.keras.layers.Dense(1, name="post_quant")
low = tf.Variable(-2.0, trainable=False, name="range_low")
high = tf.Variable(2.0, trainable=False, name="range_high")
encoder.build((None, 5))
head.build((None, 8))
optimizer = tf.keras.optimizers.Adam(1e-2)
weights = encoder.trainable_variables + head.trainable_variables


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        h = tf.quantization.quantize_and_dequantize_v2(encoder(features), low, high,
                                                       num_bits=8, range_given=True)
        loss = tf.reduce_mean(tf.square(head(h) - targets))
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return grads


before = [w.numpy().copy() for w in weights]
for _ in range(3):
    grads = train_step(x, y)
assert all(np.any(b != w.numpy()) for b, w in zip(before, weights))
