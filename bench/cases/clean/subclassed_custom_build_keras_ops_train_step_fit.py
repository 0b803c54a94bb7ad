# source: https://keras.io/guides/making_new_layers_and_models_via_subclassing/
# summary: a subclassed layer with its own build (add_weight) written with keras.ops (ops.where on the sign, ops.take of integer positions, ops.argmax only for an accuracy metric) inside a subclassed Model with a custom train_step using tf.GradientTape, trained by fit
import numpy as np
import tensorflow as tf
import keras
from keras import ops

keras.utils.set_random_seed(0)


class PositionMix(keras.layers.Layer):
    def build(self, input_shape):
        self.pos = self.add_weight(shape=(input_shape[1], input_shape[2]), name="pos",
                                   initializer="random_normal")
        self.slope = self.add_weight(shape=(input_shape[2],), name="slope", initializer="ones")

    def call(self, x):
        order = ops.arange(ops.shape(x)[1])[::-1]
        h = x + ops.take(self.pos, order, axis=0)
        return ops.where(h > 0, h, h * 0.1 * self.slope)


class Classifier(keras.Model):
    def __init__(self):
        super().__init__()
        self.mix = PositionMix(name="mix")
        self.pool = keras.layers.GlobalAveragePooling1D()
        self.out = keras.layers.Dense(3, name="out")
        self.acc = keras.metrics.Mean(name="acc")

    def call(self, x):
        return self.out(self.pool(self.mix(x)))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            logits = self(x, training=True)
            loss = ops.mean(keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.acc.update_state(ops.cast(ops.equal(ops.argmax(logits, -1), ops.cast(y, "int64")), "float32"))
        return {"loss": loss, "acc": self.acc.result()}


model = Classifier()
model.compile(keras.optimizers.Adam(1e-2))
rng = np.random.default_rng(21)
x, y = rng.normal(size=(24, 5, 4)).astype("float32"), rng.integers(0, 3, 24)
model(x[:1])
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=1, batch_size=8, verbose=0)
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
