# source: https://github.com/HorizonRobotics/alf/pull/334
# summary: manifold mixup pairs each hidden vector with another row of the batch by gathering at tf.random.shuffle(tf.range(n)); the shuffle touches only integer indices and tf.gather is differentiable in its params, so every weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(334)
x = rng.normal(size=(32, 5)).astype("float32")
labels = tf.one_hot(rng.integers(0, 3, size=(32,)), 3)

body = tf.keras.Sequential([tf.keras.Input((5,)),
                            tf.keras.layers.Dense(8, activation="relu", name="body_dense")],
                           name="body")
head = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(3, name="head_dense")],
                           name="head")
sources = body.trainable_variables + head.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, y):
    with tf.GradientTape() as tape:
        h = body(features, training=True)
        partner = tf.random.shuffle(tf.range(tf.shape(h)[0]), seed=334)
        lam = 0.7
        mixed = lam * h + (1 - lam) * tf.gather(h, partner)
        mixed_y = lam * y + (1 - lam) * tf.gather(y, partner)
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(mixed_y, head(mixed)))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(x, labels)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
