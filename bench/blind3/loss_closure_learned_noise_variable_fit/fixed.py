# summary: the learned noise level is a weight of the model (add_weight in a subclassed Model whose compute_loss reads it), so fit differentiates it with the regressor and every weight changes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(12503)
x = rng.normal(size=(160, 3)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]], dtype="float32")
     + rng.normal(scale=0.3, size=(160, 1))).astype("float32")


class NoisyRegressor(tf.keras.Model):
    def __init__(self):
        super().__init__(name="regressor")
        self.mean = tf.keras.layers.Dense(1, name="mean")
        self.log_noise = self.add_weight(shape=(), initializer="zeros", name="log_noise")

    def call(self, inputs):
        return self.mean(inputs)

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        return tf.reduce_mean(0.5 * tf.square(y - y_pred) * tf.exp(-2.0 * self.log_noise)
                              + self.log_noise)


model = NoisyRegressor()
model.compile(optimizer=tf.keras.optimizers.Adam(5e-2))
model(x[:2])
weights = model.trainable_weights
before = [w.numpy().copy() for w in weights]
model.fit(x, y, epochs=3, batch_size=32, verbose=0)
assert len(weights) == 3
assert all(np.any(b != w.numpy()) for b, w in zip(before, weights, strict=True))
