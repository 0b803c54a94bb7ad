# summary: the thin SVD (full_matrices=False) already gives the 3 leading left singular vectors, and its gradient is implemented
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(14259)
features = tf.constant(rng.normal(size=(24, 8)).astype("float32"))
targets = tf.constant(rng.normal(size=(24, 3)).astype("float32"))


class SubspaceProjection(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.mixing = self.add_weight(shape=(input_shape[-1], 3), name="mixing")
        self.scale = self.add_weight(shape=(3,), initializer="ones", name="scale")

    def call(self, inputs):
        _, u, _ = tf.linalg.svd(self.mixing, full_matrices=False)
        return tf.matmul(inputs, u) * self.scale


model = tf.keras.Sequential([tf.keras.Input((8,)), SubspaceProjection(name="project")],
                            name="subspace")
optimizer = tf.keras.optimizers.Adam(0.01)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step(features, targets)
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
