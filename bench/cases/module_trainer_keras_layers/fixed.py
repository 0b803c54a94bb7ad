# summary: the trainer passes the Keras layers' weights with its own tf.Variable
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


class Regressor(tf.Module):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(8, activation="relu", name="hidden")
        self.readout = keras.layers.Dense(1, name="readout")
        self.temperature = tf.Variable(1.0, name="temperature")
        self.optimizer = keras.optimizers.Adam(0.01)

    def weights(self):
        return (self.hidden.trainable_variables + self.readout.trainable_variables
                + [self.temperature])

    @tf.function
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            pred = self.readout(self.hidden(x)) / self.temperature
            loss = tf.reduce_mean((pred - y) ** 2)
        grads = tape.gradient(loss, self.weights())
        self.optimizer.apply_gradients(zip(grads, self.weights()))
        return loss


rng = np.random.default_rng(84019)
x = rng.normal(size=(32, 3)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
regressor = Regressor()
regressor.train_step(x, y)
before = [w.numpy().copy() for w in regressor.weights()]
for _ in range(3):
    loss = regressor.train_step(x, y)
assert all(np.any(b != w.numpy()) for b, w in zip(before, regressor.weights()))
