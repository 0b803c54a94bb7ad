# source: https://github.com/tensorflow/models/issues/295
# cause: integer-dtype|non-differentiable-op
# weights: locnet/kernel, locnet/bias
# mode: function
# summary: a spatial transformer samples the shifted image at the nearest pixel: the predicted coordinates are cast to int32 and used as gather indices, so the localisation network gets None
# lint: yes
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
    coords = grid[None] + shift[:, None, None, :]
    index = tf.clip_by_value(tf.cast(tf.round(coords), tf.int32), 0, 5)  # expect: integer-dtype|non-differentiable-op primary
    return tf.gather_nd(batch, index, batch_dims=1)


@tf.function
def train_step(batch, targets):
    with tf.GradientTape() as tape:
        logits = classifier(tf.reshape(transform(batch), (-1, 36)))
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
            targets, logits, from_logits=True))
    return tape.gradient(loss, variables)


grads = train_step(images, labels)
print({v.path: g is not None for v, g in zip(variables, grads)})
