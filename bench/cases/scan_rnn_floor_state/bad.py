# source: https://github.com/tensorflow/tensorflow/issues/54417
# cause: non-differentiable-op
# rule: TM201
# weights: w_in, w_rec
# mode: function
# summary: a hand-written RNN run by tf.scan in a tf.function step quantizes its hidden state with tf.floor
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(54417)
xs = rng.normal(size=(16, 5, 3)).astype("float32")
ys = rng.normal(size=(16, 1)).astype("float32")
w_in = tf.Variable(rng.normal(size=(3, 6)).astype("float32") * 0.3, name="w_in")
w_rec = tf.Variable(rng.normal(size=(6, 6)).astype("float32") * 0.3, name="w_rec")
w_out = tf.Variable(rng.normal(size=(6, 1)).astype("float32") * 0.3, name="w_out")
params = [w_in, w_rec, w_out]
optimizer = tf.keras.optimizers.Adam(0.01)


def cell(state, x_t):
    h = tf.tanh(tf.matmul(x_t, w_in) + tf.matmul(state, w_rec))
    return tf.floor(h * 8.0) / 8.0  # expect: non-differentiable-op primary


@tf.function
def train_step(seq, target):
    with tf.GradientTape() as tape:
        states = tf.scan(cell, tf.transpose(seq, [1, 0, 2]), initializer=tf.zeros([16, 6]))
        pred = tf.matmul(states[-1], w_out)
        loss = tf.reduce_mean(tf.square(pred - target))
    grads = tape.gradient(loss, params)
    optimizer.apply_gradients(zip(grads, params, strict=False))
    return loss


print(float(train_step(xs, ys)))
