# summary: bilinear sampling: the four neighbours are gathered at integer indices and mixed with weights computed from the fractional coordinates, so the localisation network trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(295)
images = tf.constant(rng.uniform(size=(8, 6, 6)).astype("float32"))
labels = tf.constant(rng.integers(0, 3, size=8))
locnet = tf.keras.layers.Dense(2, activation="tanh", name="locnet")
classifier = tf.keras.layers.Dense(3, name="classifier")
locnet.build((None, 36))
classifier.build((None, 36))
variables = locnet.trainable_variables + classifier.trainable_variables
grid = tf.cast(tf.stack(tf.meshgrid(tf.range(6), tf.range(6), indexing="ij"), -1), tf.float32)


def transform(batch):
    shift = 2.0 * locnet(tf.reshape(batch, (-1, 36)))
    coords = tf.clip_by_value(grid[None] + shift[:, None, None, :], 0.0, 5.0)
    base = tf.minimum(tf.floor(coords), 4.0)
    frac = coords - base
    out = 0.0
    for dy in (0, 1):
        for dx in (0, 1):
            index = tf.cast(base, tf.int32) + tf.constant([dy, dx])
            weight = (frac[..., 0] if dy else 1.0 - frac[..., 0]) * (
                frac[..., 1] if dx else 1.0 - frac[..., 1])
            out += weight * tf.gather_nd(batch, index, batch_dims=1)
    return out


@tf.function
def train_step(batch, targets):
    with tf.GradientTape() as tape:
        logits = classifier(tf.reshape(transform(batch), (-1, 36)))
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
            targets, logits, from_logits=True))
    return tape.gradient(loss, variables)


grads = train_step(images, labels)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
