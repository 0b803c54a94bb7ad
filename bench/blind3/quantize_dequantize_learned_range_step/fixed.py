# summary: the learned range goes through tf.quantization.fake_quant_with_min_max_vars, whose gradient reaches min and max for the values outside the range, so the range moves with the Dense layers
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(59960)
x = rng.normal(size=(128, 5)).astype("float32")
y = (2.0 * np.sin(x[:, :1]) + x[:, 1:2]).astype("float32")

encoder = tf.keras.layers.Dense(8, name="pre_quant")
head = tf.keras.layers.Dense(1, name="post_quant")
act_min = tf.Variable(-0.5, name="act_min")
act_max = tf.Variable(0.5, name="act_max")
encoder.build((None, 5))
head.build((None, 8))
optimizer = tf.keras.optimizers.Adam(5e-2)
sources = encoder.trainable_variables + head.trainable_variables + [act_min, act_max]


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        h = encoder(features)
        hq = tf.quantization.fake_quant_with_min_max_vars(h, act_min, act_max, num_bits=4)
        loss = tf.reduce_mean(tf.square(head(hq) - targets))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(x, y)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
