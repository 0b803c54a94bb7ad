# summary: a Keras 3 custom train_step written with keras.ops only: the true-class probability picked with keras.ops.take_along_axis and integer labels, a top-2 hit rate from keras.ops.top_k indices as a metric, fit
# source: https://keras.io/guides/custom_train_step_in_tensorflow/
import numpy as np
import tensorflow as tf
import keras
from keras import layers, ops

keras.utils.set_random_seed(38)
rng = np.random.default_rng(38)
x = rng.normal(size=(48, 7)).astype("float32")
y = rng.integers(0, 5, size=(48,)).astype("int32")


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.h = layers.Dense(16, activation="relu", name="h")
        self.o = layers.Dense(5, name="o")
        self.top2 = keras.metrics.Mean(name="top2")

    def call(self, x):
        return self.o(self.h(x))

    def train_step(self, data):
        xb, yb = data
        with tf.GradientTape() as tape:
            logp = ops.log_softmax(self(xb, training=True), axis=-1)
            picked = ops.take_along_axis(logp, ops.expand_dims(yb, -1), axis=-1)
            loss = -ops.mean(picked)
        grads = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        _, idx = ops.top_k(logp, k=2)
        hit = ops.any(ops.equal(idx, ops.expand_dims(yb, -1)), axis=-1)
        self.top2.update_state(ops.cast(hit, "float32"))
        return {"loss": loss, "top2": self.top2.result()}


model = Net()
model.compile(keras.optimizers.Adam(1e-2))
model(x[:1])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=16, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
