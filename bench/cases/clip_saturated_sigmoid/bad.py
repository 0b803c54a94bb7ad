# source: https://github.com/tensorflow/tensorflow/issues/89110
# cause: zero-at-runtime
# weights: logit_model/z/kernel, logit_model/z/bias
# mode: eager
# summary: a "safe" sigmoid clips logits to [-10, 10]; every logit is saturated: gradients are 0
# lint: no (zero at run time: only the values show every logit is saturated)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(28)
x = (rng.normal(size=(32, 4)) * 0.1 + 3.0).astype("float32")
y = (rng.random((32, 1)) > 0.5).astype("float32")
big = tf.keras.initializers.Constant(5.0)
model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(1, kernel_initializer=big, name="z")],
                            name="logit_model")
bce = tf.keras.losses.BinaryCrossentropy()


def safe_sigmoid(logits):
    clipped = tf.clip_by_value(logits, -10.0, 10.0)  # expect: zero-at-runtime primary
    return tf.sigmoid(clipped)


with tf.GradientTape() as tape:
    p_hat = safe_sigmoid(model(x))
    loss = bce(y, p_hat)
grads = tape.gradient(loss, model.trainable_variables)
print([float(tf.reduce_max(tf.abs(g))) for g in grads])
