# summary: capsules with dynamic routing: prediction vectors u_hat, routing logits updated in the inner iterations through tf.stop_gradient(u_hat) and the last iteration through u_hat itself, squash, a margin loss with relu(m+ - |v|) and relu(|v| - m-), a tf.function step
# source: https://github.com/XifengGuo/CapsNet-Keras
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(33)
rng = np.random.default_rng(33)
x = rng.normal(size=(16, 12)).astype("float32")
y = np.eye(3, dtype="float32")[rng.integers(0, 3, size=16)]
primary = layers.Dense(4 * 6, name="primary")
optimizer = keras.optimizers.Adam(1e-2)
W = tf.Variable(tf.random.normal((1, 4, 3, 6, 6), stddev=0.1), name="caps_W")


def squash(v, axis=-1):
    sq = tf.reduce_sum(tf.square(v), axis, keepdims=True)
    return sq / (1 + sq) * v / tf.sqrt(sq + 1e-7)


def digit_caps(u):
    u = u[:, :, None, :, None]
    u_hat = tf.squeeze(tf.matmul(tf.tile(W, [tf.shape(u)[0], 1, 1, 1, 1]),
                                 tf.tile(u, [1, 1, 3, 1, 1])), -1)
    b = tf.zeros(tf.shape(u_hat)[:3])
    u_hat_stopped = tf.stop_gradient(u_hat)
    for i in range(3):
        c = tf.nn.softmax(b, axis=2)
        if i < 2:
            v = squash(tf.reduce_sum(c[..., None] * u_hat_stopped, axis=1, keepdims=True))
            b = b + tf.reduce_sum(u_hat_stopped * v, axis=-1)
        else:
            v = squash(tf.reduce_sum(c[..., None] * u_hat, axis=1, keepdims=True))
    return tf.squeeze(v, 1)


def margin_loss(y_true, lengths):
    loss = y_true * tf.square(tf.nn.relu(0.9 - lengths)) + 0.5 * (1 - y_true) * tf.square(tf.nn.relu(lengths - 0.1))
    return tf.reduce_mean(tf.reduce_sum(loss, 1))


@tf.function
def train_step(a, b):
    with tf.GradientTape() as tape:
        u = squash(tf.reshape(primary(a), (-1, 4, 6)))
        lengths = tf.norm(digit_caps(u), axis=-1)
        loss = margin_loss(b, lengths)
    weights = primary.trainable_variables + [W]
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return loss


primary(x[:1])
weights = primary.trainable_variables + [W]
before = [w.numpy().copy() for w in weights]
for _ in range(3):
    train_step(x, y)
assert all(not np.allclose(b_, w.numpy()) for b_, w in zip(before, weights))
