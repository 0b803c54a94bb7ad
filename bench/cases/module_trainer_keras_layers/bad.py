# source: https://github.com/tensorflow/tensorflow/issues/29329
# cause: sources-mismatch
# rule: TM116
# weights: hidden/kernel, hidden/bias, readout/kernel, readout/bias
# mode: function
# summary: a tf.Module trainer holds Keras 3 layers and a temperature tf.Variable; its trainable_variables has only the temperature
# lint: yes
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


class Regressor(tf.Module):  # expect: sources-mismatch primary
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(8, activation="relu", name="hidden")
        self.readout = keras.layers.Dense(1, name="readout")
        self.temperature = tf.Variable(1.0, name="temperature")
        self.optimizer = keras.optimizers.Adam(0.01)

    @tf.function
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            pred = self.readout(self.hidden(x)) / self.temperature
            loss = tf.reduce_mean((pred - y) ** 2)
        grads = tape.gradient(loss, self.trainable_variables)  # accept: sources-mismatch
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return loss


rng = np.random.default_rng(84019)
x = rng.normal(size=(32, 3)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
regressor = Regressor()
for _ in range(3):
    loss = regressor.train_step(x, y)
print("module variables:", [v.name for v in regressor.trainable_variables])
