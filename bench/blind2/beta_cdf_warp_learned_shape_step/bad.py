# source: https://github.com/tensorflow/probability/pull/1580
# cause: non-differentiable-op
# weights: warp_a, warp_b
# mode: function
# summary: input warping through a Beta CDF with learned shape parameters, written with tf.math.betainc; TensorFlow's gradient of betainc is None for a and b, so the two shape parameters never train while the regressor does
# lint: no (betainc is differentiable in x; only its a and b inputs get no gradient)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1580)
u = rng.uniform(0.02, 0.98, size=(128, 1)).astype("float32")
y = np.sin(6.0 * u ** 2).astype("float32")

warp_a = tf.Variable(0.0, name="warp_a")
warp_b = tf.Variable(0.0, name="warp_b")
head = tf.keras.Sequential([tf.keras.Input((1,)),
                            tf.keras.layers.Dense(16, activation="tanh", name="h"),
                            tf.keras.layers.Dense(1, name="out")], name="head")
optimizer = tf.keras.optimizers.Adam(2e-2)
sources = [warp_a, warp_b] + head.trainable_variables


@tf.function
def train_step(inputs, targets):
    with tf.GradientTape() as tape:
        a = tf.nn.softplus(warp_a) + 0.5
        b = tf.nn.softplus(warp_b) + 0.5
        warped = tf.math.betainc(a, b, inputs)  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(head(warped, training=True) - targets))
    grads = tape.gradient(loss, sources)
    return loss, grads


loss, grads = train_step(u, y)
print("grads are None:", [g is None for g in grads])
