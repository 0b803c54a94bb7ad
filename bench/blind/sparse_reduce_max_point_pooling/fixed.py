# summary: the padded points are masked to -inf and pooled with a dense tf.reduce_max, which has a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(54214)
points = rng.normal(size=(4, 10, 3)).astype("float32")
counts = np.array([10, 7, 5, 8])
mask = np.arange(10)[None, :] < counts[:, None]
points = tf.constant(points * mask[..., None])
mask = tf.constant(mask)
labels = tf.constant(rng.integers(0, 2, size=4))
point_mlp = tf.keras.layers.Dense(8, activation="relu", name="point_mlp")
head = tf.keras.layers.Dense(2, name="cloud_head")
point_mlp.build((None, 10, 3))
head.build((None, 8))
variables = point_mlp.trainable_variables + head.trainable_variables


@tf.function
def train_step(clouds, valid, targets):
    with tf.GradientTape() as tape:
        features = point_mlp(clouds)
        masked = tf.where(valid[..., None], features, tf.fill(tf.shape(features), -1e9))
        pooled = tf.reduce_max(masked, axis=1)
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
            targets, head(pooled), from_logits=True))
    return tape.gradient(loss, variables)


grads = train_step(points, mask, labels)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
