# summary: the fake-quant range [-12, 6] covers the encoder's negative activations, so no element is clamped and the encoder trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(15685)
x = tf.constant(rng.uniform(0.0, 1.0, size=(32, 5)).astype("float32"))
y = tf.constant(rng.normal(size=(32, 2)).astype("float32"))

encoder = tf.keras.layers.Dense(6, bias_initializer=tf.keras.initializers.Constant(-9.0),
                                name="encoder")
head = tf.keras.layers.Dense(2, name="head")
range_min = tf.Variable(-12.0, trainable=False, name="range_min")
range_max = tf.Variable(6.0, trainable=False, name="range_max")
optimizer = tf.keras.optimizers.SGD(0.05)

for step in range(2):
    with tf.GradientTape() as tape:
        h = encoder(x)
        q = tf.quantization.fake_quant_with_min_max_vars(h, range_min, range_max, num_bits=8)
        loss = tf.reduce_mean(tf.square(head(q) - y))
    weights = encoder.trainable_variables + head.trainable_variables
    grads = tape.gradient(loss, weights)
    assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
    optimizer.apply_gradients(zip(grads, weights))
