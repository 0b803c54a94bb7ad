# summary: the routing is written with TensorFlow ops (a tf.where on the gate), so the expert is called on the traced path and gets gradients with the encoder
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

    def call(self, inputs):
        gate = tf.where(inputs[:, :1] > 0, 2.0, 1.0)
        return self.expert(inputs) * gate


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


grads = train_step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
