# source: https://github.com/tensorflow/tensorflow/issues/6616
# cause: zero-at-runtime
# weights: quantised/pre/kernel, quantised/pre/bias
# mode: fit
# summary: a fake-quant layer with a fixed [-1, 1] range follows a Dense layer whose outputs all lie far above it; every output is clamped, so the layers before it get exact zeros in fit
# lint: no (zero at run time: only the values show that every output is outside the range)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(6616)
x = rng.normal(size=(64, 3)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]], dtype="float32"))


class FakeQuant(tf.keras.layers.Layer):
    def call(self, inputs):
        return tf.quantization.fake_quant_with_min_max_args(inputs, min=-1.0, max=1.0)  # expect: zero-at-runtime primary


model = tf.keras.Sequential([
    tf.keras.Input((3,)),
    tf.keras.layers.Dense(4, bias_initializer=tf.keras.initializers.Constant(8.0), name="pre"),
    FakeQuant(name="quant"),
    tf.keras.layers.Dense(1, name="out"),
], name="quantised")
model.compile(optimizer="sgd", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
