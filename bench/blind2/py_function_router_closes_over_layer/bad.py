# source: https://github.com/tensorflow/tensorflow/issues/1095
# cause: numpy-function|not-connected
# weights: router/expert/kernel, router/expert/bias
# mode: function
# summary: a layer runs a Python routing routine through tf.py_function and the routine calls the layer's own Dense inside; py_function differentiates only with respect to the tensors passed in its inp list, so the Dense captured by the closure gets None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1095)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 3)).astype("float32")


class Router(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.expert = tf.keras.layers.Dense(3, name="expert")

    def build(self, input_shape):
        self.expert.build(input_shape)

    def _route(self, features):
        rows = [self.expert(features[i:i + 1]) * (2.0 if float(features[i, 0]) > 0 else 1.0)
                for i in range(features.shape[0])]
        return tf.concat(rows, axis=0)

    def call(self, inputs):
        routed = tf.py_function(self._route, [inputs], tf.float32)  # expect: numpy-function|not-connected primary
        routed.set_shape([None, 3])
        return routed


encoder = tf.keras.layers.Dense(4, activation="tanh", name="encoder")
router = Router(name="router")
encoder.build((None, 4))
router.build((None, 4))
sources = encoder.trainable_variables + router.trainable_variables


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(router(encoder(features)) - targets))
    return tape.gradient(loss, sources)


print("grads None:", [g is None for g in train_step(x, y)])
