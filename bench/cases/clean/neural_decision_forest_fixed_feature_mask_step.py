# source: https://keras.io/examples/structured_data/deep_neural_decision_forests/
# summary: a neural decision tree: a fixed random subset of features chosen once with NumPy and applied as a one_hot mask matrix (non-trainable), routing probabilities from a sigmoid Dense, leaf probabilities via tf.gather of fixed integer node indices, class distributions pi as a trainable variable
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
DEPTH, FEATURES, USED, CLASSES = 2, 8, 5, 3
LEAVES = 2 ** DEPTH
rng = np.random.default_rng(35)
chosen = rng.choice(FEATURES, USED, replace=False)
mask = tf.constant(np.eye(FEATURES)[chosen].T, tf.float32)  # FEATURES x USED, not trained
decision = keras.layers.Dense(LEAVES, activation="sigmoid", name="decision")
pi = tf.Variable(tf.random.normal((LEAVES, CLASSES)), name="pi")
x = tf.constant(rng.normal(size=(16, FEATURES)), tf.float32)
y = tf.constant(rng.integers(0, CLASSES, 16))

with tf.GradientTape() as tape:
    d = decision(tf.matmul(x, mask))
    d = tf.expand_dims(d, 2)
    routes = tf.reshape(tf.concat([d, 1 - d], axis=2), [-1, 2 * LEAVES])
    mu = tf.ones([16, 1, 1])
    begin, end = 1, 2
    for level in range(DEPTH):
        mu = tf.tile(tf.reshape(mu, [16, -1, 1]), (1, 1, 2))
        level_routes = tf.reshape(tf.gather(routes, tf.range(begin, end) * 2 - 2, axis=1)[:, :, None]
                                  * tf.constant([1.0, 0.0]) + tf.gather(routes, tf.range(begin, end) * 2 - 1, axis=1)[:, :, None]
                                  * tf.constant([0.0, 1.0]), [16, -1, 2])
        mu = mu * level_routes
        begin, end = end, end + 2 ** (level + 1)
    mu = tf.reshape(mu, [16, LEAVES])
    probs = tf.matmul(mu, tf.nn.softmax(pi))
    loss = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(y, probs))
grads = tape.gradient(loss, decision.trainable_variables + [pi])
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
