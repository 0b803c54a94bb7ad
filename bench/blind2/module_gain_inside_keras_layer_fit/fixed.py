# summary: the gain is a weight of the layer itself (add_weight), so Keras tracks it and fit trains it with the projection
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(47264)
x = rng.normal(size=(64, 4)).astype("float32")
y = 2.5 * (x @ np.array([[1.0], [-2.0], [0.5], [3.0]], dtype="float32"))


class ScaledDense(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.proj = tf.keras.layers.Dense(units, name="proj")
        self.gain = self.add_weight(name="gain", shape=(), initializer="ones")

    def call(self, inputs):
        return self.proj(inputs) * self.gain


model = tf.keras.Sequential([tf.keras.Input((4,)), ScaledDense(1, name="scaled")], name="regressor")
model.compile(optimizer=tf.keras.optimizers.Adam(5e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=3, batch_size=16, verbose=0)
assert len(model.trainable_weights) == 3
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
