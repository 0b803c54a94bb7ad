# source: https://github.com/tensorflow/tensorflow/pull/41359
# cause: non-differentiable-op
# weights: orthogonal/basis/raw_basis
# mode: function
# summary: a layer orthonormalises a learned tall matrix with tf.linalg.qr(full_matrices=True) and keeps the first columns; TensorFlow's QR gradient is not implemented for that case, so tape.gradient raises NotImplementedError
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(41359)
x = tf.constant(rng.normal(size=(32, 6)).astype("float32"))
y = tf.constant(rng.normal(size=(32, 3)).astype("float32"))


class OrthogonalProjection(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.raw_basis = self.add_weight(shape=(input_shape[-1], 3), name="raw_basis")

    def call(self, inputs):
        q, _ = tf.linalg.qr(self.raw_basis, full_matrices=True)  # expect: non-differentiable-op primary
        return tf.matmul(inputs, q[:, :3])


model = tf.keras.Sequential([tf.keras.Input((6,)), OrthogonalProjection(name="basis")],
                            name="orthogonal")
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(features) - targets))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print(float(train_step(x, y)))
