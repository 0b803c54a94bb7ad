# source: https://github.com/tensorflow/tensorflow/issues/54214
# cause: non-differentiable-op
# weights: point_mlp/kernel, point_mlp/bias, cloud_head/kernel, cloud_head/bias
# mode: function
# summary: a PointNet-style model global-max-pools per-point features of padded clouds with tf.sparse.reduce_max; SparseReduceMax has no gradient, so tape.gradient raises LookupError
# lint: yes
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
        index = tf.where(valid)
        values = tf.gather_nd(features, index)
        pooled = tf.stack([tf.sparse.reduce_max(  # expect: non-differentiable-op primary
            tf.sparse.SparseTensor(index, values[:, c], [4, 10]), axis=1) for c in range(8)], axis=-1)
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
            targets, head(pooled), from_logits=True))
    return tape.gradient(loss, variables)


print([g is not None for g in train_step(points, mask, labels)])
