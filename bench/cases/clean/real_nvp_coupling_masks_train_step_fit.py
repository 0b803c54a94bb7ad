# summary: Real NVP on 2-D points: coupling layers with fixed checkerboard masks (x * mask, (1 - mask) * ...), tanh-bounded scales, the log-det summed over the coupling layers, a negative log-likelihood under a standard normal, a train_step override, fit
# source: https://keras.io/examples/generative/real_nvp/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(34)
data = np.random.default_rng(34).normal(size=(128, 2)).astype("float32") * [1.0, 0.3] + [0.5, 0.0]


def coupling(name):
    inp = keras.Input((2,))
    h = layers.Dense(16, activation="relu", name=f"{name}_h")(inp)
    s = layers.Dense(2, activation="tanh", name=f"{name}_s")(h)
    t = layers.Dense(2, name=f"{name}_t")(h)
    return keras.Model(inp, [s, t], name=name)


class RealNVP(keras.Model):
    def __init__(self, num_coupling=4):
        super().__init__()
        self.masks = np.array([[0, 1], [1, 0]] * (num_coupling // 2), dtype="float32")
        self.layers_list = [coupling(f"coupling{i}") for i in range(num_coupling)]
        self.loss_tracker = keras.metrics.Mean(name="loss")

    @property
    def metrics(self):
        return [self.loss_tracker]

    def call(self, x):
        log_det_inv = 0
        for i in reversed(range(len(self.layers_list))):
            mask = self.masks[i]
            reversed_mask = 1 - mask
            x_masked = x * mask
            s, t = self.layers_list[i](x_masked)
            s *= reversed_mask
            t *= reversed_mask
            x = reversed_mask * (x * tf.exp(-s) - t * tf.exp(-s)) + x_masked
            log_det_inv += -tf.reduce_sum(s, [1])
        return x, log_det_inv

    def log_loss(self, x):
        y, logdet = self(x)
        log_likelihood = tf.reduce_sum(-0.5 * tf.square(y) - 0.5 * np.log(2 * np.pi), axis=1) + logdet
        return -tf.reduce_mean(log_likelihood)

    def train_step(self, data):
        with tf.GradientTape() as tape:
            loss = self.log_loss(data)
        g = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(g, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        return {"loss": self.loss_tracker.result()}


model = RealNVP()
model(data[:1])
model.compile(optimizer=keras.optimizers.Adam(1e-3))
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(data, batch_size=32, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
