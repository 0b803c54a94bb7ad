# summary: the fake-quant range covers the Dense outputs, so gradients pass through unclamped values
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(6616)
x = rng.normal(size=(64, 3)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]], dtype="float32"))


class FakeQuant(tf.keras.layers.Layer):
    def call(self, inputs):
        return tf.quantization.fake_quant_with_min_max_args(inputs, min=-16.0, max=16.0)


model = tf.keras.Sequential([
    tf.keras.Input((3,)),
    tf.keras.layers.Dense(4, bias_initializer=tf.keras.initializers.Constant(8.0), name="pre"),
    FakeQuant(name="quant"),
    tf.keras.layers.Dense(1, name="out"),
], name="quantised")
model.compile(optimizer="sgd", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
