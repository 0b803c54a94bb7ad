# summary: the Keras 3 train_step override for TensorFlow: self.compute_loss(y=..., y_pred=...), tape.gradient over self.trainable_variables, self.optimizer.apply(grads, vars), compiled metrics updated by hand, fit
# source: https://keras.io/guides/custom_train_step_in_tensorflow/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(26)
rng = np.random.default_rng(26)
x = rng.normal(size=(64, 8)).astype("float32")
y = rng.normal(size=(64, 1)).astype("float32")


class CustomModel(keras.Model):
    def train_step(self, data):
        a, b = data
        with tf.GradientTape() as tape:
            y_pred = self(a, training=True)
            loss = self.compute_loss(y=b, y_pred=y_pred)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply(gradients, trainable_vars)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(b, y_pred)
        return {m.name: m.result() for m in self.metrics}


inputs = keras.Input(shape=(8,))
h = layers.Dense(16, activation="relu", name="hidden")(inputs)
outputs = layers.Dense(1, name="out")(h)
model = CustomModel(inputs, outputs)
model.compile(optimizer="adam", loss="mse", metrics=["mae"])
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
