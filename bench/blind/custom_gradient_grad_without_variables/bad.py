# source: https://github.com/tensorflow/tensorflow/issues/31945
# cause: custom-gradient
# weights: scaler/gain
# mode: function
# summary: a tf.custom_gradient function that clips the backward signal reads the layer's gain variable, but its grad function has no `variables` argument; the traced step raises TypeError
# lint: yes
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
            def grad(dy):  # expect: custom-gradient primary
                return tf.clip_by_value(dy, -1.0, 1.0) * self.gain
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
    return loss


print(float(train_step(x, y)))
