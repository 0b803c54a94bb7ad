# summary: the int8 rounding is simulated with tf.quantization.fake_quant_with_min_max_args, whose gradient passes straight through inside the range, so every weight gets a gradient
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
    return tf.quantization.fake_quant_with_min_max_args(h, min=0.0, max=6.0, num_bits=8)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        h = int8_round_trip(hidden(features))
        loss = tf.reduce_mean(tf.square(head(h) - targets))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss, grads


loss, grads = train_step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
