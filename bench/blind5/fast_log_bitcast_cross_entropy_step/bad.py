# source: https://github.com/tinygrad/tinygrad/pull/7031
# cause: non-differentiable-op|integer-dtype
# weights: fastlog_net/fl_hidden/kernel, fastlog_net/fl_hidden/bias, fastlog_net/fl_out/kernel, fastlog_net/fl_out/bias
# mode: function
# summary: a cross-entropy written with a "fast log" bit trick (tf.bitcast the probabilities to int32 and rescale the exponent bits) instead of tf.math.log; bitcast has no gradient, so the loss reaches the model only through an int32 reinterpretation and every gradient is None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(7031)
x = rng.normal(size=(64, 8)).astype("float32")
y = tf.one_hot(rng.integers(0, 3, size=64), 3)

model = tf.keras.Sequential([tf.keras.Input((8,)),
                             tf.keras.layers.Dense(16, activation="relu", name="fl_hidden"),
                             tf.keras.layers.Dense(3, activation="softmax", name="fl_out")],
                            name="fastlog_net")


def fast_log(p):
    bits = tf.cast(tf.bitcast(p, tf.int32), tf.float32)  # expect: non-differentiable-op|integer-dtype primary
    return (bits * 2.0 ** -23 - 127.0) * 0.6931472


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        probs = model(features, training=True)
        loss = -tf.reduce_mean(tf.reduce_sum(labels * fast_log(probs + 1e-7), axis=-1))
    return loss, tape.gradient(loss, model.trainable_variables)


loss, grads = train_step(x, y)
print("loss:", float(loss), {v.path: g is None for v, g in zip(model.trainable_variables, grads)})
