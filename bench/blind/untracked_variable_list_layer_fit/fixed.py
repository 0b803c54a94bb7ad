# summary: the gains are made with add_weight, so Keras tracks them and fit trains them
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(16797)
x = rng.normal(size=(64, 2)).astype("float32")
y = (x * np.array([2.0, -1.0], dtype="float32")).sum(axis=1, keepdims=True)


class FeatureGains(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.gains = []
        for i in range(input_shape[-1]):
            self.gains.append(self.add_weight(shape=(), initializer="ones", name=f"gain{i}"))

    def call(self, inputs):
        columns = [inputs[:, i:i + 1] * gain for i, gain in enumerate(self.gains)]
        return tf.concat(columns, axis=-1)


model = tf.keras.Sequential([tf.keras.Input((2,)), FeatureGains(name="gains"),
                             tf.keras.layers.Dense(1, name="out")], name="scaled")
model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
