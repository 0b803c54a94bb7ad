# source: https://github.com/tensorflow/tensorflow/pull/14259
# cause: non-differentiable-op
# rule: TM201
# weights: subspace/project/mixing, subspace/project/scale
# mode: function
# summary: a layer takes the leading left singular vectors of a learned 8x3 matrix from tf.linalg.svd(full_matrices=True); TensorFlow's SVD gradient is not implemented when full_matrices is True and the sides differ by more than one, so tape.gradient raises NotImplementedError
# lint: no (the shape decides whether the gradient exists; only the run shows it)
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
        _, u, _ = tf.linalg.svd(self.mixing, full_matrices=True)  # expect: non-differentiable-op primary
        return tf.matmul(inputs, u[:, :3]) * self.scale


model = tf.keras.Sequential([tf.keras.Input((8,)), SubspaceProjection(name="project")],
                            name="subspace")
optimizer = tf.keras.optimizers.Adam(0.01)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for _ in range(2):
    print(float(train_step(features, targets)))
