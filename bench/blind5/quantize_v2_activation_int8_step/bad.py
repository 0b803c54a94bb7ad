# source: https://github.com/huggingface/optimum-quanto/issues/212
# cause: non-differentiable-op|integer-dtype
# weights: int8_hidden/kernel, int8_hidden/bias
# mode: function
# summary: quantisation-aware training written with the deployment ops: the hidden activations go through tf.quantization.quantize (QuantizeV2 to qint8) and tf.quantization.dequantize so training sees int8 rounding; the qint8 tensor has no gradient path (Dequantize has no registered gradient), so tape.gradient raises LookupError
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(212)
x = rng.normal(size=(64, 6)).astype("float32")
y = (x[:, :1] - 0.5 * x[:, 1:2]).astype("float32")

hidden = tf.keras.layers.Dense(12, activation="relu", name="int8_hidden")
head = tf.keras.layers.Dense(1, name="int8_out")
inputs = tf.keras.Input((6,))
model = tf.keras.Model(inputs, head(hidden(inputs)), name="int8_net")
optimizer = tf.keras.optimizers.Adam(1e-2)


def int8_round_trip(h):
    q, lo, hi = tf.quantization.quantize(h, 0.0, 6.0, tf.qint8)  # expect: non-differentiable-op|integer-dtype primary
    return tf.quantization.dequantize(q, lo, hi)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        h = int8_round_trip(hidden(features))
        loss = tf.reduce_mean(tf.square(head(h) - targets))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print("loss:", float(train_step(x, y)))
