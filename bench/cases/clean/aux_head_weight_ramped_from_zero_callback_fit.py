# summary: deep supervision: an auxiliary classifier head whose loss weight is a tf.Variable that starts at 0 and a callback raises after the first epoch (the head gets zero gradients until then, on purpose), a train_step override, fit
# source: https://keras.io/guides/writing_your_own_callbacks/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(42)
rng = np.random.default_rng(42)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 3, size=(64,)).astype("int32")


class DeepSupervised(keras.Model):
    def __init__(self):
        super().__init__()
        self.block1 = layers.Dense(16, activation="relu", name="block1")
        self.block2 = layers.Dense(16, activation="relu", name="block2")
        self.main_head = layers.Dense(3, name="main_head")
        self.aux_head = layers.Dense(3, name="aux_head")
        self.aux_weight = tf.Variable(0.0, trainable=False, name="aux_weight")
        self.ce = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def call(self, inputs, training=False):
        h1 = self.block1(inputs)
        return self.main_head(self.block2(h1)), self.aux_head(h1)

    def train_step(self, data):
        a, b = data
        with tf.GradientTape() as tape:
            main, aux = self(a, training=True)
            loss = self.ce(b, main) + self.aux_weight * self.ce(b, aux)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


class RampAuxWeight(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        self.model.aux_weight.assign(min(0.3, 0.15 * (epoch + 1)))


model = DeepSupervised()
model(x[:1])
model.compile(optimizer=keras.optimizers.Adam(1e-2))
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(x, y, epochs=3, batch_size=16, verbose=0, callbacks=[RampAuxWeight()])
assert all(not np.allclose(b_, w.numpy()) for b_, w in zip(before, model.trainable_variables))
