# summary: the grad function takes `variables` and returns d(loss)/d(gain) for the gain it read
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(31945)
x = tf.constant(rng.normal(size=(16, 4)).astype("float32"))
y = tf.constant(3.0 * x.numpy())


class ClippedGain(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.gain = self.add_weight(shape=(), initializer="ones", name="gain")

    def call(self, inputs):
        @tf.custom_gradient
        def scaled(t):
            def grad(dy, variables=None):
                clipped = tf.clip_by_value(dy, -1.0, 1.0)
                return clipped * self.gain, [tf.reduce_sum(clipped * t) for _ in variables]
            return t * self.gain, grad
        return scaled(inputs)


model = ClippedGain(name="scaler")
model.build((None, 4))
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(features) - targets))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step(x, y)
assert len(grads) == 1
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
