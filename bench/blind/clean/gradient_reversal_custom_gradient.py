# source: https://github.com/tensorflow/tensorflow/issues/4342
# summary: domain-adversarial training: a tf.custom_gradient gradient-reversal layer (identity forward, negated gradient backward) sits between the feature extractor and the domain head; every part gets a gradient from one tape
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4342)
x = tf.constant(rng.normal(size=(32, 5)).astype("float32"))
labels = tf.constant(rng.integers(0, 2, size=(32, 1)).astype("float32"))
domains = tf.constant(rng.integers(0, 2, size=(32, 1)).astype("float32"))


@tf.custom_gradient
def reverse_gradient(t):
    def grad(dy):
        return -0.5 * dy
    return tf.identity(t), grad


features = tf.keras.Sequential([tf.keras.Input((5,)),
                                tf.keras.layers.Dense(6, activation="relu", name="feat")],
                               name="features")
label_head = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(1, name="label")],
                                 name="label_head")
domain_head = tf.keras.Sequential([tf.keras.Input((6,)),
                                   tf.keras.layers.Dense(1, name="domain")], name="domain_head")
parts = features.trainable_variables + label_head.trainable_variables \
    + domain_head.trainable_variables
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(batch, y, d):
    with tf.GradientTape() as tape:
        h = features(batch, training=True)
        loss = bce(y, label_head(h)) + bce(d, domain_head(reverse_gradient(h)))
    grads = tape.gradient(loss, parts)
    optimizer.apply_gradients(zip(grads, parts))
    return grads


grads = train_step(x, labels, domains)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
