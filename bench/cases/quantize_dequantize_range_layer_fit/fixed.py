# summary: the same learned range through tf.quantization.fake_quant_with_min_max_vars, whose registered gradient gives the range inputs the gradient of the clamped elements
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)


class LearnedRangeQuant(keras.layers.Layer):
    def build(self, input_shape):
        self.clip_lo = self.add_weight(shape=(), initializer=keras.initializers.Constant(-1.0),
                                       name="clip_lo")
        self.clip_hi = self.add_weight(shape=(), initializer=keras.initializers.Constant(1.0),
                                       name="clip_hi")

    def call(self, x):
        return tf.quantization.fake_quant_with_min_max_vars(x, self.clip_lo, self.clip_hi,
                                                            num_bits=6)


rng = np.random.default_rng(2280)
x = rng.normal(size=(96, 4)).astype("float32")
y = (np.tanh(x[:, :1]) - 0.5 * x[:, 2:3]).astype("float32")
model = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(8, name="pre"),
    LearnedRangeQuant(name="act_quant"),
    keras.layers.Dense(1, name="post"),
], name="qnet")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
