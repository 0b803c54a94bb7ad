# summary: the scanned RNN cell keeps its tanh state unquantized
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
    return tf.tanh(tf.matmul(x_t, w_in) + tf.matmul(state, w_rec))


@tf.function
def train_step(seq, target):
    with tf.GradientTape() as tape:
        states = tf.scan(cell, tf.transpose(seq, [1, 0, 2]), initializer=tf.zeros([16, 6]))
        pred = tf.matmul(states[-1], w_out)
        loss = tf.reduce_mean(tf.square(pred - target))
    grads = tape.gradient(loss, params)
    optimizer.apply_gradients(zip(grads, params, strict=False))
    return loss, grads


loss, grads = train_step(xs, ys)
print(float(loss))
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
